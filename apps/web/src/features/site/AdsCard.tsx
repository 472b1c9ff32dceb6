import { MinusCircleOutlined, PlusOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Form, Input, Skeleton, Space } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Auth } from '../../components/Auth.tsx';
import { useReportError } from '../../hooks/useReportError.ts';
import { type Ad, adsApi } from './api.ts';

/** The tenant's own ads for the strip under the top bar (SPEC section 2), used while no feed is set. */
export function AdsCard() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const reportError = useReportError();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<{ ads: Ad[] }>();
  const info = useQuery({ queryKey: ['site-ads'], queryFn: adsApi.info });
  useEffect(() => {
    if (info.data) form.setFieldsValue({ ads: info.data.ads });
  }, [info.data, form]);

  const save = useMutation({
    mutationFn: (values: { ads?: Ad[] }) => adsApi.save(values.ads ?? []),
    onSuccess: async () => {
      message.success(t('common.saved'));
      // The strip of this very page follows at once.
      await queryClient.invalidateQueries({ queryKey: ['ads'] });
      await info.refetch();
    },
    onError: (error) => reportError(error, form),
  });

  return (
    <Card title={t('site.ads')}>
      {info.isLoading ? (
        <Skeleton active />
      ) : (
        <Form form={form} onFinish={(values) => save.mutate(values)} style={{ maxWidth: 760 }}>
          <Alert
            type={info.data?.externalFeed ? 'warning' : 'info'}
            showIcon
            style={{ marginBottom: 16 }}
            title={info.data?.externalFeed ? t('site.adsExternal') : t('site.adsTip')}
          />
          <Form.List name="ads">
            {(fields, { add, remove }) => (
              <>
                {fields.map(({ key, name }) => (
                  <Space key={key} align="baseline" style={{ display: 'flex' }} data-testid="ad-row">
                    <Form.Item
                      name={[name, 'title']}
                      rules={[
                        { required: true, message: t('validation.required', { field: t('site.adTitle') }) },
                      ]}
                    >
                      <Input
                        placeholder={t('site.adTitle')}
                        maxLength={100}
                        style={{ width: 260 }}
                        data-testid="ad-title"
                      />
                    </Form.Item>
                    <Form.Item
                      name={[name, 'url']}
                      rules={[
                        { required: true, message: t('validation.required', { field: t('site.adUrl') }) },
                        { pattern: /^https?:\/\/\S+$/i, message: t('site.adUrlInvalid') },
                      ]}
                    >
                      <Input
                        placeholder={t('site.adUrl')}
                        maxLength={500}
                        style={{ width: 360 }}
                        data-testid="ad-url"
                      />
                    </Form.Item>
                    <MinusCircleOutlined onClick={() => remove(name)} aria-label={t('common.delete')} />
                  </Space>
                ))}
                {fields.length < 20 ? (
                  <Form.Item>
                    <Button type="dashed" onClick={() => add()} icon={<PlusOutlined />} data-testid="ad-add">
                      {t('site.adAdd')}
                    </Button>
                  </Form.Item>
                ) : null}
              </>
            )}
          </Form.List>
          <Auth code="site:save">
            <Button type="primary" htmlType="submit" loading={save.isPending} data-testid="ads-save">
              {t('common.save')}
            </Button>
          </Auth>
        </Form>
      )}
    </Card>
  );
}
