import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Col, Empty, Form, Progress, Row, Space, Spin, Typography } from 'antd';
import dayjs from 'dayjs';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { useCurrentPage, usePageQuery } from '../../context/page-context.tsx';
import { useSession } from '../../context/session.tsx';
import { useReportError } from '../../hooks/useReportError.ts';
import { compareMoney } from '../../lib/money.ts';
import { type ExpressQuoteView, type ExpressResult, expressQuoteApi, type PricedResult } from './api.ts';
import { BookingBar } from './BookingBar.tsx';
import { ChannelCard } from './ChannelCard.tsx';
import { ChannelSettings } from './ChannelSettings.tsx';
import { FixedTheme } from './FixedTheme.tsx';
import { QuoteForm } from './QuoteForm.tsx';
import { fromQuote, priceOf, type QuoteFormValues, shipmentKey, toBody } from './shipment.ts';

/** The quote the results belong to, and the shipment (as `shipmentKey`) it was saved with. */
interface CurrentQuote {
  id: number;
  quoteNo: string;
  key: string;
  /** Whether it may be priced again; a booked quote may not, and its shipment makes a new quote. */
  reusable: boolean;
}

type Phase = 'idle' | 'pricing' | 'done' | 'failed';

/** Priced channels cheapest first, then the channels that cannot take the shipment. */
function ordered(results: ExpressResult[]): ExpressResult[] {
  const priced = results.filter((r): r is PricedResult => r.ok);
  priced.sort((a, b) => compareMoney(priceOf(a)?.total ?? '0', priceOf(b)?.total ?? '0'));
  return [...priced, ...results.filter((r) => !r.ok)];
}

/**
 * `/onlineQuotation`, the express online quote: the shipment on the left, each channel's price on the
 * right as it is priced. Changing the shipment hides the prices until it is quoted again; one channel
 * is selected and booked, unpaid or paid at once.
 */
function QuotePage() {
  const { t } = useTranslation();
  const reportError = useReportError();
  const navigate = useNavigate();
  const page = useCurrentPage();
  const visible = useLocation().pathname === page.path;
  const visibleNow = useRef(visible);
  visibleNow.current = visible;
  const { userInfo } = useSession();
  const [form] = Form.useForm<QuoteFormValues>();
  const [quote, setQuote] = useState<CurrentQuote | null>(null);
  const [results, setResults] = useState<ExpressResult[]>([]);
  const [phase, setPhase] = useState<Phase>('idle');
  const [expiresAt, setExpiresAt] = useState<string | null>(null);
  /** The quote as the server last showed it: its `actions` and its selected channel. */
  const [detail, setDetail] = useState<ExpressQuoteView | null>(null);
  const [selecting, setSelecting] = useState<number | null>(null);
  const [reopening, setReopening] = useState(false);
  // Each pricing or reopening gets a number; answers of an older one are dropped.
  const run = useRef(0);

  const options = useQuery({ queryKey: ['express-quote-options'], queryFn: expressQuoteApi.options });
  const customerRequired = !userInfo?.organisationId;
  const currentKey = Form.useWatch(shipmentKey, form);
  const stale = quote !== null && currentKey !== quote.key;

  const refreshDetail = useCallback(
    async (id: number, token: number) => {
      try {
        const fresh = await expressQuoteApi.info(id);
        if (token === run.current) setDetail(fresh);
      } catch (error) {
        reportError(error);
      }
    },
    [reportError],
  );

  // `/onlineQuotation?quoteId=N` (from the quote list) reopens a saved quote, its form filled. The
  // page's own query is read, as it stays mounted behind other tabs; its effects run again each time
  // it is shown, so a quote is loaded once for the query that asked for it, never over the user's edits.
  const reopen = Number(usePageQuery().get('quoteId')) || null;
  const loadedFor = useRef<number | null>(null);
  const optionsData = options.data;
  useEffect(() => {
    if (!reopen || !optionsData || loadedFor.current === reopen) return;
    loadedFor.current = reopen;
    const token = ++run.current;
    setReopening(true);
    expressQuoteApi
      .info(reopen)
      .then(
        (q) => {
          if (token !== run.current) return;
          const withCustomer = optionsData.customers.some((c) => c.id === q.organisationId);
          form.resetFields();
          form.setFieldsValue(fromQuote(q, withCustomer));
          setQuote({
            id: q.id,
            quoteNo: q.quoteNo,
            key: shipmentKey(form.getFieldsValue()),
            reusable: q.actions.includes('requote'),
          });
          setDetail(q);
          const live = q.pricedAt !== null && !q.expired;
          setResults(live ? q.results : []);
          setExpiresAt(live ? q.expiresAt : null);
          setPhase(live ? 'done' : 'idle');
        },
        (error: unknown) => reportError(error),
      )
      .finally(() => {
        if (token === run.current) setReopening(false);
      });
  }, [reopen, optionsData, form, reportError]);

  const getQuotes = async () => {
    const body = toBody(form.getFieldsValue());
    const key = shipmentKey(form.getFieldsValue());
    const token = ++run.current;
    // The same shipment prices the same quote again; a changed one is a new quote.
    const reuse = quote !== null && quote.key === key && quote.reusable;
    if (!reuse) setQuote(null);
    setPhase('pricing');
    setResults([]);
    setDetail(null);
    setExpiresAt(null);
    let rating = false;
    try {
      let current = reuse ? quote : null;
      if (!current) {
        const saved = await expressQuoteApi.save(body);
        current = { id: saved.id, quoteNo: saved.quoteNo, key, reusable: true };
        // The address names the quote shown, so the list's "quote again" on another quote reopens it.
        loadedFor.current = saved.id;
        if (visibleNow.current) navigate(`${page.path}?quoteId=${saved.id}`, { replace: true });
      }
      if (token !== run.current) return;
      setQuote(current);
      rating = true;
      let ended = null as 'done' | 'failed' | null;
      await expressQuoteApi.rates(current.id, (line) => {
        if (token !== run.current) return;
        if (line.type === 'result') setResults((rs) => [...rs, line.result]);
        else if (line.type === 'done') {
          ended = 'done';
          setResults(line.results);
          setExpiresAt(line.expiresAt);
        } else ended = 'failed';
      });
      if (token !== run.current) return;
      // A stream that stops without its last line failed as surely as one that says so.
      setPhase(ended ?? 'failed');
      if (ended === 'done') await refreshDetail(current.id, token);
    } catch (error) {
      if (token !== run.current) return;
      // A shipment the server refused shows on the form; a pricing that broke off can be tried again.
      setPhase(rating ? 'failed' : 'idle');
      reportError(error, form);
    }
  };

  const select = async (result: PricedResult) => {
    if (!quote) return;
    const token = run.current;
    setSelecting(result.channelId);
    try {
      await expressQuoteApi.select(quote.id, result.channelId);
      await refreshDetail(quote.id, token);
    } catch (error) {
      reportError(error);
    } finally {
      setSelecting(null);
    }
  };

  const booked = () => {
    run.current++;
    setQuote(null);
    setResults([]);
    setDetail(null);
    setExpiresAt(null);
    setPhase('idle');
  };

  const actions = detail?.actions ?? [];
  const shown = stale ? [] : ordered(results);
  const selected = shown.find((r): r is PricedResult => r.ok && r.channelId === detail?.selectedChannelId);
  const nonePriced = phase === 'done' && results.length > 0 && !results.some((r) => r.ok);

  return (
    <Row gutter={16}>
      <Col xs={24} xl={14}>
        {options.isError ? (
          <Alert
            type="error"
            showIcon
            style={{ marginBottom: 12 }}
            title={t('expressQuote.optionsFailed')}
            action={
              <Button size="small" onClick={() => void options.refetch()}>
                {t('expressQuote.retry')}
              </Button>
            }
          />
        ) : null}
        <Spin spinning={options.isLoading || reopening}>
          <QuoteForm
            form={form}
            options={options.data}
            customerRequired={customerRequired}
            fillDefaultSender={!reopen}
            disabled={!options.data || reopening}
            onFinish={() => void getQuotes()}
            footer={
              <Button
                type="primary"
                htmlType="submit"
                size="large"
                block
                loading={phase === 'pricing'}
                data-testid="get-quotes"
              >
                {t('expressQuote.getQuotes')}
              </Button>
            }
          />
        </Spin>
      </Col>
      <Col xs={24} xl={10}>
        <div style={{ position: 'sticky', top: 16 }}>
          <Card
            title={t('expressQuote.results')}
            extra={
              <Space>
                {quote ? (
                  <Typography.Text type="secondary" data-testid="quote-no">
                    {quote.quoteNo}
                  </Typography.Text>
                ) : null}
                <ChannelSettings channels={options.data?.channels ?? []} />
              </Space>
            }
            data-testid="quote-results"
          >
            <Space orientation="vertical" style={{ width: '100%' }}>
              {stale ? (
                <Alert
                  type="warning"
                  showIcon
                  title={t('expressQuote.stale')}
                  action={
                    <Button size="small" type="primary" onClick={() => form.submit()}>
                      {t('expressQuote.getQuotes')}
                    </Button>
                  }
                  data-testid="quote-stale"
                />
              ) : null}
              {!stale && detail?.expired ? (
                <Alert type="warning" showIcon title={t('expressQuote.expired')} />
              ) : null}
              {!stale && detail && actions.length === 0 ? (
                <Alert type="info" showIcon title={t('expressQuote.closed')} />
              ) : null}
              {!stale && phase === 'pricing' ? (
                <>
                  <Progress percent={100} status="active" showInfo={false} />
                  <Typography.Text type="secondary">
                    {t('expressQuote.pricing', { done: results.length })}
                  </Typography.Text>
                </>
              ) : null}
              {!stale && phase === 'failed' ? (
                <Alert
                  type="error"
                  showIcon
                  title={t('expressQuote.pricingFailed')}
                  action={
                    <Button size="small" onClick={() => form.submit()}>
                      {t('expressQuote.retry')}
                    </Button>
                  }
                  data-testid="quote-failed"
                />
              ) : null}
              {!stale && phase === 'done' && expiresAt ? (
                <Typography.Text type="secondary">
                  {t('expressQuote.validUntil', { time: dayjs(expiresAt).format('YYYY-MM-DD HH:mm') })}
                </Typography.Text>
              ) : null}
              {nonePriced && !stale ? (
                <Alert type="info" showIcon title={t('expressQuote.nonePriced')} />
              ) : null}
              {quote && selected && actions.includes('book') ? (
                <BookingBar quoteId={quote.id} result={selected} onBooked={booked} />
              ) : null}
              {shown.length === 0 && phase !== 'pricing' ? (
                <Empty
                  description={
                    phase === 'done' && !stale ? t('expressQuote.noChannels') : t('expressQuote.resultsEmpty')
                  }
                />
              ) : null}
              {shown.map((r) => (
                <ChannelCard
                  key={r.channelId}
                  result={r}
                  selected={r.channelId === detail?.selectedChannelId}
                  canSelect={actions.includes('select')}
                  selecting={selecting === r.channelId}
                  onSelect={(chosen) => void select(chosen)}
                />
              ))}
            </Space>
          </Card>
        </div>
      </Col>
    </Row>
  );
}

export default function ExpressQuotePage() {
  return (
    <FixedTheme>
      <QuotePage />
    </FixedTheme>
  );
}
