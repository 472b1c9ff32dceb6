import {
  WEBHOOK_DELIVERY_STATUSES,
  WEBHOOK_EVENTS,
  WEBHOOK_HEADERS,
  WEBHOOK_TOLERANCE_SECONDS,
  WEBHOOK_VERIFY_SNIPPET,
  type WebhookDeliveryStatus,
} from '@freight/contracts/integrations';
import { useMutation } from '@tanstack/react-query';
import {
  App,
  Button,
  Card,
  Checkbox,
  Drawer,
  Empty,
  Form,
  Input,
  Modal,
  Select,
  Space,
  Switch,
  Table,
  Tag,
  Tooltip,
  Typography,
} from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FilterBar, listTableProps, useServerList } from '../../components/list.tsx';
import { useSession } from '../../context/session.tsx';
import { useReportError } from '../../hooks/useReportError.ts';
import {
  type CreatedWebhook,
  WEBHOOK_DELIVERY_LIST_URL,
  WEBHOOK_LIST_URL,
  type WebhookDeliveryRow,
  type WebhookRow,
  webhookApi,
} from './api.ts';
import { ShownOnceDialog } from './ShownOnceDialog.tsx';

type Event = (typeof WEBHOOK_EVENTS)[number];

interface Filters {
  keyword?: string;
}

interface EndpointForm {
  url: string;
  events: Event[];
  enabled: boolean;
}

const time = (value: string | null) => (value ? dayjs(value).format('YYYY-MM-DD HH:mm:ss') : null);

const statusColor: Record<WebhookDeliveryStatus, string> = {
  pending: 'gold',
  delivered: 'green',
  failed: 'red',
};

/** The deliveries of one endpoint, newest first, with their tries; a delivery can be sent again. */
function Deliveries({ endpoint }: { endpoint: WebhookRow }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const reportError = useReportError();
  const [status, setStatus] = useState<WebhookDeliveryStatus | undefined>();
  const list = useServerList<WebhookDeliveryRow>(WEBHOOK_DELIVERY_LIST_URL, {
    endpointId: endpoint.id,
    status,
  });
  const redeliver = (row: WebhookDeliveryRow) =>
    webhookApi.redeliver(row.id).then(
      () => {
        message.success(t('webhooks.redeliverQueued'));
        void list.refetch();
      },
      (error: unknown) => reportError(error),
    );
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Space>
        <Select
          allowClear
          placeholder={t('common.status')}
          style={{ width: 140 }}
          value={status}
          onChange={(v) => {
            setStatus(v);
            list.resetPage();
          }}
          options={WEBHOOK_DELIVERY_STATUSES.map((s) => ({ value: s, label: t(`webhooks.delivery.${s}`) }))}
          data-testid="webhook-delivery-status"
        />
        <Button onClick={() => void list.refetch()}>{t('webhooks.refresh')}</Button>
      </Space>
      <Table<WebhookDeliveryRow>
        rowKey="id"
        size="small"
        loading={list.loading}
        dataSource={list.rows}
        pagination={list.pagination}
        {...listTableProps(900)}
        locale={{
          emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('webhooks.noDeliveries')} />,
        }}
        expandable={{
          expandedRowRender: (r) => (
            <pre style={{ margin: 0, whiteSpace: 'pre-wrap' }}>{JSON.stringify(r.payload, null, 2)}</pre>
          ),
        }}
        columns={[
          { title: 'ID', dataIndex: 'id', width: 70 },
          { title: t('webhooks.event'), dataIndex: 'event', render: (v: string) => <Tag>{v}</Tag> },
          {
            title: t('common.status'),
            render: (_, r) => (
              <Tag color={statusColor[r.status]} data-testid={`webhook-delivery-${r.id}`}>
                {t(`webhooks.delivery.${r.status}`)}
              </Tag>
            ),
          },
          { title: t('webhooks.attempts'), dataIndex: 'attempts', width: 80 },
          {
            title: t('webhooks.lastResult'),
            render: (_, r) =>
              r.lastError ? (
                <Tooltip title={r.lastError}>
                  <Typography.Text type="danger" ellipsis style={{ maxWidth: 220 }}>
                    {r.lastError}
                  </Typography.Text>
                </Tooltip>
              ) : (
                (r.lastStatusCode ?? '—')
              ),
          },
          { title: t('webhooks.nextAttempt'), render: (_, r) => time(r.nextAttemptAt) ?? '—' },
          { title: t('common.createdAt'), render: (_, r) => time(r.createdAt) },
          {
            title: t('common.actions'),
            fixed: 'right',
            render: (_, r) => (
              <Button
                size="small"
                onClick={() => void redeliver(r)}
                data-testid={`webhook-redeliver-${r.id}`}
              >
                {t('webhooks.redeliver')}
              </Button>
            ),
          },
        ]}
      />
    </Space>
  );
}

/**
 * `/webhooks`: the URLs an organisation's own system hears of its orders' and waybills' status changes
 * at, as signed POSTs. The signing secret is shown once, when the endpoint is made.
 */
export default function WebhooksPage() {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const reportError = useReportError();
  const { userInfo } = useSession();
  const staff = userInfo?.identity === 'employee';
  const [filterForm] = Form.useForm<Filters>();
  const [filters, setFilters] = useState<Filters>({});
  const list = useServerList<WebhookRow>(WEBHOOK_LIST_URL, filters);
  const [editing, setEditing] = useState<WebhookRow | 'new' | null>(null);
  const [created, setCreated] = useState<(CreatedWebhook & { rotated?: boolean }) | null>(null);
  const [viewing, setViewing] = useState<WebhookRow | null>(null);
  const [form] = Form.useForm<EndpointForm>();

  const save = useMutation({
    mutationFn: (v: EndpointForm) =>
      editing === 'new' || editing === null
        ? webhookApi.create(v)
        : webhookApi.update({ id: editing.id, ...v }),
    onSuccess: (row) => {
      setEditing(null);
      if ('secret' in row) setCreated(row as CreatedWebhook);
      else message.success(t('webhooks.saved'));
      void list.refetch();
    },
    onError: (error) => reportError(error, form),
  });

  const openEdit = (row: WebhookRow | 'new') => {
    form.resetFields();
    form.setFieldsValue(
      row === 'new'
        ? { url: 'https://', events: [...WEBHOOK_EVENTS], enabled: true }
        : { url: row.url, events: row.events, enabled: row.enabled },
    );
    setEditing(row);
  };

  const remove = (row: WebhookRow) =>
    modal.confirm({
      title: t('shell.dialogTitle'),
      content: t('webhooks.deleteConfirm', { url: row.url }),
      okText: t('webhooks.delete'),
      cancelText: t('shell.cancel'),
      okButtonProps: { danger: true, 'data-testid': 'webhook-delete-ok' },
      onOk: () =>
        webhookApi.remove(row.id).then(
          () => {
            message.success(t('webhooks.deleted'));
            void list.refetch();
          },
          (error: unknown) => reportError(error),
        ),
    });

  const rotate = (row: WebhookRow) =>
    modal.confirm({
      title: t('shell.dialogTitle'),
      content: t('webhooks.rotateConfirm', { url: row.url }),
      okText: t('webhooks.rotate'),
      cancelText: t('shell.cancel'),
      okButtonProps: { 'data-testid': 'webhook-rotate-ok' },
      onOk: () =>
        webhookApi.rotateSecret(row.id).then(
          (rotated) => {
            setCreated({ ...rotated, rotated: true });
            void list.refetch();
          },
          (error: unknown) => reportError(error),
        ),
    });

  const test = (row: WebhookRow) =>
    webhookApi.test(row.id).then(
      () => message.success(t('webhooks.testQueued')),
      (error: unknown) => reportError(error),
    );

  return (
    <div className="page-card">
      <FilterBar<Filters>
        form={filterForm}
        onSearch={(v) => {
          setFilters({ keyword: v.keyword?.trim() || undefined });
          list.resetPage();
        }}
        extra={
          <Button type="primary" onClick={() => openEdit('new')} data-testid="webhook-new">
            {t('webhooks.new')}
          </Button>
        }
      >
        <Form.Item name="keyword" label={t('common.keyword')}>
          <Input allowClear placeholder={t('webhooks.keywordTip')} style={{ width: 240 }} />
        </Form.Item>
      </FilterBar>
      <Table<WebhookRow>
        rowKey="id"
        loading={list.loading}
        dataSource={list.rows}
        pagination={list.pagination}
        {...listTableProps(1100)}
        locale={{
          emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('webhooks.empty')} />,
        }}
        columns={[
          {
            title: t('webhooks.url'),
            dataIndex: 'url',
            render: (v: string) => (
              <Typography.Text copyable ellipsis style={{ maxWidth: 280 }}>
                {v}
              </Typography.Text>
            ),
          },
          {
            title: t('webhooks.events'),
            // One event a line: side by side they pushed the table past a desktop's width in English.
            render: (_, r) => (
              <Space direction="vertical" size={4}>
                {r.events.map((e) => (
                  <Tag key={e}>{t(`webhooks.eventName.${e}`)}</Tag>
                ))}
              </Space>
            ),
          },
          {
            title: t('webhooks.secret'),
            render: (_, r) => (
              <Space direction="vertical" size={0}>
                <Typography.Text code>{`${r.secretPrefix}…`}</Typography.Text>
                {r.previousSecretUntil ? (
                  <Typography.Text
                    type="secondary"
                    style={{ fontSize: 12, whiteSpace: 'normal', maxWidth: 150 }}
                  >
                    {t('webhooks.previousUntil', { time: time(r.previousSecretUntil) })}
                  </Typography.Text>
                ) : null}
              </Space>
            ),
          },
          ...(staff
            ? [
                {
                  title: t('apiKeys.organisation'),
                  render: (_: unknown, r: WebhookRow) => r.organisationName || t('webhooks.wholeTenant'),
                },
              ]
            : []),
          {
            title: t('common.status'),
            render: (_, r) => (
              <Tag color={r.enabled ? 'green' : 'default'} data-testid={`webhook-enabled-${r.id}`}>
                {r.enabled ? t('webhooks.enabled') : t('webhooks.disabled')}
              </Tag>
            ),
          },
          { title: t('common.createdAt'), render: (_, r) => time(r.createdAt) },
          {
            title: t('common.actions'),
            fixed: 'right',
            width: 260,
            render: (_, r) => (
              <Space size={4} wrap style={{ maxWidth: 236 }}>
                <Button size="small" onClick={() => openEdit(r)} data-testid={`webhook-edit-${r.id}`}>
                  {t('webhooks.edit')}
                </Button>
                <Button size="small" onClick={() => setViewing(r)} data-testid={`webhook-deliveries-${r.id}`}>
                  {t('webhooks.deliveries')}
                </Button>
                <Button size="small" disabled={!r.enabled} onClick={() => void test(r)}>
                  {t('webhooks.test')}
                </Button>
                <Button size="small" onClick={() => rotate(r)} data-testid={`webhook-rotate-${r.id}`}>
                  {t('webhooks.rotate')}
                </Button>
                <Button size="small" danger onClick={() => remove(r)} data-testid={`webhook-delete-${r.id}`}>
                  {t('webhooks.delete')}
                </Button>
              </Space>
            ),
          },
        ]}
      />

      <Card size="small" title={t('webhooks.helpTitle')} style={{ marginTop: 16 }}>
        <Typography.Paragraph>
          {t('webhooks.help', {
            id: WEBHOOK_HEADERS.id,
            timestamp: WEBHOOK_HEADERS.timestamp,
            signature: WEBHOOK_HEADERS.signature,
          })}
        </Typography.Paragraph>
        <Typography.Paragraph>
          {t('webhooks.helpReplay', { minutes: WEBHOOK_TOLERANCE_SECONDS / 60, id: WEBHOOK_HEADERS.id })}
        </Typography.Paragraph>
        <pre className="webhook-snippet">
          <code>{WEBHOOK_VERIFY_SNIPPET}</code>
        </pre>
      </Card>

      <Modal
        open={editing !== null}
        title={editing === 'new' ? t('webhooks.new') : t('webhooks.edit')}
        okText={t('shell.ok')}
        cancelText={t('shell.cancel')}
        confirmLoading={save.isPending}
        onCancel={() => setEditing(null)}
        onOk={() =>
          form.validateFields().then(
            (v) => save.mutate(v),
            () => undefined,
          )
        }
        okButtonProps={{ 'data-testid': 'webhook-save' }}
        destroyOnHidden
      >
        <Form form={form} layout="vertical">
          <Form.Item
            name="url"
            label={t('webhooks.url')}
            extra={t('webhooks.urlTip')}
            rules={[{ required: true, whitespace: true, max: 500 }]}
          >
            <Input maxLength={500} data-testid="webhook-url" />
          </Form.Item>
          <Form.Item
            name="events"
            label={t('webhooks.events')}
            rules={[{ required: true, type: 'array', min: 1 }]}
          >
            <Checkbox.Group
              options={WEBHOOK_EVENTS.map((e) => ({ value: e, label: t(`webhooks.eventName.${e}`) }))}
            />
          </Form.Item>
          <Form.Item name="enabled" label={t('webhooks.enabled')} valuePropName="checked">
            <Switch data-testid="webhook-switch" />
          </Form.Item>
        </Form>
      </Modal>

      <ShownOnceDialog
        value={created?.secret ?? null}
        title={created?.rotated ? t('webhooks.rotatedTitle') : t('webhooks.createdTitle')}
        warning={t('webhooks.createdWarning')}
        copyLabel={t('webhooks.copySecret')}
        testId="webhook"
        onDone={() => {
          // Nothing keeps the secret once the dialog closes.
          setCreated(null);
          save.reset();
        }}
      />

      <Drawer
        open={viewing !== null}
        onClose={() => setViewing(null)}
        width={1000}
        title={viewing ? t('webhooks.deliveriesOf', { url: viewing.url }) : ''}
        destroyOnHidden
      >
        {viewing ? <Deliveries endpoint={viewing} /> : null}
      </Drawer>
    </div>
  );
}
