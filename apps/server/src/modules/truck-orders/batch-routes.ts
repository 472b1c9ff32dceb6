import { batchRowsView, okResponse, xlsxResponse } from '@freight/contracts/responses';
import { queryId } from '@freight/contracts/validation';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { formId, readUploadedForm } from '../../lib/multipart.ts';
import { sendFile } from '../../lib/xlsx.ts';
import { currentUser } from '../../plugins/context.ts';
import { batchTemplateFor, bookBatch } from './batch.ts';

/** The top bar's truck batch order works from any page that books truck orders. */
const BATCH_PAGES = ['/mail', '/orderList', '/quoteList'];
const MAX_BATCH_BYTES = 20 * 1024 * 1024;

const batchQuery = z.object({ organisationId: queryId().optional() });

const routes: FastifyPluginAsyncZod = async (app) => {
  const db = app.db;

  /** The template: headers in the caller's language, dropdowns, the products the caller may book. */
  app.get(
    '/admin/order/batchTemplate',
    {
      config: { permission: BATCH_PAGES, raw: true },
      schema: { tags: ['orders'], response: { 200: xlsxResponse } },
    },
    async (request, reply) => {
      const name = request.language === 'zh-CN' ? '卡车批量下单模板.xlsx' : 'truck-batch-template.xlsx';
      return sendFile(reply, name, await batchTemplateFor(db, currentUser(request), request.language));
    },
  );

  /**
   * Checks a batch file, and with `commit` books every row as an unpaid order in one transaction. The
   * answer maps each row number to `success` or its message (SPEC section 7); any bad row books none.
   */
  async function handleBatch(request: import('fastify').FastifyRequest, commit: boolean) {
    const me = currentUser(request);
    const { bytes, fields } = await readUploadedForm(request, MAX_BATCH_BYTES);
    // Already read by the route's schema; a form field may name the organisation instead, as digits.
    const query = request.query as z.infer<typeof batchQuery>;
    const outcome = await bookBatch(db, {
      caller: me,
      language: request.language,
      organisationId: query.organisationId ?? formId(fields, 'organisationId'),
      pickupAddressId: formId(fields, 'address_id', 'addressId') ?? 0,
      bytes,
      commit,
    });
    if (outcome.orders) request.auditTarget = `orders:${outcome.orders.length}`;
    return outcome;
  }

  app.post(
    '/admin/order/importDataCheck',
    {
      config: { permission: BATCH_PAGES },
      schema: { tags: ['orders'], querystring: batchQuery, response: { 200: okResponse(batchRowsView) } },
    },
    async (request, reply) => {
      const result = await handleBatch(request, false);
      reply.messageKey = result.failed > 0 ? 'batch.rowsFailed' : 'batch.checked';
      reply.messageParams = { count: result.failed > 0 ? result.failed : result.ok };
      return result.rows;
    },
  );

  app.post(
    '/admin/order/batchOrdering',
    {
      config: { permission: BATCH_PAGES, audit: 'order.batch' },
      schema: { tags: ['orders'], querystring: batchQuery, response: { 200: okResponse(batchRowsView) } },
    },
    async (request, reply) => {
      const result = await handleBatch(request, true);
      reply.messageKey = 'batch.imported';
      reply.messageParams = { count: result.ok };
      return result.rows;
    },
  );
};

export default routes;
