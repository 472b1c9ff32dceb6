import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { DEFAULT_DIAL_CODE } from '@freight/contracts/countries';
import { ACCESSORIALS, classForDensity, densityOf, FREIGHT_CLASSES } from '@freight/contracts/truck-rating';
import type { Shipment } from '@freight/contracts/truck-shipment';
import { ADDRESS_TYPES, PALLET_TYPES } from '@freight/contracts/truck-shipment';
import { emailField, zipField } from '@freight/contracts/validation';
import { useQuery } from '@tanstack/react-query';
import {
  Button,
  Card,
  Checkbox,
  Col,
  DatePicker,
  Form,
  type FormInstance,
  Input,
  InputNumber,
  Radio,
  Row,
  Select,
  Space,
  Switch,
  Typography,
} from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { AmountInput } from '../../components/AmountInput.tsx';
import { fieldRule, requiredRule } from '../../lib/form-rules.ts';
import { addressApi } from '../addresses/api.ts';
import { AddressPicker } from '../addresses/public.tsx';

/** The form's own shape: the shipment, with dates as pickers hold them. */
export type ShipmentFormValues = Omit<Shipment, 'quoteDate' | 'deliveryDate'> & {
  organisationId?: number;
  quoteDate: Dayjs;
  deliveryDate?: Dayjs | null;
};

export const emptyAddress = {
  country: 'US',
  dialCode: DEFAULT_DIAL_CODE,
  windowStart: '09:00',
  windowEnd: '17:00',
  addressType: 'business',
  address2: '',
  email: '',
  fbaCode: '',
  saveToBook: false,
};

export const emptyLine = {
  quantity: 1,
  unit: 'pcs',
  palletCount: 1,
  palletType: 'pallet',
  goodsValue: '0',
  stackable: true,
  dangerous: null,
  sku: '',
  nmfc: '',
};

export const initialShipment = (): Partial<ShipmentFormValues> => ({
  mode: 'LTL',
  quoteDate: dayjs(),
  pickup: { ...emptyAddress } as ShipmentFormValues['pickup'],
  delivery: { ...emptyAddress } as ShipmentFormValues['delivery'],
  lines: [{ ...emptyLine } as ShipmentFormValues['lines'][number]],
  accessorials: [],
  insurance: { included: false, insuredValue: '' },
});

/** The API's shipment from the form's values. */
export function toShipment(values: ShipmentFormValues): Shipment & { organisationId?: number } {
  const { quoteDate, deliveryDate, insurance, ...rest } = values;
  return {
    ...rest,
    quoteDate: quoteDate.format('YYYY-MM-DD'),
    deliveryDate: deliveryDate ? deliveryDate.format('YYYY-MM-DD') : '',
    insurance: { included: Boolean(insurance?.included), insuredValue: insurance?.insuredValue || '0' },
    lines: rest.lines.map((l) => ({ ...l, goodsValue: l.goodsValue || '0', dangerous: l.dangerous ?? null })),
  };
}

/** Back from a saved quote to the form. */
export function fromShipment(shipment: Shipment, organisationId?: number): ShipmentFormValues {
  return {
    ...shipment,
    organisationId,
    quoteDate: dayjs(shipment.quoteDate),
    deliveryDate: shipment.deliveryDate ? dayjs(shipment.deliveryDate) : null,
  };
}

const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;

/** The address fields of the quote form from an address-book entry. */
export function pickAddress(entry: Record<string, unknown>) {
  const keys = [
    'name',
    'address1',
    'address2',
    'zipcode',
    'city',
    'state',
    'country',
    'contact',
    'dialCode',
    'phone',
    'email',
    'windowStart',
    'windowEnd',
    'addressType',
    'fbaCode',
  ];
  return Object.fromEntries(
    keys.filter((k) => entry[k] !== undefined && entry[k] !== null).map((k) => [k, entry[k]]),
  );
}

function AddressCard({
  name,
  title,
  form,
  organisationId,
  onPicked,
}: {
  name: 'pickup' | 'delivery';
  title: string;
  form: FormInstance;
  organisationId?: number;
  onPicked: () => void;
}) {
  const { t } = useTranslation();
  const type = Form.useWatch([name, 'addressType'], form);
  const fba = useQuery({
    queryKey: ['fba-warehouses'],
    queryFn: () => addressApi.fbaWarehouses(),
    enabled: type === 'fba',
  });
  // Five digits typed: fill the city and state the ZIP code belongs to.
  const lookup = async (zipcode: string) => {
    if (!/^\d{5}$/.test(zipcode)) return;
    try {
      const [first] = await addressApi.placesOfZip(zipcode);
      if (first)
        form.setFieldValue(name, { ...form.getFieldValue(name), city: first.city, state: first.state });
    } catch {
      // An unknown ZIP code is for the user to fill in by hand.
    }
  };
  return (
    <Card
      size="small"
      title={title}
      data-testid={`quote-${name}`}
      extra={
        <AddressPicker
          organisationId={organisationId}
          buttonProps={{ size: 'small', 'data-testid': `${name}-from-book` } as never}
          onPick={(entry) => {
            form.setFieldValue(name, {
              ...emptyAddress,
              ...pickAddress(entry as unknown as Record<string, unknown>),
            });
            onPicked();
          }}
        >
          {t('quote.fromBook')}
        </AddressPicker>
      }
    >
      <Row gutter={12}>
        <Col xs={24} md={12}>
          <Form.Item
            name={[name, 'name']}
            label={t('quote.addressName')}
            rules={[requiredRule(t('quote.addressName'))]}
          >
            <Input maxLength={100} data-testid={`${name}-name`} />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name={[name, 'addressType']} label={t('quote.addressType')}>
            <Select options={ADDRESS_TYPES.map((v) => ({ value: v, label: t(`addressType.${v}`) }))} />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item
            name={[name, 'address1']}
            label={t('quote.address1')}
            rules={[requiredRule(t('quote.address1'))]}
          >
            <Input maxLength={200} data-testid={`${name}-address1`} />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name={[name, 'address2']} label={t('quote.address2')}>
            <Input maxLength={200} />
          </Form.Item>
        </Col>
        <Col xs={12} md={6}>
          <Form.Item
            name={[name, 'zipcode']}
            label={t('quote.zipcode')}
            rules={[requiredRule(t('quote.zipcode')), fieldRule(zipField, 'zipcode')]}
          >
            <Input
              maxLength={5}
              inputMode="numeric"
              onChange={(e) => void lookup(e.target.value)}
              data-testid={`${name}-zip`}
            />
          </Form.Item>
        </Col>
        <Col xs={12} md={8}>
          <Form.Item name={[name, 'city']} label={t('quote.city')} rules={[requiredRule(t('quote.city'))]}>
            <Input maxLength={100} data-testid={`${name}-city`} />
          </Form.Item>
        </Col>
        <Col xs={12} md={5}>
          <Form.Item name={[name, 'state']} label={t('quote.state')} rules={[requiredRule(t('quote.state'))]}>
            <Input maxLength={2} data-testid={`${name}-state`} />
          </Form.Item>
        </Col>
        <Col xs={12} md={5}>
          <Form.Item name={[name, 'country']} label={t('quote.country')}>
            <Input disabled />
          </Form.Item>
        </Col>
        <Col xs={24} md={8}>
          <Form.Item
            name={[name, 'contact']}
            label={t('quote.contact')}
            rules={[requiredRule(t('quote.contact'))]}
          >
            <Input maxLength={100} data-testid={`${name}-contact`} />
          </Form.Item>
        </Col>
        <Col xs={24} md={8}>
          <Form.Item label={t('quote.phone')} required>
            <Space.Compact style={{ width: '100%' }}>
              <Form.Item name={[name, 'dialCode']} noStyle>
                <Input style={{ width: 64 }} prefix="+" maxLength={4} />
              </Form.Item>
              <Form.Item
                name={[name, 'phone']}
                noStyle
                rules={[
                  requiredRule(t('quote.phone')),
                  {
                    pattern: /^\d{7,15}$/,
                    message: t('validation.phoneDigits', { field: t('quote.phone') }),
                  },
                ]}
              >
                <Input maxLength={15} inputMode="tel" data-testid={`${name}-phone`} />
              </Form.Item>
            </Space.Compact>
          </Form.Item>
        </Col>
        <Col xs={24} md={8}>
          <Form.Item name={[name, 'email']} label={t('quote.email')} rules={[fieldRule(emailField, 'email')]}>
            <Input maxLength={254} />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item label={t('quote.window')}>
            <Space.Compact>
              <Form.Item
                name={[name, 'windowStart']}
                noStyle
                rules={[{ pattern: TIME, message: t('validation.time', { field: t('quote.window') }) }]}
              >
                <Input style={{ width: 90 }} placeholder="09:00" />
              </Form.Item>
              <Input style={{ width: 36, pointerEvents: 'none' }} placeholder="–" disabled />
              <Form.Item
                name={[name, 'windowEnd']}
                noStyle
                rules={[{ pattern: TIME, message: t('validation.time', { field: t('quote.window') }) }]}
              >
                <Input style={{ width: 90 }} placeholder="17:00" />
              </Form.Item>
            </Space.Compact>
          </Form.Item>
        </Col>
        {type === 'fba' ? (
          <Col xs={24} md={12}>
            <Form.Item name={[name, 'fbaCode']} label={t('quote.fbaCode')}>
              <Select
                showSearch={{ optionFilterProp: 'label' }}
                options={(fba.data ?? []).map((w) => ({
                  value: w.code,
                  label: `${w.code} · ${w.city}, ${w.state}`,
                }))}
                onChange={(code: string) => {
                  // Choosing a warehouse fills its address; the contact stays the shipper's to give.
                  const w = fba.data?.find((x) => x.code === code);
                  if (w)
                    form.setFieldValue(name, {
                      ...form.getFieldValue(name),
                      name: `Amazon ${w.code}`,
                      address1: w.address1,
                      zipcode: w.zipcode,
                      city: w.city,
                      state: w.state,
                      fbaCode: w.code,
                    });
                }}
                data-testid={`${name}-fba`}
              />
            </Form.Item>
          </Col>
        ) : null}
        <Col xs={24} md={6}>
          <Form.Item name={[name, 'saveToBook']} valuePropName="checked" label=" " colon={false}>
            <Checkbox>{t('quote.saveToBook')}</Checkbox>
          </Form.Item>
        </Col>
      </Row>
    </Card>
  );
}

function SuggestedClass({ form, index }: { form: FormInstance; index: number }) {
  const { t } = useTranslation();
  const line = Form.useWatch(['lines', index], form) as Shipment['lines'][number] | undefined;
  if (!line?.length || !line.width || !line.height || !line.totalWeight || !line.palletCount) return null;
  const density = densityOf({ ...line, quantity: line.palletCount });
  return (
    <Typography.Text type="secondary" data-testid={`line-${index}-suggested`}>
      {t('quote.suggested', { density: density.toFixed(2), cls: classForDensity(density) })}
    </Typography.Text>
  );
}

function GoodsLines({ form }: { form: FormInstance }) {
  const { t } = useTranslation();
  return (
    <Form.List name="lines">
      {(fields, { add, remove }) => (
        <Space orientation="vertical" style={{ width: '100%' }}>
          {fields.map((field, index) => (
            <Card
              key={field.key}
              size="small"
              type="inner"
              title={t('quote.line', { n: index + 1 })}
              extra={
                fields.length > 1 ? (
                  <Button type="text" danger icon={<DeleteOutlined />} onClick={() => remove(field.name)} />
                ) : null
              }
            >
              <Row gutter={12}>
                <Col xs={24} md={8}>
                  <Form.Item
                    name={[field.name, 'name']}
                    label={t('quote.goodsName')}
                    rules={[requiredRule(t('quote.goodsName'))]}
                  >
                    <Input maxLength={100} data-testid={`line-${index}-name`} />
                  </Form.Item>
                </Col>
                <Col xs={12} md={4}>
                  <Form.Item name={[field.name, 'sku']} label={t('quote.sku')}>
                    <Input maxLength={60} />
                  </Form.Item>
                </Col>
                <Col xs={12} md={4}>
                  <Form.Item
                    name={[field.name, 'quantity']}
                    label={t('quote.quantity')}
                    rules={[requiredRule(t('quote.quantity'))]}
                  >
                    <InputNumber min={1} max={100000} precision={0} style={{ width: '100%' }} />
                  </Form.Item>
                </Col>
                <Col xs={12} md={4}>
                  <Form.Item name={[field.name, 'unit']} label={t('quote.unit')}>
                    <Input maxLength={20} />
                  </Form.Item>
                </Col>
                <Col xs={12} md={4}>
                  <Form.Item name={[field.name, 'goodsValue']} label={t('quote.goodsValue')}>
                    <AmountInput />
                  </Form.Item>
                </Col>
                <Col xs={12} md={4}>
                  <Form.Item
                    name={[field.name, 'palletCount']}
                    label={t('quote.palletCount')}
                    rules={[requiredRule(t('quote.palletCount'))]}
                  >
                    <InputNumber
                      min={1}
                      max={1000}
                      precision={0}
                      style={{ width: '100%' }}
                      data-testid={`line-${index}-pallets`}
                    />
                  </Form.Item>
                </Col>
                <Col xs={12} md={4}>
                  <Form.Item name={[field.name, 'palletType']} label={t('quote.palletType')}>
                    <Select options={PALLET_TYPES.map((v) => ({ value: v, label: t(`palletType.${v}`) }))} />
                  </Form.Item>
                </Col>
                {(['length', 'width', 'height'] as const).map((d) => (
                  <Col xs={8} md={4} key={d}>
                    <Form.Item
                      name={[field.name, d]}
                      label={t(`quote.${d}`)}
                      rules={[requiredRule(t(`quote.${d}`))]}
                    >
                      <InputNumber
                        min={1}
                        max={1000}
                        style={{ width: '100%' }}
                        data-testid={`line-${index}-${d}`}
                      />
                    </Form.Item>
                  </Col>
                ))}
                <Col xs={12} md={4}>
                  <Form.Item
                    name={[field.name, 'totalWeight']}
                    label={t('quote.totalWeight')}
                    rules={[requiredRule(t('quote.totalWeight'))]}
                  >
                    <InputNumber
                      min={1}
                      max={100000}
                      style={{ width: '100%' }}
                      data-testid={`line-${index}-weight`}
                    />
                  </Form.Item>
                </Col>
                <Col xs={12} md={4}>
                  <Form.Item
                    name={[field.name, 'freightClass']}
                    label={t('quote.freightClass')}
                    // The placeholder stays one short word, whole in the narrow select; the rule is here.
                    tooltip={t('quote.classAutoTip')}
                  >
                    <Select
                      allowClear
                      placeholder={t('quote.classAuto')}
                      options={FREIGHT_CLASSES.map((c) => ({ value: c, label: c }))}
                      data-testid={`line-${index}-class`}
                    />
                  </Form.Item>
                </Col>
                <Col xs={12} md={4}>
                  <Form.Item name={[field.name, 'nmfc']} label={t('quote.nmfc')}>
                    <Input maxLength={20} />
                  </Form.Item>
                </Col>
                <Col xs={12} md={4}>
                  <Form.Item
                    name={[field.name, 'stackable']}
                    label={t('quote.stackable')}
                    valuePropName="checked"
                  >
                    <Switch />
                  </Form.Item>
                </Col>
                <Col xs={24}>
                  <SuggestedClass form={form} index={index} />
                </Col>
                <Col xs={24}>
                  <DangerousGoods form={form} name={field.name} />
                </Col>
              </Row>
            </Card>
          ))}
          <Button icon={<PlusOutlined />} onClick={() => add({ ...emptyLine })} block type="dashed">
            {t('quote.addLine')}
          </Button>
        </Space>
      )}
    </Form.List>
  );
}

function DangerousGoods({ form, name }: { form: FormInstance; name: number }) {
  const { t } = useTranslation();
  const value = Form.useWatch(['lines', name, 'dangerous'], form);
  return (
    <>
      <Checkbox
        checked={Boolean(value)}
        onChange={(e) =>
          form.setFieldValue(
            ['lines', name, 'dangerous'],
            e.target.checked
              ? {
                  unNumber: '',
                  hazardClass: '',
                  quantity: 1,
                  toxic: false,
                  emergencyContact: '',
                  emergencyPhone: '',
                }
              : null,
          )
        }
      >
        {t('quote.dangerous')}
      </Checkbox>
      {value ? (
        <Row gutter={12} style={{ marginTop: 8 }}>
          <Col xs={12} md={4}>
            <Form.Item
              name={[name, 'dangerous', 'unNumber']}
              label={t('quote.unNumber')}
              rules={[
                requiredRule(t('quote.unNumber')),
                { pattern: /^UN\d{4}$/i, message: t('validation.unNumber', { field: t('quote.unNumber') }) },
              ]}
            >
              <Input placeholder="UN1263" maxLength={6} />
            </Form.Item>
          </Col>
          <Col xs={12} md={4}>
            <Form.Item
              name={[name, 'dangerous', 'hazardClass']}
              label={t('quote.hazardClass')}
              rules={[requiredRule(t('quote.hazardClass'))]}
            >
              <Input maxLength={10} />
            </Form.Item>
          </Col>
          <Col xs={12} md={4}>
            <Form.Item
              name={[name, 'dangerous', 'quantity']}
              label={t('quote.hazardQuantity')}
              rules={[requiredRule(t('quote.hazardQuantity'))]}
            >
              <InputNumber min={1} max={100000} style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col xs={12} md={2}>
            <Form.Item name={[name, 'dangerous', 'toxic']} label={t('quote.toxic')} valuePropName="checked">
              <Switch />
            </Form.Item>
          </Col>
          <Col xs={12} md={5}>
            <Form.Item
              name={[name, 'dangerous', 'emergencyContact']}
              label={t('quote.emergencyContact')}
              rules={[requiredRule(t('quote.emergencyContact'))]}
            >
              <Input maxLength={100} />
            </Form.Item>
          </Col>
          <Col xs={12} md={5}>
            <Form.Item
              name={[name, 'dangerous', 'emergencyPhone']}
              label={t('quote.emergencyPhone')}
              rules={[
                requiredRule(t('quote.emergencyPhone')),
                {
                  pattern: /^\d{7,15}$/,
                  message: t('validation.phoneDigits', { field: t('quote.emergencyPhone') }),
                },
              ]}
            >
              <Input maxLength={15} />
            </Form.Item>
          </Col>
        </Row>
      ) : null}
    </>
  );
}

/** The whole quote form of SPEC section 3: addresses, goods, services, insurance and dates. */
export function ShipmentForm({
  form,
  customers,
  onValuesChange,
  onFinish,
  footer,
}: {
  form: FormInstance<ShipmentFormValues>;
  customers: { id: number; name: string }[] | null;
  onValuesChange: () => void;
  onFinish: (values: ShipmentFormValues) => void;
  footer: React.ReactNode;
}) {
  const { t } = useTranslation();
  const insured = Form.useWatch(['insurance', 'included'], form);
  const organisationId = Form.useWatch('organisationId', form) as number | undefined;
  return (
    <Form
      form={form}
      layout="vertical"
      initialValues={initialShipment()}
      onValuesChange={onValuesChange}
      onFinish={onFinish}
      scrollToFirstError
      data-testid="quote-form"
    >
      <Space orientation="vertical" style={{ width: '100%' }} size={12}>
        <Card size="small">
          <Row gutter={12}>
            {customers ? (
              <Col xs={24} md={8}>
                <Form.Item
                  name="organisationId"
                  label={t('quote.customer')}
                  tooltip={t('quote.customerTip')}
                  rules={[requiredRule(t('quote.customer'))]}
                >
                  <Select
                    showSearch={{ optionFilterProp: 'label' }}
                    options={customers.map((c) => ({ value: c.id, label: c.name }))}
                    data-testid="quote-customer"
                  />
                </Form.Item>
              </Col>
            ) : null}
            <Col xs={24} md={customers ? 6 : 8}>
              <Form.Item name="mode" label={t('quote.mode')}>
                <Radio.Group
                  optionType="button"
                  options={['LTL', 'FTL'].map((m) => ({ value: m, label: m }))}
                />
              </Form.Item>
            </Col>
            <Col xs={12} md={customers ? 5 : 8}>
              <Form.Item name="quoteDate" label={t('quote.quoteDate')} rules={[{ required: true }]}>
                <DatePicker allowClear={false} style={{ width: '100%' }} />
              </Form.Item>
            </Col>
            <Col xs={12} md={customers ? 5 : 8}>
              <Form.Item name="deliveryDate" label={t('quote.deliveryDate')}>
                <DatePicker style={{ width: '100%' }} />
              </Form.Item>
            </Col>
          </Row>
          <Typography.Text type="secondary">{t('quote.englishTip')}</Typography.Text>
        </Card>
        <AddressCard
          name="pickup"
          title={t('quote.pickup')}
          form={form}
          organisationId={organisationId}
          onPicked={onValuesChange}
        />
        <AddressCard
          name="delivery"
          title={t('quote.delivery')}
          form={form}
          organisationId={organisationId}
          onPicked={onValuesChange}
        />
        <Card size="small" title={t('quote.goods')}>
          <GoodsLines form={form} />
        </Card>
        <Card size="small" title={t('quote.services')}>
          <Form.Item name="accessorials" noStyle>
            <Checkbox.Group
              options={ACCESSORIALS.map((a) => ({ value: a, label: t(`accessorial.${a}`) }))}
              data-testid="quote-services"
            />
          </Form.Item>
        </Card>
        <Card size="small" title={t('quote.insurance')}>
          <Row gutter={12} align="middle">
            <Col>
              <Form.Item name={['insurance', 'included']} valuePropName="checked" noStyle>
                <Switch data-testid="quote-insurance" />
              </Form.Item>{' '}
              {t('quote.buyInsurance')}
            </Col>
            {insured ? (
              <Col xs={24} md={10}>
                <Form.Item
                  name={['insurance', 'insuredValue']}
                  label={t('quote.insuredValue')}
                  extra={t('quote.insuredValueTip')}
                  style={{ marginBottom: 0 }}
                >
                  <AmountInput />
                </Form.Item>
              </Col>
            ) : null}
          </Row>
        </Card>
        {footer}
      </Space>
    </Form>
  );
}
