import type { BounceBillStatus } from '@freight/contracts/bounce-bills';
import type { WorkOrderStatus } from '@freight/contracts/work-orders';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';

const BILL_COLOUR: Record<BounceBillStatus, string> = {
  unpaid: 'warning',
  charged: 'blue',
  disputed: 'processing',
  settled: 'success',
  cancelled: 'default',
};

const WORK_ORDER_COLOUR: Record<WorkOrderStatus, string> = {
  pending: 'warning',
  processing: 'processing',
  resolved: 'success',
  rejected: 'error',
  withdrawn: 'default',
};

// The labels are the shared catalogue's, so the notices the server sends name a status as the pages do.
export function BillStatusTag({ status, testId }: { status: BounceBillStatus; testId?: string }) {
  const { t } = useTranslation();
  return (
    <Tag color={BILL_COLOUR[status]} data-testid={testId}>
      {t(`bounceBill.status.${status}`)}
    </Tag>
  );
}

export function WorkOrderStatusTag({ status, testId }: { status: WorkOrderStatus; testId?: string }) {
  const { t } = useTranslation();
  return (
    <Tag color={WORK_ORDER_COLOUR[status]} data-testid={testId}>
      {t(`workOrder.status.${status}`)}
    </Tag>
  );
}
