import {
  DOWNLOAD_STATUSES,
  type DownloadStatus,
  EXPORT_KEEP_DAYS,
  EXPORT_KINDS,
} from '@freight/contracts/downloads';
import { useQueryClient } from '@tanstack/react-query';
import {
  App,
  Button,
  DatePicker,
  Empty,
  Form,
  Popconfirm,
  Progress,
  Select,
  Space,
  Table,
  Tag,
  Tooltip,
  Typography,
} from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FilterBar, listTableProps, periodDays, useServerList } from '../../components/list.tsx';
import { DOWNLOAD_COUNT_KEY, DOWNLOAD_LIST_URL, type DownloadView, downloadApi } from './api.ts';

interface Filters {
  status?: DownloadStatus;
  kind?: string;
  period?: [Dayjs, Dayjs];
}

const STATUS_COLOURS: Record<DownloadStatus, string> = {
  queued: 'default',
  running: 'processing',
  done: 'success',
  failed: 'error',
  expired: 'warning',
};

const time = (value: string | null) => (value ? dayjs(value).format('YYYY-MM-DD HH:mm') : '—');

/** Bytes as people read them. */
export function fileSize(bytes: number): string {
  if (bytes <= 0) return '—';
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/**
 * `/downloadCenter`: the user's exports written by jobs. It polls while one is queued or running, and
 * marks the ready files it shows as seen, so the top bar's count drops.
 */
export default function DownloadCenterPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [filterForm] = Form.useForm<Filters>();
  const [filters, setFilters] = useState<Record<string, unknown>>({});
  const list = useServerList<DownloadView>(DOWNLOAD_LIST_URL, filters);
  const active = (list.extra?.active as number | undefined) ?? 0;
  const [busy, setBusy] = useState<number | null>(null);

  // While a file is being written, follow its progress.
  const { refetch } = list;
  useEffect(() => {
    if (active === 0) return;
    const timer = window.setInterval(() => void refetch(), 2_000);
    return () => window.clearInterval(timer);
  }, [active, refetch]);

  // Ready files shown here have been seen: the badge counts only the ones not looked at yet.
  const unseen = list.rows
    .filter((r) => r.status === 'done' && !r.seen)
    .map((r) => r.id)
    .join(',');
  useEffect(() => {
    if (!unseen) return;
    void downloadApi
      .seen(unseen.split(',').map(Number))
      .then(() => queryClient.invalidateQueries({ queryKey: DOWNLOAD_COUNT_KEY }));
  }, [unseen, queryClient]);

  const act = async (id: number, action: () => Promise<unknown>, done?: string) => {
    setBusy(id);
    try {
      await action();
      if (done) void message.success(done);
      await refetch();
      await queryClient.invalidateQueries({ queryKey: DOWNLOAD_COUNT_KEY });
    } catch {
      // The HTTP client has shown the server's message.
    } finally {
      setBusy(null);
    }
  };

  return (
    <div className="page-card" data-testid="download-center">
      <FilterBar<Filters>
        form={filterForm}
        onSearch={(v) => {
          setFilters({ status: v.status, kind: v.kind, ...periodDays(v.period) });
          list.resetPage();
        }}
        extra={
          <Typography.Text type="secondary">
            {t('downloads.keepTip', { days: EXPORT_KEEP_DAYS })}
          </Typography.Text>
        }
      >
        <Form.Item name="status" label={t('downloads.status')}>
          <Select
            allowClear
            placeholder={t('common.all')}
            style={{ width: 130 }}
            options={DOWNLOAD_STATUSES.map((s) => ({ value: s, label: t(`downloads.status.${s}`) }))}
            data-testid="dl-filter-status"
          />
        </Form.Item>
        <Form.Item name="kind" label={t('downloads.kind')}>
          <Select
            allowClear
            placeholder={t('common.all')}
            style={{ width: 160 }}
            options={EXPORT_KINDS.map((k) => ({ value: k, label: t(`downloads.kind.${k}`) }))}
            data-testid="dl-filter-kind"
          />
        </Form.Item>
        <Form.Item name="period" label={t('downloads.createdAt')}>
          <DatePicker.RangePicker />
        </Form.Item>
      </FilterBar>
      <Table<DownloadView>
        rowKey="id"
        loading={list.loading && active === 0}
        dataSource={list.rows}
        pagination={list.pagination}
        {...listTableProps(1000)}
        locale={{
          emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('downloads.empty')} />,
        }}
        columns={[
          {
            title: t('downloads.title'),
            dataIndex: 'title',
            render: (v: string, r) => (
              <Space size={4}>
                <span data-testid={`dl-title-${r.id}`}>{v}</span>
                {r.status === 'done' && !r.seen ? <Tag color="red">{t('downloads.new')}</Tag> : null}
              </Space>
            ),
          },
          { title: t('downloads.kind'), render: (_, r) => t(`downloads.kind.${r.kind}`) },
          {
            title: t('downloads.status'),
            render: (_, r) =>
              r.status === 'running' ? (
                <Progress
                  size="small"
                  style={{ width: 160, margin: 0 }}
                  percent={r.rowsTotal ? Math.floor((r.rowsDone / r.rowsTotal) * 100) : 0}
                  data-testid={`dl-progress-${r.id}`}
                />
              ) : r.status === 'failed' ? (
                <Tooltip title={r.error}>
                  <Tag color={STATUS_COLOURS.failed} data-testid={`dl-status-${r.id}`}>
                    {t('downloads.status.failed')}
                  </Tag>
                </Tooltip>
              ) : (
                <Tag color={STATUS_COLOURS[r.status]} data-testid={`dl-status-${r.id}`}>
                  {t(`downloads.status.${r.status}`)}
                </Tag>
              ),
          },
          {
            title: t('downloads.rows'),
            align: 'right',
            render: (_, r) =>
              r.status === 'done'
                ? r.rowsDone.toLocaleString()
                : r.rowsTotal !== null
                  ? `${r.rowsDone.toLocaleString()} / ${r.rowsTotal.toLocaleString()}`
                  : '—',
          },
          { title: t('downloads.size'), align: 'right', render: (_, r) => fileSize(r.sizeBytes) },
          { title: t('downloads.createdAt'), render: (_, r) => time(r.createdAt) },
          { title: t('downloads.expiresAt'), render: (_, r) => time(r.expiresAt) },
          {
            title: t('common.actions'),
            fixed: 'right',
            render: (_, r) => (
              <Space>
                {r.status === 'done' ? (
                  <Button
                    size="small"
                    type="primary"
                    loading={busy === r.id}
                    onClick={() => void act(r.id, () => downloadApi.file(r.id))}
                    data-testid={`dl-download-${r.id}`}
                  >
                    {t('downloads.download')}
                  </Button>
                ) : null}
                {r.status === 'failed' || r.status === 'expired' ? (
                  <Button
                    size="small"
                    loading={busy === r.id}
                    onClick={() => void act(r.id, () => downloadApi.retry(r.id))}
                    data-testid={`dl-retry-${r.id}`}
                  >
                    {t('downloads.retry')}
                  </Button>
                ) : null}
                <Popconfirm
                  title={t('downloads.deleteConfirm')}
                  onConfirm={() => act(r.id, () => downloadApi.remove(r.id))}
                >
                  <Button size="small" danger disabled={busy === r.id} data-testid={`dl-delete-${r.id}`}>
                    {t('downloads.delete')}
                  </Button>
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
    </div>
  );
}
