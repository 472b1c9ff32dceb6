import { TENANT_CODE_PATTERN } from '@freight/contracts/tenants';
import { useMutation } from '@tanstack/react-query';
import { App, Button, Drawer, Form, Input, Select, Space, Table, Tag } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Auth } from '../../components/Auth.tsx';
import { FilterBar, filtersSet, ListEmpty, listTableProps, useServerList } from '../../components/list.tsx';
import { useReportError } from '../../hooks/useReportError.ts';
import {
  TENANT_LIST_URL,
  type TenantCreateInput,
  type TenantFilters,
  type TenantRow,
  tenantApi,
} from './api.ts';

type TenantForm = TenantCreateInput;

/** The platform's tenants (default tenant's administrators only): search, create, edit, disable. */
export default function TenantManagementPage() {
  const { t, i18n } = useTranslation();
  const { message, modal } = App.useApp();
  const reportError = useReportError();
  const [filterForm] = Form.useForm<TenantFilters>();
  const [filters, setFilters] = useState<TenantFilters>({});
  const list = useServerList<TenantRow>(TENANT_LIST_URL, filters);
  const [editing, setEditing] = useState<TenantRow | 'new' | null>(null);
  const [form] = Form.useForm<TenantForm>();

  const open = (row: TenantRow | 'new') => {
    form.resetFields();
    if (row !== 'new') form.setFieldsValue({ code: row.code, name: row.name, hosts: row.hosts });
    setEditing(row);
  };

  const save = useMutation({
    mutationFn: (values: TenantForm) =>
      editing === 'new' || editing === null
        ? tenantApi.create({ ...values, nameEn: values.nameEn ?? '' })
        : tenantApi.save({ id: editing.id, name: values.name, hosts: values.hosts }),
    onSuccess: (_, values) => {
      message.success(
        editing === 'new' ? t('tenants.created', { email: values.adminEmail }) : t('common.saved'),
      );
      setEditing(null);
      void list.refetch();
    },
    onError: (error) => reportError(error, form),
  });

  const submit = () =>
    form.validateFields().then(
      (values) => save.mutate(values),
      () => undefined,
    );

  const setStatus = (row: TenantRow) =>
    modal.confirm({
      title: t('shell.dialogTitle'),
      content: t(row.enabled ? 'tenants.disableConfirm' : 'tenants.enableConfirm', { name: row.name }),
      okText: row.enabled ? t('common.disable') : t('common.enable'),
      cancelText: t('shell.cancel'),
      okButtonProps: { danger: row.enabled },
      onOk: () =>
        tenantApi.setStatus(row.id, !row.enabled).then(
          () => {
            message.success(t('common.saved'));
            void list.refetch();
          },
          (error: unknown) => reportError(error),
        ),
    });

  const required = (field: string) => ({ required: true, message: t('validation.required', { field }) });

  return (
    <div className="page-card">
      <FilterBar<TenantFilters>
        form={filterForm}
        onSearch={(v) => {
          setFilters({ keyword: v.keyword || undefined, enabled: v.enabled });
          list.resetPage();
        }}
        extra={
          <Auth code="tenant:save">
            <Button type="primary" onClick={() => open('new')} data-testid="tenant-new">
              {t('tenants.new')}
            </Button>
          </Auth>
        }
      >
        <Form.Item name="keyword" label={t('common.keyword')}>
          <Input allowClear placeholder={t('tenants.keywordPlaceholder')} data-testid="tenant-keyword" />
        </Form.Item>
        <Form.Item name="enabled" label={t('common.status')}>
          <Select
            allowClear
            placeholder={t('common.all')}
            style={{ width: 120 }}
            options={[
              { value: true, label: t('common.enabled') },
              { value: false, label: t('common.disabled') },
            ]}
          />
        </Form.Item>
      </FilterBar>
      <Table<TenantRow>
        rowKey="id"
        loading={list.loading}
        dataSource={list.rows}
        pagination={list.pagination}
        {...listTableProps(900)}
        locale={{
          emptyText: (
            <ListEmpty
              text={t('tenants.emptyList')}
              noMatch={filtersSet(filters) && t('tenants.noMatch')}
              action={
                <Auth code="tenant:save">
                  <Button type="primary" onClick={() => open('new')} data-testid="list-empty-action">
                    {t('tenants.new')}
                  </Button>
                </Auth>
              }
            />
          ),
        }}
        columns={[
          {
            title: t('tenants.code'),
            render: (_, r) => (
              <Space size={4}>
                <span>{r.code}</span>
                {r.isDefault ? <Tag color="blue">{t('tenants.platform')}</Tag> : null}
              </Space>
            ),
          },
          {
            title: t('tenants.name'),
            dataIndex: 'name',
            // The English name where the interface is English and one is set.
            render: (name: string, row) => (i18n.language === 'en-US' && row.nameEn ? row.nameEn : name),
          },
          {
            title: t('tenants.hosts'),
            render: (_, r) =>
              r.hosts.length > 0 ? r.hosts.map((h) => <Tag key={h}>{h}</Tag>) : <span>-</span>,
          },
          {
            title: t('common.status'),
            render: (_, r) => (
              <Tag color={r.enabled ? 'green' : 'default'}>
                {r.enabled ? t('common.enabled') : t('common.disabled')}
              </Tag>
            ),
          },
          {
            title: t('common.createdAt'),
            render: (_, r) => dayjs(r.createdAt).format('YYYY-MM-DD HH:mm'),
          },
          {
            title: t('common.actions'),
            width: 140,
            render: (_, row) => (
              <Space>
                <Auth code="tenant:save">
                  <Button type="link" size="small" onClick={() => open(row)}>
                    {t('common.edit')}
                  </Button>
                </Auth>
                {row.isDefault ? null : (
                  <Auth code="tenant:status">
                    <Button
                      type="link"
                      size="small"
                      danger={row.enabled}
                      onClick={() => setStatus(row)}
                      data-testid={`tenant-status-${row.code}`}
                    >
                      {row.enabled ? t('common.disable') : t('common.enable')}
                    </Button>
                  </Auth>
                )}
              </Space>
            ),
          },
        ]}
      />
      <Drawer
        title={editing === 'new' ? t('tenants.new') : t('tenants.edit')}
        open={editing !== null}
        size={480}
        onClose={() => setEditing(null)}
        forceRender
        extra={
          <Space>
            <Button onClick={() => setEditing(null)}>{t('common.cancel')}</Button>
            <Button
              type="primary"
              loading={save.isPending}
              onClick={() => void submit()}
              data-testid="tenant-save"
            >
              {t('common.save')}
            </Button>
          </Space>
        }
      >
        <Form form={form} layout="vertical">
          <Form.Item
            name="code"
            label={t('tenants.code')}
            extra={editing === 'new' ? t('tenants.codeTip') : undefined}
            rules={
              editing === 'new'
                ? [
                    required(t('tenants.code')),
                    { pattern: TENANT_CODE_PATTERN, message: t('tenants.codeTip') },
                  ]
                : []
            }
          >
            <Input disabled={editing !== 'new'} data-testid="tenant-code" />
          </Form.Item>
          <Form.Item
            name="name"
            label={t('tenants.name')}
            extra={editing === 'new' ? t('tenants.nameTip') : undefined}
            rules={[required(t('tenants.name')), { max: 20, message: t('validation.siteName') }]}
          >
            <Input showCount maxLength={20} data-testid="tenant-name" />
          </Form.Item>
          {editing === 'new' ? (
            <Form.Item name="nameEn" label={t('tenants.nameEn')}>
              <Input showCount maxLength={40} data-testid="tenant-name-en" />
            </Form.Item>
          ) : null}
          <Form.Item
            name="hosts"
            label={t('tenants.hosts')}
            extra={t('tenants.hostsTip')}
            rules={[
              {
                required: true,
                type: 'array',
                min: 1,
                message: t('validation.required', { field: t('tenants.hosts') }),
              },
            ]}
          >
            <Select
              mode="tags"
              tokenSeparators={[',', ' ']}
              open={false}
              suffixIcon={null}
              data-testid="tenant-hosts"
            />
          </Form.Item>
          {editing === 'new' ? (
            <Form.Item
              name="adminEmail"
              label={t('tenants.adminEmail')}
              extra={t('tenants.adminTip')}
              rules={[required(t('tenants.adminEmail')), { type: 'email', message: t('validation.email') }]}
            >
              <Input data-testid="tenant-admin" />
            </Form.Item>
          ) : null}
        </Form>
      </Drawer>
    </div>
  );
}
