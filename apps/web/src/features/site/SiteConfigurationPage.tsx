import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, ColorPicker, Flex, Form, Input, Select, Skeleton } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Auth } from '../../components/Auth.tsx';
import { ImageUpload } from '../../components/ImageUpload.tsx';
import { useReportError } from '../../hooks/useReportError.ts';
import { AdsCard } from './AdsCard.tsx';
import { type SiteConfig, siteApi } from './api.ts';
import { BatchOrderAccountsCard } from './BatchOrderAccountsCard.tsx';

/** What the ColorPicker hands back once touched. */
interface PickedColour {
  toHexString(): string;
}

type SiteForm = Omit<SiteConfig, 'buttonColor'> & { buttonColor: string | PickedColour };

/** The ColorPicker hands back a colour object once touched; the API takes `#RRGGBB`. */
const hex = (value: string | PickedColour) =>
  (typeof value === 'string' ? value : value.toHexString()).toUpperCase().slice(0, 7);

/** The tenant's branding: name, colour, logos, favicon, footer and where the filing number shows. */
export default function SiteConfigurationPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const reportError = useReportError();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<SiteForm>();
  const info = useQuery({ queryKey: ['site-config'], queryFn: siteApi.info });
  useEffect(() => {
    if (info.data) form.setFieldsValue(info.data);
  }, [info.data, form]);

  const save = useMutation({
    mutationFn: (values: SiteForm) => siteApi.save({ ...values, buttonColor: hex(values.buttonColor) }),
    onSuccess: async () => {
      message.success(t('common.saved'));
      // The shell's title, favicon, logo, colour and footer follow at once.
      await queryClient.invalidateQueries({ queryKey: ['branding'] });
      await info.refetch();
    },
    onError: (error) => reportError(error, form),
  });

  return (
    <Flex vertical gap={16}>
      <Card title={t('site.branding')}>
        {info.isLoading ? (
          <Skeleton active paragraph={{ rows: 8 }} />
        ) : (
          <Form
            form={form}
            layout="vertical"
            onFinish={(values) => save.mutate(values)}
            style={{ maxWidth: 640 }}
            initialValues={info.data}
          >
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
            <Form.Item name="siteNameEn" label={t('site.siteNameEn')} extra={t('site.englishTip')}>
              <Input showCount maxLength={40} data-testid="site-name-en" />
            </Form.Item>
            <Form.Item name="buttonColor" label={t('site.buttonColor')}>
              <ColorPicker showText format="hex" disabledAlpha />
            </Form.Item>
            <Form.Item name="logoUrl" label={t('site.logo')} extra={t('site.imageTip')}>
              <ImageUpload testId="site-logo" publicImage />
            </Form.Item>
            <Form.Item name="logoCollapsedUrl" label={t('site.logoCollapsed')} extra={t('site.imageTip')}>
              <ImageUpload testId="site-logo-collapsed" publicImage />
            </Form.Item>
            <Form.Item name="faviconUrl" label={t('site.favicon')} extra={t('site.imageTip')}>
              <ImageUpload testId="site-favicon" publicImage />
            </Form.Item>
            <Form.Item name="copyright" label={t('site.copyright')}>
              <Input maxLength={200} data-testid="site-copyright" />
            </Form.Item>
            <Form.Item name="copyrightEn" label={t('site.copyrightEn')} extra={t('site.englishTip')}>
              <Input maxLength={200} data-testid="site-copyright-en" />
            </Form.Item>
            <Form.Item name="filingNumber" label={t('site.filingNumber')}>
              <Input maxLength={100} />
            </Form.Item>
            <Form.Item name="filingHosts" label={t('site.filingHosts')} extra={t('site.filingHostsTip')}>
              <Select mode="tags" tokenSeparators={[',', ' ']} open={false} suffixIcon={null} />
            </Form.Item>
            <Auth code="site:save">
              <Button type="primary" htmlType="submit" loading={save.isPending} data-testid="site-save">
                {t('common.save')}
              </Button>
            </Auth>
          </Form>
        )}
      </Card>
      <AdsCard />
      <BatchOrderAccountsCard />
    </Flex>
  );
}
