import { ORDER_STATUSES, type OrderStatus, type OrderViewAction } from '@freight/contracts/truck-orders';
import { App, Button, DatePicker, Form, Input, Select, Space, Table, Tabs, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import dayjs from 'dayjs';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { Auth } from '../../components/Auth.tsx';
import { FilterBar, ListEmpty, periodDays, useServerList } from '../../components/list.tsx';
import { ReasonDialog } from '../../components/ReasonDialog.tsx';
import { useReportError } from '../../hooks/useReportError.ts';
import { download } from '../../lib/http.ts';
import { money, sumMoney } from '../../lib/money.ts';
import { ORDER_LIST_URL, type OrderListItem, truckOrderApi } from './api.ts';
import { OrderStatusTag } from './OrderStatusTag.tsx';

/** A money column's cell. */
const amount = (value: string | null) => money(value);

/** Actions the list applies to several selected orders at once. */
const BULK_ACTIONS: readonly OrderViewAction[] = ['pay', 'approve', 'reject'];

interface Filters {
  keyword?: string;
  mode?: 'LTL' | 'FTL';
  orderType?: 'regular' | 'return';
  period?: [Dayjs, Dayjs];
}

/** `/orderList`: every truck order the caller may see, by status, with filters, export and bulk review. */
export default function OrderListPage() {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const reportError = useReportError();
  const navigate = useNavigate();
  // A notice opens `/orderList?id=<order number>`: the list starts searched for that order.
  const [searchParams] = useSearchParams();
  const noticed = searchParams.get('id') ?? undefined;
  const [filterForm] = Form.useForm<Filters>();
  const [filters, setFilters] = useState<Record<string, unknown>>({ keyword: noticed });
  useEffect(() => {
    if (!noticed) return;
    filterForm.setFieldsValue({ keyword: noticed });
    setFilters({ keyword: noticed });
  }, [noticed, filterForm]);
  const [status, setStatus] = useState<OrderStatus | 'all'>('all');
  const query = { ...filters, status: status === 'all' ? undefined : status };
  const list = useServerList<OrderListItem>(ORDER_LIST_URL, query);
  // Counts come with the first page; later pages keep the ones already shown.
  const lastCounts = useRef<Record<string, number>>({});
  if (list.extra?.counts) lastCounts.current = list.extra.counts as Record<string, number>;
  const counts = lastCounts.current;
  const [selected, setSelected] = useState<number[]>([]);
  const [rejecting, setRejecting] = useState(false);

  const payAll = async () => {
    try {
      const { results } = await truckOrderApi.bulkPay(selected);
      const failed = Object.values(results).filter((r) => r !== 'success');
      const summary = t('order.bulkDone', { ok: selected.length - failed.length, failed: failed.length });
      if (failed.length > 0) message.warning(`${summary}: ${[...new Set(failed)].join('; ')}`);
      else message.success(summary);
      setSelected([]);
      void list.refetch();
    } catch (error) {
      reportError(error);
    }
  };
  const selectedRows = list.rows.filter((o) => selected.includes(o.id));
  // A bulk button shows when the server offers its action on every selected order.
  const allOffer = (action: OrderViewAction) =>
    selectedRows.length > 0 && selectedRows.every((o) => o.actions.includes(action));

  const review = async (action: 'approve' | 'reject', reason = '') => {
    try {
      const { results } = await truckOrderApi.bulkReview(selected, action, reason);
      const failed = Object.values(results).filter((r) => r !== 'success');
      const summary = t('order.bulkDone', { ok: selected.length - failed.length, failed: failed.length });
      if (failed.length > 0) message.warning(`${summary}: ${[...new Set(failed)].join('; ')}`);
      else message.success(summary);
      setSelected([]);
      setRejecting(false);
      void list.refetch();
    } catch (error) {
      reportError(error);
    }
  };

  // Counts stop at the server's cap: beyond it a tab says "10000+".
  const cap = (list.extra?.countCap as number | undefined) ?? Number.POSITIVE_INFINITY;
  const shown = (n: number) => (n > cap ? `${cap}+` : String(n));
  const all = Object.values(counts).reduce((s, n) => s + Math.min(n, cap), 0);
  const allShown = Object.values(counts).some((n) => n > cap) ? `${all}+` : String(all);
  return (
    <>
      <FilterBar<Filters>
        form={filterForm}
        onSearch={(v) => {
          setFilters({
            keyword: v.keyword || undefined,
            mode: v.mode,
            orderType: v.orderType,
            ...periodDays(v.period),
          });
          list.resetPage();
        }}
        extra={
          <Auth code="order:export">
            <Button
              onClick={() => void download('/admin/order/export', query, 'truck-orders.xlsx')}
              data-testid="order-export"
            >
              {t('common.export')}
            </Button>
          </Auth>
        }
      >
        <Form.Item name="keyword" label={t('common.keyword')}>
          <Input
            allowClear
            placeholder={t('order.keywordTip')}
            style={{ width: 260 }}
            data-testid="order-keyword"
          />
        </Form.Item>
        <Form.Item name="mode" label={t('quote.mode')}>
          <Select
            allowClear
            style={{ width: 100 }}
            options={['LTL', 'FTL'].map((m) => ({ value: m, label: m }))}
          />
        </Form.Item>
        <Form.Item name="orderType" label={t('order.orderType')}>
          <Select
            allowClear
            style={{ width: 120 }}
            options={(['regular', 'return'] as const).map((v) => ({
              value: v,
              label: t(`order.orderType.${v}`),
            }))}
          />
        </Form.Item>
        <Form.Item name="period" label={t('order.bookedAt')}>
          <DatePicker.RangePicker />
        </Form.Item>
      </FilterBar>
      <Tabs
        activeKey={status}
        onChange={(key) => {
          setStatus(key as OrderStatus | 'all');
          setSelected([]);
          list.resetPage();
        }}
        items={[
          { key: 'all', label: `${t('order.all')} ${status === 'all' ? allShown : ''}`.trim() },
          ...ORDER_STATUSES.map((s) => ({
            key: s,
            label: `${t(`orderStatus.${s}`)}${counts[s] ? ` ${shown(counts[s])}` : ''}`,
          })),
        ]}
        data-testid="order-status-tabs"
      />
      {selected.length > 0 ? (
        <Space style={{ marginBottom: 12 }}>
          <Typography.Text>{t('order.selected', { count: selected.length })}</Typography.Text>
          {allOffer('pay') ? (
            <Button
              type="primary"
              onClick={() =>
                modal.confirm({
                  title: t('order.paySelected'),
                  content: t('order.payConfirm', {
                    amount: sumMoney(selectedRows.map((o) => o.total)),
                  }),
                  onOk: payAll,
                })
              }
              data-testid="bulk-pay"
            >
              {t('order.paySelected')}
            </Button>
          ) : null}
          {allOffer('approve') ? (
            <Button type="primary" onClick={() => void review('approve')} data-testid="bulk-approve">
              {t('order.approveSelected')}
            </Button>
          ) : null}
          {allOffer('reject') ? (
            <Button danger onClick={() => setRejecting(true)}>
              {t('order.rejectSelected')}
            </Button>
          ) : null}
        </Space>
      ) : null}
      <Table<OrderListItem>
        rowKey="id"
        loading={list.loading}
        dataSource={list.rows}
        pagination={list.pagination}
        scroll={{ x: 'max-content' }}
        className="nowrap-table"
        locale={{
          emptyText: <ListEmpty text={t('order.empty')} to="/mail" label={t('order.emptyAction')} />,
        }}
        rowSelection={{
          selectedRowKeys: selected,
          onChange: (keys) => setSelected(keys as number[]),
          // Orders the user may pay, or review, can be handled together.
          getCheckboxProps: (o) => ({
            disabled: !BULK_ACTIONS.some((action) => o.actions.includes(action)),
          }),
        }}
        columns={[
          {
            title: t('orderField.orderNo'),
            dataIndex: 'orderNo',
            width: 190,
            fixed: 'left',
            render: (v: string, o) => (
              <Typography.Link onClick={() => navigate(`/orderInfo?id=${o.id}`)} data-testid={`order-${v}`}>
                {v}
              </Typography.Link>
            ),
          },
          { title: t('orderField.customerOrderNo'), dataIndex: 'customerOrderNo', width: 150 },
          { title: t('orderField.queryCode'), dataIndex: 'queryCode', width: 120 },
          {
            title: t('orderField.status'),
            dataIndex: 'status',
            render: (s: OrderStatus, o) => <OrderStatusTag status={s} carrierPending={o.carrierPending} />,
          },
          { title: t('orderField.mode'), dataIndex: 'mode', width: 80 },
          { title: t('orderField.carrier'), dataIndex: 'carrier', width: 160 },
          { title: t('orderField.origin'), dataIndex: 'origin', width: 210 },
          { title: t('orderField.destination'), dataIndex: 'destination', width: 210 },
          {
            title: t('order.transit'),
            render: (_, o) => t('order.days', { min: o.transitDaysMin, max: o.transitDaysMax }),
          },
          { title: t('orderField.total'), dataIndex: 'total', align: 'right', render: amount },
          { title: t('order.paidAmount'), dataIndex: 'paid', align: 'right', render: amount },
          ...(list.rows.some((o) => o.branchPrice !== null)
            ? [
                {
                  title: t('orderField.branchPrice'),
                  dataIndex: 'branchPrice',
                  align: 'right' as const,
                  render: amount,
                },
              ]
            : []),
          ...(list.rows.some((o) => o.agentPrice !== null)
            ? [
                {
                  title: t('orderField.agentPrice'),
                  dataIndex: 'agentPrice',
                  align: 'right' as const,
                  render: amount,
                },
              ]
            : []),
          ...(list.rows.some((o) => o.costPrice !== null)
            ? [
                {
                  title: t('orderField.costPrice'),
                  dataIndex: 'costPrice',
                  align: 'right' as const,
                  render: amount,
                },
              ]
            : []),
          {
            title: t('orderField.createdAt'),
            dataIndex: 'createdAt',
            render: (v: string) => dayjs(v).format('YYYY-MM-DD HH:mm'),
          },
          {
            title: t('common.actions'),
            fixed: 'right',
            render: (_, o) => (
              <Space>
                <Button size="small" onClick={() => navigate(`/orderInfo?id=${o.id}`)}>
                  {t('quote.view')}
                </Button>
                {o.actions.includes('pay') ? (
                  <Button size="small" type="primary" onClick={() => navigate(`/addAddress?id=${o.id}`)}>
                    {t('order.pay')}
                  </Button>
                ) : null}
              </Space>
            ),
          },
        ]}
      />
      {rejecting ? (
        <ReasonDialog
          title={t('order.rejectSelected')}
          label={t('order.reason')}
          testId="orders-reject"
          onCancel={() => setRejecting(false)}
          onSubmit={(reason) => review('reject', reason)}
        />
      ) : null}
    </>
  );
}
