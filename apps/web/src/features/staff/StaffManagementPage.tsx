import { useQuery } from '@tanstack/react-query';
import { App, Button, Drawer, Form, Input, Select, Space, Table, Tag } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Auth } from '../../components/Auth.tsx';
import { FilterBar, type Page, useServerList } from '../../components/list.tsx';
import { ApiError, applyFieldErrors, download, post } from '../../lib/http.ts';

interface StaffRow {
  id: number;
  email: string;
  name: string;
  phone: string;
  enabled: boolean;
  roles: { id: number; name: string; nameEn: string }[];
  lastLoginAt: string | null;
  createdAt: string;
}

type Filters = {
  keyword?: string;
  enabled?: boolean;
  roleId?: number;
};

export default function StaffManagementPage() {
  const { t, i18n } = useTranslation();
  const en = i18n.language === 'en-US';
  const { message, modal } = App.useApp();
  const [filterForm] = Form.useForm<Filters>();
  const [filters, setFilters] = useState<Filters>({});
  const list = useServerList<StaffRow>('/admin/staff/list', filters);
  const roles = useQuery({
    queryKey: ['roles-all'],
    queryFn: () =>
      post<Page<{ id: number; name: string; nameEn: string }>>('/admin/role/list', { page: 1, limit: 200 }),
  });
  const roleOptions = (roles.data?.list ?? []).map((r) => ({ value: r.id, label: en ? r.nameEn : r.name }));
  const [editing, setEditing] = useState<StaffRow | 'new' | null>(null);
  const [form] = Form.useForm();
  const [saving, setSaving] = useState(false);

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

  const save = async () => {
    const values = await form.validateFields();
    setSaving(true);
    try {
      await post('/admin/staff/save', { ...values, id: editing !== 'new' ? editing?.id : undefined });
      message.success(t('common.saved'));
      setEditing(null);
      void list.refetch();
    } catch (error) {
      if (!applyFieldErrors(error, form.setFields) && error instanceof ApiError) message.error(error.message);
    } finally {
      setSaving(false);
    }
  };

  const setStatus = (row: StaffRow) =>
    modal.confirm({
      title: t('shell.dialogTitle'),
      content: t('common.statusConfirm', {
        action: row.enabled ? t('common.disable') : t('common.enable'),
        name: row.name,
      }),
      okText: t('shell.ok'),
      cancelText: t('shell.cancel'),
      onOk: async () => {
        try {
          await post('/admin/staff/setStatus', { id: row.id, enabled: !row.enabled });
          message.success(t('common.saved'));
          void list.refetch();
        } catch (error) {
          if (error instanceof ApiError) message.error(error.message);
        }
      },
    });

  return (
    <div className="page-card">
      <FilterBar<Filters>
        form={filterForm}
        onSearch={(v) => {
          setFilters({ keyword: v.keyword || undefined, enabled: v.enabled, roleId: v.roleId });
          list.resetPage();
        }}
        extra={
          <Space>
            <Button onClick={() => void download('/admin/staff/export', filters, 'staff.xlsx')}>
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
        scroll={{ x: 900 }}
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
        width={480}
        onClose={() => setEditing(null)}
        extra={
          <Space>
            <Button onClick={() => setEditing(null)}>{t('common.cancel')}</Button>
            <Button type="primary" loading={saving} onClick={() => void save()} data-testid="staff-save">
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
          <Form.Item
            name="phone"
            label={t('staff.phone')}
            rules={[{ pattern: /^1\d{10}$/, message: t('validation.phone') }]}
          >
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
