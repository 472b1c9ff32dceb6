import type { BusinessLine } from '@freight/contracts/accounts';
import {
  WORK_ORDER_CATEGORIES,
  WORK_ORDER_STATUSES,
  type WorkOrderCategory,
  type WorkOrderStatus,
} from '@freight/contracts/work-orders';
import { Button, DatePicker, Empty, Form, Input, Select, Space, Table, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { FilterBar, periodDays, useServerList } from '../../components/list.tsx';
import { FileLinks } from '../../components/ProofFiles.tsx';
import { useSession } from '../../context/session.tsx';
import { download } from '../../lib/http.ts';
import { money } from '../../lib/money.ts';
import { waybillListPath } from '../express-waybills/api.ts';
import { orderInfoPath } from '../truck-orders/api.ts';
import { WORK_ORDER_LIST_URL, type WorkOrderView, workOrderPath } from './api.ts';
import { WorkOrderDialog, WorkOrderStatusTag } from './public.tsx';

// `workOrderCategory`, not `category`: the new-work-order dialog's field is `category`, and field
// names are the inputs' ids.
interface Filters {
  keyword?: string;
  status?: WorkOrderStatus;
  workOrderCategory?: WorkOrderCategory;
  period?: [Dayjs, Dayjs];
}

const time = (value: string | null) => (value ? dayjs(value).format('YYYY-MM-DD HH:mm') : '—');

/**
 * Customers' claims on their orders (damage, loss, delay, bill disputes...), one line's at a time:
 * truck `/workOrderList`, express `/expressWorkOrderList` (on waybills). A customer opens one here or
 * from the order; staff take it up, resolve it (moving money or not) or reject it on its own page.
 */
export function WorkOrdersPage({ line }: { line: BusinessLine }) {
  const { t } = useTranslation();
  // The express pages word some strings their own way (`<key>.express`).
  const tl = (key: string) => t(line === 'express' ? `${key}.express` : key);
  const navigate = useNavigate();
  const { userInfo } = useSession();
  // Only the customers' side opens work orders; staff answer them.
  const staff = userInfo?.identity === 'employee';
  const [filterForm] = Form.useForm<Filters>();
  const [filters, setFilters] = useState<Record<string, unknown>>({ line });
  const list = useServerList<WorkOrderView>(WORK_ORDER_LIST_URL, filters);
  const [opening, setOpening] = useState(false);

  return (
    <div className="page-card">
      <FilterBar<Filters>
        form={filterForm}
        onSearch={(v) => {
          setFilters({
            line,
            keyword: v.keyword?.trim() || undefined,
            status: v.status,
            category: v.workOrderCategory,
            ...periodDays(v.period),
          });
          list.resetPage();
        }}
        extra={
          <Space>
            {!staff ? (
              <Button type="primary" onClick={() => setOpening(true)} data-testid="wo-add">
                {t('workOrders.add')}
              </Button>
            ) : null}
            <Button
              onClick={() =>
                void download(
                  '/admin/workOrder/export',
                  filters,
                  line === 'express' ? 'express-work-orders.xlsx' : 'work-orders.xlsx',
                )
              }
              data-testid="wo-export"
            >
              {t('common.export')}
            </Button>
          </Space>
        }
      >
        <Form.Item name="keyword" label={t('common.keyword')}>
          <Input
            allowClear
            placeholder={tl('workOrders.keywordTip')}
            style={{ width: 240 }}
            data-testid="wo-keyword"
          />
        </Form.Item>
        <Form.Item name="status" label={t('common.status')}>
          <Select
            allowClear
            style={{ width: 120 }}
            options={WORK_ORDER_STATUSES.map((s) => ({ value: s, label: t(`workOrder.status.${s}`) }))}
            data-testid="wo-filter-status"
          />
        </Form.Item>
        <Form.Item name="workOrderCategory" label={t('workOrders.category')}>
          <Select
            allowClear
            style={{ width: 140 }}
            options={WORK_ORDER_CATEGORIES.map((c) => ({ value: c, label: t(`workOrder.category.${c}`) }))}
            data-testid="wo-filter-category"
          />
        </Form.Item>
        <Form.Item name="period" label={t('common.createdAt')}>
          <DatePicker.RangePicker />
        </Form.Item>
      </FilterBar>
      <Table<WorkOrderView>
        rowKey="id"
        loading={list.loading}
        dataSource={list.rows}
        pagination={list.pagination}
        scroll={{ x: 'max-content' }}
        className="nowrap-table"
        locale={{
          emptyText: (
            <Empty
              image={Empty.PRESENTED_IMAGE_SIMPLE}
              description={staff ? t('workOrders.emptyStaff') : tl('workOrders.emptyCustomer')}
            />
          ),
        }}
        columns={[
          {
            title: t('workOrders.workOrderNo'),
            dataIndex: 'workOrderNo',
            fixed: 'left',
            render: (v: string) => (
              <Typography.Link onClick={() => navigate(workOrderPath(v, line))} data-testid={`wo-${v}`}>
                {v}
              </Typography.Link>
            ),
          },
          {
            title: tl('workOrders.orderNo'),
            dataIndex: 'orderNo',
            render: (v: string, r) => (
              <Typography.Link
                onClick={() => navigate(line === 'express' ? waybillListPath(v) : orderInfoPath(r.orderId))}
              >
                {v}
              </Typography.Link>
            ),
          },
          { title: t('workOrders.customer'), dataIndex: 'organisationName' },
          {
            title: t('workOrders.transactionItem'),
            render: (_, r) => t(`workOrder.item.${r.transactionItem}`),
          },
          { title: t('workOrders.category'), render: (_, r) => t(`workOrder.category.${r.category}`) },
          {
            title: t('common.status'),
            render: (_, r) => <WorkOrderStatusTag status={r.status} testId={`wo-status-${r.id}`} />,
          },
          { title: t('workOrders.processedAt'), render: (_, r) => time(r.processedAt) },
          {
            title: t('workOrders.consumptionType'),
            // Nothing has been decided while it is open, so "no money" would say too much.
            render: (_, r) => (r.processedAt ? t(`workOrder.consumption.${r.consumptionType}`) : '—'),
          },
          {
            title: t('workOrders.transactionAmount'),
            dataIndex: 'amount',
            align: 'right',
            render: (v: string) => money(v),
          },
          { title: t('workOrders.proofFiles'), render: (_, r) => <FileLinks urls={r.proofUrls} /> },
          { title: t('workOrders.operator'), render: (_, r) => r.operator || '—' },
          {
            title: t('workOrders.resultAmount'),
            align: 'right',
            render: (_, r) => (r.consumptionType === 'none' ? '—' : money(r.resultAmount)),
          },
          { title: t('common.createdAt'), render: (_, r) => time(r.createdAt) },
          {
            title: t('common.actions'),
            fixed: 'right',
            render: (_, r) => {
              // Staff the server lets accept, resolve or reject it see it as theirs to handle.
              const handle = r.actions.some((a) => a !== 'withdraw');
              return (
                <Button
                  size="small"
                  type={handle ? 'primary' : 'default'}
                  onClick={() => navigate(workOrderPath(r.workOrderNo, line))}
                  data-testid={`wo-view-${r.id}`}
                >
                  {handle ? t('workOrders.handle') : t('workOrders.view')}
                </Button>
              );
            },
          },
        ]}
      />
      {opening ? <WorkOrderDialog line={line} onClose={() => setOpening(false)} /> : null}
    </div>
  );
}
