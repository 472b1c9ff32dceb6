import { useQuery } from '@tanstack/react-query';
import {
  App,
  Button,
  Divider,
  Drawer,
  Dropdown,
  Form,
  Input,
  Segmented,
  Select,
  Space,
  Table,
  Tag,
} from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../../components/Auth.tsx';
import {
  FilterBar,
  filtersSet,
  ListEmpty,
  listTableProps,
  useServerList,
  Wrapped,
} from '../../components/list.tsx';
import { useSession } from '../../context/session.tsx';
import { ApiError, applyFieldErrors, download, post } from '../../lib/http.ts';
import { money } from '../../lib/money.ts';
import { customersApi, type Line, type ListKind, type OrganisationRow } from './api.ts';
import { ExpressPriceDrawer } from './ExpressPriceLevels.tsx';
import {
  type AccountAction,
  AccountActionDialog,
  InvitationsDialog,
  PriceLevelDialog,
  UsersDialog,
} from './OrganisationDialogs.tsx';

interface Filters {
  keyword?: string;
  enabled?: boolean;
}

/** What a new organisation on each page is. */
const CREATES: Record<ListKind, 'branch' | 'agent' | 'customer'> = {
  branch: 'branch',
  agent: 'agent',
  agentCustomer: 'customer',
  directCustomer: 'customer',
  allCustomer: 'customer',
};

/**
 * One page for every organisation list of SPEC section 2 (branches, agents' customers, direct
 * customers, all customers; truck and express), each showing that line's account.
 */
export function OrganisationsPage({ kind: pageKind, line }: { kind: ListKind; line: Line }) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const allowed = useAuth();
  const { userInfo } = useSession();
  // The branch page lists branches and, on a second tab, their agents.
  const [kind, setKind] = useState<ListKind>(pageKind);
  const [filterForm] = Form.useForm<Filters>();
  const [filters, setFilters] = useState<Filters>({});
  const list = useServerList<OrganisationRow>('/admin/customer/list', { ...filters, kind, line });
  const createType = CREATES[kind];
  const [editing, setEditing] = useState<OrganisationRow | 'new' | null>(null);
  // Parents are asked for only when a new organisation is being made, and only those the caller may use.
  const parents = useQuery({
    queryKey: ['org-parents', createType],
    queryFn: () => customersApi.parentOptions(createType),
    enabled: editing === 'new' && createType !== 'branch',
  });
  const parentChoices = (parents.data?.list ?? []).filter((p) =>
    kind === 'agentCustomer' ? p.type === 'agent' : kind === 'directCustomer' ? p.type === 'branch' : true,
  );
  const [dialog, setDialog] = useState<{
    org: OrganisationRow;
    what: 'users' | 'invites' | 'price' | AccountAction;
  } | null>(null);
  const [form] = Form.useForm();
  const [saving, setSaving] = useState(false);
  const canSave = allowed('customer:save') || allowed('branch:save');
  const canStatus = allowed('customer:status') || allowed('branch:status');

  const open = (row: OrganisationRow | 'new') => {
    form.resetFields();
    if (row !== 'new') form.setFieldsValue(row);
    setEditing(row);
  };

  const save = async () => {
    const values = await form.validateFields();
    setSaving(true);
    try {
      const body =
        editing === 'new'
          ? { ...values, type: createType, parentId: values.parentId ?? null }
          : {
              ...values,
              id: (editing as OrganisationRow).id,
              type: (editing as OrganisationRow).type,
              parentId: (editing as OrganisationRow).parentId,
            };
      await post('/admin/customer/save', body);
      message.success(t('common.saved'));
      setEditing(null);
      void list.refetch();
    } catch (error) {
      if (!applyFieldErrors(error, form.setFields) && error instanceof ApiError) message.error(error.message);
    } finally {
      setSaving(false);
    }
  };

  const setStatus = (row: OrganisationRow) =>
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
          await post('/admin/customer/setStatus', { id: row.id, enabled: !row.enabled });
          void list.refetch();
        } catch (error) {
          if (error instanceof ApiError) message.error(error.message);
        }
      },
    });

  const typeLabel = (type: string) => t(`identity.${type}`);
  const actions = (row: OrganisationRow) => {
    const items = [
      { key: 'users', label: t('customers.users') },
      ...(allowed('customer:invite') && row.type !== 'customer'
        ? [{ key: 'invites', label: t('customers.invitations') }]
        : []),
      ...(allowed('customer:price') && row.id !== userInfo?.organisationId
        ? [{ key: 'price', label: t('customers.priceLevel') }]
        : []),
      // The account's actions are the server's: freeze or unfreeze by its status, each by its button.
      ...(row.account?.actions ?? []).map((action) => ({
        key: action,
        label: t(`customers.action.${action}`),
      })),
    ];
    return items;
  };

  return (
    <div className="page-card">
      {pageKind === 'branch' ? (
        <Segmented
          style={{ marginBottom: 12 }}
          value={kind}
          onChange={(v) => {
            setKind(v as ListKind);
            list.resetPage();
          }}
          options={[
            { value: 'branch', label: t('identity.branch') },
            { value: 'agent', label: t('identity.agent') },
          ]}
        />
      ) : null}
      <FilterBar<Filters>
        form={filterForm}
        onSearch={(v) => {
          setFilters({ keyword: v.keyword || undefined, enabled: v.enabled });
          list.resetPage();
        }}
        extra={
          <Space>
            {allowed('customer:export') ? (
              <Button
                onClick={() =>
                  void download('/admin/customer/export', { ...filters, kind, line }, 'organisations.xlsx')
                }
              >
                {t('common.export')}
              </Button>
            ) : null}
            {canSave ? (
              <Button type="primary" onClick={() => open('new')} data-testid="org-new">
                {t('common.add')}
              </Button>
            ) : null}
          </Space>
        }
      >
        <Form.Item name="keyword" label={t('common.keyword')}>
          <Input allowClear placeholder={t('customers.keywordTip')} />
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
      </FilterBar>
      <Table<OrganisationRow>
        rowKey="id"
        loading={list.loading}
        dataSource={list.rows}
        pagination={list.pagination}
        // Sized by their content, the columns fit a 1440 px desktop in either language: nothing is
        // left under the pinned actions. Type, creation date and account state ride beside their
        // neighbours rather than take columns of their own; long names are cut, whole on hover.
        {...listTableProps(0)}
        locale={{
          emptyText: (
            <ListEmpty
              text={t(`customers.empty.${kind}`)}
              noMatch={filtersSet(filters) && t('customers.noMatch')}
              action={
                canSave ? (
                  <Button type="primary" onClick={() => open('new')} data-testid="list-empty-action">
                    {t(`customers.emptyAction.${createType}`)}
                  </Button>
                ) : null
              }
            />
          ),
        }}
        columns={[
          {
            title: t('customers.name'),
            fixed: 'left',
            render: (_, r) => (
              <div>
                <Wrapped width={180} anywhere>
                  {r.name}
                </Wrapped>
                <div style={{ color: '#595959', fontSize: 12 }}>
                  {typeLabel(r.type)} · {dayjs(r.createdAt).format('YYYY-MM-DD')}
                </div>
              </div>
            ),
          },
          {
            title: t('customers.parent'),
            render: (_, r) => (
              <Wrapped width={180} anywhere>
                {r.parentName ?? t('customers.platform')}
              </Wrapped>
            ),
          },
          {
            title: t('customers.contact'),
            render: (_, r) => (
              <div>
                <Wrapped width={180} anywhere>
                  {r.contactName}
                </Wrapped>
                <div style={{ color: '#595959', fontSize: 12 }}>
                  <Wrapped width={180} anywhere>
                    {r.contactEmail}
                  </Wrapped>
                </div>
              </div>
            ),
          },
          {
            title: t('customers.balance'),
            align: 'right',
            render: (_, r) => money(r.account?.balance),
          },
          {
            title: t('customers.creditLimit'),
            align: 'right',
            render: (_, r) => money(r.account?.creditLimit),
          },
          {
            title: t('customers.available'),
            align: 'right',
            render: (_, r) => money(r.account?.available),
          },
          {
            title: t('common.status'),
            render: (_, r) => (
              <Space size={4}>
                <Tag color={r.enabled ? 'green' : 'default'}>
                  {r.enabled ? t('common.enabled') : t('common.disabled')}
                </Tag>
                {r.account?.status === 'frozen' ? (
                  <Tag color="red">{t('customers.frozen')}</Tag>
                ) : (
                  <Tag>{t('customers.normal')}</Tag>
                )}
              </Space>
            ),
          },
          {
            title: t('common.actions'),
            fixed: 'right',
            render: (_, row) => (
              <Space size={0}>
                {canSave && row.id !== userInfo?.organisationId ? (
                  <Button type="link" size="small" onClick={() => open(row)}>
                    {t('common.edit')}
                  </Button>
                ) : null}
                {canStatus && row.id !== userInfo?.organisationId ? (
                  <Button type="link" size="small" onClick={() => setStatus(row)}>
                    {row.enabled ? t('common.disable') : t('common.enable')}
                  </Button>
                ) : null}
                <Dropdown
                  trigger={['click']}
                  menu={{
                    items: actions(row),
                    onClick: ({ key }) => setDialog({ org: row, what: key as 'users' }),
                  }}
                >
                  <Button type="link" size="small" data-testid={`org-more-${row.id}`}>
                    {t('customers.more')}
                  </Button>
                </Dropdown>
              </Space>
            ),
          },
        ]}
      />
      <Drawer
        title={editing === 'new' ? t('common.add') : t('common.edit')}
        open={editing !== null}
        size={520}
        onClose={() => setEditing(null)}
        extra={
          <Space>
            <Button onClick={() => setEditing(null)}>{t('common.cancel')}</Button>
            <Button type="primary" loading={saving} onClick={() => void save()} data-testid="org-save">
              {t('common.save')}
            </Button>
          </Space>
        }
      >
        <Form form={form} layout="vertical">
          {editing === 'new' && createType !== 'branch' ? (
            <Form.Item
              name="parentId"
              label={t('customers.parent')}
              rules={
                kind === 'directCustomer' && parents.data?.platformAllowed
                  ? []
                  : [{ required: true, message: t('validation.required', { field: t('customers.parent') }) }]
              }
              extra={kind === 'directCustomer' ? t('customers.directTip') : undefined}
            >
              <Select
                allowClear
                showSearch
                optionFilterProp="label"
                loading={parents.isLoading}
                options={parentChoices.map((p) => ({
                  value: p.id,
                  label: `${p.name} · ${t(`identity.${p.type}`)}`,
                }))}
                data-testid="org-parent"
              />
            </Form.Item>
          ) : null}
          <Form.Item
            name="name"
            label={t('customers.name')}
            rules={[{ required: true, message: t('validation.required', { field: t('customers.name') }) }]}
          >
            <Input maxLength={100} data-testid="org-name" />
          </Form.Item>
          <Form.Item name="contactName" label={t('customers.contactName')}>
            <Input maxLength={50} />
          </Form.Item>
          <Form.Item
            name="contactEmail"
            label={t('customers.contactEmail')}
            rules={[{ type: 'email', message: t('validation.email') }]}
          >
            <Input />
          </Form.Item>
          <Form.Item name="contactPhone" label={t('customers.contactPhone')}>
            <Input maxLength={30} />
          </Form.Item>
          {editing === 'new' ? (
            <>
              <Divider>{t('customers.firstUser')}</Divider>
              <Form.Item
                name={['user', 'email']}
                label={t('staff.email')}
                rules={[{ required: true, type: 'email', message: t('validation.email') }]}
              >
                <Input data-testid="org-user-email" />
              </Form.Item>
              <Form.Item
                name={['user', 'name']}
                label={t('staff.name')}
                rules={[{ required: true, message: t('validation.required', { field: t('staff.name') }) }]}
              >
                <Input data-testid="org-user-name" />
              </Form.Item>
              <Form.Item
                name={['user', 'password']}
                label={t('staff.password')}
                rules={[{ required: true, min: 6, message: t('validation.passwordMin') }]}
              >
                <Input.Password data-testid="org-user-password" />
              </Form.Item>
            </>
          ) : null}
        </Form>
      </Drawer>
      {dialog?.what === 'users' ? (
        <UsersDialog org={dialog.org} canEdit={canSave} onClose={() => setDialog(null)} />
      ) : null}
      {dialog?.what === 'invites' ? (
        <InvitationsDialog org={dialog.org} onClose={() => setDialog(null)} />
      ) : null}
      {dialog?.what === 'price' && line === 'express' ? (
        <ExpressPriceDrawer org={dialog.org} onClose={() => setDialog(null)} />
      ) : null}
      {dialog?.what === 'price' && line === 'truck' ? (
        <PriceLevelDialog org={dialog.org} line={line} onClose={() => setDialog(null)} />
      ) : null}
      {dialog && ['freeze', 'unfreeze', 'credit', 'adjust'].includes(dialog.what) ? (
        <AccountActionDialog
          org={dialog.org}
          action={dialog.what as AccountAction}
          onClose={() => setDialog(null)}
          onDone={() => {
            setDialog(null);
            void list.refetch();
          }}
        />
      ) : null}
    </div>
  );
}
