import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import type { RatingRulesBody } from '@freight/contracts/express-channels';
import {
  BEYOND_LAST_WEIGHT,
  DIM_ROUNDINGS,
  PACKAGINGS,
  SURCHARGE_TRIGGERS,
  type SurchargeTrigger,
} from '@freight/contracts/express-rating';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  App,
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
  Switch,
  Tag,
  Typography,
} from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AmountInput } from '../../components/AmountInput.tsx';
import { useReportError } from '../../hooks/useReportError.ts';
import { ApiError, applyFieldErrors } from '../../lib/http.ts';
import { type ExpressChannel, type RatingRules, RULES_KEY, rulesApi } from './api.ts';
import { parseZips } from './DeliveryAreas.tsx';
import { UNITS } from './units.ts';

/** Triggers that compare a measure with `over`; the others read `values` or the shipment. */
const NUMERIC: readonly SurchargeTrigger[] = ['weight', 'longest', 'second', 'length_girth', 'volume'];

interface RuleValues {
  name?: string;
  trigger?: SurchargeTrigger;
  over?: number;
  /** ZIPs as typed, or packaging kinds chosen. */
  zips?: string;
  packagings?: string[];
  fee?: string;
  feeByZone?: { zone?: string; fee?: string }[];
  fuel?: boolean;
  group?: string;
  replaces?: string[];
  minBillable?: number;
}

interface FormValues {
  dimRounding: RatingRules['dimRounding'];
  dimThreshold: number;
  underOneUnitOn: boolean;
  underOneUnitStep: number;
  beyondLastWeight: RatingRules['beyondLastWeight'];
  cubicOn: boolean;
  cubic: { roundDown: number; maxWeight: number; maxLongest: number };
  fuel: { from?: Dayjs; percent?: string }[];
  surchargeRules: RuleValues[];
}

function formOf(rules: RatingRules): FormValues {
  return {
    dimRounding: rules.dimRounding,
    dimThreshold: rules.dimThreshold,
    underOneUnitOn: rules.underOneUnit !== null,
    underOneUnitStep: rules.underOneUnit?.step ?? 0,
    beyondLastWeight: rules.beyondLastWeight,
    cubicOn: rules.cubic !== null,
    cubic: rules.cubic ?? { roundDown: 0.25, maxWeight: 20, maxLongest: 0 },
    fuel: rules.fuel.map((f) => ({ from: dayjs(f.from), percent: f.percent })),
    surchargeRules: rules.surchargeRules.map((r) => ({
      ...r,
      zips: r.trigger === 'zip5' ? r.values.join(', ') : undefined,
      packagings: r.trigger === 'packaging' ? r.values : undefined,
    })),
  };
}

function bodyOf(channelId: number, v: FormValues): RatingRulesBody {
  return {
    channelId,
    dimRounding: v.dimRounding,
    dimThreshold: v.dimThreshold ?? 0,
    underOneUnit: v.underOneUnitOn ? { step: v.underOneUnitStep ?? 0 } : null,
    beyondLastWeight: v.beyondLastWeight,
    cubic: v.cubicOn ? v.cubic : null,
    fuel: (v.fuel ?? []).map((f) => ({ from: f.from?.format('YYYY-MM-DD') ?? '', percent: f.percent ?? '' })),
    surchargeRules: (v.surchargeRules ?? []).map((r) => ({
      name: r.name ?? '',
      trigger: r.trigger as SurchargeTrigger,
      over: r.trigger && NUMERIC.includes(r.trigger) ? (r.over ?? 0) : 0,
      values:
        r.trigger === 'zip5' ? parseZips(r.zips).zips : r.trigger === 'packaging' ? (r.packagings ?? []) : [],
      fee: r.fee || '0',
      feeByZone: (r.feeByZone ?? []).map((z) => ({ zone: z.zone ?? '', fee: z.fee ?? '' })),
      fuel: r.fuel ?? true,
      group: r.group ?? '',
      replaces: r.replaces ?? [],
      minBillable: r.minBillable ?? 0,
    })),
  };
}

/**
 * `/channelPrice`: the carrier's billing rules beyond the price table (README "Rating as the carrier
 * bills"): how sides are measured, when dimensional weight counts, ounce and cubic tiers, what a
 * weight past the last row costs, surcharge rules, and fuel by date with the rate in force today.
 */
export function RatingRulesCard({ channel }: { channel: ExpressChannel }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const reportError = useReportError();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<FormValues>();
  const [problems, setProblems] = useState<string[]>([]);
  const key = [RULES_KEY, channel.id];
  const rules = useQuery({ queryKey: key, queryFn: () => rulesApi.info(channel.id) });
  const units = UNITS[channel.unitSystem];

  const save = useMutation({
    mutationFn: (values: FormValues) => rulesApi.save(bodyOf(channel.id, values)),
    onSuccess: (answer) => {
      queryClient.setQueryData(key, answer);
      form.setFieldsValue(formOf(answer));
      setProblems([]);
      message.success(t('common.saved'));
    },
    onError: (error) => {
      // Each message on its field where the form has one, and all of them above the form.
      if (error instanceof ApiError && applyFieldErrors(error, form.setFields))
        setProblems([...new Set(error.fields.map((f) => f.message))]);
      else reportError(error, form);
    },
  });

  const option = (group: string) => (value: string) => ({ value, label: t(`ratingRules.${group}.${value}`) });

  return (
    <Card
      size="small"
      loading={rules.isLoading}
      title={
        <Space wrap size={[8, 4]}>
          <span>{t('ratingRules.title')}</span>
          {rules.data ? (
            <Tag color="blue" data-testid="rules-fuel-today">
              {t('ratingRules.fuelToday', { percent: rules.data.fuelToday })}
            </Tag>
          ) : null}
        </Space>
      }
      data-testid="rating-rules"
    >
      <Typography.Paragraph type="secondary">{t('ratingRules.intro')}</Typography.Paragraph>
      {rules.data ? (
        <Form
          form={form}
          layout="vertical"
          initialValues={formOf(rules.data)}
          onFinish={(values) => save.mutate(values)}
          key={channel.id}
        >
          <Row gutter={16}>
            <Col xs={24} md={8}>
              <Form.Item name="dimRounding" label={t('ratingRules.dimRounding')}>
                <Select options={DIM_ROUNDINGS.map(option('rounding'))} data-testid="rules-dim-rounding" />
              </Form.Item>
            </Col>
            <Col xs={24} md={8}>
              <Form.Item
                name="dimThreshold"
                label={t('ratingRules.dimThreshold', { unit: units.volume })}
                tooltip={t('ratingRules.dimThresholdTip')}
              >
                <InputNumber min={0} style={{ width: '100%' }} data-testid="rules-dim-threshold" />
              </Form.Item>
            </Col>
            <Col xs={24} md={8}>
              <Form.Item name="beyondLastWeight" label={t('ratingRules.beyondLastWeight')}>
                <Select options={BEYOND_LAST_WEIGHT.map(option('beyond'))} data-testid="rules-beyond" />
              </Form.Item>
            </Col>
          </Row>
          <Row gutter={16} align="bottom">
            <Col xs={24} md={8}>
              <Form.Item
                name="underOneUnitOn"
                valuePropName="checked"
                label={t('ratingRules.underOneUnit', { unit: units.weight })}
              >
                <Switch data-testid="rules-ounces" />
              </Form.Item>
            </Col>
            <Col xs={24} md={8}>
              <Form.Item noStyle dependencies={['underOneUnitOn']}>
                {({ getFieldValue }) => (
                  <Form.Item
                    name="underOneUnitStep"
                    label={t('ratingRules.underOneUnitStep', { unit: units.weight })}
                    tooltip={t('ratingRules.underOneUnitStepTip')}
                  >
                    <InputNumber
                      min={0}
                      max={1}
                      step={0.0625}
                      disabled={!getFieldValue('underOneUnitOn')}
                      style={{ width: '100%' }}
                    />
                  </Form.Item>
                )}
              </Form.Item>
            </Col>
            <Col xs={24} md={8}>
              <Form.Item name="cubicOn" valuePropName="checked" label={t('ratingRules.cubic')}>
                <Switch data-testid="rules-cubic" />
              </Form.Item>
            </Col>
          </Row>
          <Form.Item noStyle dependencies={['cubicOn']}>
            {({ getFieldValue }) =>
              getFieldValue('cubicOn') ? (
                <Row gutter={16}>
                  <Col xs={24} md={8}>
                    <Form.Item
                      name={['cubic', 'roundDown']}
                      label={t('ratingRules.roundDown', { unit: units.length })}
                    >
                      <InputNumber min={0} max={10} step={0.25} style={{ width: '100%' }} />
                    </Form.Item>
                  </Col>
                  <Col xs={24} md={8}>
                    <Form.Item
                      name={['cubic', 'maxWeight']}
                      label={t('ratingRules.cubicMaxWeight', { unit: units.weight })}
                    >
                      <InputNumber min={0.01} style={{ width: '100%' }} />
                    </Form.Item>
                  </Col>
                  <Col xs={24} md={8}>
                    <Form.Item
                      name={['cubic', 'maxLongest']}
                      label={t('ratingRules.cubicMaxLongest', { unit: units.length })}
                    >
                      <InputNumber min={0} style={{ width: '100%' }} />
                    </Form.Item>
                  </Col>
                </Row>
              ) : null
            }
          </Form.Item>

          <Typography.Title level={5}>{t('ratingRules.fuel')}</Typography.Title>
          <Form.List name="fuel">
            {(rows, { add, remove }) => (
              <>
                {rows.map((row) => (
                  <Space key={row.key} align="baseline" wrap>
                    <Form.Item
                      name={[row.name, 'from']}
                      rules={[{ required: true, message: t('ratingRules.fromRequired') }]}
                    >
                      <DatePicker
                        placeholder={t('ratingRules.from')}
                        data-testid={`rules-fuel-from-${row.name}`}
                      />
                    </Form.Item>
                    <Form.Item
                      name={[row.name, 'percent']}
                      rules={[{ required: true, message: t('ratingRules.percentRequired') }]}
                    >
                      <AmountInput suffix="%" />
                    </Form.Item>
                    <Button
                      icon={<DeleteOutlined />}
                      aria-label={t('common.delete')}
                      onClick={() => remove(row.name)}
                    />
                  </Space>
                ))}
                <Form.Item>
                  <Button icon={<PlusOutlined />} onClick={() => add({})} data-testid="rules-fuel-add">
                    {t('ratingRules.addFuel')}
                  </Button>
                </Form.Item>
              </>
            )}
          </Form.List>

          <Typography.Title level={5}>{t('ratingRules.surchargeRules')}</Typography.Title>
          <Form.List name="surchargeRules">
            {(rows, { add, remove }) => (
              <>
                {rows.map((row) => (
                  <RuleRow key={row.key} index={row.name} onRemove={() => remove(row.name)} />
                ))}
                <Form.Item>
                  <Button
                    icon={<PlusOutlined />}
                    onClick={() => add({ trigger: 'longest', fuel: true, fee: '0' })}
                    data-testid="rules-add"
                  >
                    {t('ratingRules.addRule')}
                  </Button>
                </Form.Item>
              </>
            )}
          </Form.List>

          {problems.length > 0 ? (
            <Alert
              type="error"
              showIcon
              style={{ marginBottom: 12 }}
              title={t('ratingRules.notSaved')}
              description={
                <ul style={{ margin: 0, paddingInlineStart: 20 }}>
                  {problems.slice(0, 20).map((p) => (
                    <li key={p}>{p}</li>
                  ))}
                </ul>
              }
              data-testid="rules-problems"
            />
          ) : null}
          <Button type="primary" htmlType="submit" loading={save.isPending} data-testid="rules-save">
            {t('common.save')}
          </Button>
        </Form>
      ) : null}
    </Card>
  );
}

/** One surcharge rule: its name, what sets it off, its fee (by zone where the carrier varies it). */
function RuleRow({ index, onRemove }: { index: number; onRemove: () => void }) {
  const { t } = useTranslation();
  const form = Form.useFormInstance();
  const trigger: SurchargeTrigger | undefined = Form.useWatch(['surchargeRules', index, 'trigger'], form);
  return (
    <Card size="small" style={{ marginBottom: 12 }} data-testid={`rules-rule-${index}`}>
      <Row gutter={12}>
        <Col xs={24} md={8}>
          <Form.Item
            name={[index, 'name']}
            label={t('ratingRules.name')}
            rules={[{ required: true, message: t('ratingRules.nameRequired') }]}
          >
            <Input maxLength={60} data-testid={`rules-name-${index}`} />
          </Form.Item>
        </Col>
        <Col xs={24} md={8}>
          <Form.Item name={[index, 'trigger']} label={t('ratingRules.trigger')}>
            <Select
              options={SURCHARGE_TRIGGERS.map((value) => ({
                value,
                label: t(`ratingRules.triggers.${value}`),
              }))}
              data-testid={`rules-trigger-${index}`}
            />
          </Form.Item>
        </Col>
        <Col xs={24} md={8}>
          {trigger && NUMERIC.includes(trigger) ? (
            <Form.Item
              name={[index, 'over']}
              label={t('ratingRules.over')}
              rules={[{ required: true, message: t('ratingRules.overRequired') }]}
            >
              <InputNumber min={0} style={{ width: '100%' }} data-testid={`rules-over-${index}`} />
            </Form.Item>
          ) : trigger === 'packaging' ? (
            <Form.Item name={[index, 'packagings']} label={t('ratingRules.packagings')}>
              <Select
                mode="multiple"
                // The quote form's words for each kind, so staff and customers read the same ones.
                options={PACKAGINGS.map((value) => ({ value, label: t(`expressQuote.packaging.${value}`) }))}
              />
            </Form.Item>
          ) : trigger === 'zip5' ? (
            <Form.Item name={[index, 'zips']} label={t('ratingRules.zips')}>
              <Input.TextArea autoSize={{ minRows: 1, maxRows: 4 }} />
            </Form.Item>
          ) : null}
        </Col>
        <Col xs={12} md={6}>
          <Form.Item name={[index, 'fee']} label={t('ratingRules.fee')}>
            <AmountInput />
          </Form.Item>
        </Col>
        <Col xs={12} md={6}>
          <Form.Item name={[index, 'minBillable']} label={t('ratingRules.minBillable')}>
            <InputNumber min={0} style={{ width: '100%' }} />
          </Form.Item>
        </Col>
        <Col xs={12} md={6}>
          <Form.Item
            name={[index, 'group']}
            label={t('ratingRules.group')}
            tooltip={t('ratingRules.groupTip')}
          >
            <Input maxLength={40} />
          </Form.Item>
        </Col>
        <Col xs={12} md={6}>
          <Form.Item name={[index, 'replaces']} label={t('ratingRules.replaces')}>
            <Select mode="tags" open={false} />
          </Form.Item>
        </Col>
      </Row>
      <Form.List name={[index, 'feeByZone']}>
        {(zones, { add, remove }) => (
          <Space wrap align="baseline">
            <Typography.Text type="secondary">{t('ratingRules.feeByZone')}</Typography.Text>
            {zones.map((zone) => (
              <Space.Compact key={zone.key}>
                <Form.Item name={[zone.name, 'zone']} noStyle>
                  <Input style={{ width: 70 }} placeholder={t('ratingRules.zone')} />
                </Form.Item>
                <Form.Item name={[zone.name, 'fee']} noStyle>
                  <AmountInput />
                </Form.Item>
                <Button
                  icon={<DeleteOutlined />}
                  aria-label={t('common.delete')}
                  onClick={() => remove(zone.name)}
                />
              </Space.Compact>
            ))}
            <Button size="small" icon={<PlusOutlined />} onClick={() => add({})}>
              {t('ratingRules.addZoneFee')}
            </Button>
          </Space>
        )}
      </Form.List>
      <Space style={{ marginTop: 8, width: '100%', justifyContent: 'space-between' }}>
        <Form.Item name={[index, 'fuel']} valuePropName="checked" noStyle>
          <Checkbox>{t('ratingRules.fuelApplies')}</Checkbox>
        </Form.Item>
        <Button danger icon={<DeleteOutlined />} onClick={onRemove} data-testid={`rules-remove-${index}`}>
          {t('ratingRules.removeRule')}
        </Button>
      </Space>
    </Card>
  );
}
