import type { SamplePriceBody } from '@freight/contracts/express-channels';
import { PACKAGINGS, UNIT_SYSTEMS } from '@freight/contracts/express-rating';
import { useMutation } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Card,
  Checkbox,
  Col,
  DatePicker,
  Form,
  Input,
  InputNumber,
  Row,
  Select,
  Space,
  Typography,
} from 'antd';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { useReportError } from '../../hooks/useReportError.ts';
import { ApiError } from '../../lib/http.ts';
import { money } from '../../lib/money.ts';
import { type ExpressChannel, type SamplePrice, sampleApi } from './api.ts';
import { UNITS } from './units.ts';

interface FormValues {
  originZip: string;
  destinationCountry: string;
  destinationZip: string;
  unitSystem: SamplePriceBody['unitSystem'];
  length: number;
  width: number;
  height: number;
  weight: number;
  packaging: SamplePriceBody['parcel']['packaging'];
  residential: boolean;
  signature: boolean;
  shipDate?: Dayjs | null;
}

/** A figure as the steps write it: at most two decimals, grouped. */
const figure = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: 2 });
/** Dollars, as the channel's tables are written. */
const usd = (amount: string) => money(amount, '$');

/**
 * One parcel priced at cost on the channel's own tables and rules, each step written out as the
 * channel took it (zone, sides measured, dimensional weight, billable weight, base, each surcharge,
 * fuel): for staff to check the channel against a carrier's invoice before customers are quoted.
 */
export function SamplePriceCard({ channel }: { channel: ExpressChannel }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<FormValues>();
  const reportError = useReportError();
  const sample = useMutation({
    mutationFn: (v: FormValues) =>
      sampleApi.price({
        channelId: channel.id,
        originZip: v.originZip,
        destinationCountry: v.destinationCountry,
        destinationZip: v.destinationZip,
        unitSystem: v.unitSystem,
        parcel: {
          length: v.length,
          width: v.width,
          height: v.height,
          weight: v.weight,
          packaging: v.packaging,
          declaredValue: '0',
        },
        residential: v.residential,
        signature: v.signature,
        shipDate: v.shipDate?.format('YYYY-MM-DD') ?? '',
      }),
    onError: (error) => {
      // The parcel's fields sit on the form by their own names.
      if (error instanceof ApiError && error.fields.length > 0) {
        form.setFields(
          error.fields.map((f) => ({
            name: f.field.replace(/^parcel\./, '') as keyof FormValues,
            errors: [f.message],
          })),
        );
        return;
      }
      reportError(error);
    },
  });

  if (channel.carrierAccountId !== null)
    return (
      <Card title={t('samplePrice.title')} data-testid="sample-price">
        <Alert type="info" showIcon message={t('samplePrice.byCarrier')} />
      </Card>
    );

  return (
    <Card title={t('samplePrice.title')} data-testid="sample-price">
      <Typography.Paragraph type="secondary">{t('samplePrice.intro')}</Typography.Paragraph>
      <Form<FormValues>
        form={form}
        layout="vertical"
        initialValues={{
          originZip: '90001',
          destinationCountry: 'US',
          destinationZip: '75201',
          unitSystem: channel.unitSystem,
          packaging: 'box',
          residential: false,
          signature: false,
        }}
        onFinish={(v) => sample.mutate(v)}
      >
        <Row gutter={12}>
          <Col xs={12} md={4}>
            <Form.Item name="originZip" label={t('samplePrice.originZip')} rules={[{ required: true }]}>
              <Input maxLength={10} data-testid="sample-originZip" />
            </Form.Item>
          </Col>
          <Col xs={12} md={4}>
            <Form.Item
              name="destinationZip"
              label={t('samplePrice.destinationZip')}
              rules={[{ required: true }]}
            >
              <Input maxLength={12} data-testid="sample-destinationZip" />
            </Form.Item>
          </Col>
          <Col xs={12} md={4}>
            <Form.Item
              name="destinationCountry"
              label={t('samplePrice.country')}
              rules={[{ required: true }]}
            >
              <Input maxLength={2} data-testid="sample-destinationCountry" />
            </Form.Item>
          </Col>
          <Col xs={12} md={4}>
            <Form.Item name="shipDate" label={t('samplePrice.shipDate')}>
              <DatePicker
                style={{ width: '100%' }}
                placeholder={t('samplePrice.today')}
                data-testid="sample-shipDate"
              />
            </Form.Item>
          </Col>
          <Col xs={12} md={4}>
            <Form.Item name="unitSystem" label={t('samplePrice.units')}>
              <Select
                options={UNIT_SYSTEMS.map((u) => ({
                  value: u,
                  label: `${UNITS[u].weight} / ${UNITS[u].length}`,
                }))}
                data-testid="sample-unitSystem"
              />
            </Form.Item>
          </Col>
          <Col xs={12} md={4}>
            <Form.Item name="packaging" label={t('samplePrice.packaging')}>
              <Select
                options={PACKAGINGS.map((p) => ({ value: p, label: t(`expressQuote.packaging.${p}`) }))}
                data-testid="sample-packaging"
              />
            </Form.Item>
          </Col>
        </Row>
        <Row gutter={12} align="bottom">
          {(['length', 'width', 'height', 'weight'] as const).map((key) => (
            <Col xs={12} md={4} key={key}>
              <Form.Item name={key} label={t(`samplePrice.${key}`)} rules={[{ required: true }]}>
                <InputNumber
                  min={0.01}
                  max={10_000}
                  style={{ width: '100%' }}
                  data-testid={`sample-${key}`}
                />
              </Form.Item>
            </Col>
          ))}
          <Col xs={24} md={8}>
            <Form.Item>
              <Space wrap>
                <Form.Item name="residential" valuePropName="checked" noStyle>
                  <Checkbox data-testid="sample-residential">{t('samplePrice.residential')}</Checkbox>
                </Form.Item>
                <Form.Item name="signature" valuePropName="checked" noStyle>
                  <Checkbox data-testid="sample-signature">{t('samplePrice.signature')}</Checkbox>
                </Form.Item>
                <Button type="primary" htmlType="submit" loading={sample.isPending} data-testid="sample-run">
                  {t('samplePrice.run')}
                </Button>
              </Space>
            </Form.Item>
          </Col>
        </Row>
      </Form>
      {sample.data ? <SampleSteps sample={sample.data} /> : null}
    </Card>
  );
}

/** The sample's steps, numbered, each saying what it read and what it gave. */
function SampleSteps({ sample }: { sample: SamplePrice }) {
  const { t } = useTranslation();
  if (!sample.ok)
    return (
      <Alert
        type="warning"
        showIcon
        message={t(`expressQuote.refusal.${sample.reason}`)}
        data-testid="sample-refused"
      />
    );
  const units = UNITS[sample.unitSystem];
  const parcel = sample.breakdown.parcels[0];
  if (!parcel) return null;
  const sides = parcel.sides;
  // Each step keyed by what it is: a surcharge by its place among them.
  const steps: [string, string][] = [['zone', t('samplePrice.step.zone', { zone: sample.breakdown.zone })]];
  const push = (key: string, text: string) => steps.push([key, text]);
  push(
    'sides',
    sides
      ? t('samplePrice.step.sides', { sides: sides.map(figure).join(' × '), unit: units.length })
      : t('samplePrice.step.sidesAsGiven'),
  );
  if (sample.dimDivisor === 0) push('dim', t('samplePrice.step.noDivisor'));
  else if (parcel.dimWeight === 0)
    push(
      'dim',
      t('samplePrice.step.underThreshold', {
        volume: figure(sample.volume),
        threshold: figure(sample.dimThreshold),
        unit: units.volume,
      }),
    );
  else
    push(
      'dim',
      t('samplePrice.step.dimWeight', {
        volume: figure(sample.volume),
        unit: units.volume,
        divisor: sample.dimDivisor,
        weight: figure(parcel.dimWeight),
        w: units.weight,
      }),
    );
  push(
    'billable',
    t('samplePrice.step.billable', {
      actual: figure(parcel.actualWeight),
      dim: figure(parcel.dimWeight),
      billable: figure(parcel.billableWeight),
      w: units.weight,
    }),
  );
  const base = { freight: usd(parcel.freight ?? '0.00'), zone: sample.breakdown.zone };
  const row = { ...base, billable: figure(parcel.billableWeight), w: units.weight };
  if (parcel.cubicTier !== undefined)
    push('base', t('samplePrice.step.cubic', { ...base, tier: figure(parcel.cubicTier) }));
  else if (parcel.prorated) push('base', t('samplePrice.step.prorated', row));
  else if (parcel.minimumApplied) push('base', t('samplePrice.step.minimum', base));
  else push('base', t('samplePrice.step.row', row));
  sample.surcharges.forEach((s, i) => {
    const name = s.name || t(`expressQuote.surcharge.${s.code}`);
    push(`surcharge-${i}`, t('samplePrice.step.surcharge', { name, fee: usd(s.fee) }));
  });
  push(
    'fuel',
    sample.breakdown.fuelPercent && Number(sample.fuel) > 0
      ? t('samplePrice.step.fuel', {
          percent: sample.breakdown.fuelPercent,
          base: usd(sample.breakdown.fuelBase ?? '0.00'),
          fuel: usd(sample.fuel),
        })
      : t('samplePrice.step.noFuel'),
  );
  return (
    <div data-testid="sample-steps">
      <ol style={{ paddingInlineStart: 20, marginBottom: 8 }}>
        {steps.map(([key, text]) => (
          <li key={key} data-testid={`sample-step-${key}`} style={{ marginBottom: 4 }}>
            {text}
          </li>
        ))}
      </ol>
      <Typography.Text strong data-testid="sample-total">
        {t('samplePrice.total', { total: usd(sample.total) })}
      </Typography.Text>
      {sample.breakdown.pricesFrom ? (
        <Typography.Paragraph type="secondary" style={{ marginTop: 4 }}>
          {t('samplePrice.pricesFrom', { date: sample.breakdown.pricesFrom })}
        </Typography.Paragraph>
      ) : null}
    </div>
  );
}
