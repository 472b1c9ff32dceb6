import { exportResponse } from '@freight/contracts/downloads';
import { reportQuery, reportView } from '@freight/contracts/reports';
import { okResponse } from '@freight/contracts/responses';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentUser } from '../../plugins/context.ts';
import { answerExport } from '../downloads/runner.ts';
import { REPORT_PAGES, reportExport } from './export.ts';
import { reportFor } from './service.ts';

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

  /**
   * The table of the same report as a workbook, with its totals row: what the page shows. Read from
   * the replica like the page (the export runner reads every export there).
   */
  app.post(
    '/admin/reports/export',
    {
      config: { permission: REPORT_PAGES, raw: true },
      schema: { tags: ['reports'], body: reportQuery, response: { 200: exportResponse } },
    },
    (request, reply) => answerExport(app, request, reply, reportExport, request.body),
  );
};

export default routes;
