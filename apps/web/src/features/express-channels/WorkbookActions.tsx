import { DownloadOutlined, ExportOutlined, UploadOutlined } from '@ant-design/icons';
import { ResultCode } from '@freight/contracts/api';
import { useMutation } from '@tanstack/react-query';
import { Alert, App, Button, Modal, Space, Upload } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useReportError } from '../../hooks/useReportError.ts';
import { ApiError } from '../../lib/http.ts';
import type { ExpressChannel, WorkbookApi } from './api.ts';

const XLSX_ACCEPT = '.xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** What a refused workbook said: the server's message names the row and field; details may follow. */
interface ImportRefusal {
  summary: string;
  details: string[];
}

function refusalOf(
  error: ApiError,
  rowLine: (sheet: string, row: number, message: string) => string,
): ImportRefusal {
  const details = error.fields.map((f) => f.message);
  // The workbook's refused rows, as the spreadsheet numbers them; row 0 is the file as a whole.
  const rows = (error.data as { errors?: { sheet?: string; row?: number; message?: string }[] } | null)
    ?.errors;
  if (Array.isArray(rows))
    for (const r of rows)
      if (r.message)
        details.push(
          typeof r.row === 'number' && r.row > 0 ? rowLine(r.sheet ?? '', r.row, r.message) : r.message,
        );
  return { summary: error.message, details: [...new Set(details)].filter((d) => d !== error.message) };
}

/**
 * Template, export and import of one of a channel's workbooks (zone chart or price table), the way the
 * truck tariffs do it: files through the shared HTTP helpers, and an import confirmed first because it
 * replaces the channel's whole table (a bad file imports nothing).
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
  const { message, modal } = App.useApp();
  const reportError = useReportError();
  const [refusal, setRefusal] = useState<ImportRefusal | null>(null);

  const template = useMutation({ mutationFn: api.template, onError: (e) => reportError(e) });
  const runExport = useMutation({ mutationFn: () => api.export(channel), onError: (e) => reportError(e) });
  const runImport = useMutation({
    mutationFn: (file: File) => api.import(channel.id, file),
    onSuccess: (done) => {
      message.success(t(`channelWorkbook.imported.${kind}`, { count: done.imported }));
      onImported();
    },
    onError: (error) => {
      if (error instanceof ApiError && error.code === ResultCode.BadInput)
        setRefusal(
          refusalOf(error, (sheet, row, text) =>
            sheet
              ? t('channelWorkbook.sheetRowLine', { sheet, row, message: text })
              : t('channelWorkbook.rowLine', { row, message: text }),
          ),
        );
      else reportError(error);
    },
  });
  const confirmImport = (file: File) =>
    modal.confirm({
      title: t('shell.dialogTitle'),
      content: t(`channelWorkbook.importConfirm.${kind}`, { name: file.name, channel: channel.code }),
      okText: t('shell.ok'),
      cancelText: t('shell.cancel'),
      okButtonProps: { danger: true, 'data-testid': `${kind}-import-ok` } as never,
      onOk: () => runImport.mutateAsync(file).catch(() => undefined),
    });

  return (
    <>
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
        <Upload
          accept={XLSX_ACCEPT}
          showUploadList={false}
          maxCount={1}
          beforeUpload={(file) => {
            confirmImport(file);
            return false;
          }}
        >
          <Button icon={<UploadOutlined />} loading={runImport.isPending} data-testid={`${kind}-import`}>
            {t('channelWorkbook.import')}
          </Button>
        </Upload>
      </Space>
      <Modal
        open={refusal !== null}
        width={640}
        title={t('channelWorkbook.importFailed')}
        onCancel={() => setRefusal(null)}
        footer={
          <Button type="primary" onClick={() => setRefusal(null)} data-testid={`${kind}-import-errors-ok`}>
            {t('shell.ok')}
          </Button>
        }
      >
        <Alert
          type="error"
          showIcon
          title={refusal?.summary}
          description={t('channelWorkbook.nothingImported')}
          style={{ marginBottom: 12 }}
          data-testid={`${kind}-import-error`}
        />
        {refusal && refusal.details.length > 0 ? (
          <ul style={{ maxHeight: 320, overflow: 'auto', paddingInlineStart: 20, margin: 0 }}>
            {refusal.details.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        ) : null}
      </Modal>
    </>
  );
}
