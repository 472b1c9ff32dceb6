import { COUNTRIES, DEFAULT_DIAL_CODE } from '@freight/contracts/countries';
import { emailField, englishField, passwordField, zipField } from '@freight/contracts/validation';
import { useMutation, useQuery } from '@tanstack/react-query';
import {
  Alert,
  App,
  Button,
  Checkbox,
  Col,
  Form,
  type FormRule,
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
import { ImageUpload } from '../../components/ImageUpload.tsx';
import type { Branding } from '../../context/branding.ts';
import { useReportError } from '../../hooks/useReportError.ts';
import { fieldRule, matchesPassword } from '../../lib/form-rules.ts';
import { ApiError, applyFieldErrors } from '../../lib/http.ts';
import { phoneForDialCodeRule } from '../../lib/phone.ts';
import { AuthFrame } from './AuthFrame.tsx';
import {
  checkInvitation,
  type RegistrationOption,
  register,
  registrationOptions,
  requestCode,
} from './api.ts';
import { useCodeCountdown } from './useCodeCountdown.ts';

/** Which step holds each field, so a server answer naming a field opens the right step. */
const STEP_FIELDS: string[][] = [
  ['email', 'code', 'password', 'confirmPassword', 'invitationCode'],
  [
    'name',
    'surname',
    'dialCode',
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

/** Dial codes for the phone prefix: one entry per code, the countries sharing it named together. */
function dialCodeOptions(en: boolean) {
  const byCode = new Map<string, string[]>();
  for (const country of COUNTRIES) {
    if (!country.tel) continue;
    byCode.set(country.tel, [...(byCode.get(country.tel) ?? []), en ? country.en : country.name]);
  }
  return [...byCode].map(([tel, names]) => ({
    value: tel,
    label: `+${tel}`,
    title: `${names.join(' / ')} +${tel}`,
  }));
}

export default function RegisterPage({ branding }: { branding: Branding | undefined }) {
  const { t, i18n } = useTranslation();
  const en = i18n.language === 'en-US';
  const { message } = App.useApp();
  const reportError = useReportError();
  const [params] = useSearchParams();
  const [form] = Form.useForm();
  const [step, setStep] = useState(0);
  const countdown = useCodeCountdown();
  // SPEC section 7: the choices of step 3 come from the server.
  const options = useQuery({ queryKey: ['registration-options'], queryFn: registrationOptions });
  const choices = (list: readonly RegistrationOption[] | undefined) =>
    (list ?? []).map((o) => ({ value: o.value, label: en ? o.label_en : o.label }));
  const required = (label: string): FormRule[] => [
    { required: true, message: t('validation.required', { field: label }) },
  ];

  const sendCode = useMutation({
    mutationFn: (email: string) => requestCode(email, 'register'),
    onSuccess: () => {
      message.success(t('auth.codeSent'));
      countdown.start();
    },
    onError: (error) => reportError(error, form),
  });

  const submit = useMutation({
    mutationFn: (values: Record<string, unknown>) => register(values),
    onError: (error) => {
      if (error instanceof ApiError && applyFieldErrors(error, form.setFields)) {
        // Open the step that holds the first field the server refused.
        const first = error.fields[0]?.field.split('.')[0] ?? '';
        const at = STEP_FIELDS.findIndex((fields) => fields.includes(first));
        if (at >= 0) setStep(at);
        return;
      }
      reportError(error);
    },
  });

  const askForCode = () =>
    form.validateFields(['email']).then(
      ({ email }: { email: string }) => sendCode.mutate(email.trim()),
      () => undefined,
    );

  const invitation = useMutation({ mutationFn: checkInvitation });

  const next = () =>
    form.validateFields(STEP_FIELDS[step]).then(
      async () => {
        // The invitation code is checked on its own step, not after the last one.
        const code = String(form.getFieldValue('invitationCode') ?? '').trim();
        if (step === 0 && code) {
          const answer = await invitation.mutateAsync(code).catch((error: unknown) => {
            reportError(error, form);
            return null;
          });
          if (!answer) return;
          if (!answer.valid) {
            form.setFields([{ name: 'invitationCode', errors: [t('auth.invitationInvalid')] }]);
            return;
          }
        }
        setStep((s) => s + 1);
      },
      () => undefined,
    );

  // The phone number is judged by the dial code chosen beside it (the server's rule, shared).
  const phoneRule = phoneForDialCodeRule(() => t('register.phone'), 'dialCode', DEFAULT_DIAL_CODE);

  const finish = () =>
    form.validateFields().then(
      () => submit.mutate(form.getFieldsValue(true)),
      () => undefined,
    );

  if (submit.isSuccess)
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
    <AuthFrame branding={branding} wide>
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
          dialCode: DEFAULT_DIAL_CODE,
          country: 'US',
          preferredLocations: ['', '', ''],
        }}
      >
        <div hidden={step !== 0}>
          <Form.Item
            name="email"
            label={t('register.workEmail')}
            rules={[...required(t('register.workEmail')), fieldRule(emailField, 'email')]}
          >
            <Input autoComplete="email" placeholder={t('login.emailPlaceholder')} data-testid="reg-email" />
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
                <Input maxLength={6} placeholder={t('login.codePlaceholder')} data-testid="reg-code" />
              </Form.Item>
              <Button
                onClick={askForCode}
                loading={sendCode.isPending}
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
            <Col xs={24} sm={12}>
              <Form.Item
                name="password"
                label={t('login.password')}
                rules={[...required(t('login.password')), fieldRule(passwordField, 'password')]}
              >
                <Input.Password
                  autoComplete="new-password"
                  placeholder={t('login.passwordPlaceholder')}
                  data-testid="reg-password"
                />
              </Form.Item>
            </Col>
            <Col xs={24} sm={12}>
              <Form.Item
                name="confirmPassword"
                label={t('register.confirmPassword')}
                dependencies={['password']}
                rules={[...required(t('register.confirmPassword')), matchesPassword]}
              >
                <Input.Password autoComplete="new-password" data-testid="reg-confirm" />
              </Form.Item>
            </Col>
          </Row>
          <Form.Item name="invitationCode" label={t('register.invitationCode')}>
            <Input maxLength={32} placeholder={t('register.invitationOptional')} data-testid="reg-invite" />
          </Form.Item>
        </div>
        <div hidden={step !== 1}>
          <Alert type="info" showIcon title={t('register.englishTip')} style={{ marginBottom: 12 }} />
          <Row gutter={12}>
            <Col xs={24} sm={12}>
              <Form.Item name="name" label={t('register.name')} rules={required(t('register.name'))}>
                <Input maxLength={50} data-testid="reg-name" />
              </Form.Item>
            </Col>
            <Col xs={24} sm={12}>
              <Form.Item name="surname" label={t('register.surname')} rules={required(t('register.surname'))}>
                <Input maxLength={50} data-testid="reg-surname" />
              </Form.Item>
            </Col>
            <Col xs={24} sm={12}>
              <Form.Item label={t('register.phone')} required>
                <Space.Compact style={{ width: '100%' }}>
                  <Form.Item name="dialCode" noStyle>
                    <Select
                      showSearch={{ optionFilterProp: 'title' }}
                      popupMatchSelectWidth={260}
                      style={{ width: 96 }}
                      options={dialCodeOptions(en)}
                      aria-label={t('register.dialCode')}
                      data-testid="reg-dial-code"
                    />
                  </Form.Item>
                  <Form.Item
                    name="phone"
                    noStyle
                    dependencies={['dialCode']}
                    rules={[...required(t('register.phone')), phoneRule]}
                  >
                    <Input maxLength={20} inputMode="tel" data-testid="reg-phone" />
                  </Form.Item>
                </Space.Compact>
              </Form.Item>
            </Col>
            <Col xs={24} sm={12}>
              <Form.Item name="wechat" label={t('register.wechat')}>
                <Input maxLength={50} />
              </Form.Item>
            </Col>
          </Row>
          <Form.Item name="company" label={t('register.company')} rules={required(t('register.company'))}>
            <Input maxLength={100} data-testid="reg-company" />
          </Form.Item>
          <Form.Item
            name="address1"
            label={t('register.address1')}
            rules={[...required(t('register.address1')), fieldRule(englishField, 'address1')]}
          >
            <Input maxLength={200} data-testid="reg-address1" />
          </Form.Item>
          <Form.Item
            name="address2"
            label={t('register.address2')}
            rules={[fieldRule(englishField, 'address2')]}
          >
            <Input maxLength={200} />
          </Form.Item>
          <Row gutter={12}>
            <Col xs={24} sm={8}>
              <Form.Item
                name="zipcode"
                label={t('register.zipcode')}
                rules={[...required(t('register.zipcode')), fieldRule(zipField, 'zipcode')]}
              >
                <Input maxLength={5} inputMode="numeric" data-testid="reg-zip" />
              </Form.Item>
            </Col>
            <Col xs={24} sm={8}>
              <Form.Item
                name="city"
                label={t('register.city')}
                rules={[...required(t('register.city')), fieldRule(englishField, 'city')]}
              >
                <Input maxLength={60} data-testid="reg-city" />
              </Form.Item>
            </Col>
            <Col xs={24} sm={8}>
              <Form.Item
                name="state"
                label={t('register.state')}
                rules={[...required(t('register.state')), fieldRule(englishField, 'state')]}
              >
                <Input maxLength={60} data-testid="reg-state" />
              </Form.Item>
            </Col>
          </Row>
          <Form.Item name="country" label={t('register.country')} rules={required(t('register.country'))}>
            <Select
              showSearch={{ optionFilterProp: 'label' }}
              options={COUNTRIES.filter((c) => c.short).map((c) => ({
                value: c.short,
                label: en ? c.en : `${c.name} ${c.en}`,
              }))}
            />
          </Form.Item>
        </div>
        <div hidden={step !== 2}>
          <Form.Item name="business" label={t('register.business')} rules={required(t('register.business'))}>
            <Checkbox.Group options={choices(options.data?.business)} data-testid="reg-business" />
          </Form.Item>
          <Form.Item
            name="monthlyVolume"
            label={t('register.monthlyVolume')}
            rules={required(t('register.monthlyVolume'))}
          >
            <Select
              loading={options.isLoading}
              options={choices(options.data?.monthlyVolume)}
              placeholder={t('common.select')}
              data-testid="reg-volume"
            />
          </Form.Item>
          <Form.Item
            name="goodsTypes"
            label={t('register.goodsTypes')}
            rules={required(t('register.goodsTypes'))}
          >
            <Select
              mode="multiple"
              loading={options.isLoading}
              options={choices(options.data?.goodsTypes)}
              placeholder={t('common.select')}
              data-testid="reg-goods"
            />
          </Form.Item>
          <Form.Item
            name="transportMethods"
            label={t('register.transportMethods')}
            rules={required(t('register.transportMethods'))}
          >
            <Checkbox.Group options={choices(options.data?.transportMethods)} />
          </Form.Item>
          <Form.Item label={t('register.locations')} required style={{ marginBottom: 0 }}>
            <Row gutter={8}>
              {[0, 1, 2].map((i) => (
                <Col xs={24} sm={8} key={i}>
                  <Form.Item
                    name={['preferredLocations', i]}
                    rules={required(t('register.location', { n: i + 1 }))}
                  >
                    <Input
                      maxLength={120}
                      placeholder={t('register.location', { n: i + 1 })}
                      data-testid={`reg-location-${i}`}
                    />
                  </Form.Item>
                </Col>
              ))}
            </Row>
          </Form.Item>
          <Form.Item
            name="licenseUrl"
            label={t('register.license')}
            extra={t('register.licenseTip')}
            rules={required(t('register.license'))}
          >
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
          <Button
            type="primary"
            onClick={() => void next()}
            loading={invitation.isPending}
            data-testid="reg-next"
          >
            {t('register.next')}
          </Button>
        ) : (
          <Button
            type="primary"
            onClick={() => void finish()}
            loading={submit.isPending}
            data-testid="reg-submit"
          >
            {t('register.submit')}
          </Button>
        )}
      </Space>
    </AuthFrame>
  );
}
