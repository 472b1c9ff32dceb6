import {
  invoiceIssueBody,
  invoiceListQuery,
  invoiceMachine,
  invoiceRefuseBody,
  invoiceRequestBody,
} from '@freight/contracts/invoices';
import { formatMoney } from '@freight/contracts/money';
import { and, count, desc, eq, inArray } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { badField, conflict, forbidden, notFound } from '../../lib/errors.ts';
import { currentUser, type RequestUser } from '../../plugins/context.ts';
import { invoiceableAmount } from '../accounts/service.ts';
import {
  canSeeOrganisation,
  organisationNames,
  organisationScope,
  visibleOrganisationIds,
} from '../customers/service.ts';
import { invoices } from './schema.ts';

type InvoiceRow = typeof invoices.$inferSelect;

const present = (r: InvoiceRow, organisationName = '') => ({
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
});

/** Invoices (SPEC section 1 menu): a customer requests one for a period, staff issue or refuse it. */
const routes: FastifyPluginAsyncZod = async (app) => {
  const db = app.db;
  const page = { permission: '/invoices' } as const;

  app.post(
    '/admin/invoice/list',
    { config: page, schema: { tags: ['invoices'], body: invoiceListQuery } },
    async (request) => {
      const me = currentUser(request);
      const scope = await organisationScope(db, me);
      const condition = and(
        eq(invoices.tenantId, me.tenantId),
        scope.kind === 'subtree'
          ? inArray(invoices.organisationId, visibleOrganisationIds(db, scope))
          : undefined,
        request.body.line ? eq(invoices.line, request.body.line) : undefined,
        request.body.status ? eq(invoices.status, request.body.status) : undefined,
      );
      const { page: p, limit } = request.body;
      const [rows, [total]] = await Promise.all([
        db
          .select()
          .from(invoices)
          .where(condition)
          .orderBy(desc(invoices.id))
          .limit(limit)
          .offset((p - 1) * limit),
        db.select({ n: count() }).from(invoices).where(condition),
      ]);
      const names = await organisationNames(db, me.tenantId, [...new Set(rows.map((r) => r.organisationId))]);
      return {
        list: rows.map((r) => present(r, names.get(r.organisationId))),
        total: total?.n ?? 0,
        page: p,
        limit,
      };
    },
  );

  app.post(
    '/admin/invoice/request',
    {
      config: { ...page, audit: 'invoice.request' },
      schema: { tags: ['invoices'], body: invoiceRequestBody },
    },
    async (request) => {
      const me = currentUser(request);
      if (!me.organisationId) throw forbidden();
      const body = request.body;
      const amount = await invoiceableAmount(
        db,
        me.tenantId,
        me.organisationId,
        body.line,
        body.periodFrom,
        body.periodTo,
      );
      if (amount <= 0n) throw badField('periodFrom', 'invoices.nothingToInvoice');
      const [row] = await db
        .insert(invoices)
        .values({
          tenantId: me.tenantId,
          organisationId: me.organisationId,
          requestedBy: me.id,
          amount,
          ...body,
        })
        .returning();
      request.auditTarget = `invoice:${row?.id}`;
      return present(row as InvoiceRow);
    },
  );

  /** Moves a request on by the status machine, under its row lock, so two staff cannot both decide it. */
  async function decide(
    me: RequestUser,
    id: number,
    action: 'issue' | 'refuse',
    fields: Partial<InvoiceRow>,
  ) {
    if (me.identity !== 'employee') throw forbidden();
    return db.transaction(async (tx) => {
      const [current] = await tx
        .select()
        .from(invoices)
        .where(and(eq(invoices.tenantId, me.tenantId), eq(invoices.id, id)))
        .for('update');
      if (
        !current ||
        !(await canSeeOrganisation(tx, await organisationScope(tx, me), current.organisationId))
      )
        throw notFound();
      const step = invoiceMachine.find(current.status, action, 'staff');
      if (!step) throw conflict('invoices.alreadyDecided');
      const [row] = await tx
        .update(invoices)
        .set({ ...fields, status: step.to, decidedBy: me.id, decidedAt: new Date() })
        .where(and(eq(invoices.tenantId, me.tenantId), eq(invoices.id, id)))
        .returning();
      return present(row as InvoiceRow);
    });
  }

  app.post(
    '/admin/invoice/issue',
    { config: { ...page, audit: 'invoice.issue' }, schema: { tags: ['invoices'], body: invoiceIssueBody } },
    async (request) => {
      request.auditTarget = `invoice:${request.body.id}`;
      return decide(currentUser(request), request.body.id, 'issue', {
        invoiceNumber: request.body.invoiceNumber,
        fileUrl: request.body.fileUrl,
      });
    },
  );

  app.post(
    '/admin/invoice/refuse',
    { config: { ...page, audit: 'invoice.refuse' }, schema: { tags: ['invoices'], body: invoiceRefuseBody } },
    async (request) => {
      request.auditTarget = `invoice:${request.body.id}`;
      return decide(currentUser(request), request.body.id, 'refuse', { refusalReason: request.body.reason });
    },
  );
};

export default routes;
