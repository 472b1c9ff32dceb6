import { useMutation, useQuery } from '@tanstack/react-query';
import { App, Button, Drawer, Form, Input, Select, Space, Table, Tag } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Auth } from '../../components/Auth.tsx';
import { FilterBar, filtersSet, ListEmpty, listTableProps, useServerList } from '../../components/list.tsx';
import { useReportError } from '../../hooks/useReportError.ts';
import { phoneRule } from '../../lib/phone.ts';
import { STAFF_LIST_URL, type StaffFilters, type StaffInput, type StaffRow, staffApi } from './api.ts';

export default function StaffManagementPage() {
  const { t, i18n } = useTranslation();
  const en = i18n.language === 'en-US';
  const { message, modal } = App.useApp();
  const reportError = useReportError();
  const [filterForm] = Form.useForm<StaffFilters>();
  const [filters, setFilters] = useState<StaffFilters>({});
  const list = useServerList<StaffRow>(STAFF_LIST_URL, filters);
  const roles = useQuery({ queryKey: ['roles-all'], queryFn: staffApi.roles });
  const roleOptions = (roles.data?.list ?? []).map((r) => ({ value: r.id, label: en ? r.nameEn : r.name }));
  const [editing, setEditing] = useState<StaffRow | 'new' | null>(null);
  const [form] = Form.useForm<StaffInput>();

  const open = (row: StaffRow | 'new') => {
    form.resetFields();
    if (row !== 'new')
      form.setFieldsValue({
        email: row.email,
        name: row.name,
        phone: row.phone,
        roleIds: row.roles.map((r) => r.id),
      });
    setEditing(row);
  };

  const save = useMutation({
    mutationFn: staffApi.save,
    onSuccess: () => {
      message.success(t('common.saved'));
      setEditing(null);
      void list.refetch();
    },
    onError: (error) => reportError(error, form),
  });

  const exportList = useMutation({ mutationFn: staffApi.export, onError: (error) => reportError(error) });

  const submit = () =>
    form.validateFields().then(
      (values) =>
        save.mutate({
          ...values,
          phone: values.phone ?? '',
          id: editing !== 'new' ? editing?.id : undefined,
        }),
      () => undefined,
    );

  const setStatus = (row: StaffRow) =>
    modal.confirm({
      title: t('shell.dialogTitle'),
      content: t('common.statusConfirm', {
        action: row.enabled ? t('common.disable') : t('common.enable'),
        name: row.name,
      }),
      okText: t('shell.ok'),
      cancelText: t('shell.cancel'),
      okButtonProps: { danger: row.enabled },
      onOk: () =>
        staffApi.setStatus(row.id, !row.enabled).then(
          () => {
            message.success(t('common.saved'));
            void list.refetch();
          },
          (error: unknown) => reportError(error),
        ),
    });

  return (
    <div className="page-card">
      <FilterBar<StaffFilters>
        form={filterForm}
        onSearch={(v) => {
          setFilters({ keyword: v.keyword || undefined, enabled: v.enabled, roleId: v.roleId });
          list.resetPage();
        }}
        extra={
          <Space>
            <Button loading={exportList.isPending} onClick={() => exportList.mutate(filters)}>
              {t('common.export')}
            </Button>
            <Auth code="staff:save">
              <Button type="primary" onClick={() => open('new')} data-testid="staff-new">
                {t('staff.new')}
              </Button>
            </Auth>
          </Space>
        }
      >
        <Form.Item name="keyword" label={t('common.keyword')}>
          <Input allowClear />
        </Form.Item>
        <Form.Item name="enabled" label={t('common.status')}>
          <Select
            allowClear
            style={{ width: 120 }}
            options={[
              { value: true, label: t('common.enabled') },
              { value: false, label: t('common.disabled') },
            ]}
          />
        </Form.Item>
        <Form.Item name="roleId" label={t('staff.roles')}>
          <Select allowClear style={{ width: 160 }} options={roleOptions} />
        </Form.Item>
      </FilterBar>
      <Table<StaffRow>
        rowKey="id"
        loading={list.loading}
        dataSource={list.rows}
        pagination={list.pagination}
        {...listTableProps(900)}
        locale={{
          emptyText: (
            <ListEmpty
              text={t('staff.emptyList')}
              noMatch={filtersSet(filters) && t('staff.noMatch')}
              action={
                <Auth code="staff:save">
                  <Button type="primary" onClick={() => open('new')} data-testid="list-empty-action">
                    {t('staff.new')}
                  </Button>
                </Auth>
              }
            />
          ),
        }}
        columns={[
          { title: t('staff.email'), dataIndex: 'email' },
          { title: t('staff.name'), dataIndex: 'name' },
          { title: t('staff.phone'), dataIndex: 'phone' },
          {
            title: t('staff.roles'),
            render: (_, r) => r.roles.map((x) => <Tag key={x.id}>{en ? x.nameEn : x.name}</Tag>),
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
            title: t('staff.lastLogin'),
            render: (_, r) => (r.lastLoginAt ? dayjs(r.lastLoginAt).format('YYYY-MM-DD HH:mm') : '-'),
          },
          {
            title: t('common.actions'),
            width: 140,
            render: (_, row) => (
              <Space>
                <Auth code="staff:save">
                  <Button type="link" size="small" onClick={() => open(row)}>
                    {t('common.edit')}
                  </Button>
                </Auth>
                <Auth code="staff:status">
                  <Button type="link" size="small" onClick={() => setStatus(row)}>
                    {row.enabled ? t('common.disable') : t('common.enable')}
                  </Button>
                </Auth>
              </Space>
            ),
          },
        ]}
      />
      <Drawer
        title={editing === 'new' ? t('staff.new') : t('staff.edit')}
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
              data-testid="staff-save"
            >
              {t('common.save')}
            </Button>
          </Space>
        }
      >
        <Form form={form} layout="vertical">
          <Form.Item
            name="email"
            label={t('staff.email')}
            rules={[
              { required: true, message: t('login.emailPlaceholder') },
              { type: 'email', message: t('validation.email') },
            ]}
          >
            <Input data-testid="staff-email" />
          </Form.Item>
          <Form.Item
            name="name"
            label={t('staff.name')}
            rules={[{ required: true, message: t('validation.required', { field: t('staff.name') }) }]}
          >
            <Input data-testid="staff-name" />
          </Form.Item>
          <Form.Item name="phone" label={t('staff.phone')} rules={[phoneRule]}>
            <Input />
          </Form.Item>
          {editing === 'new' ? (
            <Form.Item
              name="password"
              label={t('staff.password')}
              rules={[
                { required: true, message: t('login.passwordPlaceholder') },
                { min: 6, message: t('validation.passwordMin') },
              ]}
            >
              <Input.Password data-testid="staff-password" />
            </Form.Item>
          ) : null}
          <Form.Item
            name="roleIds"
            label={t('staff.roles')}
            rules={[{ required: true, message: t('validation.required', { field: t('staff.roles') }) }]}
          >
            <Select mode="multiple" options={roleOptions} data-testid="staff-roles" />
          </Form.Item>
        </Form>
      </Drawer>
    </div>
  );
}
