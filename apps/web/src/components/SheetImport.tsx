import { UploadOutlined } from '@ant-design/icons';
import { useMutation } from '@tanstack/react-query';
import { Alert, App, Button, Modal, Upload } from 'antd';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useReportError } from '../hooks/useReportError.ts';
import { ApiError } from '../lib/http.ts';

/** One problem of a refused sheet: where it is and what is wrong, in the reader's language. */
export interface SheetRowError {
  sheet: string;
  row: number;
  message: string;
}

const XLSX = '.xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * The button that imports a sheet: the user picks one xlsx file, confirms what the import replaces or
 * adds, and the file is sent. A refused sheet imports nothing on the server; its answer names every bad
 * row, and they are listed in a dialog so the user can mend the file and try again.
 */
export function SheetImportButton<T>({
  label,
  confirm,
  run,
  onDone,
  testId,
  disabled,
}: {
  label: ReactNode;
  /** What the user agrees to before the file is sent (e.g. "replaces every row of the chart"). */
  confirm: (fileName: string) => ReactNode;
  run: (file: File) => Promise<T>;
  onDone: (result: T) => void;
  testId?: string;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const reportError = useReportError();
  const [failed, setFailed] = useState<{ summary: string; rows: SheetRowError[] } | null>(null);
  const send = useMutation({
    mutationFn: run,
    onSuccess: onDone,
    onError: (error) => {
      const rows =
        error instanceof ApiError ? (error.data as { errors?: SheetRowError[] } | null)?.errors : null;
      if (rows && error instanceof ApiError) setFailed({ summary: error.message, rows });
      else reportError(error);
    },
  });
  const ask = (file: File) =>
    modal.confirm({
      title: t('shell.dialogTitle'),
      content: confirm(file.name),
      okText: t('shell.ok'),
      cancelText: t('shell.cancel'),
      okButtonProps: { 'data-testid': 'import-confirm-ok' } as never,
      onOk: () => send.mutateAsync(file).catch(() => undefined),
    });
  return (
    <>
      <Upload
        accept={XLSX}
        showUploadList={false}
        maxCount={1}
        disabled={disabled}
        beforeUpload={(file) => {
          ask(file);
          return false;
        }}
      >
        <Button icon={<UploadOutlined />} loading={send.isPending} disabled={disabled} data-testid={testId}>
          {label}
        </Button>
      </Upload>
      <Modal
        open={failed !== null}
        width={640}
        title={t('sheetImport.failed')}
        onCancel={() => setFailed(null)}
        footer={
          <Button type="primary" onClick={() => setFailed(null)} data-testid="import-errors-ok">
            {t('shell.ok')}
          </Button>
        }
      >
        <Alert
          type="error"
          showIcon
          title={failed?.summary}
          description={t('sheetImport.nothingImported')}
          style={{ marginBottom: 12 }}
        />
        <ul
          style={{ maxHeight: 360, overflow: 'auto', paddingInlineStart: 20, margin: 0 }}
          data-testid="import-errors"
        >
          {(failed?.rows ?? []).map((e, i) => (
            // One sheet row may have several problems, so the index keeps the keys apart.
            // biome-ignore lint/suspicious/noArrayIndexKey: the list is replaced whole, never reordered
            <li key={i}>
              {e.row > 0
                ? t('sheetImport.errorLine', { sheet: e.sheet, row: e.row, message: e.message })
                : e.message}
            </li>
          ))}
        </ul>
      </Modal>
    </>
  );
}
