import {
  ACCOUNT_LOG_TYPES,
  DEDUCTION_TYPES,
  LEDGER_TYPES,
  type LedgerType,
} from '@freight/contracts/accounts';
import { Button, DatePicker, Empty, Form, Input, Select, Space, Statistic, Table, Tag } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../app/session.tsx';
import { useAuth } from '../../components/Auth.tsx';
import { FilterBar, periodInstants, useServerList } from '../../components/list.tsx';
import { download } from '../../lib/http.ts';

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
  const [filters, setFilters] = useState<Record<string, unknown>>({ line: initialLine });
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
            options={config.types.map((x) => ({ value: x, label: t(`ledger.type.${x}`) }))}
          />
        </Form.Item>
        <Form.Item name="reference" label={t('ledger.reference')}>
          <Input allowClear />
        </Form.Item>
        <Form.Item name="period" label={t('oplog.period')}>
          <DatePicker.RangePicker />
        </Form.Item>
      </FilterBar>
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
        scroll={{ x: staff ? 1300 : 1100 }}
        className="nowrap-table"
        locale={{
          emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t(`ledger.empty.${view}`)} />,
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
              <span style={{ color: AMOUNT_COLOUR[Math.sign(Number(r.amount))] }}>{r.amount}</span>
            ),
          },
          { title: t('ledger.balanceAfter'), align: 'right', dataIndex: 'balanceAfter' },
          { title: t('ledger.reference'), dataIndex: 'refId' },
          { title: t('ledger.note'), dataIndex: 'note', ellipsis: true, width: 240 },
          ...(staff ? [{ title: t('ledger.operator'), dataIndex: 'operator' }] : []),
        ]}
      />
    </div>
  );
}
