import { useQuery } from '@tanstack/react-query';
import {
  Alert,
  App,
  Button,
  Card,
  Checkbox,
  Col,
  Descriptions,
  Empty,
  Form,
  Input,
  Modal,
  Progress,
  Row,
  Space,
  Tag,
  Typography,
} from 'antd';
import dayjs from 'dayjs';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { useSession } from '../../context/session.tsx';
import { useReportError } from '../../hooks/useReportError.ts';
import { compareMoney, money } from '../../lib/money.ts';
import { addressApi } from '../addresses/api.ts';
import { truckOrderApi } from '../truck-orders/api.ts';
import { type QuoteResultView, truckQuoteApi } from './api.ts';
import {
  emptyAddress,
  fromShipment,
  pickAddress,
  ShipmentForm,
  type ShipmentFormValues,
  toShipment,
} from './ShipmentForm.tsx';

type Priced = Extract<QuoteResultView, { ok: true }>;

/** The caller's own price: the last level it may see is the booking customer's. */
const priceOf = (r: Priced) => r.levels[r.levels.length - 1];

function ResultCard({ result, onBook }: { result: QuoteResultView; onBook: (r: Priced) => void }) {
  const { t, i18n } = useTranslation();
  const name = i18n.language === 'en-US' ? result.nameEn : result.name;
  if (!result.ok)
    return (
      <Card size="small" data-testid={`result-${result.code}`} style={{ opacity: 0.7 }}>
        <Space orientation="vertical" size={2}>
          <Typography.Text strong>{name}</Typography.Text>
          <Typography.Text type="secondary">{result.carrier}</Typography.Text>
          <Tag>{t('quote.unavailable')}</Tag>
          <Typography.Text type="secondary">{t(`quoteRefusal.${result.reason}`)}</Typography.Text>
        </Space>
      </Card>
    );
  const price = priceOf(result);
  return (
    <Card
      size="small"
      data-testid={`result-${result.code}`}
      title={
        <Space wrap>
          <span>{name}</span>
          {result.cheapest ? <Tag color="green">{t('quote.cheapest')}</Tag> : null}
          {result.fastest ? <Tag color="blue">{t('quote.fastest')}</Tag> : null}
        </Space>
      }
      extra={
        <Typography.Text strong style={{ fontSize: 18 }} data-testid={`result-${result.code}-total`}>
          {money(price?.total, '$')}
        </Typography.Text>
      }
      actions={[
        <Button key="book" type="primary" onClick={() => onBook(result)} data-testid={`book-${result.code}`}>
          {t('quote.book')}
        </Button>,
      ]}
    >
      <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
        {result.carrier} · {t('quote.transit', { min: result.transitDaysMin, max: result.transitDaysMax })}
      </Typography.Paragraph>
      {price ? (
        <Descriptions size="small" column={1} colon={false}>
          <Descriptions.Item label={t('quote.linehaul')}>{money(price.linehaul, '$')}</Descriptions.Item>
          <Descriptions.Item label={t('quote.fuel')}>{money(price.fuel, '$')}</Descriptions.Item>
          {price.accessorials.map((a) => (
            <Descriptions.Item key={a.code} label={t(`accessorial.${a.code}`)}>
              {money(a.fee, '$')}
            </Descriptions.Item>
          ))}
          {result.breakdown.insurance ? (
            <Descriptions.Item label={t('quote.premium')}>
              {money(price.insurance, '$')} ({t('quote.deductible')}{' '}
              {money(result.breakdown.insurance.deductible, '$')})
            </Descriptions.Item>
          ) : null}
          <Descriptions.Item label={<strong>{t('quote.total')}</strong>}>
            <strong>{money(price.total, '$')}</strong>
          </Descriptions.Item>
        </Descriptions>
      ) : null}
    </Card>
  );
}

interface BookForm {
  customerOrderNo: string;
  shippingNote: string;
  receivingNote: string;
  extraNote: string;
  pay: boolean;
}

/**
 * `/mail`, the online truck quote: the shipment form on the left, each product's price arriving on
 * the right as it is priced. Changing the shipment drops the prices; booking takes one of them.
 */
export default function QuotePage() {
  const { t, i18n } = useTranslation();
  const { message, modal } = App.useApp();
  const reportError = useReportError();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const { userInfo } = useSession();
  const [form] = Form.useForm<ShipmentFormValues>();
  const [bookForm] = Form.useForm<BookForm>();
  const payNow = Form.useWatch('pay', bookForm) !== false;
  const [quote, setQuote] = useState<{ id: number; quoteNo: string } | null>(null);
  const [results, setResults] = useState<QuoteResultView[]>([]);
  const [expiresAt, setExpiresAt] = useState<string | null>(null);
  const [pricing, setPricing] = useState(false);
  const [stale, setStale] = useState(false);
  const [booking, setBooking] = useState<Priced | null>(null);
  const [busy, setBusy] = useState(false);
  // What the current quote was saved with: an unchanged form prices again without a new save.
  const savedShipment = useRef<string>('');
  const savedOrganisation = useRef<number | undefined>(undefined);

  const quotesForOthers = userInfo?.identity !== 'customer';
  const customers = useQuery({
    queryKey: ['quote-customers'],
    queryFn: truckQuoteApi.customerOptions,
    enabled: quotesForOthers,
  });

  const reopen = params.get('quoteId');
  // A new quote starts from the customer's default pickup address, when it has one.
  useEffect(() => {
    if (reopen || quotesForOthers) return;
    void addressApi.defaultPickup().then((entry) => {
      if (entry && !form.getFieldValue(['pickup', 'name']))
        form.setFieldValue('pickup', {
          ...emptyAddress,
          ...pickAddress(entry as unknown as Record<string, unknown>),
        });
    }, reportError);
  }, [reopen, quotesForOthers, form, reportError]);

  // `/mail?quoteId=N` reopens a saved quote (from the quote list) to price it again.
  useEffect(() => {
    if (!reopen) return;
    void truckQuoteApi.quoteInfo(Number(reopen)).then((q) => {
      const values = fromShipment(q.shipment, q.organisationId);
      form.setFieldsValue(values);
      const { organisationId, ...shipment } = toShipment(values);
      savedShipment.current = JSON.stringify(shipment);
      savedOrganisation.current = organisationId;
      // A closed (booked) quote offers nothing: its shipment starts a new quote.
      setQuote(q.actions.includes('requote') ? { id: q.id, quoteNo: q.quoteNo } : null);
      setResults(q.expired ? [] : q.results);
      setExpiresAt(q.expired ? null : q.expiresAt);
    }, reportError);
  }, [reopen, form, reportError]);

  const getQuotes = async (values: ShipmentFormValues) => {
    const { organisationId, ...shipment } = toShipment(values);
    setPricing(true);
    setResults([]);
    setStale(false);
    try {
      let current = quote;
      const text = JSON.stringify(shipment);
      if (!current || savedOrganisation.current !== organisationId) {
        // A first quote, or one for another customer: a new quote number.
        const saved = await truckQuoteApi.saveQuote({ ...shipment, organisationId });
        current = { id: saved.id, quoteNo: saved.quoteNo };
      } else if (savedShipment.current !== text) {
        await truckQuoteApi.saveLocation(current.id, shipment.pickup, shipment.delivery);
        const { pickup: _p, delivery: _d, ...detail } = shipment;
        await truckQuoteApi.saveDetail(current.id, detail);
      }
      savedShipment.current = text;
      savedOrganisation.current = organisationId;
      setQuote(current);
      const id = current.id;
      await truckQuoteApi.rates(id, (line) => {
        if (line.type === 'result') setResults((rs) => [...rs, line.result]);
        if (line.type === 'done') {
          setResults(line.results);
          setExpiresAt(line.expiresAt);
        }
        if (line.type === 'error') message.error(line.msg ?? t('error.server'));
      });
    } catch (error) {
      reportError(error, form);
    } finally {
      setPricing(false);
    }
  };

  const requestManual = async () => {
    if (!quote) return;
    try {
      const task = await truckQuoteApi.requestTask(quote.id, '');
      message.success(t('quote.manualRequested', { taskNo: task.taskNo }));
      navigate('/quotationList');
    } catch (error) {
      reportError(error);
    }
  };

  const book = async (values: BookForm) => {
    if (!quote || !booking) return;
    setBusy(true);
    try {
      const order = await truckOrderApi.book({ quoteId: quote.id, productId: booking.productId, ...values });
      setBooking(null);
      setQuote(null);
      setResults([]);
      savedShipment.current = '';
      if (order.payment && !order.payment.ok) {
        modal.warning({
          title: t('order.payTitle'),
          content: order.payment.message,
          okText: t('quote.goToPay'),
          onOk: () => navigate(`/addAddress?id=${order.id}`),
        });
        return;
      }
      message.success(order.payment?.message ?? t('common.saved'));
      navigate(`/orderInfo?id=${order.id}`);
    } catch (error) {
      reportError(error, bookForm);
    } finally {
      setBusy(false);
    }
  };

  const priced = results.filter((r): r is Priced => r.ok);
  const manual = !pricing && results.length > 0 && priced.length === 0;

  return (
    <Row gutter={16}>
      <Col xs={24} xl={14}>
        <ShipmentForm
          form={form}
          customers={quotesForOthers ? (customers.data?.list ?? []) : null}
          onValuesChange={() => {
            if (results.length > 0) {
              setResults([]);
              setStale(true);
            }
          }}
          onFinish={(values) => void getQuotes(values)}
          footer={
            <Button
              type="primary"
              htmlType="submit"
              size="large"
              block
              loading={pricing}
              data-testid="get-quotes"
            >
              {t('quote.getQuotes')}
            </Button>
          }
        />
      </Col>
      <Col xs={24} xl={10}>
        <div style={{ position: 'sticky', top: 16 }}>
          <Card
            title={t('quote.results')}
            extra={quote ? <Typography.Text type="secondary">{quote.quoteNo}</Typography.Text> : null}
            data-testid="quote-results"
          >
            <Space orientation="vertical" style={{ width: '100%' }}>
              {stale ? <Alert type="warning" showIcon message={t('quote.stale')} /> : null}
              {pricing ? <Progress percent={100} status="active" showInfo={false} /> : null}
              {pricing ? (
                <Typography.Text type="secondary">
                  {t('quote.pricing', { done: results.length })}
                </Typography.Text>
              ) : null}
              {expiresAt && !pricing ? (
                <Typography.Text type="secondary">
                  {t('quote.validUntil', { time: dayjs(expiresAt).format('YYYY-MM-DD HH:mm') })}
                </Typography.Text>
              ) : null}
              {manual ? (
                <Alert
                  type="info"
                  showIcon
                  message={t('quote.manualNeeded')}
                  action={
                    <Button
                      size="small"
                      type="primary"
                      onClick={() => void requestManual()}
                      data-testid="request-manual"
                    >
                      {t('quote.requestManual')}
                    </Button>
                  }
                />
              ) : null}
              {results.length === 0 && !pricing ? (
                <Empty description={quote && !stale ? t('quote.noProducts') : t('quote.resultsEmpty')} />
              ) : null}
              {[
                ...priced.sort((a, b) => compareMoney(priceOf(a)?.total ?? '0', priceOf(b)?.total ?? '0')),
                ...results.filter((r) => !r.ok),
              ].map((r) => (
                <ResultCard
                  key={r.productId}
                  result={r}
                  onBook={(chosen) => {
                    bookForm.resetFields();
                    setBooking(chosen);
                  }}
                />
              ))}
            </Space>
          </Card>
        </div>
      </Col>
      <Modal
        open={booking !== null}
        title={t('quote.bookTitle', {
          product: booking ? (i18n.language === 'en-US' ? booking.nameEn : booking.name) : '',
        })}
        onCancel={() => setBooking(null)}
        onOk={() => bookForm.submit()}
        confirmLoading={busy}
        okText={payNow ? t('quote.bookAndPay') : t('quote.book')}
        okButtonProps={{ 'data-testid': 'book-confirm' } as never}
        destroyOnHidden
      >
        {booking ? (
          <Typography.Paragraph>
            {t('quote.total')}: <strong>{money(priceOf(booking)?.total, '$')}</strong>
          </Typography.Paragraph>
        ) : null}
        <Form form={bookForm} layout="vertical" onFinish={(v) => void book(v)} initialValues={{ pay: true }}>
          <Form.Item name="customerOrderNo" label={t('quote.customerOrderNo')}>
            <Input maxLength={60} data-testid="book-customer-no" />
          </Form.Item>
          <Form.Item name="shippingNote" label={t('quote.shippingNote')}>
            <Input.TextArea maxLength={500} rows={2} />
          </Form.Item>
          <Form.Item name="receivingNote" label={t('quote.receivingNote')}>
            <Input.TextArea maxLength={500} rows={2} />
          </Form.Item>
          <Form.Item name="extraNote" label={t('quote.extraNote')}>
            <Input.TextArea maxLength={500} rows={2} />
          </Form.Item>
          <Form.Item name="pay" valuePropName="checked">
            <Checkbox>{t('quote.payNow')}</Checkbox>
          </Form.Item>
          {/* As the express booking does: what leaves the balance is said before the click that pays. */}
          {booking && payNow ? (
            <Alert
              type="info"
              showIcon
              data-testid="book-pay-amount"
              title={t('quote.bookPayConfirm', { amount: money(priceOf(booking)?.total, '$') })}
            />
          ) : null}
        </Form>
      </Modal>
    </Row>
  );
}
