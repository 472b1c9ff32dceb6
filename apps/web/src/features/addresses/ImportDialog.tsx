import { InboxOutlined } from '@ant-design/icons';
import {
  Alert,
  App,
  Button,
  Form,
  Modal,
  Select,
  Space,
  Table,
  Typography,
  Upload,
  type UploadFile,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, download, upload } from '../../lib/http.ts';
import type { AddressOwner } from './api.ts';

/** Where a book's import goes and its template comes from: the truck book's unless told. */
export interface ImportEndpoints {
  title: string;
  importUrl: string;
  templateUrl: string;
  templateName: string;
}

const TRUCK_BOOK = {
  importUrl: '/admin/address/import',
  templateUrl: '/admin/address/template',
  templateName: 'address-template.xlsx',
};

/**
 * Import of a filled template: one xlsx file (choosing another replaces it, removing asks first), all
 * rows or none; the rows the server refuses are listed with their messages.
 */
export function ImportDialog({
  owners,
  ownerRequired,
  onClose,
  onImported,
  endpoints,
}: {
  owners: AddressOwner[];
  ownerRequired: boolean;
  onClose: () => void;
  onImported: () => void;
  endpoints?: ImportEndpoints;
}) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const [file, setFile] = useState<UploadFile | null>(null);
  const [owner, setOwner] = useState<number | undefined>();
  const [busy, setBusy] = useState(false);
  const [rowErrors, setRowErrors] = useState<{ row: string; message: string }[]>([]);
  const [failure, setFailure] = useState<string | null>(null);
  const { importUrl, templateUrl, templateName } = endpoints ?? TRUCK_BOOK;

  const start = async () => {
    if (!file?.originFileObj) return;
    setBusy(true);
    setRowErrors([]);
    setFailure(null);
    try {
      const query = owner ? `?organisationId=${owner}` : '';
      const done = await upload<{ imported: number }>(`${importUrl}${query}`, file.originFileObj);
      message.success(t('addresses.imported', { count: done.imported }));
      onImported();
    } catch (error) {
      if (!(error instanceof ApiError)) return;
      const rows = (error.data as { rows?: Record<string, string> } | null)?.rows;
      if (rows) {
        setRowErrors(
          Object.entries(rows)
            .map(([row, text]) => ({ row, message: text }))
            .sort((a, b) => Number(a.row) - Number(b.row)),
        );
      }
      setFailure(error.fields[0]?.message ?? error.message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open
      width={600}
      title={endpoints?.title ?? t('addresses.importTitle')}
      onCancel={onClose}
      destroyOnHidden
      footer={
        <Space>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button
            type="primary"
            loading={busy}
            disabled={!file || (ownerRequired && !owner)}
            onClick={() => void start()}
            data-testid="address-import-start"
          >
            {t('addresses.startImport')}
          </Button>
        </Space>
      }
    >
      <Typography.Paragraph>
        1. {t('addresses.importStep1')}{' '}
        <Button
          type="link"
          size="small"
          onClick={() => void download(templateUrl, {}, templateName)}
          data-testid="address-template"
        >
          {t('addresses.template')}
        </Button>
      </Typography.Paragraph>
      <Typography.Paragraph>2. {t('addresses.importStep2')}</Typography.Paragraph>
      {owners.length > 1 || ownerRequired ? (
        <Form layout="vertical">
          <Form.Item label={t('addresses.organisation')} required={ownerRequired}>
            <Select
              showSearch={{ optionFilterProp: 'label' }}
              allowClear
              value={owner}
              onChange={setOwner}
              placeholder={t('common.select')}
              options={owners.map((o) => ({ value: o.id, label: `${o.name} · ${t(`identity.${o.type}`)}` }))}
            />
          </Form.Item>
        </Form>
      ) : null}
      <Upload.Dragger
        accept=".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
        maxCount={1}
        fileList={file ? [file] : []}
        beforeUpload={() => false}
        onChange={({ fileList }) => {
          // One file: a newly chosen file replaces the one before it.
          const latest = fileList[fileList.length - 1];
          if (latest) {
            setFile(latest);
            setRowErrors([]);
            setFailure(null);
          }
        }}
        onRemove={() =>
          new Promise<boolean>((resolve) => {
            modal.confirm({
              title: t('shell.dialogTitle'),
              content: t('addresses.removeFileConfirm'),
              okText: t('shell.ok'),
              cancelText: t('shell.cancel'),
              onOk: () => {
                setFile(null);
                setRowErrors([]);
                setFailure(null);
                resolve(true);
              },
              onCancel: () => resolve(false),
            });
          })
        }
        data-testid="address-import-file"
      >
        <p className="ant-upload-drag-icon">
          <InboxOutlined />
        </p>
        <p className="ant-upload-text">{t('addresses.chooseFile')}</p>
      </Upload.Dragger>
      {failure ? (
        <Alert
          type="error"
          showIcon
          style={{ marginTop: 16 }}
          title={rowErrors.length > 0 ? t('addresses.rowErrors') : failure}
          data-testid="address-import-error"
        />
      ) : null}
      {rowErrors.length > 0 ? (
        <Table
          size="small"
          rowKey="row"
          style={{ marginTop: 8 }}
          pagination={rowErrors.length > 10 ? { pageSize: 10, size: 'small' } : false}
          dataSource={rowErrors}
          columns={[
            { title: t('addresses.row'), dataIndex: 'row', width: 70 },
            { title: t('addresses.error'), dataIndex: 'message' },
          ]}
          data-testid="address-import-rows"
        />
      ) : null}
    </Modal>
  );
}
