import { UploadOutlined } from '@ant-design/icons';
import { ORDER_ACTIONS, type OrderAction, REASONED_ACTIONS } from '@freight/contracts/truck-orders';
import type { ShipmentAddress } from '@freight/contracts/truck-shipment';
import { useQuery } from '@tanstack/react-query';
import {
  App,
  Button,
  Card,
  Col,
  Descriptions,
  Form,
  Input,
  Modal,
  Row,
  Skeleton,
  Space,
  Table,
  Timeline,
  Typography,
  Upload,
} from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { LedgerRows } from '../../components/LedgerRows.tsx';
import { PrivateFileLink } from '../../components/PrivateFile.tsx';
import { ReasonDialog } from '../../components/ReasonDialog.tsx';
import { useReportError } from '../../hooks/useReportError.ts';
import { upload } from '../../lib/http.ts';
import { money, moneySign } from '../../lib/money.ts';
import { WorkOrderDialog } from '../work-orders/public.tsx';
import { type OrderInfo, truckOrderApi } from './api.ts';
import { BillsAndWorkOrdersCard } from './BillsAndWorkOrdersCard.tsx';
import { OrderStatusTag } from './OrderStatusTag.tsx';
import { OrderUnavailable } from './OrderUnavailable.tsx';

const addressText = (a: ShipmentAddress) =>
  [
    a.name,
    a.address1,
    a.address2,
    `${a.city}, ${a.state} ${a.zipcode}`,
    `${a.contact} +${a.dialCode} ${a.phone}`,
    a.email,
  ]
    .filter(Boolean)
    .join('\n');

/** Contacts, street and time windows may change before pickup; the ZIP codes stay as priced. */
function EditAddressDialog({
  info,
  onClose,
  onSaved,
}: {
  info: OrderInfo;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation();
  const reportError = useReportError();
  const [form] = Form.useForm<{ pickup: ShipmentAddress; delivery: ShipmentAddress }>();
  const fields = [
    'name',
    'address1',
    'address2',
    'contact',
    'phone',
    'email',
    'windowStart',
    'windowEnd',
  ] as const;
  const labels: Record<(typeof fields)[number], string> = {
    name: t('quote.addressName'),
    address1: t('quote.address1'),
    address2: t('quote.address2'),
    contact: t('quote.contact'),
    phone: t('quote.phone'),
    email: t('quote.email'),
    windowStart: t('quote.window'),
    windowEnd: t('quote.window'),
  };
  return (
    <Modal
      open
      width={820}
      title={t('order.editAddress')}
      onCancel={onClose}
      onOk={() => form.submit()}
      okButtonProps={{ 'data-testid': 'edit-address-ok' } as never}
    >
      <Typography.Paragraph type="secondary">{t('order.editAddressTip')}</Typography.Paragraph>
      <Form
        form={form}
        layout="vertical"
        initialValues={{ pickup: info.order.shipment.pickup, delivery: info.order.shipment.delivery }}
        onFinish={async (values) => {
          try {
            await truckOrderApi.editAddress(info.order.id, {
              pickup: { ...info.order.shipment.pickup, ...values.pickup },
              delivery: { ...info.order.shipment.delivery, ...values.delivery },
            });
            onSaved();
          } catch (error) {
            reportError(error, form);
          }
        }}
      >
        <Row gutter={16}>
          {(['pickup', 'delivery'] as const).map((end) => (
            <Col span={12} key={end}>
              <Typography.Title level={5}>{t(`quote.${end}`)}</Typography.Title>
              {fields.map((f) => (
                <Form.Item key={f} name={[end, f]} label={labels[f]}>
                  <Input data-testid={`edit-${end}-${f}`} />
                </Form.Item>
              ))}
            </Col>
          ))}
        </Row>
      </Form>
    </Modal>
  );
}

/** `/orderInfo?id=N`: the whole order, its charges, timeline, account entries, file and next actions. */
export default function OrderInfoPage() {
  const { t, i18n } = useTranslation();
  const { message, modal } = App.useApp();
  const reportError = useReportError();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const id = Number(params.get('id'));
  const info = useQuery({
    queryKey: ['order-info', id],
    queryFn: () => truckOrderApi.orderInfo(id),
    enabled: id > 0,
  });
  const [reasonFor, setReasonFor] = useState<OrderAction | null>(null);
  const [editing, setEditing] = useState(false);
  const [openingWorkOrder, setOpeningWorkOrder] = useState(false);

  if (!(id > 0) || info.isError)
    return <OrderUnavailable id={id} error={info.error} onRetry={() => void info.refetch()} />;
  if (info.isLoading || !info.data)
    return (
      <Card>
        <Skeleton active paragraph={{ rows: 10 }} />
      </Card>
    );
  const { order, timeline, ledger } = info.data;

  const act = async (action: OrderAction, reason = '') => {
    try {
      if (action === 'pay') {
        navigate(`/addAddress?id=${order.id}`);
        return;
      }
      await truckOrderApi.transition(order.id, action, reason);
      message.success(t('common.saved'));
      setReasonFor(null);
      await info.refetch();
    } catch (error) {
      reportError(error);
    }
  };

  const onAction = (action: OrderAction) => {
    if (REASONED_ACTIONS.includes(action)) {
      setReasonFor(action);
      return;
    }
    modal.confirm({
      title: t('order.confirmAction', { action: t(`orderAction.${action}`) }),
      onOk: () => act(action),
      okButtonProps: { 'data-testid': 'confirm-action' } as never,
    });
  };

  // The server lists what this user may do now: the machine's moves, and editing the addresses.
  const moves = order.actions.filter((a): a is OrderAction => ORDER_ACTIONS.includes(a as OrderAction));
  const editable = order.actions.includes('edit_address');
  const product = i18n.language === 'en-US' ? order.productNameEn : order.productName;

  return (
    <Space orientation="vertical" style={{ width: '100%' }} size={16}>
      <Card
        title={
          <Space wrap>
            <span data-testid="order-no">{order.orderNo}</span>
            <span data-testid="order-info-status">
              <OrderStatusTag status={order.status} carrierPending={order.carrierPending} />
            </span>
          </Space>
        }
        extra={
          <Space wrap>
            {moves.map((action) => (
              <Button
                key={action}
                type={['pay', 'approve', 'deliver'].includes(action) ? 'primary' : 'default'}
                danger={['reject', 'cancel'].includes(action)}
                onClick={() => onAction(action)}
                data-testid={`action-${action}`}
              >
                {t(`orderAction.${action}`)}
              </Button>
            ))}
            {editable ? (
              <Button onClick={() => setEditing(true)} data-testid="edit-address">
                {t('order.editAddress')}
              </Button>
            ) : null}
            {order.actions.includes('open_work_order') ? (
              <Button onClick={() => setOpeningWorkOrder(true)} data-testid="order-open-work-order">
                {t('workOrders.openForOrder')}
              </Button>
            ) : null}
          </Space>
        }
      >
        <Descriptions size="small" column={{ xs: 1, md: 2, xl: 3 }} bordered>
          <Descriptions.Item label={t('orderField.customerOrderNo')}>
            {order.customerOrderNo || '—'}
          </Descriptions.Item>
          <Descriptions.Item label={t('orderField.queryCode')}>{order.queryCode}</Descriptions.Item>
          <Descriptions.Item label={t('order.orderType')}>
            {t(`order.orderType.${order.orderType}`)}
          </Descriptions.Item>
          <Descriptions.Item label={t('order.product')}>{product}</Descriptions.Item>
          <Descriptions.Item label={t('orderField.carrier')}>{order.carrier}</Descriptions.Item>
          <Descriptions.Item label={t('orderField.mode')}>{order.mode}</Descriptions.Item>
          <Descriptions.Item label={t('order.transit')}>
            {t('order.days', { min: order.transitDaysMin, max: order.transitDaysMax })}
          </Descriptions.Item>
          <Descriptions.Item label={t('order.codes')}>
            {order.pickupCode} / {order.deliveryCode}
          </Descriptions.Item>
          <Descriptions.Item label={t('orderField.createdAt')}>
            {dayjs(order.createdAt).format('YYYY-MM-DD HH:mm')}
          </Descriptions.Item>
          {order.carrierInfo ? (
            <Descriptions.Item label={t('order.carrierInfo')}>{order.carrierInfo}</Descriptions.Item>
          ) : null}
          {order.rejectReason ? (
            <Descriptions.Item label={t('order.reason')}>{order.rejectReason}</Descriptions.Item>
          ) : null}
        </Descriptions>
      </Card>
      <Row gutter={16}>
        <Col xs={24} lg={14}>
          <Card title={t('order.shipment')} size="small">
            <Row gutter={16}>
              {(['pickup', 'delivery'] as const).map((end) => (
                <Col xs={24} md={12} key={end}>
                  <Typography.Text strong>{t(`quote.${end}`)}</Typography.Text>
                  <Typography.Paragraph style={{ whiteSpace: 'pre-line' }} data-testid={`order-${end}`}>
                    {addressText(order.shipment[end])}
                    {'\n'}
                    {order.shipment[end].windowStart}–{order.shipment[end].windowEnd} ·{' '}
                    {t(`addressType.${order.shipment[end].addressType}`)}
                  </Typography.Paragraph>
                </Col>
              ))}
            </Row>
            <Table
              size="small"
              rowKey={(_, i) => String(i)}
              pagination={false}
              dataSource={order.shipment.lines.map((l, i) => ({ ...l, rated: order.lines[i] }))}
              scroll={{ x: 700 }}
              columns={[
                { title: t('quote.goodsName'), dataIndex: 'name' },
                { title: t('quote.palletCount'), dataIndex: 'palletCount' },
                { title: t('quote.quantity'), render: (_, l) => `${l.quantity} ${l.unit}` },
                { title: `L×W×H (in)`, render: (_, l) => `${l.length}×${l.width}×${l.height}` },
                { title: t('quote.totalWeight'), dataIndex: 'totalWeight' },
                {
                  title: t('quote.freightClass'),
                  render: (_, l) => l.rated?.freightClass ?? l.freightClass ?? '—',
                },
                { title: t('quote.dangerous'), render: (_, l) => (l.dangerous ? l.dangerous.unNumber : '—') },
              ]}
            />
            {order.shippingNote || order.receivingNote || order.extraNote ? (
              <Descriptions size="small" column={1} style={{ marginTop: 12 }} title={t('order.notes')}>
                {order.shippingNote ? (
                  <Descriptions.Item label={t('quote.shippingNote')}>{order.shippingNote}</Descriptions.Item>
                ) : null}
                {order.receivingNote ? (
                  <Descriptions.Item label={t('quote.receivingNote')}>
                    {order.receivingNote}
                  </Descriptions.Item>
                ) : null}
                {order.extraNote ? (
                  <Descriptions.Item label={t('quote.extraNote')}>{order.extraNote}</Descriptions.Item>
                ) : null}
              </Descriptions>
            ) : null}
          </Card>
        </Col>
        <Col xs={24} lg={10}>
          <Card title={t('order.prices')} size="small">
            <Descriptions size="small" column={1} colon={false} data-testid="order-prices">
              <Descriptions.Item label={t('orderField.freight')}>
                {money(order.freight, '$')}
              </Descriptions.Item>
              <Descriptions.Item label={t('orderField.fuel')}>{money(order.fuel, '$')}</Descriptions.Item>
              {order.accessorials.map((a) => (
                <Descriptions.Item key={a.code} label={t(`accessorial.${a.code}`)}>
                  {money(a.fee, '$')}
                </Descriptions.Item>
              ))}
              {moneySign(order.premium) !== 0 ? (
                <Descriptions.Item label={t('orderField.premium')}>
                  {money(order.premium, '$')} ({t('quote.insuredValue')} {money(order.insuredAmount, '$')})
                </Descriptions.Item>
              ) : null}
              <Descriptions.Item label={<strong>{t('orderField.total')}</strong>}>
                <strong data-testid="order-total">{money(order.total, '$')}</strong>
              </Descriptions.Item>
              <Descriptions.Item label={t('order.paidAmount')}>{money(order.paid, '$')}</Descriptions.Item>
              {order.agentPrice ? (
                <Descriptions.Item label={t('orderField.agentPrice')}>
                  {money(order.agentPrice, '$')}
                </Descriptions.Item>
              ) : null}
              {order.branchPrice ? (
                <Descriptions.Item label={t('orderField.branchPrice')}>
                  {money(order.branchPrice, '$')}
                </Descriptions.Item>
              ) : null}
              {order.costPrice ? (
                <Descriptions.Item label={t('orderField.costPrice')}>
                  {money(order.costPrice, '$')}
                </Descriptions.Item>
              ) : null}
            </Descriptions>
          </Card>
          <Card title={t('order.file')} size="small" style={{ marginTop: 16 }}>
            <Space>
              {order.orderFileUrl ? (
                <PrivateFileLink url={order.orderFileUrl} testId="order-file" />
              ) : (
                <Typography.Text type="secondary">{t('order.noFile')}</Typography.Text>
              )}
              <Upload
                showUploadList={false}
                accept=".pdf,.png,.jpg,.jpeg,.webp"
                customRequest={async ({ file }) => {
                  try {
                    const [url] = await upload<string[]>('/common/upload/documents', file as File);
                    if (url) await truckOrderApi.attachFile(order.id, url);
                    message.success(t('common.saved'));
                    await info.refetch();
                  } catch (error) {
                    reportError(error);
                  }
                }}
              >
                <Button icon={<UploadOutlined />} data-testid="order-upload">
                  {t('order.uploadFile')}
                </Button>
              </Upload>
            </Space>
          </Card>
        </Col>
      </Row>
      <Row gutter={16}>
        <Col xs={24} lg={10}>
          <Card title={t('order.timeline')} size="small">
            <Timeline
              data-testid="order-timeline"
              items={timeline.map((e) => ({
                children: (
                  <>
                    <Typography.Text strong>{t(`orderAction.${e.action}`)}</Typography.Text>{' '}
                    {e.toStatus && e.toStatus !== e.fromStatus ? (
                      <OrderStatusTag status={e.toStatus} />
                    ) : null}
                    <br />
                    <Typography.Text type="secondary">
                      {dayjs(e.createdAt).format('YYYY-MM-DD HH:mm:ss')}
                    </Typography.Text>
                    {e.note ? <div>{e.note}</div> : null}
                  </>
                ),
              }))}
            />
          </Card>
        </Col>
        <Col xs={24} lg={14}>
          <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
            <Card title={t('order.ledger')} size="small">
              <LedgerRows rows={ledger} testId="order-ledger" />
            </Card>
            <BillsAndWorkOrdersCard orderId={order.id} />
          </Space>
        </Col>
      </Row>
      {reasonFor ? (
        <ReasonDialog
          title={t(`orderAction.${reasonFor}`)}
          label={t('order.reason')}
          testId={`order-${reasonFor}`}
          onCancel={() => setReasonFor(null)}
          onSubmit={(reason) => act(reasonFor, reason)}
        />
      ) : null}
      {editing ? (
        <EditAddressDialog
          info={info.data}
          onClose={() => setEditing(false)}
          onSaved={() => {
            setEditing(false);
            message.success(t('common.saved'));
            void info.refetch();
          }}
        />
      ) : null}
      {openingWorkOrder ? (
        <WorkOrderDialog prefill={{ orderNo: order.orderNo }} onClose={() => setOpeningWorkOrder(false)} />
      ) : null}
    </Space>
  );
}
