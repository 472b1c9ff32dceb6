import { InboxOutlined } from '@ant-design/icons';
import { Alert, App, Button, Modal, Space, Steps, Table, Upload } from 'antd';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, downloadGet, upload } from '../lib/http.ts';

/** Where a line's batch import lives: its template, its optional check and its import. */
export interface BatchEndpoints {
  template: string;
  templateName: string;
  check: string;
  import: string;
}

type RowAnswers = Record<string, string>;

/**
 * The 600px batch import dialog of SPEC section 2: download the template, optionally check, upload one
 * file (another replaces it; removing asks first), import. Failing rows are listed as the spreadsheet
 * numbers them (the header is row 1, so the Nth data row is row N+1); on success the dialog closes.
 * Each line (truck, express) wraps it with its endpoints and its own choices.
 */
export function BatchImportDialog({
  title,
  open,
  onClose,
  endpoints,
  fields = {},
  query = '',
  extra,
  blocked = null,
  onImported,
}: {
  title: string;
  open: boolean;
  onClose: () => void;
  endpoints: BatchEndpoints;
  /** Sent with the file (the shipping address). */
  fields?: Record<string, string>;
  /** Appended to the check and import URLs (the customer staff import for). */
  query?: string;
  /** Choices the line adds above the upload. */
  extra?: ReactNode;
  /** Why checking and importing must wait (a required choice not made yet); null when they need not. */
  blocked?: string | null;
  /** After a successful import, with each row's answer. */
  onImported?: (answers: RowAnswers) => void;
}) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState<'check' | 'import' | null>(null);
  const [failures, setFailures] = useState<{ row: string; message: string }[] | null>(null);
  const [checked, setChecked] = useState(false);

  const failingRows = (answers: RowAnswers) =>
    Object.entries(answers)
      .filter(([, v]) => v !== 'success')
      .map(([row, v]) => ({ row, message: v }));

  const run = async (kind: 'check' | 'import') => {
    if (!file || blocked) return;
    setBusy(kind);
    try {
      const answers = await upload<RowAnswers>(`${endpoints[kind]}${query}`, file, 'file', fields);
      const failing = failingRows(answers ?? {});
      if (failing.length > 0) {
        setFailures(failing);
        return;
      }
      if (kind === 'check') {
        setChecked(true);
        message.success(t('batch.checkPassed'));
        return;
      }
      message.success(t('batch.done'));
      setFile(null);
      setChecked(false);
      onImported?.(answers ?? {});
      onClose();
    } catch (error) {
      if (
        error instanceof ApiError &&
        error.data &&
        typeof error.data === 'object' &&
        !('fields' in error.data)
      ) {
        setFailures(failingRows(error.data as RowAnswers));
      } else if (error instanceof ApiError && !error.notified) message.error(error.message);
    } finally {
      setBusy(null);
    }
  };

  const step = file ? (checked ? 3 : 2) : 0;
  return (
    <Modal open={open} width={600} title={title} onCancel={onClose} footer={null} destroyOnHidden>
      <Steps
        size="small"
        current={step}
        style={{ margin: '12px 0 20px' }}
        items={[
          { title: t('batch.template') },
          { title: t('batch.check') },
          { title: t('batch.upload') },
          { title: t('batch.import') },
        ]}
      />
      <Space orientation="vertical" style={{ width: '100%' }} size={12}>
        <Button
          onClick={() => void downloadGet(endpoints.template, endpoints.templateName)}
          data-testid="batch-template"
        >
          {t('batch.template')}
        </Button>
        {extra}
        <Upload.Dragger
          accept=".xlsx"
          maxCount={1}
          fileList={file ? [{ uid: '1', name: file.name, status: 'done' }] : []}
          beforeUpload={(chosen) => {
            // One file: a new choice replaces the old one.
            setFile(chosen);
            setChecked(false);
            return false;
          }}
          onRemove={() =>
            new Promise<boolean>((resolve) =>
              modal.confirm({
                title: t('shell.dialogTitle'),
                content: t('upload.removeConfirm'),
                onOk: () => {
                  setFile(null);
                  setChecked(false);
                  message.success(t('upload.removed'));
                  resolve(true);
                },
                onCancel: () => {
                  message.info(t('upload.cancelled'));
                  resolve(false);
                },
              }),
            )
          }
          data-testid="batch-file"
        >
          <p className="ant-upload-drag-icon">
            <InboxOutlined />
          </p>
          <p className="ant-upload-text">{t('batch.chooseFile')}</p>
        </Upload.Dragger>
        {blocked ? <Alert type="warning" showIcon title={blocked} data-testid="batch-blocked" /> : null}
        <Space>
          <Button
            disabled={!file || Boolean(blocked)}
            loading={busy === 'check'}
            onClick={() => void run('check')}
            data-testid="batch-check"
          >
            {t('batch.check')}
          </Button>
          <Button
            type="primary"
            disabled={!file || Boolean(blocked)}
            loading={busy === 'import'}
            onClick={() => void run('import')}
            data-testid="batch-import"
          >
            {t('batch.import')}
          </Button>
        </Space>
      </Space>
      <Modal
        open={failures !== null}
        title={t('batch.failures')}
        onCancel={() => setFailures(null)}
        footer={
          <Button onClick={() => setFailures(null)} data-testid="batch-failures-ok">
            {t('shell.ok')}
          </Button>
        }
        width={600}
      >
        <Alert type="error" showIcon title={t('batch.nothingImported')} style={{ marginBottom: 12 }} />
        <Table
          size="small"
          rowKey="row"
          pagination={{ pageSize: 10 }}
          dataSource={failures ?? []}
          data-testid="batch-failures"
          columns={[
            {
              title: t('batch.row'),
              dataIndex: 'row',
              width: 90,
              render: (row: string) => t('batch.rowN', { row }),
            },
            { title: t('batch.message'), dataIndex: 'message' },
          ]}
        />
      </Modal>
    </Modal>
  );
}
