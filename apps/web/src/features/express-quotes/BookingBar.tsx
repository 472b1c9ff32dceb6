import { App, Button, Card, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useReportError } from '../../hooks/useReportError.ts';
import { money } from '../../lib/money.ts';
import { waybillPaymentPath } from '../express-waybills/api.ts';
import { expressQuoteApi, type PricedResult } from './api.ts';
import { useChannelName } from './ChannelCard.tsx';
import { priceOf } from './shipment.ts';

/**
 * Books the selected channel of a quote as a waybill: "Book" leaves it unpaid on its payment page;
 * "Book and pay" pays from the express account at once and shows the waybill in the list, or, when
 * the payment does not go through, says why and opens the payment page.
 */
export function BookingBar({
  quoteId,
  result,
  onBooked,
}: {
  quoteId: number;
  result: PricedResult;
  onBooked?: () => void;
}) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const reportError = useReportError();
  const navigate = useNavigate();
  const channelName = useChannelName();
  const [busy, setBusy] = useState<'book' | 'pay' | null>(null);
  const total = priceOf(result)?.total;

  const book = async (pay: boolean) => {
    setBusy(pay ? 'pay' : 'book');
    try {
      const waybill = await expressQuoteApi.book({ quoteId, channelId: result.channelId, pay });
      onBooked?.();
      if (!pay) {
        message.success(t('expressQuote.booked', { waybillNo: waybill.waybillNo }));
        navigate(waybillPaymentPath(waybill.id));
      } else if (waybill.payment?.ok) {
        message.success(
          waybill.payment.message || t('expressQuote.bookedPaid', { waybillNo: waybill.waybillNo }),
        );
        navigate(`/expressOrderList?sn=${encodeURIComponent(waybill.waybillNo)}`);
      } else {
        // Booked, not paid (the account is short, say): the waybill waits on its payment page.
        message.warning(waybill.payment?.message || t('expressQuote.notPaid'));
        navigate(waybillPaymentPath(waybill.id));
      }
    } catch (error) {
      reportError(error);
    } finally {
      setBusy(null);
    }
  };

  return (
    <Card size="small" data-testid="booking-bar">
      <Space orientation="vertical" style={{ width: '100%' }}>
        <Typography.Text>
          {t('expressQuote.selectedChannel')}: <strong>{channelName(result)}</strong>
        </Typography.Text>
        <Typography.Text>
          {t('expressQuote.total')}:{' '}
          <Typography.Text strong style={{ fontSize: 18 }} data-testid="booking-total">
            {money(total, '$')}
          </Typography.Text>
        </Typography.Text>
        <Space wrap>
          <Button
            size="large"
            loading={busy === 'book'}
            disabled={busy !== null}
            onClick={() => void book(false)}
            data-testid="book"
          >
            {t('expressQuote.book')}
          </Button>
          <Button
            type="primary"
            size="large"
            loading={busy === 'pay'}
            disabled={busy !== null}
            onClick={() =>
              modal.confirm({
                title: t('expressQuote.bookAndPay'),
                content: t('expressQuote.payConfirm', { amount: money(total, '$') }),
                okButtonProps: { 'data-testid': 'book-pay-confirm' } as never,
                onOk: () => book(true),
              })
            }
            data-testid="book-pay"
          >
            {t('expressQuote.bookAndPay')}
          </Button>
        </Space>
      </Space>
    </Card>
  );
}
