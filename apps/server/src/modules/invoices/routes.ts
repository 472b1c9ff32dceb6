import { exportResponse } from '@freight/contracts/downloads';
import {
  invoiceIssueBody,
  invoiceListQuery,
  invoiceListView,
  invoiceRefuseBody,
  invoiceRequestBody,
  invoiceView,
} from '@freight/contracts/invoices';
import { okResponse } from '@freight/contracts/responses';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { conflict, forbidden } from '../../lib/errors.ts';
import { currentUser, type RequestUser } from '../../plugins/context.ts';
import { organisationScope } from '../customers/service.ts';
import { answerExport } from '../downloads/runner.ts';
import { invoiceExport } from './export.ts';
import { decideInvoice, type InvoiceRow, listInvoices, presentInvoices, requestInvoice } from './service.ts';

/** Invoices (SPEC section 1 menu): a customer requests one for a period, staff issue or refuse it. */
const routes: FastifyPluginAsyncZod = async (app) => {
  const db = app.db;
  const page = { permission: '/invoices' } as const;

  /** Invoices as the caller sees them; one row, as the API shows it. */
  const presentOne = async (user: RequestUser, row: InvoiceRow) =>
    (await presentInvoices(db, user, [row]))[0] as Awaited<ReturnType<typeof presentInvoices>>[number];

  app.post(
    '/admin/invoice/list',
    {
      config: page,
      schema: { tags: ['invoices'], body: invoiceListQuery, response: { 200: okResponse(invoiceListView) } },
    },
    async (request) => {
      const me = currentUser(request);
      const { page: p, limit, ...filter } = request.body;
      const result = await listInvoices(db, await organisationScope(db, me), filter, { page: p, limit });
      return { list: await presentInvoices(db, me, result.list), total: result.total, page: p, limit };
    },
  );

  app.post(
    '/admin/invoice/export',
    {
      config: { ...page, raw: true },
      schema: { tags: ['invoices'], body: invoiceListQuery, response: { 200: exportResponse } },
    },
    (request, reply) => answerExport(app, request, reply, invoiceExport, request.body),
  );

  app.post(
    '/admin/invoice/request',
    {
      config: { ...page, audit: 'invoice.request' },
      schema: { tags: ['invoices'], body: invoiceRequestBody, response: { 200: okResponse(invoiceView) } },
    },
    async (request, reply) => {
      const me = currentUser(request);
      // Staff have no organisation, hence no payments to invoice.
      if (!me.organisationId) throw conflict('invoices.staffCannotRequest');
      const row = await requestInvoice(db, {
        ...request.body,
        tenantId: me.tenantId,
        organisationId: me.organisationId,
        userId: me.id,
      });
      request.auditTarget = `invoice:${row.id}`;
      reply.messageKey = 'invoices.requested';
      return presentOne(me, row);
    },
  );

  async function decide(
    request: { user: RequestUser | null; auditTarget?: string },
    decision: {
      id: number;
      action: 'issue' | 'refuse';
      invoiceNumber?: string;
      fileUrl?: string | null;
      reason?: string;
    },
  ) {
    const me = currentUser(request);
    if (me.identity !== 'employee') throw forbidden();
    request.auditTarget = `invoice:${decision.id}`;
    const row = await decideInvoice(db, {
      ...decision,
      tenantId: me.tenantId,
      scope: await organisationScope(db, me),
      staffId: me.id,
    });
    return presentOne(me, row);
  }

  app.post(
    '/admin/invoice/issue',
    {
      config: { ...page, audit: 'invoice.issue' },
      schema: { tags: ['invoices'], body: invoiceIssueBody, response: { 200: okResponse(invoiceView) } },
    },
    async (request) => decide(request, { ...request.body, action: 'issue' }),
  );

  app.post(
    '/admin/invoice/refuse',
    {
      config: { ...page, audit: 'invoice.refuse' },
      schema: { tags: ['invoices'], body: invoiceRefuseBody, response: { 200: okResponse(invoiceView) } },
    },
    async (request) =>
      decide(request, { id: request.body.id, reason: request.body.reason, action: 'refuse' }),
  );
};

export default routes;
