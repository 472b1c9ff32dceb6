import { ArrowLeftOutlined } from '@ant-design/icons';
import type { BusinessLine } from '@freight/contracts/accounts';
import type { WorkOrderAction } from '@freight/contracts/work-orders';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  App,
  Button,
  Card,
  Col,
  Descriptions,
  Empty,
  Result,
  Row,
  Skeleton,
  Space,
  Timeline,
  Typography,
} from 'antd';
import dayjs from 'dayjs';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { FileLinks } from '../../components/ProofFiles.tsx';
import { ReasonDialog } from '../../components/ReasonDialog.tsx';
import { usePageQuery } from '../../context/page-context.tsx';
import { useReportError } from '../../hooks/useReportError.ts';
import { ApiError } from '../../lib/http.ts';
import { money } from '../../lib/money.ts';
import { waybillListPath } from '../express-waybills/api.ts';
import { orderInfoPath } from '../truck-orders/api.ts';
import {
  refreshBillsAndWorkOrders,
  WORK_ORDER_PATHS,
  type WorkOrderDecision,
  workOrderApi,
  workOrderPath,
} from './api.ts';
import { MessageThread } from './MessageThread.tsx';
import { WorkOrderStatusTag } from './public.tsx';
import { ResolveDialog } from './ResolveDialog.tsx';

const time = (value: string | null) => (value ? dayjs(value).format('YYYY-MM-DD HH:mm') : '—');

/**
 * `/work-order-copy?sn=…` (truck) and `/expressWorkorderoperate?sn=…` (express): one work order
 * (notices link here): its claim, the outcome once decided, the conversation and the history, with the
 * steps this user may take now.
 */
export function WorkOrderDetailPage({ line }: { line: BusinessLine }) {
  const { t } = useTranslation();
  // The express pages word some strings their own way (`<key>.express`).
  const tl = (key: string) => t(line === 'express' ? `${key}.express` : key);
  const { message, modal } = App.useApp();
  const reportError = useReportError();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  // The page's own query, so a tab kept in the background keeps showing its own work order.
  const sn = usePageQuery().get('sn')?.trim() ?? '';
  const info = useQuery({
    queryKey: ['work-order-info', sn],
    queryFn: () => workOrderApi.info(sn),
    enabled: sn !== '',
  });
  const [deciding, setDeciding] = useState<'resolve' | 'reject' | null>(null);
  // A work order of the other line (a link or an old notice) opens on its own line's page.
  const otherLine = info.data && info.data.line !== line ? info.data.line : null;
  useEffect(() => {
    if (otherLine) navigate(workOrderPath(sn, otherLine), { replace: true });
  }, [otherLine, sn, navigate]);

  const back = (
    <Button
      type="link"
      icon={<ArrowLeftOutlined />}
      onClick={() => navigate(WORK_ORDER_PATHS[line].list)}
      data-testid="wo-back"
    >
      {tl('workOrders.backToList')}
    </Button>
  );
  if (!sn) return <Result status="warning" title={t('workOrders.noSn')} extra={back} />;
  if (info.isError)
    return (
      <Result
        status="404"
        title={t('workOrders.notFound', { sn })}
        subTitle={info.error instanceof ApiError ? info.error.message : undefined}
        extra={back}
        data-testid="wo-not-found"
      />
    );
  if (info.isLoading || !info.data || otherLine)
    return (
      <Card>
        <Skeleton active paragraph={{ rows: 10 }} />
      </Card>
    );
  const wo = info.data;

  const decide = async (decision: Omit<WorkOrderDecision, 'sn'>) => {
    try {
      await workOrderApi.act({ sn: wo.workOrderNo, ...decision });
      message.success(t('workOrder.done'));
      setDeciding(null);
    } finally {
      // Another member of staff may have decided first (409): show where it stands now either way.
      refreshBillsAndWorkOrders(queryClient);
      void info.refetch();
    }
  };

  const onAction = (action: WorkOrderAction) => {
    if (action === 'resolve' || action === 'reject') {
      setDeciding(action);
      return;
    }
    modal.confirm({
      title: t(`workOrders.action.${action}`),
      content: t(`workOrders.confirm.${action}`, { sn: wo.workOrderNo }),
      okButtonProps: { 'data-testid': 'confirm-action' } as never,
      onOk: async () => {
        try {
          await decide({ action });
        } catch (error) {
          reportError(error);
        }
      },
    });
  };

  const decided = wo.processedAt !== null;
  return (
    <Space orientation="vertical" style={{ width: '100%' }} size={16}>
      <Card
        title={
          <Space wrap>
            {back}
            <span data-testid="wo-no">{wo.workOrderNo}</span>
            <WorkOrderStatusTag status={wo.status} testId="wo-status" />
          </Space>
        }
        extra={
          <Space wrap>
            {wo.actions.map((action) => (
              <Button
                key={action}
                type={action === 'resolve' || action === 'accept' ? 'primary' : 'default'}
                danger={action === 'reject' || action === 'withdraw'}
                onClick={() => onAction(action)}
                data-testid={`wo-action-${action}`}
              >
                {t(`workOrders.action.${action}`)}
              </Button>
            ))}
          </Space>
        }
      >
        <Descriptions size="small" bordered column={{ xs: 1, md: 2, xl: 3 }} data-testid="wo-fields">
          <Descriptions.Item label={t('common.status')}>
            <WorkOrderStatusTag status={wo.status} />
          </Descriptions.Item>
          <Descriptions.Item label={tl('workOrders.orderNo')}>
            <Typography.Link
              onClick={() =>
                navigate(line === 'express' ? waybillListPath(wo.orderNo) : orderInfoPath(wo.orderId))
              }
              data-testid="wo-order"
            >
              {wo.orderNo}
            </Typography.Link>
          </Descriptions.Item>
          <Descriptions.Item label={t('workOrders.customer')}>{wo.organisationName}</Descriptions.Item>
          <Descriptions.Item label={t('workOrders.category')}>
            {t(`workOrder.category.${wo.category}`)}
          </Descriptions.Item>
          <Descriptions.Item label={t('workOrders.transactionItem')}>
            {t(`workOrder.item.${wo.transactionItem}`)}
          </Descriptions.Item>
          <Descriptions.Item label={t('workOrders.claimedAmount')}>{money(wo.amount, '$')}</Descriptions.Item>
          <Descriptions.Item label={t('bounceBills.billNo')}>{wo.billNo ?? '—'}</Descriptions.Item>
          <Descriptions.Item label={t('common.createdAt')}>{time(wo.createdAt)}</Descriptions.Item>
          <Descriptions.Item label={t('workOrders.processedAt')}>{time(wo.processedAt)}</Descriptions.Item>
          <Descriptions.Item label={t('workOrders.consumptionType')}>
            <span data-testid="wo-outcome">
              {decided
                ? `${t(`workOrder.consumption.${wo.consumptionType}`)}${
                    wo.consumptionType === 'none' ? '' : ` ${money(wo.resultAmount, '$')}`
                  }`
                : '—'}
            </span>
          </Descriptions.Item>
          <Descriptions.Item label={t('workOrders.operator')}>{wo.operator || '—'}</Descriptions.Item>
          <Descriptions.Item label={t('workOrders.remark')}>
            <span data-testid="wo-remark">{wo.remark || '—'}</span>
          </Descriptions.Item>
          <Descriptions.Item label={t('workOrders.description')} span="filled">
            <Typography.Text style={{ whiteSpace: 'pre-wrap' }}>{wo.description}</Typography.Text>
          </Descriptions.Item>
          <Descriptions.Item label={t('workOrders.proofFiles')} span="filled">
            <FileLinks urls={wo.proofUrls} testId="wo-proof-files" />
          </Descriptions.Item>
        </Descriptions>
      </Card>
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={14}>
          <Card title={t('workOrders.thread')} size="small">
            <MessageThread workOrder={wo} onSent={() => void info.refetch()} />
          </Card>
        </Col>
        <Col xs={24} lg={10}>
          <Card title={t('workOrders.history')} size="small">
            {wo.events.length === 0 ? (
              <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} />
            ) : (
              <Timeline
                data-testid="wo-timeline"
                items={wo.events.map((e) => ({
                  key: e.id,
                  content: (
                    <>
                      <Typography.Text strong>
                        {t(`workOrders.event.${e.action}`, { defaultValue: e.action })}
                      </Typography.Text>{' '}
                      {e.fromStatus && e.fromStatus !== e.toStatus ? (
                        <>
                          <WorkOrderStatusTag status={e.fromStatus} /> →{' '}
                        </>
                      ) : null}
                      <WorkOrderStatusTag status={e.toStatus} />
                      <br />
                      <Typography.Text type="secondary">
                        {dayjs(e.createdAt).format('YYYY-MM-DD HH:mm:ss')}
                        {e.operator ? ` · ${e.operator}` : ''}
                      </Typography.Text>
                      {e.note ? <div style={{ whiteSpace: 'pre-wrap' }}>{e.note}</div> : null}
                    </>
                  ),
                }))}
              />
            )}
          </Card>
        </Col>
      </Row>
      {deciding === 'resolve' ? (
        <ResolveDialog
          workOrder={wo}
          onCancel={() => setDeciding(null)}
          onSubmit={(resolution) => decide({ action: 'resolve', ...resolution })}
        />
      ) : null}
      {deciding === 'reject' ? (
        <ReasonDialog
          title={t('workOrders.action.reject')}
          label={t('workOrders.rejectReason')}
          field="remark"
          maxLength={1000}
          summary={t('workOrders.confirm.reject', { sn: wo.workOrderNo })}
          testId="wo-reject"
          onCancel={() => setDeciding(null)}
          onSubmit={(remark) => decide({ action: 'reject', remark })}
        />
      ) : null}
    </Space>
  );
}
