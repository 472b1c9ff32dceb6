import { Alert, App, Button, Form, Input, Result, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import type { Branding } from '../../app/branding.ts';
import { ApiError, applyFieldErrors, post } from '../../lib/http.ts';
import { AuthFrame } from './AuthFrame.tsx';

/** Asks for a reset link by e-mail; opened from that link (`?token=`), sets the new password. */
export default function ForgotPasswordPage({ branding }: { branding: Branding | undefined }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [params] = useSearchParams();
  const token = params.get('token');
  const [form] = Form.useForm();
  const [state, setState] = useState<'form' | 'sent' | 'reset'>('form');
  const [busy, setBusy] = useState(false);

  const submit = async (values: Record<string, string>) => {
    setBusy(true);
    try {
      if (token) {
        await post('/admin/auth/retrievePassword', {
          token,
          password: values.password,
          confirmPassword: values.confirmPassword,
        });
        setState('reset');
      } else {
        await post('/admin/auth/retrievePassword', { email: values.email });
        setState('sent');
      }
    } catch (error) {
      if (!applyFieldErrors(error, form.setFields) && error instanceof ApiError) message.error(error.message);
      else if (error instanceof ApiError && error.fields.some((f) => f.field === 'token'))
        message.error(error.message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <AuthFrame branding={branding}>
      <Typography.Title level={3}>{t('forgot.title')}</Typography.Title>
      {state === 'reset' ? (
        <Result
          status="success"
          title={t('auth.passwordReset')}
          extra={
            <Link to="/login">
              <Button type="primary" data-testid="forgot-to-login">
                {t('forgot.backToLogin')}
              </Button>
            </Link>
          }
        />
      ) : state === 'sent' ? (
        <Alert type="success" showIcon message={t('forgot.sent')} data-testid="forgot-sent" />
      ) : (
        <Form form={form} layout="vertical" size="large" onFinish={submit}>
          {token ? (
            <>
              <Form.Item
                name="password"
                label={t('forgot.newPassword')}
                rules={[
                  { required: true, message: t('login.passwordPlaceholder') },
                  { min: 6, message: t('validation.passwordMin') },
                ]}
              >
                <Input.Password data-testid="forgot-password" />
              </Form.Item>
              <Form.Item
                name="confirmPassword"
                label={t('register.confirmPassword')}
                dependencies={['password']}
                rules={[
                  { required: true, message: t('login.passwordPlaceholder') },
                  ({ getFieldValue }) => ({
                    validator: (_, value) =>
                      !value || getFieldValue('password') === value
                        ? Promise.resolve()
                        : Promise.reject(new Error(t('validation.passwordMismatch'))),
                  }),
                ]}
              >
                <Input.Password data-testid="forgot-confirm" />
              </Form.Item>
            </>
          ) : (
            <>
              <Typography.Paragraph type="secondary">{t('forgot.tip')}</Typography.Paragraph>
              <Form.Item
                name="email"
                label={t('login.email')}
                rules={[
                  { required: true, message: t('login.emailPlaceholder') },
                  { type: 'email', message: t('validation.email') },
                ]}
              >
                <Input data-testid="forgot-email" />
              </Form.Item>
            </>
          )}
          <Button type="primary" htmlType="submit" block loading={busy} data-testid="forgot-submit">
            {token ? t('forgot.reset') : t('forgot.send')}
          </Button>
        </Form>
      )}
      <div style={{ marginTop: 16 }}>
        <Link to="/login">{t('forgot.backToLogin')}</Link>
      </div>
    </AuthFrame>
  );
}
