import { BUSINESS_LINES, type BusinessLine, type LedgerType } from '@freight/contracts/accounts';
import type { MessageKey } from '@freight/contracts/messages';
import { formatMoney } from '@freight/contracts/money';
import {
  CREDITING_ACTIONS,
  type PaymentMethod,
  RECHARGE_WAITING,
  type ReceivingAccountBody,
  type RechargeAction,
  type RechargeStatus,
  rechargeMachine,
} from '@freight/contracts/recharge';
import { and, count, desc, eq, gte, ilike, inArray, lt, or, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { badField, conflict, notFound } from '../../lib/errors.ts';
import { containing } from '../../lib/filters.ts';
import { cappedCount, keysetPages } from '../../lib/keyset.ts';
import { handleKey, ShortCache } from '../../lib/short-cache.ts';
import type { RequestUser } from '../../plugins/context.ts';
import { ensureAccount, moveMoney, recordAccountEvent } from '../accounts/service.ts';
import {
  type OrganisationScope,
  organisationIdsMatching,
  organisationNames,
  organisationScope,
  visibleOrganisationIds,
} from '../customers/service.ts';
import { NoticeOrderType, noticeUser } from '../notices/service.ts';
import { claimUpload, recordOf } from '../uploads/service.ts';
import { receivingAccounts, rechargeReviews, rechargeSerials, recharges } from './schema.ts';

export type RechargeRow = typeof recharges.$inferSelect;
export type ReceivingAccountRow = typeof receivingAccounts.$inferSelect;
export type RechargeReviewRow = typeof rechargeReviews.$inferSelect;

/** The button that reviews a line's recharges (menu ids 26 and 122). */
export const RECHARGE_REVIEW_KEY: Record<BusinessLine, string> = {
  truck: 'recharge:review',
  express: 'express-recharge:review',
};
/** Any of these pages shows a line's recharges: submitting, managing, reviewing. */
export const RECHARGE_LIST_PAGES: Record<BusinessLine, string[]> = {
  truck: ['/recharge', '/rechargeMGT', '/rechargeReview'],
  express: ['/expressrecharge', '/deliveryRechargeMGT', '/deliveryRechargeReview'],
};

/** Each line's name, in messages. */
export const RECHARGE_LINE_LABEL: Record<BusinessLine, MessageKey> = {
  truck: 'recharge.lineTruck',
  express: 'recharge.lineExpress',
};

/** The lines whose recharges the user may list: those of which it holds a list page. */
export const linesListable = (user: Pick<RequestUser, 'grants'>) =>
  BUSINESS_LINES.filter((line) => RECHARGE_LIST_PAGES[line].some((page) => user.grants.has(page)));
export const mayReview = (user: Pick<RequestUser, 'identity' | 'grants'>, line: BusinessLine) =>
  user.identity === 'employee' && user.grants.has(RECHARGE_REVIEW_KEY[line]);

/** Card numbers in lists show only their last four digits. */
const maskCard = (card: string) => `${'*'.repeat(Math.max(0, card.length - 4))}${card.slice(-4)}`;
const money = (cents: bigint | null) => (cents === null ? null : formatMoney(cents));

/** A recharge as the API shows it; `actions` are the review steps the viewer may take now. */
export function presentRecharge(
  row: RechargeRow,
  viewer: Pick<RequestUser, 'identity' | 'grants'>,
  organisationName = '',
  fullCard = false,
) {
  return {
    id: row.id,
    serial: row.serial,
    organisationId: row.organisationId,
    organisationName,
    line: row.line,
    amount: formatMoney(row.amount),
    currency: row.currency,
    method: row.method,
    receivingAccountId: row.receivingAccountId,
    payerName: row.payerName,
    payerCardNumber: fullCard ? row.payerCardNumber : maskCard(row.payerCardNumber),
    screenshotUrl: row.screenshotUrl,
    note: row.note,
    status: row.status,
    creditedAmount: money(row.creditedAmount),
    fee: money(row.fee),
    reviewNote: row.reviewNote,
    reviewedAt: row.reviewedAt,
    settledAt: row.settledAt,
    submittedAt: row.createdAt,
    createdAt: row.createdAt,
    actions: mayReview(viewer, row.line) ? rechargeMachine.actions(row.status, 'reviewer') : [],
  };
}

/* ---------- receiving accounts ---------- */

export async function listReceivingAccounts(
  db: DbOrTx,
  tenantId: number,
  onlyEnabled: boolean,
): Promise<ReceivingAccountRow[]> {
  return db
    .select()
    .from(receivingAccounts)
    .where(
      and(
        eq(receivingAccounts.tenantId, tenantId),
        onlyEnabled ? eq(receivingAccounts.enabled, true) : undefined,
      ),
    )
    .orderBy(receivingAccounts.id);
}

/** Creates a receiving account, or updates one when `id` is given; null when that id is unknown. */
export async function saveReceivingAccount(
  db: DbOrTx,
  tenantId: number,
  input: ReceivingAccountBody,
): Promise<number | null> {
  const { id, ...fields } = input;
  if (id) {
    const [row] = await db
      .update(receivingAccounts)
      .set(fields)
      .where(and(eq(receivingAccounts.tenantId, tenantId), eq(receivingAccounts.id, id)))
      .returning({ id: receivingAccounts.id });
    return row?.id ?? null;
  }
  const [row] = await db
    .insert(receivingAccounts)
    .values({ tenantId, ...fields })
    .returning({ id: receivingAccounts.id });
  if (!row) throw new Error('receiving account insert returned nothing');
  return row.id;
}

/**
 * Deletes a receiving account nobody has paid into yet. One that recharges name stays, so their
 * records keep saying where the money went: it can be disabled instead (409).
 */
export async function deleteReceivingAccount(db: DbOrTx, tenantId: number, id: number): Promise<void> {
  await db.transaction(async (tx) => {
    const [account] = await tx
      .select({ id: receivingAccounts.id })
      .from(receivingAccounts)
      .where(and(eq(receivingAccounts.tenantId, tenantId), eq(receivingAccounts.id, id)))
      .for('update');
    if (!account) throw notFound();
    const [used] = await tx
      .select({ id: recharges.id })
      .from(recharges)
      .where(and(eq(recharges.tenantId, tenantId), eq(recharges.receivingAccountId, id)))
      .limit(1);
    if (used) throw conflict('recharge.receivingAccountInUse');
    await tx
      .delete(receivingAccounts)
      .where(and(eq(receivingAccounts.tenantId, tenantId), eq(receivingAccounts.id, id)));
  });
}

/* ---------- submitting ---------- */

/** The next serial of the tenant for today (UTC): `R20261123-000123`. */
async function nextSerial(tx: DbOrTx, tenantId: number, now: Date): Promise<string> {
  const day = now.toISOString().slice(0, 10).replace(/-/g, '');
  const [row] = await tx
    .insert(rechargeSerials)
    .values({ tenantId, day, last: 1 })
    .onConflictDoUpdate({
      target: [rechargeSerials.tenantId, rechargeSerials.day],
      set: { last: sql`${rechargeSerials.last} + 1` },
    })
    .returning({ last: rechargeSerials.last });
  if (!row) throw new Error('recharge serial upsert returned nothing');
  return `R${day}-${String(row.last).padStart(6, '0')}`;
}

export interface SubmitRecharge {
  tenantId: number;
  /** The submitter's own organisation: nobody recharges somebody else's account. */
  organisationId: number;
  userId: number;
  line: BusinessLine;
  amount: bigint;
  method: PaymentMethod;
  receivingAccountId: number;
  payerName: string;
  payerCardNumber: string;
  screenshotUrl: string;
  note: string;
}

/** Records a recharge for review; its currency is that of the enabled receiving account paid into. */
export async function submitRecharge(db: DbOrTx, input: SubmitRecharge): Promise<RechargeRow> {
  const submitted = await db.transaction(async (tx) => {
    const [account] = await tx
      .select()
      .from(receivingAccounts)
      .where(
        and(
          eq(receivingAccounts.tenantId, input.tenantId),
          eq(receivingAccounts.id, input.receivingAccountId),
          eq(receivingAccounts.enabled, true),
        ),
      )
      .limit(1);
    if (!account) throw badField('receivingAccountId', 'recharge.receivingAccountMissing');
    const { userId, ...fields } = input;
    const [row] = await tx
      .insert(recharges)
      .values({
        ...fields,
        serial: await nextSerial(tx, input.tenantId, new Date()),
        currency: account.currency,
        submittedBy: userId,
      })
      .returning();
    if (!row) throw new Error('recharge insert returned nothing');
    // The screenshot must be the submitter's own upload; from now on only who sees the recharge loads it.
    await claimUpload(tx, input.tenantId, input.screenshotUrl, recordOf('recharge', row.id), {
      field: 'screenshotUrl',
      by: userId,
    });
    return row;
  });
  // The submitter's next look at the counts shows it (other processes within a second).
  forgetWaitingCounts();
  return submitted;
}

/* ---------- lists ---------- */

export interface RechargeFilter {
  /** The lines the caller may list at all; a recharge of any other line is never shown. */
  lines: readonly BusinessLine[];
  line?: BusinessLine;
  status?: RechargeStatus;
  serial?: string;
  organisationId?: number;
  keyword?: string;
  from?: Date;
  to?: Date;
}

/**
 * Organisations in scope whose name or contact matches a keyword, through the customers module (this
 * module never reads its table). A search box narrows to a few: the first 200 of each type are enough.
 */
async function listCondition(
  db: DbOrTx,
  scope: OrganisationScope,
  f: RechargeFilter,
): Promise<SQL | undefined> {
  const pattern = f.keyword ? containing(f.keyword) : null;
  return and(
    eq(recharges.tenantId, scope.tenantId),
    scope.kind === 'subtree'
      ? inArray(recharges.organisationId, visibleOrganisationIds(db, scope))
      : undefined,
    inArray(recharges.line, [...f.lines]),
    f.line ? eq(recharges.line, f.line) : undefined,
    f.status ? eq(recharges.status, f.status) : undefined,
    f.serial ? eq(recharges.serial, f.serial) : undefined,
    f.organisationId ? eq(recharges.organisationId, f.organisationId) : undefined,
    pattern
      ? or(
          ilike(recharges.payerName, pattern),
          ilike(recharges.serial, pattern),
          inArray(recharges.organisationId, organisationIdsMatching(db, scope, f.keyword as string)),
        )
      : undefined,
    f.from ? gte(recharges.createdAt, f.from) : undefined,
    f.to ? lt(recharges.createdAt, f.to) : undefined,
  );
}

/** A page of recharges in the caller's scope (own organisation and below; the tenant for staff), newest first. */
export async function listRecharges(
  db: DbOrTx,
  scope: OrganisationScope,
  filter: RechargeFilter,
  page: { page: number; limit: number },
) {
  if (filter.lines.length === 0) return { list: [], total: 0 };
  const condition = await listCondition(db, scope, filter);
  const [list, [total]] = await Promise.all([
    db
      .select()
      .from(recharges)
      .where(condition)
      .orderBy(desc(recharges.id))
      .limit(page.limit)
      .offset((page.page - 1) * page.limit),
    db.select({ n: count() }).from(recharges).where(condition),
  ]);
  return { list, total: total?.n ?? 0 };
}

/**
 * The export's recharges as the viewer sees them: the list's filter and order, a keyset page at a
 * time, counted up to a cap.
 */
export async function rechargeExportRows(
  db: DbOrTx,
  viewer: Pick<RequestUser, 'tenantId' | 'identity' | 'organisationId' | 'grants'>,
  filter: Omit<RechargeFilter, 'lines'>,
) {
  const scope = await organisationScope(db, viewer);
  const lines = linesListable(viewer);
  const condition = lines.length > 0 ? await listCondition(db, scope, { ...filter, lines }) : sql`false`;
  return {
    count: (cap: number) => cappedCount(db, recharges, condition, cap),
    async *pages(size: number) {
      const raw = keysetPages<RechargeRow>(size, (after, limit) =>
        db
          .select()
          .from(recharges)
          .where(and(condition, after ? lt(recharges.id, after.id) : undefined))
          .orderBy(desc(recharges.id))
          .limit(limit),
      );
      for await (const rows of raw) {
        const names = await organisationNames(db, viewer.tenantId, [
          ...new Set(rows.map((r) => r.organisationId)),
        ]);
        yield rows.map((r) => presentRecharge(r, viewer, names.get(r.organisationId)));
      }
    },
  };
}

export async function findRecharge(db: DbOrTx, tenantId: number, id: number): Promise<RechargeRow | null> {
  const [row] = await db
    .select()
    .from(recharges)
    .where(and(eq(recharges.tenantId, tenantId), eq(recharges.id, id)))
    .limit(1);
  return row ?? null;
}

/** The audit record of a recharge, oldest step first. */
export async function reviewsOf(
  db: DbOrTx,
  tenantId: number,
  rechargeId: number,
): Promise<RechargeReviewRow[]> {
  return db
    .select()
    .from(rechargeReviews)
    .where(and(eq(rechargeReviews.tenantId, tenantId), eq(rechargeReviews.rechargeId, rechargeId)))
    .orderBy(rechargeReviews.id);
}

/* ---------- reviewing ---------- */

export interface ReviewInput {
  tenantId: number;
  rechargeId: number;
  action: RechargeAction;
  /** What actually arrived; the submitted amount when not given. */
  creditedAmount?: bigint;
  fee: bigint;
  note: string;
  auditor: { id: number; email: string };
}

/** Review steps that credit nothing still show in the account log, as events of the account. */
const ACCOUNT_EVENT: Partial<Record<RechargeAction, LedgerType>> = {
  await_funds: 'recharge_awaiting',
  reject: 'recharge_rejected',
  settle: 'recharge_settled',
};

const NOTICE_TEXT: Partial<Record<RechargeAction, MessageKey>> = {
  approve_received: 'recharge.noticeApproved',
  approve_pending: 'recharge.noticeApproved',
  await_funds: 'recharge.noticeAwaiting',
  reject: 'recharge.noticeRejected',
};

/**
 * One review step, in one transaction under the recharge's row lock: the status machine decides
 * whether the step is allowed from the current status (409 otherwise, so reviewing twice or two
 * reviewers at once act once), an approval credits the account through the ledger with the
 * recharge as its idempotency key, the audit record is written, and the submitter gets a notice in
 * their own language. Settling (`settle`) moves no money and tells nobody.
 */
export async function reviewRecharge(db: DbOrTx, input: ReviewInput): Promise<RechargeRow> {
  const reviewed = await db.transaction(async (tx) => {
    const [current] = await tx
      .select()
      .from(recharges)
      .where(and(eq(recharges.tenantId, input.tenantId), eq(recharges.id, input.rechargeId)))
      .for('update');
    if (!current) throw notFound();
    const step = rechargeMachine.find(current.status, input.action, 'reviewer');
    if (!step)
      throw conflict(
        input.action === 'settle' ? 'recharge.notAwaitingSettlement' : 'recharge.alreadyReviewed',
      );
    if (input.action === 'reject' && !input.note) throw badField('note', 'recharge.rejectNeedsNote');

    const crediting = CREDITING_ACTIONS.includes(input.action);
    const credited = crediting ? (input.creditedAmount ?? current.amount) : null;
    const fee = crediting ? input.fee : null;
    if (credited !== null && fee !== null) {
      if (fee >= credited) throw badField('fee', 'recharge.feeTooLarge');
      // The operator keeps the fee: the account receives what arrived less the fee, as one ledger row
      // whose note names the fee; the recharge keeps both amounts.
      const account = await ensureAccount(tx, input.tenantId, current.organisationId, current.line);
      await moveMoney(tx, {
        tenantId: input.tenantId,
        accountId: account.id,
        type: 'recharge',
        amount: credited - fee,
        refType: 'recharge',
        refId: current.serial,
        operatorId: input.auditor.id,
        note: fee > 0n ? `fee ${formatMoney(fee)}` : '',
        idempotencyKey: `recharge:${current.id}`,
      });
    }
    const now = new Date();
    const [updated] = await tx
      .update(recharges)
      .set({
        status: step.to,
        ...(credited !== null ? { creditedAmount: credited, fee } : {}),
        ...(input.action === 'settle'
          ? { settledAt: now }
          : { reviewedBy: input.auditor.id, reviewedAt: now, reviewNote: input.note }),
        ...(input.action === 'approve_received' ? { settledAt: now } : {}),
      })
      .where(and(eq(recharges.tenantId, input.tenantId), eq(recharges.id, current.id)))
      .returning();
    if (!updated) throw new Error('recharge vanished under its row lock');
    const event = ACCOUNT_EVENT[input.action];
    if (event)
      await recordAccountEvent(tx, {
        tenantId: input.tenantId,
        organisationId: current.organisationId,
        line: current.line,
        type: event,
        operatorId: input.auditor.id,
        note: input.note,
        refType: 'recharge',
        refId: current.serial,
      });
    await tx.insert(rechargeReviews).values({
      tenantId: input.tenantId,
      rechargeId: current.id,
      action: input.action,
      fromStatus: current.status,
      toStatus: step.to,
      creditedAmount: credited,
      fee,
      auditorId: input.auditor.id,
      auditorEmail: input.auditor.email,
      note: input.note,
    });
    const text = NOTICE_TEXT[input.action];
    if (text)
      await noticeUser(tx, {
        tenantId: input.tenantId,
        userId: current.submittedBy,
        title: 'recharge.noticeTitle',
        content: {
          key: text,
          params: {
            serial: current.serial,
            amount: formatMoney((credited ?? 0n) - (fee ?? 0n)),
            note: input.note,
          },
        },
        orderType: NoticeOrderType.AccountDetail,
        orderSn: current.serial,
      });
    return updated;
  });
  forgetWaitingCounts();
  return reviewed;
}

/* ---------- waiting counts ---------- */

/**
 * Every signed-in page polls the counts (every 10 s, every user), so one count per tenant and set of
 * lines serves every poll of that second in this process. This process forgets them as soon as it
 * submits or reviews a recharge; another process may show the old figure for up to that second.
 */
export const WAITING_COUNTS_MS = 1_000;
const waitingCache = new ShortCache<string, Record<BusinessLine, number>>(WAITING_COUNTS_MS);

export function forgetWaitingCounts(): void {
  waitingCache.clear();
}

/** Recharges waiting for review on each line, counted only for the lines given (those the caller reviews). */
export async function waitingCounts(
  db: DbOrTx,
  tenantId: number,
  lines: readonly BusinessLine[],
): Promise<Record<BusinessLine, number>> {
  if (lines.length === 0)
    return Object.fromEntries(BUSINESS_LINES.map((l) => [l, 0])) as Record<BusinessLine, number>;
  return waitingCache.through(`${handleKey(db)}:${tenantId}:${lines.join(',')}`, () =>
    countWaiting(db, tenantId, lines),
  );
}

async function countWaiting(
  db: DbOrTx,
  tenantId: number,
  lines: readonly BusinessLine[],
): Promise<Record<BusinessLine, number>> {
  const counts = Object.fromEntries(BUSINESS_LINES.map((l) => [l, 0])) as Record<BusinessLine, number>;
  // One grouped count on the (tenant_id, line, status) index: every signed-in page polls this.
  const rows = await db
    .select({ line: recharges.line, n: count() })
    .from(recharges)
    .where(
      and(
        eq(recharges.tenantId, tenantId),
        inArray(recharges.line, [...lines]),
        inArray(recharges.status, [...RECHARGE_WAITING]),
      ),
    )
    .groupBy(recharges.line);
  for (const row of rows) counts[row.line] = row.n;
  return counts;
}
