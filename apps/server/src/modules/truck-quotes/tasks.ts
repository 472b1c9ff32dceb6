import { formatMoney, parseMoney } from '@freight/contracts/money';
import {
  priceLevels,
  type QuoteResult,
  TASK_ACTION_BUTTON,
  type TaskAction,
  type TaskStatus,
  taskMachine,
} from '@freight/contracts/truck-quotes';
import { and, count, desc, eq, ilike, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { badField, conflict, forbidden, notFound } from '../../lib/errors.ts';
import type { RequestUser } from '../../plugins/context.ts';
import { markupChain } from '../customers/price-levels.ts';
import { canSeeOrganisation, organisationScope, visibleOrganisationIds } from '../customers/service.ts';
import { nextSerial } from '../numbering/service.ts';
import { findProduct } from '../truck-products/service.ts';
import { quotationTaskEvents, quotationTasks } from './schema.ts';
import {
  type Caller,
  findQuote,
  isStaff,
  type QuoteRow,
  quoteExpired,
  quoteForCaller,
  resultForCaller,
  type TaskRow,
  visibleQuote,
} from './service.ts';

async function taskEvent(
  db: DbOrTx,
  task: Pick<TaskRow, 'tenantId' | 'id'>,
  action: TaskAction | 'request',
  from: TaskStatus | null,
  to: TaskStatus,
  actorId: number,
  note: string,
) {
  await db.insert(quotationTaskEvents).values({
    tenantId: task.tenantId,
    taskId: task.id,
    action,
    fromStatus: from,
    toStatus: to,
    actorId,
    note,
  });
}

/** A customer asks staff to price a quote the tables could not. */
export async function requestTask(
  db: DbOrTx,
  caller: Caller,
  quote: QuoteRow,
  note: string,
): Promise<TaskRow> {
  if (quote.status === 'booked') throw conflict('quote.booked');
  const reason = quote.manualReason;
  if (!reason) throw conflict('quote.noManualNeed');
  return db.transaction(async (tx) => {
    const [open] = await tx
      .select({ id: quotationTasks.id })
      .from(quotationTasks)
      .where(
        and(
          eq(quotationTasks.tenantId, quote.tenantId),
          eq(quotationTasks.quoteId, quote.id),
          inArray(quotationTasks.status, ['pending', 'priced', 'accepted']),
        ),
      )
      .limit(1);
    if (open) throw conflict('quote.taskExists');
    const taskNo = await nextSerial(tx, quote.tenantId, 'MQ');
    const [task] = await tx
      .insert(quotationTasks)
      .values({
        tenantId: quote.tenantId,
        taskNo,
        quoteId: quote.id,
        organisationId: quote.organisationId,
        userId: caller.id,
        reason,
        note,
      })
      .returning();
    await taskEvent(tx, task as TaskRow, 'request', null, 'pending', caller.id, note);
    return task as TaskRow;
  });
}

export async function findTask(db: DbOrTx, tenantId: number, id: number) {
  const [row] = await db
    .select()
    .from(quotationTasks)
    .where(and(eq(quotationTasks.tenantId, tenantId), eq(quotationTasks.id, id)))
    .limit(1);
  return row ?? null;
}

export async function visibleTask(db: DbOrTx, caller: Caller, id: number): Promise<TaskRow> {
  const task = await findTask(db, caller.tenantId, id);
  if (!task) throw notFound();
  const scope = await organisationScope(db, caller);
  if (!(await canSeeOrganisation(db, scope, task.organisationId))) throw notFound();
  return task;
}

/** Moves a task by the machine, conditionally on the status it was read in; 409 when not allowed. */
async function moveTask(
  db: DbOrTx,
  caller: Caller,
  task: TaskRow,
  action: TaskAction,
  note: string,
  set: Partial<typeof quotationTasks.$inferInsert> = {},
) {
  const transition = taskMachine.find(task.status, action, isStaff(caller) ? 'staff' : 'owner');
  if (!transition) throw conflict('error.conflict');
  return db.transaction(async (tx) => {
    const moved = await tx
      .update(quotationTasks)
      .set({ ...set, status: transition.to })
      .where(
        and(
          eq(quotationTasks.tenantId, task.tenantId),
          eq(quotationTasks.id, task.id),
          eq(quotationTasks.status, task.status),
        ),
      )
      .returning({ id: quotationTasks.id });
    if (moved.length === 0) throw conflict('error.conflict');
    await taskEvent(tx, task, action, task.status, transition.to, caller.id, note);
    return transition.to;
  });
}

export interface TaskPrice {
  carrier: string;
  linehaul: string;
  fuel: string;
  accessorials: string;
  insurance: string;
  transitDaysMin: number;
  transitDaysMax: number;
  validDays: number;
  note: string;
}

/** Staff price a task at the operator's cost; each level's price follows from the markups. */
export async function priceTask(db: DbOrTx, caller: Caller, task: TaskRow, price: TaskPrice) {
  const quote = await findQuote(db, task.tenantId, task.quoteId);
  if (!quote) throw notFound();
  const cents = (m: string) => Number(parseMoney(m));
  const chain = await markupChain(db, task.tenantId, task.organisationId, 'truck', '');
  // Staff give the accessorials as one amount, marked up with the linehaul; insurance passes at cost.
  const linehaul = cents(price.linehaul) + cents(price.accessorials);
  const fuel = cents(price.fuel);
  const premium = cents(price.insurance);
  const insurance = premium > 0 ? { premium, deductible: 0, insuredValue: 0 } : null;
  const levels = priceLevels({ linehaul, fuel, accessorials: [], insurance }, chain);
  const result: QuoteResult = {
    productId: 0,
    code: task.taskNo,
    name: price.carrier,
    nameEn: price.carrier,
    carrier: price.carrier,
    serviceLevel: 'manual',
    mode: quote.shipment.mode,
    transitDaysMin: price.transitDaysMin,
    transitDaysMax: price.transitDaysMax,
    ok: true,
    breakdown: {
      lines: [],
      totalWeight: quote.shipment.lines.reduce((s, l) => s + l.totalWeight, 0),
      breakIndex: 0,
      deficitWeight: 0,
      deficitCharge: 0,
      grossCharge: linehaul,
      discount: 0,
      linehaul,
      minimumApplied: false,
      fuel,
      accessorials: [],
      insurance,
      total: levels[0]?.total ?? 0,
    },
    levels,
    cheapest: true,
    fastest: true,
  };
  return moveTask(db, caller, task, 'price', price.note, {
    carrier: price.carrier,
    transitDaysMin: price.transitDaysMin,
    transitDaysMax: price.transitDaysMax,
    result,
    validUntil: new Date(Date.now() + price.validDays * 86_400_000),
    pricedBy: caller.id,
  });
}

export async function actOnTask(db: DbOrTx, caller: Caller, task: TaskRow, action: TaskAction, note: string) {
  if (action === 'accept' && task.validUntil && task.validUntil <= new Date())
    throw conflict('quote.expired');
  return moveTask(db, caller, task, action, note);
}

/** Books an accepted task once; false when it was not accepted (or another booking took it). */
export async function markTaskBooked(db: DbOrTx, caller: Caller, task: TaskRow): Promise<boolean> {
  const moved = await db
    .update(quotationTasks)
    .set({ status: 'booked' })
    .where(
      and(
        eq(quotationTasks.tenantId, task.tenantId),
        eq(quotationTasks.id, task.id),
        eq(quotationTasks.status, 'accepted'),
      ),
    )
    .returning({ id: quotationTasks.id });
  if (moved.length === 0) return false;
  await taskEvent(db, task, 'book', 'accepted', 'booked', caller.id, '');
  return true;
}

export async function taskHistory(db: DbOrTx, tenantId: number, taskId: number) {
  return db
    .select()
    .from(quotationTaskEvents)
    .where(and(eq(quotationTaskEvents.tenantId, tenantId), eq(quotationTaskEvents.taskId, taskId)))
    .orderBy(quotationTaskEvents.id);
}

export async function listTasks(
  db: DbOrTx,
  caller: Caller,
  filter: { keyword?: string; status?: TaskStatus },
  page: number,
  limit: number,
) {
  const scope = await organisationScope(db, caller);
  const condition = and(
    eq(quotationTasks.tenantId, caller.tenantId),
    inArray(quotationTasks.organisationId, visibleOrganisationIds(db, scope)),
    filter.keyword ? ilike(quotationTasks.taskNo, `%${filter.keyword}%`) : undefined,
    filter.status ? eq(quotationTasks.status, filter.status) : undefined,
  );
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(quotationTasks)
      .where(condition)
      .orderBy(desc(quotationTasks.id))
      .limit(limit)
      .offset((page - 1) * limit),
    db.select({ n: count() }).from(quotationTasks).where(condition),
  ]);
  return { rows, total: total?.n ?? 0 };
}

/** What the caller may do with a task now: its side's moves, less those whose button it lacks. */
export function taskActions(task: Pick<TaskRow, 'status'>, caller: TaskViewer): TaskAction[] {
  return taskMachine.actions(task.status, isStaff(caller) ? 'staff' : 'owner').filter((action) => {
    const button = TASK_ACTION_BUTTON[action];
    return !button || caller.grants.has(button);
  });
}

type TaskViewer = Caller & Pick<RequestUser, 'grants'>;

export function taskForCaller(task: TaskRow, caller: TaskViewer) {
  const { tenantId: _t, result, ...rest } = task;
  return {
    ...rest,
    result: result ? resultForCaller(result, caller) : null,
    actions: taskActions(task, caller),
  };
}

/** What an order books: a product's priced result of a live quote, or an accepted task's price. */
export async function bookableResult(
  db: DbOrTx,
  caller: Caller,
  quote: QuoteRow,
  choice: { productId?: number; taskId?: number },
): Promise<{ result: Extract<QuoteResult, { ok: true }>; task: TaskRow | null }> {
  if (quote.status === 'booked') throw conflict('quote.booked');
  if (choice.taskId) {
    const task = await visibleTask(db, caller, choice.taskId);
    if (task.quoteId !== quote.id) throw notFound();
    if (task.status !== 'accepted' || !task.result?.ok) throw conflict('quote.taskNotAccepted');
    return { result: task.result, task };
  }
  if (quote.results.length === 0) throw conflict('quote.notPriced');
  if (quoteExpired(quote)) throw conflict('quote.expired');
  const result = quote.results.find((r) => r.productId === choice.productId);
  if (!result?.ok) throw conflict('quote.productUnavailable');
  // The product may have been switched off since the quote was priced.
  const product = await findProduct(db, quote.tenantId, result.productId);
  if (!product?.enabled) throw conflict('quote.productUnavailable');
  return { result, task: null };
}

export const moneyOf = (cents: number) => formatMoney(BigInt(cents));

/** A customer asks staff to price one of its quotes the tables could not. */
export async function requestTaskFor(db: DbOrTx, caller: Caller, quoteId: number, note: string) {
  return requestTask(db, caller, await visibleQuote(db, caller, quoteId), note);
}

/** A task's page: the task, its quote and its history, as the caller may see them. */
export async function taskDetail(db: DbOrTx, caller: TaskViewer, id: number) {
  const task = await visibleTask(db, caller, id);
  const quote = await visibleQuote(db, caller, task.quoteId);
  return {
    task: taskForCaller(task, caller),
    quote: quoteForCaller(quote, caller),
    history: await taskHistory(db, caller.tenantId, task.id),
  };
}

/** Staff price a visible task; the slowest transit may not be faster than the quickest. */
export async function priceVisibleTask(db: DbOrTx, caller: Caller, id: number, price: TaskPrice) {
  if (!isStaff(caller)) throw forbidden();
  if (price.transitDaysMax < price.transitDaysMin) throw badField('transitDaysMax', 'truck.transitOrder');
  const task = await visibleTask(db, caller, id);
  return { task, status: await priceTask(db, caller, task, price) };
}

export async function actOnVisibleTask(
  db: DbOrTx,
  caller: Caller,
  id: number,
  action: TaskAction,
  note: string,
) {
  const task = await visibleTask(db, caller, id);
  return { task, status: await actOnTask(db, caller, task, action, note) };
}
