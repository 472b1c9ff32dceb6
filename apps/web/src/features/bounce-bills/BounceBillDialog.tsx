import type { BusinessLine } from '@freight/contracts/accounts';
import {
  BILL_TYPES_OF_LINE,
  BILL_TYPES_WITH_FINDINGS,
  type BounceBillType,
} from '@freight/contracts/bounce-bills';
import { sanitizeAmountInput } from '@freight/contracts/money';
import { moneyField } from '@freight/contracts/validation';
import { useQueryClient } from '@tanstack/react-query';
import { App, Form, Input, Modal, Select, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DocumentInput } from '../../components/ProofFiles.tsx';
import { useReportError } from '../../hooks/useReportError.ts';
import { fieldRule, requiredRule } from '../../lib/form-rules.ts';
import { refreshBillsAndWorkOrders } from '../work-orders/api.ts';
import { bounceBillApi } from './api.ts';

interface BillForm {
  /** The order's number on the truck pages, the waybill's on the express ones. */
  orderNo?: string;
  waybillNo?: string;
  type: BounceBillType;
  amount: string;
  declared?: string;
  actual?: string;
  description: string;
  proofUrl?: string | null;
}

/**
 * Staff raise a bounce bill on an order (truck) or a waybill (express) the carrier has taken: the
 * customer's balance of that line is charged at once, or the bill waits for funds. Mounted while
 * shown, so each opening starts empty.
 */
export function BounceBillDialog({ line, onClose }: { line: BusinessLine; onClose: () => void }) {
  const { t } = useTranslation();
  // The express pages word some strings their own way (`<key>.express`).
  const tl = (key: string, params?: Record<string, string>) =>
    t(line === 'express' ? `${key}.express` : key, params);
  // Named as the server names it, so its refusals land under the field.
  const numberField = line === 'express' ? 'waybillNo' : 'orderNo';
  const { message } = App.useApp();
  const reportError = useReportError();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<BillForm>();
  const [busy, setBusy] = useState(false);
  const type = Form.useWatch('type', form);
  // Reweigh, reclass and dimensions say what was declared and what was found; else it is optional.
  const findings = type !== undefined && BILL_TYPES_WITH_FINDINGS.includes(type);
  const findingLabel = (end: 'declared' | 'actual') =>
    findings ? tl(`bounceBills.${end}.${type}`) : t(`bounceBills.${end}`);

  const submit = async (values: BillForm) => {
    setBusy(true);
    try {
      const bill = await bounceBillApi.save({
        line,
        [numberField]: (values[numberField] ?? '').trim(),
        type: values.type,
        amount: values.amount,
        declared: values.declared?.trim() ?? '',
        actual: values.actual?.trim() ?? '',
        description: values.description.trim(),
        proofUrl: values.proofUrl ?? null,
      });
      // The envelope's message is not passed on by the HTTP client; the bill's status says the same,
      // in the shared catalogue's words.
      const outcome =
        bill.status === 'unpaid'
          ? 'bounceBill.awaitingPayment'
          : line === 'express'
            ? 'bounceBill.chargedExpress'
            : 'bounceBill.charged';
      message.success(t(outcome, { billNo: bill.billNo, amount: bill.amount }));
      refreshBillsAndWorkOrders(queryClient);
      onClose();
    } catch (error) {
      reportError(error, form);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open
      width={640}
      title={tl('bounceBills.add')}
      onCancel={onClose}
      onOk={() => form.submit()}
      confirmLoading={busy}
      okButtonProps={{ 'data-testid': 'bill-submit' } as never}
      modalRender={(node) => <div data-testid="bill-dialog">{node}</div>}
    >
      <Typography.Paragraph type="secondary">{tl('bounceBills.addTip')}</Typography.Paragraph>
      <Form<BillForm>
        form={form}
        layout="vertical"
        initialValues={{ proofUrl: null }}
        onFinish={(values) => void submit(values)}
      >
        <Form.Item
          name={numberField}
          label={tl('bounceBills.orderNo')}
          rules={[requiredRule(tl('bounceBills.orderNo'))]}
        >
          <Input maxLength={40} data-testid="bill-orderNo" />
        </Form.Item>
        <Form.Item name="type" label={t('bounceBills.type')} rules={[requiredRule(t('bounceBills.type'))]}>
          <Select
            options={BILL_TYPES_OF_LINE[line].map((v) => ({ value: v, label: t(`bounceBill.type.${v}`) }))}
            data-testid="bill-type"
          />
        </Form.Item>
        <Form.Item
          name="amount"
          label={t('bounceBills.amount')}
          normalize={(v: string | undefined) => sanitizeAmountInput(v ?? '')}
          rules={[
            requiredRule(t('bounceBills.amount')),
            fieldRule(moneyField, 'amount'),
            {
              validator: async (_, value: string | undefined) => {
                if (value && !/[1-9]/.test(value)) throw new Error(t('validation.moneyPositive'));
              },
            },
          ]}
        >
          <Input inputMode="decimal" prefix="$" data-testid="bill-amount" />
        </Form.Item>
        <Form.Item
          name="declared"
          label={findingLabel('declared')}
          dependencies={['type']}
          rules={findings ? [requiredRule(findingLabel('declared'))] : []}
        >
          <Input maxLength={60} data-testid="bill-declared" />
        </Form.Item>
        <Form.Item
          name="actual"
          label={findingLabel('actual')}
          dependencies={['type']}
          rules={findings ? [requiredRule(findingLabel('actual'))] : []}
        >
          <Input maxLength={60} data-testid="bill-actual" />
        </Form.Item>
        <Form.Item
          name="description"
          label={t('bounceBills.description')}
          rules={[requiredRule(t('bounceBills.description'))]}
        >
          <Input.TextArea rows={3} maxLength={500} showCount data-testid="bill-description" />
        </Form.Item>
        <Form.Item name="proofUrl" label={t('bounceBills.proof')}>
          <DocumentInput testId="bill-proof" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
