import { Button, DatePicker, Form, Input, Select, Table, Tag } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { FilterBar, ListEmpty, periodDays, useServerList } from '../../components/list.tsx';
import { compareMoney, money } from '../../lib/money.ts';
import type { QuoteView } from './api.ts';

interface Filters {
  keyword?: string;
  status?: 'open' | 'booked' | 'expired';
  mode?: 'LTL' | 'FTL';
  period?: [Dayjs, Dayjs];
}

const STATUS_COLOUR = { open: 'processing', booked: 'success', expired: 'default' } as const;

/** `/quoteList`: the caller's truck quotes, the best price of each, and a way back to quote again. */
export default function QuoteListPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [form] = Form.useForm<Filters>();
  const [filters, setFilters] = useState<Record<string, unknown>>({});
  const list = useServerList<QuoteView>('/admin/quotation/list', filters);
  return (
    <>
      <FilterBar<Filters>
        form={form}
        onSearch={(v) => {
          setFilters({
            keyword: v.keyword || undefined,
            status: v.status,
            mode: v.mode,
            ...periodDays(v.period),
          });
          list.resetPage();
        }}
      >
        <Form.Item name="keyword" label={t('quote.quoteNo')}>
          <Input allowClear />
        </Form.Item>
        <Form.Item name="status" label={t('common.status')}>
          <Select
            allowClear
            style={{ width: 120 }}
            options={(['open', 'booked', 'expired'] as const).map((s) => ({
              value: s,
              label: t(`quote.status.${s}`),
            }))}
          />
        </Form.Item>
        <Form.Item name="mode" label={t('quote.mode')}>
          <Select
            allowClear
            style={{ width: 100 }}
            options={['LTL', 'FTL'].map((m) => ({ value: m, label: m }))}
          />
        </Form.Item>
        <Form.Item name="period" label={t('quote.quoteDate')}>
          <DatePicker.RangePicker />
        </Form.Item>
      </FilterBar>
      <Table<QuoteView>
        rowKey="id"
        loading={list.loading}
        dataSource={list.rows}
        pagination={list.pagination}
        scroll={{ x: 1000 }}
        className="nowrap-table"
        locale={{
          emptyText: <ListEmpty text={t('quote.listEmpty')} to="/mail" label={t('task.emptyAction')} />,
        }}
        columns={[
          { title: t('quote.quoteNo'), dataIndex: 'quoteNo' },
          {
            title: t('common.status'),
            render: (_, q) => {
              const status = q.status === 'open' && q.expired ? 'expired' : q.status;
              return <Tag color={STATUS_COLOUR[status]}>{t(`quote.status.${status}`)}</Tag>;
            },
          },
          { title: t('quote.mode'), render: (_, q) => q.shipment.mode },
          {
            title: t('quote.route'),
            render: (_, q) =>
              `${q.shipment.pickup.city}, ${q.shipment.pickup.state} → ${q.shipment.delivery.city}, ${q.shipment.delivery.state}`,
          },
          {
            title: t('quote.lines'),
            render: (_, q) =>
              `${q.shipment.lines.reduce((s, l) => s + l.palletCount, 0)} × ${q.shipment.lines.reduce((s, l) => s + l.totalWeight, 0)} lb`,
          },
          {
            title: t('quote.cheapest'),
            align: 'right',
            render: (_, q) => {
              const totals = q.results.flatMap((r) =>
                r.ok ? [r.levels[r.levels.length - 1]?.total ?? '0'] : [],
              );
              const cheapest = totals.reduce<string | null>(
                (min, total) => (min === null || compareMoney(total, min) < 0 ? total : min),
                null,
              );
              return cheapest === null ? '—' : money(cheapest, '$');
            },
          },
          {
            title: t('quote.quoteDate'),
            dataIndex: 'createdAt',
            render: (v: string) => dayjs(v).format('YYYY-MM-DD HH:mm'),
          },
          {
            title: t('common.actions'),
            // A booked quote offers nothing; an open one is booked from its prices, or priced again.
            render: (_, q) =>
              q.actions.length === 0 ? null : (
                <Button size="small" onClick={() => navigate(`/mail?quoteId=${q.id}`)}>
                  {q.actions.includes('book') ? t('quote.view') : t('quote.requote')}
                </Button>
              ),
          },
        ]}
      />
    </>
  );
}
