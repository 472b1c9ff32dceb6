import type { BusinessLine } from '@freight/contracts/accounts';
import type { Language } from '@freight/contracts/api';
import { UNSHIPPED } from '@freight/contracts/express-waybills';
import { type MessageKey, translate } from '@freight/contracts/messages';
import { formatMoney, parseMoney } from '@freight/contracts/money';
import { orderMachine, REFUNDING_ACTIONS } from '@freight/contracts/truck-orders';
import {
  type ConsumptionType,
  type TransactionItem,
  WORK_ORDER_OPEN,
  WORK_ORDER_PAGES,
  WORK_ORDER_RESOLVE_KEY,
  type WorkOrderAction,
  type WorkOrderActor,
  type WorkOrderCategory,
  type WorkOrderListQuery,
  type WorkOrderStatus,
  type workOrderActionBody,
  workOrderMachine,
  type workOrderMessageBody,
  type workOrderSaveBody,
} from '@freight/contracts/work-orders';
import { and, asc, count, desc, eq, gt, inArray, isNotNull, lt, ne, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { DbOrTx } from '../../db/client.ts';
import { badField, conflict, forbidden, notFound } from '../../lib/errors.ts';
import { dayRange, numbersStartWith } from '../../lib/filters.ts';
import { cappedCount, keysetPages } from '../../lib/keyset.ts';
import type { RequestUser } from '../../plugins/context.ts';
import { debitOrRefuse, ensureAccount, moveMoney, netChargedFor } from '../accounts/service.ts';
import { usersByIds } from '../auth/users.ts';
import {
  billNumbers,
  findBill,
  findLineOrder,
  LINE_WORDS,
  type LineOrder,
  moveBill,
  visibleLineOrderByNo,
} from '../bounce-bills/service.ts';
import {
  canSeeOrganisation,
  organisationNames,
  organisationScope,
  visibleOrganisationIds,
} from '../customers/service.ts';
import { NoticeOrderType, noticeUser } from '../notices/service.ts';
import { nextSerial } from '../numbering/service.ts';
import { type ReportFact, recordSale, registerSalesSource } from '../reports/service.ts';
import { claimUploads, recordOf, registerRecordAccess } from '../uploads/service.ts';
import { workOrderEvents, workOrderMessages, workOrders } from './schema.ts';

export type WorkOrderRow = typeof workOrders.$inferSelect;
type Caller = Pick<RequestUser, 'id' | 'tenantId' | 'identity' | 'organisationId'>;
type Viewer = Caller & Pick<RequestUser, 'grants'>;

/** The caller sees a line's work orders when one of that line's work-order pages is in its menu. */
export const seesWorkOrdersOf = (viewer: Pick<RequestUser, 'grants'>, line: BusinessLine) =>
  WORK_ORDER_PAGES[line].some((page) => viewer.grants.has(page));

/** Work order numbers: `WO` + date + serial on truck, `EWO` on express, so a number tells its line. */
const WORK_ORDER_PREFIX: Record<BusinessLine, string> = { truck: 'WO', express: 'EWO' };

/** The words of a line's refusals and notices. */
const WORDS = {
  truck: {
    billMismatch: 'workOrder.billMismatch',
    refundTooLarge: 'workOrder.refundTooLarge',
    refundWhileVoidable: 'workOrder.refundWhileCancellable',
    insufficientFunds: 'workOrder.insufficientFunds',
    noticeStatus: 'workOrder.noticeStatus',
    noticeMoney: 'workOrder.noticeMoney',
  },
  express: {
    billMismatch: 'workOrder.billMismatchExpress',
    refundTooLarge: 'workOrder.refundTooLargeExpress',
    refundWhileVoidable: 'workOrder.refundWhileVoidable',
    insufficientFunds: 'workOrder.insufficientFundsExpress',
    noticeStatus: 'workOrder.noticeStatusExpress',
    noticeMoney: 'workOrder.noticeMoneyExpress',
  },
} as const satisfies Record<BusinessLine, Record<string, MessageKey>>;

/**
 * The order can still be cancelled (truck) or its waybill voided (express, while unshipped) with
 * its whole payment back: a partial refund first would let both happen.
 */
function voidableWithRefund(order: LineOrder): boolean {
  if (order.paid <= 0n) return false;
  return order.line === 'express'
    ? UNSHIPPED.includes(order.status)
    : orderMachine.actions(order.status, 'staff').some((a) => REFUNDING_ACTIONS.includes(a));
}

export const actorOf = (caller: Pick<RequestUser, 'identity'>): WorkOrderActor =>
  caller.identity === 'employee' ? 'staff' : 'owner';

export interface NewWorkOrder {
  category: WorkOrderCategory;
  transactionItem: TransactionItem;
  amount: bigint;
  description: string;
  proofUrls: string[];
  billId?: number;
}

/**
 * Opens a work order on an order (or waybill) the customer can see. A bill dispute moves its bounce
 * bill to disputed in the same transaction, so one bill has at most one open dispute.
 */
export async function openWorkOrder(
  db: DbOrTx,
  caller: Caller,
  order: LineOrder,
  input: NewWorkOrder,
): Promise<WorkOrderRow> {
  return db.transaction(async (tx) => {
    const workOrderNo = await nextSerial(tx, order.tenantId, WORK_ORDER_PREFIX[order.line]);
    let billId: number | null = null;
    if (input.billId) {
      const bill = await findBill(tx, order.tenantId, input.billId);
      if (!bill || bill.line !== order.line || bill.orderId !== order.id)
        throw badField('billId', WORDS[order.line].billMismatch);
      if (bill.status !== 'charged') throw conflict('workOrder.billNotDisputable');
      await moveBill(tx, bill, 'dispute', 'owner', { workOrderNo });
      billId = bill.id;
    }
    const [row] = await tx
      .insert(workOrders)
      .values({
        tenantId: order.tenantId,
        workOrderNo,
        line: order.line,
        orderId: order.id,
        orderNo: order.orderNo,
        organisationId: order.organisationId,
        userId: caller.id,
        billId,
        category: input.category,
        transactionItem: input.transactionItem,
        amount: input.amount,
        description: input.description,
        proofUrls: input.proofUrls,
      })
      .returning();
    if (!row) throw new Error('work order insert returned nothing');
    await claimUploads(tx, order.tenantId, input.proofUrls, recordOf('work-order', row.id), {
      field: 'proofUrls',
      by: caller.id,
    });
    await addEvent(tx, row, 'open', null, 'pending', caller, '');
    return row;
  });
}

async function addEvent(
  db: DbOrTx,
  wo: Pick<WorkOrderRow, 'tenantId' | 'id'>,
  action: string,
  fromStatus: WorkOrderStatus | null,
  toStatus: WorkOrderStatus,
  caller: Caller,
  note: string,
) {
  await db.insert(workOrderEvents).values({
    tenantId: wo.tenantId,
    workOrderId: wo.id,
    action,
    fromStatus,
    toStatus,
    operatorId: caller.id,
    side: actorOf(caller),
    note,
  });
}

export async function findWorkOrderBySn(db: DbOrTx, tenantId: number, sn: string) {
  const [row] = await db
    .select()
    .from(workOrders)
    .where(and(eq(workOrders.tenantId, tenantId), eq(workOrders.workOrderNo, sn.toUpperCase())))
    .limit(1);
  return row ?? null;
}

/**
 * A work order the caller may see (its organisation's or one below; staff see all) on a line whose
 * work-order pages it has, or 404.
 */
export async function visibleWorkOrder(db: DbOrTx, caller: Viewer, sn: string): Promise<WorkOrderRow> {
  const row = await findWorkOrderBySn(db, caller.tenantId, sn);
  if (!row || !seesWorkOrdersOf(caller, row.line)) throw notFound();
  const scope = await organisationScope(db, caller);
  if (!(await canSeeOrganisation(db, scope, row.organisationId))) throw notFound();
  return row;
}

// A work order's proofs and the files on its thread load for whoever may open the work order.
registerRecordAccess('work-order', async (db, caller, id) => {
  const [row] = await db
    .select()
    .from(workOrders)
    .where(and(eq(workOrders.tenantId, caller.tenantId), eq(workOrders.id, id)))
    .limit(1);
  if (!row || !seesWorkOrdersOf(caller, row.line)) return false;
  return canSeeOrganisation(db, await organisationScope(db, caller), row.organisationId);
});

export interface WorkOrderDecision {
  action: WorkOrderAction;
  consumptionType: ConsumptionType;
  resultAmount: bigint;
  remark: string;
  /** The order (or waybill) the work order is on, read through its line's module. */
  order: LineOrder;
}

const LEDGER_TYPE = {
  add: 'work_order_add',
  deduct: 'work_order_deduct',
  refund: 'work_order_refund',
} as const;

/**
 * Moves a work order by its machine under its row lock, so two staff cannot both resolve it. A
 * resolution moves its money through the ledger of the line's account in the same transaction: a
 * refund may not exceed what the account paid under the order's (waybill's) number and has not had
 * back, and is refused while the order can still be cancelled (the waybill voided) with its full
 * refund; a deduction needs the funds. A disputed bill is settled by a resolution and goes back to
 * charged when the work order ends otherwise.
 */
export async function decideWorkOrder(
  db: DbOrTx,
  caller: Caller,
  wo: WorkOrderRow,
  decision: WorkOrderDecision,
): Promise<WorkOrderRow> {
  const actor = actorOf(caller);
  const { action, order } = decision;
  const money = action === 'resolve' && decision.consumptionType !== 'none' ? decision.resultAmount : 0n;
  const refusal = { key: WORDS[wo.line].insufficientFunds, params: { amount: formatMoney(money) } };
  return debitOrRefuse(db, wo, refusal, async (tx) => {
    const [current] = await tx
      .select()
      .from(workOrders)
      .where(and(eq(workOrders.tenantId, wo.tenantId), eq(workOrders.id, wo.id)))
      .for('update');
    if (!current) throw notFound();
    const step = workOrderMachine.find(current.status, action, actor);
    if (!step) throw conflict('workOrder.transitionRefused');
    if (money > 0n && decision.consumptionType !== 'none')
      await moveResolutionMoney(tx, caller, current, order, decision.consumptionType, money, decision.remark);
    const final = action !== 'accept';
    const [row] = await tx
      .update(workOrders)
      .set({
        status: step.to,
        ...(action === 'resolve' ? { consumptionType: decision.consumptionType, resultAmount: money } : {}),
        ...(final && action !== 'withdraw' ? { remark: decision.remark } : {}),
        ...(actor === 'staff' ? { operatorId: caller.id } : {}),
        ...(final ? { processedAt: new Date() } : {}),
      })
      .where(and(eq(workOrders.tenantId, wo.tenantId), eq(workOrders.id, wo.id)))
      .returning();
    if (!row) throw new Error('work order vanished under its row lock');
    if (final && current.billId) {
      const bill = await findBill(tx, current.tenantId, current.billId);
      if (bill?.status === 'disputed')
        await moveBill(tx, bill, action === 'resolve' ? 'settle' : 'withdraw', 'system');
    }
    // The amount is the work order's own field; the event keeps the words staff wrote.
    await addEvent(tx, row, action, current.status, step.to, caller, decision.remark);

    if (actor === 'staff') await noticeOpener(tx, row);
    return row;
  });
}

async function moveResolutionMoney(
  tx: DbOrTx,
  caller: Caller,
  wo: WorkOrderRow,
  order: LineOrder,
  type: Exclude<ConsumptionType, 'none'>,
  amount: bigint,
  remark: string,
) {
  const words = WORDS[wo.line];
  const account = await ensureAccount(tx, wo.tenantId, wo.organisationId, wo.line);
  if (type === 'refund') {
    if (voidableWithRefund(order)) throw badField('consumptionType', words.refundWhileVoidable);
    // Refunds on one order are weighed one at a time, so two work orders cannot both fit the cap.
    await tx.execute(
      sql`select pg_advisory_xact_lock(hashtextextended(${`order-refund:${wo.tenantId}:${wo.line}:${wo.orderNo}`}, 0))`,
    );
    // What the line's account paid under the order's (waybill's) number, less what it had back.
    const max = await netChargedFor(tx, wo.tenantId, account.id, wo.orderNo);
    if (amount > max)
      throw badField('resultAmount', words.refundTooLarge, { max: formatMoney(max > 0n ? max : 0n) });
  }
  await moveMoney(tx, {
    tenantId: wo.tenantId,
    accountId: account.id,
    type: LEDGER_TYPE[type],
    amount: type === 'deduct' ? -amount : amount,
    refType: 'work_order',
    // Under the order's (waybill's) number, so its own ledger shows it; the note names the work order.
    refId: wo.orderNo,
    operatorId: caller.id,
    note: remark ? `${wo.workOrderNo} ${remark}` : wo.workOrderNo,
    idempotencyKey: `work-order:${wo.id}`,
  });
  // What the customer paid changes by the resolution; the costs do not (the operator bears it).
  await recordSale(tx, {
    tenantId: wo.tenantId,
    line: wo.line,
    organisationId: wo.organisationId,
    productId: null,
    at: new Date(),
    orders: 0,
    revenue: type === 'deduct' ? amount : -amount,
    cost: 0n,
    branchPrice: 0n,
    agentPrice: 0n,
  });
}

/**
 * A tenant's work-order money of one line by day and organisation, for the reports' rebuild: a
 * deduction adds to the revenue, a credit or refund takes from it, on the day it was resolved.
 */
export async function workOrderReportFacts(
  db: DbOrTx,
  tenantId: number,
  line: BusinessLine,
): Promise<ReportFact[]> {
  const w = workOrders;
  return db
    .select({
      day: sql<string>`to_char(${w.processedAt} at time zone 'UTC', 'YYYY-MM-DD')`,
      organisationId: w.organisationId,
      productId: sql<number>`0`.mapWith(Number),
      orders: sql<string>`'0'`,
      revenue: sql<string>`sum(case when ${w.consumptionType} = 'deduct' then ${w.resultAmount} else -${w.resultAmount} end)::text`,
      cost: sql<string>`'0'`,
      branchPrice: sql<string>`'0'`,
      agentPrice: sql<string>`'0'`,
    })
    .from(w)
    .where(
      and(
        eq(w.tenantId, tenantId),
        eq(w.line, line),
        ne(w.consumptionType, 'none'),
        gt(w.resultAmount, 0n),
        isNotNull(w.processedAt),
      ),
    )
    .groupBy(sql`1`, w.organisationId);
}

// Registered as the module loads: the reports rebuild from it without importing this module.
registerSalesSource('work-orders', ['truck', 'express'], workOrderReportFacts);

async function noticeOpener(db: DbOrTx, wo: WorkOrderRow, reply = false) {
  await noticeUser(db, {
    tenantId: wo.tenantId,
    userId: wo.userId,
    title: 'workOrder.noticeTitle',
    content: {
      key: reply
        ? 'workOrder.noticeReply'
        : wo.resultAmount > 0n
          ? WORDS[wo.line].noticeMoney
          : WORDS[wo.line].noticeStatus,
      params: {
        workOrderNo: wo.workOrderNo,
        orderNo: wo.orderNo,
        status: { key: `workOrder.status.${wo.status}` },
        consumption: { key: `workOrder.consumption.${wo.consumptionType}` },
        amount: formatMoney(wo.resultAmount),
        remark: wo.remark,
      },
    },
    orderType: NoticeOrderType.WorkOrder,
    orderSn: wo.workOrderNo,
  });
}

/** Adds a message to an open work order's thread; a staff reply tells the customer. */
export async function postMessage(
  db: DbOrTx,
  caller: Caller,
  wo: WorkOrderRow,
  body: string,
  attachments: string[],
) {
  if (!WORK_ORDER_OPEN.includes(wo.status)) throw conflict('workOrder.closed');
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(workOrderMessages)
      .values({
        tenantId: wo.tenantId,
        workOrderId: wo.id,
        authorId: caller.id,
        side: actorOf(caller),
        body,
        attachments,
      })
      .returning();
    if (!row) throw new Error('message insert returned nothing');
    await claimUploads(tx, wo.tenantId, attachments, recordOf('work-order', wo.id), {
      field: 'attachments',
      by: caller.id,
    });
    if (actorOf(caller) === 'staff') await noticeOpener(tx, wo, true);
    return row;
  });
}

export async function threadOf(db: DbOrTx, wo: WorkOrderRow) {
  const where = (t: typeof workOrderMessages | typeof workOrderEvents) =>
    and(eq(t.tenantId, wo.tenantId), eq(t.workOrderId, wo.id));
  const [messages, events] = await Promise.all([
    db.select().from(workOrderMessages).where(where(workOrderMessages)).orderBy(asc(workOrderMessages.id)),
    db.select().from(workOrderEvents).where(where(workOrderEvents)).orderBy(asc(workOrderEvents.id)),
  ]);
  return { messages, events };
}

/** A page of one line's work orders in the caller's scope; a line whose pages it lacks is refused. */
export async function listWorkOrders(
  db: DbOrTx,
  caller: Viewer,
  q: Omit<WorkOrderListQuery, 'page' | 'limit'>,
  page?: { page: number; limit: number },
) {
  const condition = await workOrderCondition(db, caller, q);
  const query = db.select().from(workOrders).where(condition).orderBy(desc(workOrders.id));
  const [list, [total]] = await Promise.all([
    page ? query.limit(page.limit).offset((page.page - 1) * page.limit) : query.limit(50_000),
    db.select({ n: count() }).from(workOrders).where(condition),
  ]);
  return { list, total: total?.n ?? 0 };
}

async function workOrderCondition(db: DbOrTx, caller: Viewer, q: Omit<WorkOrderListQuery, 'page' | 'limit'>) {
  if (!seesWorkOrdersOf(caller, q.line)) throw forbidden();
  const scope = await organisationScope(db, caller);
  return and(
    eq(workOrders.tenantId, caller.tenantId),
    eq(workOrders.line, q.line),
    scope.kind === 'subtree'
      ? inArray(workOrders.organisationId, visibleOrganisationIds(db, scope))
      : undefined,
    q.keyword ? numbersStartWith([workOrders.workOrderNo, workOrders.orderNo], q.keyword) : undefined,
    q.status ? eq(workOrders.status, q.status) : undefined,
    q.category ? eq(workOrders.category, q.category) : undefined,
    q.orderId ? eq(workOrders.orderId, q.orderId) : undefined,
    ...dayRange(workOrders.createdAt, q.from, q.to),
  );
}

/**
 * The export's work orders as the caller sees them: the list's filter, newest first, a keyset page
 * at a time, and their count up to a cap.
 */
export async function workOrderExportRows(db: DbOrTx, viewer: Viewer, query: WorkOrderListQuery) {
  const { page: _p, limit: _l, ...filter } = query;
  const condition = await workOrderCondition(db, viewer, filter);
  return {
    count: (cap: number) => cappedCount(db, workOrders, condition, cap),
    async *pages(size: number) {
      const raw = keysetPages<typeof workOrders.$inferSelect>(size, (after, limit) =>
        db
          .select()
          .from(workOrders)
          .where(and(condition, after ? lt(workOrders.id, after.id) : undefined))
          .orderBy(desc(workOrders.id))
          .limit(limit),
      );
      for await (const rows of raw) yield await presentWorkOrders(db, viewer, rows);
    },
  };
}

/** A line's work orders still open (pending or processing) in the caller's scope, for the dashboards. */
export async function countOpenWorkOrders(
  db: DbOrTx,
  caller: Caller,
  line: BusinessLine = 'truck',
): Promise<number> {
  const scope = await organisationScope(db, caller);
  const [row] = await db
    .select({ n: count() })
    .from(workOrders)
    .where(
      and(
        eq(workOrders.tenantId, caller.tenantId),
        eq(workOrders.line, line),
        scope.kind === 'subtree'
          ? inArray(workOrders.organisationId, visibleOrganisationIds(db, scope))
          : undefined,
        inArray(workOrders.status, [...WORK_ORDER_OPEN]),
      ),
    );
  return row?.n ?? 0;
}

/**
 * The customer's side opens a work order on an order (truck) or a waybill (express) it sees, named by
 * its number, from that line's pages; staff answer them.
 */
export async function openWorkOrderOn(
  db: DbOrTx,
  caller: Viewer,
  input: NewWorkOrder & { line: BusinessLine; orderNo?: string; waybillNo?: string },
): Promise<WorkOrderRow> {
  const { line, orderNo = '', waybillNo = '', ...opened } = input;
  if (!seesWorkOrdersOf(caller, line)) throw forbidden();
  if (caller.identity === 'employee') throw conflict('workOrder.staffCannotOpen');
  const words = LINE_WORDS[line];
  const number = line === 'express' ? waybillNo : orderNo;
  const order = await visibleLineOrderByNo(db, caller, line, number);
  if (!order) throw badField(words.field, words.unknown, { [words.field]: number });
  return openWorkOrder(db, caller, order, opened);
}

/** A message on the thread of a work order the caller sees. */
export async function postMessageTo(
  db: DbOrTx,
  caller: Viewer,
  input: { sn: string; body: string; attachments: string[] },
) {
  const row = await visibleWorkOrder(db, caller, input.sn);
  return { row, message: await postMessage(db, caller, row, input.body, input.attachments) };
}

/**
 * Accepts, resolves, rejects or withdraws a work order the caller sees, with the order it is on;
 * staff steps need the resolve button of the work order's line.
 */
export async function decideVisibleWorkOrder(
  db: DbOrTx,
  caller: Viewer,
  sn: string,
  decision: Omit<WorkOrderDecision, 'order'>,
): Promise<WorkOrderRow> {
  const row = await visibleWorkOrder(db, caller, sn);
  if (STAFF_ACTIONS.includes(decision.action) && !caller.grants.has(WORK_ORDER_RESOLVE_KEY[row.line]))
    throw forbidden();
  const order = await findLineOrder(db, caller.tenantId, row.line, row.orderId);
  if (!order) throw new Error(`work order ${row.workOrderNo} has no order`);
  return decideWorkOrder(db, caller, row, { ...decision, order });
}

/* ----- what the routes answer: one call per operation ----- */

/** Staff steps need the resolve permission; a customer only withdraws its own. */
const STAFF_ACTIONS: readonly WorkOrderAction[] = ['accept', 'resolve', 'reject'];

/** Work orders as the API shows them: organisation names, staff e-mails (to staff only), bill numbers. */
export async function presentWorkOrders(db: DbOrTx, viewer: Viewer, rows: WorkOrderRow[]) {
  const staff = viewer.identity === 'employee';
  const canResolve = (line: BusinessLine) => viewer.grants.has(WORK_ORDER_RESOLVE_KEY[line]);
  const [names, operators, bills] = await Promise.all([
    organisationNames(db, viewer.tenantId, [...new Set(rows.map((r) => r.organisationId))]),
    usersByIds(db, viewer.tenantId, [...new Set(rows.flatMap((r) => (r.operatorId ? [r.operatorId] : [])))]),
    billNumbers(db, viewer.tenantId, [...new Set(rows.flatMap((r) => (r.billId ? [r.billId] : [])))]),
  ]);
  const emails = new Map(operators.map((u) => [u.id, u.email]));
  return rows.map((r) => ({
    id: r.id,
    workOrderNo: r.workOrderNo,
    line: r.line,
    orderId: r.orderId,
    orderNo: r.orderNo,
    organisationId: r.organisationId,
    organisationName: names.get(r.organisationId) ?? '',
    billId: r.billId,
    billNo: (r.billId && bills.get(r.billId)) || null,
    category: r.category,
    transactionItem: r.transactionItem,
    amount: formatMoney(r.amount),
    description: r.description,
    proofUrls: r.proofUrls,
    status: r.status,
    consumptionType: r.consumptionType,
    resultAmount: formatMoney(r.resultAmount),
    remark: r.remark,
    // Customers learn that staff handled it, not which employee.
    operator: staff && r.operatorId ? (emails.get(r.operatorId) ?? '') : '',
    processedAt: r.processedAt,
    createdAt: r.createdAt,
    actions: workOrderMachine
      .actions(r.status, actorOf(viewer))
      .filter((a) => !STAFF_ACTIONS.includes(a) || canResolve(r.line)),
    canMessage: WORK_ORDER_OPEN.includes(r.status),
  }));
}

async function presentOne(db: DbOrTx, viewer: Viewer, row: WorkOrderRow) {
  const [view] = await presentWorkOrders(db, viewer, [row]);
  if (!view) throw notFound();
  return view;
}

/** A page of the work order list as the caller sees it, with the paging it was asked for. */
export async function listWorkOrdersFor(db: DbOrTx, viewer: Viewer, query: WorkOrderListQuery) {
  const { page, limit, ...filter } = query;
  const { list, total } = await listWorkOrders(db, viewer, filter, { page, limit });
  return { list: await presentWorkOrders(db, viewer, list), total, page, limit };
}

/** Opens a work order from the form (money as a decimal string) and shows it. */
export async function openWorkOrderFor(db: DbOrTx, viewer: Viewer, input: z.infer<typeof workOrderSaveBody>) {
  const row = await openWorkOrderOn(db, viewer, { ...input, amount: parseMoney(input.amount) });
  return presentOne(db, viewer, row);
}

/** One work order with its thread: messages and steps, authors named as the caller may know them. */
export async function workOrderInfoFor(db: DbOrTx, viewer: Viewer, sn: string, language: Language) {
  const row = await visibleWorkOrder(db, viewer, sn);
  const { messages, events } = await threadOf(db, row);
  const people = await usersByIds(db, viewer.tenantId, [
    ...new Set([...messages.map((m) => m.authorId), ...events.map((e) => e.operatorId)]),
  ]);
  const staff = viewer.identity === 'employee';
  const byId = new Map(people.map((u) => [u.id, u]));
  // Customers see their own people by e-mail and the operator's as customer service.
  const nameOf = (id: number, side: 'staff' | 'owner') =>
    staff || side === 'owner' ? (byId.get(id)?.email ?? '') : translate(language, 'workOrder.serviceDesk');
  const view = await presentOne(db, viewer, row);
  return {
    ...view,
    messages: messages.map((m) => ({
      id: m.id,
      side: m.side,
      author: nameOf(m.authorId, m.side),
      body: m.body,
      attachments: m.attachments,
      createdAt: m.createdAt,
    })),
    events: events.map((e) => ({
      id: e.id,
      action: e.action,
      fromStatus: e.fromStatus,
      toStatus: e.toStatus,
      operator: nameOf(e.operatorId, e.side),
      note: e.note,
      createdAt: e.createdAt,
    })),
  };
}

/** Posts a message on a work order's thread and shows it with the caller as its author. */
export async function postWorkOrderMessageFor(
  db: DbOrTx,
  viewer: Viewer & Pick<RequestUser, 'email'>,
  input: z.infer<typeof workOrderMessageBody>,
) {
  const { row, message } = await postMessageTo(db, viewer, input);
  return {
    workOrderNo: row.workOrderNo,
    message: {
      id: message.id,
      side: message.side,
      author: viewer.email,
      body: message.body,
      attachments: message.attachments,
      createdAt: message.createdAt,
    },
  };
}

/** Takes a step on a work order the caller sees (staff steps need the resolve permission) and shows it. */
export async function actOnWorkOrderFor(
  db: DbOrTx,
  viewer: Viewer,
  input: z.infer<typeof workOrderActionBody>,
) {
  const { sn, action, consumptionType, resultAmount, remark } = input;
  const updated = await decideVisibleWorkOrder(db, viewer, sn, {
    action,
    consumptionType,
    resultAmount: parseMoney(resultAmount),
    remark,
  });
  return presentOne(db, viewer, updated);
}
