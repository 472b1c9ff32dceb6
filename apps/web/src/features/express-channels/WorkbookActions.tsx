import { DownloadOutlined, ExportOutlined } from '@ant-design/icons';
import { useMutation } from '@tanstack/react-query';
import { App, Button, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { SheetImportButton } from '../../components/SheetImport.tsx';
import { useReportError } from '../../hooks/useReportError.ts';
import {
  type ChannelFilters,
  type ChannelImport,
  channelSheetApi,
  type ExpressChannel,
  type ImportedRows,
  type WorkbookApi,
} from './api.ts';

/**
 * Template, export and import of one of a channel's workbooks (zone chart or price table), or of the
 * channel list (its filters exported, an import adding and updating channels by code). An import is
 * confirmed first, and a bad file imports nothing.
 */
export function WorkbookActions(
  props: { onImported: () => void } & (
    | { kind: 'zones' | 'prices'; channel: Pick<ExpressChannel, 'id' | 'code'>; api: WorkbookApi }
    | { kind: 'channels'; filters: ChannelFilters }
  ),
) {
  const { kind, onImported } = props;
  const { t } = useTranslation();
  const { message } = App.useApp();
  const reportError = useReportError();
  const calls: {
    template: () => Promise<void>;
    export: () => Promise<unknown>;
    import: (file: File) => Promise<ImportedRows | ChannelImport>;
    channel?: string;
  } =
    props.kind === 'channels'
      ? {
          template: channelSheetApi.template,
          // The list as filtered now: every page of it, in the template's columns.
          export: () => channelSheetApi.export(props.filters),
          import: channelSheetApi.import,
        }
      : {
          template: props.api.template,
          export: () => props.api.export(props.channel),
          import: (file) => props.api.import(props.channel.id, file),
          channel: props.channel.code,
        };
  const template = useMutation({ mutationFn: calls.template, onError: (e) => reportError(e) });
  const runExport = useMutation({ mutationFn: calls.export, onError: (e) => reportError(e) });

  return (
    <Space wrap>
      <Button
        icon={<DownloadOutlined />}
        loading={template.isPending}
        onClick={() => template.mutate()}
        data-testid={`${kind}-template`}
      >
        {t('channelWorkbook.template')}
      </Button>
      <Button
        icon={<ExportOutlined />}
        loading={runExport.isPending}
        onClick={() => runExport.mutate()}
        data-testid={`${kind}-export`}
      >
        {t('common.export')}
      </Button>
      <SheetImportButton
        label={t('channelWorkbook.import')}
        testId={`${kind}-import`}
        confirm={(name) => t(`channelWorkbook.importConfirm.${kind}`, { name, channel: calls.channel })}
        run={calls.import}
        onDone={(done) => {
          // A channel list's import also counts the channels added and updated.
          message.success(t(`channelWorkbook.imported.${kind}`, { ...done, count: done.imported }));
          onImported();
        }}
      />
    </Space>
  );
}
