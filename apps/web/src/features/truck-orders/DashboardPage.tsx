import { ORDER_STATUSES } from '@freight/contracts/truck-orders';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Col, Empty, Row, Skeleton, Space, Statistic } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import {
  Bar,
  BarChart,
  CartesianGrid,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { post } from '../../lib/http.ts';

interface Stats {
  today: { orders: number; paid: string };
  month: { orders: number; paid: string };
  series: { day: string; orders: number; paid: string }[];
  statuses: Record<string, number>;
  waitingReview: number;
  unpaid: number;
  openWorkOrders: number;
  unpaidBills: number;
  balance: { balance: string; available: string } | null;
}

const BRAND = '#FF6D1F';

/** `/dashboard`: today's and this month's truck orders and money, the last 30 days, every status. */
function Dashboard({ compact = false }: { compact?: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const stats = useQuery({
    queryKey: ['truck-stats'],
    queryFn: () => post<Stats>('/admin/order/stats'),
    refetchInterval: 60_000,
  });
  if (!stats.data)
    return <Card>{stats.isError ? <Empty /> : <Skeleton active paragraph={{ rows: 8 }} />}</Card>;
  const s = stats.data;
  const series = s.series.map((d) => ({ ...d, day: d.day.slice(5), paid: Number(d.paid) }));
  const statusData = ORDER_STATUSES.map((status) => ({
    status: t(`orderStatus.${status}`),
    n: s.statuses[status] ?? 0,
  })).filter((d) => d.n > 0);
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
            <Statistic title={t('dashboard.todayPaid')} prefix="$" value={s.today.paid} />
          </Card>
        </Col>
        <Col xs={12} md={6}>
          <Card>
            <Statistic title={t('dashboard.monthOrders')} value={s.month.orders} />
          </Card>
        </Col>
        <Col xs={12} md={6}>
          <Card>
            <Statistic title={t('dashboard.monthPaid')} prefix="$" value={s.month.paid} />
          </Card>
        </Col>
        <Col xs={12} md={6}>
          <Card hoverable onClick={() => navigate('/orderList')}>
            <Statistic
              title={t('dashboard.waitingReview')}
              value={s.waitingReview}
              valueStyle={{ color: s.waitingReview ? BRAND : undefined }}
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
              valueStyle={{ color: s.unpaidBills ? BRAND : undefined }}
            />
          </Card>
        </Col>
        {s.balance ? (
          <>
            <Col xs={12} md={6}>
              <Card>
                <Statistic title={t('order.balance')} prefix="$" value={s.balance.balance} />
              </Card>
            </Col>
            <Col xs={12} md={6}>
              <Card>
                <Statistic
                  title={t('order.available')}
                  prefix="$"
                  value={s.balance.available}
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
            <ResponsiveContainer width="100%" height={280}>
              <LineChart data={series} margin={{ left: 8, right: 16, top: 8 }}>
                <CartesianGrid strokeDasharray="3 3" />
                <XAxis dataKey="day" fontSize={12} />
                <YAxis yAxisId="orders" allowDecimals={false} fontSize={12} />
                <YAxis yAxisId="paid" orientation="right" fontSize={12} />
                <Tooltip />
                <Line
                  yAxisId="orders"
                  type="monotone"
                  dataKey="orders"
                  name={t('dashboard.orders')}
                  stroke={BRAND}
                  dot={false}
                  isAnimationActive={false}
                />
                <Line
                  yAxisId="paid"
                  type="monotone"
                  dataKey="paid"
                  name={t('dashboard.paid')}
                  stroke="#1677ff"
                  dot={false}
                  isAnimationActive={false}
                />
              </LineChart>
            </ResponsiveContainer>
          </Card>
        </Col>
        <Col xs={24} xl={10}>
          <Card title={t('dashboard.byStatus')}>
            {statusData.length === 0 ? (
              <Empty description={t('common.empty')} />
            ) : (
              <ResponsiveContainer width="100%" height={280}>
                <BarChart data={statusData} layout="vertical" margin={{ left: 24, right: 16 }}>
                  <CartesianGrid strokeDasharray="3 3" />
                  <XAxis type="number" allowDecimals={false} fontSize={12} />
                  <YAxis type="category" dataKey="status" width={110} fontSize={12} />
                  <Tooltip />
                  <Bar dataKey="n" name={t('dashboard.orders')} fill={BRAND} isAnimationActive={false} />
                </BarChart>
              </ResponsiveContainer>
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
