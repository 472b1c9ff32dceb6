import { Alert, Button, Space, Statistic } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { compareMoney, money } from '../lib/money.ts';

/**
 * The middle of a payment page, for an order or a waybill alike: what it costs beside what the
 * account has, and why paying is not offered when it is not (paid already, not payable now, or the
 * funds short, with the way to the line's recharge page). `words` are the record's own sentences.
 */
export function AccountPayment({
  total,
  totalLabel,
  paid,
  account,
  canPay,
  rechargePath,
  testIdPrefix,
  words,
}: {
  total: string;
  totalLabel: string;
  paid: string;
  account: { available: string; balance: string; creditLimit: string };
  canPay: boolean;
  rechargePath: string;
  testIdPrefix: string;
  words: { paidAlready: string; notPayable: string; shortfall: string };
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const short = compareMoney(account.available, total) < 0;
  return (
    <>
      <Space size={48} wrap>
        <Statistic title={totalLabel} prefix="$" value={money(total)} data-testid={`${testIdPrefix}-total`} />
        <Statistic
          title={t('balance.available')}
          prefix="$"
          value={money(account.available)}
          data-testid={`${testIdPrefix}-available`}
        />
        <Statistic title={t('balance.balance')} prefix="$" value={money(account.balance)} />
        <Statistic title={t('balance.creditLimit')} prefix="$" value={money(account.creditLimit)} />
      </Space>
      {!canPay ? (
        // Whether it is paid is what the record says it paid, not what its status implies.
        compareMoney(paid, '0') > 0 ? (
          <Alert type="success" showIcon title={words.paidAlready} />
        ) : (
          <Alert type="info" showIcon title={words.notPayable} />
        )
      ) : short ? (
        <Alert
          type="warning"
          showIcon
          title={words.shortfall}
          action={<Button onClick={() => navigate(rechargePath)}>{t('payment.recharge')}</Button>}
        />
      ) : null}
    </>
  );
}
