import { ORDER_STATUSES } from '@freight/contracts/truck-orders';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Col, Empty, Row, Skeleton, Space, Statistic, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { type ChartOption, EChart } from '../../components/EChart.tsx';
import { money } from '../../lib/money.ts';
import { truckOrderApi } from './api.ts';

/** `/dashboard`: today's and this month's truck orders and money, the last 30 days, every status. */
function Dashboard({ compact = false }: { compact?: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { token } = theme.useToken();
  const stats = useQuery({
    queryKey: ['truck-stats'],
    queryFn: truckOrderApi.stats,
    refetchInterval: 60_000,
  });
  if (!stats.data)
    return <Card>{stats.isError ? <Empty /> : <Skeleton active paragraph={{ rows: 8 }} />}</Card>;
  const s = stats.data;
  const statusData = ORDER_STATUSES.map((status) => ({
    status: t(`orderStatus.${status}`),
    n: s.statuses[status] ?? 0,
  })).filter((d) => d.n > 0);
  const daily: ChartOption = {
    grid: { left: 8, right: 8, top: 40, bottom: 8, containLabel: true },
    legend: { top: 0 },
    tooltip: { trigger: 'axis' },
    xAxis: { type: 'category', boundaryGap: false, data: s.series.map((d) => d.day.slice(5)) },
    yAxis: [
      { type: 'value', minInterval: 1 },
      { type: 'value', splitLine: { show: false } },
    ],
    series: [
      {
        type: 'line',
        name: t('dashboard.orders'),
        yAxisIndex: 0,
        smooth: true,
        smoothMonotone: 'x',
        showSymbol: false,
        data: s.series.map((d) => d.orders),
      },
      {
        type: 'line',
        name: t('dashboard.paid'),
        yAxisIndex: 1,
        smooth: true,
        smoothMonotone: 'x',
        showSymbol: false,
        // Money arrives as decimal strings; the chart only places them on its axis.
        data: s.series.map((d) => d.paid),
      },
    ],
  };
  const byStatus: ChartOption = {
    grid: { left: 8, right: 32, top: 8, bottom: 8, containLabel: true },
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
    xAxis: { type: 'value', minInterval: 1 },
    // Top to bottom in the order of the status machine.
    yAxis: { type: 'category', inverse: true, data: statusData.map((d) => d.status) },
    series: [
      {
        type: 'bar',
        name: t('dashboard.orders'),
        barMaxWidth: 18,
        label: { show: true, position: 'right', color: token.colorTextSecondary },
        data: statusData.map((d) => d.n),
      },
    ],
  };
  return (
    <Space orientation="vertical" style={{ width: '100%' }} size={16} data-testid="truck-dashboard">
      <Row gutter={[16, 16]}>
        <Col xs={12} md={6}>
          <Card>
            <Statistic
              title={t('dashboard.todayOrders')}
              value={s.today.orders}
              data-testid="stat-today-orders"
            />
          </Card>
        </Col>
        <Col xs={12} md={6}>
          <Card>
            <Statistic title={t('dashboard.todayPaid')} prefix="$" value={money(s.today.paid)} />
          </Card>
        </Col>
        <Col xs={12} md={6}>
          <Card>
            <Statistic title={t('dashboard.monthOrders')} value={s.month.orders} />
          </Card>
        </Col>
        <Col xs={12} md={6}>
          <Card>
            <Statistic title={t('dashboard.monthPaid')} prefix="$" value={money(s.month.paid)} />
          </Card>
        </Col>
        <Col xs={12} md={6}>
          <Card hoverable onClick={() => navigate('/orderList')}>
            <Statistic
              title={t('dashboard.waitingReview')}
              value={s.waitingReview}
              valueStyle={{ color: s.waitingReview ? token.colorPrimary : undefined }}
            />
          </Card>
        </Col>
        <Col xs={12} md={6}>
          <Card hoverable onClick={() => navigate('/orderList')}>
            <Statistic title={t('dashboard.unpaid')} value={s.unpaid} />
          </Card>
        </Col>
        <Col xs={12} md={6}>
          <Card hoverable onClick={() => navigate('/workOrderList')}>
            <Statistic
              title={t('dashboard.openWorkOrders')}
              value={s.openWorkOrders}
              data-testid="stat-open-work-orders"
            />
          </Card>
        </Col>
        <Col xs={12} md={6}>
          <Card hoverable onClick={() => navigate('/bounceBill')}>
            <Statistic
              title={t('dashboard.unpaidBills')}
              value={s.unpaidBills}
              valueStyle={{ color: s.unpaidBills ? token.colorPrimary : undefined }}
            />
          </Card>
        </Col>
        {s.balance ? (
          <>
            <Col xs={12} md={6}>
              <Card>
                <Statistic title={t('order.balance')} prefix="$" value={money(s.balance.balance)} />
              </Card>
            </Col>
            <Col xs={12} md={6}>
              <Card>
                <Statistic
                  title={t('order.available')}
                  prefix="$"
                  value={money(s.balance.available)}
                  data-testid="stat-available"
                />
              </Card>
            </Col>
          </>
        ) : null}
      </Row>
      {compact ? (
        <Card title={t('dashboard.quick')}>
          <Space wrap>
            <Button type="primary" onClick={() => navigate('/mail')}>
              {t('dashboard.quote')}
            </Button>
            <Button onClick={() => navigate('/orderList')}>{t('order.list')}</Button>
            <Button onClick={() => navigate('/quoteList')}>{t('dashboard.quotes')}</Button>
            <Button onClick={() => navigate('/recharge')}>{t('order.recharge')}</Button>
            <Button onClick={() => navigate('/addressmanagement')}>{t('dashboard.addresses')}</Button>
          </Space>
        </Card>
      ) : null}
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={14}>
          <Card title={t('dashboard.last30')}>
            <EChart option={daily} height={280} testId="chart-last30" />
          </Card>
        </Col>
        <Col xs={24} xl={10}>
          <Card title={t('dashboard.byStatus')}>
            {statusData.length === 0 ? (
              <Empty description={t('common.empty')} />
            ) : (
              <EChart option={byStatus} height={280} testId="chart-by-status" />
            )}
          </Card>
        </Col>
      </Row>
    </Space>
  );
}

export const TruckDashboard = () => <Dashboard />;
/** `/truckHome`: the same figures with shortcuts to the daily work. */
export const TruckHome = () => <Dashboard compact />;
