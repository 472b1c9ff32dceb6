import type { BusinessLine } from '@freight/contracts/accounts';
import {
  BILL_SAVE_KEY,
  BILL_TYPES_OF_LINE,
  BOUNCE_BILL_STATUSES,
  type BounceBillStatus,
  type BounceBillType,
} from '@freight/contracts/bounce-bills';
import { App, Button, DatePicker, Empty, Form, Input, Select, Space, Table, Tooltip, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Auth } from '../../components/Auth.tsx';
import { FilterBar, periodDays, useServerList } from '../../components/list.tsx';
import { FileLinks } from '../../components/ProofFiles.tsx';
import { ReasonDialog } from '../../components/ReasonDialog.tsx';
import { usePageQuery } from '../../context/page-context.tsx';
import { useSession } from '../../context/session.tsx';
import { useReportError } from '../../hooks/useReportError.ts';
import { download } from '../../lib/http.ts';
import { money } from '../../lib/money.ts';
import { waybillListPath } from '../express-waybills/api.ts';
import { orderInfoPath } from '../truck-orders/api.ts';
import { workOrderPath } from '../work-orders/api.ts';
import { WorkOrderDialog } from '../work-orders/public.tsx';
import { BILL_LIST_URL, type BounceBillView, bounceBillApi } from './api.ts';
import { BounceBillDialog } from './BounceBillDialog.tsx';
import { BillStatusTag } from './public.tsx';

// `billType`, not `type`: the add dialog's field is `type`, and field names are the inputs' ids.
interface Filters {
  keyword?: string;
  status?: BounceBillStatus;
  billType?: BounceBillType;
  period?: [Dayjs, Dayjs];
}

const time = (value: string | null) => (value ? dayjs(value).format('YYYY-MM-DD HH:mm') : '—');

/**
 * Charges found after the carrier took the goods, one line's at a time: truck `/bounceBill` (reweigh,
 * reclass, storage...), express `/abnormalBilling` and `/expressBounceBill` (reweigh, dimensions,
 * address correction). Staff raise them; the customer pays one that waited for funds, or disputes a
 * charged one with a work order. A notice opens `?sn=<bill number>`.
 */
export function BounceBillsPage({ line }: { line: BusinessLine }) {
  const { t } = useTranslation();
  // The express pages word some strings their own way (`<key>.express`).
  const tl = (key: string, params?: Record<string, string>) =>
    t(line === 'express' ? `${key}.express` : key, params);
  const { message, modal } = App.useApp();
  const reportError = useReportError();
  const navigate = useNavigate();
  const { userInfo } = useSession();
  const staff = userInfo?.identity === 'employee';
  const noticed = usePageQuery().get('sn')?.trim() || undefined;
  const [filterForm] = Form.useForm<Filters>();
  const [filters, setFilters] = useState<Record<string, unknown>>({ line, keyword: noticed });
  useEffect(() => {
    if (!noticed) return;
    filterForm.setFieldsValue({ keyword: noticed });
    setFilters({ line, keyword: noticed });
  }, [noticed, filterForm, line]);
  const list = useServerList<BounceBillView>(BILL_LIST_URL, filters);
  const [adding, setAdding] = useState(false);
  const [cancelling, setCancelling] = useState<BounceBillView | null>(null);
  const [disputing, setDisputing] = useState<BounceBillView | null>(null);

  const pay = (bill: BounceBillView) =>
    modal.confirm({
      title: tl('bounceBills.payTitle'),
      content: tl('bounceBills.payConfirm', { billNo: bill.billNo, amount: bill.amount }),
      okButtonProps: { 'data-testid': 'confirm-action' } as never,
      onOk: async () => {
        try {
          await bounceBillApi.pay(bill.id);
          message.success(t('bounceBill.paid'));
        } catch (error) {
          // Short funds come back as a 409 whose message says what is available.
          reportError(error);
        }
        void list.refetch();
      },
    });

  const cancel = async (reason: string) => {
    if (!cancelling) return;
    try {
      await bounceBillApi.cancel(cancelling.id, reason);
      message.success(t('bounceBill.cancelled'));
      setCancelling(null);
    } finally {
      // Someone may have paid it meanwhile (409): show where it stands now either way.
      void list.refetch();
    }
  };

  const onAction = (bill: BounceBillView, action: BounceBillView['actions'][number]) => {
    if (action === 'pay') pay(bill);
    else if (action === 'cancel') setCancelling(bill);
    else setDisputing(bill);
  };

  return (
    <div className="page-card">
      <FilterBar<Filters>
        form={filterForm}
        onSearch={(v) => {
          setFilters({
            line,
            keyword: v.keyword?.trim() || undefined,
            status: v.status,
            type: v.billType,
            ...periodDays(v.period),
          });
          list.resetPage();
        }}
        extra={
          <Space>
            <Auth code={BILL_SAVE_KEY[line]}>
              <Button type="primary" onClick={() => setAdding(true)} data-testid="bill-add">
                {tl('bounceBills.add')}
              </Button>
            </Auth>
            <Button
              onClick={() =>
                void download(
                  '/admin/bounceBill/export',
                  filters,
                  line === 'express' ? 'abnormal-billing.xlsx' : 'bounce-bills.xlsx',
                )
              }
              data-testid="bill-export"
            >
              {t('common.export')}
            </Button>
          </Space>
        }
      >
        <Form.Item name="keyword" label={t('common.keyword')}>
          <Input
            allowClear
            placeholder={tl('bounceBills.keywordTip')}
            style={{ width: 240 }}
            data-testid="bill-keyword"
          />
        </Form.Item>
        <Form.Item name="status" label={t('common.status')}>
          <Select
            allowClear
            style={{ width: 130 }}
            options={BOUNCE_BILL_STATUSES.map((s) => ({ value: s, label: t(`bounceBill.status.${s}`) }))}
            data-testid="bill-filter-status"
          />
        </Form.Item>
        <Form.Item name="billType" label={t('bounceBills.type')}>
          <Select
            allowClear
            style={{ width: 150 }}
            options={BILL_TYPES_OF_LINE[line].map((v) => ({ value: v, label: t(`bounceBill.type.${v}`) }))}
            data-testid="bill-filter-type"
          />
        </Form.Item>
        <Form.Item name="period" label={t('common.createdAt')}>
          <DatePicker.RangePicker />
        </Form.Item>
      </FilterBar>
      <Table<BounceBillView>
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
              description={staff ? t('bounceBills.emptyStaff') : tl('bounceBills.emptyCustomer')}
            />
          ),
        }}
        columns={[
          {
            title: t('bounceBills.billNo'),
            dataIndex: 'billNo',
            fixed: 'left',
            render: (v: string, r) => <span data-testid={`bill-no-${r.id}`}>{v}</span>,
          },
          {
            title: tl('bounceBills.orderNo'),
            dataIndex: 'orderNo',
            render: (v: string, r) => (
              <Typography.Link
                onClick={() => navigate(line === 'express' ? waybillListPath(v) : orderInfoPath(r.orderId))}
              >
                {v}
              </Typography.Link>
            ),
          },
          { title: t('bounceBills.customer'), dataIndex: 'organisationName' },
          { title: t('bounceBills.type'), render: (_, r) => t(`bounceBill.type.${r.type}`) },
          {
            title: t('bounceBills.amount'),
            dataIndex: 'amount',
            align: 'right',
            render: (v: string) => money(v),
          },
          {
            title: t('bounceBills.findings'),
            render: (_, r) => (r.declared || r.actual ? `${r.declared || '—'} → ${r.actual || '—'}` : '—'),
          },
          {
            title: t('bounceBills.description'),
            dataIndex: 'description',
            ellipsis: true,
            width: 240,
            render: (v: string) => (
              <Tooltip title={v} placement="topLeft">
                {v}
              </Tooltip>
            ),
          },
          {
            title: t('bounceBills.proof'),
            render: (_, r) => <FileLinks urls={r.proofUrl ? [r.proofUrl] : []} />,
          },
          {
            title: t('common.status'),
            render: (_, r) => (
              <Tooltip title={r.status === 'cancelled' ? r.cancelReason : undefined}>
                <span>
                  <BillStatusTag status={r.status} testId={`bill-status-${r.id}`} />
                </span>
              </Tooltip>
            ),
          },
          { title: t('bounceBills.chargedAt'), render: (_, r) => time(r.chargedAt) },
          { title: t('common.createdAt'), render: (_, r) => time(r.createdAt) },
          {
            title: t('bounceBills.workOrder'),
            render: (_, r) =>
              r.workOrderNo ? (
                <Typography.Link
                  onClick={() => navigate(workOrderPath(r.workOrderNo as string, line))}
                  data-testid={`bill-work-order-${r.id}`}
                >
                  {r.workOrderNo}
                </Typography.Link>
              ) : (
                '—'
              ),
          },
          {
            title: t('common.actions'),
            fixed: 'right',
            render: (_, r) => (
              <Space>
                {r.actions.map((action) => (
                  <Button
                    key={action}
                    size="small"
                    type={action === 'pay' ? 'primary' : 'default'}
                    danger={action === 'cancel'}
                    onClick={() => onAction(r, action)}
                    data-testid={`bill-${action}-${r.id}`}
                  >
                    {t(`bounceBills.action.${action}`)}
                  </Button>
                ))}
              </Space>
            ),
          },
        ]}
      />
      {adding ? <BounceBillDialog line={line} onClose={() => setAdding(false)} /> : null}
      {cancelling ? (
        <ReasonDialog
          title={tl('bounceBills.cancelTitle')}
          label={t('bounceBills.cancelReason')}
          field="reason"
          maxLength={500}
          summary={t('bounceBills.cancelConfirm', { billNo: cancelling.billNo, amount: cancelling.amount })}
          testId="bill-cancel"
          onCancel={() => setCancelling(null)}
          onSubmit={cancel}
        />
      ) : null}
      {disputing ? (
        <WorkOrderDialog
          line={line}
          prefill={{
            orderNo: disputing.orderNo,
            category: 'bill_dispute',
            transactionItem: 'surcharge',
            amount: disputing.amount,
            bill: { id: disputing.id, billNo: disputing.billNo },
          }}
          onClose={() => setDisputing(null)}
        />
      ) : null}
    </div>
  );
}
