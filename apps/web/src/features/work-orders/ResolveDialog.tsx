import { sanitizeAmountInput } from '@freight/contracts/money';
import { moneyField } from '@freight/contracts/validation';
import { CONSUMPTION_TYPES, type ConsumptionType } from '@freight/contracts/work-orders';
import { Form, type FormRule, Input, Modal, Select, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useReportError } from '../../hooks/useReportError.ts';
import { fieldRule, requiredRule } from '../../lib/form-rules.ts';
import type { WorkOrderView } from './api.ts';

export interface Resolution {
  consumptionType: ConsumptionType;
  resultAmount: string;
  remark: string;
}

/**
 * Staff close a work order with its outcome: whether money moves (credit, deduction, refund) and how
 * much, and a remark the customer reads. Field refusals from the server show under their fields.
 */
export function ResolveDialog({
  workOrder,
  onCancel,
  onSubmit,
}: {
  workOrder: WorkOrderView;
  onCancel: () => void;
  onSubmit: (resolution: Resolution) => Promise<void>;
}) {
  const { t } = useTranslation();
  const reportError = useReportError();
  const [form] = Form.useForm<Resolution>();
  const [busy, setBusy] = useState(false);
  const consumption = Form.useWatch('consumptionType', form) ?? 'none';
  const movesMoney = consumption !== 'none';
  const amountRules: FormRule[] = movesMoney
    ? [
        requiredRule(t('workOrders.resultAmount')),
        fieldRule(moneyField, 'resultAmount'),
        {
          validator: async (_, value: string | undefined) => {
            if (value && !/[1-9]/.test(value)) throw new Error(t('validation.moneyPositive'));
          },
        },
      ]
    : [];

  return (
    <Modal
      open
      title={t('workOrders.resolveTitle', { sn: workOrder.workOrderNo })}
      onCancel={onCancel}
      onOk={() => form.submit()}
      confirmLoading={busy}
      okButtonProps={{ 'data-testid': 'wo-resolve-submit' } as never}
      modalRender={(node) => <div data-testid="wo-resolve-dialog">{node}</div>}
    >
      <Typography.Paragraph type="secondary">
        {t('workOrders.resolveSummary', {
          category: t(`workOrder.category.${workOrder.category}`),
          item: t(`workOrder.item.${workOrder.transactionItem}`),
          amount: workOrder.amount,
        })}
      </Typography.Paragraph>
      <Form<Resolution>
        form={form}
        layout="vertical"
        initialValues={{ consumptionType: 'none', resultAmount: '', remark: '' }}
        onFinish={async (values) => {
          setBusy(true);
          try {
            await onSubmit({
              consumptionType: values.consumptionType,
              // Closing without money sends no amount, whatever was typed before the choice changed.
              resultAmount: values.consumptionType === 'none' ? '0' : values.resultAmount,
              remark: values.remark.trim(),
            });
          } catch (error) {
            reportError(error, form);
          } finally {
            setBusy(false);
          }
        }}
      >
        <Form.Item
          name="consumptionType"
          label={t('workOrders.consumptionType')}
          // The express line's tips name its own account (`<key>.express`).
          extra={t(
            `workOrders.consumptionTip.${consumption}${workOrder.line === 'express' ? '.express' : ''}`,
          )}
        >
          <Select
            options={CONSUMPTION_TYPES.map((c) => ({ value: c, label: t(`workOrder.consumption.${c}`) }))}
            data-testid="wo-consumption"
          />
        </Form.Item>
        <Form.Item
          name="resultAmount"
          label={t('workOrders.resultAmount')}
          dependencies={['consumptionType']}
          normalize={(v: string | undefined) => sanitizeAmountInput(v ?? '')}
          rules={amountRules}
        >
          <Input inputMode="decimal" prefix="$" disabled={!movesMoney} data-testid="wo-result-amount" />
        </Form.Item>
        <Form.Item
          name="remark"
          label={t('workOrders.remark')}
          rules={[requiredRule(t('workOrders.remark'))]}
        >
          <Input.TextArea rows={3} maxLength={1000} showCount data-testid="wo-resolve-remark" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
