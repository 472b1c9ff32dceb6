import { Button, Card, Descriptions, type DescriptionsProps, Space, Tag, Typography, theme } from 'antd';
import { useTranslation } from 'react-i18next';
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

/** A channel that cannot take the shipment, and why. */
function RefusedCard({ result }: { result: Extract<ExpressResult, { ok: false }> }) {
  const { t } = useTranslation();
  const name = useChannelName();
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
        ...price.surcharges.map((s) => ({
          key: s.code,
          label: t(`expressQuote.surcharge.${s.code}`),
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
              <Button
                key="select"
                type={selected ? 'default' : 'primary'}
                disabled={selected}
                loading={selecting}
                onClick={() => onSelect(result)}
                data-testid={`channel-${result.code}-select`}
              >
                {selected ? t('expressQuote.selected') : t('expressQuote.select')}
              </Button>,
            ]
          : undefined
      }
    >
      <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
        {result.carrier} · {result.service} · <Transit result={result} />
        <br />
        {t('expressQuote.billableWeight')}: {result.breakdown.billableWeight} {units.weight} ·{' '}
        {t('expressQuote.zone')}: {result.breakdown.zone}
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
