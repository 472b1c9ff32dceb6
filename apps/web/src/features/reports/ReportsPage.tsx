import type { BusinessLine } from '@freight/contracts/accounts';
import { parseMoney } from '@freight/contracts/money';
import type { ReportDimension, ReportPeriod } from '@freight/contracts/reports';
import { useQuery } from '@tanstack/react-query';
import {
  Button,
  Card,
  Col,
  DatePicker,
  Empty,
  Form,
  Row,
  Select,
  Space,
  Statistic,
  Table,
  Typography,
} from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type ChartOption, EChart } from '../../components/EChart.tsx';
import { useLocalPager } from '../../components/list.tsx';
import { money } from '../../lib/money.ts';
import { REPORT_SUMMARY_URL, type ReportFilters, type ReportRow, reportApi } from './api.ts';

interface FormValues {
  period: [Dayjs, Dayjs];
  line?: BusinessLine;
  bucket: ReportPeriod;
  dimension: ReportDimension;
}

const DAY = 'YYYY-MM-DD';

/** The last 30 days, today included: what an operator opens the page to see. */
const initialFilters = (): ReportFilters => ({
  from: dayjs().subtract(29, 'day').format(DAY),
  to: dayjs().format(DAY),
  period: 'day',
  dimension: 'customer',
});

/** The first day of each bucket from `from` to `to`, as the server buckets them (ISO weeks from Monday). */
function bucketsOf(filters: ReportFilters): string[] {
  const start = dayjs(filters.from);
  const first =
    filters.period === 'month'
      ? start.startOf('month')
      : filters.period === 'week'
        ? start.subtract((start.day() + 6) % 7, 'day')
        : start;
  const end = dayjs(filters.to);
  const days: string[] = [];
  for (let d = first; !d.isAfter(end, 'day'); d = d.add(1, filters.period)) days.push(d.format(DAY));
  return days;
}

/** Margin over revenue, one decimal, from the exact cents. */
function marginRate(revenue: string, margin: string): string {
  const r = parseMoney(revenue) ?? 0n;
  if (r === 0n) return '-';
  const tenths = ((parseMoney(margin) ?? 0n) * 1000n) / r;
  const sign = tenths < 0n ? '-' : '';
  const abs = tenths < 0n ? -tenths : tenths;
  return `${sign}${abs / 10n}.${abs % 10n}%`;
}

/**
 * Data reports (`/financialStatements`): revenue, cost and margin over time and by organisation
 * level, product or customer, for one line or both, in the caller's scope. The server decides whose
 * cost shows (the operator's for staff, a branch's or agent's own buying price for them).
 */
export default function ReportsPage() {
  const { t } = useTranslation();
  const pager = useLocalPager();
  const [form] = Form.useForm<FormValues>();
  const [filters, setFilters] = useState<ReportFilters>(initialFilters);
  const [exporting, setExporting] = useState(false);
  const report = useQuery({
    queryKey: [REPORT_SUMMARY_URL, filters],
    queryFn: () => reportApi.summary(filters),
  });
  const data = report.data;
  const costLabel = data
    ? t(`reports.cost${data.costBasis[0]?.toUpperCase()}${data.costBasis.slice(1)}`)
    : t('reports.cost');

  const chart = useMemo<ChartOption>(() => {
    // Every bucket of the range, the quiet ones at zero, so the axis is the range asked for.
    const byPeriod = new Map((data?.series ?? []).map((s) => [s.period, s]));
    const series = bucketsOf(filters).map(
      (period) =>
        byPeriod.get(period) ?? { period, orders: 0, revenue: '0.00', cost: '0.00', margin: '0.00' },
    );
    // Only for drawing: the figures themselves stay exact decimal strings.
    const amount = (v: string) => Number(v);
    return {
      tooltip: { trigger: 'axis' },
      legend: { data: [t('reports.revenue'), t('reports.cost'), t('reports.margin')], top: 0 },
      grid: { left: 64, right: 24, top: 40, bottom: 32 },
      xAxis: { type: 'category', data: series.map((s) => s.period) },
      yAxis: { type: 'value' },
      series: [
        {
          name: t('reports.revenue'),
          type: 'bar',
          barMaxWidth: 28,
          data: series.map((s) => amount(s.revenue)),
        },
        { name: t('reports.cost'), type: 'bar', barMaxWidth: 28, data: series.map((s) => amount(s.cost)) },
        { name: t('reports.margin'), type: 'line', smooth: true, data: series.map((s) => amount(s.margin)) },
      ],
    };
  }, [data, filters, t]);

  const nameOf = (row: ReportRow) => {
    if (row.id !== null) return row.name;
    const none = {
      branch: 'reports.noneBranch',
      agent: 'reports.noneAgent',
      product: 'reports.noneProduct',
    } as const;
    return filters.dimension === 'customer' ? '-' : t(none[filters.dimension]);
  };
  const dimensionLabel = t(
    `reports.dimension${filters.dimension[0]?.toUpperCase()}${filters.dimension.slice(1)}`,
  );
  const empty = !report.isLoading && (data?.rows.length ?? 0) === 0;

  return (
    <div className="page-card" data-testid="reports-page">
      <Form<FormValues>
        form={form}
        layout="inline"
        initialValues={{
          period: [dayjs(filters.from), dayjs(filters.to)],
          bucket: filters.period,
          dimension: filters.dimension,
        }}
        onFinish={(v) =>
          setFilters({
            from: v.period[0].format(DAY),
            to: v.period[1].format(DAY),
            line: v.line,
            period: v.bucket,
            dimension: v.dimension,
          })
        }
        style={{ rowGap: 12, marginBottom: 16 }}
      >
        <Form.Item name="period" label={t('reports.range')} rules={[{ required: true }]}>
          <DatePicker.RangePicker allowClear={false} data-testid="reports-range" />
        </Form.Item>
        <Form.Item name="line" label={t('reports.line')}>
          <Select
            allowClear
            placeholder={t('reports.lineAll')}
            style={{ width: 120 }}
            options={[
              { value: 'truck', label: t('reports.lineTruck') },
              { value: 'express', label: t('reports.lineExpress') },
            ]}
            data-testid="reports-line"
          />
        </Form.Item>
        <Form.Item name="bucket" label={t('reports.period')}>
          <Select
            style={{ width: 110 }}
            options={(['day', 'week', 'month'] as const).map((p) => ({
              value: p,
              label: t(`reports.period${p[0]?.toUpperCase()}${p.slice(1)}`),
            }))}
            data-testid="reports-bucket"
          />
        </Form.Item>
        <Form.Item name="dimension" label={t('reports.dimension')}>
          <Select
            style={{ width: 160 }}
            options={(['branch', 'agent', 'customer', 'product'] as const).map((d) => ({
              value: d,
              label: t(`reports.dimension${d[0]?.toUpperCase()}${d.slice(1)}`),
            }))}
            data-testid="reports-dimension"
          />
        </Form.Item>
        <Form.Item>
          <Space>
            <Button type="primary" htmlType="submit" data-testid="reports-search">
              {t('common.search')}
            </Button>
            <Button
              loading={exporting}
              disabled={empty}
              onClick={() => {
                setExporting(true);
                void reportApi.export(filters).finally(() => setExporting(false));
              }}
              data-testid="reports-export"
            >
              {t('common.export')}
            </Button>
          </Space>
        </Form.Item>
      </Form>

      <Row gutter={[16, 16]} style={{ marginBottom: 16 }}>
        {(
          [
            ['orders', t('reports.orders'), data ? String(data.totals.orders) : '-'],
            ['revenue', t('reports.revenue'), money(data?.totals.revenue)],
            ['cost', costLabel, money(data?.totals.cost)],
            ['margin', t('reports.margin'), money(data?.totals.margin)],
            [
              'rate',
              t('reports.marginRate'),
              data ? marginRate(data.totals.revenue, data.totals.margin) : '-',
            ],
          ] as const
        ).map(([key, title, value]) => (
          <Col xs={12} md={8} lg={4} key={key} style={{ flex: 1 }}>
            <Card size="small" loading={report.isLoading}>
              <Statistic title={title} value={value} data-testid={`reports-total-${key}`} />
            </Card>
          </Col>
        ))}
      </Row>

      <Card
        size="small"
        title={t('reports.chartTitle')}
        style={{ marginBottom: 16 }}
        loading={report.isLoading}
      >
        {empty ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('reports.empty')} />
        ) : (
          <EChart option={chart} height={300} testId="reports-chart" />
        )}
      </Card>

      <Table<ReportRow>
        title={() => <Typography.Text strong>{t('reports.tableTitle')}</Typography.Text>}
        rowKey={(r) => `${r.line ?? ''}:${r.id ?? 'none'}`}
        loading={report.isLoading}
        dataSource={data?.rows ?? []}
        // The report's table sits under its chart, so it keeps the page's height (no list height).
        pagination={{ ...pager, className: undefined }}
        size="middle"
        scroll={{ x: 'max-content' }}
        data-testid="reports-table"
        locale={{
          emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('reports.empty')} />,
        }}
        columns={[
          { title: dimensionLabel, key: 'name', render: (_: unknown, r) => nameOf(r) },
          ...(filters.dimension === 'product'
            ? [
                {
                  title: t('reports.line'),
                  key: 'line',
                  render: (_: unknown, r: ReportRow) =>
                    r.line ? t(r.line === 'truck' ? 'reports.lineTruck' : 'reports.lineExpress') : '',
                },
              ]
            : []),
          { title: t('reports.orders'), dataIndex: 'orders', align: 'right' },
          {
            title: t('reports.revenue'),
            dataIndex: 'revenue',
            align: 'right',
            render: (v: string) => money(v),
          },
          { title: costLabel, dataIndex: 'cost', align: 'right', render: (v: string) => money(v) },
          {
            title: t('reports.margin'),
            dataIndex: 'margin',
            align: 'right',
            render: (v: string) => money(v),
          },
          {
            title: t('reports.marginRate'),
            key: 'rate',
            align: 'right',
            render: (_: unknown, r) => marginRate(r.revenue, r.margin),
          },
        ]}
        summary={() =>
          data && data.rows.length > 0 ? (
            <Table.Summary.Row data-testid="reports-totals">
              <Table.Summary.Cell index={0}>
                <Typography.Text strong>{t('reports.total')}</Typography.Text>
              </Table.Summary.Cell>
              {filters.dimension === 'product' ? <Table.Summary.Cell index={1} /> : null}
              {(['orders', 'revenue', 'cost', 'margin'] as const).map((k, i) => (
                <Table.Summary.Cell index={i + 2} key={k} align="right">
                  <Typography.Text strong data-testid={`reports-totals-${k}`}>
                    {k === 'orders' ? data.totals.orders : money(data.totals[k])}
                  </Typography.Text>
                </Table.Summary.Cell>
              ))}
              <Table.Summary.Cell index={6} align="right">
                <Typography.Text strong>
                  {marginRate(data.totals.revenue, data.totals.margin)}
                </Typography.Text>
              </Table.Summary.Cell>
            </Table.Summary.Row>
          ) : null
        }
      />
      <Typography.Paragraph type="secondary" style={{ marginTop: 8 }}>
        {t('reports.note')}
      </Typography.Paragraph>
    </div>
  );
}
