import { App, Button, Card, Col, Form, Input, Radio, Row } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../app/session.tsx';
import { ImageUpload } from '../../components/ImageUpload.tsx';
import { ApiError, applyFieldErrors, post } from '../../lib/http.ts';

/** The personal centre: own details and avatar, language, and a password change that ends other sessions. */
export default function ProfilePage() {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const session = useSession();
  const [details] = Form.useForm();
  const [password] = Form.useForm();
  const [saving, setSaving] = useState(false);
  const [changing, setChanging] = useState(false);
  const user = session.userInfo;

  const saveDetails = async (values: {
    name: string;
    phone: string;
    company: string;
    avatarUrl: string | null;
  }) => {
    setSaving(true);
    try {
      await post('/admin/admin/saveProfile', values);
      await session.refreshUser();
      message.success(t('common.saved'));
    } catch (error) {
      if (!applyFieldErrors(error, details.setFields) && error instanceof ApiError)
        message.error(error.message);
    } finally {
      setSaving(false);
    }
  };

  const changePassword = async (values: Record<string, string>) => {
    setChanging(true);
    try {
      await post('/admin/admin/changePassword', values);
      message.success(t('auth.passwordChanged'));
      password.resetFields();
    } catch (error) {
      if (!applyFieldErrors(error, password.setFields) && error instanceof ApiError)
        message.error(error.message);
    } finally {
      setChanging(false);
    }
  };

  return (
    <Row gutter={[12, 12]}>
      <Col xs={24} lg={12}>
        <Card title={t('profile.details')}>
          <Form
            form={details}
            layout="vertical"
            onFinish={saveDetails}
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
            <Form.Item
              name="phone"
              label={t('profile.phone')}
              rules={[{ pattern: /^1\d{10}$/, message: t('validation.phone') }]}
            >
              <Input />
            </Form.Item>
            <Form.Item name="company" label={t('profile.company')}>
              <Input />
            </Form.Item>
            <Form.Item label={t('profile.language')}>
              <Radio.Group
                value={i18n.language}
                onChange={(e) => void session.setLanguage(e.target.value)}
                options={[
                  { value: 'zh-CN', label: '简体中文' },
                  { value: 'en-US', label: 'English' },
                ]}
              />
            </Form.Item>
            <Button type="primary" htmlType="submit" loading={saving} data-testid="profile-save">
              {t('common.save')}
            </Button>
          </Form>
        </Card>
      </Col>
      <Col xs={24} lg={12}>
        <Card title={t('profile.changePassword')}>
          <Form form={password} layout="vertical" onFinish={changePassword}>
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
              <Input.Password autoComplete="new-password" />
            </Form.Item>
            <Button type="primary" htmlType="submit" loading={changing}>
              {t('profile.changePassword')}
            </Button>
          </Form>
        </Card>
      </Col>
    </Row>
  );
}
