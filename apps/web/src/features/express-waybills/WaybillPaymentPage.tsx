import { useQuery } from '@tanstack/react-query';
import { App, Button, Card, Descriptions, Result, Skeleton, Space } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { AccountPayment } from '../../components/AccountPayment.tsx';
import { useReportError } from '../../hooks/useReportError.ts';
import { compareMoney, money } from '../../lib/money.ts';
import { LABEL_POLL_MS, waybillApi, waybillPaymentPath } from './api.ts';
import { type PrintChoice, PrintLabelsButton } from './PrintLabelsButton.tsx';
import { WaybillStatusTag } from './WaybillStatusTag.tsx';

/**
 * `/waybillValuation`: pays one waybill from the express account. Opened from a quote
 * (`?quoteId=`), it first books the selected channel (booking a quote twice gives the same waybill)
 * and then shows that waybill's payment (`?id=`).
 */
export default function WaybillPaymentPage() {
  const { t, i18n } = useTranslation();
  const en = i18n.language === 'en-US';
  const { message, modal } = App.useApp();
  const reportError = useReportError();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const id = Number(params.get('id'));
  const quoteId = Number(params.get('quoteId'));
  const [bookingError, setBookingError] = useState<unknown>(null);

  useEffect(() => {
    if (id > 0 || !(quoteId > 0)) return;
    let live = true;
    waybillApi.create(quoteId).then(
      (created) => {
        if (live) navigate(waybillPaymentPath(created.id), { replace: true });
      },
      (error: unknown) => {
        if (live) setBookingError(error);
      },
    );
    return () => {
      live = false;
    };
  }, [id, quoteId, navigate]);

  const info = useQuery({
    queryKey: ['waybill-pay', id],
    queryFn: () => waybillApi.payInfo(id),
    enabled: id > 0,
    // Paid on a carrier's channel, the waybill waits a moment for the carrier's label.
    refetchInterval: (query) =>
      query.state.data?.waybill.status === 'label_pending' ? LABEL_POLL_MS : false,
  });
  const [busy, setBusy] = useState(false);

  const unavailable = (error?: unknown) => (
    <Result
      status="warning"
      title={error instanceof Error ? error.message : t('waybill.unavailable')}
      extra={<Button onClick={() => navigate('/expressOrderList')}>{t('waybill.back')}</Button>}
      data-testid="waybill-unavailable"
    />
  );
  if (bookingError) return unavailable(bookingError);
  if (!(id > 0) && !(quoteId > 0)) return unavailable();
  if (info.isError) return unavailable(info.error);
  if (!info.data)
    return (
      <Card title={quoteId > 0 && !(id > 0) ? t('waybill.creating') : t('waybill.payTitle')}>
        <Skeleton active />
      </Card>
    );
  const { waybill, account } = info.data;
  const canPay = waybill.actions.includes('pay');
  const canPrint = waybill.actions.includes('print');
  const short = compareMoney(account.available, waybill.total) < 0;
  const { recipient } = waybill.shipment;

  const pay = () =>
    modal.confirm({
      title: t('waybill.payTitle'),
      content: t('waybill.payConfirm', { amount: money(waybill.total, '$') }),
      okButtonProps: { 'data-testid': 'waybill-pay-confirm' } as never,
      onOk: async () => {
        setBusy(true);
        try {
          await waybillApi.pay(waybill.id);
          message.success(t('waybill.paid.done'));
        } catch (error) {
          reportError(error);
        } finally {
          setBusy(false);
          await info.refetch();
        }
      },
    });

  const print = async (choice: PrintChoice) => {
    setBusy(true);
    try {
      if (choice === 'customs') await waybillApi.customsPapers([waybill.id]);
      else await waybillApi.print([waybill.id], choice);
      await info.refetch();
    } catch (error) {
      reportError(error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card title={t('waybill.payTitle')} style={{ maxWidth: 820 }}>
      <Space orientation="vertical" style={{ width: '100%' }} size={16}>
        <Descriptions bordered size="small" column={{ xs: 1, md: 2 }}>
          <Descriptions.Item label={t('waybill.waybillNo')}>
            <span data-testid="waybill-no">{waybill.waybillNo}</span>
          </Descriptions.Item>
          <Descriptions.Item label={t('waybill.status')}>
            <WaybillStatusTag status={waybill.status} />
          </Descriptions.Item>
          <Descriptions.Item label={t('waybill.channel')}>
            {en
              ? `${waybill.channel.productNameEn} · ${waybill.channel.nameEn}`
              : `${waybill.channel.productName} · ${waybill.channel.name}`}
          </Descriptions.Item>
          <Descriptions.Item label={t('waybill.trackingNo')}>{waybill.trackingNo}</Descriptions.Item>
          <Descriptions.Item label={t('waybill.recipient')}>
            {recipient.name}, {recipient.city} {recipient.state} {recipient.zipcode}, {recipient.country}
          </Descriptions.Item>
          <Descriptions.Item label={t('waybill.weight')}>
            {waybill.billableWeight} {waybill.shipment.unitSystem === 'kg_cm' ? 'kg' : 'lb'} ·{' '}
            {t('waybill.zone')} {waybill.zone}
          </Descriptions.Item>
          <Descriptions.Item label={t('waybill.freight')}>{money(waybill.freight, '$')}</Descriptions.Item>
          {/* A carrier's charges and a channel's rules each go by their own name. */}
          {waybill.surcharges.map((s) => (
            <Descriptions.Item
              key={`${s.code}:${s.name ?? ''}`}
              label={s.name || t(`waybill.surcharge.${s.code}`)}
            >
              {money(s.fee, '$')}
            </Descriptions.Item>
          ))}
          <Descriptions.Item label={t('waybill.fuel')}>{money(waybill.fuel, '$')}</Descriptions.Item>
        </Descriptions>
        <AccountPayment
          total={waybill.total}
          totalLabel={t('waybill.total')}
          paid={waybill.paid}
          account={account}
          canPay={canPay}
          rechargePath="/expressrecharge"
          testIdPrefix="waybill"
          words={{
            paidAlready: t('waybill.paidAlready'),
            notPayable: t('waybill.notPayable'),
            shortfall: t('waybill.shortfall'),
          }}
        />
        <Space wrap>
          {canPay ? (
            <Button
              type="primary"
              size="large"
              loading={busy}
              disabled={short}
              onClick={pay}
              data-testid="waybill-pay"
            >
              {t('waybillAction.pay')}
            </Button>
          ) : null}
          {canPrint ? (
            <PrintLabelsButton
              type="primary"
              size="large"
              loading={busy}
              label={t('waybillAction.print')}
              testId="waybill-print"
              customs={waybill.customsPapers}
              onPrint={(choice) => void print(choice)}
            />
          ) : null}
          <Button size="large" onClick={() => navigate(`/expressOrderList?sn=${waybill.waybillNo}`)}>
            {t('waybill.toList')}
          </Button>
        </Space>
      </Space>
    </Card>
  );
}
