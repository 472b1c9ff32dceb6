import {
  WAYBILL_STATUSES,
  type WaybillAction,
  type WaybillStatus,
} from '@freight/contracts/express-waybills';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, DatePicker, Dropdown, Empty, Form, Input, Space, Table, Tabs, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import dayjs from 'dayjs';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { Auth } from '../../components/Auth.tsx';
import { FilterBar, listTableProps, periodDays, useServerList } from '../../components/list.tsx';
import { ReasonDialog } from '../../components/ReasonDialog.tsx';
import { usePageQuery } from '../../context/page-context.tsx';
import { useReportError } from '../../hooks/useReportError.ts';
import { money, sumMoney } from '../../lib/money.ts';
import {
  LABEL_POLL_MS,
  WAYBILL_LIST_URL,
  type WaybillTransition,
  type WaybillView,
  waybillApi,
  waybillPaymentPath,
} from './api.ts';
import { type PrintChoice, PrintLabelsButton } from './PrintLabelsButton.tsx';
import { WAYBILL_DETAIL_KEY, WaybillDrawer } from './WaybillDrawer.tsx';
import { WaybillStatusTag } from './WaybillStatusTag.tsx';

interface Filters {
  keyword?: string;
  period?: [Dayjs, Dayjs];
}

/** The row menu's item for a label in ZPL, which is a way to print rather than a move of its own. */
const ZPL_KEY = 'print-zpl';
const CUSTOMS_KEY = 'print-customs';

/** Moves that need a note written down; the others ask for a confirmation only. */
const NOTED: readonly WaybillAction[] = ['cancel', 'exception', 'freeze', 'release'];

/**
 * `/expressOrderList`: every waybill the caller may see, by status with counts, searchable by number;
 * pay and print labels one by one or for the selected ones, void unshipped waybills with a refund,
 * and (staff) record where a parcel is. A notice opens `?sn=<waybill number>`.
 */
export default function WaybillListPage() {
  return <WaybillList />;
}

/**
 * The waybill list: every waybill, or (`/expressReturnsList`) the return waybills only, each showing the
 * waybill it returns; `extra` adds the page's own buttons beside the filters.
 */
export function WaybillList({ type, extra }: { type?: 'return'; extra?: ReactNode }) {
  const { t, i18n } = useTranslation();
  const en = i18n.language === 'en-US';
  const { message, modal } = App.useApp();
  const reportError = useReportError();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const noticed = searchParams.get('sn') ?? undefined;
  const [filterForm] = Form.useForm<Filters>();
  const [filters, setFilters] = useState<Record<string, unknown>>({ keyword: noticed });
  useEffect(() => {
    if (!noticed) return;
    filterForm.setFieldsValue({ keyword: noticed });
    setFilters({ keyword: noticed });
  }, [noticed, filterForm]);
  // `?status=<status>` (the dashboards' counts) opens that status's tab, also when the tab was open.
  const askedStatus = usePageQuery().get('status');
  const asked = WAYBILL_STATUSES.find((s) => s === askedStatus);
  const [status, setStatus] = useState<WaybillStatus | 'all'>(asked ?? 'all');
  useEffect(() => {
    if (asked) setStatus(asked);
  }, [asked]);
  const list = useServerList<WaybillView>(WAYBILL_LIST_URL, {
    ...filters,
    type,
    status: status === 'all' ? undefined : status,
  });
  // A carrier's label comes within seconds of paying: the list looks again until none waits for one.
  const waitingForLabel = list.rows.some((w) => w.status === 'label_pending');
  const refetchList = list.refetch;
  useEffect(() => {
    if (!waitingForLabel) return;
    const timer = setInterval(() => void refetchList(), LABEL_POLL_MS);
    return () => clearInterval(timer);
  }, [waitingForLabel, refetchList]);
  const exportKey = type === 'return' ? 'express-return:export' : 'express-order:export';
  // Counts come with every unfiltered page; a status tab keeps the ones already shown.
  const lastCounts = useRef<Record<string, number>>({});
  if (list.extra?.counts) lastCounts.current = list.extra.counts as Record<string, number>;
  const counts = lastCounts.current;
  const [selected, setSelected] = useState<number[]>([]);
  const [open, setOpen] = useState<number | null>(null);
  const [noting, setNoting] = useState<{ waybill: WaybillView; action: WaybillAction } | null>(null);

  const queryClient = useQueryClient();
  const changed = () => {
    setSelected([]);
    void list.refetch();
    void queryClient.invalidateQueries({ queryKey: [WAYBILL_DETAIL_KEY] });
  };
  const selectedRows = list.rows.filter((w) => selected.includes(w.id));
  const allOffer = (action: WaybillAction) =>
    selectedRows.length > 0 && selectedRows.every((w) => w.actions.includes(action));
  // The papers of the chosen parcels that cross a border; the others have none.
  const withPapers = selectedRows.filter((w) => w.customsPapers).map((w) => w.id);

  const run = async (work: () => Promise<unknown>, done?: string) => {
    try {
      await work();
      if (done) message.success(done);
      changed();
    } catch (error) {
      reportError(error);
    }
  };

  const payAll = () =>
    modal.confirm({
      title: t('waybill.bulkPay'),
      content: t('waybill.payConfirm', { amount: money(sumMoney(selectedRows.map((w) => w.total)), '$') }),
      onOk: () =>
        run(async () => {
          const { results } = await waybillApi.bulkPay(selected);
          const failed = Object.values(results).filter((r) => r !== 'success');
          const summary = t('waybill.bulkDone', {
            ok: selected.length - failed.length,
            failed: failed.length,
          });
          if (failed.length > 0) message.warning(`${summary}: ${[...new Set(failed)].join('; ')}`);
          else message.success(summary);
        }),
    });

  /** One waybill's move: pay and print have their own calls; refund and noted moves ask for a reason. */
  const act = (w: WaybillView, action: WaybillAction, choice: PrintChoice = 'pdf') => {
    if (action === 'print')
      return void run(() =>
        choice === 'customs' ? waybillApi.customsPapers([w.id]) : waybillApi.print([w.id], choice),
      );
    if (action === 'pay') return navigate(waybillPaymentPath(w.id));
    if (action === 'refund' || NOTED.includes(action)) return setNoting({ waybill: w, action });
    modal.confirm({
      title: t(`waybillAction.${action}`),
      content: t('waybill.confirmAction', { action: t(`waybillAction.${action}`), waybillNo: w.waybillNo }),
      okButtonProps: { 'data-testid': 'waybill-action-ok' } as never,
      onOk: () => run(() => waybillApi.transition(w.id, action as WaybillTransition), t('common.saved')),
    });
  };

  const all = Object.values(counts).reduce((s, n) => s + n, 0);
  return (
    <div className="page-card">
      <FilterBar<Filters>
        form={filterForm}
        onSearch={(v) => {
          setFilters({ keyword: v.keyword || undefined, ...periodDays(v.period) });
          list.resetPage();
        }}
        extra={
          <Space wrap>
            {extra}
            <Auth code={exportKey}>
              <Button
                onClick={() =>
                  void run(() =>
                    waybillApi.export({ ...filters, type, status: status === 'all' ? undefined : status }),
                  )
                }
                data-testid="waybill-export"
              >
                {t('common.export')}
              </Button>
            </Auth>
          </Space>
        }
      >
        <Form.Item name="keyword" label={t('common.keyword')}>
          <Input
            allowClear
            placeholder={t('waybill.keywordTip')}
            style={{ width: 260 }}
            data-testid="waybill-keyword"
          />
        </Form.Item>
        <Form.Item name="period" label={t('waybill.createdAt')}>
          <DatePicker.RangePicker />
        </Form.Item>
      </FilterBar>
      <Tabs
        activeKey={status}
        onChange={(key) => {
          setStatus(key as WaybillStatus | 'all');
          setSelected([]);
          list.resetPage();
        }}
        items={[
          { key: 'all', label: `${t('waybill.all')} ${all || ''}`.trim() },
          ...WAYBILL_STATUSES.map((s) => ({
            key: s,
            label: `${t(`waybillStatus.${s}`)}${counts[s] ? ` ${counts[s]}` : ''}`,
          })),
        ]}
        data-testid="waybill-status-tabs"
      />
      {selected.length > 0 ? (
        <Space style={{ marginBottom: 12 }} wrap>
          {allOffer('pay') ? (
            <Button type="primary" onClick={payAll} data-testid="waybill-bulk-pay">
              {t('waybill.bulkPay')}
            </Button>
          ) : null}
          {allOffer('print') ? (
            <PrintLabelsButton
              label={t('waybill.printLabels')}
              testId="waybill-bulk-print"
              customs={withPapers.length > 0}
              onPrint={(choice) =>
                void run(() =>
                  choice === 'customs'
                    ? waybillApi.customsPapers(withPapers)
                    : waybillApi.print(selected, choice),
                )
              }
            />
          ) : null}
        </Space>
      ) : null}
      <Table<WaybillView>
        rowKey="id"
        loading={list.loading}
        dataSource={list.rows}
        pagination={list.pagination}
        {...listTableProps(1200)}
        locale={{ emptyText: <Empty description={t('waybill.empty')} /> }}
        rowSelection={{
          selectedRowKeys: selected,
          onChange: (keys) => setSelected(keys as number[]),
          getCheckboxProps: (w) => ({ disabled: !w.actions.some((a) => a === 'pay' || a === 'print') }),
        }}
        columns={[
          {
            title: t('waybill.waybillNo'),
            dataIndex: 'waybillNo',
            fixed: 'left',
            render: (v: string, w) => (
              <Typography.Link onClick={() => setOpen(w.id)} data-testid={`waybill-${v}`}>
                {v}
              </Typography.Link>
            ),
          },
          { title: t('waybill.trackingNo'), dataIndex: 'trackingNo' },
          ...(type === 'return' ? [{ title: t('waybill.returnOf'), dataIndex: 'returnOfNo' as const }] : []),
          {
            title: t('waybill.status'),
            dataIndex: 'status',
            render: (s: WaybillStatus) => <WaybillStatusTag status={s} />,
          },
          { title: t('waybill.customer'), dataIndex: 'organisationName' },
          {
            title: t('waybill.channel'),
            render: (_, w) =>
              en
                ? `${w.channel.productNameEn} · ${w.channel.nameEn}`
                : `${w.channel.productName} · ${w.channel.name}`,
          },
          {
            title: t('waybill.recipient'),
            render: (_, w) => {
              const r = w.shipment.recipient;
              return `${r.name}, ${r.city} ${r.state} ${r.zipcode} ${r.country}`;
            },
          },
          {
            title: t('waybill.weight'),
            align: 'right',
            render: (_, w) => `${w.billableWeight} ${w.shipment.unitSystem === 'kg_cm' ? 'kg' : 'lb'}`,
          },
          {
            title: t('waybill.total'),
            dataIndex: 'total',
            align: 'right',
            render: (v: string) => money(v, '$'),
          },
          { title: t('waybill.reference'), dataIndex: 'reference' },
          {
            title: t('waybill.createdAt'),
            dataIndex: 'createdAt',
            render: (v: string) => dayjs(v).format('YYYY-MM-DD HH:mm'),
          },
          {
            title: t('common.actions'),
            fixed: 'right',
            render: (_, w) => {
              const [first, ...rest] = w.actions;
              // A printable waybill's label for thermal printers first, above moves such as a refund.
              const more = [
                ...(w.actions.includes('print')
                  ? [
                      {
                        key: ZPL_KEY,
                        label: <span data-testid="waybill-act-print-zpl">{t('waybill.printZpl')}</span>,
                      },
                    ]
                  : []),
                ...(w.actions.includes('print') && w.customsPapers
                  ? [
                      {
                        key: CUSTOMS_KEY,
                        label: (
                          <span data-testid="waybill-act-print-customs">{t('waybill.printCustoms')}</span>
                        ),
                      },
                    ]
                  : []),
                ...rest.map((a) => ({ key: a, label: t(`waybillAction.${a}`), danger: a === 'refund' })),
              ];
              return (
                <Space size={4}>
                  <Button size="small" type="link" onClick={() => setOpen(w.id)}>
                    {t('waybill.view')}
                  </Button>
                  {first ? (
                    <Button
                      size="small"
                      type="link"
                      onClick={() => act(w, first)}
                      data-testid={`waybill-act-${first}`}
                    >
                      {t(`waybillAction.${first}`)}
                    </Button>
                  ) : null}
                  {more.length > 0 ? (
                    <Dropdown
                      menu={{
                        items: more,
                        onClick: ({ key }) =>
                          key === ZPL_KEY
                            ? act(w, 'print', 'zpl')
                            : key === CUSTOMS_KEY
                              ? act(w, 'print', 'customs')
                              : act(w, key as WaybillAction),
                      }}
                    >
                      <Button size="small" type="link" data-testid="waybill-more">
                        {t('waybill.more')}
                      </Button>
                    </Dropdown>
                  ) : null}
                </Space>
              );
            },
          },
        ]}
      />
      {open !== null ? (
        <WaybillDrawer
          id={open}
          onClose={() => setOpen(null)}
          onAct={act}
          onTracked={() => void list.refetch()}
        />
      ) : null}
      {noting ? (
        <ReasonDialog
          title={t(`waybillAction.${noting.action}`)}
          label={noting.action === 'refund' ? t('waybill.refundReason') : t('waybill.note')}
          field={noting.action === 'refund' ? 'reason' : 'note'}
          testId="waybill-reason"
          onCancel={() => setNoting(null)}
          onSubmit={async (reason) => {
            const { waybill, action } = noting;
            if (action === 'refund') await waybillApi.refund(waybill.id, reason);
            else await waybillApi.transition(waybill.id, action as WaybillTransition, reason);
            message.success(t('common.saved'));
            setNoting(null);
            changed();
          }}
        />
      ) : null}
    </div>
  );
}
