import { TASK_STATUSES, type TaskStatus } from '@freight/contracts/truck-quotes';
import {
  App,
  Button,
  Descriptions,
  Drawer,
  Form,
  Input,
  InputNumber,
  Modal,
  Select,
  Space,
  Table,
  Tag,
  Timeline,
} from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { AmountInput } from '../../components/AmountInput.tsx';
import { FilterBar, ListEmpty, useServerList } from '../../components/list.tsx';
import { ReasonDialog } from '../../components/ReasonDialog.tsx';
import { useSession } from '../../context/session.tsx';
import { useReportError } from '../../hooks/useReportError.ts';
import { money } from '../../lib/money.ts';
import { truckOrderApi } from '../truck-orders/api.ts';
import { type TaskView, truckQuoteApi } from './api.ts';

const STATUS_COLOUR: Record<TaskStatus, string> = {
  pending: 'processing',
  priced: 'gold',
  accepted: 'cyan',
  declined: 'default',
  refused: 'error',
  cancelled: 'default',
  booked: 'success',
};

type TaskInfo = Awaited<ReturnType<typeof truckQuoteApi.taskInfo>>;

/** `/quotationList`: manual quotation tasks. Staff price or refuse them; the customer accepts and books. */
export default function QuotationTasksPage() {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const reportError = useReportError();
  const navigate = useNavigate();
  const { userInfo } = useSession();
  const staff = userInfo?.identity === 'employee';
  const [filterForm] = Form.useForm<{ keyword?: string; status?: TaskStatus }>();
  const [filters, setFilters] = useState<Record<string, unknown>>({});
  const list = useServerList<TaskView>('/admin/quotation/task/list', filters);
  const [open, setOpen] = useState<TaskInfo | null>(null);
  const [pricing, setPricing] = useState(false);
  const [refusing, setRefusing] = useState(false);
  const [priceForm] = Form.useForm();

  const show = async (id: number) => {
    try {
      setOpen(await truckQuoteApi.taskInfo(id));
    } catch (error) {
      reportError(error);
    }
  };
  const after = async () => {
    void list.refetch();
    if (open) await show(open.task.id);
  };
  const act = async (action: 'refuse' | 'accept' | 'decline' | 'cancel', note = '') => {
    if (!open) return;
    try {
      await truckQuoteApi.taskAction(open.task.id, action, note);
      message.success(t('common.saved'));
      setRefusing(false);
      await after();
    } catch (error) {
      reportError(error);
    }
  };
  const book = () => {
    if (!open) return;
    modal.confirm({
      title: t('quote.book'),
      content: t('order.payConfirm', {
        amount: money(open.task.result?.ok ? (open.task.result.levels.at(-1)?.total ?? '0') : '0'),
      }),
      okButtonProps: { 'data-testid': 'task-book-confirm' } as never,
      onOk: async () => {
        try {
          const order = await truckOrderApi.book({
            quoteId: open.task.quoteId,
            taskId: open.task.id,
            pay: true,
          });
          if (order.payment && !order.payment.ok) message.warning(order.payment.message);
          navigate(order.status === 'unpaid' ? `/addAddress?id=${order.id}` : `/orderInfo?id=${order.id}`);
        } catch (error) {
          reportError(error);
        }
      },
    });
  };

  const task = open?.task;
  const price = task?.result?.ok ? task.result.levels.at(-1) : undefined;
  return (
    <>
      <FilterBar
        form={filterForm}
        onSearch={(v) => {
          setFilters({ keyword: v.keyword || undefined, status: v.status });
          list.resetPage();
        }}
      >
        <Form.Item name="keyword" label={t('task.taskNo')}>
          <Input allowClear />
        </Form.Item>
        <Form.Item name="status" label={t('common.status')}>
          <Select
            allowClear
            style={{ width: 140 }}
            options={TASK_STATUSES.map((s) => ({ value: s, label: t(`task.status.${s}`) }))}
          />
        </Form.Item>
      </FilterBar>
      <Table<TaskView>
        rowKey="id"
        loading={list.loading}
        dataSource={list.rows}
        pagination={list.pagination}
        scroll={{ x: 900 }}
        className="nowrap-table"
        locale={{
          emptyText: <ListEmpty text={t('task.empty')} to="/mail" label={t('task.emptyAction')} />,
        }}
        columns={[
          { title: t('task.taskNo'), dataIndex: 'taskNo' },
          {
            title: t('common.status'),
            dataIndex: 'status',
            render: (s: TaskStatus) => <Tag color={STATUS_COLOUR[s]}>{t(`task.status.${s}`)}</Tag>,
          },
          { title: t('task.reason'), dataIndex: 'reason', render: (r: string) => t(`quoteRefusal.${r}`) },
          { title: t('task.carrier'), dataIndex: 'carrier' },
          {
            title: t('task.customerPrice'),
            align: 'right',
            render: (_, row) => (row.result?.ok ? money(row.result.levels.at(-1)?.total, '$') : '—'),
          },
          {
            title: t('common.createdAt'),
            dataIndex: 'createdAt',
            render: (v: string) => dayjs(v).format('YYYY-MM-DD HH:mm'),
          },
          {
            title: t('common.actions'),
            render: (_, row) => (
              <Button size="small" onClick={() => void show(row.id)} data-testid={`task-${row.taskNo}`}>
                {t('quote.view')}
              </Button>
            ),
          },
        ]}
      />
      <Drawer
        open={open !== null}
        width={640}
        title={task?.taskNo}
        onClose={() => setOpen(null)}
        destroyOnHidden
      >
        {open && task ? (
          <Space orientation="vertical" style={{ width: '100%' }} size={16}>
            <Descriptions bordered size="small" column={1}>
              <Descriptions.Item label={t('common.status')}>
                <Tag color={STATUS_COLOUR[task.status]}>{t(`task.status.${task.status}`)}</Tag>
              </Descriptions.Item>
              <Descriptions.Item label={t('task.reason')}>
                {t(`quoteRefusal.${task.reason}`)}
              </Descriptions.Item>
              <Descriptions.Item label={t('quote.route')}>
                {open.quote.shipment.pickup.city}, {open.quote.shipment.pickup.state} →{' '}
                {open.quote.shipment.delivery.city}, {open.quote.shipment.delivery.state}
              </Descriptions.Item>
              <Descriptions.Item label={t('quote.lines')}>
                {open.quote.shipment.lines
                  .map(
                    (l) =>
                      `${l.name}: ${l.palletCount} × ${l.length}×${l.width}×${l.height} in, ${l.totalWeight} lb`,
                  )
                  .join('; ')}
              </Descriptions.Item>
              {task.note ? <Descriptions.Item label={t('task.note')}>{task.note}</Descriptions.Item> : null}
              {task.carrier ? (
                <Descriptions.Item label={t('task.carrier')}>{task.carrier}</Descriptions.Item>
              ) : null}
              {price ? (
                <Descriptions.Item label={t('task.customerPrice')}>
                  <strong data-testid="task-price">{money(price.total, '$')}</strong> (
                  {t('quote.transit', { min: task.transitDaysMin, max: task.transitDaysMax })})
                </Descriptions.Item>
              ) : null}
              {staff && task.result?.ok ? (
                <Descriptions.Item label={t('orderField.costPrice')}>
                  {money(task.result.levels[0]?.total, '$')}
                </Descriptions.Item>
              ) : null}
              {task.validUntil ? (
                <Descriptions.Item label={t('quote.validUntil', { time: '' })}>
                  {dayjs(task.validUntil).format('YYYY-MM-DD HH:mm')}
                </Descriptions.Item>
              ) : null}
            </Descriptions>
            <Space wrap>
              {task.actions.includes('price') ? (
                <Button
                  type="primary"
                  onClick={() => {
                    priceForm.resetFields();
                    setPricing(true);
                  }}
                  data-testid="task-price-open"
                >
                  {t('task.price')}
                </Button>
              ) : null}
              {task.actions.includes('refuse') ? (
                <Button danger onClick={() => setRefusing(true)}>
                  {t('task.refuse')}
                </Button>
              ) : null}
              {task.actions.includes('accept') ? (
                <Button type="primary" onClick={() => void act('accept')} data-testid="task-accept">
                  {t('task.accept')}
                </Button>
              ) : null}
              {task.actions.includes('decline') ? (
                <Button onClick={() => void act('decline')}>{t('task.decline')}</Button>
              ) : null}
              {task.actions.includes('book') ? (
                <Button type="primary" onClick={book} data-testid="task-book">
                  {t('quote.book')}
                </Button>
              ) : null}
              {task.actions.includes('cancel') ? (
                <Button onClick={() => void act('cancel')}>{t('task.cancel')}</Button>
              ) : null}
            </Space>
            <Timeline
              items={open.history.map((h) => ({
                children: (
                  <>
                    {t(`task.action.${h.action}`)} · {dayjs(h.createdAt).format('YYYY-MM-DD HH:mm')}
                    {h.note ? <div>{h.note}</div> : null}
                  </>
                ),
              }))}
            />
          </Space>
        ) : null}
      </Drawer>
      <Modal
        open={pricing}
        title={t('task.priceTitle', { taskNo: task?.taskNo ?? '' })}
        onCancel={() => setPricing(false)}
        onOk={() => priceForm.submit()}
        okButtonProps={{ 'data-testid': 'task-price-ok' } as never}
        destroyOnHidden
      >
        <Form
          form={priceForm}
          layout="vertical"
          initialValues={{
            fuel: '0',
            accessorials: '0',
            insurance: '0',
            transitDaysMin: 2,
            transitDaysMax: 5,
            validDays: 7,
          }}
          onFinish={async (values) => {
            if (!task) return;
            try {
              await truckQuoteApi.priceTask({ id: task.id, ...values });
              message.success(t('common.saved'));
              setPricing(false);
              await after();
            } catch (error) {
              reportError(error, priceForm);
            }
          }}
        >
          <Form.Item
            name="carrier"
            label={t('task.carrier')}
            rules={[{ required: true, message: t('validation.required', { field: t('task.carrier') }) }]}
          >
            <Input maxLength={100} data-testid="task-carrier" />
          </Form.Item>
          <Space wrap>
            {(['linehaul', 'fuel', 'accessorials', 'insurance'] as const).map((f) => (
              <Form.Item
                key={f}
                name={f}
                label={t(`task.${f}`)}
                rules={
                  f === 'linehaul'
                    ? [{ required: true, message: t('validation.required', { field: t('task.linehaul') }) }]
                    : []
                }
              >
                <AmountInput />
              </Form.Item>
            ))}
          </Space>
          <Space wrap>
            <Form.Item name="transitDaysMin" label={t('task.transitMin')}>
              <InputNumber min={0} max={60} precision={0} />
            </Form.Item>
            <Form.Item name="transitDaysMax" label={t('task.transitMax')}>
              <InputNumber min={0} max={60} precision={0} />
            </Form.Item>
            <Form.Item name="validDays" label={t('task.validDays')}>
              <InputNumber min={1} max={60} precision={0} />
            </Form.Item>
          </Space>
          <Form.Item name="note" label={t('task.note')}>
            <Input.TextArea rows={2} maxLength={500} />
          </Form.Item>
        </Form>
      </Modal>
      {refusing ? (
        <ReasonDialog
          title={t('task.refuse')}
          label={t('task.reason')}
          field="note"
          testId="task-refuse"
          onCancel={() => setRefusing(false)}
          onSubmit={(note) => act('refuse', note)}
        />
      ) : null}
    </>
  );
}
