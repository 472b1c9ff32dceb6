import { useQuery } from '@tanstack/react-query';
import { App, Button, Card, Descriptions, Skeleton, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { AccountPayment } from '../../components/AccountPayment.tsx';
import { useReportError } from '../../hooks/useReportError.ts';
import { compareMoney, money } from '../../lib/money.ts';
import { truckOrderApi } from './api.ts';
import { OrderStatusTag } from './OrderStatusTag.tsx';
import { OrderUnavailable } from './OrderUnavailable.tsx';

/** `/addAddress` and `/order45Pay`: pays one unpaid order from the truck balance, after a confirmation. */
export default function OrderPaymentPage() {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const reportError = useReportError();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const id = Number(params.get('id'));
  const info = useQuery({
    queryKey: ['order-pay', id],
    queryFn: () => truckOrderApi.payInfo(id),
    enabled: id > 0,
  });
  const [busy, setBusy] = useState(false);

  if (!(id > 0)) return <OrderUnavailable id={id} />;
  if (info.isError)
    return <OrderUnavailable id={id} error={info.error} onRetry={() => void info.refetch()} />;
  if (!info.data)
    return (
      <Card>
        <Skeleton active />
      </Card>
    );
  const { order, account } = info.data;
  const canPay = order.actions.includes('pay');
  const short = compareMoney(account.available, order.total) < 0;

  const pay = () =>
    modal.confirm({
      title: t('order.payTitle'),
      content: t('order.payConfirm', { amount: money(order.total) }),
      okButtonProps: { 'data-testid': 'pay-confirm' } as never,
      onOk: async () => {
        setBusy(true);
        try {
          await truckOrderApi.pay(order.id);
          message.success(t('order.paidAlready'));
          navigate(`/orderInfo?id=${order.id}`);
        } catch (error) {
          reportError(error);
          await info.refetch();
        } finally {
          setBusy(false);
        }
      },
    });

  return (
    <Card title={t('order.payTitle')} style={{ maxWidth: 760 }}>
      <Space orientation="vertical" style={{ width: '100%' }} size={16}>
        <Descriptions bordered size="small" column={1}>
          <Descriptions.Item label={t('orderField.orderNo')}>{order.orderNo}</Descriptions.Item>
          <Descriptions.Item label={t('orderField.status')}>
            <OrderStatusTag status={order.status} />
          </Descriptions.Item>
          <Descriptions.Item label={t('quote.route')}>
            {order.origin} → {order.destination}
          </Descriptions.Item>
          <Descriptions.Item label={t('orderField.carrier')}>{order.carrier}</Descriptions.Item>
        </Descriptions>
        <AccountPayment
          total={order.total}
          totalLabel={t('orderField.total')}
          paid={order.paid}
          account={account}
          canPay={canPay}
          rechargePath="/recharge"
          testIdPrefix="pay"
          words={{
            paidAlready: t('order.paidAlready'),
            notPayable: t('order.notPayable'),
            shortfall: t('order.shortfall'),
          }}
        />
        <Space>
          {canPay ? (
            <Button
              type="primary"
              size="large"
              loading={busy}
              disabled={short}
              onClick={pay}
              data-testid="pay-order"
            >
              {t('order.pay')}
            </Button>
          ) : null}
          <Button size="large" onClick={() => navigate(`/orderInfo?id=${order.id}`)}>
            {t('order.viewOrder')}
          </Button>
        </Space>
      </Space>
    </Card>
  );
}
