import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Drawer, Empty, Form, Input, Modal, Select, Space, Switch, Table, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useReportError } from '../../hooks/useReportError.ts';
import { post } from '../../lib/http.ts';

interface ReceivingAccount {
  id: number;
  currency: 'CNY' | 'USD';
  bankName: string;
  bankNameEn: string;
  accountName: string;
  accountNameEn: string;
  accountNumber: string;
  enabled: boolean;
}

/** The three text fields, each with its label key and the server's length limits. */
const TEXT_FIELDS = [
  { name: 'bankName', label: 'recharge.bank', min: 1, max: 100 },
  { name: 'accountName', label: 'recharge.accountName', min: 1, max: 100 },
  { name: 'accountNumber', label: 'recharge.accountNumber', min: 4, max: 60 },
] as const;

/**
 * Staff keep the accounts customers pay recharges into (RMB and USD). One that recharges already name
 * can only be switched off, which the server says when a deletion is refused.
 */
export function ReceivingAccountsButton() {
  const { t, i18n } = useTranslation();
  const en = i18n.language === 'en-US';
  const { message, modal } = App.useApp();
  const reportError = useReportError();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [editing, setEditing] = useState<Partial<ReceivingAccount> | null>(null);
  const [saving, setSaving] = useState(false);
  const [form] = Form.useForm<ReceivingAccount>();
  const accounts = useQuery({
    queryKey: ['receiving-accounts-all'],
    queryFn: () => post<{ list: ReceivingAccount[] }>('/admin/recharge/receivingAccountsAll'),
    enabled: open,
  });

  /** The staff list and the enabled accounts the recharge form offers both change. */
  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: ['receiving-accounts'] });
    await accounts.refetch();
  };

  const save = async (values: ReceivingAccount) => {
    setSaving(true);
    try {
      await post('/admin/recharge/receivingAccount/save', { ...values, id: editing?.id });
      message.success(t('common.saved'));
      setEditing(null);
      await refresh();
    } catch (error) {
      reportError(error, form);
    } finally {
      setSaving(false);
    }
  };

  const remove = (row: ReceivingAccount) =>
    modal.confirm({
      title: t('shell.dialogTitle'),
      content: t('receiving.deleteConfirm', { number: row.accountNumber, bank: row.bankName }),
      okButtonProps: { danger: true, 'data-testid': 'receiving-delete-ok' } as never,
      onOk: async () => {
        try {
          await post('/admin/recharge/receivingAccount/delete', { id: row.id });
          message.success(t('common.deleted'));
          await refresh();
        } catch (error) {
          reportError(error);
        }
      },
    });

  const startEditing = (row: Partial<ReceivingAccount>) => {
    form.resetFields();
    form.setFieldsValue(row.id ? row : { currency: 'CNY', enabled: true });
    setEditing(row);
  };

  return (
    <>
      <Button onClick={() => setOpen(true)} data-testid="receiving-accounts">
        {t('receiving.title')}
      </Button>
      <Drawer
        open={open}
        size={760}
        title={t('receiving.title')}
        onClose={() => setOpen(false)}
        extra={
          <Button type="primary" onClick={() => startEditing({})} data-testid="receiving-add">
            {t('receiving.add')}
          </Button>
        }
      >
        <Table<ReceivingAccount>
          rowKey="id"
          size="small"
          loading={accounts.isFetching}
          dataSource={accounts.data?.list ?? []}
          pagination={false}
          scroll={{ x: 'max-content' }}
          locale={{
            emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('receiving.empty')} />,
          }}
          columns={[
            { title: t('receiving.currency'), render: (_, r) => (r.currency === 'CNY' ? 'RMB' : 'USD') },
            { title: t('recharge.bank'), render: (_, r) => (en && r.bankNameEn) || r.bankName },
            { title: t('recharge.accountName'), render: (_, r) => (en && r.accountNameEn) || r.accountName },
            { title: t('recharge.accountNumber'), dataIndex: 'accountNumber' },
            {
              title: t('common.status'),
              render: (_, r) => (
                <Tag color={r.enabled ? 'success' : 'default'}>
                  {r.enabled ? t('common.enabled') : t('common.disabled')}
                </Tag>
              ),
            },
            {
              title: t('common.actions'),
              render: (_, r) => (
                <Space>
                  <Button size="small" onClick={() => startEditing(r)}>
                    {t('common.edit')}
                  </Button>
                  <Button
                    size="small"
                    danger
                    onClick={() => remove(r)}
                    data-testid={`receiving-delete-${r.accountNumber}`}
                  >
                    {t('common.delete')}
                  </Button>
                </Space>
              ),
            },
          ]}
        />
        {/* Inside the drawer, so it stacks above it; rendered early, so the form exists before it opens. */}
        <Modal
          open={editing !== null}
          title={editing?.id ? t('receiving.edit') : t('receiving.add')}
          onCancel={() => setEditing(null)}
          onOk={() => form.submit()}
          confirmLoading={saving}
          okButtonProps={{ 'data-testid': 'receiving-save' } as never}
          forceRender
        >
          <Form form={form} layout="vertical" onFinish={(v) => void save(v)}>
            <Form.Item name="currency" label={t('receiving.currency')}>
              <Select
                options={[
                  { value: 'CNY', label: 'RMB' },
                  { value: 'USD', label: 'USD' },
                ]}
              />
            </Form.Item>
            {TEXT_FIELDS.map((field) => {
              const label = t(field.label);
              return (
                <Form.Item
                  key={field.name}
                  name={field.name}
                  label={label}
                  rules={[
                    { required: true, whitespace: true, message: t('validation.required', { field: label }) },
                    { min: field.min, message: t('validation.minLength', { field: label, min: field.min }) },
                  ]}
                >
                  <Input maxLength={field.max} data-testid={`receiving-${field.name}`} />
                </Form.Item>
              );
            })}
            <Form.Item name="bankNameEn" label={t('receiving.bankEn')} extra={t('receiving.bankEnTip')}>
              <Input maxLength={100} data-testid="receiving-bankNameEn" />
            </Form.Item>
            <Form.Item
              name="accountNameEn"
              label={t('receiving.accountNameEn')}
              extra={t('receiving.accountNameEnTip')}
            >
              <Input maxLength={100} data-testid="receiving-accountNameEn" />
            </Form.Item>
            <Form.Item name="enabled" label={t('common.enabled')} valuePropName="checked">
              <Switch />
            </Form.Item>
          </Form>
        </Modal>
      </Drawer>
    </>
  );
}
