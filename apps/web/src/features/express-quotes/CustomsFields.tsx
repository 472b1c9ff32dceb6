import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { CUSTOMS_CONTENTS, type CustomsContents, INCOTERMS } from '@freight/contracts/express-quotes';
import { formatMoney, isMoneyString, parseMoney, sanitizeAmountInput } from '@freight/contracts/money';
import {
  Button,
  Card,
  Col,
  Form,
  type FormInstance,
  Input,
  InputNumber,
  Row,
  Select,
  Space,
  Typography,
} from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { requiredRule } from '../../lib/form-rules.ts';
import {
  type CustomsItemValues,
  customsItemRule,
  customsItemsRule,
  customsRule,
  emptyCustomsItem,
  type QuoteFormValues,
  SHIPPING_COUNTRIES,
  unitsOf,
} from './shipment.ts';

/** The contract takes at most 50 lines a declaration. */
const MAX_ITEMS = 50;

const ITEMS: ['customs', 'items'] = ['customs', 'items'];

/** Whether a line holds anything the user typed; its quantity starts at 1, so it does not count. */
const typedIn = (item: Partial<CustomsItemValues> | undefined) =>
  Boolean(
    item &&
      (item.description?.trim() ||
        item.hsCode?.trim() ||
        item.originCountry ||
        item.unitValue?.trim() ||
        item.weight !== undefined),
  );

/** What the lines declare in all: their value (quantity × unit value) and their number of units. */
function totalOf(items: Partial<CustomsItemValues>[] | undefined) {
  let cents = 0n;
  let quantity = 0;
  for (const item of items ?? []) {
    const units = Number.isInteger(item.quantity) ? (item.quantity as number) : 0;
    const unitValue = item.unitValue?.trim() ?? '';
    quantity += units;
    if (isMoneyString(unitValue)) cents += parseMoney(unitValue) * BigInt(units);
  }
  return { cents, value: formatMoney(cents), quantity };
}

function CustomsItems({ form }: { form: FormInstance<QuoteFormValues> }) {
  const { t, i18n } = useTranslation();
  const en = i18n.language === 'en-US';
  const weightUnit = unitsOf(Form.useWatch('unitSystem', form)).weight;
  const currency = (Form.useWatch(['customs', 'currency'], form) as string | undefined)?.trim() || 'USD';
  const documents = Form.useWatch(['customs', 'contentsType'], form) === 'documents';
  const total = totalOf(Form.useWatch(ITEMS, form) as Partial<CustomsItemValues>[] | undefined);
  const label = (key: keyof CustomsItemValues) =>
    t(`expressQuote.customs.item.${key}`, { weight: weightUnit });
  return (
    <Form.List
      name={ITEMS}
      rules={[
        customsItemsRule(
          (name) => form.getFieldValue(name as keyof QuoteFormValues),
          t('expressQuote.customs.items'),
        ),
      ]}
    >
      {(fields, { add, remove }, { errors }) => (
        <Space orientation="vertical" style={{ width: '100%' }}>
          {fields.map((field, index) => {
            const item = (
              key: keyof CustomsItemValues,
              span: { xs: number; md: number },
              input: ReactNode,
              extra: { required?: boolean; tooltip?: string } = {},
            ) => (
              <Col {...span}>
                <Form.Item
                  name={[field.name, key]}
                  label={label(key)}
                  required={extra.required ?? true}
                  tooltip={extra.tooltip}
                  rules={[customsItemRule(field.name, key, label(key))]}
                >
                  {input}
                </Form.Item>
              </Col>
            );
            const testId = (key: string) => `customs-item-${index}-${key}`;
            return (
              <Card
                key={field.key}
                size="small"
                type="inner"
                title={t('expressQuote.customs.item.title', { n: index + 1 })}
                extra={
                  <Button
                    type="text"
                    danger
                    icon={<DeleteOutlined />}
                    aria-label={t('expressQuote.customs.item.remove')}
                    onClick={() => remove(field.name)}
                    data-testid={testId('remove')}
                  />
                }
                data-testid={testId('card')}
              >
                <Row gutter={12}>
                  {item(
                    'description',
                    { xs: 24, md: 12 },
                    <Input maxLength={100} data-testid={testId('description')} />,
                  )}
                  {item(
                    'hsCode',
                    { xs: 12, md: 6 },
                    <Input maxLength={20} inputMode="decimal" data-testid={testId('hsCode')} />,
                    { tooltip: t('expressQuote.customs.item.hsCodeTip') },
                  )}
                  {item(
                    'originCountry',
                    { xs: 12, md: 6 },
                    <Select
                      showSearch={{ optionFilterProp: 'label' }}
                      popupMatchSelectWidth={false}
                      options={SHIPPING_COUNTRIES.map((c) => ({
                        value: c.short,
                        label: `${en ? c.en : c.name} (${c.short})`,
                      }))}
                      data-testid={testId('originCountry')}
                    />,
                  )}
                  {item(
                    'quantity',
                    { xs: 12, md: 6 },
                    <InputNumber
                      min={1}
                      max={100_000}
                      precision={0}
                      style={{ width: '100%' }}
                      data-testid={testId('quantity')}
                    />,
                  )}
                  {/* The shared amount input takes no test id; the same clean-up runs as the field's normalize. */}
                  <Col xs={12} md={9}>
                    <Form.Item
                      name={[field.name, 'unitValue']}
                      label={label('unitValue')}
                      required
                      normalize={(value: string) => sanitizeAmountInput(value ?? '')}
                      rules={[customsItemRule(field.name, 'unitValue', label('unitValue'))]}
                    >
                      <Input inputMode="decimal" suffix={currency} data-testid={testId('unitValue')} />
                    </Form.Item>
                  </Col>
                  {item(
                    'weight',
                    { xs: 24, md: 9 },
                    <InputNumber
                      min={0.001}
                      max={10_000}
                      step={0.1}
                      style={{ width: '100%' }}
                      data-testid={testId('weight')}
                    />,
                  )}
                </Row>
              </Card>
            );
          })}
          {documents && fields.length === 0 ? (
            <Typography.Text type="secondary" data-testid="customs-documents-note">
              {t('expressQuote.customs.documentsNote')}
            </Typography.Text>
          ) : null}
          {/* In an item of its own, so the list's error takes the form's error style. */}
          <Form.Item style={{ marginBottom: 0 }}>
            <Button
              icon={<PlusOutlined />}
              onClick={() => add(emptyCustomsItem())}
              block
              type="dashed"
              disabled={fields.length >= MAX_ITEMS}
              data-testid="customs-item-add"
            >
              {t('expressQuote.customs.item.add')}
            </Button>
            {errors.length > 0 ? (
              <div data-testid="customs-items-error">
                <Form.ErrorList errors={errors} />
              </div>
            ) : null}
          </Form.Item>
          {total.cents > 0n ? (
            <Typography.Text type="secondary" data-testid="customs-total">
              {t('expressQuote.customs.total', { currency, value: total.value, quantity: total.quantity })}
            </Typography.Text>
          ) : null}
        </Space>
      )}
    </Form.List>
  );
}

/**
 * The customs declaration of a parcel crossing a border: what it holds, who pays the duties, the tax
 * ids and one line per kind of goods. Its values are the body's `customs` (see shipment.ts).
 */
export function CustomsFields({ form }: { form: FormInstance<QuoteFormValues> }) {
  const { t } = useTranslation();
  const label = (key: string) => t(`expressQuote.customs.${key}`);

  const contentsChanged = (next: CustomsContents) => {
    const items = (form.getFieldValue(ITEMS) ?? []) as CustomsItemValues[];
    // Documents declare no goods: the blank line offered for goods would only be refused.
    if (next === 'documents') form.setFieldValue(ITEMS, items.filter(typedIn));
    else if (items.length === 0) form.setFieldValue(ITEMS, [emptyCustomsItem()]);
    // A "list one item at least" shown for goods no longer holds once the contents are documents.
    if (form.getFieldError(ITEMS).length > 0) form.validateFields([ITEMS]).catch(() => undefined);
  };

  return (
    <Card size="small" title={label('title')} data-testid="quote-customs">
      <Typography.Paragraph type="secondary" style={{ marginBottom: 12 }}>
        {label('intro')}
      </Typography.Paragraph>
      <Row gutter={12}>
        <Col xs={24} md={8}>
          <Form.Item
            name={['customs', 'contentsType']}
            label={label('contentsType')}
            required
            // A missing choice reads "required", not the enum's "not valid".
            validateFirst
            rules={[requiredRule(label('contentsType')), customsRule('contentsType', label('contentsType'))]}
          >
            <Select
              options={CUSTOMS_CONTENTS.map((c) => ({ value: c, label: label(`contents.${c}`) }))}
              onChange={contentsChanged}
              data-testid="customs-contentsType"
            />
          </Form.Item>
        </Col>
        <Col xs={12} md={8}>
          <Form.Item
            name={['customs', 'incoterm']}
            label={label('incoterm')}
            tooltip={label('incotermTip')}
            required
            rules={[customsRule('incoterm', label('incoterm'))]}
          >
            <Select options={INCOTERMS.map((i) => ({ value: i, label: i }))} data-testid="customs-incoterm" />
          </Form.Item>
        </Col>
        <Col xs={12} md={8}>
          <Form.Item
            name={['customs', 'currency']}
            label={label('currency')}
            required
            normalize={(value: string) => value?.toUpperCase()}
            rules={[customsRule('currency', label('currency'))]}
          >
            <Input maxLength={3} data-testid="customs-currency" />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item
            name={['customs', 'senderTaxId']}
            label={label('senderTaxId')}
            tooltip={label('senderTaxIdTip')}
            rules={[customsRule('senderTaxId', label('senderTaxId'))]}
          >
            <Input maxLength={30} data-testid="customs-senderTaxId" />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item
            name={['customs', 'receiverTaxId']}
            label={`${label('receiverTaxId')}${label('optional')}`}
            rules={[customsRule('receiverTaxId', label('receiverTaxId'))]}
          >
            <Input maxLength={30} data-testid="customs-receiverTaxId" />
          </Form.Item>
        </Col>
      </Row>
      <CustomsItems form={form} />
    </Card>
  );
}
