import { UploadOutlined } from '@ant-design/icons';
import {
  App,
  Button,
  DatePicker,
  Empty,
  Form,
  Input,
  Modal,
  Select,
  Space,
  Table,
  Tag,
  Typography,
  Upload,
} from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FilterBar, periodInstants, useServerList } from '../../components/list.tsx';
import { PrivateFileLink } from '../../components/PrivateFile.tsx';
import { useSession } from '../../context/session.tsx';
import { useReportError } from '../../hooks/useReportError.ts';
import { ApiError, download, post, upload } from '../../lib/http.ts';

type Status = 'requested' | 'issued' | 'refused';
interface InvoiceRow {
  id: number;
  organisationName: string;
  line: 'truck' | 'express';
  periodFrom: string;
  periodTo: string;
  amount: string;
  title: string;
  taxNumber: string;
  email: string;
  note: string;
  status: Status;
  invoiceNumber: string | null;
  fileUrl: string | null;
  refusalReason: string | null;
  createdAt: string;
  actions: ('issue' | 'refuse')[];
}

const COLOUR: Record<Status, string> = { requested: 'processing', issued: 'success', refused: 'error' };
const periodText = (r: Pick<InvoiceRow, 'periodFrom' | 'periodTo'>) =>
  `${dayjs(r.periodFrom).format('YYYY-MM-DD')} ~ ${dayjs(r.periodTo).format('YYYY-MM-DD')}`;
/** A required field's rule, with the shared message naming the field. */
const required = (message: string) => ({ required: true, whitespace: true, message });

/** The issued invoice's file (PDF or photo), uploaded as a document; the value is its URL. */
function InvoiceFileInput({
  value,
  onChange,
}: {
  value?: string | null;
  onChange?: (url: string | null) => void;
}) {
  const { t } = useTranslation();
  const reportError = useReportError();
  const [busy, setBusy] = useState(false);
  return (
    <Space>
      <Upload
        showUploadList={false}
        accept=".pdf,.png,.jpg,.jpeg,.webp"
        customRequest={async ({ file }) => {
          setBusy(true);
          try {
            const [url] = await upload<string[]>('/common/upload/documents', file as File);
            onChange?.(url ?? null);
          } catch (error) {
            reportError(error);
          } finally {
            setBusy(false);
          }
        }}
      >
        <Button icon={<UploadOutlined />} loading={busy}>
          {t('invoices.uploadFile')}
        </Button>
      </Upload>
      {value ? <PrivateFileLink url={value} /> : null}
    </Space>
  );
}

/** `/invoices`: a customer requests an invoice for a period of paid orders; staff issue or refuse it. */
export default function InvoicesPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const reportError = useReportError();
  const { userInfo } = useSession();
  const staff = userInfo?.identity === 'employee';
  const customer = userInfo?.identity === 'customer';
  const [filterForm] = Form.useForm<{
    status?: Status;
    line?: string;
    keyword?: string;
    period?: [Dayjs, Dayjs];
  }>();
  const [filters, setFilters] = useState<Record<string, unknown>>({});
  const list = useServerList<InvoiceRow>('/admin/invoice/list', filters);
  const [requesting, setRequesting] = useState(false);
  const [deciding, setDeciding] = useState<{ row: InvoiceRow; action: 'issue' | 'refuse' } | null>(null);
  const [requestForm] = Form.useForm();
  const [decideForm] = Form.useForm();
  const [busy, setBusy] = useState(false);

  const submitRequest = async (values: {
    line: string;
    period: [Dayjs, Dayjs];
    title: string;
    taxNumber: string;
    email: string;
    note?: string;
  }) => {
    setBusy(true);
    try {
      await post('/admin/invoice/request', {
        line: values.line,
        periodFrom: values.period[0].startOf('day').toISOString(),
        periodTo: values.period[1].endOf('day').toISOString(),
        title: values.title,
        taxNumber: values.taxNumber,
        email: values.email,
        note: values.note ?? '',
      });
      message.success(t('invoices.requested'));
      setRequesting(false);
      void list.refetch();
    } catch (error) {
      // The API names the period's ends; the form has one range field for both.
      const periodErrors =
        error instanceof ApiError ? error.fields.filter((f) => f.field.startsWith('period')) : [];
      if (periodErrors.length > 0)
        requestForm.setFields([{ name: 'period', errors: periodErrors.map((f) => f.message) }]);
      else reportError(error, requestForm);
    } finally {
      setBusy(false);
    }
  };

  const decide = async (values: { invoiceNumber?: string; reason?: string; fileUrl?: string }) => {
    if (!deciding) return;
    setBusy(true);
    try {
      if (deciding.action === 'issue')
        await post('/admin/invoice/issue', {
          id: deciding.row.id,
          invoiceNumber: values.invoiceNumber,
          fileUrl: values.fileUrl ?? null,
        });
      else await post('/admin/invoice/refuse', { id: deciding.row.id, reason: values.reason });
      message.success(t('common.saved'));
      setDeciding(null);
      void list.refetch();
    } catch (error) {
      reportError(error, decideForm);
      // Another member of staff may have decided it first (409): show where it stands now.
      void list.refetch();
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="page-card">
      <FilterBar
        form={filterForm}
        onSearch={(v) => {
          setFilters({
            status: v.status,
            line: v.line,
            keyword: v.keyword || undefined,
            ...periodInstants(v.period),
          });
          list.resetPage();
        }}
        extra={
          <Space>
            {!staff ? (
              <Button
                type="primary"
                onClick={() => {
                  requestForm.resetFields();
                  setRequesting(true);
                }}
                data-testid="invoice-request"
              >
                {t('invoices.request')}
              </Button>
            ) : null}
            <Button onClick={() => void download('/admin/invoice/export', filters, 'invoices.xlsx')}>
              {t('common.export')}
            </Button>
          </Space>
        }
      >
        {!customer ? (
          <Form.Item name="keyword" label={t('invoices.organisation')}>
            <Input allowClear placeholder={t('ledger.keywordTip')} data-testid="invoice-keyword" />
          </Form.Item>
        ) : null}
        <Form.Item name="status" label={t('invoices.status')}>
          <Select
            allowClear
            style={{ width: 130 }}
            options={(['requested', 'issued', 'refused'] as const).map((s) => ({
              value: s,
              label: t(`invoices.status.${s}`),
            }))}
          />
        </Form.Item>
        <Form.Item name="line" label={t('invoices.line')}>
          <Select
            allowClear
            style={{ width: 110 }}
            options={(['truck', 'express'] as const).map((l) => ({ value: l, label: t(`ledger.line.${l}`) }))}
          />
        </Form.Item>
        <Form.Item name="period" label={t('invoices.requestedAt')}>
          <DatePicker.RangePicker />
        </Form.Item>
      </FilterBar>
      <Table<InvoiceRow>
        rowKey="id"
        loading={list.loading}
        dataSource={list.rows}
        pagination={list.pagination}
        scroll={{ x: 'max-content' }}
        className="nowrap-table"
        locale={{
          emptyText: (
            <Empty
              image={Empty.PRESENTED_IMAGE_SIMPLE}
              description={staff ? t('invoices.emptyStaff') : t('invoices.emptyCustomer')}
            />
          ),
        }}
        columns={[
          { title: t('invoices.organisation'), dataIndex: 'organisationName' },
          { title: t('invoices.line'), render: (_, r) => t(`ledger.line.${r.line}`) },
          {
            title: t('invoices.period'),
            render: (_, r) => periodText(r),
          },
          { title: t('invoices.amount'), dataIndex: 'amount', align: 'right' },
          { title: t('invoices.title'), dataIndex: 'title' },
          { title: t('invoices.taxNumber'), dataIndex: 'taxNumber' },
          { title: t('invoices.email'), dataIndex: 'email' },
          {
            title: t('invoices.status'),
            render: (_, r) => (
              <Tag color={COLOUR[r.status]} data-testid={`invoice-status-${r.id}`}>
                {t(`invoices.status.${r.status}`)}
              </Tag>
            ),
          },
          {
            title: t('invoices.invoiceNumber'),
            render: (_, r) =>
              r.fileUrl ? (
                <PrivateFileLink url={r.fileUrl}>{r.invoiceNumber}</PrivateFileLink>
              ) : (
                (r.invoiceNumber ?? '—')
              ),
          },
          {
            title: t('invoices.refusalReason'),
            ellipsis: true,
            render: (_, r) =>
              r.refusalReason ? <Typography.Text type="danger">{r.refusalReason}</Typography.Text> : '—',
          },
          {
            title: t('invoices.requestedAt'),
            render: (_, r) => dayjs(r.createdAt).format('YYYY-MM-DD HH:mm'),
          },
          {
            title: t('common.actions'),
            fixed: 'right',
            render: (_, r) => (
              <Space>
                {r.actions.map((action) => (
                  <Button
                    key={action}
                    size="small"
                    danger={action === 'refuse'}
                    type={action === 'issue' ? 'primary' : 'default'}
                    onClick={() => {
                      decideForm.resetFields();
                      setDeciding({ row: r, action });
                    }}
                    data-testid={`invoice-${action}-${r.id}`}
                  >
                    {t(`invoices.${action}`)}
                  </Button>
                ))}
              </Space>
            ),
          },
        ]}
      />
      <Modal
        open={requesting}
        title={t('invoices.request')}
        onCancel={() => setRequesting(false)}
        onOk={() => requestForm.submit()}
        confirmLoading={busy}
        okButtonProps={{ 'data-testid': 'invoice-request-ok' } as never}
        destroyOnHidden
      >
        <Typography.Paragraph type="secondary">{t('invoices.requestTip')}</Typography.Paragraph>
        <Form
          form={requestForm}
          layout="vertical"
          initialValues={{ line: 'truck', email: userInfo?.email }}
          onFinish={(v) => void submitRequest(v)}
        >
          <Form.Item name="line" label={t('invoices.line')}>
            <Select
              options={(['truck', 'express'] as const).map((l) => ({
                value: l,
                label: t(`ledger.line.${l}`),
              }))}
            />
          </Form.Item>
          <Form.Item
            name="period"
            label={t('invoices.period')}
            rules={[{ required: true, message: t('validation.required', { field: t('invoices.period') }) }]}
          >
            <DatePicker.RangePicker style={{ width: '100%' }} data-testid="invoice-period" />
          </Form.Item>
          <Form.Item
            name="title"
            label={t('invoices.title')}
            rules={[required(t('validation.required', { field: t('invoices.title') }))]}
          >
            <Input maxLength={120} data-testid="invoice-title" />
          </Form.Item>
          <Form.Item
            name="taxNumber"
            label={t('invoices.taxNumber')}
            rules={[required(t('validation.required', { field: t('invoices.taxNumber') }))]}
          >
            <Input maxLength={40} data-testid="invoice-tax" />
          </Form.Item>
          <Form.Item
            name="email"
            label={t('invoices.email')}
            rules={[
              required(t('validation.required', { field: t('invoices.email') })),
              { type: 'email', message: t('validation.email') },
            ]}
          >
            <Input maxLength={254} />
          </Form.Item>
          <Form.Item name="note" label={t('invoices.note')}>
            <Input.TextArea maxLength={200} rows={2} />
          </Form.Item>
        </Form>
      </Modal>
      <Modal
        open={deciding !== null}
        title={deciding?.action === 'issue' ? t('invoices.issueTitle') : t('invoices.refuseTitle')}
        onCancel={() => setDeciding(null)}
        onOk={() => decideForm.submit()}
        confirmLoading={busy}
        okButtonProps={{ 'data-testid': 'invoice-decide-ok' } as never}
        destroyOnHidden
      >
        {deciding ? (
          <Typography.Paragraph type="secondary" data-testid="invoice-decide-summary">
            {`${deciding.row.organisationName} · ${periodText(deciding.row)} · ${deciding.row.amount}`}
          </Typography.Paragraph>
        ) : null}
        <Form form={decideForm} layout="vertical" onFinish={(v) => void decide(v)}>
          {deciding?.action === 'issue' ? (
            <>
              <Form.Item
                name="invoiceNumber"
                label={t('invoices.invoiceNumber')}
                rules={[required(t('validation.required', { field: t('invoices.invoiceNumber') }))]}
              >
                <Input maxLength={60} data-testid="invoice-number" />
              </Form.Item>
              <Form.Item name="fileUrl" label={t('invoices.file')}>
                <InvoiceFileInput />
              </Form.Item>
            </>
          ) : (
            <Form.Item
              name="reason"
              label={t('invoices.refusalReason')}
              rules={[required(t('validation.required', { field: t('invoices.refusalReason') }))]}
            >
              <Input.TextArea maxLength={200} rows={3} data-testid="invoice-reason" />
            </Form.Item>
          )}
        </Form>
      </Modal>
    </div>
  );
}
