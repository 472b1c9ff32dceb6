import { useMutation } from '@tanstack/react-query';
import { Alert, App, Button, Form, Input, Result, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import type { Branding } from '../../context/branding.ts';
import { useReportError } from '../../hooks/useReportError.ts';
import { matchesPassword } from '../../lib/form-rules.ts';
import { ApiError } from '../../lib/http.ts';
import { AuthFrame } from './AuthFrame.tsx';
import { requestPasswordReset, resetPassword } from './api.ts';

/** Asks for a reset link by e-mail; opened from that link (`?token=`), sets the new password. */
export default function ForgotPasswordPage({ branding }: { branding: Branding | undefined }) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const token = params.get('token');
  const [form] = Form.useForm();
  const { message } = App.useApp();
  const reportError = useReportError();

  const ask = useMutation({
    mutationFn: (email: string) => requestPasswordReset(email),
    onError: (error) => reportError(error, form),
  });
  const reset = useMutation({
    mutationFn: (values: { password: string; confirmPassword: string }) =>
      resetPassword(token ?? '', values.password, values.confirmPassword),
    onError: (error) => {
      // A dead or used link is named as the field `token`, which the form does not show.
      if (error instanceof ApiError && error.fields.some((f) => f.field === 'token'))
        void message.error(error.fields.find((f) => f.field === 'token')?.message ?? error.message);
      else reportError(error, form);
    },
  });
  const state = reset.isSuccess ? 'reset' : ask.isSuccess ? 'sent' : 'form';
  const submit = (values: Record<string, string>) => {
    if (token)
      reset.mutate({ password: values.password ?? '', confirmPassword: values.confirmPassword ?? '' });
    else ask.mutate((values.email ?? '').trim());
  };
  const busy = ask.isPending || reset.isPending;

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
        <Alert type="success" showIcon title={t('forgot.sent')} data-testid="forgot-sent" />
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
                rules={[{ required: true, message: t('login.passwordPlaceholder') }, matchesPassword]}
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
      {/* After the reset the result's own button leads back; one way back is enough. */}
      {state === 'reset' ? null : (
        <div style={{ marginTop: 16 }}>
          <Link to="/login" data-testid="forgot-back">
            {t('forgot.backToLogin')}
          </Link>
        </div>
      )}
    </AuthFrame>
  );
}
