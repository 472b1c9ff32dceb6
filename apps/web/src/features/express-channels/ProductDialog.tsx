import { expressProductSaveBody } from '@freight/contracts/express-channels';
import { useMutation } from '@tanstack/react-query';
import { App, Col, Form, Input, Modal, Row, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { OrganisationPicker } from '../../components/OrganisationPicker.tsx';
import { useReportError } from '../../hooks/useReportError.ts';
import { requiredRule } from '../../lib/form-rules.ts';
import { type ExpressProduct, type ProductInput, productApi, productInput } from './api.ts';
import { schemaRule } from './rules.ts';

const shape = expressProductSaveBody.shape;

const DEFAULTS: Partial<ProductInput> = {
  description: '',
  descriptionEn: '',
  enabled: true,
  organisationIds: [],
};

/** Create or edit an express product: code, names, descriptions, status and who may use it. */
export function ProductDialog({
  editing,
  onClose,
  onSaved,
}: {
  editing: ExpressProduct | 'new';
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation();
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

  const label = {
    code: t('expressProducts.code'),
    name: t('expressProducts.nameZh'),
    nameEn: t('expressProducts.nameEn'),
    description: t('expressProducts.descriptionZh'),
    descriptionEn: t('expressProducts.descriptionEn'),
  };

  return (
    <Modal
      open
      width={720}
      title={editing === 'new' ? t('expressProducts.new') : `${t('expressProducts.edit')} · ${editing.code}`}
      onCancel={onClose}
      onOk={() => void submit()}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      confirmLoading={save.isPending}
      okButtonProps={{ 'data-testid': 'express-product-save' } as never}
      destroyOnHidden
    >
      <Form
        form={form}
        layout="vertical"
        initialValues={editing === 'new' ? DEFAULTS : productInput(editing)}
        data-testid="express-product-form"
      >
        <Row gutter={16}>
          <Col xs={24} sm={12}>
            <Form.Item
              name="code"
              label={label.code}
              extra={t('expressProducts.codeTip')}
              rules={[requiredRule(label.code), schemaRule(shape.code, label.code)]}
            >
              <Input maxLength={40} data-testid="express-product-code" />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item name="enabled" label={t('common.status')} valuePropName="checked">
              <Switch checkedChildren={t('common.enabled')} unCheckedChildren={t('common.disabled')} />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item
              name="name"
              label={label.name}
              rules={[requiredRule(label.name), schemaRule(shape.name, label.name)]}
            >
              <Input maxLength={100} data-testid="express-product-name" />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item
              name="nameEn"
              label={label.nameEn}
              rules={[requiredRule(label.nameEn), schemaRule(shape.nameEn, label.nameEn)]}
            >
              <Input maxLength={100} data-testid="express-product-name-en" />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item
              name="description"
              label={label.description}
              extra={t('expressProducts.descriptionTip')}
              rules={[schemaRule(shape.description, label.description)]}
            >
              <Input.TextArea rows={3} maxLength={500} showCount />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item
              name="descriptionEn"
              label={label.descriptionEn}
              rules={[schemaRule(shape.descriptionEn, label.descriptionEn)]}
            >
              <Input.TextArea rows={3} maxLength={500} showCount />
            </Form.Item>
          </Col>
          <Col span={24}>
            <Form.Item
              name="organisationIds"
              label={t('expressProducts.organisations')}
              extra={t('expressProducts.organisationsTip')}
            >
              <OrganisationPicker
                line="express"
                placeholder={t('expressProducts.everyone')}
                testId="express-product-organisations"
              />
            </Form.Item>
          </Col>
        </Row>
      </Form>
    </Modal>
  );
}
