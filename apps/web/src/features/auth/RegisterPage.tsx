import { REGISTRATION_OPTIONS } from '@freight/contracts/auth';
import { COUNTRIES } from '@freight/contracts/countries';
import {
  Alert,
  App,
  Button,
  Checkbox,
  Col,
  Form,
  Input,
  Result,
  Row,
  Select,
  Space,
  Steps,
  Typography,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import type { Branding } from '../../app/branding.ts';
import { ImageUpload } from '../../components/ImageUpload.tsx';
import { ApiError, applyFieldErrors, post } from '../../lib/http.ts';
import { AuthFrame } from './AuthFrame.tsx';
import { requestCode } from './api.ts';
import { useCodeCountdown } from './useCodeCountdown.ts';

/** Which step holds each field, so a server answer naming a field opens the right step. */
const STEP_FIELDS: string[][] = [
  ['email', 'code', 'password', 'confirmPassword', 'invitationCode'],
  [
    'name',
    'surname',
    'phone',
    'wechat',
    'company',
    'address1',
    'address2',
    'zipcode',
    'city',
    'state',
    'country',
  ],
  ['business', 'monthlyVolume', 'goodsTypes', 'transportMethods', 'preferredLocations', 'licenseUrl'],
];

export default function RegisterPage({ branding }: { branding: Branding | undefined }) {
  const { t, i18n } = useTranslation();
  const en = i18n.language === 'en-US';
  const { message } = App.useApp();
  const [params] = useSearchParams();
  const [form] = Form.useForm();
  const [step, setStep] = useState(0);
  const [done, setDone] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const countdown = useCodeCountdown();
  const option = (o: { value: string; label: string; label_en: string }) => ({
    value: o.value,
    label: en ? o.label_en : o.label,
  });
  const required = (label: string) => [
    { required: true, message: t('validation.required', { field: label }) },
  ];
  const english = {
    pattern: /^[A-Za-z0-9 .,#&'()\-/]*$/,
    message: t('validation.englishOnly', { field: '' }),
  };

  const next = async () => {
    await form.validateFields(STEP_FIELDS[step]?.filter((f) => f !== 'preferredLocations'));
    setStep((s) => s + 1);
  };

  const sendCode = async () => {
    const { email } = await form.validateFields(['email']);
    try {
      await requestCode(email, 'register');
      message.success(t('auth.codeSent'));
      countdown.start();
    } catch (error) {
      if (!applyFieldErrors(error, form.setFields) && error instanceof ApiError) message.error(error.message);
    }
  };

  const submit = async () => {
    await form.validateFields();
    const values = form.getFieldsValue(true);
    setSubmitting(true);
    try {
      await post('/admin/auth/register', values);
      setDone(true);
    } catch (error) {
      if (error instanceof ApiError && error.fields.length > 0) {
        applyFieldErrors(error, form.setFields);
        const first = error.fields[0]?.field.split('.')[0] ?? '';
        const at = STEP_FIELDS.findIndex((fields) => fields.includes(first));
        if (at >= 0) setStep(at);
      } else if (error instanceof ApiError) {
        message.error(error.message);
      }
    } finally {
      setSubmitting(false);
    }
  };

  if (done)
    return (
      <AuthFrame branding={branding}>
        <Result
          status="success"
          title={t('register.done')}
          subTitle={t('register.doneBody')}
          extra={
            <Link to="/login" data-testid="register-to-login">
              <Button type="primary">{t('register.toLogin')}</Button>
            </Link>
          }
        />
      </AuthFrame>
    );

  return (
    <AuthFrame branding={branding}>
      <Typography.Title level={3}>{t('register.title')}</Typography.Title>
      <Steps
        size="small"
        current={step}
        style={{ marginBottom: 24 }}
        items={[
          { title: t('register.stepAccount') },
          { title: t('register.stepCompany') },
          { title: t('register.stepBusiness') },
        ]}
      />
      <Form
        form={form}
        layout="vertical"
        initialValues={{
          invitationCode: params.get('invite') ?? '',
          country: 'US',
          preferredLocations: ['', '', ''],
          business: ['truck'],
        }}
      >
        <div hidden={step !== 0}>
          <Form.Item
            name="email"
            label={t('register.workEmail')}
            rules={[...required(t('register.workEmail')), { type: 'email', message: t('validation.email') }]}
          >
            <Input data-testid="reg-email" />
          </Form.Item>
          <Form.Item label={t('login.code')} required>
            <Space.Compact style={{ width: '100%' }}>
              <Form.Item
                name="code"
                noStyle
                rules={[
                  { required: true, message: t('login.codePlaceholder') },
                  { pattern: /^\d{6}$/, message: t('validation.code') },
                ]}
              >
                <Input maxLength={6} data-testid="reg-code" />
              </Form.Item>
              <Button
                onClick={sendCode}
                disabled={countdown.seconds > 0}
                data-testid="reg-get-code"
                style={{ minWidth: 130 }}
              >
                {countdown.seconds > 0
                  ? t('login.resend', { seconds: countdown.seconds })
                  : t('login.getCode')}
              </Button>
            </Space.Compact>
          </Form.Item>
          <Row gutter={12}>
            <Col span={12}>
              <Form.Item
                name="password"
                label={t('login.password')}
                rules={[...required(t('login.password')), { min: 6, message: t('validation.passwordMin') }]}
              >
                <Input.Password data-testid="reg-password" />
              </Form.Item>
            </Col>
            <Col span={12}>
              <Form.Item
                name="confirmPassword"
                label={t('register.confirmPassword')}
                dependencies={['password']}
                rules={[
                  ...required(t('register.confirmPassword')),
                  ({ getFieldValue }) => ({
                    validator: (_, value) =>
                      !value || getFieldValue('password') === value
                        ? Promise.resolve()
                        : Promise.reject(new Error(t('validation.passwordMismatch'))),
                  }),
                ]}
              >
                <Input.Password data-testid="reg-confirm" />
              </Form.Item>
            </Col>
          </Row>
          <Form.Item name="invitationCode" label={t('register.invitationCode')}>
            <Input data-testid="reg-invite" />
          </Form.Item>
        </div>
        <div hidden={step !== 1}>
          <Alert type="info" showIcon message={t('register.englishTip')} style={{ marginBottom: 12 }} />
          <Row gutter={12}>
            <Col span={12}>
              <Form.Item name="name" label={t('register.name')} rules={required(t('register.name'))}>
                <Input data-testid="reg-name" />
              </Form.Item>
            </Col>
            <Col span={12}>
              <Form.Item name="surname" label={t('register.surname')} rules={required(t('register.surname'))}>
                <Input data-testid="reg-surname" />
              </Form.Item>
            </Col>
            <Col span={12}>
              <Form.Item
                name="phone"
                label={t('register.phone')}
                rules={[
                  ...required(t('register.phone')),
                  { pattern: /^1\d{10}$/, message: t('validation.phone') },
                ]}
              >
                <Input data-testid="reg-phone" />
              </Form.Item>
            </Col>
            <Col span={12}>
              <Form.Item name="wechat" label={t('register.wechat')}>
                <Input />
              </Form.Item>
            </Col>
          </Row>
          <Form.Item name="company" label={t('register.company')} rules={required(t('register.company'))}>
            <Input data-testid="reg-company" />
          </Form.Item>
          <Form.Item
            name="address1"
            label={t('register.address1')}
            rules={[...required(t('register.address1')), english]}
          >
            <Input data-testid="reg-address1" />
          </Form.Item>
          <Form.Item name="address2" label={t('register.address2')} rules={[english]}>
            <Input />
          </Form.Item>
          <Row gutter={12}>
            <Col span={8}>
              <Form.Item
                name="zipcode"
                label={t('register.zipcode')}
                rules={[
                  ...required(t('register.zipcode')),
                  { pattern: /^\d{5}$/, message: t('validation.zip') },
                ]}
              >
                <Input maxLength={5} data-testid="reg-zip" />
              </Form.Item>
            </Col>
            <Col span={8}>
              <Form.Item
                name="city"
                label={t('register.city')}
                rules={[...required(t('register.city')), english]}
              >
                <Input data-testid="reg-city" />
              </Form.Item>
            </Col>
            <Col span={8}>
              <Form.Item
                name="state"
                label={t('register.state')}
                rules={[...required(t('register.state')), english]}
              >
                <Input data-testid="reg-state" />
              </Form.Item>
            </Col>
          </Row>
          <Form.Item name="country" label={t('register.country')} rules={required(t('register.country'))}>
            <Select
              showSearch
              optionFilterProp="label"
              options={COUNTRIES.filter((c) => c.short).map((c) => ({
                value: c.short,
                label: `${en ? c.en : c.name} (+${c.tel})`,
              }))}
            />
          </Form.Item>
        </div>
        <div hidden={step !== 2}>
          <Form.Item name="business" label={t('register.business')} rules={required(t('register.business'))}>
            <Checkbox.Group options={REGISTRATION_OPTIONS.business.map(option)} />
          </Form.Item>
          <Form.Item
            name="monthlyVolume"
            label={t('register.monthlyVolume')}
            rules={required(t('register.monthlyVolume'))}
          >
            <Select options={REGISTRATION_OPTIONS.monthlyVolume.map(option)} data-testid="reg-volume" />
          </Form.Item>
          <Form.Item
            name="goodsTypes"
            label={t('register.goodsTypes')}
            rules={required(t('register.goodsTypes'))}
          >
            <Select
              mode="multiple"
              options={REGISTRATION_OPTIONS.goodsTypes.map(option)}
              data-testid="reg-goods"
            />
          </Form.Item>
          <Form.Item
            name="transportMethods"
            label={t('register.transportMethods')}
            rules={required(t('register.transportMethods'))}
          >
            <Checkbox.Group options={REGISTRATION_OPTIONS.transportMethods.map(option)} />
          </Form.Item>
          <Form.Item label={t('register.locations')} required>
            <Row gutter={8}>
              {[0, 1, 2].map((i) => (
                <Col span={8} key={i}>
                  <Form.Item
                    name={['preferredLocations', i]}
                    noStyle
                    rules={required(t('register.location', { n: i + 1 }))}
                  >
                    <Input
                      placeholder={t('register.location', { n: i + 1 })}
                      data-testid={`reg-location-${i}`}
                    />
                  </Form.Item>
                </Col>
              ))}
            </Row>
          </Form.Item>
          <Form.Item name="licenseUrl" label={t('register.license')} rules={required(t('register.license'))}>
            <ImageUpload testId="reg-license" />
          </Form.Item>
        </div>
      </Form>
      <Space style={{ justifyContent: 'space-between', width: '100%' }}>
        {step > 0 ? (
          <Button onClick={() => setStep((s) => s - 1)} data-testid="reg-back">
            {t('register.back')}
          </Button>
        ) : (
          <Link to="/login">{t('register.haveAccount')}</Link>
        )}
        {step < 2 ? (
          <Button type="primary" onClick={() => void next()} data-testid="reg-next">
            {t('register.next')}
          </Button>
        ) : (
          <Button type="primary" onClick={() => void submit()} loading={submitting} data-testid="reg-submit">
            {t('register.submit')}
          </Button>
        )}
      </Space>
    </AuthFrame>
  );
}
