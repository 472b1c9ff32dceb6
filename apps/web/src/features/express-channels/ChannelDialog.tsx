import {
  EXPRESS_CURRENCIES,
  expressChannelSaveBody,
  surchargeTermsBody,
} from '@freight/contracts/express-channels';
import { EXPRESS_SCOPES, UNIT_SYSTEMS, type UnitSystem } from '@freight/contracts/express-rating';
import { moneyField } from '@freight/contracts/validation';
import { useMutation, useQuery } from '@tanstack/react-query';
import {
  Alert,
  App,
  Col,
  Divider,
  Form,
  type FormRule,
  Input,
  InputNumber,
  Modal,
  Radio,
  Row,
  Select,
  Space,
  Switch,
  Typography,
} from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { AmountInput } from '../../components/AmountInput.tsx';
import { OrganisationPicker } from '../../components/OrganisationPicker.tsx';
import { useReportError } from '../../hooks/useReportError.ts';
import { requiredRule } from '../../lib/form-rules.ts';
import {
  ALL_PRODUCTS_KEY,
  type ChannelInput,
  channelApi,
  channelPricePath,
  type ExpressChannel,
  productApi,
  zoneChartPath,
} from './api.ts';
import { PricedByFields } from './PricedByFields.tsx';
import { schemaRule } from './rules.ts';
import { UNITS } from './units.ts';

const shape = expressChannelSaveBody.shape;

/** The surcharges a channel may offer or not; the others are always there (0 when free). */
const SECTIONS = ['additionalHandling', 'largePackage', 'declaredValue'] as const;
type Section = (typeof SECTIONS)[number];

interface AdditionalHandlingForm {
  fee?: string;
  longest?: number | null;
  secondLongest?: number | null;
  weight?: number | null;
}
interface LargePackageForm {
  fee?: string;
  longest?: number | null;
  lengthGirth?: number | null;
  minBillable?: number | null;
}
interface DeclaredValueForm {
  free?: string;
  per100?: string;
  minimum?: string;
}

/** The dialog's values: the save body, with each optional surcharge switched on or off. */
type ChannelForm = Omit<ChannelInput, 'surcharges'> & {
  surcharges: {
    fuelPercent: string;
    residential: string;
    signature: string;
    additionalHandling: AdditionalHandlingForm;
    largePackage: LargePackageForm;
    declaredValue: DeclaredValueForm;
  };
  offers: Record<Section, boolean>;
};

const NEW_CHANNEL: Partial<ChannelForm> = {
  scope: 'domestic',
  unitSystem: 'lb_in',
  currency: 'USD',
  transitDaysMin: 1,
  transitDaysMax: 5,
  enabled: true,
  organisationIds: [],
  carrierAccountId: null,
  carrierService: '',
  carrierLabelFormat: 'pdf',
  surcharges: {
    fuelPercent: '0',
    residential: '0',
    signature: '0',
    additionalHandling: {},
    largePackage: {},
    declaredValue: { minimum: '0' },
  },
  offers: { additionalHandling: false, largePackage: false, declaredValue: false },
};

function formOf(c: ExpressChannel): ChannelForm {
  const s = c.surcharges;
  return {
    productId: c.productId,
    code: c.code,
    name: c.name,
    nameEn: c.nameEn,
    carrier: c.carrier,
    service: c.service,
    scope: c.scope,
    unitSystem: c.unitSystem,
    currency: c.currency,
    dimDivisor: c.dimDivisor,
    transitDaysMin: c.transitDaysMin,
    transitDaysMax: c.transitDaysMax,
    maxWeight: c.maxWeight,
    maxLength: c.maxLength,
    maxLengthGirth: c.maxLengthGirth,
    enabled: c.enabled,
    organisationIds: c.organisationIds,
    carrierAccountId: c.carrierAccountId,
    carrierService: c.carrierService,
    carrierLabelFormat: c.carrierLabelFormat,
    surcharges: {
      fuelPercent: s.fuelPercent,
      residential: s.residential,
      signature: s.signature,
      additionalHandling: s.additionalHandling ?? {},
      largePackage: s.largePackage ?? {},
      declaredValue: s.declaredValue ?? { minimum: '0' },
    },
    offers: {
      additionalHandling: s.additionalHandling !== null,
      largePackage: s.largePackage !== null,
      declaredValue: s.declaredValue !== null,
    },
  };
}

/** The save body out of validated values: a surcharge switched off is sent as none. */
function bodyOf(v: ChannelForm, id: number | undefined): ChannelInput {
  const { offers, surcharges, ...channel } = v;
  const s = surcharges;
  return {
    ...channel,
    id,
    // A code typed for an account no longer chosen is not kept.
    carrierService: channel.carrierAccountId ? channel.carrierService : '',
    carrierLabelFormat: channel.carrierAccountId ? channel.carrierLabelFormat : 'pdf',
    surcharges: {
      fuelPercent: s.fuelPercent,
      residential: s.residential,
      signature: s.signature,
      additionalHandling: offers.additionalHandling
        ? (s.additionalHandling as NonNullable<ChannelInput['surcharges']>['additionalHandling'])
        : null,
      largePackage: offers.largePackage
        ? (s.largePackage as NonNullable<ChannelInput['surcharges']>['largePackage'])
        : null,
      declaredValue: offers.declaredValue
        ? {
            free: s.declaredValue.free ?? '',
            per100: s.declaredValue.per100 ?? '',
            minimum: s.declaredValue.minimum || '0',
          }
        : null,
    },
  };
}

/**
 * Create or edit an express channel: the carrier's service behind a product, its units and limits, its
 * surcharges and who may use it. Zone chart, prices and delivery areas have pages of their own.
 */
export function ChannelDialog({
  editing,
  defaultProductId,
  onClose,
  onSaved,
}: {
  editing: ExpressChannel | 'new';
  /** The product the channel list is filtered by: a new channel most likely belongs to it. */
  defaultProductId?: number;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t, i18n } = useTranslation();
  const en = i18n.language === 'en-US';
  const { message } = App.useApp();
  const reportError = useReportError();
  const [form] = Form.useForm<ChannelForm>();
  const products = useQuery({ queryKey: [ALL_PRODUCTS_KEY], queryFn: productApi.all });
  const unitSystem: UnitSystem = Form.useWatch('unitSystem', form) ?? 'lb_in';
  const currency = Form.useWatch('currency', form) ?? 'USD';
  const offers = Form.useWatch('offers', form);
  const units = UNITS[unitSystem];

  const save = useMutation({
    mutationFn: channelApi.save,
    onSuccess: () => {
      message.success(t('common.saved'));
      onSaved();
    },
    onError: (error) => reportError(error, form),
  });

  const submit = () =>
    form.validateFields().then(
      // Values of a switched-off section stay in the store (switching it back on restores them) and
      // are dropped here; `true` reads every value, not only the fields on screen.
      () => save.mutate(bodyOf(form.getFieldsValue(true), editing === 'new' ? undefined : editing.id)),
      () => undefined,
    );

  const L = {
    product: t('expressChannels.product'),
    code: t('expressChannels.code'),
    name: t('expressChannels.nameZh'),
    nameEn: t('expressChannels.nameEn'),
    carrier: t('expressChannels.carrier'),
    service: t('expressChannels.service'),
    scope: t('expressChannels.scope'),
    unitSystem: t('expressChannels.unitSystem'),
    currency: t('expressChannels.currency'),
    dimDivisor: t('expressChannels.dimDivisor'),
    transitDaysMin: t('expressChannels.transitDaysMin'),
    transitDaysMax: t('expressChannels.transitDaysMax'),
    maxWeight: t('expressChannels.maxWeight'),
    maxLength: t('expressChannels.maxLength'),
    maxLengthGirth: t('expressChannels.maxLengthGirth'),
    fuelPercent: t('expressChannels.fuelPercent'),
    residential: t('expressChannels.residential'),
    signature: t('expressChannels.signature'),
    fee: t('expressChannels.fee'),
    longest: t('expressChannels.longest'),
    secondLongest: t('expressChannels.secondLongest'),
    handlingWeight: t('expressChannels.handlingWeight'),
    lengthGirth: t('expressChannels.lengthGirth'),
    minBillable: t('expressChannels.minBillable'),
    free: t('expressChannels.declaredFree'),
    per100: t('expressChannels.declaredPer100'),
    minimum: t('expressChannels.declaredMinimum'),
  };

  /** A length or weight in the channel's units: required, above 0, at most what the API takes. */
  const measure = (
    label: string,
    max: number,
    unit: string,
    name: (string | number)[],
    more: { rules?: FormRule[]; dependencies?: (string | number)[][]; extra?: ReactNode } = {},
  ) => (
    <Form.Item
      name={name}
      label={label}
      extra={more.extra}
      dependencies={more.dependencies}
      rules={[
        requiredRule(label),
        {
          validator: async (_, value: number | null | undefined) => {
            if (typeof value !== 'number') return;
            if (value <= 0) throw new Error(t('validation.min', { field: label, min: 0.01 }));
            if (value > max) throw new Error(t('validation.max', { field: label, max }));
          },
        },
        ...(more.rules ?? []),
      ]}
    >
      <InputNumber min={0.01} max={max} precision={2} suffix={unit} style={{ width: '100%' }} />
    </Form.Item>
  );
  const amount = (label: string, name: (string | number)[], extra?: ReactNode) => (
    <Form.Item
      name={name}
      label={label}
      extra={extra}
      rules={[requiredRule(label), schemaRule(moneyField, label)]}
    >
      <AmountInput suffix={currency} />
    </Form.Item>
  );
  /** An optional surcharge: a switch, and its fields while it is on. */
  const section = (key: Section, title: string, tip: string, fields: ReactNode) => (
    <div data-testid={`channel-section-${key}`}>
      <Space align="center" style={{ marginBottom: 8 }}>
        <Form.Item name={['offers', key]} valuePropName="checked" noStyle>
          <Switch size="small" aria-label={title} data-testid={`channel-offers-${key}`} />
        </Form.Item>
        <Typography.Text strong>{title}</Typography.Text>
      </Space>
      <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
        {tip}
      </Typography.Paragraph>
      {offers?.[key] ? <Row gutter={12}>{fields}</Row> : null}
    </div>
  );

  return (
    <Modal
      open
      width={900}
      title={editing === 'new' ? t('expressChannels.new') : `${t('expressChannels.edit')} · ${editing.code}`}
      onCancel={onClose}
      onOk={() => void submit()}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      confirmLoading={save.isPending}
      okButtonProps={{ 'data-testid': 'express-channel-save' } as never}
      destroyOnHidden
    >
      <Form
        form={form}
        layout="vertical"
        initialValues={editing === 'new' ? { ...NEW_CHANNEL, productId: defaultProductId } : formOf(editing)}
        data-testid="express-channel-form"
      >
        {editing === 'new' ? null : (
          <Alert
            type="info"
            showIcon
            style={{ marginBottom: 16 }}
            title={
              <Space wrap size={[16, 4]}>
                <Link to={zoneChartPath(editing.id)} onClick={onClose}>
                  {t('expressChannels.zoneRowsCount', { count: editing.zoneRows })}
                </Link>
                <Link to={channelPricePath(editing.id)} onClick={onClose}>
                  {t('expressChannels.priceZonesCount', { count: editing.priceZones })}
                </Link>
                <span>
                  {t('expressChannels.deliveryAreasCount', {
                    count: editing.surcharges.deliveryAreas.length,
                  })}
                </span>
              </Space>
            }
          />
        )}
        <Divider titlePlacement="start" style={{ marginTop: 0 }}>
          {t('expressChannels.basics')}
        </Divider>
        <Row gutter={16}>
          <Col xs={24} sm={12}>
            <Form.Item name="productId" label={L.product} rules={[requiredRule(L.product)]}>
              <Select
                showSearch={{ optionFilterProp: 'label' }}
                loading={products.isLoading}
                options={(products.data?.list ?? []).map((p) => ({
                  value: p.id,
                  label: `${p.code} · ${en ? p.nameEn : p.name}${p.enabled ? '' : ` (${t('common.disabled')})`}`,
                }))}
                data-testid="express-channel-product"
              />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item
              name="code"
              label={L.code}
              extra={t('expressChannels.codeTip')}
              rules={[requiredRule(L.code), schemaRule(shape.code, L.code)]}
            >
              <Input maxLength={40} data-testid="express-channel-code" />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item
              name="name"
              label={L.name}
              rules={[requiredRule(L.name), schemaRule(shape.name, L.name)]}
            >
              <Input maxLength={100} data-testid="express-channel-name" />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item
              name="nameEn"
              label={L.nameEn}
              rules={[requiredRule(L.nameEn), schemaRule(shape.nameEn, L.nameEn)]}
            >
              <Input maxLength={100} data-testid="express-channel-name-en" />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item
              name="carrier"
              label={L.carrier}
              extra={t('expressChannels.carrierTip')}
              rules={[requiredRule(L.carrier), schemaRule(shape.carrier, L.carrier)]}
            >
              <Input maxLength={100} data-testid="express-channel-carrier" />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item
              name="service"
              label={L.service}
              extra={t('expressChannels.serviceTip')}
              rules={[requiredRule(L.service), schemaRule(shape.service, L.service)]}
            >
              <Input maxLength={60} data-testid="express-channel-service" />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item
              name="scope"
              label={L.scope}
              extra={t('expressChannels.scopeTip')}
              rules={[requiredRule(L.scope)]}
            >
              <Radio.Group
                optionType="button"
                buttonStyle="solid"
                options={EXPRESS_SCOPES.map((s) => ({ value: s, label: t(`expressChannels.scope.${s}`) }))}
              />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item name="enabled" label={t('common.status')} valuePropName="checked">
              <Switch checkedChildren={t('common.enabled')} unCheckedChildren={t('common.disabled')} />
            </Form.Item>
          </Col>
        </Row>

        <Divider titlePlacement="start">{t('expressChannels.pricing')}</Divider>
        <PricedByFields saved={editing === 'new' ? null : editing} />

        <Divider titlePlacement="start">{t('expressChannels.unitsAndLimits')}</Divider>
        <Row gutter={16}>
          <Col xs={24} sm={12}>
            <Form.Item
              name="unitSystem"
              label={L.unitSystem}
              extra={t('expressChannels.unitSystemTip')}
              rules={[requiredRule(L.unitSystem)]}
            >
              <Radio.Group
                options={UNIT_SYSTEMS.map((u) => ({ value: u, label: t(`expressChannels.unit.${u}`) }))}
                data-testid="express-channel-units"
              />
            </Form.Item>
          </Col>
          <Col xs={12} sm={6}>
            <Form.Item name="currency" label={L.currency} rules={[requiredRule(L.currency)]}>
              <Select options={EXPRESS_CURRENCIES.map((c) => ({ value: c, label: c }))} />
            </Form.Item>
          </Col>
          <Col xs={12} sm={6}>
            <Form.Item
              name="dimDivisor"
              label={L.dimDivisor}
              extra={t('expressChannels.dimDivisorTip', { volume: units.volume, weight: units.weight })}
              rules={[requiredRule(L.dimDivisor), schemaRule(shape.dimDivisor, L.dimDivisor)]}
            >
              <InputNumber
                min={0}
                max={100_000}
                precision={0}
                style={{ width: '100%' }}
                data-testid="express-channel-divisor"
              />
            </Form.Item>
          </Col>
          <Col xs={12} sm={6}>
            <Form.Item
              name="transitDaysMin"
              label={L.transitDaysMin}
              rules={[requiredRule(L.transitDaysMin), schemaRule(shape.transitDaysMin, L.transitDaysMin)]}
            >
              <InputNumber min={0} max={60} precision={0} style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col xs={12} sm={6}>
            <Form.Item
              name="transitDaysMax"
              label={L.transitDaysMax}
              dependencies={['transitDaysMin']}
              rules={[
                requiredRule(L.transitDaysMax),
                schemaRule(shape.transitDaysMax, L.transitDaysMax),
                ({ getFieldValue }) => ({
                  validator: async (_, value: number | null) => {
                    const min = getFieldValue('transitDaysMin') as number | null;
                    if (typeof value === 'number' && typeof min === 'number' && value < min)
                      throw new Error(t('express.transitOrder'));
                  },
                }),
              ]}
            >
              <InputNumber min={0} max={60} precision={0} style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col xs={12} sm={6}>
            {measure(L.maxWeight, 10_000, units.weight, ['maxWeight'])}
          </Col>
          <Col xs={12} sm={6}>
            {measure(L.maxLength, 1_000, units.length, ['maxLength'])}
          </Col>
          <Col xs={24} sm={12}>
            {measure(L.maxLengthGirth, 2_000, units.length, ['maxLengthGirth'], {
              extra: t('expressChannels.girthTip'),
              dependencies: [['maxLength']],
              rules: [
                ({ getFieldValue }) => ({
                  validator: async (_, value: number | null) => {
                    const length = getFieldValue('maxLength') as number | null;
                    if (typeof value === 'number' && typeof length === 'number' && value < length)
                      throw new Error(t('express.girthUnderLength'));
                  },
                }),
              ],
            })}
          </Col>
        </Row>

        <Divider titlePlacement="start">{t('expressChannels.surcharges')}</Divider>
        <Row gutter={16}>
          <Col xs={24} sm={8}>
            <Form.Item
              name={['surcharges', 'fuelPercent']}
              label={L.fuelPercent}
              extra={t('expressChannels.fuelTip')}
              rules={[
                requiredRule(L.fuelPercent),
                schemaRule(surchargeTermsBody.shape.fuelPercent, L.fuelPercent),
              ]}
            >
              <AmountInput suffix="%" />
            </Form.Item>
          </Col>
          <Col xs={12} sm={8}>
            {amount(L.residential, ['surcharges', 'residential'], t('expressChannels.zeroTip'))}
          </Col>
          <Col xs={12} sm={8}>
            {amount(L.signature, ['surcharges', 'signature'], t('expressChannels.zeroTip'))}
          </Col>
        </Row>
        {section(
          'additionalHandling',
          t('expressChannels.additionalHandling'),
          t('expressChannels.additionalHandlingTip'),
          <>
            <Col xs={12} sm={6}>
              {amount(L.fee, ['surcharges', 'additionalHandling', 'fee'])}
            </Col>
            <Col xs={12} sm={6}>
              {measure(L.longest, 1_000, units.length, ['surcharges', 'additionalHandling', 'longest'])}
            </Col>
            <Col xs={12} sm={6}>
              {measure(L.secondLongest, 1_000, units.length, [
                'surcharges',
                'additionalHandling',
                'secondLongest',
              ])}
            </Col>
            <Col xs={12} sm={6}>
              {measure(L.handlingWeight, 10_000, units.weight, [
                'surcharges',
                'additionalHandling',
                'weight',
              ])}
            </Col>
          </>,
        )}
        {section(
          'largePackage',
          t('expressChannels.largePackage'),
          t('expressChannels.largePackageTip'),
          <>
            <Col xs={12} sm={6}>
              {amount(L.fee, ['surcharges', 'largePackage', 'fee'])}
            </Col>
            <Col xs={12} sm={6}>
              {measure(L.longest, 1_000, units.length, ['surcharges', 'largePackage', 'longest'])}
            </Col>
            <Col xs={12} sm={6}>
              {measure(L.lengthGirth, 2_000, units.length, ['surcharges', 'largePackage', 'lengthGirth'])}
            </Col>
            <Col xs={12} sm={6}>
              {measure(L.minBillable, 10_000, units.weight, ['surcharges', 'largePackage', 'minBillable'])}
            </Col>
          </>,
        )}
        {section(
          'declaredValue',
          t('expressChannels.declaredValue'),
          t('expressChannels.declaredValueTip'),
          <>
            <Col xs={24} sm={8}>
              {amount(L.free, ['surcharges', 'declaredValue', 'free'])}
            </Col>
            <Col xs={12} sm={8}>
              {amount(L.per100, ['surcharges', 'declaredValue', 'per100'])}
            </Col>
            <Col xs={12} sm={8}>
              {amount(L.minimum, ['surcharges', 'declaredValue', 'minimum'])}
            </Col>
          </>,
        )}
        <Typography.Paragraph type="secondary">{t('expressChannels.deliveryAreaTip')}</Typography.Paragraph>

        <Divider titlePlacement="start">{t('expressChannels.availability')}</Divider>
        <Form.Item
          name="organisationIds"
          label={t('expressChannels.organisations')}
          extra={t('expressChannels.organisationsTip')}
        >
          <OrganisationPicker
            line="express"
            placeholder={t('expressProducts.everyone')}
            testId="express-channel-organisations"
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
