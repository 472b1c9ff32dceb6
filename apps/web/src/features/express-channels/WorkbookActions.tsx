import { DownloadOutlined, ExportOutlined } from '@ant-design/icons';
import { useMutation } from '@tanstack/react-query';
import { App, Button, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { SheetImportButton } from '../../components/SheetImport.tsx';
import { useReportError } from '../../hooks/useReportError.ts';
import type { ExpressChannel, WorkbookApi } from './api.ts';

/**
 * Template, export and import of one of a channel's workbooks (zone chart or price table): an import
 * is confirmed first because it replaces the channel's whole table, and a bad file imports nothing.
 */
export function WorkbookActions({
  channel,
  api,
  kind,
  onImported,
}: {
  channel: Pick<ExpressChannel, 'id' | 'code'>;
  api: WorkbookApi;
  kind: 'zones' | 'prices';
  onImported: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const reportError = useReportError();
  const template = useMutation({ mutationFn: api.template, onError: (e) => reportError(e) });
  const runExport = useMutation({ mutationFn: () => api.export(channel), onError: (e) => reportError(e) });

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
        confirm={(name) => t(`channelWorkbook.importConfirm.${kind}`, { name, channel: channel.code })}
        run={(file) => api.import(channel.id, file)}
        onDone={(done) => {
          message.success(t(`channelWorkbook.imported.${kind}`, { count: done.imported }));
          onImported();
        }}
      />
    </Space>
  );
}
