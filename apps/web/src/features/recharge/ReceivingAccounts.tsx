import { useQuery } from '@tanstack/react-query';
import { App, Button, Drawer, Form, Input, Modal, Select, Space, Switch, Table, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useReportError } from '../../hooks/useReportError.ts';
import { post } from '../../lib/http.ts';

interface ReceivingAccount {
  id: number;
  currency: 'CNY' | 'USD';
  bankName: string;
  accountName: string;
  accountNumber: string;
  enabled: boolean;
}

/**
 * Staff keep the accounts customers pay recharges into (RMB and USD). One that recharges already name
 * can only be switched off, which the server says when a deletion is refused.
 */
export function ReceivingAccountsButton() {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const reportError = useReportError();
  const [open, setOpen] = useState(false);
  const [editing, setEditing] = useState<Partial<ReceivingAccount> | null>(null);
  const [form] = Form.useForm<ReceivingAccount>();
  const accounts = useQuery({
    queryKey: ['receiving-accounts-all'],
    queryFn: () => post<{ list: ReceivingAccount[] }>('/admin/recharge/receivingAccountsAll'),
    enabled: open,
  });

  const save = async (values: ReceivingAccount) => {
    try {
      await post('/admin/recharge/receivingAccount/save', { ...values, id: editing?.id });
      message.success(t('common.saved'));
      setEditing(null);
      await accounts.refetch();
    } catch (error) {
      reportError(error, form);
    }
  };

  const remove = (row: ReceivingAccount) =>
    modal.confirm({
      title: t('shell.dialogTitle'),
      content: t('common.deleteConfirm'),
      okButtonProps: { danger: true, 'data-testid': 'receiving-delete-ok' } as never,
      onOk: async () => {
        try {
          await post('/admin/recharge/receivingAccount/delete', { id: row.id });
          message.success(t('common.deleted'));
          await accounts.refetch();
        } catch (error) {
          reportError(error);
        }
      },
    });

  return (
    <>
      <Button onClick={() => setOpen(true)} data-testid="receiving-accounts">
        {t('receiving.title')}
      </Button>
      <Drawer
        open={open}
        width={760}
        title={t('receiving.title')}
        onClose={() => setOpen(false)}
        destroyOnHidden
      >
        <Space direction="vertical" style={{ width: '100%' }}>
          <Button
            type="primary"
            onClick={() => {
              form.resetFields();
              form.setFieldsValue({ currency: 'CNY', enabled: true });
              setEditing({});
            }}
            data-testid="receiving-add"
          >
            {t('common.add')}
          </Button>
          <Table<ReceivingAccount>
            rowKey="id"
            size="small"
            loading={accounts.isFetching}
            dataSource={accounts.data?.list ?? []}
            pagination={false}
            columns={[
              { title: t('receiving.currency'), dataIndex: 'currency' },
              { title: t('recharge.bank'), dataIndex: 'bankName' },
              { title: t('recharge.accountName'), dataIndex: 'accountName' },
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
                    <Button
                      size="small"
                      onClick={() => {
                        form.setFieldsValue(r);
                        setEditing(r);
                      }}
                    >
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
        </Space>
      </Drawer>
      <Modal
        open={editing !== null}
        title={editing?.id ? t('common.edit') : t('common.add')}
        onCancel={() => setEditing(null)}
        onOk={() => form.submit()}
        okButtonProps={{ 'data-testid': 'receiving-save' } as never}
        destroyOnHidden
      >
        <Form form={form} layout="vertical" onFinish={(v) => void save(v)}>
          <Form.Item name="currency" label={t('receiving.currency')}>
            <Select options={['CNY', 'USD'].map((c) => ({ value: c, label: c }))} />
          </Form.Item>
          {(['bankName', 'accountName', 'accountNumber'] as const).map((field) => {
            const label = t(field === 'bankName' ? 'recharge.bank' : `recharge.${field}`);
            return (
              <Form.Item
                key={field}
                name={field}
                label={label}
                rules={[
                  { required: true, whitespace: true, message: t('validation.required', { field: label }) },
                ]}
              >
                <Input maxLength={field === 'accountNumber' ? 60 : 100} data-testid={`receiving-${field}`} />
              </Form.Item>
            );
          })}
          <Form.Item name="enabled" label={t('common.enabled')} valuePropName="checked">
            <Switch />
          </Form.Item>
        </Form>
      </Modal>
    </>
  );
}
