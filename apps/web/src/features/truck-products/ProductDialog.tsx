import { productSaveBody, serviceLevelLabel, TRUCK_SERVICE_LEVELS } from '@freight/contracts/truck-products';
import { useMutation } from '@tanstack/react-query';
import { App, Col, Form, Input, InputNumber, Modal, Radio, Row, Select, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { OrganisationPicker } from '../../components/OrganisationPicker.tsx';
import { useReportError } from '../../hooks/useReportError.ts';
import { requiredRule } from '../../lib/form-rules.ts';
import { type ProductInput, productApi, productInput, type TruckProduct } from './api.ts';

const shape = productSaveBody.shape;

const DEFAULTS: Partial<ProductInput> = {
  mode: 'LTL',
  serviceLevel: 'standard',
  transitDaysMin: 1,
  transitDaysMax: 5,
  enabled: true,
  organisationIds: [],
};

/** Create or edit a truck product: names, carrier, mode, transit days and who may use it. */
export function ProductDialog({
  editing,
  onClose,
  onSaved,
}: {
  editing: TruckProduct | 'new';
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t, i18n } = useTranslation();
  const language = i18n.language === 'en-US' ? 'en-US' : 'zh-CN';
  // The known levels in the reader's words, and a level typed before they existed, kept as it is.
  const current = editing === 'new' ? 'standard' : editing.serviceLevel;
  const levelOptions = [
    ...Object.keys(TRUCK_SERVICE_LEVELS),
    ...(current && !Object.hasOwn(TRUCK_SERVICE_LEVELS, current) ? [current] : []),
  ].map((value) => ({ value, label: serviceLevelLabel(value, language) }));
  const { message } = App.useApp();
  const reportError = useReportError();
  const [form] = Form.useForm<ProductInput>();

  const save = useMutation({
    mutationFn: productApi.save,
    onSuccess: () => {
      message.success(t('common.saved'));
      onSaved();
    },
    onError: (error) => reportError(error, form),
  });

  const submit = () =>
    form.validateFields().then(
      (values) => save.mutate({ ...values, id: editing === 'new' ? undefined : editing.id }),
      () => undefined,
    );

  return (
    <Modal
      open
      width={720}
      title={editing === 'new' ? t('truckProducts.new') : `${t('truckProducts.edit')} · ${editing.code}`}
      onCancel={onClose}
      onOk={() => void submit()}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      confirmLoading={save.isPending}
      okButtonProps={{ 'data-testid': 'product-save' } as never}
      destroyOnHidden
    >
      <Form
        form={form}
        layout="vertical"
        initialValues={editing === 'new' ? DEFAULTS : productInput(editing)}
        data-testid="product-form"
      >
        <Row gutter={16}>
          <Col xs={24} sm={12}>
            <Form.Item
              name="code"
              label={t('truckProducts.code')}
              extra={t('truckProducts.codeTip')}
              rules={[
                requiredRule(t('truckProducts.code')),
                {
                  validator: async (_, value: string | undefined) => {
                    if (value && !shape.code.safeParse(value).success)
                      throw new Error(t('validation.englishOnly', { field: t('truckProducts.code') }));
                  },
                },
              ]}
            >
              <Input maxLength={40} data-testid="product-code" />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item
              name="mode"
              label={t('truckProducts.mode')}
              rules={[requiredRule(t('truckProducts.mode'))]}
            >
              <Radio.Group
                optionType="button"
                buttonStyle="solid"
                options={[
                  { value: 'LTL', label: t('truckProducts.mode.LTL') },
                  { value: 'FTL', label: t('truckProducts.mode.FTL') },
                ]}
              />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item
              name="name"
              label={t('truckProducts.name')}
              rules={[requiredRule(t('truckProducts.name'))]}
            >
              <Input maxLength={100} data-testid="product-name" />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item
              name="nameEn"
              label={t('truckProducts.nameEn')}
              rules={[requiredRule(t('truckProducts.nameEn'))]}
            >
              <Input maxLength={100} data-testid="product-name-en" />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item
              name="carrier"
              label={t('truckProducts.carrier')}
              rules={[requiredRule(t('truckProducts.carrier'))]}
            >
              <Input maxLength={100} data-testid="product-carrier" />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item name="serviceLevel" label={t('truckProducts.serviceLevel')}>
              <Select options={levelOptions} data-testid="product-service-level" />
            </Form.Item>
          </Col>
          <Col xs={12} sm={6}>
            <Form.Item
              name="transitDaysMin"
              label={t('truckProducts.transitDaysMin')}
              rules={[requiredRule(t('truckProducts.transitDaysMin'))]}
            >
              <InputNumber min={0} max={60} precision={0} style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col xs={12} sm={6}>
            <Form.Item
              name="transitDaysMax"
              label={t('truckProducts.transitDaysMax')}
              dependencies={['transitDaysMin']}
              rules={[
                requiredRule(t('truckProducts.transitDaysMax')),
                ({ getFieldValue }) => ({
                  validator: async (_, value: number | null) => {
                    const min = getFieldValue('transitDaysMin') as number | null;
                    if (value !== null && min !== null && value < min)
                      throw new Error(t('truck.transitOrder'));
                  },
                }),
              ]}
            >
              <InputNumber min={0} max={60} precision={0} style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item name="enabled" label={t('common.status')} valuePropName="checked">
              <Switch checkedChildren={t('common.enabled')} unCheckedChildren={t('common.disabled')} />
            </Form.Item>
          </Col>
          <Col span={24}>
            <Form.Item
              name="organisationIds"
              label={t('truckProducts.organisations')}
              extra={t('truckProducts.organisationsTip')}
            >
              <OrganisationPicker line="truck" testId="product-organisations" />
            </Form.Item>
          </Col>
        </Row>
      </Form>
    </Modal>
  );
}
