import { OPLOG_ACTIONS } from '@freight/contracts/oplog';
import { useMutation } from '@tanstack/react-query';
import { Button, DatePicker, Form, Input, Select, Table, Tag, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Auth } from '../../components/Auth.tsx';
import { FilterBar, filtersSet, ListEmpty, periodInstants, useServerList } from '../../components/list.tsx';
import { useReportError } from '../../hooks/useReportError.ts';
import {
  OPERATION_LOG_LIST_URL,
  type OperationLogFilters,
  type OperationLogRow,
  operationLogApi,
} from './api.ts';

interface FilterForm {
  keyword?: string;
  action?: string;
  result?: 'success' | 'failure';
  period?: [Dayjs, Dayjs];
}

export default function OperationLogPage() {
  const { t, i18n } = useTranslation();
  const language = i18n.language === 'en-US' ? 'en-US' : 'zh-CN';
  const actionOptions = useMemo(
    () =>
      Object.entries(OPLOG_ACTIONS)
        .map(([value, label]) => ({ value, label: label[language] }))
        .sort((a, b) => a.label.localeCompare(b.label, language)),
    [language],
  );
  const [form] = Form.useForm<FilterForm>();
  const reportError = useReportError();
  const [filters, setFilters] = useState<OperationLogFilters>({});
  const list = useServerList<OperationLogRow>(OPERATION_LOG_LIST_URL, filters);
  const exportList = useMutation({
    mutationFn: operationLogApi.export,
    onError: (error) => reportError(error),
  });
  return (
    <div className="page-card">
      <FilterBar<FilterForm>
        form={form}
        onSearch={(v) => {
          setFilters({
            keyword: v.keyword || undefined,
            action: v.action || undefined,
            result: v.result,
            ...periodInstants(v.period),
          });
          list.resetPage();
        }}
        extra={
          <Auth code="operation-log:export">
            <Button loading={exportList.isPending} onClick={() => exportList.mutate(filters)}>
              {t('common.export')}
            </Button>
          </Auth>
        }
      >
        <Form.Item name="keyword" label={t('common.keyword')}>
          <Input allowClear placeholder={t('oplog.user')} />
        </Form.Item>
        <Form.Item name="action" label={t('oplog.action')}>
          <Select
            allowClear
            showSearch
            optionFilterProp="label"
            style={{ width: 200 }}
            options={actionOptions}
          />
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
      <Table<OperationLogRow>
        rowKey="id"
        size="middle"
        loading={list.loading}
        dataSource={list.rows}
        pagination={list.pagination}
        scroll={{ x: 1000 }}
        locale={{
          emptyText: (
            <ListEmpty text={t('oplog.emptyList')} noMatch={filtersSet(filters) && t('oplog.noMatch')} />
          ),
        }}
        columns={[
          {
            title: t('oplog.time'),
            width: 170,
            render: (_, r) => dayjs(r.createdAt).format('YYYY-MM-DD HH:mm:ss'),
          },
          { title: t('oplog.user'), dataIndex: 'userEmail', ellipsis: true },
          // The action in words; its key, for support, on hover.
          {
            title: t('oplog.action'),
            dataIndex: 'actionLabel',
            render: (label: string, r) => <span title={r.action}>{label}</span>,
          },
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
          {
            title: t('oplog.path'),
            ellipsis: true,
            render: (_, r) => `${r.method} ${r.path}`,
          },
          {
            title: t('oplog.requestId'),
            dataIndex: 'requestId',
            width: 150,
            render: (id: string) => (
              <Typography.Text copyable={{ text: id }} ellipsis style={{ maxWidth: 120 }}>
                {id}
              </Typography.Text>
            ),
          },
        ]}
      />
    </div>
  );
}
