import type { WaybillStatus } from '@freight/contracts/express-waybills';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';

const STATUS_COLOUR: Record<WaybillStatus, string> = {
  unpaid: 'default',
  label_pending: 'gold',
  to_be_printed: 'processing',
  printed: 'cyan',
  ready_to_ship: 'blue',
  to_be_shipped: 'blue',
  in_transit: 'geekblue',
  out_for_delivery: 'purple',
  delivered: 'success',
  exception: 'warning',
  cancelled: 'default',
  refunded: 'magenta',
  funds_frozen: 'error',
};

export function WaybillStatusTag({ status }: { status: WaybillStatus }) {
  const { t } = useTranslation();
  return (
    <Tag color={STATUS_COLOUR[status]} data-testid="waybill-status">
      {t(`waybillStatus.${status}`)}
    </Tag>
  );
}
