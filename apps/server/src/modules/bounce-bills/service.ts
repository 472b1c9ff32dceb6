import {
  BILLABLE_ORDER_STATUSES,
  type BounceBillAction,
  type BounceBillActor,
  type BounceBillListQuery,
  type BounceBillStatus,
  type BounceBillType,
  bounceBillMachine,
} from '@freight/contracts/bounce-bills';
import { formatMoney } from '@freight/contracts/money';
import { and, count, desc, eq, inArray, like, or, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { badField, conflict, forbidden, notFound } from '../../lib/errors.ts';
import { dayRange, numberPrefix } from '../../lib/filters.ts';
import type { RequestUser } from '../../plugins/context.ts';
import { available, ensureAccount, InsufficientFundsError, moveMoney } from '../accounts/service.ts';
import { canSeeOrganisation, organisationScope, visibleOrganisationIds } from '../customers/service.ts';
import { NoticeOrderType, NoticeType, noticeUser } from '../notices/service.ts';
import { nextSerial } from '../numbering/service.ts';
import { type OrderRow, visibleOrderByNo } from '../truck-orders/service.ts';
import { isOwnUpload } from '../uploads/service.ts';
import { bounceBills } from './schema.ts';

export type BillRow = typeof bounceBills.$inferSelect;
type Caller = Pick<RequestUser, 'id' | 'tenantId' | 'identity' | 'organisationId'>;

const actorOf = (caller: Pick<RequestUser, 'identity'>): BounceBillActor =>
  caller.identity === 'employee' ? 'staff' : 'owner';

/**
 * What the caller may do with a bill now; `settle` and `withdraw` belong to the work order. Staff
 * cancel with the button that raises bills.
 */
export const billActions = (
  bill: Pick<BillRow, 'status'>,
  caller: Pick<RequestUser, 'identity' | 'grants'>,
): BounceBillAction[] =>
  bounceBillMachine
    .actions(bill.status, actorOf(caller))
    .filter((action) => action !== 'cancel' || caller.grants.has('bounce-bill:save'));

export interface NewBill {
  type: BounceBillType;
  amount: bigint;
  declared: string;
  actual: string;
  description: string;
  proofUrl: string | null;
}

/**
 * Raises a bounce bill on an order and charges it to the order's organisation in one transaction:
 * the bill, the debit with its ledger row and the customer's notice commit together. When the
 * funds are short the bill is kept unpaid (the customer pays it later), never half charged.
 */
export async function raiseBill(
  db: DbOrTx,
  staff: Caller,
  order: OrderRow,
  input: NewBill,
): Promise<BillRow> {
  if (!BILLABLE_ORDER_STATUSES.includes(order.status))
    throw badField('orderNo', 'bounceBill.orderNotBillable', { orderNo: order.orderNo });
  return db.transaction(async (tx) => {
    const billNo = await nextSerial(tx, order.tenantId, 'BB');
    const [bill] = await tx
      .insert(bounceBills)
      .values({
        tenantId: order.tenantId,
        billNo,
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
    // A savepoint: a short balance undoes only the debit, and the bill stays, unpaid.
    const charged = await tx
      .transaction(async (sp) => chargeBill(sp, bill, staff.id))
      .catch((error: unknown) => {
        if (error instanceof InsufficientFundsError) return null;
        throw error;
      });
    await noticeBill(tx, charged ?? bill);
    return charged ?? bill;
  });
}

/** Debits the bill under its row lock and marks it charged; the second of two payers changes nothing. */
async function chargeBill(tx: DbOrTx, bill: BillRow, operatorId: number): Promise<BillRow> {
  const moved = await tx
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
  const row = moved[0];
  if (!row) {
    const current = await findBill(tx, bill.tenantId, bill.id);
    if (current?.status === 'charged') return current;
    throw conflict('bounceBill.transitionRefused');
  }
  const account = await ensureAccount(tx, bill.tenantId, bill.organisationId, 'truck');
  await moveMoney(tx, {
    tenantId: bill.tenantId,
    accountId: account.id,
    type: 'surcharge',
    amount: -bill.amount,
    refType: 'bounce_bill',
    // Under the order's number, so the order's own ledger shows its surcharges.
    refId: bill.orderNo,
    operatorId,
    note: bill.billNo,
    idempotencyKey: `bounce-bill:${bill.id}`,
  });
  return row;
}

async function noticeBill(db: DbOrTx, bill: BillRow) {
  await noticeUser(db, {
    tenantId: bill.tenantId,
    userId: bill.userId,
    type: NoticeType.Dialog,
    title: 'bounceBill.noticeTitle',
    content: (t) =>
      t(bill.status === 'charged' ? 'bounceBill.noticeCharged' : 'bounceBill.noticeUnpaid', {
        orderNo: bill.orderNo,
        billNo: bill.billNo,
        type: t(`bounceBill.type.${bill.type}`),
        amount: formatMoney(bill.amount),
      }),
    // The truck order list opens the order; its page lists the order's bills and ledger rows.
    orderType: NoticeOrderType.Order,
    orderSn: bill.orderNo,
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

/** A bill the caller may see (its organisation's or one below; staff see all), or 404. */
export async function visibleBill(db: DbOrTx, caller: Caller, id: number): Promise<BillRow> {
  const bill = await findBill(db, caller.tenantId, id);
  if (!bill) throw notFound();
  const scope = await organisationScope(db, caller);
  if (!(await canSeeOrganisation(db, scope, bill.organisationId))) throw notFound();
  return bill;
}

/** Pays an unpaid bill from the truck balance; paying twice charges once. */
export async function payBill(db: DbOrTx, caller: Caller, bill: BillRow): Promise<BillRow> {
  if (!bounceBillMachine.find(bill.status, 'pay', actorOf(caller))) {
    if (bill.status === 'charged') return bill;
    throw conflict('bounceBill.transitionRefused');
  }
  try {
    return await db.transaction(async (tx) => chargeBill(tx, bill, caller.id));
  } catch (error) {
    if (!(error instanceof InsufficientFundsError)) throw error;
    const account = await ensureAccount(db, bill.tenantId, bill.organisationId, 'truck');
    throw conflict('bounceBill.insufficientFunds', {
      available: formatMoney(available(account)),
      amount: formatMoney(bill.amount),
    });
  }
}

/** Staff withdraw a bill raised in error, while it is unpaid: no money has moved. */
export async function cancelBill(db: DbOrTx, caller: Caller, bill: BillRow, reason: string) {
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

export async function listBills(
  db: DbOrTx,
  caller: Caller,
  q: Omit<BounceBillListQuery, 'page' | 'limit'>,
  page?: { page: number; limit: number },
) {
  const scope = await organisationScope(db, caller);
  const prefix = q.keyword ? numberPrefix(q.keyword) : null;
  const condition: SQL | undefined = and(
    eq(bounceBills.tenantId, caller.tenantId),
    scope.kind === 'subtree'
      ? inArray(bounceBills.organisationId, visibleOrganisationIds(db, scope))
      : undefined,
    prefix ? or(like(bounceBills.billNo, prefix), like(bounceBills.orderNo, prefix)) : undefined,
    q.status ? eq(bounceBills.status, q.status as BounceBillStatus) : undefined,
    q.type ? eq(bounceBills.type, q.type) : undefined,
    q.orderId ? eq(bounceBills.orderId, q.orderId) : undefined,
    ...dayRange(bounceBills.createdAt, q.from, q.to),
  );
  const query = db.select().from(bounceBills).where(condition).orderBy(desc(bounceBills.id));
  const [list, [total]] = await Promise.all([
    page ? query.limit(page.limit).offset((page.page - 1) * page.limit) : query.limit(50_000),
    db.select({ n: count() }).from(bounceBills).where(condition),
  ]);
  return { list, total: total?.n ?? 0 };
}

/** Bills waiting to be paid in the caller's scope, for the dashboards. */
export async function countUnpaidBills(db: DbOrTx, caller: Caller): Promise<number> {
  const scope = await organisationScope(db, caller);
  const [row] = await db
    .select({ n: count() })
    .from(bounceBills)
    .where(
      and(
        eq(bounceBills.tenantId, caller.tenantId),
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
 * Staff raise a bill on an order they see, named by its number; bills are the operator's finding,
 * so nobody else raises one. A proof file must be one uploaded within the tenant.
 */
export async function raiseBillOnOrder(
  db: DbOrTx,
  staff: Caller,
  input: Omit<NewBill, 'proofUrl'> & { orderNo: string; proofUrl?: string | null },
): Promise<BillRow> {
  if (staff.identity !== 'employee') throw forbidden();
  const { orderNo, proofUrl = null, ...bill } = input;
  const order = await visibleOrderByNo(db, staff, orderNo);
  if (!order) throw badField('orderNo', 'bounceBill.orderUnknown', { orderNo });
  if (proofUrl && !(await isOwnUpload(db, staff.tenantId, proofUrl)))
    throw badField('proofUrl', 'upload.notOurs');
  return raiseBill(db, staff, order, { ...bill, proofUrl });
}
