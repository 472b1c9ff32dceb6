import { NOTICE_READ_FILTERS } from '@freight/contracts/notices';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Empty, Form, Input, Modal, Select, Table, Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { FilterBar, listTableProps, useServerList } from '../../components/list.tsx';
import { NOTICE_LIST_URL, type NoticeListItem, noticeApi } from './api.ts';
import { noticeHtml, noticeTarget, popKind } from './NoticePopups.ts';

interface Filters {
  keyword?: string;
  read?: (typeof NOTICE_READ_FILTERS)[number];
}

const THEME_COLOURS = { info: 'blue', success: 'green', warning: 'orange', error: 'red' } as const;

/**
 * `/notification`: the signed-in user's notices, system ones and the announcements aimed at them,
 * read and unread. Opening one shows it and marks it read. The popups' deep link
 * `/notification?type=2&content=<title>` (SPEC section 2) opens the notice of that title.
 */
export default function NoticeListPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [params] = useSearchParams();
  const [filterForm] = Form.useForm<Filters>();
  const [filters, setFilters] = useState<Filters>({});
  const list = useServerList<NoticeListItem>(NOTICE_LIST_URL, filters);
  const [open, setOpen] = useState<NoticeListItem | null>(null);

  const show = (notice: NoticeListItem) => {
    setOpen(notice);
    if (notice.readAt) return;
    void noticeApi
      .read(notice.id)
      .then(() => queryClient.invalidateQueries({ queryKey: [NOTICE_LIST_URL] }))
      // A notice withdrawn meanwhile cannot be marked; it is still shown as it was listed.
      .catch(() => undefined);
  };

  // The deep link: search for the title, then open the notice that bears it once the list has it.
  const wanted = params.get('content');
  const handled = useRef<string | null>(null);
  const pending = useRef<string | null>(null);
  useEffect(() => {
    if (!wanted || handled.current === wanted) return;
    handled.current = wanted;
    pending.current = wanted;
    filterForm.setFieldsValue({ keyword: wanted, read: undefined });
    setFilters({ keyword: wanted });
    list.resetPage();
  }, [wanted, filterForm, list.resetPage]);
  useEffect(() => {
    const title = pending.current;
    if (!title || list.loading || list.extra === undefined) return;
    if (filters.keyword !== title) return;
    pending.current = null;
    const match = list.rows.find((n) => n.title === title) ?? list.rows[0];
    if (match) show(match);
    else void message.warning(t('notices.notFound', { title }));
  });

  return (
    <div className="page-card">
      <FilterBar<Filters>
        form={filterForm}
        onSearch={(v) => {
          setFilters({ keyword: v.keyword?.trim() || undefined, read: v.read });
          list.resetPage();
        }}
      >
        <Form.Item name="keyword" label={t('common.keyword')}>
          <Input
            allowClear
            placeholder={t('notices.keywordTip')}
            style={{ width: 240 }}
            data-testid="notice-keyword"
          />
        </Form.Item>
        <Form.Item name="read" label={t('notices.readState')}>
          <Select
            allowClear
            placeholder={t('common.all')}
            style={{ width: 120 }}
            options={NOTICE_READ_FILTERS.map((r) => ({ value: r, label: t(`notices.${r}`) }))}
            data-testid="notice-read-filter"
          />
        </Form.Item>
      </FilterBar>
      <Table<NoticeListItem>
        rowKey="id"
        loading={list.loading}
        dataSource={list.rows}
        pagination={list.pagination}
        {...listTableProps(760)}
        locale={{
          emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('notices.empty')} />,
        }}
        columns={[
          {
            title: t('notices.title'),
            render: (_, r) => (
              <Typography.Link strong={!r.readAt} onClick={() => show(r)} data-testid="notice-open">
                {r.title}
              </Typography.Link>
            ),
          },
          {
            title: t('notices.kind'),
            render: (_, r) => (
              <Tag color={r.kind === 'announcement' ? THEME_COLOURS[popKind(r)] : 'default'}>
                {t(`notices.kind.${r.kind}`)}
              </Tag>
            ),
          },
          { title: t('notices.at'), render: (_, r) => dayjs(r.at).format('YYYY-MM-DD HH:mm') },
          {
            title: t('notices.readState'),
            render: (_, r) =>
              r.readAt ? (
                <Tag data-testid="notice-state">{t('notices.read')}</Tag>
              ) : (
                <Tag color="processing" data-testid="notice-state">
                  {t('notices.unread')}
                </Tag>
              ),
          },
          {
            title: t('common.actions'),
            render: (_, r) => (
              <Button size="small" onClick={() => show(r)}>
                {t('notices.open')}
              </Button>
            ),
          },
        ]}
      />
      <Modal
        open={open !== null}
        width={700}
        title={open?.title}
        onCancel={() => setOpen(null)}
        destroyOnHidden
        footer={[
          open && open.order_type !== 0 ? (
            <Button
              key="go"
              onClick={() => {
                navigate(noticeTarget(open));
                setOpen(null);
              }}
            >
              {t('notices.goTo')}
            </Button>
          ) : null,
          <Button key="ok" type="primary" onClick={() => setOpen(null)} data-testid="notice-dialog-ok">
            {t('shell.ok')}
          </Button>,
        ]}
      >
        {open ? (
          <div
            className="notice-content"
            style={{ minHeight: 300 }}
            data-testid="notice-dialog-content"
            // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised with DOMPurify (noticeHtml)
            dangerouslySetInnerHTML={noticeHtml(open.content)}
          />
        ) : null}
      </Modal>
    </div>
  );
}
