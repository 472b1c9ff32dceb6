import { BUILTIN_PROVIDER } from '@freight/contracts/carriers';
import { Button, Card, Descriptions, type DescriptionsProps, Space, Tag, Typography, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../context/session.tsx';
import { money } from '../../lib/money.ts';
import type { ExpressResult, PricedResult } from './api.ts';
import { priceOf, unitsOf } from './shipment.ts';

/** Product and channel, in the page's language. */
export function useChannelName() {
  const { i18n } = useTranslation();
  const en = i18n.language === 'en-US';
  return (r: Pick<ExpressResult, 'productName' | 'productNameEn' | 'name' | 'nameEn'>) =>
    en ? `${r.productNameEn} · ${r.nameEn}` : `${r.productName} · ${r.name}`;
}

function Transit({ result }: { result: ExpressResult }) {
  const { t } = useTranslation();
  const { transitDaysMin: min, transitDaysMax: max } = result;
  return (
    <>
      {min === max ? t('expressQuote.transitDays', { days: max }) : t('expressQuote.transit', { min, max })}
    </>
  );
}

type RefusedResult = Extract<ExpressResult, { ok: false }>;

/** A channel a carrier's API prices: the carrier also issues its label once it is paid. */
const byCarrier = (result: ExpressResult) => result.provider !== BUILTIN_PROVIDER;

/**
 * Why a carrier did not price the shipment, in the shared words of the carriers' failures. Two of those
 * name what a quote does not have (the account's time limit, the carrier's own reason): the page words
 * them without.
 */
function useCarrierFailure() {
  const { t } = useTranslation();
  // Staff are told what to fix (credentials, the address); a customer only that the carrier is away.
  const staff = useSession().userInfo?.identity === 'employee';
  return (failure: RefusedResult['failure']) => {
    if (!failure) return null;
    if (failure === 'timeout' || failure === 'refused') return t(`expressQuote.carrierFailure.${failure}`);
    return staff ? t(`carrier.${failure}`) : t('expressQuote.carrierFailure.away');
  };
}

/** Says the carrier prices the channel and issues its label, so a wait for the label is expected. */
function CarrierNote({ code }: { code: string }) {
  const { t } = useTranslation();
  return (
    <Typography.Text type="secondary" data-testid={`channel-${code}-carrier-note`}>
      {t('expressQuote.carrierPriced')}
    </Typography.Text>
  );
}

/** The select button of a card. */
function selectAction(
  result: ExpressResult,
  props: { selected: boolean; selecting: boolean; onSelect: () => void; label: string },
) {
  return (
    <Button
      key="select"
      type={props.selected ? 'default' : 'primary'}
      disabled={props.selected}
      loading={props.selecting}
      onClick={props.onSelect}
      data-testid={`channel-${result.code}-select`}
    >
      {props.label}
    </Button>
  );
}

/** A channel that cannot take the shipment, and why. */
function RefusedCard({ result }: { result: RefusedResult }) {
  const { t } = useTranslation();
  const name = useChannelName();
  const failure = useCarrierFailure()(result.failure);
  return (
    <Card size="small" style={{ opacity: 0.7 }} data-testid={`channel-${result.code}`}>
      <Space orientation="vertical" size={2}>
        <Space wrap>
          <Typography.Text strong>{name(result)}</Typography.Text>
          <Tag>{t('expressQuote.unavailable')}</Tag>
        </Space>
        <Typography.Text type="secondary">
          {result.carrier} · {result.service}
        </Typography.Text>
        <Typography.Text type="secondary" data-testid={`channel-${result.code}-reason`}>
          {/* The server's own wording of the refusal (contracts, express-messages). */}
          {t(`expressQuote.refusal.${result.reason}`)}
        </Typography.Text>
        {failure ? (
          <Typography.Text type="secondary" data-testid={`channel-${result.code}-failure`}>
            {failure}
          </Typography.Text>
        ) : null}
        {byCarrier(result) ? <CarrierNote code={result.code} /> : null}
      </Space>
    </Card>
  );
}

function PricedCard({
  result,
  selected,
  canSelect,
  selecting,
  onSelect,
}: {
  result: PricedResult;
  selected: boolean;
  canSelect: boolean;
  selecting: boolean;
  onSelect: (result: PricedResult) => void;
}) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const name = useChannelName();
  const price = priceOf(result);
  const units = unitsOf(result.breakdown.unitSystem);
  const items: DescriptionsProps['items'] = price
    ? [
        { key: 'freight', label: t('expressQuote.freight'), children: money(price.freight, '$') },
        // A carrier's charges and a channel's rules each go under their own name.
        ...price.surcharges.map((s, i) => ({
          key: `${s.code}-${i}`,
          label: s.name || t(`expressQuote.surcharge.${s.code}`),
          children: money(s.fee, '$'),
        })),
        { key: 'fuel', label: t('expressQuote.fuel'), children: money(price.fuel, '$') },
        {
          key: 'total',
          label: <strong>{t('expressQuote.total')}</strong>,
          children: <strong>{money(price.total, '$')}</strong>,
        },
      ]
    : [];
  // Staff and parents also see the levels above the customer's price (their own cost).
  const levels: DescriptionsProps['items'] =
    result.levels.length > 1
      ? result.levels.map((l, i) => ({
          key: `${l.type}-${i}`,
          label: t(`expressQuote.level.${l.type}`),
          children: money(l.total, '$'),
        }))
      : [];
  return (
    <Card
      size="small"
      data-testid={`channel-${result.code}`}
      style={selected ? { borderColor: token.colorPrimary } : undefined}
      title={
        <Space wrap size={4}>
          <span>{name(result)}</span>
          {result.cheapest ? <Tag color="green">{t('expressQuote.cheapest')}</Tag> : null}
          {result.fastest ? <Tag color="blue">{t('expressQuote.fastest')}</Tag> : null}
          {selected ? <Tag color="orange">{t('expressQuote.selected')}</Tag> : null}
        </Space>
      }
      extra={
        <Typography.Text strong style={{ fontSize: 18 }} data-testid={`channel-${result.code}-total`}>
          {money(price?.total, '$')}
        </Typography.Text>
      }
      actions={
        canSelect
          ? [
              selectAction(result, {
                selected,
                selecting,
                onSelect: () => onSelect(result),
                label: selected ? t('expressQuote.selected') : t('expressQuote.select'),
              }),
            ]
          : undefined
      }
    >
      <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
        {result.carrier} · {result.service} · <Transit result={result} />
        <br />
        {t('expressQuote.billableWeight')}: {result.breakdown.billableWeight} {units.weight}
        {/* A carrier's rate has no zone of the tenant's charts. */}
        {result.breakdown.zone ? ` · ${t('expressQuote.zone')}: ${result.breakdown.zone}` : null}
        {byCarrier(result) ? (
          <>
            <br />
            <CarrierNote code={result.code} />
          </>
        ) : null}
      </Typography.Paragraph>
      <Descriptions size="small" column={1} colon={false} items={items} />
      {levels.length > 0 ? (
        <Descriptions
          size="small"
          column={1}
          colon={false}
          title={<Typography.Text type="secondary">{t('expressQuote.levels')}</Typography.Text>}
          items={levels}
          style={{ marginTop: 8 }}
        />
      ) : null}
    </Card>
  );
}

/** One channel's answer: its price and how it was reached, or why the channel cannot take the shipment. */
export function ChannelCard(props: {
  result: ExpressResult;
  selected: boolean;
  canSelect: boolean;
  selecting: boolean;
  onSelect: (result: PricedResult) => void;
}) {
  const { result, ...rest } = props;
  return result.ok ? <PricedCard result={result} {...rest} /> : <RefusedCard result={result} />;
}
