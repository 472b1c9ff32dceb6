import {
  API_KEY_HEADERS,
  API_KEY_SCOPES,
  API_KEY_STATUSES,
  type ApiKeyScope,
  type ApiKeyStatus,
  UPLOAD_API_PATH,
} from '@freight/contracts/integrations';
import { useMutation } from '@tanstack/react-query';
import {
  App,
  Button,
  Card,
  Checkbox,
  Empty,
  Form,
  Input,
  Modal,
  Select,
  Table,
  Tag,
  Tooltip,
  Typography,
} from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FilterBar, listTableProps, useServerList, Wrapped } from '../../components/list.tsx';
import { useSession } from '../../context/session.tsx';
import { useReportError } from '../../hooks/useReportError.ts';
import { API_KEY_LIST_URL, type ApiKeyRow, apiKeyApi, type CreatedApiKey } from './api.ts';
import { ShownOnceDialog } from './ShownOnceDialog.tsx';

interface Filters {
  keyword?: string;
  status?: ApiKeyStatus;
}

interface NewKey {
  name: string;
  scopes: ApiKeyScope[];
}

const time = (value: string | null) => (value ? dayjs(value).format('YYYY-MM-DD HH:mm') : null);

/**
 * `/apiKeys`: the keys a shipper's own systems call the portal with. A key is shown whole once, when
 * made; the list shows its ID (the `apiId` header). Staff see every key of the tenant and whose it is.
 */
export default function ApiKeysPage() {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const reportError = useReportError();
  const { userInfo } = useSession();
  const staff = userInfo?.identity === 'employee';
  const [filterForm] = Form.useForm<Filters>();
  const [filters, setFilters] = useState<Filters>({});
  const list = useServerList<ApiKeyRow>(API_KEY_LIST_URL, filters);
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const [form] = Form.useForm<NewKey>();

  const create = useMutation({
    mutationFn: apiKeyApi.create,
    onSuccess: (key) => {
      setCreating(false);
      setCreated(key);
      void list.refetch();
    },
    onError: (error) => reportError(error, form),
  });

  const revoke = (row: ApiKeyRow) =>
    modal.confirm({
      title: t('shell.dialogTitle'),
      content: t('apiKeys.revokeConfirm', { name: row.name, prefix: row.prefix }),
      okText: t('apiKeys.revoke'),
      cancelText: t('shell.cancel'),
      okButtonProps: { danger: true, 'data-testid': 'api-key-revoke-ok' },
      onOk: () =>
        apiKeyApi.revoke(row.id).then(
          () => {
            message.success(t('apiKeys.status.revoked'));
            void list.refetch();
          },
          (error: unknown) => reportError(error),
        ),
    });

  const openCreate = () => {
    form.resetFields();
    form.setFieldsValue({ scopes: ['quote', 'book', 'pay', 'track'] });
    setCreating(true);
  };

  const origin = window.location.origin;
  const curl = [
    `curl -X POST '${origin}${UPLOAD_API_PATH}' \\`,
    `  -H '${API_KEY_HEADERS.apiId}: fpk_XXXXXXXX' \\`,
    `  -H '${API_KEY_HEADERS.userKey}: fpk_XXXXXXXX…' \\`,
    `  -H 'Accept-Language: en-US' \\`,
    `  -F 'file=@orders.xlsx'`,
  ].join('\n');

  return (
    <div className="page-card">
      <FilterBar<Filters>
        form={filterForm}
        onSearch={(v) => {
          setFilters({ keyword: v.keyword?.trim() || undefined, status: v.status });
          list.resetPage();
        }}
        extra={
          <Button type="primary" onClick={openCreate} data-testid="api-key-new">
            {t('apiKeys.new')}
          </Button>
        }
      >
        <Form.Item name="keyword" label={t('common.keyword')}>
          <Input allowClear placeholder={t('apiKeys.keywordTip')} style={{ width: 220 }} />
        </Form.Item>
        <Form.Item name="status" label={t('common.status')}>
          <Select
            allowClear
            placeholder={t('common.all')}
            style={{ width: 120 }}
            options={API_KEY_STATUSES.map((s) => ({ value: s, label: t(`apiKeys.status.${s}`) }))}
            data-testid="api-key-filter-status"
          />
        </Form.Item>
      </FilterBar>
      <Table<ApiKeyRow>
        rowKey="id"
        loading={list.loading}
        dataSource={list.rows}
        pagination={list.pagination}
        {...listTableProps(1100)}
        locale={{
          emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('apiKeys.empty')} />,
        }}
        columns={[
          {
            title: t('apiKeys.prefix'),
            dataIndex: 'prefix',
            render: (v: string) => (
              <Typography.Text code copyable={{ text: v }} data-testid={`api-key-prefix-${v}`}>
                {v}
              </Typography.Text>
            ),
          },
          { title: t('apiKeys.name'), render: (_, r) => <Wrapped width={180}>{r.name}</Wrapped> },
          {
            title: t('apiKeys.scopes'),
            // A key with every scope lists them over two lines rather than pushing the status under the
            // pinned actions.
            render: (_, r) => (
              <Wrapped width={220}>
                {r.scopes.map((s) => (
                  <Tag key={s} style={{ marginBlock: 2 }}>
                    {t(`apiKeys.scope.${s}`)}
                  </Tag>
                ))}
              </Wrapped>
            ),
          },
          {
            // Staff see whose organisation the key acts in beneath the user: one column, so a key with
            // every scope still fits the desktop beside its pinned actions.
            title: staff ? `${t('apiKeys.owner')} / ${t('apiKeys.organisation')}` : t('apiKeys.owner'),
            render: (_, r) => (
              <Wrapped width={220}>
                {r.userEmail}
                {staff ? (
                  <div>
                    <Typography.Text type="secondary">{r.organisationName || '—'}</Typography.Text>
                  </div>
                ) : null}
              </Wrapped>
            ),
          },
          { title: t('common.createdAt'), render: (_, r) => time(r.createdAt) },
          {
            title: t('apiKeys.lastUsed'),
            render: (_, r) =>
              time(r.lastUsedAt) ?? <Typography.Text type="secondary">{t('apiKeys.never')}</Typography.Text>,
          },
          {
            title: t('common.status'),
            render: (_, r) => (
              <Tooltip title={r.revokedAt ? time(r.revokedAt) : undefined}>
                <Tag
                  color={r.status === 'active' ? 'green' : 'default'}
                  data-testid={`api-key-status-${r.id}`}
                >
                  {t(`apiKeys.status.${r.status}`)}
                </Tag>
              </Tooltip>
            ),
          },
          {
            title: t('common.actions'),
            fixed: 'right',
            render: (_, r) =>
              r.status === 'active' ? (
                <Button size="small" danger onClick={() => revoke(r)} data-testid={`api-key-revoke-${r.id}`}>
                  {t('apiKeys.revoke')}
                </Button>
              ) : (
                '—'
              ),
          },
        ]}
      />

      <Card size="small" title={t('apiKeys.helpTitle')} style={{ marginTop: 16 }} data-testid="api-key-help">
        <Typography.Paragraph>{t('apiKeys.help')}</Typography.Paragraph>
        <Typography.Text strong>{t('apiKeys.example')}</Typography.Text>
        <Typography.Paragraph copyable={{ text: curl }} style={{ marginTop: 8 }}>
          <pre style={{ margin: 0 }}>{curl}</pre>
        </Typography.Paragraph>
      </Card>

      <Modal
        open={creating}
        title={t('apiKeys.new')}
        okText={t('shell.ok')}
        cancelText={t('shell.cancel')}
        confirmLoading={create.isPending}
        onCancel={() => setCreating(false)}
        onOk={() =>
          form.validateFields().then(
            (v) => create.mutate(v),
            () => undefined,
          )
        }
        okButtonProps={{ 'data-testid': 'api-key-create-ok' }}
        destroyOnHidden
      >
        <Form form={form} layout="vertical">
          <Form.Item
            name="name"
            label={t('apiKeys.name')}
            extra={t('apiKeys.nameTip')}
            rules={[{ required: true, whitespace: true, max: 60 }]}
          >
            <Input maxLength={60} data-testid="api-key-name" />
          </Form.Item>
          <Form.Item
            name="scopes"
            label={t('apiKeys.scopes')}
            rules={[{ required: true, type: 'array', min: 1 }]}
          >
            <Checkbox.Group
              options={API_KEY_SCOPES.map((s) => ({ value: s, label: t(`apiKeys.scope.${s}`) }))}
              data-testid="api-key-scopes"
            />
          </Form.Item>
        </Form>
      </Modal>

      <ShownOnceDialog
        value={created?.key ?? null}
        title={t('apiKeys.createdTitle')}
        warning={t('apiKeys.createdWarning')}
        copyLabel={t('apiKeys.copy')}
        testId="api-key"
        onDone={() => {
          // Nothing keeps the key once the dialog closes: not the page, not the mutation's answer.
          setCreated(null);
          create.reset();
        }}
      >
        <div>
          <Typography.Text type="secondary">{API_KEY_HEADERS.apiId}</Typography.Text>
          <Input readOnly value={created?.prefix} data-testid="api-key-created-id" />
        </div>
        <Typography.Text type="secondary">{API_KEY_HEADERS.userKey}</Typography.Text>
      </ShownOnceDialog>
    </div>
  );
}
