import { percentField } from '@freight/contracts/truck-products';
import { ACCESSORIALS, type Accessorial } from '@freight/contracts/truck-rating';
import { moneyField } from '@freight/contracts/validation';
import { useMutation } from '@tanstack/react-query';
import { App, Checkbox, Col, Divider, Form, Input, Modal, Row, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { AmountInput } from '../../components/AmountInput.tsx';
import { useReportError } from '../../hooks/useReportError.ts';
import { fieldRule, requiredRule } from '../../lib/form-rules.ts';
import { productApi, type TruckProduct } from './api.ts';

interface TermsForm {
  /** Every accessorial with whether the product offers it; one not offered cannot be booked with it. */
  fees: Record<Accessorial, { offered: boolean; fee?: string }>;
  insuranceRatePercent: string;
  minimumPremium: string;
  deductible: string;
}

function initialTerms(product: TruckProduct): TermsForm {
  const fees = Object.fromEntries(
    ACCESSORIALS.map((code) => {
      const fee = product.accessorialFees[code];
      return [code, { offered: fee !== undefined, fee }];
    }),
  ) as TermsForm['fees'];
  return {
    fees,
    insuranceRatePercent: product.insuranceRatePercent,
    minimumPremium: product.minimumPremium,
    deductible: product.deductible,
  };
}

/** The product's accessorial fees and insurance terms (`/admin/product/saveTerms`). */
export function TermsDialog({
  product,
  onClose,
  onSaved,
}: {
  product: TruckProduct;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const reportError = useReportError();
  const [form] = Form.useForm<TermsForm>();
  const fees = Form.useWatch('fees', form);

  const save = useMutation({
    mutationFn: productApi.saveTerms,
    onSuccess: () => {
      message.success(t('common.saved'));
      onSaved();
    },
    onError: (error) => reportError(error, form),
  });

  const submit = () =>
    form.validateFields().then(
      (values) =>
        save.mutate({
          id: product.id,
          accessorialFees: Object.fromEntries(
            ACCESSORIALS.filter((code) => values.fees[code]?.offered).map((code) => [
              code,
              values.fees[code]?.fee || '0',
            ]),
          ),
          insuranceRatePercent: values.insuranceRatePercent,
          minimumPremium: values.minimumPremium,
          deductible: values.deductible,
        }),
      () => undefined,
    );

  const name = i18n.language === 'en-US' ? product.nameEn : product.name;
  return (
    <Modal
      open
      width={640}
      title={`${t('truckProducts.terms')} · ${name}`}
      onCancel={onClose}
      onOk={() => void submit()}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      confirmLoading={save.isPending}
      okButtonProps={{ 'data-testid': 'terms-save' } as never}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" initialValues={initialTerms(product)} data-testid="terms-form">
        <Divider titlePlacement="start" style={{ marginTop: 0 }}>
          {t('truckProducts.accessorialFees')}
        </Divider>
        <Typography.Paragraph type="secondary">{t('truckProducts.accessorialTip')}</Typography.Paragraph>
        {ACCESSORIALS.map((code) => (
          <Row key={code} gutter={12} align="middle" data-testid={`terms-fee-${code}`}>
            <Col span={11}>
              <Form.Item name={['fees', code, 'offered']} valuePropName="checked" style={{ marginBottom: 8 }}>
                <Checkbox>{t(`accessorial.${code}`)}</Checkbox>
              </Form.Item>
            </Col>
            <Col span={13}>
              <Form.Item
                name={['fees', code, 'fee']}
                style={{ marginBottom: 8 }}
                rules={
                  fees?.[code]?.offered
                    ? [requiredRule(t('truckProducts.fee')), fieldRule(moneyField, 'fee')]
                    : []
                }
              >
                {fees?.[code]?.offered ? (
                  <AmountInput suffix="USD" />
                ) : (
                  <Input disabled suffix="USD" placeholder={t('truckProducts.notOffered')} />
                )}
              </Form.Item>
            </Col>
          </Row>
        ))}
        <Divider titlePlacement="start">{t('truckProducts.insurance')}</Divider>
        <Row gutter={12}>
          <Col xs={24} sm={8}>
            <Form.Item
              name="insuranceRatePercent"
              label={t('truckProducts.insuranceRate')}
              rules={[
                requiredRule(t('truckProducts.insuranceRate')),
                fieldRule(percentField, 'insuranceRatePercent'),
              ]}
            >
              <AmountInput suffix="%" />
            </Form.Item>
          </Col>
          <Col xs={24} sm={8}>
            <Form.Item
              name="minimumPremium"
              label={t('truckProducts.minimumPremium')}
              rules={[
                requiredRule(t('truckProducts.minimumPremium')),
                fieldRule(moneyField, 'minimumPremium'),
              ]}
            >
              <AmountInput suffix="USD" />
            </Form.Item>
          </Col>
          <Col xs={24} sm={8}>
            <Form.Item
              name="deductible"
              label={t('truckProducts.deductible')}
              rules={[requiredRule(t('truckProducts.deductible')), fieldRule(moneyField, 'deductible')]}
            >
              <AmountInput suffix="USD" />
            </Form.Item>
          </Col>
        </Row>
      </Form>
    </Modal>
  );
}
