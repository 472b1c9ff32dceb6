import { CARRIER_TRACKED_STATUSES, type WaybillAction } from '@freight/contracts/express-waybills';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Alert, App, Button, Descriptions, Drawer, Skeleton, Space, Table, Timeline, Typography } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { LedgerRows } from '../../components/LedgerRows.tsx';
import { money, sumMoney } from '../../lib/money.ts';
import { LABEL_POLL_MS, type WaybillView, waybillApi } from './api.ts';
import { type PrintChoice, PrintLabelsButton } from './PrintLabelsButton.tsx';
import { WaybillStatusTag } from './WaybillStatusTag.tsx';

export const WAYBILL_DETAIL_KEY = 'waybill-detail';

/** One waybill: where it is, what it costs at each level the caller may see, its history and money. */
export function WaybillDrawer({
  id,
  onClose,
  onAct,
  onTracked,
}: {
  id: number;
  onClose: () => void;
  /** After the carrier was asked now: the list behind shows the status it moved to. */
  onTracked?: () => void;
  /** What the action buttons do; without it the drawer only reads (the tracking page). */
  onAct?: (waybill: WaybillView, action: WaybillAction, choice?: PrintChoice) => void;
}) {
  const { t, i18n } = useTranslation();
  const en = i18n.language === 'en-US';
  const detail = useQuery({
    queryKey: [WAYBILL_DETAIL_KEY, id],
    queryFn: () => waybillApi.info(id),
    refetchInterval: (query) =>
      query.state.data?.waybill.status === 'label_pending' ? LABEL_POLL_MS : false,
  });
  const { message } = App.useApp();
  // The carrier asked now, for someone waiting between two polls; the answer says what came of it.
  const trackNow = useMutation({
    mutationFn: () => waybillApi.trackNow(id),
    onSuccess: (answer) => {
      if (answer.failure) void message.warning(answer.message);
      else void message.success(answer.message);
      void detail.refetch();
      onTracked?.();
    },
  });
  const time = (v: string) => dayjs(v).format('YYYY-MM-DD HH:mm');
  const unit = detail.data?.waybill.shipment.unitSystem === 'kg_cm' ? 'kg' : 'lb';

  return (
    <Drawer
      open
      width="min(720px, 100vw)"
      title={t('waybill.detail')}
      onClose={onClose}
      data-testid="waybill-drawer"
    >
      {detail.isError ? (
        <Alert type="warning" showIcon message={t('waybill.unavailable')} />
      ) : !detail.data ? (
        <Skeleton active />
      ) : (
        (() => {
          const { waybill, timeline, ledger } = detail.data;
          const address = (a: typeof waybill.shipment.sender) =>
            [a.name, a.company, a.address1, a.address2, `${a.city} ${a.state} ${a.zipcode}`, a.country]
              .filter(Boolean)
              .join(', ');
          return (
            <Space orientation="vertical" size={16} style={{ width: '100%' }}>
              <Space wrap>
                {(onAct ? waybill.actions : []).map((a) =>
                  a === 'print' ? (
                    <PrintLabelsButton
                      key={a}
                      type="primary"
                      label={t('waybillAction.print')}
                      testId="waybill-drawer-print"
                      customs={waybill.customsPapers}
                      onPrint={(choice) => onAct?.(waybill, a, choice)}
                    />
                  ) : (
                    <Button
                      key={a}
                      danger={a === 'refund'}
                      type={a === 'pay' ? 'primary' : 'default'}
                      onClick={() => onAct?.(waybill, a)}
                      data-testid={`waybill-drawer-${a}`}
                    >
                      {t(`waybillAction.${a}`)}
                    </Button>
                  ),
                )}
              </Space>
              <Descriptions bordered size="small" column={{ xs: 1, sm: 2 }}>
                <Descriptions.Item label={t('waybill.waybillNo')}>
                  <span className="number-text" data-testid="waybill-drawer-number">
                    {waybill.waybillNo}
                  </span>
                </Descriptions.Item>
                <Descriptions.Item label={t('waybill.status')}>
                  <WaybillStatusTag status={waybill.status} />
                </Descriptions.Item>
                <Descriptions.Item label={t('waybill.trackingNo')}>
                  <span className="number-text" data-testid="waybill-drawer-tracking">
                    {waybill.trackingNo}
                  </span>
                  {waybill.carrierLabel?.bought && CARRIER_TRACKED_STATUSES.includes(waybill.status) ? (
                    <Button
                      size="small"
                      type="link"
                      loading={trackNow.isPending}
                      onClick={() => trackNow.mutate()}
                      data-testid="waybill-drawer-track-now"
                    >
                      {t('waybill.trackNow')}
                    </Button>
                  ) : null}
                </Descriptions.Item>
                <Descriptions.Item label={t('waybill.reference')}>
                  {waybill.reference || '-'}
                </Descriptions.Item>
                {waybill.carrierLabel ? (
                  <Descriptions.Item label={t('waybill.carrierLabel')} span={2}>
                    <span data-testid="waybill-drawer-carrier-label">
                      {waybill.carrierLabel.bought
                        ? t('waybill.carrierLabelBought', {
                            provider: waybill.carrierLabel.provider.toUpperCase(),
                          })
                        : waybill.carrierLabel.failure
                          ? t('waybill.carrierLabelRefused')
                          : t('waybill.carrierLabelPending')}
                    </span>
                    {waybill.carrierLabel.detail ? (
                      <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
                        {t('waybill.carrierSays', { detail: waybill.carrierLabel.detail })}
                      </Typography.Paragraph>
                    ) : null}
                  </Descriptions.Item>
                ) : null}
                <Descriptions.Item label={t('waybill.customer')}>
                  {waybill.organisationName}
                </Descriptions.Item>
                <Descriptions.Item label={t('waybill.channel')}>
                  {en
                    ? `${waybill.channel.productNameEn} · ${waybill.channel.nameEn}`
                    : `${waybill.channel.productName} · ${waybill.channel.name}`}
                </Descriptions.Item>
                <Descriptions.Item label={t('waybill.sender')} span={2}>
                  {address(waybill.shipment.sender)}
                </Descriptions.Item>
                <Descriptions.Item label={t('waybill.recipient')} span={2}>
                  {address(waybill.shipment.recipient)}
                </Descriptions.Item>
                <Descriptions.Item label={t('waybill.parcels')}>
                  {t('waybill.pieces', {
                    count: waybill.shipment.parcels.reduce((n, p) => n + p.quantity, 0),
                  })}
                </Descriptions.Item>
                <Descriptions.Item label={t('waybill.weight')}>
                  {waybill.billableWeight} {unit}
                  {/* A carrier's rate has no zone of the tenant's charts. */}
                  {waybill.zone ? ` · ${t('waybill.zone')} ${waybill.zone}` : null}
                </Descriptions.Item>
                <Descriptions.Item label={t('waybill.total')}>{money(waybill.total, '$')}</Descriptions.Item>
                <Descriptions.Item label={t('waybill.paid')}>{money(waybill.paid, '$')}</Descriptions.Item>
                <Descriptions.Item label={t('waybill.printCount')}>{waybill.printCount}</Descriptions.Item>
                <Descriptions.Item label={t('waybill.createdAt')}>
                  {time(waybill.createdAt)}
                </Descriptions.Item>
              </Descriptions>
              <Typography.Title level={5}>{t('waybill.levels')}</Typography.Title>
              <Table
                rowKey={(l) => `${l.type}-${l.organisationId ?? 0}`}
                size="small"
                pagination={false}
                dataSource={waybill.levels}
                columns={[
                  { title: '', dataIndex: 'type', render: (v: string) => t(`waybill.level.${v}`) },
                  {
                    title: t('waybill.freight'),
                    dataIndex: 'freight',
                    align: 'right',
                    render: (v: string) => money(v),
                  },
                  {
                    title: t('waybill.surcharges'),
                    align: 'right',
                    render: (_, l) => money(sumMoney(l.surcharges.map((s) => s.fee))),
                  },
                  {
                    title: t('waybill.fuel'),
                    dataIndex: 'fuel',
                    align: 'right',
                    render: (v: string) => money(v),
                  },
                  {
                    title: t('waybill.total'),
                    dataIndex: 'total',
                    align: 'right',
                    render: (v: string) => money(v),
                  },
                ]}
              />
              <Typography.Title level={5}>{t('waybill.timeline')}</Typography.Title>
              <Timeline
                items={timeline.map((e) => ({
                  children: (
                    <span>
                      {time(e.createdAt)} · {t(`waybillAction.${e.action}`)} ·{' '}
                      {t(`waybillStatus.${e.toStatus}`)}
                      {e.note ? ` · ${e.note}` : ''}
                    </span>
                  ),
                }))}
              />
              <Typography.Title level={5}>{t('waybill.ledger')}</Typography.Title>
              <LedgerRows rows={ledger} testId="waybill-ledger" />
            </Space>
          );
        })()
      )}
    </Drawer>
  );
}
