import type { BounceBillStatus } from '@freight/contracts/bounce-bills';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';

// What other areas may show of bounce bills: the status tag (the order page lists an order's bills).

const BILL_COLOUR: Record<BounceBillStatus, string> = {
  unpaid: 'warning',
  charged: 'blue',
  disputed: 'processing',
  settled: 'success',
  cancelled: 'default',
};

// The label is the shared catalogue's, so the notices the server sends name a status as the pages do.
export function BillStatusTag({ status, testId }: { status: BounceBillStatus; testId?: string }) {
  const { t } = useTranslation();
  return (
    <Tag color={BILL_COLOUR[status]} data-testid={testId}>
      {t(`bounceBill.status.${status}`)}
    </Tag>
  );
}
