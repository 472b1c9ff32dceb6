import { batchRowsView, okResponse, xlsxResponse } from '@freight/contracts/responses';
import { queryId } from '@freight/contracts/validation';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { formId, readUploadedForm } from '../../lib/multipart.ts';
import { sendFile } from '../../lib/xlsx.ts';
import { currentUser } from '../../plugins/context.ts';
import { bookExpressBatch, expressBatchTemplateFor } from './batch.ts';

/** The top bar's express batch order works from any page that books express waybills. */
const BATCH_PAGES = ['/onlineQuotation', '/queryQuotation', '/expressOrderList'];
const MAX_BATCH_BYTES = 10 * 1024 * 1024;

const batchQuery = z.object({ organisationId: queryId().optional() });

const routes: FastifyPluginAsyncZod = async (app) => {
  const db = app.db;

  /** The template: headers in the caller's language, the channels the caller may book in a dropdown. */
  app.get(
    '/express/order/batchTemplate',
    {
      config: { permission: BATCH_PAGES, raw: true },
      schema: { tags: ['express'], response: { 200: xlsxResponse } },
    },
    async (request, reply) => {
      const name = request.language === 'zh-CN' ? '快递批量下单模板.xlsx' : 'express-batch-template.xlsx';
      return sendFile(reply, name, await expressBatchTemplateFor(db, currentUser(request), request.language));
    },
  );

  /**
   * Multipart `file`, `address_id` (required: every parcel ships from it) and, for staff and parents,
   * `organisationId`. Checks the file, and with `commit` books every row in one transaction.
   */
  async function handleBatch(request: import('fastify').FastifyRequest, commit: boolean) {
    const { bytes, fields } = await readUploadedForm(request, MAX_BATCH_BYTES);
    // Already read by the route's schema; a form field may name the organisation instead, as digits.
    const query = request.query as z.infer<typeof batchQuery>;
    const outcome = await bookExpressBatch(db, {
      caller: currentUser(request),
      language: request.language,
      organisationId: query.organisationId ?? formId(fields, 'organisationId'),
      addressId: formId(fields, 'address_id', 'addressId'),
      bytes,
      commit,
    });
    if (outcome.waybills) request.auditTarget = `expressWaybills:${outcome.waybills.length}`;
    return outcome;
  }

  /** `order/importDataCheck`: each row's answer (SPEC section 7); nothing is booked. */
  app.post(
    '/express/order/importDataCheck',
    {
      config: { permission: BATCH_PAGES },
      schema: { tags: ['express'], querystring: batchQuery, response: { 200: okResponse(batchRowsView) } },
    },
    async (request, reply) => {
      const result = await handleBatch(request, false);
      reply.messageKey = result.failed > 0 ? 'batch.rowsFailed' : 'batch.checked';
      reply.messageParams = { count: result.failed > 0 ? result.failed : result.ok };
      return result.rows;
    },
  );

  /** `order/batchOrdering`: every row as an unpaid waybill, or, if any row is wrong, none. */
  app.post(
    '/express/order/batchOrdering',
    {
      config: { permission: BATCH_PAGES, audit: 'express.waybill.batch' },
      schema: { tags: ['express'], querystring: batchQuery, response: { 200: okResponse(batchRowsView) } },
    },
    async (request, reply) => {
      const result = await handleBatch(request, true);
      reply.messageKey = 'expressBatch.imported';
      reply.messageParams = { count: result.ok };
      return result.rows;
    },
  );
};

export default routes;
