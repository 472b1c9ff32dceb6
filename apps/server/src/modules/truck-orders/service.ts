import { randomInt } from 'node:crypto';
import type { Language } from '@freight/contracts/api';
import { translate } from '@freight/contracts/messages';
import { formatMoney } from '@freight/contracts/money';
import {
  ADDRESS_EDITABLE,
  type OrderAction,
  type OrderStatus,
  orderMachine,
  REASONED_ACTIONS,
  REFUNDING_ACTIONS,
} from '@freight/contracts/truck-orders';
import type { PriceLevel, QuoteResult } from '@freight/contracts/truck-quotes';
import type { Shipment, ShipmentAddress } from '@freight/contracts/truck-shipment';
import { and, count, eq, gte, inArray, isNotNull, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { idsByNumber, recordSet } from '../../lib/bulk-insert.ts';
import { AppError, badField, conflict, forbidden, notFound } from '../../lib/errors.ts';
import { available, ensureAccount, listLedger, moveMoney, payFromBalance } from '../accounts/service.ts';
import { BUILTIN_PROVIDER } from '../carriers/provider.ts';
import { canSeeOrganisation, organisationScope, visibleOrganisationIds } from '../customers/service.ts';
import { emitStatusEvent } from '../integrations/webhooks.ts';
import { NoticeOrderType, noticeUser } from '../notices/service.ts';
import { nextSerial, nextSerials } from '../numbering/service.ts';
import { type ReportFact, recordSale, registerSalesSource, type SaleMove } from '../reports/service.ts';
import { truckCarriers } from '../truck-products/carriers.ts';
import { markQuoteBooked, visibleQuote } from '../truck-quotes/service.ts';
import { bookableResult, markTaskBooked } from '../truck-quotes/tasks.ts';
import { claimUpload, recordOf } from '../uploads/service.ts';
import { sendHandoffJobs } from './handoff-queue.ts';
import { orderForCaller } from './list.ts';
import { truckOrderEvents, truckOrders } from './schema.ts';
import { type Caller, isStaff, type OrderViewer } from './viewer.ts';

export type OrderRow = typeof truckOrders.$inferSelect;

/** Letters and digits that cannot be misread for one another when spoken or typed. */
const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
/** A short code the shipper gives to look an order up. */
const queryCode = () =>
  Array.from({ length: 8 }, () => CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]).join('');
/** The codes the driver asks for at pickup and at delivery. */
const sixDigits = () => String(randomInt(1_000_000)).padStart(6, '0');

const place = (a: ShipmentAddress) => `${a.city}, ${a.state} ${a.zipcode}`;

export interface BookInput {
  tenantId: number;
  organisationId: number;
  userId: number;
  quoteId: number | null;
  taskId: number | null;
  shipment: Shipment;
  result: Extract<QuoteResult, { ok: true }>;
  customerOrderNo: string;
  orderType: 'regular' | 'return';
  shippingNote: string;
  receivingNote: string;
  extraNote: string;
}

/** The customer's level of a price chain, and the branch's and agent's where the chain has them. */
function levelPrices(levels: readonly PriceLevel[]) {
  return {
    customer: levels[levels.length - 1] as PriceLevel,
    branchPrice: totalOf(levels, 'branch'),
    agentPrice: totalOf(levels, 'agent'),
    cost: BigInt(levels[0]?.total ?? 0),
  };
}

/** A level's total, or null when the chain has none of that type (a function of its own: see `chargeAt`). */
function totalOf(levels: readonly PriceLevel[], type: PriceLevel['type']): bigint | null {
  const level = levels.find((l) => l.type === type);
  return level ? BigInt(level.total) : null;
}

function orderValues(input: BookInput, orderNo: string) {
  const { customer, branchPrice, agentPrice, cost } = levelPrices(input.result.levels);
  return {
    tenantId: input.tenantId,
    orderNo,
    customerOrderNo: input.customerOrderNo,
    queryCode: queryCode(),
    organisationId: input.organisationId,
    userId: input.userId,
    quoteId: input.quoteId,
    taskId: input.taskId,
    productId: input.result.productId || null,
    carrier: input.result.carrier,
    mode: input.shipment.mode,
    status: 'unpaid' as const,
    orderType: input.orderType,
    shipment: input.shipment,
    quote: input.result,
    levels: input.result.levels,
    total: BigInt(customer.total),
    freight: BigInt(customer.linehaul),
    fuel: BigInt(customer.fuel),
    surcharge: BigInt(customer.accessorials.reduce((s, a) => s + a.fee, 0)),
    premium: BigInt(customer.insurance),
    insuredAmount: BigInt(input.result.breakdown.insurance?.insuredValue ?? 0),
    costPrice: cost,
    branchPrice,
    agentPrice,
    origin: place(input.shipment.pickup),
    destination: place(input.shipment.delivery),
    transitDaysMin: input.result.transitDaysMin,
    transitDaysMax: input.result.transitDaysMax,
    pickupCode: sixDigits(),
    deliveryCode: sixDigits(),
    shippingNote: input.shippingNote,
    receivingNote: input.receivingNote,
    extraNote: input.extraNote,
  };
}

/** The carrier provider that books a result: its product's, or the tenant's own for a manual price. */
export function carrierOf(result: Pick<QuoteResult, 'provider'>) {
  const provider = truckCarriers.find(result.provider ?? BUILTIN_PROVIDER);
  // The product's provider left this release since the quote was priced.
  if (!provider) throw conflict('quote.productUnavailable');
  return provider;
}

/** An order handed to its carrier, not yet written: its number and what the carrier answered. */
export interface CarrierBooked {
  orderNo: string;
  reference: string | null;
}

/**
 * Takes the order's number and hands the order to its carrier, before any transaction opens: a
 * carrier's call never holds a transaction (and its locks) open. The caller writes the order with
 * `recordOrder`, or tells the carrier it is off with `unbookAtCarrier` if that fails.
 */
export async function bookAtCarrier(db: DbOrTx, input: BookInput): Promise<CarrierBooked> {
  const orderNo = await nextSerial(db, input.tenantId, 'TK');
  const { reference } = await carrierOf(input.result).book(db, {
    tenantId: input.tenantId,
    orderNo,
    productId: input.result.productId || null,
    shipment: input.shipment,
  });
  return { orderNo, reference };
}

/** An order booked at its carrier that was never written: the carrier is told it is off. */
export async function unbookAtCarrier(db: DbOrTx, input: BookInput, booked: CarrierBooked) {
  await carrierOf(input.result).cancel(db, {
    tenantId: input.tenantId,
    orderNo: booked.orderNo,
    productId: input.result.productId || null,
    reference: booked.reference,
  });
}

/** Writes an unpaid order booked at its carrier; the shipment and the prices are snapshots. */
export async function recordOrder(db: DbOrTx, input: BookInput, booked: CarrierBooked): Promise<OrderRow> {
  const [row] = await db
    .insert(truckOrders)
    .values({
      ...orderValues(input, booked.orderNo),
      ...(booked.reference === null ? {} : { carrierInfo: booked.reference }),
    })
    .returning();
  const order = row as OrderRow;
  await addEvent(db, order, 'book', null, 'unpaid', input.userId, '');
  return order;
}

/** Orders per statement of a batch: one JSON parameter each, small enough to hold in memory twice. */
const BATCH_CHUNK = 1_000;
const BATCH_FIRST_CHUNK = 200;

/**
 * Books many unpaid orders in the caller's transaction: one range of order numbers, and one statement
 * per chunk that writes the orders and their timeline rows together. Either all of them land or, with
 * the transaction, none. An order of a carrier's product is written pending with its handoff job
 * (handoff-queue.ts): no carrier is called while the transaction is open. Answers the orders in the
 * order of `inputs`.
 */
export async function bookOrders(db: DbOrTx, tenantId: number, inputs: BookInput[], note: string) {
  const booked = await bookOrdersAsMade(
    db,
    tenantId,
    inputs.length,
    async (from, to) => inputs.slice(from, to),
    note,
  );
  return booked ?? [];
}

/**
 * `bookOrders` for inputs made a chunk at a time: `inputsOf` makes a chunk's inputs (a batch file's
 * rows checked and priced) while the chunk before is written, so the two overlap. A chunk answered as
 * null had a row that failed: nothing more is written, the others are still made (so every failing row
 * is found), and the answer is null for the caller to roll its transaction back.
 */
export async function bookOrdersAsMade(
  db: DbOrTx,
  tenantId: number,
  count: number,
  inputsOf: (from: number, to: number) => Promise<BookInput[] | null>,
  note: string,
): Promise<{ id: number; orderNo: string }[] | null> {
  if (count === 0) return [];
  const numbers = await nextSerials(db, tenantId, 'TK', count);
  // The carrier orders' numbers and their bookers, for their handoff jobs.
  const handoffs = new Map<string, number>();
  let failed = false;
  const ids = await idsByNumber(
    db,
    count,
    BATCH_CHUNK,
    async (from, to) => {
      const inputs = await inputsOf(from, to);
      // After a failing chunk nothing is written; the rest are still made, to find every failing row.
      if (!inputs || failed) {
        failed = true;
        return sql`select 1 where false`;
      }
      const values: (typeof truckOrders.$inferInsert)[] = [];
      for (let i = 0; i < inputs.length; i++) {
        const input = inputs[i] as BookInput;
        const orderNo = numbers[from + i] as string;
        // The tenant's own tables need no handoff; a carrier's product is handed over after commit.
        const carrierPending = carrierOf(input.result).name !== BUILTIN_PROVIDER;
        if (carrierPending) handoffs.set(orderNo, input.userId);
        values.push({ ...orderValues(input, orderNo), carrierPending });
      }
      const orders = recordSet(truckOrders, values);
      return sql`
        with added as (
          insert into ${truckOrders} (${orders.columns}) select ${orders.values} from ${orders.source}
          returning tenant_id, id, order_no, user_id
        ), timeline as (
          insert into ${truckOrderEvents} (tenant_id, order_id, action, from_status, to_status, actor_id, note)
          select tenant_id, id, 'book', null, 'unpaid', user_id, ${note}::text from added
        )
        select id, order_no from added`;
    },
    'order_no',
    // A small first chunk: its rows are priced before anything is written, the rest while writing.
    BATCH_FIRST_CHUNK,
  );
  if (failed) return null;
  await sendHandoffJobs(
    db,
    tenantId,
    [...handoffs].map(([orderNo, userId]) => ({ id: ids.get(orderNo) as number, userId })),
  );
  return numbers.map((orderNo) => ({ id: ids.get(orderNo) as number, orderNo }));
}

async function addEvent(
  db: DbOrTx,
  order: Pick<OrderRow, 'tenantId' | 'id' | 'organisationId' | 'orderNo'>,
  action: OrderAction | 'book' | 'edit_address' | 'upload_file',
  from: OrderStatus | null,
  to: OrderStatus | null,
  actorId: number | null,
  note: string,
) {
  await db.insert(truckOrderEvents).values({
    tenantId: order.tenantId,
    orderId: order.id,
    action,
    fromStatus: from,
    toStatus: to,
    actorId,
    note,
  });
  if (from && to && from !== to)
    await emitStatusEvent(db, { ...order, kind: 'order.status', sn: order.orderNo, from, status: to });
}

export async function findOrder(db: DbOrTx, tenantId: number, id: number) {
  const [row] = await db
    .select()
    .from(truckOrders)
    .where(and(eq(truckOrders.tenantId, tenantId), eq(truckOrders.id, id)))
    .limit(1);
  return row ?? null;
}

/** An order the caller may see (its organisation's or one below; staff see all), or 404. */
export async function visibleOrder(db: DbOrTx, caller: Caller, id: number): Promise<OrderRow> {
  const order = await findOrder(db, caller.tenantId, id);
  if (!order) throw notFound();
  const scope = await organisationScope(db, caller);
  if (!(await canSeeOrganisation(db, scope, order.organisationId))) throw notFound();
  return order;
}

/** An order by its platform number that the caller may see, or null (unknown and out of sight alike). */
export async function visibleOrderByNo(
  db: DbOrTx,
  caller: Caller,
  orderNo: string,
): Promise<OrderRow | null> {
  const [order] = await db
    .select()
    .from(truckOrders)
    .where(and(eq(truckOrders.tenantId, caller.tenantId), eq(truckOrders.orderNo, orderNo.toUpperCase())))
    .limit(1);
  if (!order) return null;
  const scope = await organisationScope(db, caller);
  return (await canSeeOrganisation(db, scope, order.organisationId)) ? order : null;
}

/**
 * The one way an order is paid, whichever page asks (booking with `pay`, the payment page, the
 * `pay` action, paying many at once): from its organisation's truck account, the status change,
 * the debit and its ledger row commit together or not at all. Paying twice, or twice at the same
 * moment, charges once and says the second was a repeat; without the funds the order stays unpaid
 * and the answer says what is available.
 */
export async function payOrder(
  db: DbOrTx,
  caller: Caller,
  order: OrderRow,
): Promise<{ repeated: boolean; status: OrderStatus }> {
  const transition = orderMachine.find(order.status, 'pay', isStaff(caller) ? 'staff' : 'owner');
  if (!transition) {
    if (order.paidAt) return { repeated: true, status: order.status };
    throw conflict('order.transitionRefused');
  }
  // Until its carrier accepts it, an order may still be cancelled for the carrier's refusal.
  if (order.carrierPending) throw conflict('order.carrierPending', { orderNo: order.orderNo });
  return payFromBalance<{ repeated: boolean; status: OrderStatus }>(db, {
    owner: { ...order, line: 'truck' },
    amount: order.total,
    ledger: {
      type: 'order_payment',
      refType: 'truck_order',
      refId: order.orderNo,
      operatorId: caller.id,
      note: order.orderNo,
      idempotencyKey: `truck-order-pay:${order.id}`,
    },
    refusal: { key: 'order.insufficientFunds', params: { total: formatMoney(order.total) } },
    claim: async (tx) => {
      const moved = await tx
        .update(truckOrders)
        .set({ status: transition.to, paid: order.total, paidAt: new Date() })
        .where(
          and(
            eq(truckOrders.tenantId, order.tenantId),
            eq(truckOrders.id, order.id),
            eq(truckOrders.status, 'unpaid'),
            eq(truckOrders.carrierPending, false),
          ),
        )
        .returning({ id: truckOrders.id });
      return moved.length > 0;
    },
    missed: async (tx) => {
      // Someone else moved it since it was read: paid by them is a repeat, anything else a refusal.
      const now = await findOrder(tx, order.tenantId, order.id);
      if (now?.paidAt) return { repeated: true, status: now.status };
      if (now?.carrierPending) throw conflict('order.carrierPending', { orderNo: order.orderNo });
      throw conflict('order.transitionRefused');
    },
    settle: async (tx) => {
      await recordSale(tx, saleOf(order, 1n, order.total));
      await addEvent(tx, order, 'pay', 'unpaid', transition.to, caller.id, formatMoney(order.total));
      return { repeated: false, status: transition.to };
    },
  });
}

/** An order's money as the reports count it: `sign` 1 as it is paid, -1 as it is refunded. */
function saleOf(order: OrderRow, sign: 1n | -1n, money: bigint): SaleMove {
  return {
    tenantId: order.tenantId,
    line: 'truck',
    organisationId: order.organisationId,
    productId: order.productId,
    at: new Date(),
    orders: Number(sign),
    revenue: sign * money,
    cost: sign * order.costPrice,
    branchPrice: sign * (order.branchPrice ?? 0n),
    agentPrice: sign * (order.agentPrice ?? 0n),
  };
}

/**
 * A tenant's truck money by day, organisation and product, from the orders themselves: payments on
 * the day they were paid, refunds (a paid order cancelled or rejected) on the day of that move. The
 * reports rebuild their aggregates from it.
 */
export async function truckReportFacts(db: DbOrTx, tenantId: number): Promise<ReportFact[]> {
  const o = truckOrders;
  const sums = (sign: '' | '-') => ({
    organisationId: o.organisationId,
    productId: sql<number>`coalesce(${o.productId}, 0)`.mapWith(Number),
    orders: sql<string>`(${sql.raw(sign)}count(*))::text`,
    revenue: sql<string>`(${sql.raw(sign)}sum(${o.total}))::text`,
    cost: sql<string>`(${sql.raw(sign)}sum(${o.costPrice}))::text`,
    branchPrice: sql<string>`(${sql.raw(sign)}coalesce(sum(${o.branchPrice}), 0))::text`,
    agentPrice: sql<string>`(${sql.raw(sign)}coalesce(sum(${o.agentPrice}), 0))::text`,
  });
  const utc = (column: SQL | typeof o.paidAt) =>
    sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD')`;
  const [paid, refunded] = await Promise.all([
    db
      .select({ day: utc(o.paidAt), ...sums('') })
      .from(o)
      .where(and(eq(o.tenantId, tenantId), isNotNull(o.paidAt)))
      .groupBy(sql`1`, o.organisationId, sql`3`),
    db
      .select({ day: utc(sql`${truckOrderEvents.createdAt}`), ...sums('-') })
      .from(o)
      .innerJoin(
        truckOrderEvents,
        and(
          eq(truckOrderEvents.tenantId, o.tenantId),
          eq(truckOrderEvents.orderId, o.id),
          inArray(truckOrderEvents.action, [...REFUNDING_ACTIONS]),
        ),
      )
      .where(and(eq(o.tenantId, tenantId), isNotNull(o.paidAt)))
      .groupBy(sql`1`, o.organisationId, sql`3`),
  ]);
  return [...paid, ...refunded];
}

// Registered as the module loads: the reports rebuild from it without importing this module.
registerSalesSource('truck-orders', ['truck'], (db, tenantId) => truckReportFacts(db, tenantId));

/** Pays one order the caller may see, by id: the payment page's call. */
export async function payVisibleOrder(db: DbOrTx, caller: Caller, id: number) {
  const order = await visibleOrder(db, caller, id);
  return { order, ...(await payOrder(db, caller, order)) };
}

/** What each id of a bulk call came to: `success`, or the message of why not, in the caller's language. */
type BulkResults = Record<string, string>;

const bulkMessage = (language: Language, error: unknown) =>
  error instanceof AppError ? translate(language, error.key, error.params) : String(error);

/** Pays many unpaid orders (a batch import's, say) one by one; each succeeds or fails on its own. */
export async function payOrders(
  db: DbOrTx,
  caller: Caller,
  ids: readonly number[],
  language: Language,
): Promise<BulkResults> {
  const results: BulkResults = {};
  for (const id of new Set(ids)) {
    try {
      const { repeated } = await payVisibleOrder(db, caller, id);
      results[id] = repeated ? translate(language, 'order.alreadyPaid') : 'success';
    } catch (error) {
      results[id] = bulkMessage(language, error);
    }
  }
  return results;
}

/** Staff approve or reject many orders at once; each succeeds or fails on its own. */
export async function reviewOrders(
  db: DbOrTx,
  caller: Caller,
  input: { ids: readonly number[]; action: 'approve' | 'reject'; reason: string },
  language: Language,
): Promise<BulkResults> {
  if (!isStaff(caller)) throw forbidden();
  const results: BulkResults = {};
  for (const id of new Set(input.ids)) {
    try {
      await transitionOrder(db, caller, await visibleOrder(db, caller, id), input.action, input.reason);
      results[id] = 'success';
    } catch (error) {
      results[id] = bulkMessage(language, error);
    }
  }
  return results;
}

/** Moves an order the caller may see, by id: the order page's action buttons. */
export async function transitionVisibleOrder(
  db: DbOrTx,
  caller: Caller,
  input: { id: number; action: OrderAction; reason: string; carrierInfo?: string },
) {
  const order = await visibleOrder(db, caller, input.id);
  const status = await transitionOrder(db, caller, order, input.action, input.reason, input.carrierInfo);
  return { order, status };
}

export interface QuoteBooking {
  quoteId: number;
  productId?: number;
  taskId?: number;
  pay: boolean;
  customerOrderNo: string;
  orderType: 'regular' | 'return';
  shippingNote: string;
  receivingNote: string;
  extraNote: string;
}

/**
 * Books a priced product of a quote (or an accepted manual quotation) and, unless told not to, pays
 * it at once. The quote (or task) is taken by the booking once: a double click books one order.
 * The order is booked either way; without the funds it waits, unpaid, to be paid or cancelled.
 */
export async function bookQuote(db: DbOrTx, caller: Caller, input: QuoteBooking, language: Language) {
  const { quoteId, productId, taskId, pay, ...details } = input;
  const quote = await visibleQuote(db, caller, quoteId);
  const { result, task } = await bookableResult(db, caller, quote, { productId, taskId });
  const booking: BookInput = {
    tenantId: caller.tenantId,
    organisationId: quote.organisationId,
    userId: caller.id,
    quoteId: quote.id,
    taskId: task?.id ?? null,
    shipment: quote.shipment,
    result,
    ...details,
  };
  const booked = await bookAtCarrier(db, booking);
  const order = await db
    .transaction(async (tx) => {
      if (!(await markQuoteBooked(tx, caller.tenantId, quote.id))) throw conflict('quote.booked');
      if (task && !(await markTaskBooked(tx, caller, task))) throw conflict('quote.taskNotAccepted');
      return recordOrder(tx, booking, booked);
    })
    .catch(async (error: unknown) => {
      // Not written (a second click took the quote first): the carrier's booking must not stay.
      await unbookAtCarrier(db, booking, booked);
      throw error;
    });
  let status = order.status;
  let payment: { ok: boolean; message: string } | null = null;
  if (pay) {
    try {
      status = (await payOrder(db, caller, order)).status;
      payment = { ok: true, message: translate(language, 'order.paid') };
    } catch (error) {
      if (!(error instanceof AppError) || error.key !== 'order.insufficientFunds') throw error;
      payment = { ok: false, message: translate(language, error.key, error.params) };
    }
  }
  return { order, status, payment };
}

/**
 * Moves an order by the status machine. Rejecting or cancelling a paid order refunds what was paid,
 * in the same transaction; the customer gets a notice of a rejection, a cancellation by staff and a
 * delivery.
 */
export async function transitionOrder(
  db: DbOrTx,
  caller: Caller,
  order: OrderRow,
  action: OrderAction,
  reason: string,
  carrierInfo?: string,
): Promise<OrderStatus> {
  if (action === 'pay') return (await payOrder(db, caller, order)).status;
  const transition = orderMachine.find(order.status, action, isStaff(caller) ? 'staff' : 'owner');
  if (!transition) throw conflict('order.transitionRefused');
  if (REASONED_ACTIONS.includes(action) && !reason) throw badField('reason', 'order.reasonRequired');
  const refund = REFUNDING_ACTIONS.includes(action) && order.paid > 0n ? order.paid : 0n;
  if (action === 'cancel' || action === 'reject') await carrierOf(order.quote).cancel(db, carrierRef(order));
  return db.transaction(async (tx) => {
    const moved = await tx
      .update(truckOrders)
      .set({
        status: transition.to,
        ...(refund > 0n ? { paid: 0n } : {}),
        ...(action === 'reject' ? { rejectReason: reason } : {}),
        ...(carrierInfo !== undefined ? { carrierInfo } : {}),
      })
      .where(
        and(
          eq(truckOrders.tenantId, order.tenantId),
          eq(truckOrders.id, order.id),
          eq(truckOrders.status, order.status),
        ),
      )
      .returning({ id: truckOrders.id });
    if (moved.length === 0) throw conflict('order.transitionRefused');
    if (refund > 0n) {
      const account = await ensureAccount(tx, order.tenantId, order.organisationId, 'truck');
      await moveMoney(tx, {
        tenantId: order.tenantId,
        accountId: account.id,
        type: 'refund',
        amount: refund,
        refType: 'truck_order',
        refId: order.orderNo,
        operatorId: caller.id,
        note: reason || order.orderNo,
        idempotencyKey: `truck-order-refund:${order.id}`,
      });
    }
    // A paid order given back leaves the reports as it came in, on the day of the refund.
    if (REFUNDING_ACTIONS.includes(action) && order.paidAt) await recordSale(tx, saleOf(order, -1n, refund));
    await addEvent(tx, order, action, order.status, transition.to, caller.id, reason);
    if (['reject', 'cancel', 'deliver'].includes(action) && caller.id !== order.userId)
      await noticeOwner(tx, order, transition.to, reason, refund);
    return transition.to;
  });
}

/**
 * An order its carrier would not accept (its handoff failed for good), cancelled by the portal: it was
 * never paid (paying waits for the carrier), so no money moves; its booker is told why.
 */
export async function cancelRefusedByCarrier(db: DbOrTx, order: OrderRow) {
  await db.transaction(async (tx) => {
    const moved = await tx
      .update(truckOrders)
      .set({ status: 'cancelled', carrierPending: false })
      .where(
        and(
          eq(truckOrders.tenantId, order.tenantId),
          eq(truckOrders.id, order.id),
          eq(truckOrders.status, 'unpaid'),
          eq(truckOrders.carrierPending, true),
        ),
      )
      .returning({ id: truckOrders.id });
    if (moved.length === 0) return;
    await addEvent(tx, order, 'cancel', 'unpaid', 'cancelled', null, '');
    await noticeUser(tx, {
      tenantId: order.tenantId,
      userId: order.userId,
      title: 'order.noticeTitle',
      content: { key: 'order.noticeCarrierRefused', params: { orderNo: order.orderNo } },
      orderType: NoticeOrderType.Order,
      orderSn: order.orderNo,
    });
  });
}

async function noticeOwner(db: DbOrTx, order: OrderRow, status: OrderStatus, reason: string, refund: bigint) {
  await noticeUser(db, {
    tenantId: order.tenantId,
    userId: order.userId,
    title: 'order.noticeTitle',
    content: {
      key: refund > 0n ? 'order.noticeRefunded' : 'order.noticeStatus',
      params: {
        orderNo: order.orderNo,
        status: { key: `orderStatus.${status}` },
        reason,
        amount: formatMoney(refund),
      },
    },
    orderType: NoticeOrderType.Order,
    orderSn: order.orderNo,
  });
}

/** New addresses for an order whose goods are not yet picked up. */
export async function editAddresses(
  db: DbOrTx,
  caller: Caller,
  order: OrderRow,
  change: { pickup?: ShipmentAddress; delivery?: ShipmentAddress },
) {
  if (!ADDRESS_EDITABLE.includes(order.status)) throw conflict('order.addressLocked');
  const pickup = change.pickup ?? order.shipment.pickup;
  const delivery = change.delivery ?? order.shipment.delivery;
  // The price was for these ZIP codes; moving either end needs a new quote.
  if (pickup.zipcode !== order.shipment.pickup.zipcode) throw badField('pickup.zipcode', 'quote.notPriced');
  if (delivery.zipcode !== order.shipment.delivery.zipcode)
    throw badField('delivery.zipcode', 'quote.notPriced');
  await db.transaction(async (tx) => {
    const moved = await tx
      .update(truckOrders)
      .set({
        shipment: { ...order.shipment, pickup, delivery },
        origin: place(pickup),
        destination: place(delivery),
      })
      .where(
        and(
          eq(truckOrders.tenantId, order.tenantId),
          eq(truckOrders.id, order.id),
          inArray(truckOrders.status, [...ADDRESS_EDITABLE]),
        ),
      )
      .returning({ id: truckOrders.id });
    if (moved.length === 0) throw conflict('order.addressLocked');
    await addEvent(tx, order, 'edit_address', order.status, order.status, caller.id, '');
  });
}

export async function attachOrderFile(db: DbOrTx, caller: Caller, order: OrderRow, url: string) {
  await db.transaction(async (tx) => {
    await claimUpload(tx, order.tenantId, url, recordOf('truck-order', order.id), {
      field: 'url',
      by: caller.id,
    });
    await tx
      .update(truckOrders)
      .set({ orderFileUrl: url })
      .where(and(eq(truckOrders.tenantId, order.tenantId), eq(truckOrders.id, order.id)));
    await addEvent(tx, order, 'upload_file', order.status, order.status, caller.id, url);
  });
}

export const carrierRef = (order: OrderRow) => ({
  tenantId: order.tenantId,
  orderNo: order.orderNo,
  productId: order.productId,
  reference: order.carrierInfo || null,
});

/**
 * Where an order is: its own timeline (every move the tenant made) and what its carrier reports
 * beside it. The tenant's own tables report nothing more than the timeline.
 */
export async function trackOrder(db: DbOrTx, order: OrderRow) {
  const [timeline, carrierEvents] = await Promise.all([
    orderTimeline(db, order.tenantId, order.id),
    carrierOf(order.quote).track(db, carrierRef(order)),
  ]);
  return { timeline, carrierEvents };
}

/** New addresses for a visible order whose goods are not yet picked up. */
export async function editVisibleAddresses(
  db: DbOrTx,
  caller: Caller,
  change: { id: number; pickup?: ShipmentAddress; delivery?: ShipmentAddress },
) {
  const order = await visibleOrder(db, caller, change.id);
  await editAddresses(db, caller, order, change);
  return order;
}

/** Attaches a file the caller uploaded (the upload call returns its URL) to a visible order. */
export async function attachUploadedFile(db: DbOrTx, caller: Caller, id: number, url: string) {
  const order = await visibleOrder(db, caller, id);
  await attachOrderFile(db, caller, order, url);
  return order;
}

/** The payment page: the order and the truck account that pays it. */
export async function paymentInfo(db: DbOrTx, caller: OrderViewer, id: number) {
  const order = await visibleOrder(db, caller, id);
  const account = await ensureAccount(db, order.tenantId, order.organisationId, 'truck');
  return {
    order: orderForCaller(order, caller),
    account: {
      balance: formatMoney(account.balance),
      creditLimit: formatMoney(account.creditLimit),
      frozen: formatMoney(account.frozen),
      available: formatMoney(available(account)),
      status: account.status,
    },
  };
}

export async function orderTimeline(db: DbOrTx, tenantId: number, orderId: number) {
  return db
    .select()
    .from(truckOrderEvents)
    .where(and(eq(truckOrderEvents.tenantId, tenantId), eq(truckOrderEvents.orderId, orderId)))
    .orderBy(truckOrderEvents.id);
}

/**
 * The dashboards' figures over the caller's visible orders: per day and status since `since` (orders
 * and the amount paid on them), and the orders of every status now.
 */
export async function orderStats(db: DbOrTx, caller: Caller, since: Date) {
  const scope = await organisationScope(db, caller);
  const visible = and(
    eq(truckOrders.tenantId, caller.tenantId),
    scope.kind === 'subtree'
      ? inArray(truckOrders.organisationId, visibleOrganisationIds(db, scope))
      : undefined,
  );
  const [days, statuses] = await Promise.all([
    db
      .select({
        day: sql<string>`to_char(${truckOrders.createdAt} at time zone 'UTC', 'YYYY-MM-DD')`,
        status: truckOrders.status,
        n: count(),
        paid: sql<string>`coalesce(sum(${truckOrders.paid}), 0)::text`,
      })
      .from(truckOrders)
      .where(and(visible, gte(truckOrders.createdAt, since)))
      .groupBy(sql`1`, truckOrders.status),
    db
      .select({ status: truckOrders.status, n: count() })
      .from(truckOrders)
      .where(visible)
      .groupBy(truckOrders.status),
  ]);
  return { days, statuses };
}

/** The order page: the order as the caller may see it, where it is, and the ledger rows that name it. */
export async function orderDetail(db: DbOrTx, caller: OrderViewer, id: number) {
  const order = await visibleOrder(db, caller, id);
  const [{ timeline, carrierEvents }, ledger] = await Promise.all([
    trackOrder(db, order),
    ledgerOfOrder(db, order),
  ]);
  return {
    order: orderForCaller(order, caller),
    timeline: timeline.map(({ tenantId: _t, ...e }) => e),
    carrierEvents,
    ledger,
  };
}

/** The ledger rows that name this order: its payment, refunds, surcharges. */
export async function ledgerOfOrder(db: DbOrTx, order: OrderRow) {
  const { list } = await listLedger(
    db,
    order.tenantId,
    null,
    { line: 'truck', organisationId: order.organisationId, reference: order.orderNo },
    null,
  );
  return list.map((e) => ({
    ...e,
    amount: formatMoney(e.amount),
    balanceAfter: formatMoney(e.balanceAfter),
  }));
}
