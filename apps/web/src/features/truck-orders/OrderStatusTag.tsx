import type { OrderStatus } from '@freight/contracts/truck-orders';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';

const STATUS_COLOUR: Partial<Record<OrderStatus, string>> = {
  unpaid: 'default',
  pending_review: 'processing',
  to_be_picked_up: 'cyan',
  picked_up: 'blue',
  in_transit: 'geekblue',
  delivered: 'success',
  cancelled: 'default',
  review_rejected: 'error',
  customer_rejection: 'error',
  pickup_abnormal: 'warning',
  track_abnormal: 'warning',
  delivery_failed: 'warning',
};

/** The order's status; `carrierPending` adds that its carrier has yet to take it (a batch's order). */
export function OrderStatusTag({
  status,
  carrierPending = false,
}: {
  status: OrderStatus;
  carrierPending?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <>
      <Tag color={STATUS_COLOUR[status] ?? 'purple'} data-testid="order-status">
        {t(`orderStatus.${status}`)}
      </Tag>
      {carrierPending ? (
        <Tag color="processing" data-testid="order-carrier-pending">
          {t('order.carrierPending')}
        </Tag>
      ) : null}
    </>
  );
}
