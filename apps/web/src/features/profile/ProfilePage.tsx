import { useMutation } from '@tanstack/react-query';
import { App, Button, Card, Col, Form, Input, Radio, Row } from 'antd';
import { useTranslation } from 'react-i18next';
import { ImageUpload } from '../../components/ImageUpload.tsx';
import { useSession } from '../../context/session.tsx';
import { useReportError } from '../../hooks/useReportError.ts';
import i18n from '../../i18n/index.ts';
import { matchesPassword } from '../../lib/form-rules.ts';
import { phoneRule } from '../../lib/phone.ts';
import { type PasswordChange, type ProfileInput, profileApi } from './api.ts';

/** The personal centre: own details and avatar, language, and a password change that ends other sessions. */
export default function ProfilePage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const reportError = useReportError();
  const session = useSession();
  const [details] = Form.useForm<ProfileInput>();
  const [password] = Form.useForm<PasswordChange>();
  const user = session.userInfo;

  const saveDetails = useMutation({
    mutationFn: profileApi.save,
    onSuccess: async () => {
      // The header's name and avatar come from the session: read it again.
      await session.refreshUser();
      // Reading the user again may switch the language; speak the one now shown.
      message.success(i18n.t('common.saved'));
    },
    onError: (error) => reportError(error, details),
  });

  const changePassword = useMutation({
    mutationFn: profileApi.changePassword,
    onSuccess: () => {
      message.success(t('auth.passwordChanged'));
      password.resetFields();
    },
    onError: (error) => reportError(error, password),
  });

  return (
    <Row gutter={[12, 12]}>
      <Col xs={24} lg={12}>
        <Card title={t('profile.details')}>
          <Form
            form={details}
            layout="vertical"
            onFinish={(values) =>
              saveDetails.mutate({ ...values, phone: values.phone ?? '', company: values.company ?? '' })
            }
            initialValues={{
              name: user?.name,
              phone: user?.phone,
              company: user?.company,
              avatarUrl: user?.avatar ?? null,
            }}
          >
            <Form.Item name="avatarUrl" label={t('profile.avatar')}>
              <ImageUpload testId="profile-avatar" />
            </Form.Item>
            <Form.Item label={t('login.email')}>
              <Input value={user?.email} disabled />
            </Form.Item>
            <Form.Item
              name="name"
              label={t('profile.name')}
              rules={[{ required: true, message: t('validation.required', { field: t('profile.name') }) }]}
            >
              <Input data-testid="profile-name" />
            </Form.Item>
            <Form.Item name="phone" label={t('profile.phone')} rules={[phoneRule]}>
              <Input />
            </Form.Item>
            <Form.Item name="company" label={t('profile.company')}>
              <Input />
            </Form.Item>
            <Form.Item label={t('profile.language')}>
              <Radio.Group
                value={session.language}
                onChange={(e) => void session.setLanguage(e.target.value)}
                options={[
                  { value: 'zh-CN', label: '简体中文' },
                  { value: 'en-US', label: 'English' },
                ]}
              />
            </Form.Item>
            <Button
              type="primary"
              htmlType="submit"
              loading={saveDetails.isPending}
              data-testid="profile-save"
            >
              {t('common.save')}
            </Button>
          </Form>
        </Card>
      </Col>
      <Col xs={24} lg={12}>
        <Card title={t('profile.changePassword')}>
          <Form form={password} layout="vertical" onFinish={(values) => changePassword.mutate(values)}>
            <Form.Item
              name="oldPassword"
              label={t('profile.oldPassword')}
              rules={[{ required: true, message: t('login.passwordPlaceholder') }]}
            >
              <Input.Password autoComplete="current-password" />
            </Form.Item>
            <Form.Item
              name="password"
              label={t('profile.newPassword')}
              rules={[
                { required: true, message: t('login.passwordPlaceholder') },
                { min: 6, message: t('validation.passwordMin') },
              ]}
            >
              <Input.Password autoComplete="new-password" />
            </Form.Item>
            <Form.Item
              name="confirmPassword"
              label={t('profile.confirmPassword')}
              dependencies={['password']}
              rules={[{ required: true, message: t('login.passwordPlaceholder') }, matchesPassword]}
            >
              <Input.Password autoComplete="new-password" />
            </Form.Item>
            <Button type="primary" htmlType="submit" loading={changePassword.isPending}>
              {t('profile.changePassword')}
            </Button>
          </Form>
        </Card>
      </Col>
    </Row>
  );
}
