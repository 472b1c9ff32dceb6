import type { BusinessLine } from '@freight/contracts/accounts';
import { type InvoiceAction, type InvoiceStatus, invoiceMachine } from '@freight/contracts/invoices';
import { formatMoney } from '@freight/contracts/money';
import { and, count, desc, eq, gt, gte, inArray, lt, ne, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { badField, conflict, notFound } from '../../lib/errors.ts';
import { cappedCount, keysetPages } from '../../lib/keyset.ts';
import type { RequestUser } from '../../plugins/context.ts';
import { invoiceableAmount } from '../accounts/service.ts';
import {
  canSeeOrganisation,
  type OrganisationScope,
  organisationIdsMatching,
  organisationNames,
  organisationScope,
  visibleOrganisationIds,
} from '../customers/service.ts';
import { NoticeOrderType, noticeUser } from '../notices/service.ts';
import { claimUpload, recordOf, registerRecordAccess } from '../uploads/service.ts';
import { invoices } from './schema.ts';

export type InvoiceRow = typeof invoices.$inferSelect;

export interface InvoiceFilter {
  line?: BusinessLine;
  status?: InvoiceStatus;
  organisationId?: number;
  /** Part of the organisation's name, contact or e-mail: a subquery of the customers module, in scope. */
  keyword?: string;
  from?: Date;
  to?: Date;
}

/** The list's rows: invoice requests in the caller's scope and the filter. */
function invoiceCondition(db: DbOrTx, scope: OrganisationScope, filter: InvoiceFilter): SQL | undefined {
  return and(
    eq(invoices.tenantId, scope.tenantId),
    scope.kind === 'subtree'
      ? inArray(invoices.organisationId, visibleOrganisationIds(db, scope))
      : undefined,
    filter.line ? eq(invoices.line, filter.line) : undefined,
    filter.status ? eq(invoices.status, filter.status) : undefined,
    filter.organisationId ? eq(invoices.organisationId, filter.organisationId) : undefined,
    filter.keyword
      ? inArray(invoices.organisationId, organisationIdsMatching(db, scope, filter.keyword))
      : undefined,
    filter.from ? gte(invoices.createdAt, filter.from) : undefined,
    filter.to ? lt(invoices.createdAt, filter.to) : undefined,
  );
}

/** A page of invoice requests in the caller's scope, newest first. */
export async function listInvoices(
  db: DbOrTx,
  scope: OrganisationScope,
  filter: InvoiceFilter,
  page: { page: number; limit: number },
) {
  const condition = invoiceCondition(db, scope, filter);
  const [list, [total]] = await Promise.all([
    db
      .select()
      .from(invoices)
      .where(condition)
      .orderBy(desc(invoices.id))
      .limit(page.limit)
      .offset((page.page - 1) * page.limit),
    db.select({ n: count() }).from(invoices).where(condition),
  ]);
  return { list, total: total?.n ?? 0 };
}

/** The export's requests: the list's filter and order, a keyset page at a time, counted up to a cap. */
export function invoiceExportRows(db: DbOrTx, scope: OrganisationScope, filter: InvoiceFilter) {
  const condition = invoiceCondition(db, scope, filter);
  return {
    count: (cap: number) => cappedCount(db, invoices, condition, cap),
    pages: (size: number) =>
      keysetPages<InvoiceRow>(size, (after, limit) =>
        db
          .select()
          .from(invoices)
          .where(and(condition, after ? lt(invoices.id, after.id) : undefined))
          .orderBy(desc(invoices.id))
          .limit(limit),
      ),
  };
}

/** Invoice requests as the API shows them; `actions` are what the viewer may do with each now. */
export async function presentInvoices(
  db: DbOrTx,
  viewer: Pick<RequestUser, 'tenantId' | 'identity'>,
  rows: InvoiceRow[],
) {
  const names = await organisationNames(db, viewer.tenantId, [...new Set(rows.map((r) => r.organisationId))]);
  return rows.map((r) => ({
    id: r.id,
    organisationId: r.organisationId,
    organisationName: names.get(r.organisationId) ?? '',
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
  }));
}

export interface InvoiceRequest {
  tenantId: number;
  /** The requester's own organisation. */
  organisationId: number;
  userId: number;
  line: BusinessLine;
  /** The period is [periodFrom, periodTo): from its first instant up to, not including, its end. */
  periodFrom: Date;
  periodTo: Date;
  title: string;
  taxNumber: string;
  email: string;
  note: string;
}

/**
 * Records a request for an invoice of the organisation's order payments less refunds in a period
 * (read from the ledger by the accounts module), fixed at the time of asking. A period may be invoiced
 * once: a request overlapping one that is requested or issued is refused (409); a refused one frees its
 * period. Requests of one organisation are taken one at a time, so two at once cannot both pass.
 */
export async function requestInvoice(db: DbOrTx, input: InvoiceRequest): Promise<InvoiceRow> {
  return db.transaction(async (tx) => {
    await tx.execute(
      sql`select pg_advisory_xact_lock(hashtextextended(${`invoice:${input.tenantId}:${input.organisationId}`}, 0))`,
    );
    const [overlapping] = await tx
      .select({ id: invoices.id })
      .from(invoices)
      .where(
        and(
          eq(invoices.tenantId, input.tenantId),
          eq(invoices.organisationId, input.organisationId),
          eq(invoices.line, input.line),
          ne(invoices.status, 'refused'),
          lt(invoices.periodFrom, input.periodTo),
          gt(invoices.periodTo, input.periodFrom),
        ),
      )
      .limit(1);
    if (overlapping) throw conflict('invoices.periodOverlaps', { id: overlapping.id });
    const amount = await invoiceableAmount(
      tx,
      input.tenantId,
      input.organisationId,
      input.line,
      input.periodFrom,
      input.periodTo,
    );
    if (amount <= 0n) throw badField('periodFrom', 'invoices.nothingToInvoice');
    const { userId, ...fields } = input;
    const [row] = await tx
      .insert(invoices)
      .values({ ...fields, requestedBy: userId, amount })
      .returning();
    if (!row) throw new Error('invoice insert returned nothing');
    return row;
  });
}

export interface InvoiceDecision {
  tenantId: number;
  /** The deciding staff member's scope: staff see the whole tenant. */
  scope: OrganisationScope;
  staffId: number;
  id: number;
  action: InvoiceAction;
  invoiceNumber?: string;
  fileUrl?: string | null;
  reason?: string;
}

/**
 * Issues or refuses a request by the status machine, under its row lock, so two staff cannot both
 * decide it (the second hears 409); the requester gets a notice in their language.
 */
// An issued invoice's file loads for whoever holds the invoices page and sees the organisation.
registerRecordAccess('invoice', async (db, caller, id) => {
  if (!caller.grants.has('/invoices')) return false;
  const [row] = await db
    .select({ organisationId: invoices.organisationId })
    .from(invoices)
    .where(and(eq(invoices.tenantId, caller.tenantId), eq(invoices.id, id)))
    .limit(1);
  if (!row) return false;
  return canSeeOrganisation(db, await organisationScope(db, caller), row.organisationId);
});

export async function decideInvoice(db: DbOrTx, input: InvoiceDecision): Promise<InvoiceRow> {
  return db.transaction(async (tx) => {
    const [current] = await tx
      .select()
      .from(invoices)
      .where(and(eq(invoices.tenantId, input.tenantId), eq(invoices.id, input.id)))
      .for('update');
    if (!current || !(await canSeeOrganisation(tx, input.scope, current.organisationId))) throw notFound();
    const step = invoiceMachine.find(current.status, input.action, 'staff');
    if (!step) throw conflict('invoices.alreadyDecided');
    const [row] = await tx
      .update(invoices)
      .set({
        status: step.to,
        ...(input.action === 'issue'
          ? { invoiceNumber: input.invoiceNumber, fileUrl: input.fileUrl ?? null }
          : { refusalReason: input.reason }),
        decidedBy: input.staffId,
        decidedAt: new Date(),
      })
      .where(and(eq(invoices.tenantId, input.tenantId), eq(invoices.id, input.id)))
      .returning();
    if (!row) throw new Error('invoice vanished under its row lock');
    // The invoice file must be the deciding staff member's own upload; the requester's side loads it.
    if (input.action === 'issue' && input.fileUrl)
      await claimUpload(tx, input.tenantId, input.fileUrl, recordOf('invoice', row.id), {
        field: 'fileUrl',
        by: input.staffId,
      });
    await noticeUser(tx, {
      tenantId: input.tenantId,
      userId: current.requestedBy,
      title: 'invoices.noticeTitle',
      content:
        input.action === 'issue'
          ? {
              key: 'invoices.noticeIssued',
              params: { number: input.invoiceNumber ?? '', amount: formatMoney(current.amount) },
            }
          : { key: 'invoices.noticeRefused', params: { reason: input.reason ?? '' } },
      orderType: NoticeOrderType.General,
      orderSn: String(current.id),
    });
    return row;
  });
}
