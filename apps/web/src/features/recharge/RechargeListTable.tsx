import { REVIEW_ACTIONS, type RechargeAction } from '@freight/contracts/recharge';
import { useQueryClient } from '@tanstack/react-query';
import {
  App,
  Button,
  DatePicker,
  Descriptions,
  Drawer,
  Form,
  Input,
  Radio,
  Select,
  Space,
  Table,
  Tag,
  Timeline,
} from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AmountInput } from '../../components/AmountInput.tsx';
import {
  FilterBar,
  ListEmpty,
  listTableProps,
  periodInstants,
  useServerList,
} from '../../components/list.tsx';
import { PrivateImage } from '../../components/PrivateFile.tsx';
import { useSession, useWaitCounts } from '../../context/session.tsx';
import { ApiError, applyFieldErrors, download, post } from '../../lib/http.ts';
import { money } from '../../lib/money.ts';

export type Line = 'truck' | 'express';
export type RechargeStatus =
  | 'submitted'
  | 'awaiting_funds'
  | 'approved_received'
  | 'approved_pending'
  | 'rejected';

export interface RechargeRow {
  id: number;
  serial: string;
  organisationName: string;
  line: Line;
  amount: string;
  currency: string;
  method: string;
  payerName: string;
  payerCardNumber: string;
  screenshotUrl: string;
  note: string;
  status: RechargeStatus;
  /** The review steps this user may take now, as the server decides. */
  actions: RechargeAction[];
  creditedAmount: string | null;
  fee: string | null;
  reviewNote: string;
  reviewedAt: string | null;
  createdAt: string;
}

interface RechargeInfo extends RechargeRow {
  reviews: {
    auditor: string;
    time: string;
    action: string;
    result: RechargeStatus;
    amount: string | null;
    fee: string | null;
    note: string;
  }[];
}

const STATUS_COLOUR: Record<RechargeStatus, string> = {
  submitted: 'processing',
  awaiting_funds: 'warning',
  approved_received: 'success',
  approved_pending: 'cyan',
  rejected: 'error',
};

export function StatusTag({ status }: { status: RechargeStatus }) {
  const { t } = useTranslation();
  return <Tag color={STATUS_COLOUR[status]}>{t(`recharge.status.${status}`)}</Tag>;
}

interface Filters {
  status?: RechargeStatus;
  keyword?: string;
  period?: [Dayjs, Dayjs];
}

/**
 * The recharge list of one line: the customer's own, or, for staff, everybody's with the review drawer
 * (details, screenshot, audit record, and the outcomes the server offers this reviewer).
 */
export function RechargeListTable({ line, defaultStatus }: { line: Line; defaultStatus?: RechargeStatus }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const { userInfo } = useSession();
  const waitCounts = useWaitCounts();
  const [filterForm] = Form.useForm<Filters>();
  const [filters, setFilters] = useState<Record<string, unknown>>({ line, status: defaultStatus });
  const list = useServerList<RechargeRow>('/admin/recharge/list', filters);
  const [open, setOpen] = useState<RechargeInfo | null>(null);
  const [form] = Form.useForm();
  const [busy, setBusy] = useState(false);

  const show = async (row: RechargeRow) => {
    form.resetFields();
    form.setFieldsValue({ action: 'approve_received', creditedAmount: row.amount, fee: '0' });
    setOpen(await post<RechargeInfo>('/admin/recharge/info', { id: row.id }));
  };

  const afterChange = async () => {
    setOpen(null);
    void list.refetch();
    // The menu badges count what is waiting for review: update them now, not at the next poll.
    waitCounts.refresh();
    await queryClient.invalidateQueries();
  };

  const review = async () => {
    if (!open) return;
    const values = await form.validateFields();
    setBusy(true);
    try {
      await post('/admin/recharge/review', { id: open.id, ...values });
      message.success(t('common.saved'));
      await afterChange();
    } catch (error) {
      if (!applyFieldErrors(error, form.setFields) && error instanceof ApiError) message.error(error.message);
    } finally {
      setBusy(false);
    }
  };

  const settle = async () => {
    if (!open) return;
    try {
      await post('/admin/recharge/settle', { id: open.id });
      message.success(t('common.saved'));
      await afterChange();
    } catch (error) {
      if (error instanceof ApiError) message.error(error.message);
    }
  };

  const action = Form.useWatch('action', form);
  const reviewSteps = open ? REVIEW_ACTIONS.filter((a) => open.actions.includes(a)) : [];

  return (
    <>
      <FilterBar<Filters>
        form={filterForm}
        onSearch={(v) => {
          setFilters({
            line,
            status: v.status,
            keyword: v.keyword || undefined,
            ...periodInstants(v.period),
          });
          list.resetPage();
        }}
        extra={
          <Button onClick={() => void download('/admin/recharge/export', filters, 'recharges.xlsx')}>
            {t('common.export')}
          </Button>
        }
      >
        <Form.Item name="keyword" label={t('common.keyword')}>
          <Input
            allowClear
            style={{ width: 270 }}
            // Anyone above a single customer may look a customer up by its name or e-mail too.
            placeholder={t(
              userInfo?.identity === 'customer' ? 'recharge.keywordTip' : 'recharge.keywordTipStaff',
            )}
            data-testid="recharge-keyword"
          />
        </Form.Item>
        <Form.Item name="status" label={t('common.status')} initialValue={defaultStatus}>
          <Select
            allowClear
            style={{ width: 180 }}
            options={(
              ['submitted', 'awaiting_funds', 'approved_received', 'approved_pending', 'rejected'] as const
            ).map((s) => ({
              value: s,
              label: t(`recharge.status.${s}`),
            }))}
          />
        </Form.Item>
        <Form.Item name="period" label={t('oplog.period')}>
          <DatePicker.RangePicker />
        </Form.Item>
      </FilterBar>
      <Table<RechargeRow>
        rowKey="id"
        loading={list.loading}
        dataSource={list.rows}
        pagination={list.pagination}
        {...listTableProps(1100)}
        locale={{
          emptyText: (
            <ListEmpty
              text={defaultStatus ? t('recharge.emptyReview') : t('recharge.emptyManagement')}
              // Reviewers wait for customers; a list of one's own recharges offers to make one.
              to={defaultStatus ? undefined : line === 'express' ? '/expressrecharge' : '/recharge'}
              label={t('recharge.emptyAction')}
            />
          ),
        }}
        columns={[
          { title: t('recharge.serial'), dataIndex: 'serial', width: 200 },
          { title: t('customers.name'), dataIndex: 'organisationName' },
          {
            title: t('recharge.amount'),
            align: 'right',
            render: (_, r) => `${money(r.amount)} ${r.currency}`,
          },
          { title: t('recharge.credited'), align: 'right', render: (_, r) => money(r.creditedAmount) },
          { title: t('recharge.fee'), align: 'right', render: (_, r) => money(r.fee) },
          { title: t('recharge.method'), render: (_, r) => t(`recharge.method.${r.method}`) },
          { title: t('common.status'), render: (_, r) => <StatusTag status={r.status} /> },
          {
            title: t('recharge.submittedAt'),
            render: (_, r) => dayjs(r.createdAt).format('YYYY-MM-DD HH:mm'),
          },
          {
            title: t('common.actions'),
            fixed: 'right',
            render: (_, r) => (
              <Button
                type="link"
                size="small"
                onClick={() => void show(r)}
                data-testid={`recharge-open-${r.serial}`}
              >
                {REVIEW_ACTIONS.some((a) => r.actions.includes(a)) ? t('recharge.review') : t('shell.view')}
              </Button>
            ),
          },
        ]}
      />
      <Drawer
        open={open !== null}
        size={620}
        title={open ? `${t('recharge.serial')} ${open.serial}` : ''}
        onClose={() => setOpen(null)}
        extra={
          open?.actions.includes('settle') ? (
            <Button onClick={() => void settle()}>{t('recharge.settle')}</Button>
          ) : null
        }
      >
        {open ? (
          <Space orientation="vertical" size="large" style={{ width: '100%' }}>
            <Descriptions column={2} size="small" bordered>
              <Descriptions.Item label={t('customers.name')} span={2}>
                {open.organisationName}
              </Descriptions.Item>
              <Descriptions.Item
                label={t('recharge.amount')}
              >{`${money(open.amount)} ${open.currency}`}</Descriptions.Item>
              <Descriptions.Item label={t('common.status')}>
                <StatusTag status={open.status} />
              </Descriptions.Item>
              <Descriptions.Item label={t('recharge.payerName')}>{open.payerName}</Descriptions.Item>
              <Descriptions.Item label={t('recharge.payerCard')}>{open.payerCardNumber}</Descriptions.Item>
              <Descriptions.Item label={t('recharge.method')}>
                {t(`recharge.method.${open.method}`)}
              </Descriptions.Item>
              <Descriptions.Item label={t('recharge.submittedAt')}>
                {dayjs(open.createdAt).format('YYYY-MM-DD HH:mm')}
              </Descriptions.Item>
              <Descriptions.Item label={t('recharge.note')} span={2}>
                {open.note || '-'}
              </Descriptions.Item>
              <Descriptions.Item label={t('recharge.screenshot')} span={2}>
                <PrivateImage url={open.screenshotUrl} width={160} testId="recharge-screenshot-view" />
              </Descriptions.Item>
            </Descriptions>
            {open.reviews.length > 0 ? (
              <Timeline
                items={open.reviews.map((r) => ({
                  content: (
                    <div>
                      <StatusTag status={r.result} /> {r.auditor} · {dayjs(r.time).format('YYYY-MM-DD HH:mm')}
                      {r.amount ? ` · ${t('recharge.credited')} ${money(r.amount)}` : ''}
                      {r.fee ? ` · ${t('recharge.fee')} ${money(r.fee)}` : ''}
                      {r.note ? <div style={{ color: '#888' }}>{r.note}</div> : null}
                    </div>
                  ),
                }))}
              />
            ) : null}
            {reviewSteps.length > 0 ? (
              <Form form={form} layout="vertical">
                <Form.Item name="action" label={t('recharge.outcome')}>
                  <Radio.Group
                    optionType="button"
                    options={reviewSteps.map((a) => ({ value: a, label: t(`recharge.action.${a}`) }))}
                  />
                </Form.Item>
                {action === 'approve_received' || action === 'approve_pending' ? (
                  <Space>
                    <Form.Item
                      name="creditedAmount"
                      label={t('recharge.credited')}
                      rules={[{ required: true }]}
                    >
                      <AmountInput />
                    </Form.Item>
                    <Form.Item name="fee" label={t('recharge.fee')}>
                      <AmountInput />
                    </Form.Item>
                  </Space>
                ) : null}
                <Form.Item
                  name="note"
                  label={t('recharge.reviewNote')}
                  rules={
                    action === 'reject' ? [{ required: true, message: t('recharge.rejectNeedsNote') }] : []
                  }
                >
                  <Input.TextArea rows={2} maxLength={200} />
                </Form.Item>
                <Button
                  type="primary"
                  loading={busy}
                  onClick={() => void review()}
                  data-testid="recharge-review-submit"
                >
                  {t('recharge.submitReview')}
                </Button>
              </Form>
            ) : null}
          </Space>
        ) : null}
      </Drawer>
    </>
  );
}
