import { laneSaveBody, percentField } from '@freight/contracts/truck-products';
import { moneyField } from '@freight/contracts/validation';
import { useMutation } from '@tanstack/react-query';
import { App, Col, Divider, Form, Input, InputNumber, Modal, Row } from 'antd';
import { useTranslation } from 'react-i18next';
import { AmountInput } from '../../components/AmountInput.tsx';
import { useReportError } from '../../hooks/useReportError.ts';
import { fieldRule, requiredRule } from '../../lib/form-rules.ts';
import { ApiError } from '../../lib/http.ts';
import { type FtlTerms, type Lane, type LaneInput, laneApi, type TruckProduct } from './api.ts';
import { type Grid, gridOf, gridProblem, gridTerms, RateGrid } from './RateGrid.tsx';

interface LaneForm {
  origin: string;
  destination: string;
  grid: Grid;
  ltl: { minimumCharge: string; discountPercent?: string; fuelPercent?: string };
  ftl: {
    flatRate?: string;
    ratePerMile?: string;
    miles?: number | null;
    minimumCharge?: string;
    fuelPercent?: string;
    maxWeight?: number | null;
  };
}

const FTL_DEFAULTS = { minimumCharge: '0', fuelPercent: '0', maxWeight: 45_000 };

function initialLane(editing: Lane | 'new'): Partial<LaneForm> {
  if (editing === 'new')
    return {
      grid: gridOf(null),
      ltl: { minimumCharge: '', discountPercent: '0', fuelPercent: '0' },
      ftl: FTL_DEFAULTS,
    };
  return {
    origin: editing.origin,
    destination: editing.destination,
    grid: gridOf(editing.ltl),
    ltl: editing.ltl ?? { minimumCharge: '', discountPercent: '0', fuelPercent: '0' },
    ftl: editing.ftl ?? FTL_DEFAULTS,
  };
}

/** Empty inputs mean "not given", which the API spells as an absent key. */
const given = <T,>(value: T | '' | null | undefined): T | undefined =>
  value === '' || value === null ? undefined : value;

/** The server names grid errors by their place in the body; the form shows them on the grid. */
function onFormFields(error: unknown): unknown {
  if (!(error instanceof ApiError) || error.fields.length === 0) return error;
  const fields = error.fields.map((f) => ({
    ...f,
    field: /^ltl(\.(breaks|rates).*)?$/.test(f.field) ? 'grid' : f.field === 'ftl' ? 'ftl.flatRate' : f.field,
  }));
  return new ApiError(error.code, error.message, fields, error.data, error.notified);
}

/**
 * Add or edit one lane of a product: its two ends, and the LTL rate table or the FTL terms, whichever
 * the product's mode needs.
 */
export function LaneDialog({
  product,
  editing,
  onClose,
  onSaved,
}: {
  product: TruckProduct;
  editing: Lane | 'new';
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const reportError = useReportError();
  const [form] = Form.useForm<LaneForm>();
  const ltl = product.mode === 'LTL';
  const money = (field: string) => fieldRule(moneyField, field);
  const percent = (field: string) => fieldRule(percentField, field);

  const save = useMutation({
    mutationFn: laneApi.save,
    onSuccess: () => {
      message.success(t('common.saved'));
      onSaved();
    },
    onError: (error) => reportError(onFormFields(error), form),
  });

  // Only the fields on screen come back from the form: the LTL ones or the FTL ones.
  const toBody = (values: LaneForm): LaneInput => {
    const base = {
      id: editing === 'new' ? undefined : editing.id,
      productId: product.id,
      origin: values.origin,
      destination: values.destination,
    };
    if (ltl)
      return {
        ...base,
        ltl: {
          ...gridTerms(values.grid),
          minimumCharge: values.ltl.minimumCharge,
          discountPercent: given(values.ltl.discountPercent) ?? '0',
          fuelPercent: given(values.ltl.fuelPercent) ?? '0',
        },
        ftl: null,
      };
    const flatRate = given(values.ftl.flatRate);
    const ratePerMile = given(values.ftl.ratePerMile);
    const miles = given(values.ftl.miles);
    const ftl: FtlTerms = {
      ...(flatRate ? { flatRate } : {}),
      ...(ratePerMile ? { ratePerMile } : {}),
      ...(miles ? { miles } : {}),
      minimumCharge: given(values.ftl.minimumCharge) ?? '0',
      fuelPercent: given(values.ftl.fuelPercent) ?? '0',
      maxWeight: given(values.ftl.maxWeight) ?? FTL_DEFAULTS.maxWeight,
    };
    return { ...base, ltl: null, ftl };
  };

  const submit = () =>
    form.validateFields().then(
      (values) => save.mutate(toBody(values)),
      () => undefined,
    );

  const end = (name: 'origin' | 'destination') => (
    <Form.Item
      name={name}
      label={t(`tariff.${name}`)}
      extra={t('freightRules.endTip')}
      normalize={(v: string | undefined) => v?.toUpperCase()}
      rules={[requiredRule(t(`tariff.${name}`)), fieldRule(laneSaveBody.shape[name], name)]}
    >
      <Input maxLength={11} placeholder="900-935 / CA / *" data-testid={`lane-${name}`} />
    </Form.Item>
  );

  return (
    <Modal
      open
      width={ltl ? 960 : 640}
      title={`${editing === 'new' ? t('freightRules.newLane') : t('freightRules.editLane')} · ${product.code} (${product.mode})`}
      onCancel={onClose}
      onOk={() => void submit()}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      confirmLoading={save.isPending}
      okButtonProps={{ 'data-testid': 'lane-save' } as never}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" initialValues={initialLane(editing)} data-testid="lane-form">
        <Row gutter={16}>
          <Col xs={24} sm={12}>
            {end('origin')}
          </Col>
          <Col xs={24} sm={12}>
            {end('destination')}
          </Col>
        </Row>
        {ltl ? (
          <>
            <Divider titlePlacement="start" style={{ marginTop: 0 }}>
              {t('freightRules.ltlRates')}
            </Divider>
            <Form.Item
              name="grid"
              rules={[
                {
                  validator: async (_, grid: Grid | undefined) => {
                    const problem = gridProblem(grid, t);
                    if (problem) throw new Error(problem);
                  },
                },
              ]}
            >
              <RateGrid />
            </Form.Item>
            <Row gutter={16}>
              <Col xs={24} sm={8}>
                <Form.Item
                  name={['ltl', 'minimumCharge']}
                  label={t('tariff.minimumCharge')}
                  rules={[requiredRule(t('tariff.minimumCharge')), money('minimumCharge')]}
                >
                  <AmountInput suffix="USD" />
                </Form.Item>
              </Col>
              <Col xs={12} sm={8}>
                <Form.Item
                  name={['ltl', 'discountPercent']}
                  label={t('tariff.discountPercent')}
                  rules={[percent('discountPercent')]}
                >
                  <AmountInput suffix="%" />
                </Form.Item>
              </Col>
              <Col xs={12} sm={8}>
                <Form.Item
                  name={['ltl', 'fuelPercent']}
                  label={t('tariff.fuelPercent')}
                  rules={[percent('fuelPercent')]}
                >
                  <AmountInput suffix="%" />
                </Form.Item>
              </Col>
            </Row>
          </>
        ) : (
          <>
            <Divider titlePlacement="start" style={{ marginTop: 0 }}>
              {t('freightRules.ftlTerms')}
            </Divider>
            <Row gutter={16}>
              <Col xs={24} sm={12}>
                <Form.Item
                  name={['ftl', 'flatRate']}
                  label={t('tariff.flatRate')}
                  dependencies={[['ftl', 'ratePerMile']]}
                  rules={[
                    money('flatRate'),
                    ({ getFieldValue }) => ({
                      validator: async (_, value: string | undefined) => {
                        if (!value && !getFieldValue(['ftl', 'ratePerMile']))
                          throw new Error(t('truck.ftlRateNeeded'));
                      },
                    }),
                  ]}
                >
                  <AmountInput suffix="USD" />
                </Form.Item>
              </Col>
              <Col xs={24} sm={12}>
                <Form.Item
                  name={['ftl', 'ratePerMile']}
                  label={t('tariff.ratePerMile')}
                  rules={[money('ratePerMile')]}
                >
                  <AmountInput suffix="USD" />
                </Form.Item>
              </Col>
              <Col xs={24} sm={12}>
                <Form.Item
                  name={['ftl', 'miles']}
                  label={t('tariff.miles')}
                  extra={t('freightRules.milesTip')}
                >
                  <InputNumber min={1} max={10_000} precision={0} style={{ width: '100%' }} />
                </Form.Item>
              </Col>
              <Col xs={24} sm={12}>
                <Form.Item
                  name={['ftl', 'minimumCharge']}
                  label={t('tariff.minimumCharge')}
                  rules={[money('minimumCharge')]}
                >
                  <AmountInput suffix="USD" />
                </Form.Item>
              </Col>
              <Col xs={24} sm={12}>
                <Form.Item
                  name={['ftl', 'fuelPercent']}
                  label={t('tariff.fuelPercent')}
                  rules={[percent('fuelPercent')]}
                >
                  <AmountInput suffix="%" />
                </Form.Item>
              </Col>
              <Col xs={24} sm={12}>
                <Form.Item name={['ftl', 'maxWeight']} label={t('tariff.maxWeight')}>
                  <InputNumber min={1} max={200_000} precision={0} style={{ width: '100%' }} />
                </Form.Item>
              </Col>
            </Row>
          </>
        )}
      </Form>
    </Modal>
  );
}
