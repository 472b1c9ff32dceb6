import { useMutation, useQuery } from '@tanstack/react-query';
import { App, Button, Card, Form, Select, Skeleton } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Auth } from '../../components/Auth.tsx';
import { useReportError } from '../../hooks/useReportError.ts';
import { type AccountOption, batchOrderApi } from './api.ts';

const label = (u: AccountOption) => (u.company ? `${u.email} · ${u.company}` : u.email);

/** SPEC section 1 hides the batch-order buttons for certain accounts; staff choose them here. */
export function BatchOrderAccountsCard() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const reportError = useReportError();
  const [form] = Form.useForm<{ userIds: number[] }>();
  const [keyword, setKeyword] = useState('');
  const [debounced, setDebounced] = useState('');
  useEffect(() => {
    const timer = window.setTimeout(() => setDebounced(keyword), 300);
    return () => window.clearTimeout(timer);
  }, [keyword]);

  const info = useQuery({ queryKey: ['site-batch-order'], queryFn: batchOrderApi.info });
  const found = useQuery({
    queryKey: ['site-user-options', debounced],
    queryFn: () => batchOrderApi.search(debounced),
  });
  useEffect(() => {
    if (info.data) form.setFieldsValue({ userIds: info.data.users.map((u) => u.id) });
  }, [info.data, form]);

  // The chosen accounts stay labelled while the search shows others.
  const options = useMemo(() => {
    const byId = new Map<number, AccountOption>();
    for (const u of [...(info.data?.users ?? []), ...(found.data?.list ?? [])]) byId.set(u.id, u);
    return [...byId.values()].map((u) => ({ value: u.id, label: label(u) }));
  }, [info.data, found.data]);

  const save = useMutation({
    mutationFn: (values: { userIds: number[] }) => batchOrderApi.save(values.userIds ?? []),
    onSuccess: async () => {
      message.success(t('common.saved'));
      await info.refetch();
    },
    onError: (error) => reportError(error, form),
  });

  return (
    <Card title={t('site.batchOrder')}>
      {info.isLoading ? (
        <Skeleton active paragraph={{ rows: 2 }} />
      ) : (
        <Form
          form={form}
          layout="vertical"
          onFinish={(values) => save.mutate(values)}
          style={{ maxWidth: 640 }}
        >
          <Form.Item name="userIds" label={t('site.batchOrderHidden')} extra={t('site.batchOrderTip')}>
            <Select
              mode="multiple"
              showSearch={{ filterOption: false, onSearch: setKeyword }}
              placeholder={t('site.searchAccount')}
              options={options}
              loading={found.isFetching}
              data-testid="site-batch-hidden"
            />
          </Form.Item>
          <Auth code="site:save">
            <Button type="primary" htmlType="submit" loading={save.isPending} data-testid="site-batch-save">
              {t('common.save')}
            </Button>
          </Auth>
        </Form>
      )}
    </Card>
  );
}
