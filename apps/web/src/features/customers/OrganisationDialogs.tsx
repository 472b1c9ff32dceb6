import { useQuery } from '@tanstack/react-query';
import { App, Button, Form, Input, InputNumber, Modal, Space, Table, Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AmountInput } from '../../components/AmountInput.tsx';
import { ListEmpty } from '../../components/list.tsx';
import { PrivateFileLink } from '../../components/PrivateFile.tsx';
import { ApiError, applyFieldErrors, post } from '../../lib/http.ts';
import { customersApi, type Line, type OrganisationRow } from './api.ts';

/** The users of one organisation, with adding, editing and enabling or disabling them. */
export function UsersDialog({
  org,
  onClose,
  canEdit,
}: {
  org: OrganisationRow;
  onClose: () => void;
  canEdit: boolean;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const users = useQuery({ queryKey: ['org-users', org.id], queryFn: () => customersApi.users(org.id) });
  const [form] = Form.useForm();
  const [adding, setAdding] = useState(false);

  const add = async () => {
    const values = await form.validateFields();
    try {
      await post('/admin/customer/userSave', { ...values, organisationId: org.id });
      message.success(t('common.saved'));
      form.resetFields();
      setAdding(false);
      void users.refetch();
    } catch (error) {
      if (!applyFieldErrors(error, form.setFields) && error instanceof ApiError) message.error(error.message);
    }
  };
  const toggle = async (id: number, enabled: boolean) => {
    try {
      await post('/admin/customer/userStatus', { id, enabled });
      void users.refetch();
    } catch (error) {
      if (error instanceof ApiError) message.error(error.message);
    }
  };

  return (
    <Modal open title={`${t('customers.users')} · ${org.name}`} width={760} footer={null} onCancel={onClose}>
      <Table
        rowKey="id"
        size="small"
        loading={users.isFetching}
        dataSource={users.data?.list ?? []}
        pagination={false}
        scroll={{ x: 'max-content' }}
        columns={[
          { title: t('staff.email'), dataIndex: 'email' },
          { title: t('staff.name'), dataIndex: 'name' },
          {
            title: t('customers.licence'),
            render: (_, u) =>
              u.licenseUrl ? <PrivateFileLink url={u.licenseUrl} testId={`licence-${u.id}`} /> : '-',
          },
          {
            title: t('staff.lastLogin'),
            render: (_, u) => (u.lastLoginAt ? dayjs(u.lastLoginAt).format('YYYY-MM-DD HH:mm') : '-'),
          },
          {
            title: t('common.status'),
            render: (_, u) => (
              <Tag color={u.enabled ? 'green' : 'default'}>
                {u.enabled ? t('common.enabled') : t('common.disabled')}
              </Tag>
            ),
          },
          {
            title: t('common.actions'),
            render: (_, u) =>
              canEdit ? (
                <Button type="link" size="small" onClick={() => void toggle(u.id, !u.enabled)}>
                  {u.enabled ? t('common.disable') : t('common.enable')}
                </Button>
              ) : null,
          },
        ]}
      />
      {canEdit ? (
        adding ? (
          <Form form={form} layout="inline" style={{ marginTop: 12, rowGap: 8 }}>
            <Form.Item
              name="email"
              rules={[{ required: true, type: 'email', message: t('validation.email') }]}
            >
              <Input placeholder={t('staff.email')} />
            </Form.Item>
            <Form.Item
              name="name"
              rules={[{ required: true, message: t('validation.required', { field: t('staff.name') }) }]}
            >
              <Input placeholder={t('staff.name')} />
            </Form.Item>
            <Form.Item
              name="password"
              rules={[{ required: true, min: 6, message: t('validation.passwordMin') }]}
            >
              <Input.Password placeholder={t('staff.password')} />
            </Form.Item>
            <Button type="primary" onClick={() => void add()}>
              {t('common.save')}
            </Button>
          </Form>
        ) : (
          <Button style={{ marginTop: 12 }} onClick={() => setAdding(true)}>
            {t('customers.addUser')}
          </Button>
        )
      ) : null}
    </Modal>
  );
}

/** Invitation codes an organisation hands out: a registering shipper lands under it. */
export function InvitationsDialog({ org, onClose }: { org: OrganisationRow; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const codes = useQuery({
    queryKey: ['org-invites', org.id],
    queryFn: () => customersApi.invitations(org.id),
  });
  const [days, setDays] = useState<number | null>(30);
  const create = async () => {
    try {
      await post('/admin/customer/invitationCreate', {
        organisationId: org.id,
        expiresInDays: days ?? undefined,
      });
      void codes.refetch();
    } catch (error) {
      if (error instanceof ApiError) message.error(error.message);
    }
  };
  const revoke = async (id: number) => {
    await post('/admin/customer/invitationRevoke', { organisationId: org.id, id });
    void codes.refetch();
  };
  const link = (code: string) => `${window.location.origin}/register?invite=${code}`;
  return (
    <Modal
      open
      title={`${t('customers.invitations')} · ${org.name}`}
      width={720}
      footer={null}
      onCancel={onClose}
    >
      <Space style={{ marginBottom: 12 }}>
        {t('customers.validDays')}
        <InputNumber min={1} max={365} value={days} onChange={setDays} />
        <Button type="primary" onClick={() => void create()} data-testid="invite-create">
          {t('customers.newInvitation')}
        </Button>
      </Space>
      <Table
        rowKey="id"
        size="small"
        dataSource={codes.data?.list ?? []}
        pagination={false}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: <ListEmpty text={t('customers.invitationsEmpty')} /> }}
        columns={[
          {
            title: t('customers.code'),
            render: (_, c) => <Typography.Text copyable={{ text: link(c.code) }}>{c.code}</Typography.Text>,
          },
          {
            title: t('customers.expires'),
            render: (_, c) => (c.expiresAt ? dayjs(c.expiresAt).format('YYYY-MM-DD') : '-'),
          },
          {
            title: t('common.status'),
            render: (_, c) => (
              <Tag color={c.live ? 'green' : 'default'}>
                {c.live ? t('customers.live') : t('customers.dead')}
              </Tag>
            ),
          },
          {
            title: t('common.actions'),
            render: (_, c) =>
              c.live ? (
                <Button type="link" size="small" danger onClick={() => void revoke(c.id)}>
                  {t('customers.revoke')}
                </Button>
              ) : null,
          },
        ]}
      />
    </Modal>
  );
}

/** The markup this organisation pays over its parent's price, per business line. */
export function PriceLevelDialog({
  org,
  line,
  onClose,
}: {
  org: OrganisationRow;
  line: Line;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm();
  const levels = useQuery({
    queryKey: ['org-prices', org.id],
    queryFn: () => customersApi.priceLevels(org.id),
  });
  const current = levels.data?.list.find((l) => l.line === line && l.productKey === '');
  const save = async () => {
    const values = await form.validateFields();
    try {
      await post('/admin/customer/priceLevelSave', {
        organisationId: org.id,
        line,
        productKey: '',
        ...values,
      });
      message.success(t('common.saved'));
      onClose();
    } catch (error) {
      if (!applyFieldErrors(error, form.setFields) && error instanceof ApiError) message.error(error.message);
    }
  };
  return (
    <Modal
      open
      title={`${t('customers.priceLevel')} · ${org.name}`}
      onCancel={onClose}
      onOk={() => void save()}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
    >
      <Typography.Paragraph type="secondary">{t('customers.priceLevelTip')}</Typography.Paragraph>
      {levels.isLoading ? null : (
        <Form
          form={form}
          layout="vertical"
          initialValues={{
            markupPercent: current?.markupPercent ?? '0',
            markupFixed: current?.markupFixed ?? '0.00',
          }}
        >
          <Form.Item name="markupPercent" label={t('customers.markupPercent')} rules={[{ required: true }]}>
            <AmountInput suffix="%" />
          </Form.Item>
          <Form.Item name="markupFixed" label={t('customers.markupFixed')} rules={[{ required: true }]}>
            <AmountInput />
          </Form.Item>
        </Form>
      )}
    </Modal>
  );
}

export type AccountAction = 'freeze' | 'unfreeze' | 'credit' | 'adjust';

/** 32 random hex digits (`crypto.randomUUID` needs a secure page; a portal on plain http has none). */
const newRequestKey = () =>
  Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');

/** Staff actions on an account, each with its reason. */
export function AccountActionDialog({
  org,
  action,
  onClose,
  onDone,
}: {
  org: OrganisationRow;
  action: AccountAction;
  onClose: () => void;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm();
  // One adjustment per opening of the dialog: a second click, or a retry after a lost answer, sends
  // the same key and the server adjusts once.
  const [requestKey] = useState(newRequestKey);
  const account = org.account;
  if (!account) return null;
  const url = {
    freeze: '/admin/account/freeze',
    unfreeze: '/admin/account/unfreeze',
    credit: '/admin/account/setCreditLimit',
    adjust: '/admin/account/adjust',
  }[action];
  const submit = async () => {
    const values = await form.validateFields();
    try {
      await post(url, { accountId: account.id, ...values, ...(action === 'adjust' ? { requestKey } : {}) });
      message.success(t('common.saved'));
      onDone();
    } catch (error) {
      if (!applyFieldErrors(error, form.setFields) && error instanceof ApiError) message.error(error.message);
    }
  };
  return (
    <Modal
      open
      title={`${t(`customers.action.${action}`)} · ${org.name}`}
      onCancel={onClose}
      onOk={() => void submit()}
      okText={t('shell.ok')}
      cancelText={t('shell.cancel')}
    >
      <Typography.Paragraph>
        {t('customers.balance')}: {account.balance} · {t('customers.creditLimit')}: {account.creditLimit} ·{' '}
        {t('customers.available')}: {account.available}
      </Typography.Paragraph>
      <Form
        form={form}
        layout="vertical"
        initialValues={action === 'credit' ? { creditLimit: account.creditLimit } : {}}
      >
        {action === 'credit' ? (
          <Form.Item name="creditLimit" label={t('customers.creditLimit')} rules={[{ required: true }]}>
            <AmountInput />
          </Form.Item>
        ) : null}
        {action === 'adjust' ? (
          <Form.Item
            name="amount"
            label={t('customers.adjustAmount')}
            extra={t('customers.adjustTip')}
            rules={[{ required: true }]}
          >
            <AmountInput allowNegative />
          </Form.Item>
        ) : null}
        <Form.Item
          name="reason"
          label={t('customers.reason')}
          rules={[{ required: true, message: t('validation.required', { field: t('customers.reason') }) }]}
        >
          <Input.TextArea rows={2} maxLength={200} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
