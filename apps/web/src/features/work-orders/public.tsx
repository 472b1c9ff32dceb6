import type { BusinessLine } from '@freight/contracts/accounts';
import { sanitizeAmountInput } from '@freight/contracts/money';
import { moneyField } from '@freight/contracts/validation';
import {
  MAX_PROOF_FILES,
  TRANSACTION_ITEMS,
  type TransactionItem,
  WORK_ORDER_CATEGORIES,
  type WorkOrderCategory,
  type WorkOrderStatus,
} from '@freight/contracts/work-orders';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, App, Form, Input, Modal, Select, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { DocumentsInput } from '../../components/ProofFiles.tsx';
import { useReportError } from '../../hooks/useReportError.ts';
import { fieldRule, requiredRule } from '../../lib/form-rules.ts';
import { refreshBillsAndWorkOrders, workOrderApi, workOrderPath } from './api.ts';

// What other areas may use of work orders: the dialog that opens one (from an order or a disputed
// bill) and the status tag (the order page lists an order's work orders).

const WORK_ORDER_COLOUR: Record<WorkOrderStatus, string> = {
  pending: 'warning',
  processing: 'processing',
  resolved: 'success',
  rejected: 'error',
  withdrawn: 'default',
};

// The label is the shared catalogue's, so the notices the server sends name a status as the pages do.
export function WorkOrderStatusTag({ status, testId }: { status: WorkOrderStatus; testId?: string }) {
  const { t } = useTranslation();
  return (
    <Tag color={WORK_ORDER_COLOUR[status]} data-testid={testId}>
      {t(`workOrder.status.${status}`)}
    </Tag>
  );
}

/**
 * What the page opening the dialog already knows: the order (the waybill on express), and for a
 * dispute the bill and its amount.
 */
export interface WorkOrderPrefill {
  orderNo?: string;
  category?: WorkOrderCategory;
  transactionItem?: TransactionItem;
  amount?: string;
  bill?: { id: number; billNo: string };
}

interface WorkOrderForm {
  /** The order's number on the truck pages, the waybill's on the express ones. */
  orderNo?: string;
  waybillNo?: string;
  category: WorkOrderCategory;
  transactionItem: TransactionItem;
  amount?: string;
  description: string;
  proofUrls?: string[];
}

/**
 * A customer opens a work order (a claim) on one of its orders (truck) or waybills (express); on
 * success the new work order's page opens. Mounted while shown, so each opening starts from the prefill.
 */
export function WorkOrderDialog({
  line = 'truck',
  prefill = {},
  onClose,
}: {
  line?: BusinessLine;
  prefill?: WorkOrderPrefill;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  // The express pages word some strings their own way (`<key>.express`).
  const tl = (key: string, params?: Record<string, string>) =>
    t(line === 'express' ? `${key}.express` : key, params);
  // Named as the server names it, so its refusals land under the field.
  const numberField = line === 'express' ? 'waybillNo' : 'orderNo';
  const { message } = App.useApp();
  const reportError = useReportError();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<WorkOrderForm>();
  const [busy, setBusy] = useState(false);
  // A bill dispute names its bill, so it can only start from the bill; other claims never carry one.
  const categories = prefill.bill
    ? ['bill_dispute' as const]
    : WORK_ORDER_CATEGORIES.filter((c) => c !== 'bill_dispute');

  const submit = async (values: WorkOrderForm) => {
    setBusy(true);
    try {
      const saved = await workOrderApi.save({
        line,
        [numberField]: (prefill.orderNo ?? values[numberField] ?? '').trim(),
        category: values.category,
        transactionItem: values.transactionItem,
        amount: values.amount || '0',
        description: values.description.trim(),
        proofUrls: values.proofUrls ?? [],
        ...(prefill.bill ? { billId: prefill.bill.id } : {}),
      });
      message.success(t('workOrder.opened', { workOrderNo: saved.workOrderNo }));
      refreshBillsAndWorkOrders(queryClient);
      onClose();
      navigate(workOrderPath(saved.workOrderNo, line));
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
      title={prefill.bill ? tl('workOrders.disputeTitle') : t('workOrders.add')}
      onCancel={onClose}
      onOk={() => form.submit()}
      confirmLoading={busy}
      okText={t('workOrders.submit')}
      okButtonProps={{ 'data-testid': 'wo-submit' } as never}
      modalRender={(node) => <div data-testid="wo-dialog">{node}</div>}
    >
      {prefill.bill ? (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 16 }}
          title={t('workOrders.disputeTip', { billNo: prefill.bill.billNo, amount: prefill.amount ?? '' })}
        />
      ) : null}
      <Form<WorkOrderForm>
        form={form}
        layout="vertical"
        initialValues={{
          [numberField]: prefill.orderNo ?? '',
          category: prefill.bill ? 'bill_dispute' : prefill.category,
          transactionItem: prefill.transactionItem,
          amount: prefill.amount ?? '',
          proofUrls: [],
        }}
        onFinish={(values) => void submit(values)}
      >
        <Form.Item
          name={numberField}
          label={tl('workOrders.orderNo')}
          rules={[requiredRule(tl('workOrders.orderNo'))]}
        >
          <Input maxLength={40} disabled={Boolean(prefill.orderNo)} data-testid="wo-orderNo" />
        </Form.Item>
        <Form.Item
          name="category"
          label={t('workOrders.category')}
          extra={prefill.bill ? null : tl('workOrders.categoryTip')}
          rules={[requiredRule(t('workOrders.category'))]}
        >
          <Select
            disabled={Boolean(prefill.bill)}
            options={categories.map((c) => ({ value: c, label: t(`workOrder.category.${c}`) }))}
            data-testid="wo-category"
          />
        </Form.Item>
        <Form.Item
          name="transactionItem"
          label={t('workOrders.transactionItem')}
          rules={[requiredRule(t('workOrders.transactionItem'))]}
        >
          <Select
            options={TRANSACTION_ITEMS.map((i) => ({ value: i, label: t(`workOrder.item.${i}`) }))}
            data-testid="wo-transactionItem"
          />
        </Form.Item>
        <Form.Item
          name="amount"
          label={t('workOrders.claimedAmount')}
          extra={t('workOrders.claimedAmountTip')}
          // The shared sanitiser keeps digits and two decimals as the shared AmountInput does; a plain
          // input keeps the test id on the element a test types into.
          normalize={(v: string | undefined) => sanitizeAmountInput(v ?? '')}
          rules={[fieldRule(moneyField, 'amount')]}
        >
          <Input inputMode="decimal" prefix="$" data-testid="wo-amount" />
        </Form.Item>
        <Form.Item
          name="description"
          label={t('workOrders.description')}
          rules={[requiredRule(t('workOrders.description'))]}
        >
          <Input.TextArea rows={4} maxLength={2000} showCount data-testid="wo-description" />
        </Form.Item>
        <Form.Item name="proofUrls" label={t('workOrders.proofFiles')}>
          <DocumentsInput max={MAX_PROOF_FILES} testId="wo-proof" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
