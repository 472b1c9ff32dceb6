import {
  ACCOUNT_LOG_TYPES,
  DEDUCTION_TYPES,
  LEDGER_TYPES,
  type LedgerType,
} from '@freight/contracts/accounts';
import { Button, DatePicker, Empty, Form, Input, Select, Space, Statistic, Table, Tag } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { useAuth } from '../../components/Auth.tsx';
import { FilterBar, listTableProps, periodInstants, useServerList } from '../../components/list.tsx';
import { useSession } from '../../context/session.tsx';
import { download } from '../../lib/http.ts';
import { money, moneySign } from '../../lib/money.ts';

type Line = 'truck' | 'express';

interface LedgerRow {
  id: number;
  organisationName: string;
  type: LedgerType;
  amount: string;
  balanceAfter: string;
  refId: string;
  note: string;
  /** The staff member who acted; empty for customers, who are not shown it. */
  operator: string;
  createdAt: string;
}

interface Filters {
  type?: string;
  reference?: string;
  keyword?: string;
  line?: Line;
  period?: [Dayjs, Dayjs];
}

/** The three views over the ledger: every movement, the account events, and supplementary deductions. */
const VIEWS = {
  details: {
    url: '/admin/account/details',
    exportUrl: '/admin/account/detailsExport',
    types: LEDGER_TYPES,
    file: 'account-details.xlsx',
  },
  log: {
    url: '/admin/account/log',
    exportUrl: '/admin/account/logExport',
    types: ACCOUNT_LOG_TYPES,
    file: 'account-log.xlsx',
  },
  deductions: {
    url: '/admin/account/deductions',
    exportUrl: '/admin/account/deductionsExport',
    types: DEDUCTION_TYPES,
    file: 'deductions.xlsx',
  },
} as const;

/** Types that never move money: the account log shows them, the details (money only) do not. */
const EVENT_TYPES = new Set<LedgerType>([
  'freeze',
  'unfreeze',
  'credit_limit',
  'recharge_awaiting',
  'recharge_rejected',
  'recharge_settled',
]);

const AMOUNT_COLOUR: Record<number, string | undefined> = { 1: '#389e0d', [-1]: '#cf1322' };

/** Ledger rows of the accounts in scope, one row a movement, with totals over the filter. */
export function AccountDetailsPage({
  line: initialLine,
  view = 'details',
}: {
  line: Line;
  view?: keyof typeof VIEWS;
}) {
  const { t } = useTranslation();
  const allowed = useAuth();
  const { userInfo } = useSession();
  const staff = userInfo?.identity === 'employee';
  const config = VIEWS[view];
  // Supplementary deductions cover both lines on one page; the others have a page per line.
  const [line, setLine] = useState<Line>(initialLine);
  const [form] = Form.useForm<Filters>();
  // A notice's "View" names one movement (`?id=` its reference, e.g. a recharge serial): show that one.
  const [params, setParams] = useSearchParams();
  const linked = params.get('id')?.trim() || undefined;
  const [filters, setFilters] = useState<Record<string, unknown>>({ line: initialLine, reference: linked });
  useEffect(() => {
    form.setFieldValue('reference', linked);
    setFilters((f) => (f.reference === linked ? f : { ...f, reference: linked }));
  }, [linked, form]);
  const clearLink = () => {
    const next = new URLSearchParams(params);
    next.delete('id');
    setParams(next, { replace: true });
    form.setFieldValue('reference', undefined);
    setFilters((f) => ({ ...f, reference: undefined }));
    list.resetPage();
  };
  const list = useServerList<LedgerRow>(config.url, filters);
  const canExport =
    view !== 'details' || allowed(line === 'truck' ? 'account:export' : 'express-account:export');
  const totals = (list.extra as { totals?: { credits: string; debits: string } } | undefined)?.totals;
  return (
    <div className="page-card">
      <FilterBar<Filters>
        form={form}
        onSearch={(v) => {
          const chosen = v.line ?? line;
          setLine(chosen);
          setFilters({
            line: chosen,
            type: v.type,
            reference: v.reference || undefined,
            keyword: v.keyword || undefined,
            ...periodInstants(v.period),
          });
          list.resetPage();
        }}
        extra={
          canExport ? (
            <Button
              onClick={() => void download(config.exportUrl, filters, config.file)}
              data-testid="ledger-export"
            >
              {t('common.export')}
            </Button>
          ) : null
        }
      >
        {view === 'deductions' ? (
          <Form.Item name="line" label={t('ledger.line')} initialValue={initialLine}>
            <Select
              style={{ width: 120 }}
              options={(['truck', 'express'] as const).map((l) => ({
                value: l,
                label: t(`ledger.line.${l}`),
              }))}
            />
          </Form.Item>
        ) : null}
        {userInfo?.identity !== 'customer' ? (
          <Form.Item name="keyword" label={t('customers.name')}>
            <Input
              allowClear
              style={{ width: 240 }}
              placeholder={t('ledger.keywordTip')}
              data-testid="ledger-keyword"
            />
          </Form.Item>
        ) : null}
        <Form.Item name="type" label={t('ledger.type')}>
          <Select
            allowClear
            style={{ width: 160 }}
            options={config.types
              .filter((x) => view !== 'details' || !EVENT_TYPES.has(x))
              .map((x) => ({ value: x, label: t(`ledger.type.${x}`) }))}
          />
        </Form.Item>
        <Form.Item name="reference" label={t('ledger.reference')}>
          <Input allowClear />
        </Form.Item>
        <Form.Item name="period" label={t('oplog.period')}>
          <DatePicker.RangePicker />
        </Form.Item>
      </FilterBar>
      {typeof filters.reference === 'string' && filters.reference ? (
        <Space style={{ display: 'flex', marginBottom: 12 }} wrap>
          <Tag closable onClose={clearLink} color="processing" data-testid="ledger-reference-chip">
            {t('ledger.reference')}: {filters.reference}
          </Tag>
          <Button size="small" type="link" onClick={clearLink} data-testid="ledger-reference-reset">
            {t('ledger.showAll')}
          </Button>
        </Space>
      ) : null}
      {totals ? (
        <Space size="large" style={{ marginBottom: 12 }}>
          <Statistic title={t('ledger.credits')} value={totals.credits} data-testid="ledger-credits" />
          <Statistic title={t('ledger.debits')} value={totals.debits} />
        </Space>
      ) : null}
      <Table<LedgerRow>
        rowKey="id"
        loading={list.loading}
        dataSource={list.rows}
        pagination={list.pagination}
        {...listTableProps(staff ? 1300 : 1100)}
        locale={{
          emptyText: (
            <Empty
              image={Empty.PRESENTED_IMAGE_SIMPLE}
              description={
                view === 'details' && filters.reference ? (
                  // Events that moved no money (a rejected recharge) are in the account log.
                  <span data-testid="ledger-no-money">
                    {t('ledger.noMoneyFor', { reference: filters.reference as string })}{' '}
                    <Link
                      to={`${line === 'truck' ? '/accountLog' : '/deliveryAccountLog'}?id=${encodeURIComponent(filters.reference as string)}`}
                    >
                      {t('ledger.openLog')}
                    </Link>
                  </span>
                ) : (
                  t(`ledger.empty.${view}`)
                )
              }
            />
          ),
        }}
        columns={[
          { title: t('oplog.time'), render: (_, r) => dayjs(r.createdAt).format('YYYY-MM-DD HH:mm:ss') },
          { title: t('customers.name'), dataIndex: 'organisationName' },
          { title: t('ledger.type'), render: (_, r) => <Tag>{t(`ledger.type.${r.type}`)}</Tag> },
          {
            title: t('ledger.amount'),
            align: 'right',
            // Events that move no money (freezes, credit limits, rejected recharges) stay neutral.
            render: (_, r) => (
              <span style={{ color: AMOUNT_COLOUR[moneySign(r.amount)] }}>{money(r.amount)}</span>
            ),
          },
          {
            title: t('ledger.balanceAfter'),
            align: 'right',
            dataIndex: 'balanceAfter',
            render: (value: string) => money(value),
          },
          { title: t('ledger.reference'), dataIndex: 'refId' },
          { title: t('ledger.note'), dataIndex: 'note', ellipsis: true, width: 240 },
          ...(staff ? [{ title: t('ledger.operator'), dataIndex: 'operator' }] : []),
        ]}
      />
    </div>
  );
}
