import { IDENTITIES } from '@freight/contracts/identity';
import {
  ANNOUNCEMENT_STATUSES,
  type AnnouncementStatus,
  AUDIENCES,
  type Audience,
  DELETABLE_STATUSES,
  POP_THEMES,
  type PopTheme,
} from '@freight/contracts/notices';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import {
  App,
  Button,
  Checkbox,
  DatePicker,
  Drawer,
  Empty,
  Form,
  Input,
  Popconfirm,
  Radio,
  Select,
  Space,
  Spin,
  Switch,
  Table,
  Tag,
  Typography,
} from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Auth, useAuth } from '../../components/Auth.tsx';
import { FilterBar, listPager, listTableProps, periodDays, useServerList } from '../../components/list.tsx';
import { useReportError } from '../../hooks/useReportError.ts';
import { ANNOUNCEMENT_LIST_URL, type Announcement, announcementApi } from './api.ts';

// TipTap and ProseMirror load only when the editor is first opened.
const RichTextEditor = lazy(() => import('./RichTextEditor.tsx'));

/** The editor as a form control: the form item hands its value and onChange through the loading boundary. */
function LazyEditor(props: { id?: string; value?: string; onChange?: (html: string) => void }) {
  const { t } = useTranslation();
  return (
    <Suspense fallback={<Spin description={t('announcements.editorLoading')} />}>
      <RichTextEditor {...props} />
    </Suspense>
  );
}

interface Filters {
  keyword?: string;
  status?: AnnouncementStatus;
  type?: 1 | 2;
  period?: [Dayjs, Dayjs];
}

interface FormValues {
  title: string;
  content: string;
  type: 1 | 2;
  popTheme: PopTheme;
  audience: Audience;
  identities?: string[];
  organisationId?: number;
  includeSubtree: boolean;
  window?: [Dayjs | null, Dayjs | null] | null;
}

const STATUS_COLOURS: Record<AnnouncementStatus, string> = {
  draft: 'default',
  published: 'green',
  withdrawn: 'orange',
};
const THEME_COLOURS: Record<string, string> = {
  info: 'blue',
  success: 'green',
  warning: 'orange',
  error: 'red',
};

const time = (value: string | null | undefined) => (value ? dayjs(value).format('YYYY-MM-DD HH:mm') : '');

/** Organisations to aim at, searched on the server as the user types. */
function OrganisationSelect({
  id,
  value,
  onChange,
  initialName,
}: {
  id?: string;
  value?: number;
  onChange?: (value: number) => void;
  initialName?: string;
}) {
  const { t } = useTranslation();
  const [keyword, setKeyword] = useState('');
  const [typed, setTyped] = useState('');
  useEffect(() => {
    const timer = window.setTimeout(() => setKeyword(typed.trim()), 300);
    return () => window.clearTimeout(timer);
  }, [typed]);
  const options = useQuery({
    queryKey: ['notice-organisations', keyword],
    queryFn: () => announcementApi.organisations(keyword),
    placeholderData: keepPreviousData,
  });
  const list = options.data?.list ?? [];
  const known =
    value && initialName && !list.some((o) => o.id === value)
      ? [{ id: value, name: initialName, type: '' }]
      : [];
  return (
    <Select
      id={id}
      showSearch={{ filterOption: false, onSearch: setTyped }}
      value={value}
      onChange={onChange}
      placeholder={t('announcements.organisationTip')}
      loading={options.isFetching}
      options={[...known, ...list].map((o) => ({
        value: o.id,
        label: o.type ? `${o.name} · ${t(`announcements.identity.${o.type}`)}` : o.name,
      }))}
      notFoundContent={options.isFetching ? <Spin size="small" /> : undefined}
      data-testid="announcement-organisation"
    />
  );
}

/** Who has read an announcement, with how many it is aimed at. */
function ReadersDrawer({
  announcement,
  onClose,
}: {
  announcement: Announcement | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [paging, setPaging] = useState({ page: 1, limit: 10 });
  const id = announcement?.id;
  const readers = useQuery({
    queryKey: ['announcement-readers', id, paging],
    queryFn: () => announcementApi.readers(id ?? 0, paging.page, paging.limit),
    enabled: id !== undefined,
    placeholderData: keepPreviousData,
  });
  return (
    <Drawer
      title={`${t('announcements.readers')} · ${announcement?.title ?? ''}`}
      open={announcement !== null}
      size={640}
      onClose={onClose}
      destroyOnHidden
    >
      <Typography.Paragraph data-testid="readers-summary">
        {readers.data
          ? t('announcements.readersSummary', {
              read: readers.data.readCount,
              target: readers.data.targetCount,
            })
          : null}
      </Typography.Paragraph>
      <Table
        rowKey="userId"
        loading={readers.isFetching}
        dataSource={readers.data?.list ?? []}
        locale={{
          emptyText: (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('announcements.noReaders')} />
          ),
        }}
        pagination={{
          ...listPager(t),
          current: paging.page,
          pageSize: paging.limit,
          total: readers.data?.total ?? 0,
          onChange: (page, limit) => setPaging({ page: limit === paging.limit ? page : 1, limit }),
        }}
        columns={[
          {
            title: t('announcements.reader'),
            render: (_, r) => (
              <span data-testid="reader-row">
                {r.name} <Typography.Text type="secondary">{r.email}</Typography.Text>
              </span>
            ),
          },
          { title: t('announcements.company'), dataIndex: 'company' },
          { title: t('announcements.readAt'), render: (_, r) => time(r.readAt) },
        ]}
      />
    </Drawer>
  );
}

/**
 * `/notificationAnnouncement`: announcements staff write for everyone, for identities or for an
 * organisation (and its subtree), toast or dialog, shown in a window; published, withdrawn, deleted
 * while a draft or withdrawn, with who has read each.
 */
export default function NoticeManagementPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const reportError = useReportError();
  const allowed = useAuth();
  const [filterForm] = Form.useForm<Filters>();
  const [filters, setFilters] = useState<Record<string, unknown>>({});
  const list = useServerList<Announcement>(ANNOUNCEMENT_LIST_URL, filters);
  const [editing, setEditing] = useState<Announcement | 'new' | null>(null);
  const [readersOf, setReadersOf] = useState<Announcement | null>(null);
  const [form] = Form.useForm<FormValues>();
  const audience = Form.useWatch('audience', form);

  const open = (row: Announcement | 'new') => {
    form.resetFields();
    if (row !== 'new')
      form.setFieldsValue({
        title: row.title,
        content: row.content,
        type: row.type === 1 ? 1 : 2,
        popTheme: (POP_THEMES as readonly string[]).includes(row.popTheme)
          ? (row.popTheme as PopTheme)
          : 'info',
        audience: row.audience,
        identities: row.identities,
        organisationId: row.organisationId ?? undefined,
        includeSubtree: row.includeSubtree,
        window:
          row.startsAt || row.endsAt
            ? [row.startsAt ? dayjs(row.startsAt) : null, row.endsAt ? dayjs(row.endsAt) : null]
            : null,
      });
    setEditing(row);
  };

  const save = useMutation({
    mutationFn: (values: FormValues) =>
      announcementApi.save({
        id: editing && editing !== 'new' ? editing.id : undefined,
        title: values.title,
        content: values.content ?? '',
        type: values.type,
        popTheme: values.popTheme,
        audience: values.audience,
        identities: (values.identities ?? []) as (typeof IDENTITIES)[number][],
        organisationId: values.audience === 'organisation' ? (values.organisationId ?? null) : null,
        includeSubtree: values.includeSubtree,
        startsAt: values.window?.[0]?.toISOString() ?? null,
        endsAt: values.window?.[1]?.toISOString() ?? null,
      }),
    onSuccess: () => {
      message.success(t('common.saved'));
      setEditing(null);
      void list.refetch();
    },
    onError: (error) => reportError(error, form),
  });

  const act = useMutation({
    mutationFn: ({ row, action }: { row: Announcement; action: 'publish' | 'withdraw' | 'remove' }) =>
      announcementApi[action](row.id),
    onSuccess: (_, { action }) => {
      message.success(
        t(
          action === 'publish'
            ? 'announcements.published'
            : action === 'withdraw'
              ? 'announcements.withdrawn'
              : 'common.deleted',
        ),
      );
      void list.refetch();
    },
    onError: (error) => reportError(error),
  });

  const audienceText = (r: Announcement) => {
    if (r.audience === 'identity')
      return r.identities.map((i) => t(`announcements.identity.${i}`)).join(', ');
    if (r.audience === 'organisation')
      return `${r.organisationName}${r.includeSubtree ? ` (${t('announcements.includeSubtree')})` : ''}`;
    return t('announcements.audience.all');
  };

  const required = (label: string) => [
    { required: true, message: t('validation.required', { field: label }) },
  ];

  return (
    <div className="page-card">
      <FilterBar<Filters>
        form={filterForm}
        onSearch={(v) => {
          setFilters({
            keyword: v.keyword?.trim() || undefined,
            status: v.status,
            type: v.type,
            ...periodDays(v.period),
          });
          list.resetPage();
        }}
        extra={
          <Auth code="notice:save">
            <Button type="primary" onClick={() => open('new')} data-testid="announcement-new">
              {t('announcements.new')}
            </Button>
          </Auth>
        }
      >
        <Form.Item name="keyword" label={t('notices.title')}>
          <Input allowClear style={{ width: 200 }} data-testid="announcement-keyword" />
        </Form.Item>
        <Form.Item name="status" label={t('common.status')}>
          <Select
            allowClear
            placeholder={t('common.all')}
            style={{ width: 120 }}
            options={ANNOUNCEMENT_STATUSES.map((s) => ({ value: s, label: t(`announcements.status.${s}`) }))}
          />
        </Form.Item>
        <Form.Item name="type" label={t('announcements.type')}>
          <Select
            allowClear
            placeholder={t('common.all')}
            style={{ width: 130 }}
            options={[1, 2].map((v) => ({ value: v, label: t(`announcements.type.${v}`) }))}
          />
        </Form.Item>
        <Form.Item name="period" label={t('common.createdAt')}>
          <DatePicker.RangePicker />
        </Form.Item>
      </FilterBar>
      <Table<Announcement>
        rowKey="id"
        loading={list.loading}
        dataSource={list.rows}
        pagination={list.pagination}
        {...listTableProps(1200)}
        locale={{
          emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('announcements.empty')} />,
        }}
        columns={[
          {
            title: t('notices.title'),
            fixed: 'left',
            render: (_, r) => <span data-testid="announcement-title">{r.title}</span>,
          },
          {
            title: t('announcements.type'),
            render: (_, r) => (
              <Tag color={THEME_COLOURS[r.popTheme] ?? 'blue'}>
                {t(`announcements.type.${r.type === 1 ? 1 : 2}`)} · {t(`announcements.theme.${r.popTheme}`)}
              </Tag>
            ),
          },
          { title: t('announcements.audience'), render: (_, r) => audienceText(r) },
          {
            title: t('announcements.window'),
            render: (_, r) =>
              r.startsAt || r.endsAt
                ? `${time(r.startsAt) || '…'} ~ ${time(r.endsAt) || '…'}`
                : t('announcements.windowOpen'),
          },
          {
            title: t('common.status'),
            render: (_, r) => (
              <Tag color={STATUS_COLOURS[r.status]} data-testid="announcement-status">
                {t(`announcements.status.${r.status}`)}
              </Tag>
            ),
          },
          {
            title: t('announcements.readCount'),
            align: 'right',
            render: (_, r) => (
              <Typography.Link onClick={() => setReadersOf(r)} data-testid="announcement-read-count">
                {r.readCount}
              </Typography.Link>
            ),
          },
          { title: t('announcements.createdBy'), dataIndex: 'createdBy' },
          { title: t('common.createdAt'), render: (_, r) => time(r.createdAt) },
          {
            title: t('common.actions'),
            fixed: 'right',
            render: (_, r) => (
              <Space size={4}>
                <Auth code="notice:save">
                  <Button size="small" onClick={() => open(r)} data-testid="announcement-edit">
                    {t('common.edit')}
                  </Button>
                  {r.status === 'published' ? (
                    <Popconfirm
                      title={t('announcements.withdrawConfirm', { title: r.title })}
                      onConfirm={() => act.mutate({ row: r, action: 'withdraw' })}
                    >
                      <Button size="small" data-testid="announcement-withdraw">
                        {t('announcements.withdraw')}
                      </Button>
                    </Popconfirm>
                  ) : (
                    <Popconfirm
                      title={t('announcements.publishConfirm', { title: r.title })}
                      onConfirm={() => act.mutate({ row: r, action: 'publish' })}
                    >
                      <Button size="small" type="primary" data-testid="announcement-publish">
                        {t('announcements.publish')}
                      </Button>
                    </Popconfirm>
                  )}
                </Auth>
                <Button size="small" onClick={() => setReadersOf(r)} data-testid="announcement-readers">
                  {t('announcements.readers')}
                </Button>
                {allowed('notice:delete') && DELETABLE_STATUSES.includes(r.status) ? (
                  <Popconfirm
                    title={t('announcements.deleteConfirm', { title: r.title })}
                    okButtonProps={{ danger: true }}
                    onConfirm={() => act.mutate({ row: r, action: 'remove' })}
                  >
                    <Button size="small" danger data-testid="announcement-delete">
                      {t('common.delete')}
                    </Button>
                  </Popconfirm>
                ) : null}
              </Space>
            ),
          },
        ]}
      />
      <Drawer
        title={editing === 'new' ? t('announcements.new') : t('announcements.edit')}
        open={editing !== null}
        size={820}
        onClose={() => setEditing(null)}
        forceRender
        extra={
          <Space>
            <Button onClick={() => setEditing(null)}>{t('common.cancel')}</Button>
            <Button
              type="primary"
              loading={save.isPending}
              onClick={() =>
                form.validateFields().then(
                  (v) => save.mutate(v),
                  () => undefined,
                )
              }
              data-testid="announcement-save"
            >
              {t('common.save')}
            </Button>
          </Space>
        }
      >
        <Form<FormValues>
          form={form}
          layout="vertical"
          initialValues={{ type: 2, popTheme: 'info', audience: 'all', includeSubtree: true }}
        >
          <Form.Item name="title" label={t('notices.title')} rules={required(t('notices.title'))}>
            <Input maxLength={200} data-testid="announcement-title-input" />
          </Form.Item>
          <Space size="large" wrap>
            <Form.Item name="type" label={t('announcements.type')}>
              <Radio.Group
                optionType="button"
                options={[1, 2].map((v) => ({ value: v, label: t(`announcements.type.${v}`) }))}
                data-testid="announcement-type"
              />
            </Form.Item>
            <Form.Item name="popTheme" label={t('announcements.popTheme')}>
              <Select
                style={{ width: 140 }}
                options={POP_THEMES.map((p) => ({
                  value: p,
                  label: <Tag color={THEME_COLOURS[p]}>{t(`announcements.theme.${p}`)}</Tag>,
                }))}
                data-testid="announcement-theme"
              />
            </Form.Item>
            <Form.Item name="window" label={t('announcements.window')} tooltip={t('announcements.windowTip')}>
              <DatePicker.RangePicker
                showTime={{ format: 'HH:mm' }}
                format="YYYY-MM-DD HH:mm"
                allowEmpty={[true, true]}
              />
            </Form.Item>
          </Space>
          <Form.Item name="audience" label={t('announcements.audience')}>
            <Radio.Group
              options={AUDIENCES.map((a) => ({ value: a, label: t(`announcements.audience.${a}`) }))}
              data-testid="announcement-audience"
            />
          </Form.Item>
          {audience === 'identity' ? (
            <Form.Item
              name="identities"
              label={t('announcements.identities')}
              rules={required(t('announcements.identities'))}
            >
              <Checkbox.Group
                options={IDENTITIES.map((i) => ({ value: i, label: t(`announcements.identity.${i}`) }))}
              />
            </Form.Item>
          ) : null}
          {audience === 'organisation' ? (
            <Space size="large" align="start" wrap>
              <Form.Item
                name="organisationId"
                label={t('announcements.organisation')}
                rules={required(t('announcements.organisation'))}
                style={{ width: 360 }}
              >
                <OrganisationSelect
                  initialName={editing && editing !== 'new' ? editing.organisationName : undefined}
                />
              </Form.Item>
              <Form.Item
                name="includeSubtree"
                label={t('announcements.includeSubtree')}
                valuePropName="checked"
              >
                <Switch data-testid="announcement-subtree" />
              </Form.Item>
            </Space>
          ) : null}
          <Form.Item
            name="content"
            label={t('announcements.content')}
            rules={required(t('announcements.content'))}
          >
            <LazyEditor />
          </Form.Item>
        </Form>
      </Drawer>
      {/* Keyed by the announcement, so each one's readers start on the first page. */}
      <ReadersDrawer key={readersOf?.id ?? 0} announcement={readersOf} onClose={() => setReadersOf(null)} />
    </div>
  );
}
