import { useMutation, useQueryClient } from '@tanstack/react-query';
import { App, Button, DatePicker, Drawer, Form, Input, Space, Table, Tag } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Auth } from '../../components/Auth.tsx';
import { FilterBar, ListEmpty, listTableProps, useServerList } from '../../components/list.tsx';
import { useReportError } from '../../hooks/useReportError.ts';
import { CHANGELOG_FEED_KEY, CHANGELOG_LIST_URL, type ChangelogRow, changelogApi } from './api.ts';
import { ChangelogBody } from './ChangelogBody.tsx';

interface EntryForm {
  title: string;
  body: string;
  publishedAt: Dayjs;
}

/** Staff write the feature updates every user sees from the top bar. */
export default function ChangelogManagementPage() {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const reportError = useReportError();
  const queryClient = useQueryClient();
  const [filterForm] = Form.useForm<{ keyword?: string }>();
  const [filters, setFilters] = useState<{ keyword?: string }>({});
  const list = useServerList<ChangelogRow>(CHANGELOG_LIST_URL, filters);
  const [editing, setEditing] = useState<ChangelogRow | 'new' | null>(null);
  const [form] = Form.useForm<EntryForm>();

  const refresh = () => {
    void list.refetch();
    void queryClient.invalidateQueries({ queryKey: CHANGELOG_FEED_KEY });
  };

  const open = (row: ChangelogRow | 'new') => {
    form.resetFields();
    form.setFieldsValue(
      row === 'new'
        ? { publishedAt: dayjs() }
        : { title: row.title, body: row.body, publishedAt: dayjs(row.publishedAt) },
    );
    setEditing(row);
  };

  const save = useMutation({
    mutationFn: (values: EntryForm) =>
      changelogApi.save({
        id: editing !== 'new' && editing ? editing.id : undefined,
        title: values.title,
        body: values.body,
        publishedAt: values.publishedAt.toISOString(),
      }),
    onSuccess: () => {
      message.success(t('common.saved'));
      setEditing(null);
      refresh();
    },
    onError: (error) => reportError(error, form),
  });

  const remove = (row: ChangelogRow) =>
    modal.confirm({
      title: t('shell.dialogTitle'),
      content: t('changelog.deleteConfirm', { title: row.title }),
      okText: t('common.delete'),
      cancelText: t('shell.cancel'),
      okButtonProps: { danger: true },
      onOk: () =>
        changelogApi.remove(row.id).then(
          () => {
            message.success(t('common.deleted'));
            refresh();
          },
          (error: unknown) => reportError(error),
        ),
    });

  const required = (field: string) => ({ required: true, message: t('validation.required', { field }) });

  return (
    <div className="page-card">
      <FilterBar<{ keyword?: string }>
        form={filterForm}
        onSearch={(v) => {
          setFilters({ keyword: v.keyword || undefined });
          list.resetPage();
        }}
        extra={
          <Auth code="changelog:save">
            <Button type="primary" onClick={() => open('new')} data-testid="changelog-new">
              {t('changelog.new')}
            </Button>
          </Auth>
        }
      >
        <Form.Item name="keyword" label={t('common.keyword')}>
          <Input allowClear />
        </Form.Item>
      </FilterBar>
      <Table<ChangelogRow>
        rowKey="id"
        loading={list.loading}
        dataSource={list.rows}
        pagination={list.pagination}
        {...listTableProps(800)}
        locale={{
          emptyText: (
            <ListEmpty
              text={t('changelog.emptyList')}
              action={
                <Auth code="changelog:save">
                  <Button type="primary" onClick={() => open('new')} data-testid="list-empty-action">
                    {t('changelog.new')}
                  </Button>
                </Auth>
              }
            />
          ),
        }}
        expandable={{ expandedRowRender: (row) => <ChangelogBody body={row.body} /> }}
        columns={[
          { title: t('changelog.title'), dataIndex: 'title' },
          {
            title: t('changelog.publishedAt'),
            render: (_, r) => dayjs(r.publishedAt).format('YYYY-MM-DD HH:mm'),
          },
          {
            title: t('common.status'),
            render: (_, r) =>
              dayjs(r.publishedAt).isAfter(dayjs()) ? (
                <Tag color="orange">{t('changelog.scheduled')}</Tag>
              ) : (
                <Tag color="green">{t('changelog.published')}</Tag>
              ),
          },
          {
            title: t('common.actions'),
            width: 140,
            render: (_, row) => (
              <Space>
                <Auth code="changelog:save">
                  <Button type="link" size="small" onClick={() => open(row)}>
                    {t('common.edit')}
                  </Button>
                </Auth>
                <Auth code="changelog:delete">
                  <Button type="link" size="small" danger onClick={() => remove(row)}>
                    {t('common.delete')}
                  </Button>
                </Auth>
              </Space>
            ),
          },
        ]}
      />
      <Drawer
        title={editing === 'new' ? t('changelog.new') : t('changelog.edit')}
        open={editing !== null}
        size={560}
        onClose={() => setEditing(null)}
        forceRender
        extra={
          <Space>
            <Button onClick={() => setEditing(null)}>{t('common.cancel')}</Button>
            <Button
              type="primary"
              loading={save.isPending}
              onClick={() =>
                void form.validateFields().then(
                  (values) => save.mutate(values),
                  () => undefined,
                )
              }
              data-testid="changelog-save"
            >
              {t('common.save')}
            </Button>
          </Space>
        }
      >
        <Form form={form} layout="vertical">
          <Form.Item name="title" label={t('changelog.title')} rules={[required(t('changelog.title'))]}>
            <Input showCount maxLength={100} data-testid="changelog-title" />
          </Form.Item>
          <Form.Item
            name="body"
            label={t('changelog.body')}
            extra={t('changelog.bodyTip')}
            rules={[required(t('changelog.body'))]}
          >
            <Input.TextArea rows={8} showCount maxLength={5000} data-testid="changelog-body" />
          </Form.Item>
          <Form.Item
            name="publishedAt"
            label={t('changelog.publishedAt')}
            rules={[required(t('changelog.publishedAt'))]}
          >
            <DatePicker showTime format="YYYY-MM-DD HH:mm" />
          </Form.Item>
        </Form>
      </Drawer>
    </div>
  );
}
