import { randomInt } from 'node:crypto';
import type { BusinessLine } from '@freight/contracts/accounts';
import { translate } from '@freight/contracts/messages';
import { formatMoney } from '@freight/contracts/money';
import {
  CREDITING_ACTIONS,
  RECHARGE_WAITING,
  type RechargeAction,
  rechargeMachine,
} from '@freight/contracts/recharge';
import { and, count, desc, eq, gte, ilike, inArray, lt, or, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { badField, conflict, notFound } from '../../lib/errors.ts';
import { ensureAccount, moveMoney } from '../accounts/service.ts';
import { findUser } from '../auth/service.ts';
import { type OrganisationScope, visibleOrganisationIds } from '../customers/service.ts';
import { createNotice } from '../notices/service.ts';
import { receivingAccounts, rechargeReviews, recharges } from './schema.ts';

export type RechargeRow = typeof recharges.$inferSelect;

export async function listReceivingAccounts(db: DbOrTx, tenantId: number, onlyEnabled: boolean) {
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

function newSerial(): string {
  const now = new Date();
  const stamp = now.toISOString().replace(/[-:T]/g, '').slice(0, 14);
  return `R${stamp}${String(randomInt(0, 10_000)).padStart(4, '0')}`;
}

export interface SubmitRecharge {
  tenantId: number;
  organisationId: number;
  userId: number;
  line: BusinessLine;
  amount: bigint;
  method: string;
  receivingAccountId: number;
  payerName: string;
  payerCardNumber: string;
  screenshotUrl: string;
  note: string;
}

export async function submitRecharge(db: DbOrTx, input: SubmitRecharge): Promise<RechargeRow> {
  const [account] = await db
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
  const [row] = await db
    .insert(recharges)
    .values({ ...fields, serial: newSerial(), currency: account.currency, submittedBy: userId })
    .returning();
  if (!row) throw new Error('recharge insert returned nothing');
  return row;
}

export interface RechargeFilter {
  line?: BusinessLine;
  status?: RechargeRow['status'];
  serial?: string;
  keyword?: string;
  from?: Date;
  to?: Date;
}

function listCondition(db: DbOrTx, scope: OrganisationScope, f: RechargeFilter): SQL | undefined {
  return and(
    eq(recharges.tenantId, scope.tenantId),
    scope.kind === 'subtree'
      ? inArray(recharges.organisationId, visibleOrganisationIds(db, scope))
      : undefined,
    f.line ? eq(recharges.line, f.line) : undefined,
    f.status ? eq(recharges.status, f.status) : undefined,
    f.serial ? eq(recharges.serial, f.serial) : undefined,
    f.keyword
      ? or(ilike(recharges.payerName, `%${f.keyword}%`), ilike(recharges.serial, `%${f.keyword}%`))
      : undefined,
    f.from ? gte(recharges.createdAt, f.from) : undefined,
    f.to ? lt(recharges.createdAt, f.to) : undefined,
  );
}

export async function listRecharges(
  db: DbOrTx,
  scope: OrganisationScope,
  filter: RechargeFilter,
  page?: { page: number; limit: number },
) {
  const condition = listCondition(db, scope, filter);
  const query = db.select().from(recharges).where(condition).orderBy(desc(recharges.id));
  const [list, [total]] = await Promise.all([
    page ? query.limit(page.limit).offset((page.page - 1) * page.limit) : query.limit(50_000),
    db.select({ n: count() }).from(recharges).where(condition),
  ]);
  return { list, total: total?.n ?? 0 };
}

export async function findRecharge(db: DbOrTx, tenantId: number, id: number): Promise<RechargeRow | null> {
  const [row] = await db
    .select()
    .from(recharges)
    .where(and(eq(recharges.tenantId, tenantId), eq(recharges.id, id)))
    .limit(1);
  return row ?? null;
}

export async function reviewsOf(db: DbOrTx, tenantId: number, rechargeId: number) {
  return db
    .select()
    .from(rechargeReviews)
    .where(and(eq(rechargeReviews.tenantId, tenantId), eq(rechargeReviews.rechargeId, rechargeId)))
    .orderBy(rechargeReviews.id);
}

export interface ReviewInput {
  tenantId: number;
  rechargeId: number;
  action: RechargeAction;
  creditedAmount?: bigint;
  fee: bigint;
  note: string;
  auditor: { id: number; email: string };
}

/**
 * One review step, in one transaction under the recharge's row lock: the status machine decides
 * whether the step is allowed from the current status (409 otherwise, so reviewing twice or two
 * reviewers at once act once), an approval credits the account through the ledger with the
 * recharge as its idempotency key, the audit record is written, and the submitter gets a notice.
 */
export async function reviewRecharge(db: DbOrTx, input: ReviewInput): Promise<RechargeRow> {
  return db.transaction(async (tx) => {
    const [current] = await tx
      .select()
      .from(recharges)
      .where(and(eq(recharges.tenantId, input.tenantId), eq(recharges.id, input.rechargeId)))
      .for('update');
    if (!current) throw notFound();
    const step = rechargeMachine.find(current.status, input.action, 'reviewer');
    if (!step) throw conflict('recharge.alreadyReviewed');
    if (input.action === 'reject' && !input.note) throw badField('note', 'recharge.rejectNeedsNote');

    const crediting = CREDITING_ACTIONS.includes(input.action);
    const credited = crediting ? (input.creditedAmount ?? current.amount) : null;
    const fee = crediting ? input.fee : null;
    if (credited !== null && fee !== null && fee > credited) throw badField('fee', 'recharge.feeTooLarge');
    if (credited !== null && fee !== null) {
      // The fee is kept by the operator: the account receives what arrived less the fee, one ledger row.
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
        reviewedBy: input.auditor.id,
        reviewedAt: now,
        reviewNote: input.note,
        ...(input.action === 'settle' || input.action === 'approve_received' ? { settledAt: now } : {}),
      })
      .where(and(eq(recharges.tenantId, input.tenantId), eq(recharges.id, current.id)))
      .returning();
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
    if (input.action !== 'settle') {
      const submitter = await findUser(tx, input.tenantId, current.submittedBy);
      if (submitter) {
        const language = submitter.locale === 'en' ? 'en-US' : 'zh-CN';
        const key =
          input.action === 'reject'
            ? 'recharge.noticeRejected'
            : input.action === 'await_funds'
              ? 'recharge.noticeAwaiting'
              : 'recharge.noticeApproved';
        await createNotice(tx, {
          tenantId: input.tenantId,
          userId: submitter.id,
          type: 1,
          title: translate(language, 'recharge.noticeTitle'),
          content: translate(language, key, {
            serial: current.serial,
            amount: formatMoney((credited ?? 0n) - (fee ?? 0n)),
            note: input.note,
          }),
          orderType: 3,
          orderSn: current.serial,
        });
      }
    }
    return updated as RechargeRow;
  });
}

/** Recharges waiting for review on each line, counted only for lines the caller may review. */
export async function waitingCounts(db: DbOrTx, tenantId: number, lines: BusinessLine[]) {
  if (lines.length === 0) return { truck: 0, express: 0 };
  const rows = await db
    .select({ line: recharges.line, n: count() })
    .from(recharges)
    .where(
      and(
        eq(recharges.tenantId, tenantId),
        inArray(recharges.line, lines),
        inArray(recharges.status, [...RECHARGE_WAITING]),
      ),
    )
    .groupBy(recharges.line);
  const by = new Map(rows.map((r) => [r.line, r.n]));
  return { truck: by.get('truck') ?? 0, express: by.get('express') ?? 0 };
}
