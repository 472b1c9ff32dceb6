import type { BusinessLine } from '@freight/contracts/accounts';
import {
  BILL_PAGES,
  BILL_SAVE_KEY,
  BILLABLE_ORDER_STATUSES,
  BILLABLE_WAYBILL_STATUSES,
  type BounceBillAction,
  type BounceBillActor,
  type BounceBillListQuery,
  type BounceBillStatus,
  type BounceBillType,
  bounceBillMachine,
} from '@freight/contracts/bounce-bills';
import type { WaybillStatus } from '@freight/contracts/express-waybills';
import type { MessageKey } from '@freight/contracts/messages';
import { formatMoney } from '@freight/contracts/money';
import type { OrderStatus } from '@freight/contracts/truck-orders';
import { and, count, desc, eq, inArray, isNotNull, lt, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { badField, conflict, forbidden, notFound } from '../../lib/errors.ts';
import { dayRange, numbersStartWith } from '../../lib/filters.ts';
import { cappedCount, keysetPages } from '../../lib/keyset.ts';
import type { RequestUser } from '../../plugins/context.ts';
import { InsufficientFundsError, type Payable, payFromBalance, payWithin } from '../accounts/service.ts';
import {
  canSeeOrganisation,
  organisationNames,
  organisationScope,
  visibleOrganisationIds,
} from '../customers/service.ts';
import { findWaybill, visibleWaybillByNo, type WaybillRow } from '../express-waybills/service.ts';
import { NoticeOrderType, NoticeType, noticeUser } from '../notices/service.ts';
import { nextSerial } from '../numbering/service.ts';
import { type ReportFact, recordSale, registerSalesSource } from '../reports/service.ts';
import { findOrder, type OrderRow, visibleOrderByNo } from '../truck-orders/service.ts';
import { claimUpload, recordOf, registerRecordAccess } from '../uploads/service.ts';
import { bounceBills } from './schema.ts';

export type BillRow = typeof bounceBills.$inferSelect;
type Caller = Pick<RequestUser, 'id' | 'tenantId' | 'identity' | 'organisationId'>;
type Viewer = Caller & Pick<RequestUser, 'grants'>;

/* ----- the order a bill or a work order is on, whichever its line ----- */

/**
 * A truck order or an express waybill, as bills and work orders need it: read through the truck-orders
 * or express-waybills service (never their tables), so one engine serves both lines. `orderNo` is the
 * waybill's number on the express line.
 */
export type LineOrder = {
  tenantId: number;
  id: number;
  orderNo: string;
  organisationId: number;
  /** Who booked it: they hear of its bills. */
  userId: number;
  /** What its account has paid for it now (cents). */
  paid: bigint;
} & ({ line: 'truck'; status: OrderStatus } | { line: 'express'; status: WaybillStatus });

const truckOrder = (o: OrderRow): LineOrder => ({
  line: 'truck',
  tenantId: o.tenantId,
  id: o.id,
  orderNo: o.orderNo,
  organisationId: o.organisationId,
  userId: o.userId,
  paid: o.paid,
  status: o.status,
});

const expressWaybill = (w: WaybillRow): LineOrder => ({
  line: 'express',
  tenantId: w.tenantId,
  id: w.id,
  orderNo: w.waybillNo,
  organisationId: w.organisationId,
  userId: w.userId,
  paid: w.paid,
  status: w.status,
});

/** A line's order by its number, if the caller sees it (its organisation's or one below; staff all). */
export async function visibleLineOrderByNo(
  db: DbOrTx,
  caller: Caller,
  line: BusinessLine,
  number: string,
): Promise<LineOrder | null> {
  if (line === 'express') {
    const waybill = await visibleWaybillByNo(db, caller, number);
    return waybill ? expressWaybill(waybill) : null;
  }
  const order = await visibleOrderByNo(db, caller, number);
  return order ? truckOrder(order) : null;
}

/** A line's order by its id, unscoped: for a record whose visibility was already checked. */
export async function findLineOrder(
  db: DbOrTx,
  tenantId: number,
  line: BusinessLine,
  id: number,
): Promise<LineOrder | null> {
  if (line === 'express') {
    const waybill = await findWaybill(db, tenantId, id);
    return waybill ? expressWaybill(waybill) : null;
  }
  const order = await findOrder(db, tenantId, id);
  return order ? truckOrder(order) : null;
}

/** The body field that names a line's order, and the words that differ between the lines. */
export const LINE_WORDS = {
  truck: {
    field: 'orderNo',
    unknown: 'bounceBill.orderUnknown',
    notBillable: 'bounceBill.orderNotBillable',
    charged: 'bounceBill.charged',
    noticeTitle: 'bounceBill.noticeTitle',
    noticeCharged: 'bounceBill.noticeCharged',
    noticeUnpaid: 'bounceBill.noticeUnpaid',
    insufficientFunds: 'bounceBill.insufficientFunds',
  },
  express: {
    field: 'waybillNo',
    unknown: 'bounceBill.waybillUnknown',
    notBillable: 'bounceBill.waybillNotBillable',
    charged: 'bounceBill.chargedExpress',
    noticeTitle: 'bounceBill.noticeTitleExpress',
    noticeCharged: 'bounceBill.noticeChargedExpress',
    noticeUnpaid: 'bounceBill.noticeUnpaidExpress',
    insufficientFunds: 'bounceBill.insufficientFundsExpress',
  },
} as const satisfies Record<BusinessLine, Record<string, MessageKey | 'orderNo' | 'waybillNo'>>;

/** A bill needs the goods in the carrier's hands: picked up (truck) or shipped (express). */
const billable = (order: LineOrder) =>
  order.line === 'express'
    ? BILLABLE_WAYBILL_STATUSES.includes(order.status)
    : BILLABLE_ORDER_STATUSES.includes(order.status);

/** The caller sees a line's bills when one of that line's bill pages is in its menu. */
export const seesBillsOf = (viewer: Pick<RequestUser, 'grants'>, line: BusinessLine) =>
  BILL_PAGES[line].some((page) => viewer.grants.has(page));

const actorOf = (caller: Pick<RequestUser, 'identity'>): BounceBillActor =>
  caller.identity === 'employee' ? 'staff' : 'owner';

/**
 * What the caller may do with a bill now; `settle` and `withdraw` belong to the work order. Staff
 * cancel with the button that raises bills.
 */
export const billActions = (
  bill: Pick<BillRow, 'status' | 'line'>,
  caller: Pick<RequestUser, 'identity' | 'grants'>,
): BounceBillAction[] =>
  bounceBillMachine
    .actions(bill.status, actorOf(caller))
    .filter((action) => action !== 'cancel' || caller.grants.has(BILL_SAVE_KEY[bill.line]));

export interface NewBill {
  type: BounceBillType;
  amount: bigint;
  declared: string;
  actual: string;
  description: string;
  proofUrl: string | null;
}

/** Bill numbers: `BB` + date + serial on truck, `EBB` on express, so a number tells its line. */
const BILL_PREFIX: Record<BusinessLine, string> = { truck: 'BB', express: 'EBB' };

/**
 * Raises a bounce bill on an order (or waybill) and charges it to its organisation's account of the
 * line in one transaction: the bill, the debit with its ledger row and the customer's notice commit
 * together. When the funds are short the bill is kept unpaid (the customer pays it later), never
 * half charged.
 */
export async function raiseBill(
  db: DbOrTx,
  staff: Caller,
  order: LineOrder,
  input: NewBill,
): Promise<BillRow> {
  const words = LINE_WORDS[order.line];
  if (!billable(order)) throw badField(words.field, words.notBillable, { [words.field]: order.orderNo });
  return db.transaction(async (tx) => {
    const billNo = await nextSerial(tx, order.tenantId, BILL_PREFIX[order.line]);
    const [bill] = await tx
      .insert(bounceBills)
      .values({
        tenantId: order.tenantId,
        billNo,
        line: order.line,
        orderId: order.id,
        orderNo: order.orderNo,
        organisationId: order.organisationId,
        userId: order.userId,
        ...input,
        status: 'unpaid',
        createdBy: staff.id,
      })
      .returning();
    if (!bill) throw new Error('bill insert returned nothing');
    if (input.proofUrl)
      await claimUpload(tx, order.tenantId, input.proofUrl, recordOf('bounce-bill', bill.id), {
        field: 'proofUrl',
        by: staff.id,
      });
    // A savepoint: a short balance undoes only the debit, and the bill stays, unpaid.
    const charged = await tx
      .transaction(async (sp) => payWithin(sp, billPayable(bill, staff.id)))
      .catch((error: unknown) => {
        if (error instanceof InsufficientFundsError) return null;
        throw error;
      });
    await noticeBill(tx, charged ?? bill);
    return charged ?? bill;
  });
}

/** A bill as its owner pays it: marked charged under its row lock, then debited; a second payer changes nothing. */
function billPayable(bill: BillRow, operatorId: number): Payable<BillRow> {
  let charged: BillRow | undefined;
  return {
    owner: bill,
    amount: bill.amount,
    ledger: {
      type: 'surcharge',
      refType: 'bounce_bill',
      // Under the order's (waybill's) number, so its own ledger shows its surcharges.
      refId: bill.orderNo,
      operatorId,
      note: bill.billNo,
      idempotencyKey: `bounce-bill:${bill.id}`,
    },
    refusal: { key: LINE_WORDS[bill.line].insufficientFunds, params: { amount: formatMoney(bill.amount) } },
    claim: async (tx) => {
      [charged] = await tx
        .update(bounceBills)
        .set({ status: 'charged', chargedAt: new Date() })
        .where(
          and(
            eq(bounceBills.tenantId, bill.tenantId),
            eq(bounceBills.id, bill.id),
            eq(bounceBills.status, 'unpaid'),
          ),
        )
        .returning();
      return charged !== undefined;
    },
    missed: async (tx) => {
      const current = await findBill(tx, bill.tenantId, bill.id);
      if (current?.status === 'charged') return current;
      throw conflict('bounceBill.transitionRefused');
    },
    settle: async (tx) => {
      // A surcharge is the carrier's, passed through at cost at every level: revenue, and the same cost.
      await recordSale(tx, {
        tenantId: bill.tenantId,
        line: bill.line,
        organisationId: bill.organisationId,
        productId: null,
        at: new Date(),
        orders: 0,
        revenue: bill.amount,
        cost: bill.amount,
        branchPrice: bill.amount,
        agentPrice: bill.amount,
      });
      return charged as BillRow;
    },
  };
}

/** A tenant's charged bills of one line by day and organisation, for the reports' rebuild. */
export async function bounceBillReportFacts(
  db: DbOrTx,
  tenantId: number,
  line: BusinessLine,
): Promise<ReportFact[]> {
  const b = bounceBills;
  const amount = sql<string>`sum(${b.amount})::text`;
  return db
    .select({
      day: sql<string>`to_char(${b.chargedAt} at time zone 'UTC', 'YYYY-MM-DD')`,
      organisationId: b.organisationId,
      productId: sql<number>`0`.mapWith(Number),
      orders: sql<string>`'0'`,
      revenue: amount,
      cost: amount,
      branchPrice: amount,
      agentPrice: amount,
    })
    .from(b)
    .where(and(eq(b.tenantId, tenantId), eq(b.line, line), isNotNull(b.chargedAt)))
    .groupBy(sql`1`, b.organisationId);
}

// Registered as the module loads: the reports rebuild from it without importing this module.
registerSalesSource('bounce-bills', ['truck', 'express'], bounceBillReportFacts);

async function noticeBill(db: DbOrTx, bill: BillRow) {
  const words = LINE_WORDS[bill.line];
  const express = bill.line === 'express';
  await noticeUser(db, {
    tenantId: bill.tenantId,
    userId: bill.userId,
    type: NoticeType.Dialog,
    title: words.noticeTitle,
    content: {
      key: bill.status === 'charged' ? words.noticeCharged : words.noticeUnpaid,
      params: {
        orderNo: bill.orderNo,
        waybillNo: bill.orderNo,
        billNo: bill.billNo,
        type: { key: `bounceBill.type.${bill.type}` },
        amount: formatMoney(bill.amount),
      },
    },
    // Truck: the order list opens the order, whose page lists its bills and ledger rows. Express:
    // `/abnormalBilling?sn=<bill number>` (SPEC section 2) opens the bill itself.
    orderType: express ? NoticeOrderType.AbnormalBilling : NoticeOrderType.Order,
    orderSn: express ? bill.billNo : bill.orderNo,
  });
}

export async function findBill(db: DbOrTx, tenantId: number, id: number): Promise<BillRow | null> {
  const [row] = await db
    .select()
    .from(bounceBills)
    .where(and(eq(bounceBills.tenantId, tenantId), eq(bounceBills.id, id)))
    .limit(1);
  return row ?? null;
}

/**
 * A bill the caller may see (its organisation's or one below; staff see all) on a line whose bill
 * pages it has, or 404.
 */
export async function visibleBill(db: DbOrTx, caller: Viewer, id: number): Promise<BillRow> {
  const bill = await findBill(db, caller.tenantId, id);
  if (!bill || !seesBillsOf(caller, bill.line)) throw notFound();
  const scope = await organisationScope(db, caller);
  if (!(await canSeeOrganisation(db, scope, bill.organisationId))) throw notFound();
  return bill;
}

// A bill's proof loads for whoever may open the bill.
registerRecordAccess('bounce-bill', (db, caller, id) =>
  visibleBill(db, caller, id).then(
    () => true,
    () => false,
  ),
);

/** Pays an unpaid bill from the balance of its line; paying twice charges once. */
export async function payBill(db: DbOrTx, caller: Caller, bill: BillRow): Promise<BillRow> {
  if (!bounceBillMachine.find(bill.status, 'pay', actorOf(caller))) {
    if (bill.status === 'charged') return bill;
    throw conflict('bounceBill.transitionRefused');
  }
  return payFromBalance(db, billPayable(bill, caller.id));
}

/** Staff withdraw a bill raised in error, while it is unpaid: no money has moved. */
export async function cancelBill(db: DbOrTx, caller: Viewer, bill: BillRow, reason: string) {
  if (caller.identity !== 'employee' || !caller.grants.has(BILL_SAVE_KEY[bill.line])) throw forbidden();
  return moveBill(db, bill, 'cancel', actorOf(caller), { cancelReason: reason });
}

/**
 * Moves a bill by its machine when its status is still the one read; the work-order module calls
 * this with `system` to open and close a dispute, inside its own transaction.
 */
export async function moveBill(
  db: DbOrTx,
  bill: Pick<BillRow, 'tenantId' | 'id' | 'status'>,
  action: BounceBillAction,
  actor: BounceBillActor | 'owner',
  extra: Partial<Pick<BillRow, 'cancelReason' | 'workOrderNo'>> = {},
): Promise<BillRow> {
  const step = bounceBillMachine.find(bill.status, action, actor);
  if (!step) throw conflict('bounceBill.transitionRefused');
  const [row] = await db
    .update(bounceBills)
    .set({ status: step.to, ...extra })
    .where(
      and(
        eq(bounceBills.tenantId, bill.tenantId),
        eq(bounceBills.id, bill.id),
        eq(bounceBills.status, bill.status),
      ),
    )
    .returning();
  if (!row) throw conflict('bounceBill.transitionRefused');
  return row;
}

/** The list's rows: one line's bills in the caller's scope; a line whose bill pages it lacks is refused. */
async function billCondition(
  db: DbOrTx,
  caller: Viewer,
  q: Omit<BounceBillListQuery, 'page' | 'limit'>,
): Promise<SQL | undefined> {
  if (!seesBillsOf(caller, q.line)) throw forbidden();
  const scope = await organisationScope(db, caller);
  return and(
    eq(bounceBills.tenantId, caller.tenantId),
    eq(bounceBills.line, q.line),
    scope.kind === 'subtree'
      ? inArray(bounceBills.organisationId, visibleOrganisationIds(db, scope))
      : undefined,
    q.keyword ? numbersStartWith([bounceBills.billNo, bounceBills.orderNo], q.keyword) : undefined,
    q.status ? eq(bounceBills.status, q.status as BounceBillStatus) : undefined,
    q.type ? eq(bounceBills.type, q.type) : undefined,
    q.orderId ? eq(bounceBills.orderId, q.orderId) : undefined,
    ...dayRange(bounceBills.createdAt, q.from, q.to),
  );
}

/** A page of one line's bills in the caller's scope, newest first. */
export async function listBills(
  db: DbOrTx,
  caller: Viewer,
  q: Omit<BounceBillListQuery, 'page' | 'limit'>,
  page: { page: number; limit: number },
) {
  const condition = await billCondition(db, caller, q);
  const [list, [total]] = await Promise.all([
    db
      .select()
      .from(bounceBills)
      .where(condition)
      .orderBy(desc(bounceBills.id))
      .limit(page.limit)
      .offset((page.page - 1) * page.limit),
    db.select({ n: count() }).from(bounceBills).where(condition),
  ]);
  return { list, total: total?.n ?? 0 };
}

/** The export's bills: the list's filter and order, a keyset page at a time, counted up to a cap. */
export async function billExportRows(
  db: DbOrTx,
  caller: Viewer,
  q: Omit<BounceBillListQuery, 'page' | 'limit'>,
) {
  const condition = await billCondition(db, caller, q);
  return {
    count: (cap: number) => cappedCount(db, bounceBills, condition, cap),
    pages: (size: number) =>
      keysetPages<BillRow>(size, (after, limit) =>
        db
          .select()
          .from(bounceBills)
          .where(and(condition, after ? lt(bounceBills.id, after.id) : undefined))
          .orderBy(desc(bounceBills.id))
          .limit(limit),
      ),
  };
}

/** Bills as the API shows them; `actions` are what the viewer may do with each now. */
export async function presentBills(db: DbOrTx, viewer: Viewer, rows: BillRow[]) {
  const names = await organisationNames(db, viewer.tenantId, [...new Set(rows.map((r) => r.organisationId))]);
  return rows.map((b) => ({
    id: b.id,
    billNo: b.billNo,
    line: b.line,
    orderId: b.orderId,
    orderNo: b.orderNo,
    organisationId: b.organisationId,
    organisationName: names.get(b.organisationId) ?? '',
    type: b.type,
    amount: formatMoney(b.amount),
    declared: b.declared,
    actual: b.actual,
    description: b.description,
    proofUrl: b.proofUrl,
    status: b.status,
    chargedAt: b.chargedAt,
    cancelReason: b.cancelReason,
    workOrderNo: b.workOrderNo,
    createdAt: b.createdAt,
    actions: billActions(b, viewer),
  }));
}

/** Bills of a line waiting to be paid in the caller's scope, for the dashboards. */
export async function countUnpaidBills(
  db: DbOrTx,
  caller: Caller,
  line: BusinessLine = 'truck',
): Promise<number> {
  const scope = await organisationScope(db, caller);
  const [row] = await db
    .select({ n: count() })
    .from(bounceBills)
    .where(
      and(
        eq(bounceBills.tenantId, caller.tenantId),
        eq(bounceBills.line, line),
        scope.kind === 'subtree'
          ? inArray(bounceBills.organisationId, visibleOrganisationIds(db, scope))
          : undefined,
        eq(bounceBills.status, 'unpaid'),
      ),
    );
  return row?.n ?? 0;
}

/** The numbers of some bills, by id: one query for a whole page of work orders. */
export async function billNumbers(db: DbOrTx, tenantId: number, ids: number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: bounceBills.id, billNo: bounceBills.billNo })
    .from(bounceBills)
    .where(and(eq(bounceBills.tenantId, tenantId), inArray(bounceBills.id, ids)));
  return new Map(rows.map((r) => [r.id, r.billNo]));
}

/**
 * Staff raise a bill on an order (truck) or a waybill (express) they see, named by its number, with
 * the line's button; bills are the operator's finding, so nobody else raises one. A proof file must
 * be one uploaded within the tenant.
 */
export async function raiseBillOnOrder(
  db: DbOrTx,
  staff: Viewer,
  input: Omit<NewBill, 'proofUrl'> & {
    line: BusinessLine;
    orderNo?: string;
    waybillNo?: string;
    proofUrl?: string | null;
  },
): Promise<BillRow> {
  const { line, orderNo = '', waybillNo = '', proofUrl = null, ...bill } = input;
  if (staff.identity !== 'employee' || !staff.grants.has(BILL_SAVE_KEY[line])) throw forbidden();
  const words = LINE_WORDS[line];
  const number = line === 'express' ? waybillNo : orderNo;
  const order = await visibleLineOrderByNo(db, staff, line, number);
  if (!order) throw badField(words.field, words.unknown, { [words.field]: number });
  return raiseBill(db, staff, order, { ...bill, proofUrl });
}
