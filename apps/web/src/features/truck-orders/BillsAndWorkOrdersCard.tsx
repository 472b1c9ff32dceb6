import type { Page } from '@freight/contracts/api';
import { useQuery } from '@tanstack/react-query';
import { Card, Empty, Space, Table } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { flattenPages, useSession } from '../../context/session.tsx';
import { post } from '../../lib/http.ts';
import { money } from '../../lib/money.ts';
import { BILL_LIST_URL, type BounceBillView } from '../bounce-bills/api.ts';
import { BillStatusTag } from '../bounce-bills/public.tsx';
import { WORK_ORDER_LIST_URL, type WorkOrderView, workOrderPath } from '../work-orders/api.ts';
import { WorkOrderStatusTag } from '../work-orders/public.tsx';

/** Every bill or work order of one order fits one page of the list. */
const ALL = { page: 1, limit: 200 };

/**
 * The order page's view of what happened after shipping: its bounce bills and work orders, each
 * list shown only to users whose menu has its page (the server refuses the others anyway).
 */
export function BillsAndWorkOrdersCard({ orderId }: { orderId: number }) {
  const { t } = useTranslation();
  const { menus } = useSession();
  const paths = new Set(flattenPages(menus).map((p) => p.node.paths));
  const seesBills = paths.has('/bounceBill');
  const seesWorkOrders = paths.has('/workOrderList');
  const bills = useQuery({
    queryKey: [BILL_LIST_URL, { orderId }, ALL],
    queryFn: () => post<Page<BounceBillView>>(BILL_LIST_URL, { orderId, ...ALL }),
    enabled: seesBills,
  });
  const workOrders = useQuery({
    queryKey: [WORK_ORDER_LIST_URL, { orderId }, ALL],
    queryFn: () => post<Page<WorkOrderView>>(WORK_ORDER_LIST_URL, { orderId, ...ALL }),
    enabled: seesWorkOrders,
  });
  if (!seesBills && !seesWorkOrders) return null;
  const billRows = bills.data?.list ?? [];
  const workOrderRows = workOrders.data?.list ?? [];
  const loading = bills.isLoading || workOrders.isLoading;
  const time = (v: string | null) => (v ? dayjs(v).format('YYYY-MM-DD HH:mm') : '—');

  return (
    <Card
      title={t('order.billsAndWorkOrders')}
      size="small"
      loading={loading}
      data-testid="order-after-shipping"
    >
      {billRows.length === 0 && workOrderRows.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('order.billsAndWorkOrdersEmpty')} />
      ) : (
        <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
          {billRows.length > 0 ? (
            <Table<BounceBillView>
              size="small"
              rowKey="id"
              pagination={false}
              dataSource={billRows}
              data-testid="order-bills"
              columns={[
                { title: t('bounceBills.billNo'), dataIndex: 'billNo' },
                { title: t('bounceBills.type'), dataIndex: 'type', render: (v) => t(`bounceBill.type.${v}`) },
                {
                  title: t('bounceBills.amount'),
                  dataIndex: 'amount',
                  align: 'right',
                  render: (v: string) => money(v),
                },
                {
                  title: t('common.status'),
                  dataIndex: 'status',
                  render: (v) => <BillStatusTag status={v} />,
                },
                { title: t('common.createdAt'), dataIndex: 'createdAt', render: time },
              ]}
            />
          ) : null}
          {workOrderRows.length > 0 ? (
            <Table<WorkOrderView>
              size="small"
              rowKey="id"
              pagination={false}
              dataSource={workOrderRows}
              data-testid="order-work-orders"
              columns={[
                {
                  title: t('workOrders.workOrderNo'),
                  dataIndex: 'workOrderNo',
                  render: (v: string) => <Link to={workOrderPath(v)}>{v}</Link>,
                },
                {
                  title: t('workOrders.category'),
                  dataIndex: 'category',
                  render: (v) => t(`workOrder.category.${v}`),
                },
                {
                  title: t('workOrders.consumptionType'),
                  render: (_, w) =>
                    w.consumptionType === 'none'
                      ? '—'
                      : `${t(`workOrder.consumption.${w.consumptionType}`)} ${money(w.resultAmount)}`,
                },
                {
                  title: t('common.status'),
                  dataIndex: 'status',
                  render: (v) => <WorkOrderStatusTag status={v} />,
                },
                { title: t('workOrders.processedAt'), dataIndex: 'processedAt', render: time },
              ]}
            />
          ) : null}
        </Space>
      )}
    </Card>
  );
}
