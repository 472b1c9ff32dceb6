import { LockOutlined, MailOutlined, SafetyOutlined } from '@ant-design/icons';
import { useMutation } from '@tanstack/react-query';
import { App, Button, Form, Input, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import type { Branding } from '../../context/branding.ts';
import { useSession } from '../../context/session.tsx';
import { useReportError } from '../../hooks/useReportError.ts';
import i18n from '../../i18n/index.ts';
import { ApiError, NO_ANSWER } from '../../lib/http.ts';
import { AuthFrame } from './AuthFrame.tsx';
import { login, requestCode } from './api.ts';
import { useCodeCountdown } from './useCodeCountdown.ts';

interface LoginForm {
  email: string;
  password: string;
  code: string;
}

export default function LoginPage({ branding }: { branding: Branding | undefined }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<LoginForm>();
  const session = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  const countdown = useCodeCountdown();
  const reportError = useReportError();

  const sendCode = useMutation({
    mutationFn: (email: string) => requestCode(email, 'login'),
    onSuccess: () => {
      message.success(t('auth.codeSent'));
      countdown.start();
    },
    onError: (error) => reportError(error, form),
  });

  const askForCode = () =>
    form.validateFields(['email']).then(
      ({ email }) => sendCode.mutate(email.trim()),
      () => undefined,
    );

  const signIn = useMutation({
    mutationFn: async (values: LoginForm) => {
      const token = await login(values.email.trim(), values.password, values.code.trim());
      // SPEC section 8: a sign-in answer without a token is an error of its own.
      if (!token) throw new ApiError(NO_ANSWER, t('shell.noToken'));
      await session.signIn(token);
    },
    onSuccess: () => {
      // Signing in switches to the user's own language; this render's `t` still speaks the old one.
      message.success(i18n.t('login.success'));
      const from = (location.state as { from?: string } | null)?.from;
      navigate(from && from !== '/login' ? from : '/home', { replace: true });
    },
    onError: (error) => reportError(error, form),
  });

  return (
    <AuthFrame branding={branding}>
      <Typography.Title level={2}>{t('login.title')}</Typography.Title>
      <Form
        form={form}
        layout="vertical"
        size="large"
        onFinish={(values) => signIn.mutate(values)}
        requiredMark={false}
      >
        <Form.Item
          name="email"
          label={t('login.email')}
          rules={[
            { required: true, message: t('login.emailPlaceholder') },
            { type: 'email', message: t('validation.email') },
          ]}
        >
          <Input
            prefix={<MailOutlined />}
            placeholder={t('login.emailPlaceholder')}
            autoComplete="username"
            data-testid="login-email"
          />
        </Form.Item>
        <Form.Item
          name="password"
          label={t('login.password')}
          rules={[{ required: true, message: t('login.passwordPlaceholder') }]}
        >
          <Input.Password
            prefix={<LockOutlined />}
            placeholder={t('login.passwordPlaceholder')}
            autoComplete="current-password"
            data-testid="login-password"
          />
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
              <Input
                prefix={<SafetyOutlined />}
                placeholder={t('login.codePlaceholder')}
                maxLength={6}
                data-testid="login-code"
              />
            </Form.Item>
            <Button
              onClick={askForCode}
              loading={sendCode.isPending}
              disabled={countdown.seconds > 0}
              data-testid="login-get-code"
              style={{ minWidth: 130 }}
            >
              {countdown.seconds > 0 ? t('login.resend', { seconds: countdown.seconds }) : t('login.getCode')}
            </Button>
          </Space.Compact>
        </Form.Item>
        <Form.Item>
          <Button
            type="primary"
            htmlType="submit"
            block
            loading={signIn.isPending}
            data-testid="login-submit"
          >
            {t('login.submit')}
          </Button>
        </Form.Item>
      </Form>
      <Space style={{ justifyContent: 'space-between', width: '100%' }}>
        <Link to="/forgotPassword" data-testid="forgot-link">
          {t('login.forgot')}
        </Link>
        <span>
          {t('login.noAccount')}{' '}
          <Link to="/register" data-testid="register-link">
            {t('login.register')}
          </Link>
        </span>
      </Space>
    </AuthFrame>
  );
}
