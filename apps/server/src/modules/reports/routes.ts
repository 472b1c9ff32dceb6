import { translate } from '@freight/contracts/messages';
import { formatMoney } from '@freight/contracts/money';
import { reportQuery, reportView } from '@freight/contracts/reports';
import { okResponse, xlsxResponse } from '@freight/contracts/responses';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sendXlsx } from '../../lib/xlsx.ts';
import { currentUser } from '../../plugins/context.ts';
import { buildReport, type ReportRow, reportFor } from './service.ts';

/** The data reports page (SPEC section 2, `/financialStatements`): granted with the page itself. */
const REPORT_PAGES = ['/financialStatements'];

const routes: FastifyPluginAsyncZod = async (app) => {
  /** The chart's buckets, the table's rows and the totals, in the caller's scope. */
  app.post(
    '/admin/reports/summary',
    {
      config: { permission: REPORT_PAGES },
      schema: { tags: ['reports'], body: reportQuery, response: { 200: okResponse(reportView) } },
    },
    async (request) => {
      // A report: read from the replica when one is configured.
      return reportFor(app.database.reader, currentUser(request), request.body, request.language);
    },
  );

  /** The table of the same report as a workbook, with its totals row: what the page shows. */
  app.post(
    '/admin/reports/export',
    {
      config: { permission: REPORT_PAGES, raw: true },
      schema: { tags: ['reports'], body: reportQuery, response: { 200: xlsxResponse } },
    },
    async (request, reply) => {
      const query = request.body;
      const t = (key: string) => translate(request.language, key as never);
      const report = await buildReport(app.database.reader, currentUser(request), query, request.language);
      const total: ReportRow = { id: null, name: t('report.column.total'), line: null, ...report.totals };
      const nameOf = (r: ReportRow) =>
        r === total || r.id !== null ? r.name : t(`report.none.${query.dimension}`);
      // Amounts are numbers of the currency (two places), so the sheet can sum them.
      const amount = (cents: bigint) => Number(formatMoney(cents));
      return sendXlsx(
        reply,
        `report-${query.dimension}-${query.from}-${query.to}.xlsx`,
        [
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
          { header: t('report.column.revenue'), value: (r) => amount(r.revenue), width: 16 },
          { header: t('report.column.cost'), value: (r) => amount(r.cost), width: 16 },
          { header: t('report.column.margin'), value: (r) => amount(r.revenue - r.cost), width: 16 },
        ],
        [...report.rows, total],
      );
    },
  );
};

export default routes;
