import { randomUUID } from 'node:crypto';
import type { Language } from '@freight/contracts/api';
import { BUILTIN_PROVIDER } from '@freight/contracts/carriers';
import {
  type ExpressQuoteResult,
  type ExpressShipmentInput,
  expressLevelOnWire,
  visibleExpressLevels,
} from '@freight/contracts/express-quotes';
import {
  type LabelFormat,
  paidStatus,
  WAYBILL_STATUSES,
  type WaybillAction,
  type WaybillListQuery,
  type WaybillStatus,
  waybillMachine,
} from '@freight/contracts/express-waybills';
import { translate } from '@freight/contracts/messages';
import { formatMoney } from '@freight/contracts/money';
import { and, count, desc, eq, inArray, isNotNull, isNull, lt, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { idsByNumber, recordSet } from '../../lib/bulk-insert.ts';
import { AppError, badField, conflict, forbidden, notFound } from '../../lib/errors.ts';
import { dayRange, numbersStartWith } from '../../lib/filters.ts';
import { cappedCount, keysetPages } from '../../lib/keyset.ts';
import type { RequestUser } from '../../plugins/context.ts';
import { available, ensureAccount, listLedger, moveMoney, payFromBalance } from '../accounts/service.ts';
import { joinPdfs } from '../carriers/service.ts';
import {
  canSeeOrganisation,
  organisationNames,
  organisationScope,
  visibleOrganisationIds,
} from '../customers/service.ts';
import { findChannel } from '../express-channels/service.ts';
import {
  expressQuoteExpired,
  markExpressQuoteBooked,
  visibleExpressQuote,
} from '../express-quotes/service.ts';
import { emitStatusEvent } from '../integrations/webhooks.ts';
import { NoticeOrderType, NoticeType, noticeUser } from '../notices/service.ts';
import { nextSerials } from '../numbering/service.ts';
import { type ReportFact, recordSale, registerSalesSource, type SaleMove } from '../reports/service.ts';
import type { UploadStore } from '../uploads/service.ts';
import { carrierLabelFiles, releaseAtCarrier, sendLabelJob } from './carrier-booking.ts';
import { customsForms, needsCustomsForms } from './customs-forms.ts';
import { waybillLabels } from './label.ts';
import { expressWaybillEvents, expressWaybills } from './schema.ts';
import { waybillZpl } from './zpl.ts';

export type WaybillRow = typeof expressWaybills.$inferSelect;
export type Caller = Pick<RequestUser, 'id' | 'tenantId' | 'identity' | 'organisationId'>;
type Viewer = Caller & Pick<RequestUser, 'grants'>;

const isStaff = (user: Pick<RequestUser, 'identity'>) => user.identity === 'employee';
const actor = (caller: Caller) => (isStaff(caller) ? 'staff' : 'owner');

/** The button a staff member needs for a move; owners are bound by the status machine alone. */
export function waybillActionButton(action: WaybillAction): string | null {
  if (action === 'refund') return 'express-order:refund';
  if (action === 'pay' || action === 'print' || action === 'cancel' || action === 'ready') return null;
  return 'express-order:update';
}

export async function addEvent(
  db: DbOrTx,
  waybill: Pick<WaybillRow, 'tenantId' | 'id' | 'organisationId' | 'waybillNo'>,
  action: WaybillAction | 'create',
  from: WaybillStatus | null,
  to: WaybillStatus,
  actorId: number | null,
  note = '',
) {
  await db.insert(expressWaybillEvents).values({
    tenantId: waybill.tenantId,
    waybillId: waybill.id,
    action,
    fromStatus: from,
    toStatus: to,
    actorId,
    note,
  });
  if (from && from !== to)
    await emitStatusEvent(db, {
      ...waybill,
      kind: 'waybill.status',
      sn: waybill.waybillNo,
      from,
      status: to,
    });
}

/** Moves the booking user hears of: where the parcel ended up, and money given back by someone else. */
const NOTICED: Partial<Record<WaybillStatus, 'delivered' | 'exception' | 'refunded'>> = {
  delivered: 'delivered',
  exception: 'exception',
  refunded: 'refunded',
};

/**
 * Tells the user who booked a waybill that it was delivered, went wrong or was refunded; the notice
 * opens `/expressOrderList?sn=<waybill number>` (notice order type 4).
 */
export async function noticeWaybill(
  db: DbOrTx,
  waybill: Pick<WaybillRow, 'tenantId' | 'userId' | 'waybillNo' | 'paid'>,
  status: WaybillStatus,
  note = '',
) {
  const event = NOTICED[status];
  if (!event) return;
  await noticeUser(db, {
    tenantId: waybill.tenantId,
    userId: waybill.userId,
    type: event === 'delivered' ? NoticeType.Toast : NoticeType.Dialog,
    title: 'expressWaybill.notice.title',
    content: {
      key: `expressWaybill.notice.${event}`,
      params: { waybillNo: waybill.waybillNo, amount: formatMoney(waybill.paid), note },
    },
    orderType: NoticeOrderType.ExpressOrder,
    orderSn: waybill.waybillNo,
  });
}

export async function findWaybill(db: DbOrTx, tenantId: number, id: number) {
  const [row] = await db
    .select()
    .from(expressWaybills)
    .where(and(eq(expressWaybills.tenantId, tenantId), eq(expressWaybills.id, id)))
    .limit(1);
  return row ?? null;
}

/** A waybill the caller may see (its organisation's or one below it; staff see all), or 404. */
export async function visibleWaybill(db: DbOrTx, caller: Caller, id: number): Promise<WaybillRow> {
  const waybill = await findWaybill(db, caller.tenantId, id);
  if (!waybill) throw notFound();
  const scope = await organisationScope(db, caller);
  if (!(await canSeeOrganisation(db, scope, waybill.organisationId))) throw notFound();
  return waybill;
}

/** A waybill by its number, if the caller may see it (bounce bills and work orders name it so). */
export async function visibleWaybillByNo(
  db: DbOrTx,
  caller: Caller,
  waybillNo: string,
): Promise<WaybillRow | null> {
  const [waybill] = await db
    .select()
    .from(expressWaybills)
    .where(
      and(
        eq(expressWaybills.tenantId, caller.tenantId),
        eq(expressWaybills.waybillNo, waybillNo.toUpperCase()),
      ),
    )
    .limit(1);
  if (!waybill) return null;
  const scope = await organisationScope(db, caller);
  return (await canSeeOrganisation(db, scope, waybill.organisationId)) ? waybill : null;
}

/* ---------- booking ---------- */

/**
 * `order/create`: a waybill from a channel of a visible, live quote, with the quote's snapshot of the
 * shipment and of every level's price. A quote books once: creating again (or twice at once) answers
 * the waybill it already made. With `pay`, paying follows at once; a short balance leaves it unpaid.
 */
export async function createWaybillFor(
  db: DbOrTx,
  caller: Caller,
  input: { quoteId: number; channelId?: number; pay: boolean },
  language: Language,
) {
  const quote = await visibleExpressQuote(db, caller, input.quoteId);
  const existing = await waybillOfQuote(db, caller.tenantId, quote.id);
  if (existing) return { waybill: existing, payment: null };
  const channelId = input.channelId ?? quote.selectedChannelId;
  if (!channelId) throw badField('channelId', 'expressWaybill.selectChannel');
  if (expressQuoteExpired(quote)) throw conflict('quote.expired');
  const result = quote.results.find((r) => r.channelId === channelId);
  if (!result) throw badField('channelId', 'expressQuote.channelNotQuoted');
  if (!result.ok) throw badField('channelId', `expressQuote.refusal.${result.reason}`);
  const carrier = await carrierOfChannel(db, quote.tenantId, result);

  const created = await db.transaction(async (tx) => {
    if (!(await markExpressQuoteBooked(tx, quote.tenantId, quote.id))) return null;
    const [waybill] = await insertWaybills(tx, quote.tenantId, [
      {
        organisationId: quote.organisationId,
        userId: caller.id,
        quoteId: quote.id,
        shipment: quote.shipment,
        result,
        ...(carrier ? { carrier } : {}),
      },
    ]);
    return waybill ?? null;
  });
  // Another booking of the same quote got there first: that waybill is the answer.
  const waybill = created ?? (await waybillOfQuote(db, caller.tenantId, quote.id));
  if (!waybill) throw conflict('quote.booked');
  if (!input.pay || !created) return { waybill, payment: null };
  return payOnBooking(db, caller, waybill, language);
}

/**
 * The account and service a carrier channel's label is bought through, as the channel names them at
 * booking; null for the tenant's own tables.
 */
async function carrierOfChannel(db: DbOrTx, tenantId: number, result: ExpressQuoteResult) {
  if (result.provider === BUILTIN_PROVIDER) return null;
  const channel = await findChannel(db, tenantId, result.channelId);
  if (!channel?.carrierAccountId || !channel.carrierService || channel.provider !== result.provider)
    throw badField('channelId', 'expressQuote.channelNotQuoted');
  return {
    accountId: channel.carrierAccountId,
    service: channel.carrierService,
    labelFormat: channel.carrierLabelFormat,
  };
}

/**
 * Pays a waybill just booked with `pay` (from a quote, or a return): a refusal (funds short, say)
 * leaves it booked and unpaid, and the answer says why in the caller's language.
 */
export async function payOnBooking(db: DbOrTx, caller: Caller, waybill: WaybillRow, language: Language) {
  try {
    const paid = await payWaybill(db, caller, waybill);
    return { waybill: { ...waybill, status: paid.status }, payment: { ok: true, message: '' } };
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return { waybill, payment: { ok: false, message: translate(language, error.key, error.params) } };
  }
}

/** A shipment's priced channel, with the quote it was priced on, as a waybill is booked from it. */
export interface WaybillDraft {
  organisationId: number;
  userId: number;
  quoteId: number;
  shipment: ExpressShipmentInput;
  result: Extract<ExpressQuoteResult, { ok: true }>;
  /** For a return waybill: the waybill whose parcel comes back. */
  returnOf?: { id: number; waybillNo: string };
  /** For a channel a carrier's API serves: the account and service its label is bought through. */
  carrier?: { accountId: number; service: string; labelFormat: LabelFormat };
}

/** Waybills a statement of a batch: one JSON parameter each. */
const INSERT_CHUNK = 1_000;

/** A new waybill's row: unpaid, with the snapshot of its shipment, its channel and every level's price. */
function waybillValues(
  tenantId: number,
  draft: WaybillDraft,
  waybillNo: string,
  trackingNo: string,
): typeof expressWaybills.$inferInsert {
  const { ok: _ok, breakdown, levels, cheapest: _c, fastest: _f, ...channel } = draft.result;
  const customer = levels[levels.length - 1];
  const platform = levels[0];
  if (!customer || !platform) throw conflict('expressQuote.notPriced');
  return {
    tenantId,
    waybillNo,
    trackingNo,
    reference: draft.shipment.reference,
    organisationId: draft.organisationId,
    userId: draft.userId,
    quoteId: draft.quoteId,
    channelId: channel.channelId,
    channel,
    status: 'unpaid' as const,
    shipment: draft.shipment,
    breakdown,
    levels,
    total: BigInt(customer.total),
    cost: BigInt(platform.total),
    returnOfId: draft.returnOf?.id ?? null,
    returnOfNo: draft.returnOf?.waybillNo ?? null,
    carrierAccountId: draft.carrier?.accountId ?? null,
    carrierService: draft.carrier?.service ?? null,
    carrierLabelFormat: draft.carrier?.labelFormat ?? null,
    // One key for the whole purchase, however many times it is tried.
    labelKey: draft.carrier ? randomUUID() : null,
  };
}

/**
 * The one writer of new waybills (a booking from the quote page, a batch file, a return label): each
 * unpaid, with its `create` event written by the same statement. Numbers are taken in one go; run it
 * inside the booking's transaction. A chunk's statement is built while the database writes the one
 * before. Answers the waybills' ids and numbers in the order given.
 */
export async function writeWaybills(
  tx: DbOrTx,
  tenantId: number,
  drafts: readonly WaybillDraft[],
): Promise<{ id: number; waybillNo: string }[]> {
  if (drafts.length === 0) return [];
  const [waybillNos, trackingNos] = await Promise.all([
    nextSerials(tx, tenantId, 'EW', drafts.length),
    nextSerials(tx, tenantId, 'FP', drafts.length),
  ]);
  const ids = await idsByNumber(
    tx,
    drafts.length,
    INSERT_CHUNK,
    (from, to) => {
      const rows = recordSet(
        expressWaybills,
        drafts
          .slice(from, to)
          .map((draft, j) =>
            waybillValues(tenantId, draft, waybillNos[from + j] as string, trackingNos[from + j] as string),
          ),
      );
      return sql`
        with added as (
          insert into ${expressWaybills} (${rows.columns}) select ${rows.values} from ${rows.source}
          returning tenant_id, id, waybill_no, user_id
        ), timeline as (
          insert into ${expressWaybillEvents} (tenant_id, waybill_id, action, from_status, to_status, actor_id, note)
          select tenant_id, id, 'create', null, 'unpaid', user_id, waybill_no from added
        )
        select id, waybill_no from added`;
    },
    'waybill_no',
  );
  // In the order given: the numbers were handed out in that order.
  return waybillNos.map((waybillNo) => ({ id: ids.get(waybillNo) as number, waybillNo }));
}

/** `writeWaybills`, answering the waybills' whole rows in the order given (a booking shows its waybill). */
export async function insertWaybills(
  tx: DbOrTx,
  tenantId: number,
  drafts: readonly WaybillDraft[],
): Promise<WaybillRow[]> {
  const written = await writeWaybills(tx, tenantId, drafts);
  if (written.length === 0) return [];
  const rows = await tx
    .select()
    .from(expressWaybills)
    .where(
      and(
        eq(expressWaybills.tenantId, tenantId),
        inArray(
          expressWaybills.id,
          written.map((w) => w.id),
        ),
      ),
    );
  const byId = new Map(rows.map((w) => [w.id, w]));
  return written.map((w) => byId.get(w.id) as WaybillRow);
}

async function waybillOfQuote(db: DbOrTx, tenantId: number, quoteId: number) {
  const [row] = await db
    .select()
    .from(expressWaybills)
    .where(and(eq(expressWaybills.tenantId, tenantId), eq(expressWaybills.quoteId, quoteId)))
    .limit(1);
  return row ?? null;
}

/* ---------- money ---------- */

/**
 * Pays an unpaid waybill from its organisation's express account: the status change, the debit and
 * its ledger row commit together or not at all. Paying twice, or twice at the same moment, charges
 * once and says the second was a repeat; without the funds it stays unpaid and says what is available.
 */
export async function payWaybill(
  db: DbOrTx,
  caller: Caller,
  waybill: WaybillRow,
): Promise<{ repeated: boolean; status: WaybillStatus }> {
  const transition = waybillMachine.find(waybill.status, 'pay', actor(caller));
  if (!transition) {
    if (waybill.paidAt) return { repeated: true, status: waybill.status };
    throw conflict('expressWaybill.transitionRefused');
  }
  const carrier = waybill.carrierAccountId !== null;
  const to = paidStatus(carrier);
  return payFromBalance<{ repeated: boolean; status: WaybillStatus }>(db, {
    owner: { ...waybill, line: 'express' },
    amount: waybill.total,
    ledger: {
      type: 'order_payment',
      refType: 'express_waybill',
      refId: waybill.waybillNo,
      operatorId: caller.id,
      note: waybill.waybillNo,
      idempotencyKey: `express-waybill-pay:${waybill.id}`,
    },
    refusal: { key: 'expressWaybill.insufficientFunds', params: { total: formatMoney(waybill.total) } },
    claim: async (tx) => {
      const moved = await tx
        .update(expressWaybills)
        .set({ status: to, paid: waybill.total, paidAt: new Date() })
        .where(
          and(
            eq(expressWaybills.tenantId, waybill.tenantId),
            eq(expressWaybills.id, waybill.id),
            eq(expressWaybills.status, 'unpaid'),
          ),
        )
        .returning({ id: expressWaybills.id });
      return moved.length > 0;
    },
    missed: async (tx) => {
      const now = await findWaybill(tx, waybill.tenantId, waybill.id);
      if (now?.paidAt) return { repeated: true, status: now.status };
      throw conflict('expressWaybill.transitionRefused');
    },
    settle: async (tx) => {
      await recordSale(tx, saleOf(waybill, 1n, waybill.total));
      await addEvent(tx, waybill, 'pay', 'unpaid', to, caller.id, formatMoney(waybill.total));
      // The label is bought by a job that exists only if the payment commits.
      if (carrier) await sendLabelJob(tx, waybill);
      return { repeated: false, status: to };
    },
  });
}

/** A level's price of a waybill (branch, agent), 0 when its chain has no such level. */
const levelTotal = (waybill: WaybillRow, type: 'branch' | 'agent') =>
  BigInt(waybill.levels.find((l) => l.type === type)?.total ?? 0);

/** A waybill's money as the reports count it: `sign` 1 as it is paid, -1 as it is refunded. */
function saleOf(waybill: WaybillRow, sign: 1n | -1n, money: bigint): SaleMove {
  return {
    tenantId: waybill.tenantId,
    line: 'express',
    organisationId: waybill.organisationId,
    productId: waybill.channelId,
    at: new Date(),
    orders: Number(sign),
    revenue: sign * money,
    cost: sign * waybill.cost,
    branchPrice: sign * levelTotal(waybill, 'branch'),
    agentPrice: sign * levelTotal(waybill, 'agent'),
  };
}

/**
 * A tenant's express money by day, organisation and channel, from the waybills themselves: payments
 * on the day they were paid, refunds of paid waybills on the day of the refund. The reports rebuild
 * their aggregates from it.
 */
export async function expressReportFacts(db: DbOrTx, tenantId: number): Promise<ReportFact[]> {
  const w = expressWaybills;
  const level = (type: string) =>
    sql`coalesce((select (l->>'total')::bigint from jsonb_array_elements(${w.levels}) l where l->>'type' = ${type} limit 1), 0)`;
  const sums = (sign: '' | '-') => ({
    organisationId: w.organisationId,
    productId: w.channelId,
    orders: sql<string>`(${sql.raw(sign)}count(*))::text`,
    revenue: sql<string>`(${sql.raw(sign)}sum(${w.total}))::text`,
    cost: sql<string>`(${sql.raw(sign)}sum(${w.cost}))::text`,
    branchPrice: sql<string>`(${sql.raw(sign)}sum(${level('branch')}))::text`,
    agentPrice: sql<string>`(${sql.raw(sign)}sum(${level('agent')}))::text`,
  });
  const utc = (column: SQL) => sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD')`;
  const [paid, refunded] = await Promise.all([
    db
      .select({ day: utc(sql`${w.paidAt}`), ...sums('') })
      .from(w)
      .where(and(eq(w.tenantId, tenantId), isNotNull(w.paidAt)))
      .groupBy(sql`1`, w.organisationId, w.channelId),
    db
      .select({ day: utc(sql`${expressWaybillEvents.createdAt}`), ...sums('-') })
      .from(w)
      .innerJoin(
        expressWaybillEvents,
        and(
          eq(expressWaybillEvents.tenantId, w.tenantId),
          eq(expressWaybillEvents.waybillId, w.id),
          eq(expressWaybillEvents.action, 'refund'),
        ),
      )
      .where(and(eq(w.tenantId, tenantId), isNotNull(w.paidAt)))
      .groupBy(sql`1`, w.organisationId, w.channelId),
  ]);
  return [...paid, ...refunded];
}

// Registered as the module loads: the reports rebuild from it without importing this module.
registerSalesSource('express-waybills', ['express'], (db, tenantId) => expressReportFacts(db, tenantId));

/**
 * `order/refund`: voids an unshipped waybill (or, for staff, one whose money was frozen in a dispute)
 * and gives its payment back once, with the reason. A second refund, or two at once, gives nothing
 * more and says it was a repeat.
 */
export async function refundWaybill(
  db: DbOrTx,
  caller: Viewer,
  waybill: WaybillRow,
  reason: string,
): Promise<{ repeated: boolean; status: WaybillStatus }> {
  if (waybill.status === 'refunded') return { repeated: true, status: 'refunded' };
  const transition = waybillMachine.find(waybill.status, 'refund', actor(caller));
  if (!transition) throw conflict('expressWaybill.notRefundable');
  if (isStaff(caller) && !caller.grants.has('express-order:refund')) throw forbidden();
  // The carrier's label is voided before any money moves back: a refund never leaves a live label.
  await releaseAtCarrier(db, waybill);
  return refundPaidWaybill(db, waybill, {
    actorId: caller.id,
    reason,
    noticeOwner: caller.id !== waybill.userId,
  });
}

/**
 * Voids a waybill and gives its payment back once, in one transaction: the status, the credit and
 * its ledger row, the reports and the event. A second refund, or two at once, gives nothing more and
 * says it was a repeat. `set` adds what the refund records beside (a carrier's refusal).
 */
export async function refundPaidWaybill(
  db: DbOrTx,
  waybill: WaybillRow,
  options: {
    actorId: number | null;
    reason: string;
    noticeOwner: boolean;
    set?: Partial<Pick<WaybillRow, 'labelFailure' | 'carrierError'>>;
  },
): Promise<{ repeated: boolean; status: WaybillStatus }> {
  const account = await ensureAccount(db, waybill.tenantId, waybill.organisationId, 'express');
  return db.transaction(async (tx) => {
    const moved = await tx
      .update(expressWaybills)
      .set({ status: 'refunded', paid: 0n, refundReason: options.reason, ...options.set })
      .where(
        and(
          eq(expressWaybills.tenantId, waybill.tenantId),
          eq(expressWaybills.id, waybill.id),
          eq(expressWaybills.status, waybill.status),
        ),
      )
      .returning({ id: expressWaybills.id });
    if (moved.length === 0) {
      const now = await findWaybill(tx, waybill.tenantId, waybill.id);
      if (now?.status === 'refunded') return { repeated: true, status: 'refunded' as const };
      throw conflict('expressWaybill.notRefundable');
    }
    if (waybill.paid > 0n)
      await moveMoney(tx, {
        tenantId: waybill.tenantId,
        accountId: account.id,
        type: 'refund',
        amount: waybill.paid,
        refType: 'express_waybill',
        refId: waybill.waybillNo,
        operatorId: options.actorId,
        note: options.reason || waybill.waybillNo,
        idempotencyKey: `express-waybill-refund:${waybill.id}`,
      });
    // A paid waybill voided leaves the reports as it came in, on the day of the refund.
    if (waybill.paidAt) await recordSale(tx, saleOf(waybill, -1n, waybill.paid));
    await addEvent(tx, waybill, 'refund', waybill.status, 'refunded', options.actorId, options.reason);
    // Money given back by staff (a dispute, a void on the customer's behalf) is news to its owner.
    if (options.noticeOwner) await noticeWaybill(tx, waybill, 'refunded', options.reason);
    return { repeated: false, status: 'refunded' as const };
  });
}

/**
 * A move that carries no money: cancel an unpaid waybill, mark it packed, hand it to the carrier,
 * record where it is, freeze it in a dispute and release it back to where it was.
 */
export async function transitionWaybill(
  db: DbOrTx,
  caller: Viewer,
  waybill: WaybillRow,
  action: Exclude<WaybillAction, 'pay' | 'refund' | 'print'>,
  note: string,
): Promise<{ repeated: boolean; status: WaybillStatus }> {
  const transition = waybillMachine.find(waybill.status, action, actor(caller));
  if (!transition) throw conflict('expressWaybill.transitionRefused');
  const button = waybillActionButton(action);
  if (isStaff(caller) && button && !caller.grants.has(button)) throw forbidden();
  if ((action === 'cancel' || action === 'exception' || action === 'freeze') && !note)
    throw badField('note', 'expressWaybill.reasonRequired');
  const to = action === 'release' ? (waybill.frozenFrom ?? 'in_transit') : transition.to;
  const moved = await db
    .update(expressWaybills)
    .set({
      status: to,
      frozenFrom: action === 'freeze' ? waybill.status : action === 'release' ? null : waybill.frozenFrom,
    })
    .where(
      and(
        eq(expressWaybills.tenantId, waybill.tenantId),
        eq(expressWaybills.id, waybill.id),
        eq(expressWaybills.status, waybill.status),
      ),
    )
    .returning({ id: expressWaybills.id });
  if (moved.length === 0) throw conflict('expressWaybill.transitionRefused');
  await addEvent(db, waybill, action, waybill.status, to, caller.id, note);
  await noticeWaybill(db, waybill, to, note);
  return { repeated: false, status: to };
}

/* ---------- reading ---------- */

/** What the caller may do with a waybill now, as the machine and the caller's buttons allow. */
export function waybillActions(waybill: Pick<WaybillRow, 'status'>, caller: Viewer): WaybillAction[] {
  const staff = isStaff(caller);
  return waybillMachine.actions(waybill.status, actor(caller)).filter((action) => {
    const button = waybillActionButton(action);
    return !staff || !button || caller.grants.has(button);
  });
}

/** A waybill as the caller may see it: staff see every level's price, others their own and below. */
export function waybillForCaller(waybill: WaybillRow, caller: Viewer, organisationName = '') {
  const {
    tenantId: _t,
    breakdown,
    levels,
    cost: _cost,
    carrierReference: _r,
    frozenFrom: _f,
    returnOfId: _returnOf,
    carrierAccountId,
    carrierService: _service,
    carrierLabelFormat: _labelFormat,
    labelKey: _key,
    labelAttempts: _attempts,
    labelFile,
    labelFailure,
    carrierError,
    ...rest
  } = waybill;
  const customer = levels[levels.length - 1];
  const channel = {
    code: waybill.channel.code,
    name: waybill.channel.name,
    nameEn: waybill.channel.nameEn,
    productName: waybill.channel.productName,
    productNameEn: waybill.channel.productNameEn,
    carrier: waybill.channel.carrier,
    service: waybill.channel.service,
    transitDaysMin: waybill.channel.transitDaysMin,
    transitDaysMax: waybill.channel.transitDaysMax,
  };
  const money = (cents: number) => formatMoney(BigInt(cents));
  return {
    ...rest,
    organisationName,
    channel,
    zone: breakdown.zone,
    billableWeight: breakdown.billableWeight,
    total: formatMoney(waybill.total),
    freight: money(customer?.freight ?? 0),
    fuel: money(customer?.fuel ?? 0),
    surcharges: (customer?.surcharges ?? []).map((s) => ({
      code: s.code,
      fee: money(s.fee),
      ...(s.name ? { name: s.name } : {}),
    })),
    levels: visibleExpressLevels(levels, isStaff(caller) ? null : caller.organisationId).map(
      expressLevelOnWire,
    ),
    paid: formatMoney(waybill.paid),
    carrierLabel:
      carrierAccountId === null
        ? null
        : {
            provider: waybill.channel.provider,
            bought: labelFile !== null,
            failure: labelFailure,
            // The carrier's own words may name the operator's account and contracts: staff only.
            detail: isStaff(caller) ? carrierError : null,
          },
    customsPapers: needsCustomsForms(waybill),
    actions: waybillActions(waybill, caller),
  };
}

/** The filters of the waybill list other than status, within what the caller may see. */
async function waybillFilters(
  db: DbOrTx,
  caller: Viewer,
  query: Omit<WaybillListQuery, 'page' | 'limit'>,
): Promise<(SQL | undefined)[]> {
  const scope = await organisationScope(db, caller);
  return [
    eq(expressWaybills.tenantId, caller.tenantId),
    isStaff(caller) ? undefined : inArray(expressWaybills.organisationId, visibleOrganisationIds(db, scope)),
    query.keyword
      ? numbersStartWith(
          [expressWaybills.waybillNo, expressWaybills.trackingNo, expressWaybills.reference],
          query.keyword,
        )
      : undefined,
    query.channelId ? eq(expressWaybills.channelId, query.channelId) : undefined,
    query.type === 'return'
      ? isNotNull(expressWaybills.returnOfId)
      : query.type === 'regular'
        ? isNull(expressWaybills.returnOfId)
        : undefined,
    ...dayRange(expressWaybills.createdAt, query.from, query.to),
  ];
}

/** An export holds at most this many waybills, newest first; filters narrow a larger list. */
/**
 * `order/export`: the waybills of the list's filters as the caller may see them, newest first, a keyset
 * page at a time (the download centre streams them into the file, however many there are).
 */
export async function waybillExportRows(
  db: DbOrTx,
  caller: Viewer,
  query: Omit<WaybillListQuery, 'page' | 'limit'>,
) {
  const base = await waybillFilters(db, caller, query);
  const condition = and(...base, query.status ? eq(expressWaybills.status, query.status) : undefined);
  return {
    count: (cap: number) => cappedCount(db, expressWaybills, condition, cap),
    async *pages(size: number) {
      const raw = keysetPages<typeof expressWaybills.$inferSelect>(size, (after, limit) =>
        db
          .select()
          .from(expressWaybills)
          .where(and(condition, after ? lt(expressWaybills.id, after.id) : undefined))
          .orderBy(desc(expressWaybills.id))
          .limit(limit),
      );
      for await (const rows of raw) {
        const names = await organisationNames(db, caller.tenantId, [
          ...new Set(rows.map((r) => r.organisationId)),
        ]);
        yield rows.map((r) => waybillForCaller(r, caller, names.get(r.organisationId) ?? ''));
      }
    },
  };
}

/** `/expressOrderList`: a page of the waybills the caller may see, and each status's count. */
export async function listWaybillsFor(db: DbOrTx, caller: Viewer, query: WaybillListQuery) {
  const base = await waybillFilters(db, caller, query);
  const condition = and(...base, query.status ? eq(expressWaybills.status, query.status) : undefined);
  const [rows, [total], counts] = await Promise.all([
    db
      .select()
      .from(expressWaybills)
      .where(condition)
      .orderBy(desc(expressWaybills.id))
      .limit(query.limit)
      .offset((query.page - 1) * query.limit),
    db.select({ n: count() }).from(expressWaybills).where(condition),
    query.status
      ? Promise.resolve(null)
      : db
          .select({ status: expressWaybills.status, n: count() })
          .from(expressWaybills)
          .where(and(...base))
          .groupBy(expressWaybills.status),
  ]);
  const names = await organisationNames(db, caller.tenantId, [...new Set(rows.map((r) => r.organisationId))]);
  return {
    list: rows.map((r) => waybillForCaller(r, caller, names.get(r.organisationId) ?? '')),
    total: total?.n ?? 0,
    page: query.page,
    limit: query.limit,
    counts: counts
      ? Object.fromEntries(WAYBILL_STATUSES.map((s) => [s, counts.find((c) => c.status === s)?.n ?? 0]))
      : null,
  };
}

/** The waybill page: the waybill, its moves and the ledger rows that name it. */
export async function waybillDetailFor(db: DbOrTx, caller: Viewer, id: number) {
  const waybill = await visibleWaybill(db, caller, id);
  const [events, ledger, names] = await Promise.all([
    db
      .select()
      .from(expressWaybillEvents)
      .where(
        and(
          eq(expressWaybillEvents.tenantId, waybill.tenantId),
          eq(expressWaybillEvents.waybillId, waybill.id),
        ),
      )
      .orderBy(expressWaybillEvents.id),
    listLedger(
      db,
      waybill.tenantId,
      null,
      { line: 'express', organisationId: waybill.organisationId, reference: waybill.waybillNo },
      null,
    ),
    organisationNames(db, waybill.tenantId, [waybill.organisationId]),
  ]);
  return {
    waybill: waybillForCaller(waybill, caller, names.get(waybill.organisationId) ?? ''),
    timeline: events.map(({ tenantId: _t, waybillId: _w, action, ...e }) => ({
      ...e,
      action,
      fromStatus: e.fromStatus,
    })),
    ledger: ledger.list.map((e) => ({
      id: e.id,
      type: e.type,
      amount: formatMoney(e.amount),
      balanceAfter: formatMoney(e.balanceAfter),
      note: e.note,
      createdAt: e.createdAt,
    })),
  };
}

/** `/waybillValuation`: the waybill and the express account it is paid from. */
export async function waybillPaymentInfoFor(db: DbOrTx, caller: Viewer, id: number) {
  const waybill = await visibleWaybill(db, caller, id);
  const account = await ensureAccount(db, waybill.tenantId, waybill.organisationId, 'express');
  const names = await organisationNames(db, waybill.tenantId, [waybill.organisationId]);
  return {
    waybill: waybillForCaller(waybill, caller, names.get(waybill.organisationId) ?? ''),
    account: {
      balance: formatMoney(account.balance),
      creditLimit: formatMoney(account.creditLimit),
      frozen: formatMoney(account.frozen),
      available: formatMoney(available(account)),
      status: account.status,
    },
  };
}

export async function payVisibleWaybill(db: DbOrTx, caller: Caller, id: number) {
  const waybill = await visibleWaybill(db, caller, id);
  return { id, ...(await payWaybill(db, caller, waybill)) };
}

export async function refundVisibleWaybill(db: DbOrTx, caller: Viewer, id: number, reason: string) {
  const waybill = await visibleWaybill(db, caller, id);
  return { id, ...(await refundWaybill(db, caller, waybill, reason)) };
}

export async function transitionVisibleWaybill(
  db: DbOrTx,
  caller: Viewer,
  input: { id: number; action: Parameters<typeof transitionWaybill>[3]; note: string },
) {
  const waybill = await visibleWaybill(db, caller, input.id);
  return { id: input.id, ...(await transitionWaybill(db, caller, waybill, input.action, input.note)) };
}

/** Pays many unpaid waybills one by one; each succeeds or fails on its own. */
export async function payWaybillsFor(db: DbOrTx, caller: Caller, ids: readonly number[], language: Language) {
  const results: Record<string, string> = {};
  for (const id of new Set(ids)) {
    try {
      const { repeated } = await payVisibleWaybill(db, caller, id);
      results[id] = repeated ? translate(language, 'expressWaybill.alreadyPaid') : 'success';
    } catch (error) {
      results[id] = error instanceof AppError ? translate(language, error.key, error.params) : String(error);
    }
  }
  return results;
}

type LabelFiles = Awaited<ReturnType<typeof carrierLabelFiles>>;

/** The waybills asked, in order, once each, if the caller may print every one; the first that may not is named. */
async function printableWaybills(db: DbOrTx, caller: Viewer, ids: readonly number[]) {
  const waybills: WaybillRow[] = [];
  for (const id of new Set(ids)) {
    const waybill = await visibleWaybill(db, caller, id);
    if (waybill.status === 'label_pending')
      throw conflict('expressWaybill.labelPendingPrint', { waybillNo: waybill.waybillNo });
    if (!waybillMachine.find(waybill.status, 'print', actor(caller)))
      throw conflict('expressWaybill.notPrintable', { waybillNo: waybill.waybillNo });
    waybills.push(waybill);
  }
  return waybills;
}

/**
 * The customs papers of printable waybills as one PDF of 4 × 6 inch pages, without their labels: a
 * label printed as ZPL goes to a thermal printer, which takes no papers, and the PDF print holds them
 * already. Printing papers moves no status and counts no print. A waybill with none (it stays in its
 * country, or declares nothing) refuses the call, naming it.
 */
export async function customsPapersFor(db: DbOrTx, caller: Viewer, ids: readonly number[]) {
  const waybills = await printableWaybills(db, caller, ids);
  const without = waybills.find((w) => !needsCustomsForms(w));
  if (without) throw conflict('expressWaybill.noCustomsPapers', { waybillNo: without.waybillNo });
  const forms = await customsForms(waybills);
  const body = await joinPdfs(waybills.flatMap((w) => forms.get(w.id) ?? []));
  const name =
    waybills.length === 1 ? `customs-${waybills[0]?.waybillNo}.pdf` : `customs-${waybills.length}.pdf`;
  return { name, contentType: 'application/pdf', body };
}

/**
 * The labels of some waybills as one file: a PDF of 4 × 6 inch pages, or ZPL for thermal printers.
 * A waybill a carrier serves prints the carrier's own label, in the order asked among the others.
 */
async function renderLabels(waybills: readonly WaybillRow[], format: LabelFormat, files: LabelFiles) {
  // A thermal printer takes labels only; the customs papers come with the PDF.
  const forms = format === 'pdf' ? await customsForms(waybills) : new Map<number, Buffer>();
  if (files.size === 0 && forms.size === 0) {
    if (format === 'zpl') return { contentType: 'application/x-zpl', body: waybillZpl(waybills) };
    return { contentType: 'application/pdf', body: await waybillLabels(waybills) };
  }
  if (format === 'zpl')
    return {
      contentType: 'application/x-zpl',
      body: waybills
        .map((w) => files.get(w.id)?.bytes.toString('latin1').trimEnd().concat('\n') ?? waybillZpl([w]))
        .join(''),
    };
  // Each waybill's label, then its customs papers, in the order asked.
  const pages = await Promise.all(
    waybills.map(async (w) => {
      const label = files.get(w.id)?.bytes ?? (await waybillLabels([w]));
      const papers = forms.get(w.id);
      return papers ? [label, papers] : [label];
    }),
  );
  return { contentType: 'application/pdf', body: await joinPdfs(pages.flat()) };
}

/**
 * Labels of paid waybills the caller may see, one file (PDF or ZPL) for all of them in the order asked;
 * printing moves each from to be printed to printed and counts the prints. An unpaid, voided or unknown
 * waybill refuses the whole call, naming it, so a label is never printed for a parcel not paid for; so
 * does a carrier's label still being issued, or one the carrier drew in the other format.
 */
export async function printWaybillsFor(
  db: DbOrTx,
  caller: Viewer,
  ids: readonly number[],
  format: LabelFormat,
  store: UploadStore,
) {
  const waybills = await printableWaybills(db, caller, ids);
  const files = await carrierLabelFiles(store, waybills);
  for (const waybill of waybills) {
    const file = files.get(waybill.id);
    if (file && file.format !== format)
      throw conflict('expressWaybill.carrierLabelFormat', {
        waybillNo: waybill.waybillNo,
        format: file.format.toUpperCase(),
      });
  }
  const labels = await renderLabels(waybills, format, files);
  await db.transaction(async (tx) => {
    for (const waybill of waybills) {
      const to = waybill.status === 'to_be_printed' ? 'printed' : waybill.status;
      await tx
        .update(expressWaybills)
        .set({ status: to, printCount: sql`${expressWaybills.printCount} + 1`, printedAt: new Date() })
        .where(and(eq(expressWaybills.tenantId, waybill.tenantId), eq(expressWaybills.id, waybill.id)));
      await addEvent(tx, waybill, 'print', waybill.status, to, caller.id);
    }
  });
  const name =
    waybills.length === 1
      ? `label-${waybills[0]?.waybillNo}.${format}`
      : `labels-${waybills.length}.${format}`;
  return { name, ...labels };
}
