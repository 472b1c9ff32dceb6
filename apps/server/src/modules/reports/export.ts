import { translate } from '@freight/contracts/messages';
import { reportQuery } from '@freight/contracts/reports';
import { defineExport, type ExportColumn } from '../downloads/runner.ts';
import { buildReport, type ReportRow } from './service.ts';

/** The data reports page (SPEC section 2, `/financialStatements`): granted with the page itself. */
export const REPORT_PAGES = ['/financialStatements'];

/**
 * `/admin/reports/export`: the report's table as the page shows it, with its totals row. Its rows are
 * groups (organisations or products in scope), not records: the grouped report is read once and
 * written a slice at a time, so a report of more groups than an answer at once still queues.
 */
export const reportExport = defineExport({
  name: 'reports',
  fileName: { 'zh-CN': '数据报表.xlsx', 'en-US': 'report.xlsx' },
  attachmentName: (q) => `report-${q.dimension}-${q.from}-${q.to}.xlsx`,
  params: reportQuery,
  permission: REPORT_PAGES,
  async source(db, user, query, language) {
    const t = (key: string) => translate(language, key as never);
    const report = await buildReport(db, user, query, language);
    const total: ReportRow = { id: null, name: t('report.column.total'), line: null, ...report.totals };
    const rows = [...report.rows, total];
    const nameOf = (r: ReportRow) =>
      r === total || r.id !== null ? r.name : t(`report.none.${query.dimension}`);
    const columns: ExportColumn<ReportRow>[] = [
      { header: t(`report.dimension.${query.dimension}`), value: nameOf, width: 32 },
      ...(query.dimension === 'product'
        ? [
            {
              header: t('report.column.line'),
              value: (r: ReportRow) => (r.line ? t(`report.line.${r.line}`) : ''),
            },
          ]
        : []),
      { header: t('report.column.orders'), value: (r) => r.orders, width: 12 },
      { header: t('report.column.revenue'), type: 'money', value: (r) => r.revenue, width: 16 },
      { header: t('report.column.cost'), type: 'money', value: (r) => r.cost, width: 16 },
      { header: t('report.column.margin'), type: 'money', value: (r) => r.revenue - r.cost, width: 16 },
    ];
    return {
      columns: columns as ExportColumn<unknown>[],
      count: async (cap: number) => Math.min(rows.length, cap + 1),
      async *pages(size: number) {
        for (let at = 0; at < rows.length; at += size) yield rows.slice(at, at + size);
      },
    };
  },
});
