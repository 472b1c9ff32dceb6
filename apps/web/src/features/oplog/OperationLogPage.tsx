import { Button, DatePicker, Form, Input, Select, Table, Tag } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Auth } from '../../components/Auth.tsx';
import { FilterBar, useServerList } from '../../components/list.tsx';
import { download } from '../../lib/http.ts';

interface LogRow {
  id: number;
  userEmail: string;
  action: string;
  method: string;
  path: string;
  target: string;
  resultCode: number;
  ip: string;
  requestId: string;
  createdAt: string;
}

interface FilterForm {
  keyword?: string;
  action?: string;
  result?: 'success' | 'failure';
  period?: [Dayjs, Dayjs];
}

export default function OperationLogPage() {
  const { t } = useTranslation();
  const [form] = Form.useForm<FilterForm>();
  const [filters, setFilters] = useState<Record<string, unknown>>({});
  const list = useServerList<LogRow>('/admin/operationLog/list', filters);
  return (
    <div className="page-card">
      <FilterBar<FilterForm>
        form={form}
        onSearch={(v) => {
          setFilters({
            keyword: v.keyword || undefined,
            action: v.action || undefined,
            result: v.result,
            from: v.period?.[0]?.startOf('day').toISOString(),
            to: v.period?.[1]?.add(1, 'day').startOf('day').toISOString(),
          });
          list.resetPage();
        }}
        extra={
          <Auth code="operation-log:export">
            <Button
              onClick={() => void download('/admin/operationLog/export', filters, 'operation-log.xlsx')}
            >
              {t('common.export')}
            </Button>
          </Auth>
        }
      >
        <Form.Item name="keyword" label={t('common.keyword')}>
          <Input allowClear placeholder={t('oplog.user')} />
        </Form.Item>
        <Form.Item name="action" label={t('oplog.action')}>
          <Input allowClear style={{ width: 160 }} placeholder="role.save" />
        </Form.Item>
        <Form.Item name="result" label={t('oplog.result')}>
          <Select
            allowClear
            style={{ width: 110 }}
            options={[
              { value: 'success', label: t('oplog.success') },
              { value: 'failure', label: t('oplog.failure') },
            ]}
          />
        </Form.Item>
        <Form.Item name="period" label={t('oplog.period')}>
          <DatePicker.RangePicker />
        </Form.Item>
      </FilterBar>
      <Table<LogRow>
        rowKey="id"
        size="middle"
        loading={list.loading}
        dataSource={list.rows}
        pagination={list.pagination}
        scroll={{ x: 1000 }}
        columns={[
          {
            title: t('oplog.time'),
            width: 170,
            render: (_, r) => dayjs(r.createdAt).format('YYYY-MM-DD HH:mm:ss'),
          },
          { title: t('oplog.user'), dataIndex: 'userEmail', ellipsis: true },
          { title: t('oplog.action'), dataIndex: 'action' },
          { title: t('oplog.target'), dataIndex: 'target' },
          {
            title: t('oplog.result'),
            width: 100,
            render: (_, r) =>
              r.resultCode === 200 ? (
                <Tag color="green">{t('oplog.success')}</Tag>
              ) : (
                <Tag color="red">{`${t('oplog.failure')} ${r.resultCode}`}</Tag>
              ),
          },
          { title: t('oplog.ip'), dataIndex: 'ip', width: 130 },
          { title: t('oplog.path'), dataIndex: 'path', ellipsis: true },
        ]}
      />
    </div>
  );
}
