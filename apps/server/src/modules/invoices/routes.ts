import {
  type InvoiceListQuery,
  invoiceIssueBody,
  invoiceListQuery,
  invoiceListView,
  invoiceMachine,
  invoiceRefuseBody,
  invoiceRequestBody,
  invoiceView,
} from '@freight/contracts/invoices';
import { translate } from '@freight/contracts/messages';
import { formatMoney } from '@freight/contracts/money';
import { okResponse, xlsxResponse } from '@freight/contracts/responses';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { conflict, forbidden } from '../../lib/errors.ts';
import { sendXlsx } from '../../lib/xlsx.ts';
import { currentUser, type RequestUser } from '../../plugins/context.ts';
import { organisationNames, organisationScope } from '../customers/service.ts';
import { decideInvoice, type InvoiceRow, listInvoices, requestInvoice } from './service.ts';

/** An invoice request as the API shows it; `actions` are what the caller may do with it now. */
const present = (r: InvoiceRow, viewer: RequestUser, organisationName = '') => ({
  id: r.id,
  organisationId: r.organisationId,
  organisationName,
  line: r.line,
  periodFrom: r.periodFrom,
  periodTo: r.periodTo,
  amount: formatMoney(r.amount),
  title: r.title,
  taxNumber: r.taxNumber,
  email: r.email,
  note: r.note,
  status: r.status,
  invoiceNumber: r.invoiceNumber,
  fileUrl: r.fileUrl,
  refusalReason: r.refusalReason,
  decidedAt: r.decidedAt,
  createdAt: r.createdAt,
  actions: viewer.identity === 'employee' ? invoiceMachine.actions(r.status, 'staff') : [],
});

/** Invoices (SPEC section 1 menu): a customer requests one for a period, staff issue or refuse it. */
const routes: FastifyPluginAsyncZod = async (app) => {
  const db = app.db;
  const page = { permission: '/invoices' } as const;

  async function invoiceRows(user: RequestUser, query: InvoiceListQuery, paged: boolean) {
    const { page: p, limit, ...filter } = query;
    const result = await listInvoices(
      db,
      await organisationScope(db, user),
      filter,
      paged ? { page: p, limit } : undefined,
    );
    const names = await organisationNames(db, user.tenantId, [
      ...new Set(result.list.map((r) => r.organisationId)),
    ]);
    return {
      list: result.list.map((r) => present(r, user, names.get(r.organisationId))),
      total: result.total,
      page: p,
      limit,
    };
  }

  app.post(
    '/admin/invoice/list',
    {
      config: page,
      schema: { tags: ['invoices'], body: invoiceListQuery, response: { 200: okResponse(invoiceListView) } },
    },
    async (request) => invoiceRows(currentUser(request), request.body, true),
  );

  app.post(
    '/admin/invoice/export',
    {
      config: { ...page, raw: true },
      schema: { tags: ['invoices'], body: invoiceListQuery, response: { 200: xlsxResponse } },
    },
    async (request, reply) => {
      const { list } = await invoiceRows(currentUser(request), request.body, false);
      const language = request.language;
      const en = language === 'en-US';
      return sendXlsx(
        reply,
        en ? 'invoices.xlsx' : '发票.xlsx',
        [
          { header: en ? 'Request' : '申请编号', value: (r) => r.id },
          { header: en ? 'Organisation' : '客户', value: (r) => r.organisationName, width: 26 },
          { header: en ? 'Line' : '业务', value: (r) => r.line },
          { header: en ? 'Period from' : '开始时间', value: (r) => r.periodFrom },
          { header: en ? 'Period to' : '结束时间', value: (r) => r.periodTo },
          { header: en ? 'Amount' : '金额', value: (r) => r.amount },
          { header: en ? 'Title' : '发票抬头', value: (r) => r.title, width: 26 },
          { header: en ? 'Tax number' : '税号', value: (r) => r.taxNumber, width: 22 },
          {
            header: en ? 'Status' : '状态',
            value: (r) => translate(language, `invoices.status.${r.status}`),
          },
          { header: en ? 'Invoice number' : '发票号', value: (r) => r.invoiceNumber ?? '', width: 22 },
          { header: en ? 'Refusal reason' : '拒绝原因', value: (r) => r.refusalReason ?? '', width: 26 },
          { header: en ? 'Requested at' : '申请时间', value: (r) => r.createdAt },
        ],
        list,
      );
    },
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
      const names = await organisationNames(db, me.tenantId, [row.organisationId]);
      return present(row, me, names.get(row.organisationId));
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
    const names = await organisationNames(db, me.tenantId, [row.organisationId]);
    return present(row, me, names.get(row.organisationId));
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
