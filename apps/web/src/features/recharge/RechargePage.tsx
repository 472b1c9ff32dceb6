import { useQuery } from '@tanstack/react-query';
import { App, Button, Card, Col, Descriptions, Form, Input, Row, Select, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AmountInput } from '../../components/AmountInput.tsx';
import { ImageUpload } from '../../components/ImageUpload.tsx';
import { ApiError, applyFieldErrors, post } from '../../lib/http.ts';
import { type Line, RechargeListTable } from './RechargeListTable.tsx';

interface ReceivingAccount {
  id: number;
  currency: 'CNY' | 'USD';
  bankName: string;
  bankNameEn?: string;
  accountName: string;
  accountNameEn?: string;
  accountNumber: string;
}

/** A customer's recharge: where to send the money, the form with the payment proof, and its recharges. */
export function RechargePage({ line }: { line: Line }) {
  const { t, i18n } = useTranslation();
  const bankOf = (a: ReceivingAccount) => (i18n.language === 'en-US' && a.bankNameEn) || a.bankName;
  const holderOf = (a: ReceivingAccount) => (i18n.language === 'en-US' && a.accountNameEn) || a.accountName;
  const { message } = App.useApp();
  const [form] = Form.useForm();
  const [busy, setBusy] = useState(false);
  const [listKey, setListKey] = useState(0);
  const accounts = useQuery({
    queryKey: ['receiving-accounts'],
    queryFn: () => post<{ list: ReceivingAccount[] }>('/admin/recharge/receivingAccounts'),
  });

  const submit = async () => {
    const values = await form.validateFields();
    setBusy(true);
    try {
      await post('/admin/recharge/submit', { ...values, line });
      message.success(t('recharge.submitted'));
      form.resetFields();
      setListKey((k) => k + 1);
    } catch (error) {
      if (!applyFieldErrors(error, form.setFields) && error instanceof ApiError) message.error(error.message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Row gutter={[12, 12]}>
      <Col xs={24} xl={9}>
        <Card title={t('recharge.receivingAccounts')} size="small" style={{ marginBottom: 12 }}>
          {(accounts.data?.list ?? []).map((a) => (
            <Descriptions
              key={a.id}
              column={1}
              size="small"
              style={{ marginBottom: 8 }}
              title={a.currency === 'CNY' ? 'RMB' : 'USD'}
            >
              <Descriptions.Item label={t('recharge.bank')}>{bankOf(a)}</Descriptions.Item>
              <Descriptions.Item label={t('recharge.accountName')}>{holderOf(a)}</Descriptions.Item>
              <Descriptions.Item label={t('recharge.accountNumber')}>
                <Typography.Text copyable>{a.accountNumber}</Typography.Text>
              </Descriptions.Item>
            </Descriptions>
          ))}
        </Card>
        <Card title={t('recharge.new')} size="small">
          <Form form={form} layout="vertical" initialValues={{ method: 'bank_transfer' }}>
            <Form.Item
              name="receivingAccountId"
              label={t('recharge.receivingAccount')}
              rules={[
                {
                  required: true,
                  message: t('validation.required', { field: t('recharge.receivingAccount') }),
                },
              ]}
            >
              <Select
                data-testid="recharge-account"
                options={(accounts.data?.list ?? []).map((a) => ({
                  value: a.id,
                  label: `${a.currency === 'CNY' ? 'RMB' : 'USD'} · ${bankOf(a)}`,
                }))}
              />
            </Form.Item>
            <Form.Item
              name="amount"
              label={t('recharge.amount')}
              rules={[{ required: true, message: t('validation.required', { field: t('recharge.amount') }) }]}
            >
              <AmountInput />
            </Form.Item>
            <Form.Item name="method" label={t('recharge.method')}>
              <Select
                options={(['bank_transfer', 'alipay', 'wechat', 'other'] as const).map((m) => ({
                  value: m,
                  label: t(`recharge.method.${m}`),
                }))}
              />
            </Form.Item>
            <Form.Item
              name="payerName"
              label={t('recharge.payerName')}
              rules={[
                { required: true, message: t('validation.required', { field: t('recharge.payerName') }) },
              ]}
            >
              <Input maxLength={100} data-testid="recharge-payer" />
            </Form.Item>
            <Form.Item
              name="payerCardNumber"
              label={t('recharge.payerCard')}
              rules={[
                { required: true, message: t('validation.required', { field: t('recharge.payerCard') }) },
              ]}
            >
              <Input maxLength={40} data-testid="recharge-card" />
            </Form.Item>
            <Form.Item
              name="screenshotUrl"
              label={t('recharge.screenshot')}
              rules={[
                { required: true, message: t('validation.required', { field: t('recharge.screenshot') }) },
              ]}
            >
              <ImageUpload testId="recharge-screenshot" />
            </Form.Item>
            <Form.Item name="note" label={t('recharge.note')}>
              <Input.TextArea rows={2} maxLength={200} />
            </Form.Item>
            <Button
              type="primary"
              block
              loading={busy}
              onClick={() => void submit()}
              data-testid="recharge-submit"
            >
              {t('recharge.submit')}
            </Button>
          </Form>
        </Card>
      </Col>
      <Col xs={24} xl={15}>
        <Card title={t('recharge.mine')} size="small">
          <RechargeListTable key={listKey} line={line} />
        </Card>
      </Col>
    </Row>
  );
}
