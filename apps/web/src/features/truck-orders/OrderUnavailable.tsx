import { ResultCode } from '@freight/contracts/api';
import { Button, Result, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ApiError } from '../../lib/http.ts';

/**
 * What an order page shows instead of the order: none asked for, one that does not exist or is not
 * the caller's to see (the server answers both alike, so nobody learns another customer's order
 * numbers), or a load that failed. Each offers the way back to the order list.
 */
export function OrderUnavailable({
  id,
  error,
  onRetry,
}: {
  id: number;
  error?: unknown;
  onRetry?: () => void;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const back = (
    <Button type="primary" onClick={() => navigate('/orderList')} data-testid="order-back-to-list">
      {t('order.backToList')}
    </Button>
  );
  if (!(id > 0))
    return (
      <Result status="warning" title={t('order.noOrder')} extra={back} data-testid="order-unavailable" />
    );
  if (error instanceof ApiError && error.code === ResultCode.NotFound)
    return (
      <Result
        status="404"
        title={t('order.notFound')}
        subTitle={t('order.notFoundTip', { id })}
        extra={back}
        data-testid="order-unavailable"
      />
    );
  return (
    <Result
      status="error"
      title={t('order.loadFailed')}
      subTitle={error instanceof Error ? error.message : undefined}
      extra={
        <Space>
          {back}
          {onRetry ? <Button onClick={onRetry}>{t('boundary.retry')}</Button> : null}
        </Space>
      }
      data-testid="order-unavailable"
    />
  );
}
