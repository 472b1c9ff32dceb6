import { DeleteOutlined, EnvironmentOutlined, PlusOutlined } from '@ant-design/icons';
import { PACKAGINGS } from '@freight/contracts/express-rating';
import { useQuery } from '@tanstack/react-query';
import {
  Alert,
  App,
  Button,
  Card,
  Checkbox,
  Col,
  DatePicker,
  Empty,
  Form,
  type FormInstance,
  Input,
  InputNumber,
  Radio,
  Row,
  Select,
  Space,
} from 'antd';
import dayjs from 'dayjs';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AmountInput } from '../../components/AmountInput.tsx';
import { useReportError } from '../../hooks/useReportError.ts';
import { requiredRule } from '../../lib/form-rules.ts';
import { ApiError } from '../../lib/http.ts';
import { type ExpressOptions, expressQuoteApi } from './api.ts';
import { CustomsFields } from './CustomsFields.tsx';
import {
  addressRule,
  DIAL_CODES,
  dialCodeOf,
  emptyParcel,
  fromAddressOption,
  fromFba,
  initialValues,
  type ParcelValues,
  parcelRule,
  type QuoteFormValues,
  referenceRule,
  SHIPPING_COUNTRIES,
  type Side,
  toAddress,
  toBody,
  unitsOf,
} from './shipment.ts';

/** The contract takes at most 50 parcel rows a quote. */
const MAX_PARCELS = 50;

/** Where the ship-from choices come from: the book of the customer the quote is for. */
function useShipFrom(organisationId: number | undefined, enabled: boolean) {
  return useQuery({
    queryKey: ['express-ship-from', organisationId ?? 'own'],
    queryFn: () => expressQuoteApi.shipFrom(organisationId),
    enabled,
  });
}

/** `address/check`: a US ZIP, city and state must agree; a mismatch is shown on the field at fault. */
function useAddressCheck(form: FormInstance<QuoteFormValues>, side: Side) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const reportError = useReportError();
  const [checking, setChecking] = useState(false);
  const check = async () => {
    try {
      await form.validateFields([
        [side, 'zipcode'],
        [side, 'city'],
        [side, 'state'],
        [side, 'country'],
      ]);
    } catch {
      return;
    }
    const { zipcode, city, state, country } = toAddress(form.getFieldValue(side));
    setChecking(true);
    try {
      const answer = await expressQuoteApi.checkAddress({ zipcode, city, state, country });
      if (!answer.confirmed) {
        message.info(t('expressQuote.checkNotConfirmed'));
        return;
      }
      // The lookup's spelling of the city and state is what carriers expect on the label.
      if (answer.city !== city) form.setFieldValue([side, 'city'], answer.city);
      if (answer.state !== state) form.setFieldValue([side, 'state'], answer.state);
      message.success(t('expressQuote.checkOk'));
    } catch (error) {
      if (error instanceof ApiError && error.fields.length > 0)
        form.setFields(
          error.fields.map((f) => ({ name: [side, ...f.field.split('.')] as never, errors: [f.message] })),
        );
      else reportError(error);
    } finally {
      setChecking(false);
    }
  };
  return { check, checking };
}

function AddressCard({
  side,
  title,
  form,
  picker,
}: {
  side: Side;
  title: string;
  form: FormInstance<QuoteFormValues>;
  picker: ReactNode;
}) {
  const { t, i18n } = useTranslation();
  const en = i18n.language === 'en-US';
  const country = Form.useWatch([side, 'country'], form);
  const us = (country ?? 'US') === 'US';
  const { check, checking } = useAddressCheck(form, side);
  const label = (key: string) => t(`expressQuote.${key}`);
  const rules = (key: Parameters<typeof addressRule>[1]) => [addressRule(side, key, label(key))];
  return (
    <Card size="small" title={title} extra={picker} data-testid={`quote-${side}`}>
      <Row gutter={12}>
        <Col xs={24} md={8}>
          <Form.Item name={[side, 'name']} label={label('name')} required rules={rules('name')}>
            <Input maxLength={100} data-testid={`${side}-name`} />
          </Form.Item>
        </Col>
        <Col xs={24} md={8}>
          <Form.Item name={[side, 'company']} label={label('company')} rules={rules('company')}>
            <Input maxLength={100} data-testid={`${side}-company`} />
          </Form.Item>
        </Col>
        <Col xs={24} md={8}>
          <Form.Item name={[side, 'email']} label={label('email')} rules={rules('email')}>
            <Input maxLength={254} inputMode="email" data-testid={`${side}-email`} />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name={[side, 'address1']} label={label('address1')} required rules={rules('address1')}>
            <Input maxLength={200} data-testid={`${side}-address1`} />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name={[side, 'address2']} label={label('address2')} rules={rules('address2')}>
            <Input maxLength={200} data-testid={`${side}-address2`} />
          </Form.Item>
        </Col>
        <Col xs={12} md={6}>
          <Form.Item name={[side, 'city']} label={label('city')} required rules={rules('city')}>
            <Input maxLength={100} data-testid={`${side}-city`} />
          </Form.Item>
        </Col>
        <Col xs={12} md={6}>
          <Form.Item
            name={[side, 'state']}
            label={label('state')}
            required={us}
            rules={rules('state')}
            dependencies={[[side, 'country']]}
          >
            <Input
              maxLength={us ? 2 : 60}
              placeholder={us ? 'CA' : undefined}
              data-testid={`${side}-state`}
            />
          </Form.Item>
        </Col>
        <Col xs={12} md={6}>
          <Form.Item
            name={[side, 'zipcode']}
            label={label('zipcode')}
            required
            rules={rules('zipcode')}
            dependencies={[[side, 'country']]}
          >
            <Input
              maxLength={us ? 10 : 12}
              inputMode={us ? 'numeric' : undefined}
              data-testid={`${side}-zipcode`}
            />
          </Form.Item>
        </Col>
        <Col xs={12} md={6}>
          <Form.Item name={[side, 'country']} label={label('country')} required rules={rules('country')}>
            <Select
              showSearch={{ optionFilterProp: 'label' }}
              options={SHIPPING_COUNTRIES.map((c) => ({
                value: c.short,
                label: `${en ? c.en : c.name} (${c.short})`,
              }))}
              onChange={(code: string) => {
                // The dial code follows the country; it stays editable for a number abroad.
                const tel = dialCodeOf(code);
                if (tel) form.setFieldValue([side, 'dialCode'], tel);
              }}
              data-testid={`${side}-country`}
            />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item label={label('phone')} required>
            <Space.Compact style={{ width: '100%' }}>
              <Form.Item name={[side, 'dialCode']} noStyle rules={rules('dialCode')}>
                <Select
                  style={{ width: 96 }}
                  showSearch
                  aria-label={label('dialCode')}
                  options={DIAL_CODES.map((tel) => ({ value: tel, label: `+${tel}` }))}
                  data-testid={`${side}-dial-code`}
                />
              </Form.Item>
              <Form.Item name={[side, 'phone']} noStyle rules={rules('phone')}>
                <Input
                  maxLength={20}
                  inputMode="tel"
                  aria-label={label('phone')}
                  data-testid={`${side}-phone`}
                />
              </Form.Item>
            </Space.Compact>
          </Form.Item>
        </Col>
        <Col xs={12} md={6}>
          <Form.Item name={[side, 'residential']} valuePropName="checked" label=" " colon={false}>
            <Checkbox data-testid={`${side}-residential`}>{label('residential')}</Checkbox>
          </Form.Item>
        </Col>
        <Col xs={12} md={6}>
          <Form.Item label=" " colon={false}>
            <Button
              icon={<EnvironmentOutlined />}
              loading={checking}
              onClick={() => void check()}
              data-testid={`${side}-check`}
            >
              {t('expressQuote.checkAddress')}
            </Button>
          </Form.Item>
        </Col>
      </Row>
    </Card>
  );
}

/** Ship-from: the customer's saved addresses; picking one fills the sender, which stays editable. */
function ShipFromPicker({
  form,
  organisationId,
  enabled,
  fillDefault,
}: {
  form: FormInstance<QuoteFormValues>;
  organisationId: number | undefined;
  enabled: boolean;
  fillDefault: boolean;
}) {
  const { t } = useTranslation();
  const shipFrom = useShipFrom(organisationId, enabled);
  const [picked, setPicked] = useState<number | null>(null);
  const list = shipFrom.data?.list ?? [];
  // Another customer's book: what was picked from the last one is not among its entries.
  const [bookOf, setBookOf] = useState(organisationId);
  if (bookOf !== organisationId) {
    setBookOf(organisationId);
    setPicked(null);
  }
  // A new quote starts from the default pickup address, once, when the sender is still empty.
  const filled = useRef(false);
  useEffect(() => {
    const entry = shipFrom.data?.list.find((o) => o.isDefault);
    if (!fillDefault || filled.current || !entry) return;
    filled.current = true;
    const sender = toAddress(form.getFieldValue('sender'));
    if (sender.name || sender.address1) return;
    form.setFieldValue('sender', fromAddressOption(entry));
    setPicked(entry.id);
  }, [fillDefault, shipFrom.data, form]);
  return (
    <Select
      size="small"
      style={{ width: 280, maxWidth: '60vw' }}
      placeholder={t('expressQuote.shipFrom')}
      allowClear
      showSearch={{ optionFilterProp: 'label' }}
      loading={shipFrom.isFetching}
      value={picked}
      // Left unset when enabled, so the form's own disabled state (while it loads) applies.
      disabled={enabled ? undefined : true}
      notFoundContent={
        shipFrom.isError ? (
          <Button size="small" type="link" onClick={() => void shipFrom.refetch()}>
            {t('expressQuote.retry')}
          </Button>
        ) : (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('expressQuote.noShipFrom')} />
        )
      }
      options={list.map((o) => ({
        value: o.id,
        label: `${o.address_code} · ${o.name} · ${o.city}, ${o.province_code} ${o.zipcode}`,
      }))}
      onChange={(id: number | undefined) => {
        setPicked(id ?? null);
        const entry = list.find((o) => o.id === id);
        if (entry) form.setFieldValue('sender', fromAddressOption(entry));
      }}
      data-testid="sender-ship-from"
    />
  );
}

/** A saved recipient of the customer's express address book; picking one fills the recipient. */
function RecipientPicker({
  form,
  organisationId,
  enabled,
}: {
  form: FormInstance<QuoteFormValues>;
  organisationId: number | undefined;
  enabled: boolean;
}) {
  const { t } = useTranslation();
  const recipients = useQuery({
    queryKey: ['express-recipients', organisationId ?? 'own'],
    queryFn: () => expressQuoteApi.recipients(organisationId),
    enabled,
  });
  const list = recipients.data?.list ?? [];
  return (
    <Select
      size="small"
      style={{ width: 220, maxWidth: '45vw' }}
      placeholder={t('expressQuote.recipientFrom')}
      showSearch={{ optionFilterProp: 'label' }}
      loading={recipients.isFetching}
      value={null}
      disabled={enabled ? undefined : true}
      notFoundContent={
        recipients.isError ? (
          <Button size="small" type="link" onClick={() => void recipients.refetch()}>
            {t('expressQuote.retry')}
          </Button>
        ) : (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('expressQuote.noRecipients')} />
        )
      }
      options={list.map((o) => ({
        value: o.id,
        label: `${o.address_code} · ${o.name} · ${[o.city, o.province_code, o.zipcode, o.country].filter(Boolean).join(' ')}`,
      }))}
      onChange={(id: number) => {
        const entry = list.find((o) => o.id === id);
        if (entry) form.setFieldValue('recipient', fromAddressOption(entry));
      }}
      data-testid="recipient-book"
    />
  );
}

/** An Amazon FBA warehouse as the recipient; the warehouse list loads when first opened. */
function FbaPicker({ form }: { form: FormInstance<QuoteFormValues> }) {
  const { t } = useTranslation();
  const [wanted, setWanted] = useState(false);
  const fba = useQuery({
    queryKey: ['express-fba-warehouses'],
    queryFn: expressQuoteApi.fbaWarehouses,
    enabled: wanted,
    staleTime: Number.POSITIVE_INFINITY,
  });
  return (
    <Select
      size="small"
      style={{ width: 280, maxWidth: '60vw' }}
      placeholder={t('expressQuote.fbaWarehouse')}
      showSearch={{ optionFilterProp: 'label' }}
      loading={fba.isFetching}
      value={null}
      onOpenChange={(open) => {
        if (open) setWanted(true);
      }}
      notFoundContent={
        fba.isError ? (
          <Button size="small" type="link" onClick={() => void fba.refetch()}>
            {t('expressQuote.retry')}
          </Button>
        ) : (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} />
        )
      }
      options={(fba.data ?? []).map((w) => ({
        value: w.code,
        label: `${w.code} · ${w.city}, ${w.state} ${w.zipcode}`,
      }))}
      onChange={(code: string) => {
        const warehouse = fba.data?.find((w) => w.code === code);
        if (warehouse)
          form.setFieldValue('recipient', { ...form.getFieldValue('recipient'), ...fromFba(warehouse) });
      }}
      data-testid="recipient-fba"
    />
  );
}

function Parcels({ form }: { form: FormInstance<QuoteFormValues> }) {
  const { t } = useTranslation();
  const units = unitsOf(Form.useWatch('unitSystem', form));
  const label = (key: keyof ParcelValues) =>
    t(`expressQuote.parcel.${key}`, { weight: units.weight, length: units.length });
  return (
    <Form.List name="parcels">
      {(fields, { add, remove }) => (
        <Space orientation="vertical" style={{ width: '100%' }}>
          {fields.map((field, index) => {
            const item = (key: keyof ParcelValues, required: boolean, input: ReactNode, span = 4) => (
              <Col xs={12} md={span}>
                <Form.Item
                  name={[field.name, key]}
                  label={label(key)}
                  required={required}
                  rules={[parcelRule(field.name, key, label(key))]}
                >
                  {input}
                </Form.Item>
              </Col>
            );
            const size = (key: 'length' | 'width' | 'height') =>
              item(
                key,
                true,
                <InputNumber
                  min={0.1}
                  max={1000}
                  precision={2}
                  style={{ width: '100%' }}
                  data-testid={`parcel-${index}-${key}`}
                />,
                3,
              );
            return (
              <Card
                key={field.key}
                size="small"
                type="inner"
                title={t('expressQuote.parcel.title', { n: index + 1 })}
                extra={
                  fields.length > 1 ? (
                    <Button
                      type="text"
                      danger
                      icon={<DeleteOutlined />}
                      aria-label={t('expressQuote.parcel.remove')}
                      onClick={() => remove(field.name)}
                      data-testid={`parcel-${index}-remove`}
                    />
                  ) : null
                }
              >
                <Row gutter={12}>
                  {item(
                    'quantity',
                    true,
                    <InputNumber
                      min={1}
                      max={100}
                      precision={0}
                      style={{ width: '100%' }}
                      data-testid={`parcel-${index}-quantity`}
                    />,
                    3,
                  )}
                  {size('length')}
                  {size('width')}
                  {size('height')}
                  {item(
                    'weight',
                    true,
                    <InputNumber
                      min={0.01}
                      max={10000}
                      precision={2}
                      style={{ width: '100%' }}
                      data-testid={`parcel-${index}-weight`}
                    />,
                    4,
                  )}
                  {item('declaredValue', false, <AmountInput suffix="USD" />, 4)}
                  {/* Some carriers charge for packaging that is not a carton (a tube, a bag, a crate). */}
                  {item(
                    'packaging',
                    false,
                    <Select
                      options={PACKAGINGS.map((p) => ({ value: p, label: t(`expressQuote.packaging.${p}`) }))}
                      data-testid={`parcel-${index}-packaging`}
                    />,
                    6,
                  )}
                  {item(
                    'description',
                    false,
                    <Input maxLength={100} data-testid={`parcel-${index}-description`} />,
                    18,
                  )}
                </Row>
              </Card>
            );
          })}
          <Button
            icon={<PlusOutlined />}
            onClick={() => add(emptyParcel())}
            block
            type="dashed"
            disabled={fields.length >= MAX_PARCELS}
            data-testid="parcel-add"
          >
            {t('expressQuote.parcel.add')}
          </Button>
        </Space>
      )}
    </Form.List>
  );
}

/** Whether the parcel crosses a border, so the body carries customs (`toBody`). */
const sendsCustoms = (values: Partial<QuoteFormValues>) => toBody(values).customs !== undefined;

/**
 * The express quote form: customer, sender, recipient, parcels, customs abroad and services. Its values
 * are the body of `quotation/getQuotas` (see shipment.ts).
 */
export function QuoteForm({
  form,
  options,
  customerRequired,
  fillDefaultSender,
  disabled,
  onFinish,
  footer,
}: {
  form: FormInstance<QuoteFormValues>;
  options: ExpressOptions | undefined;
  /** Staff have no organisation of their own: every quote names its customer. */
  customerRequired: boolean;
  fillDefaultSender: boolean;
  disabled: boolean;
  onFinish: (values: QuoteFormValues) => void;
  footer: ReactNode;
}) {
  const { t } = useTranslation();
  const customers = options?.customers ?? [];
  // Staff must name a customer even when none can be offered, so the refusal is seen where it applies.
  const showCustomers = customerRequired || customers.length > 0;
  const organisationId = Form.useWatch('organisationId', form) as number | undefined;
  // Staff see a book only once they name the customer; others see their own until they name one.
  const bookReady = Boolean(organisationId) || !customerRequired;
  const abroad = Form.useWatch(sendsCustoms, form) ?? false;
  const customerItem = (
    <Form.Item
      name="organisationId"
      label={t('expressQuote.customer')}
      tooltip={t('expressQuote.customerTip')}
      rules={customerRequired ? [requiredRule(t('expressQuote.customer'))] : []}
      hidden={!showCustomers}
    >
      <Select
        allowClear={!customerRequired}
        placeholder={customerRequired ? undefined : t('expressQuote.customerSelf')}
        showSearch={{ optionFilterProp: 'label' }}
        options={customers.map((c) => ({ value: c.id, label: c.name }))}
        data-testid="quote-customer"
      />
    </Form.Item>
  );
  return (
    <Form
      form={form}
      layout="vertical"
      initialValues={initialValues()}
      onFinish={onFinish}
      disabled={disabled}
      scrollToFirstError
      data-testid="express-quote-form"
    >
      <Space orientation="vertical" style={{ width: '100%' }} size={12}>
        <Alert type="info" showIcon title={t('expressQuote.englishTip')} />
        <Card size="small">
          <Row gutter={12}>
            {/* Always in the form, so the shipment a quote was priced for keeps its customer; a column
                only when shown, since a hidden column still takes its width in the row. */}
            {showCustomers ? (
              <Col xs={24} md={10}>
                {customerItem}
              </Col>
            ) : (
              customerItem
            )}
            <Col xs={24} md={showCustomers ? 7 : 12}>
              <Form.Item name="unitSystem" label={t('expressQuote.unitSystem')}>
                <Radio.Group
                  optionType="button"
                  options={(options?.unitSystems ?? ['lb_in']).map((u) => ({
                    value: u,
                    label: t(`expressQuote.unit.${u}`),
                  }))}
                  data-testid="quote-unit-system"
                />
              </Form.Item>
            </Col>
            <Col xs={24} md={showCustomers ? 7 : 12}>
              <Form.Item name="signature" valuePropName="checked" label=" " colon={false}>
                <Checkbox data-testid="quote-signature">{t('expressQuote.signature')}</Checkbox>
              </Form.Item>
            </Col>
          </Row>
        </Card>
        <AddressCard
          side="sender"
          title={t('expressQuote.sender')}
          form={form}
          picker={
            <ShipFromPicker
              form={form}
              organisationId={organisationId}
              enabled={bookReady}
              fillDefault={fillDefaultSender}
            />
          }
        />
        <AddressCard
          side="recipient"
          title={t('expressQuote.recipient')}
          form={form}
          picker={
            <Space size={4} wrap>
              <RecipientPicker form={form} organisationId={organisationId} enabled={bookReady} />
              <FbaPicker form={form} />
            </Space>
          }
        />
        <Card size="small" title={t('expressQuote.parcels')}>
          <Parcels form={form} />
        </Card>
        {/* Unmounted within one country; the values stay (the form preserves them) for a move abroad. */}
        {abroad ? <CustomsFields form={form} /> : null}
        <Card size="small">
          <Row gutter={12}>
            <Col xs={24} md={16}>
              <Form.Item
                name="reference"
                label={t('expressQuote.reference')}
                tooltip={t('expressQuote.referenceTip')}
                rules={[referenceRule(t('expressQuote.reference'))]}
                style={{ marginBottom: 0 }}
              >
                <Input maxLength={60} data-testid="quote-reference" />
              </Form.Item>
            </Col>
            <Col xs={24} md={8}>
              {/* Prices and fuel are those in force on the day it ships: a card may change before then. */}
              <Form.Item
                name="shipDate"
                label={t('expressQuote.shipDate')}
                tooltip={t('expressQuote.shipDateTip')}
                style={{ marginBottom: 0 }}
              >
                <DatePicker
                  style={{ width: '100%' }}
                  placeholder={t('expressQuote.shipDateToday')}
                  disabledDate={(d) => d.isBefore(dayjs(), 'day')}
                  data-testid="quote-ship-date"
                />
              </Form.Item>
            </Col>
          </Row>
        </Card>
        {footer}
      </Space>
    </Form>
  );
}
