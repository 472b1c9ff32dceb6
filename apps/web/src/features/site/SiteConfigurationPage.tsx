import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, ColorPicker, Form, Input, Select, Spin } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Auth } from '../../components/Auth.tsx';
import { ImageUpload } from '../../components/ImageUpload.tsx';
import { ApiError, applyFieldErrors, post } from '../../lib/http.ts';

interface SiteConfig {
  siteName: string;
  buttonColor: string;
  logoUrl: string | null;
  logoCollapsedUrl: string | null;
  faviconUrl: string | null;
  copyright: string;
  filingNumber: string;
  filingHosts: string[];
}

export default function SiteConfigurationPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<SiteConfig>();
  const [saving, setSaving] = useState(false);
  const info = useQuery({ queryKey: ['site-config'], queryFn: () => post<SiteConfig>('/admin/site/info') });
  useEffect(() => {
    if (info.data) form.setFieldsValue(info.data);
  }, [info.data, form]);

  const save = async (values: SiteConfig) => {
    setSaving(true);
    try {
      const buttonColor =
        typeof values.buttonColor === 'string'
          ? values.buttonColor
          : (values.buttonColor as { toHexString(): string }).toHexString();
      await post('/admin/site/save', { ...values, buttonColor: buttonColor.toUpperCase().slice(0, 7) });
      message.success(t('common.saved'));
      await queryClient.invalidateQueries({ queryKey: ['branding'] });
      await info.refetch();
    } catch (error) {
      if (!applyFieldErrors(error, form.setFields) && error instanceof ApiError) message.error(error.message);
    } finally {
      setSaving(false);
    }
  };

  if (info.isLoading) return <Spin />;
  return (
    <Card>
      <Form form={form} layout="vertical" onFinish={save} style={{ maxWidth: 640 }}>
        <Form.Item
          name="siteName"
          label={t('site.siteName')}
          rules={[
            { required: true, message: t('validation.required', { field: t('site.siteName') }) },
            { max: 20, message: t('validation.siteName') },
          ]}
        >
          <Input showCount maxLength={20} data-testid="site-name" />
        </Form.Item>
        <Form.Item name="buttonColor" label={t('site.buttonColor')}>
          <ColorPicker showText format="hex" disabledAlpha />
        </Form.Item>
        <Form.Item name="logoUrl" label={t('site.logo')}>
          <ImageUpload />
        </Form.Item>
        <Form.Item name="logoCollapsedUrl" label={t('site.logoCollapsed')}>
          <ImageUpload />
        </Form.Item>
        <Form.Item name="faviconUrl" label={t('site.favicon')}>
          <ImageUpload />
        </Form.Item>
        <Form.Item name="copyright" label={t('site.copyright')}>
          <Input maxLength={200} data-testid="site-copyright" />
        </Form.Item>
        <Form.Item name="filingNumber" label={t('site.filingNumber')}>
          <Input maxLength={100} />
        </Form.Item>
        <Form.Item name="filingHosts" label={t('site.filingHosts')} extra={t('site.filingHostsTip')}>
          <Select mode="tags" tokenSeparators={[',', ' ']} open={false} />
        </Form.Item>
        <Auth code="site:save">
          <Button type="primary" htmlType="submit" loading={saving} data-testid="site-save">
            {t('common.save')}
          </Button>
        </Auth>
      </Form>
    </Card>
  );
}
