import { DownloadOutlined, PlusOutlined } from '@ant-design/icons';
import { TRACKING_CODES, type trackingListView } from '@freight/contracts/express-waybills';
import type { Wire } from '@freight/contracts/responses';
import { useMutation } from '@tanstack/react-query';
import {
  App,
  Button,
  DatePicker,
  Empty,
  Form,
  Input,
  Modal,
  Select,
  Space,
  Table,
  Tag,
  Typography,
} from 'antd';
import type { Dayjs } from 'dayjs';
import dayjs from 'dayjs';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useAuth } from '../../components/Auth.tsx';
import { FilterBar, listTableProps, useServerList } from '../../components/list.tsx';
import { SheetImportButton } from '../../components/SheetImport.tsx';
import { useReportError } from '../../hooks/useReportError.ts';
import { requiredRule } from '../../lib/form-rules.ts';
import { applyFieldErrors } from '../../lib/http.ts';
import { TRACKING_LIST_URL, trackingApi } from './api.ts';
import { WaybillDrawer } from './WaybillDrawer.tsx';

type Scan = Wire<typeof trackingListView>['list'][number];
type Code = (typeof TRACKING_CODES)[number];

interface Filters {
  keyword?: string;
  code?: Code;
}

interface ScanForm {
  number: string;
  code: Code;
  at: Dayjs;
  location?: string;
  note?: string;
}

const SOURCE_COLOR = { staff: 'blue', import: 'purple', carrier: 'green' } as const;

/**
 * `/waybillTracking`: the scans of the waybills the caller may see, newest first, searchable by tracking
 * or waybill number. Staff with the button record a scan or import a sheet of them; each waybill
 * follows its newest scan to the status it shows.
 */
export default function TrackingPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const reportError = useReportError();
  const allowed = useAuth();
  const canRecord = allowed('express-tracking:update');
  const [searchParams] = useSearchParams();
  const asked = searchParams.get('no') ?? undefined;
  const [filterForm] = Form.useForm<Filters>();
  const [filters, setFilters] = useState<Filters>({ keyword: asked });
  useEffect(() => {
    if (!asked) return;
    filterForm.setFieldsValue({ keyword: asked });
    setFilters({ keyword: asked });
  }, [asked, filterForm]);
  const list = useServerList<Scan>(TRACKING_LIST_URL, filters);
  const [adding, setAdding] = useState(false);
  const [viewing, setViewing] = useState<number | null>(null);
  const [scanForm] = Form.useForm<ScanForm>();

  const template = useMutation({ mutationFn: trackingApi.template, onError: (e) => reportError(e) });
  const record = useMutation({
    mutationFn: async (values: ScanForm) => {
      const waybill = await trackingApi.findWaybill(values.number.trim());
      if (!waybill) throw new NumberNotFound();
      return trackingApi.add({
        id: waybill.id,
        code: values.code,
        at: values.at.toISOString(),
        location: values.location ?? '',
        note: values.note ?? '',
      });
    },
    onSuccess: (done) => {
      message.success(t('tracking.recorded', { status: t(`waybillStatus.${done.status}`) }));
      setAdding(false);
      scanForm.resetFields();
      void list.refetch();
    },
    onError: (error) => {
      if (error instanceof NumberNotFound)
        scanForm.setFields([{ name: 'number', errors: [t('tracking.numberUnknown')] }]);
      else if (!applyFieldErrors(error, scanForm.setFields as never)) reportError(error);
    },
  });

  const codeOptions = TRACKING_CODES.map((c) => ({ value: c, label: t(`expressTracking.code.${c}`) }));

  return (
    <>
      <FilterBar<Filters>
        form={filterForm}
        onSearch={(values) => {
          setFilters({ keyword: values.keyword?.trim() || undefined, code: values.code });
          list.resetPage();
        }}
        extra={
          canRecord ? (
            <Space wrap>
              <Button
                type="primary"
                icon={<PlusOutlined />}
                onClick={() => setAdding(true)}
                data-testid="tracking-add"
              >
                {t('tracking.add')}
              </Button>
              <Button
                icon={<DownloadOutlined />}
                loading={template.isPending}
                onClick={() => template.mutate()}
              >
                {t('tracking.template')}
              </Button>
              <SheetImportButton
                label={t('tracking.import')}
                testId="tracking-import"
                confirm={(name) => t('tracking.importConfirm', { name })}
                run={trackingApi.import}
                onDone={(done) => {
                  message.success(t('tracking.imported', { imported: done.imported, skipped: done.skipped }));
                  void list.refetch();
                }}
              />
            </Space>
          ) : null
        }
      >
        <Form.Item name="keyword" label={t('tracking.number')}>
          <Input
            allowClear
            placeholder={t('tracking.numberTip')}
            style={{ width: 240 }}
            data-testid="tracking-keyword"
          />
        </Form.Item>
        <Form.Item name="code" label={t('expressTracking.column.code')}>
          <Select allowClear style={{ width: 160 }} options={codeOptions} />
        </Form.Item>
      </FilterBar>
      <div className="page-card">
        <Table<Scan>
          rowKey="id"
          loading={list.loading}
          dataSource={list.rows}
          pagination={list.pagination}
          {...listTableProps(900)}
          locale={{ emptyText: <Empty description={t('tracking.empty')} /> }}
          columns={[
            {
              title: t('expressTracking.column.time'),
              dataIndex: 'at',
              render: (v: string) => dayjs(v).format('YYYY-MM-DD HH:mm'),
            },
            {
              title: t('expressTracking.column.trackingNo'),
              dataIndex: 'trackingNo',
              render: (v: string, row) => (
                <Typography.Link onClick={() => setViewing(row.waybillId)} data-testid="tracking-row-number">
                  {v}
                </Typography.Link>
              ),
            },
            { title: t('waybill.waybillNo'), dataIndex: 'waybillNo' },
            {
              title: t('expressTracking.column.code'),
              dataIndex: 'code',
              render: (v: Code) => (
                <Tag color={v === 'exception' ? 'red' : v === 'delivered' ? 'green' : 'default'}>
                  {t(`expressTracking.code.${v}`)}
                </Tag>
              ),
            },
            { title: t('expressTracking.column.location'), dataIndex: 'location' },
            { title: t('expressTracking.column.note'), dataIndex: 'note' },
            {
              title: t('tracking.source'),
              dataIndex: 'source',
              render: (v: Scan['source']) => <Tag color={SOURCE_COLOR[v]}>{t(`tracking.source.${v}`)}</Tag>,
            },
          ]}
        />
      </div>
      <Modal
        open={adding}
        title={t('tracking.add')}
        okText={t('shell.ok')}
        cancelText={t('shell.cancel')}
        confirmLoading={record.isPending}
        onCancel={() => setAdding(false)}
        onOk={() => scanForm.submit()}
        okButtonProps={{ 'data-testid': 'tracking-save' } as never}
        destroyOnHidden
      >
        <Form<ScanForm>
          form={scanForm}
          layout="vertical"
          initialValues={{ at: dayjs(), code: 'picked_up' }}
          onFinish={(values) => record.mutate(values)}
        >
          <Form.Item
            name="number"
            label={t('tracking.number')}
            rules={[requiredRule(t('tracking.number'))]}
            extra={t('tracking.numberTip')}
          >
            <Input data-testid="tracking-number" />
          </Form.Item>
          <Form.Item
            name="code"
            label={t('expressTracking.column.code')}
            rules={[requiredRule(t('expressTracking.column.code'))]}
          >
            <Select options={codeOptions} data-testid="tracking-code" />
          </Form.Item>
          <Form.Item
            name="at"
            label={t('expressTracking.column.time')}
            rules={[requiredRule(t('expressTracking.column.time'))]}
          >
            <DatePicker showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" style={{ width: '100%' }} />
          </Form.Item>
          <Form.Item name="location" label={t('expressTracking.column.location')} rules={[{ max: 100 }]}>
            <Input data-testid="tracking-location" />
          </Form.Item>
          <Form.Item name="note" label={t('expressTracking.column.note')} rules={[{ max: 500 }]}>
            <Input.TextArea rows={2} />
          </Form.Item>
        </Form>
      </Modal>
      {viewing !== null ? <WaybillDrawer id={viewing} onClose={() => setViewing(null)} /> : null}
    </>
  );
}

/** The number typed names no waybill the user may see. */
class NumberNotFound extends Error {}
