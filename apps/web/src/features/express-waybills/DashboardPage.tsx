import { WAYBILL_STATUSES } from '@freight/contracts/express-waybills';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Col, Empty, Row, Skeleton, Space, Statistic, Tag, Tooltip, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { type ChartOption, EChart } from '../../components/EChart.tsx';
import { flattenPages, useSession } from '../../context/session.tsx';
import { money } from '../../lib/money.ts';
import { waybillApi, waybillStatusListPath } from './api.ts';

/** Shortcuts of the overview page, each shown only to a user who has its page. */
const SHORTCUTS = [
  ['/onlineQuotation', 'expressDashboard.quote'],
  ['/queryQuotation', 'expressDashboard.quotes'],
  ['/expressOrderList', 'expressDashboard.orders'],
  ['/waybillTracking', 'expressDashboard.tracking'],
  ['/expressrecharge', 'expressDashboard.recharge'],
] as const;

/**
 * `/expressDashboard`: the express line in the user's scope (staff: the tenant; a branch or agent: its
 * organisations; a customer: itself): waybills and revenue today, this month and over 30 days, every
 * status, exceptions, unpaid waybills and recharges to review. Each count opens its list.
 */
function Dashboard({ compact = false }: { compact?: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { token } = theme.useToken();
  const { menus } = useSession();
  const pages = new Set(flattenPages(menus).map((p) => p.node.paths));
  const stats = useQuery({ queryKey: ['express-stats'], queryFn: waybillApi.stats, refetchInterval: 60_000 });
  if (!stats.data)
    return (
      <Card>
        {stats.isError ? (
          <Alert
            type="error"
            showIcon
            title={t('expressDashboard.failed')}
            action={
              <Button size="small" onClick={() => void stats.refetch()}>
                {t('expressDashboard.retry')}
              </Button>
            }
            data-testid="express-dashboard-failed"
          />
        ) : (
          <Skeleton active paragraph={{ rows: 8 }} />
        )}
      </Card>
    );
  const s = stats.data;
  const canList = pages.has('/expressOrderList');
  const openStatus = (status: (typeof WAYBILL_STATUSES)[number]) =>
    canList ? () => navigate(waybillStatusListPath(status)) : undefined;
  const statusData = WAYBILL_STATUSES.map((status) => ({
    status,
    label: t(`waybillStatus.${status}`),
    n: s.statuses[status] ?? 0,
  })).filter((d) => d.n > 0);

  const daily: ChartOption = {
    grid: { left: 8, right: 8, top: 40, bottom: 8, containLabel: true },
    legend: { top: 0 },
    tooltip: { trigger: 'axis' },
    xAxis: { type: 'category', data: s.series.map((d) => d.day.slice(5)) },
    yAxis: [
      { type: 'value', minInterval: 1 },
      { type: 'value', splitLine: { show: false } },
    ],
    series: [
      {
        type: 'bar',
        name: t('expressDashboard.waybills'),
        yAxisIndex: 0,
        barMaxWidth: 14,
        data: s.series.map((d) => d.waybills),
      },
      {
        type: 'line',
        name: t('expressDashboard.revenue'),
        yAxisIndex: 1,
        smooth: true,
        smoothMonotone: 'x',
        showSymbol: false,
        // Money arrives as decimal strings; the chart only places them on its axis.
        data: s.series.map((d) => d.revenue),
      },
    ],
  };
  const byStatus: ChartOption = {
    grid: { left: 8, right: 32, top: 8, bottom: 8, containLabel: true },
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
    xAxis: { type: 'value', minInterval: 1 },
    // Top to bottom in the order of the status machine.
    yAxis: { type: 'category', inverse: true, data: statusData.map((d) => d.label) },
    series: [
      {
        type: 'bar',
        name: t('expressDashboard.waybills'),
        barMaxWidth: 18,
        label: { show: true, position: 'right', color: token.colorTextSecondary },
        data: statusData.map((d) => d.n),
      },
    ],
  };
  const figure = (
    key: string,
    title: string,
    value: number | string,
    options: {
      prefix?: string;
      onClick?: () => void;
      highlight?: boolean;
      testId?: string;
      extra?: string;
    } = {},
  ) => (
    <Col xs={12} md={6} key={key}>
      <Card hoverable={Boolean(options.onClick)} onClick={options.onClick}>
        <Statistic
          title={title}
          prefix={options.prefix}
          value={value}
          valueStyle={{ color: options.highlight ? token.colorPrimary : undefined }}
          data-testid={options.testId}
        />
        {options.extra ? <div style={{ color: token.colorTextSecondary }}>{options.extra}</div> : null}
      </Card>
    </Col>
  );
  const revenueTitle = (label: string) => (
    <Tooltip title={t('expressDashboard.revenueTip')}>
      <span>{label}</span>
    </Tooltip>
  );

  return (
    <Space orientation="vertical" style={{ width: '100%' }} size={16} data-testid="express-dashboard">
      <Row gutter={[16, 16]}>
        {figure('todayWaybills', t('expressDashboard.todayWaybills'), s.today.waybills, {
          testId: 'stat-today-waybills',
        })}
        <Col xs={12} md={6}>
          <Card>
            <Statistic
              title={revenueTitle(t('expressDashboard.todayRevenue'))}
              prefix="$"
              value={money(s.today.revenue)}
              data-testid="stat-today-revenue"
            />
          </Card>
        </Col>
        {figure('monthWaybills', t('expressDashboard.monthWaybills'), s.month.waybills)}
        <Col xs={12} md={6}>
          <Card>
            <Statistic
              title={revenueTitle(t('expressDashboard.monthRevenue'))}
              prefix="$"
              value={money(s.month.revenue)}
            />
          </Card>
        </Col>
        {figure('exceptions', t('expressDashboard.exceptions'), s.exceptions, {
          onClick: openStatus('exception'),
          highlight: s.exceptions > 0,
          testId: 'stat-exceptions',
        })}
        {figure('unpaid', t('expressDashboard.unpaid'), s.unpaid, {
          onClick: openStatus('unpaid'),
          extra: t('expressDashboard.unpaidAmount', { amount: money(s.unpaidAmount, '$') }),
          testId: 'stat-unpaid',
        })}
        {s.waitingRecharges !== null
          ? figure('waitingRecharges', t('expressDashboard.waitingRecharges'), s.waitingRecharges, {
              onClick: pages.has('/deliveryRechargeReview')
                ? () => navigate('/deliveryRechargeReview')
                : undefined,
              highlight: s.waitingRecharges > 0,
              testId: 'stat-waiting-recharges',
            })
          : null}
        {s.balance ? (
          <>
            {figure('balance', t('expressDashboard.balance'), money(s.balance.balance), { prefix: '$' })}
            {figure('available', t('expressDashboard.available'), money(s.balance.available), {
              prefix: '$',
              testId: 'stat-express-available',
            })}
          </>
        ) : null}
      </Row>
      {compact ? (
        <Card title={t('expressDashboard.quick')}>
          <Space wrap>
            {SHORTCUTS.filter(([path]) => pages.has(path)).map(([path, label], i) => (
              <Button key={path} type={i === 0 ? 'primary' : 'default'} onClick={() => navigate(path)}>
                {t(label)}
              </Button>
            ))}
          </Space>
        </Card>
      ) : null}
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={14}>
          <Card title={t('expressDashboard.last30')}>
            <EChart option={daily} height={280} testId="chart-express-last30" />
          </Card>
        </Col>
        <Col xs={24} xl={10}>
          <Card
            title={t('expressDashboard.byStatus')}
            extra={
              statusData.length > 0 && canList ? (
                <span style={{ color: token.colorTextSecondary }}>{t('expressDashboard.byStatusTip')}</span>
              ) : null
            }
          >
            {statusData.length === 0 ? (
              <Empty description={t('expressDashboard.noWaybills')} />
            ) : (
              <>
                <EChart option={byStatus} height={240} testId="chart-express-by-status" />
                <Space wrap size={[4, 8]} data-testid="express-status-links">
                  {statusData.map((d) => (
                    <Tag
                      key={d.status}
                      color={
                        d.status === 'exception' ? 'error' : d.status === 'unpaid' ? 'warning' : undefined
                      }
                      style={{ cursor: canList ? 'pointer' : undefined }}
                      onClick={openStatus(d.status)}
                    >
                      {d.label} {d.n}
                    </Tag>
                  ))}
                </Space>
              </>
            )}
          </Card>
        </Col>
      </Row>
    </Space>
  );
}

export const ExpressDashboard = () => <Dashboard />;
/** `/expressHome`: the same figures with shortcuts to the daily work. */
export const ExpressHome = () => <Dashboard compact />;
