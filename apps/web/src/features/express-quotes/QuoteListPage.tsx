import {
  EXPRESS_QUOTE_STATUSES,
  type ExpressQuoteAction,
  type ExpressQuoteStatus,
} from '@freight/contracts/express-quotes';
import { Alert, Button, Empty, Form, Input, Modal, Select, Space, Table, Tag } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { FilterBar, listTableProps, useServerList } from '../../components/list.tsx';
import { money } from '../../lib/money.ts';
import {
  EXPRESS_QUOTE_LIST_URL,
  type ExpressQuoteView,
  type PricedResult,
  type QuoteListFilters,
} from './api.ts';
import { BookingBar } from './BookingBar.tsx';
import { FixedTheme } from './FixedTheme.tsx';
import { priceOf } from './shipment.ts';

const STATUS_COLOUR: Record<ExpressQuoteStatus, string> = {
  open: 'processing',
  selected: 'blue',
  booked: 'success',
  expired: 'default',
};

type Place = ExpressQuoteView['shipment']['sender'];
const place = (a: Place) => [a.city, [a.state, a.country].filter(Boolean).join(' ')].join(', ');

/** The cheapest priced channel as the server marked it. */
const cheapestOf = (q: ExpressQuoteView) =>
  q.results.find((r): r is PricedResult => r.ok && r.cheapest) ?? null;

/**
 * `/queryQuotation`: the express quotes the caller may see, the cheapest price of each, and what may
 * be done with each now, as its `actions` say: quote again, choose a channel, or book the chosen one.
 */
function QuoteListPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [form] = Form.useForm<QuoteListFilters>();
  const [filters, setFilters] = useState<QuoteListFilters>({});
  const list = useServerList<ExpressQuoteView>(EXPRESS_QUOTE_LIST_URL, filters);
  const [booking, setBooking] = useState<ExpressQuoteView | null>(null);
  const bookingResult = booking?.results.find(
    (r): r is PricedResult => r.ok && r.channelId === booking.selectedChannelId,
  );

  const act = (q: ExpressQuoteView, action: ExpressQuoteAction) => {
    // Quoting again and choosing a channel happen on the quote page, the saved quote reopened there.
    if (action === 'book') setBooking(q);
    else navigate(`/onlineQuotation?quoteId=${q.id}`);
  };

  return (
    <div className="page-card">
      <FilterBar<QuoteListFilters>
        form={form}
        onSearch={(v) => {
          setFilters({ keyword: v.keyword?.trim() || undefined, status: v.status });
          list.resetPage();
        }}
      >
        <Form.Item name="keyword" label={t('expressQuote.quoteNo')}>
          <Input allowClear maxLength={100} data-testid="quote-keyword" />
        </Form.Item>
        <Form.Item name="status" label={t('common.status')}>
          <Select
            allowClear
            style={{ width: 140 }}
            options={EXPRESS_QUOTE_STATUSES.map((s) => ({ value: s, label: t(`expressQuote.status.${s}`) }))}
            data-testid="quote-status-filter"
          />
        </Form.Item>
      </FilterBar>
      <Table<ExpressQuoteView>
        rowKey="id"
        loading={list.loading}
        dataSource={list.rows}
        pagination={list.pagination}
        {...listTableProps(1000)}
        locale={{
          emptyText: (
            <Empty description={t('expressQuote.listEmpty')}>
              <Button type="primary" onClick={() => navigate('/onlineQuotation')}>
                {t('expressQuote.newQuote')}
              </Button>
            </Empty>
          ),
        }}
        columns={[
          { title: t('expressQuote.quoteNo'), dataIndex: 'quoteNo', fixed: 'left' },
          {
            title: t('expressQuote.createdAt'),
            dataIndex: 'createdAt',
            render: (v: string) => dayjs(v).format('YYYY-MM-DD HH:mm'),
          },
          {
            title: t('expressQuote.route'),
            render: (_, q) => `${place(q.shipment.sender)} → ${place(q.shipment.recipient)}`,
          },
          {
            title: t('expressQuote.parcelCount'),
            align: 'right',
            render: (_, q) => q.shipment.parcels.reduce((n, p) => n + p.quantity, 0),
          },
          {
            title: t('common.status'),
            dataIndex: 'status',
            render: (s: ExpressQuoteStatus) => (
              <Tag color={STATUS_COLOUR[s]} data-testid={`quote-status-${s}`}>
                {t(`expressQuote.status.${s}`)}
              </Tag>
            ),
          },
          {
            title: t('expressQuote.cheapestPrice'),
            align: 'right',
            render: (_, q) => {
              const cheapest = cheapestOf(q);
              return cheapest ? money(priceOf(cheapest)?.total, '$') : '—';
            },
          },
          {
            title: t('common.actions'),
            fixed: 'right',
            // Only what the server offers for this quote now; the page never decides it from the status.
            render: (_, q) => (
              <Space size={4}>
                {q.actions.map((a) => (
                  <Button
                    key={a}
                    size="small"
                    type="link"
                    onClick={() => act(q, a)}
                    data-testid={`quote-${q.quoteNo}-${a}`}
                  >
                    {t(`expressQuote.action.${a}`)}
                  </Button>
                ))}
              </Space>
            ),
          },
        ]}
      />
      <Modal
        open={booking !== null}
        title={t('expressQuote.bookTitle', { quoteNo: booking?.quoteNo ?? '' })}
        footer={null}
        onCancel={() => setBooking(null)}
        destroyOnHidden
      >
        {booking && bookingResult ? (
          <BookingBar
            quoteId={booking.id}
            result={bookingResult}
            onBooked={() => {
              setBooking(null);
              void list.refetch();
            }}
          />
        ) : (
          <Alert type="warning" showIcon title={t('expressQuote.noSelection')} />
        )}
      </Modal>
    </div>
  );
}

export default function ExpressQuoteListPage() {
  return (
    <FixedTheme>
      <QuoteListPage />
    </FixedTheme>
  );
}
