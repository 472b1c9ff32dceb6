import {
  ACCOUNT_ACTION_BUTTON,
  type AccountAction,
  accountMachine,
  BUSINESS_LINES,
  type BusinessLine,
  type LedgerType,
} from '@freight/contracts/accounts';
import type { MessageKey } from '@freight/contracts/messages';
import { formatMoney } from '@freight/contracts/money';
import { and, desc, eq, gte, inArray, lt, ne, sql } from 'drizzle-orm';
import { PgTransaction } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../db/client.ts';
import { conflict, isUniqueViolation } from '../../lib/errors.ts';
import { keysetPages } from '../../lib/keyset.ts';
import { registerOrganisationAccounts, type visibleOrganisationIds } from '../customers/service.ts';
import { accounts, ledgerEntries } from './schema.ts';

export type AccountRow = typeof accounts.$inferSelect;

export async function ensureAccount(
  db: DbOrTx,
  tenantId: number,
  organisationId: number,
  line: BusinessLine,
) {
  // An account is made once and read on every payment: read first, insert only when missing.
  const existing = await accountOf(db, tenantId, organisationId, line);
  if (existing) return existing;
  await db.insert(accounts).values({ tenantId, organisationId, line }).onConflictDoNothing();
  const row = await accountOf(db, tenantId, organisationId, line);
  if (!row) throw new Error('account vanished after insert');
  return row;
}

async function accountOf(db: DbOrTx, tenantId: number, organisationId: number, line: BusinessLine) {
  const [row] = await db
    .select()
    .from(accounts)
    .where(
      and(
        eq(accounts.tenantId, tenantId),
        eq(accounts.organisationId, organisationId),
        eq(accounts.line, line),
      ),
    )
    .limit(1);
  return row ?? null;
}

export async function findAccount(
  db: DbOrTx,
  tenantId: number,
  accountId: number,
): Promise<AccountRow | null> {
  const [row] = await db
    .select()
    .from(accounts)
    .where(and(eq(accounts.tenantId, tenantId), eq(accounts.id, accountId)))
    .limit(1);
  return row ?? null;
}

export const available = (a: Pick<AccountRow, 'balance' | 'creditLimit' | 'frozen'>) =>
  a.balance + a.creditLimit - a.frozen;

/**
 * What the caller may do to an account now: freeze or unfreeze by its status, set the credit limit,
 * adjust the balance; each only with its button, which is what the account calls check.
 */
export function accountActions(
  account: Pick<AccountRow, 'status' | 'line'>,
  caller: { grants: ReadonlySet<string> },
): AccountAction[] {
  const moves: AccountAction[] = [...accountMachine.actions(account.status, 'staff'), 'credit', 'adjust'];
  return moves.filter((action) => caller.grants.has(ACCOUNT_ACTION_BUTTON[action][account.line]));
}

export interface Movement {
  tenantId: number;
  accountId: number;
  type: LedgerType;
  /** Signed cents: positive credits the account, negative debits it. */
  amount: bigint;
  refType?: string;
  refId?: string;
  operatorId?: number | null;
  note?: string;
  /** A second movement with the same key changes nothing (see `MovementResult.repeated`). */
  idempotencyKey?: string;
}

export interface MovementResult {
  entryId: number;
  balanceAfter: bigint;
  /** The movement had already been made under this idempotency key; nothing changed now. */
  repeated: boolean;
}

export class InsufficientFundsError extends Error {}

/**
 * A staff member's manual adjustment, made once per request key: the same key again answers the first
 * adjustment's entry and moves nothing. A key used for another account or amount is refused (409), so a
 * client that reuses keys by mistake never has its second adjustment silently taken for the first.
 */
export async function adjustBalance(
  db: DbOrTx,
  input: {
    tenantId: number;
    accountId: number;
    amount: bigint;
    operatorId: number;
    reason: string;
    requestKey: string;
  },
): Promise<MovementResult> {
  const { tenantId, accountId, amount } = input;
  const result = await moveMoney(db, {
    tenantId,
    accountId,
    type: 'manual_adjustment',
    amount,
    operatorId: input.operatorId,
    note: input.reason,
    refType: 'manual',
    idempotencyKey: `manual-adjust:${input.requestKey}`,
  });
  if (!result.repeated) return result;
  const [first] = await db
    .select({ accountId: ledgerEntries.accountId, amount: ledgerEntries.amount })
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.tenantId, tenantId), eq(ledgerEntries.id, result.entryId)));
  if (first?.accountId !== accountId || first.amount !== amount) throw conflict('accounts.adjustKeyReused');
  return result;
}

/**
 * Runs a transaction that debits an organisation's account of a line (paying an order, a waybill or
 * a bill, a deducting resolution). When the debit finds the funds short nothing commits, and the
 * refusal (409, `key`) says what the account has available now beside the message's own `params`.
 */
export async function debitOrRefuse<T>(
  db: DbOrTx,
  owner: { tenantId: number; organisationId: number; line: BusinessLine },
  refusal: { key: MessageKey; params: Record<string, string> },
  work: (tx: DbOrTx) => Promise<T>,
): Promise<T> {
  try {
    return await db.transaction(work);
  } catch (error) {
    if (!(error instanceof InsufficientFundsError)) throw error;
    const account = await ensureAccount(db, owner.tenantId, owner.organisationId, owner.line);
    throw conflict(refusal.key, { ...refusal.params, available: formatMoney(available(account)) });
  }
}

/**
 * A record its owner pays from the balance of one line: a truck order, an express waybill, a bounce
 * bill. `claim` marks it paid in the payment's transaction, conditional on it still being unpaid, and
 * says whether it did (of two payments at once the second waits on the row and then misses); `missed`
 * answers a payment that missed (a repeat when someone else paid, else a refusal it throws); `settle`
 * writes the record's own bookkeeping once its money has moved (its sale for the reports, its timeline)
 * and gives the payment's answer.
 */
export interface Payable<T> {
  owner: { tenantId: number; organisationId: number; line: BusinessLine };
  /** Cents to debit; a record of 0 is claimed and settled without a ledger row. */
  amount: bigint;
  /** The ledger row's words; its key makes the debit once per record whatever retries. */
  ledger: Pick<Movement, 'type' | 'refType' | 'refId' | 'operatorId' | 'note'> & { idempotencyKey: string };
  /** The refusal when the funds are short (409), with the message's own parameters. */
  refusal: { key: MessageKey; params: Record<string, string> };
  claim: (tx: DbOrTx) => Promise<boolean>;
  missed: (tx: DbOrTx) => Promise<T>;
  settle: (tx: DbOrTx) => Promise<T>;
}

/**
 * The one way a record is paid from a balance: claim, debit with its ledger row, settle, in one
 * transaction, so a short balance or a crash anywhere leaves the record unpaid and the money where it
 * was. Short funds are refused naming what the account has available.
 */
export async function payFromBalance<T>(db: DbOrTx, payable: Payable<T>): Promise<T> {
  const { owner } = payable;
  // Made once and read on every payment, outside the transaction that holds the row locks.
  const account = await ensureAccount(db, owner.tenantId, owner.organisationId, owner.line);
  return debitOrRefuse(db, owner, payable.refusal, (tx) => payWithin(tx, payable, account.id));
}

/**
 * `payFromBalance`'s work inside a transaction the caller holds (a bill charged as it is raised, in a
 * savepoint of its own): short funds throw `InsufficientFundsError` and the caller decides.
 */
export async function payWithin<T>(tx: DbOrTx, payable: Payable<T>, accountId?: number): Promise<T> {
  const { owner } = payable;
  if (!(await payable.claim(tx))) return payable.missed(tx);
  if (payable.amount > 0n)
    await moveMoney(tx, {
      tenantId: owner.tenantId,
      accountId: accountId ?? (await ensureAccount(tx, owner.tenantId, owner.organisationId, owner.line)).id,
      amount: -payable.amount,
      ...payable.ledger,
    });
  return payable.settle(tx);
}

/**
 * Moves money on one account and writes its ledger row, as ONE statement: a conditional UPDATE ...
 * RETURNING and the ledger INSERT fed by it, in a data-modifying CTE. A statement is atomic, so the
 * balance change and its ledger row commit together or not at all whether or not the caller holds a
 * transaction, and one round trip holds the account's row lock only as long as the statement. A debit
 * is conditional on the available funds and the account's status, checked by the database under the
 * row lock (re-checked on the newest row when it waited), never read-then-write, so concurrent debits
 * cannot overdraw. With an idempotency key, a movement already made under it changes nothing and is
 * answered as `repeated`; two made at the same moment meet on the key's unique index, and the loser's
 * whole statement (its balance change included) fails: outside a transaction it is answered as the
 * repeat, inside one the caller's transaction fails with a 409 and nothing of it commits. Throws
 * InsufficientFundsError, or a 409 when the account is frozen; only a refusal reads the account again.
 */
export async function moveMoney(db: DbOrTx, movement: Movement): Promise<MovementResult> {
  const { tenantId, accountId, amount } = movement;
  const key = movement.idempotencyKey ?? null;
  const isDebit = amount < 0n;
  const prior = key
    ? sql`select id, balance_after_cents from ledger_entries
           where tenant_id = ${tenantId} and idempotency_key = ${key}`
    : sql`select null::bigint as id, null::bigint as balance_after_cents where false`;
  const statement = sql`
    with prior as (${prior}),
    moved as (
      update accounts set balance_cents = balance_cents + ${amount}::bigint, updated_at = now()
       where tenant_id = ${tenantId} and id = ${accountId}
         ${isDebit ? sql`and status = 'normal' and balance_cents + credit_limit_cents - frozen_cents + ${amount}::bigint >= 0` : sql``}
         and not exists (select 1 from prior)
      returning balance_cents
    ),
    entry as (
      insert into ledger_entries (tenant_id, account_id, type, amount_cents, balance_after_cents, ref_type,
        ref_id, operator_id, note, idempotency_key)
      select ${tenantId}::bigint, ${accountId}::bigint, ${movement.type}::text, ${amount}::bigint, balance_cents,
        ${movement.refType ?? ''}::text, ${movement.refId ?? ''}::text, ${movement.operatorId ?? null}::bigint,
        ${movement.note ?? ''}::text, ${key}::text
        from moved
      returning id, balance_after_cents
    )
    select id, balance_after_cents, false as repeated from entry
    union all
    select id, balance_after_cents, true from prior`;
  let row: { id: unknown; balance_after_cents: unknown; repeated: boolean } | undefined;
  try {
    row = rowsOf<NonNullable<typeof row>>(await db.execute(statement))[0];
  } catch (error) {
    if (!key || !isUniqueViolation(error)) throw error;
    // The same movement committed meanwhile. In the caller's transaction, that transaction is spoilt:
    // it fails whole and its retry will see the repeat.
    if (db instanceof PgTransaction) throw conflict();
    const [done] = await db
      .select({ id: ledgerEntries.id, balanceAfter: ledgerEntries.balanceAfter })
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.tenantId, tenantId), eq(ledgerEntries.idempotencyKey, key)))
      .limit(1);
    if (!done) throw error;
    return { entryId: done.id, balanceAfter: done.balanceAfter, repeated: true };
  }
  if (row)
    return {
      entryId: Number(row.id),
      balanceAfter: BigInt(String(row.balance_after_cents)),
      repeated: row.repeated === true || String(row.repeated) === 'true',
    };
  const account = await findAccount(db, tenantId, accountId);
  if (!account) throw new Error(`account ${accountId} not found`);
  if (isDebit && account.status !== 'normal') throw conflict('accounts.frozen');
  throw new InsufficientFundsError();
}

/** The rows of a raw statement, as either driver answers them. */
function rowsOf<T>(result: unknown): T[] {
  return ((result as { rows?: T[] }).rows ?? (result as T[])) as T[];
}

/** Accounts whose balance differs from the sum of their ledger rows (the money invariant); empty when sound. */
export async function ledgerMismatches(db: DbOrTx, tenantId?: number) {
  const result = await db.execute(sql`
    select a.tenant_id, a.id, a.balance_cents, coalesce(sum(l.amount_cents), 0) as ledger_sum
    from accounts a
    left join ledger_entries l on l.tenant_id = a.tenant_id and l.account_id = a.id
    ${tenantId === undefined ? sql`` : sql`where a.tenant_id = ${tenantId}`}
    group by a.tenant_id, a.id, a.balance_cents
    having a.balance_cents <> coalesce(sum(l.amount_cents), 0)
  `);
  return (result as unknown as { rows: unknown[] }).rows ?? (result as unknown as unknown[]);
}

/* ---------- account management by staff ---------- */

async function recordEvent(
  tx: DbOrTx,
  account: AccountRow,
  type: LedgerType,
  operatorId: number,
  note: string,
  reference: { refType: string; refId: string } = { refType: 'account', refId: String(account.id) },
): Promise<void> {
  // Status and credit changes move no money: a zero row keeps them in the account's history.
  await tx.insert(ledgerEntries).values({
    tenantId: account.tenantId,
    accountId: account.id,
    type,
    amount: 0n,
    balanceAfter: account.balance,
    operatorId,
    note,
    ...reference,
  });
}

/**
 * An event of another module that moves no money but belongs to an account's history (a recharge
 * rejected, awaiting funds, or settled), written as a zero row in the caller's transaction, so the
 * account log reads one table and other modules never write the ledger themselves.
 */
export async function recordAccountEvent(
  db: DbOrTx,
  input: {
    tenantId: number;
    organisationId: number;
    line: BusinessLine;
    type: LedgerType;
    operatorId: number;
    note: string;
    refType: string;
    refId: string;
  },
): Promise<void> {
  const account = await ensureAccount(db, input.tenantId, input.organisationId, input.line);
  await recordEvent(db, account, input.type, input.operatorId, input.note, {
    refType: input.refType,
    refId: input.refId,
  });
}

/** Freezes or unfreezes an account with a reason, recorded as a zero row; a second call is a 409. */
async function changeAccountStatus(
  db: DbOrTx,
  input: { tenantId: number; accountId: number; operatorId: number; reason: string; freeze: boolean },
) {
  const [from, to] = input.freeze ? (['normal', 'frozen'] as const) : (['frozen', 'normal'] as const);
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(accounts)
      .set({ status: to, updatedAt: new Date() })
      .where(
        and(
          eq(accounts.tenantId, input.tenantId),
          eq(accounts.id, input.accountId),
          eq(accounts.status, from),
        ),
      )
      .returning();
    if (!row) throw conflict(input.freeze ? 'accounts.alreadyFrozen' : 'accounts.notFrozen');
    await recordEvent(tx, row, input.freeze ? 'freeze' : 'unfreeze', input.operatorId, input.reason);
    return row;
  });
}

export const freezeAccount = (
  db: DbOrTx,
  tenantId: number,
  accountId: number,
  operatorId: number,
  reason: string,
) => changeAccountStatus(db, { tenantId, accountId, operatorId, reason, freeze: true });

export const unfreezeAccount = (
  db: DbOrTx,
  tenantId: number,
  accountId: number,
  operatorId: number,
  reason: string,
) => changeAccountStatus(db, { tenantId, accountId, operatorId, reason, freeze: false });

/** A new credit limit; refused when it would leave the account owing more than it may. */
export async function setCreditLimit(
  db: DbOrTx,
  input: { tenantId: number; accountId: number; creditLimit: bigint; operatorId: number; reason: string },
) {
  return db.transaction(async (tx) => {
    const [before] = await tx
      .select()
      .from(accounts)
      .where(and(eq(accounts.tenantId, input.tenantId), eq(accounts.id, input.accountId)))
      .for('update');
    if (!before) return null;
    if (before.balance + input.creditLimit - before.frozen < 0n) throw conflict('accounts.creditBelowUsed');
    const [row] = await tx
      .update(accounts)
      .set({ creditLimit: input.creditLimit, updatedAt: new Date() })
      .where(and(eq(accounts.tenantId, input.tenantId), eq(accounts.id, input.accountId)))
      .returning();
    if (!row) return null;
    await recordEvent(
      tx,
      row,
      'credit_limit',
      input.operatorId,
      `${before.creditLimit} -> ${input.creditLimit}: ${input.reason}`,
    );
    return row;
  });
}

/** Summaries of the accounts of these organisations on one line, keyed by organisation. */
export async function accountsOfOrganisations(
  db: DbOrTx,
  tenantId: number,
  organisationIds: number[],
  line: BusinessLine,
) {
  if (organisationIds.length === 0) return new Map<number, AccountRow>();
  const rows = await db
    .select()
    .from(accounts)
    .where(
      and(
        eq(accounts.tenantId, tenantId),
        eq(accounts.line, line),
        inArray(accounts.organisationId, organisationIds),
      ),
    );
  return new Map(rows.map((r) => [r.organisationId, r]));
}

// Registered as the module loads: the organisation pages show these accounts without importing this
// module, which scopes its own lists by their tree.
registerOrganisationAccounts({
  async open(tx, tenantId, organisationId) {
    for (const line of BUSINESS_LINES) await ensureAccount(tx, tenantId, organisationId, line);
  },
  async of(db, caller, organisationIds, line) {
    const rows = await accountsOfOrganisations(db, caller.tenantId, organisationIds, line);
    return new Map(
      [...rows].map(([id, a]) => [id, { ...a, available: available(a), actions: accountActions(a, caller) }]),
    );
  },
});

/* ---------- statements ---------- */

/** The organisations a caller may see, as the customers module's subquery; null for the whole tenant. */
type VisibleOrganisations = ReturnType<typeof visibleOrganisationIds>;

export interface LedgerFilter {
  line?: BusinessLine;
  type?: LedgerType;
  /** Any of these types (the account log's events). */
  types?: readonly LedgerType[];
  organisationId?: number;
  reference?: string;
  from?: Date;
  to?: Date;
  /** Money movements only: leaves out the zero rows of events (freezes, rejected recharges...). */
  moneyOnly?: boolean;
}

/**
 * Ledger rows of the accounts whose organisations `visibleOrganisations` yields (a subquery from the
 * customers module), with the totals of credits and debits over the whole filter.
 */
export async function listLedger(
  db: DbOrTx,
  tenantId: number,
  visibleOrganisations: VisibleOrganisations | null,
  filter: LedgerFilter,
  page: { page: number; limit: number } | null,
) {
  const condition = ledgerCondition(tenantId, visibleOrganisations, filter);
  const joined = () => ledgerJoined(db).where(condition).orderBy(desc(ledgerEntries.id));
  const [list, [totals]] = await Promise.all([
    page
      ? joined()
          .limit(page.limit)
          .offset((page.page - 1) * page.limit)
      : joined().limit(50_000),
    db
      .select({
        n: sql<number>`count(*)::int`,
        credits: sql<string>`coalesce(sum(case when ${ledgerEntries.amount} > 0 then ${ledgerEntries.amount} else 0 end), 0)::text`,
        debits: sql<string>`coalesce(sum(case when ${ledgerEntries.amount} < 0 then ${ledgerEntries.amount} else 0 end), 0)::text`,
      })
      .from(ledgerEntries)
      .innerJoin(
        accounts,
        and(eq(accounts.tenantId, ledgerEntries.tenantId), eq(accounts.id, ledgerEntries.accountId)),
      )
      .where(condition),
  ]);
  return {
    list,
    total: totals?.n ?? 0,
    credits: BigInt(totals?.credits ?? '0'),
    debits: BigInt(totals?.debits ?? '0'),
  };
}

function ledgerCondition(
  tenantId: number,
  visibleOrganisations: VisibleOrganisations | null,
  filter: LedgerFilter,
) {
  return and(
    eq(ledgerEntries.tenantId, tenantId),
    visibleOrganisations ? inArray(accounts.organisationId, visibleOrganisations) : undefined,
    filter.line ? eq(accounts.line, filter.line) : undefined,
    filter.type ? eq(ledgerEntries.type, filter.type) : undefined,
    filter.types ? inArray(ledgerEntries.type, [...filter.types]) : undefined,
    filter.organisationId ? eq(accounts.organisationId, filter.organisationId) : undefined,
    filter.reference ? eq(ledgerEntries.refId, filter.reference) : undefined,
    filter.moneyOnly ? ne(ledgerEntries.amount, 0n) : undefined,
    filter.from ? gte(ledgerEntries.createdAt, filter.from) : undefined,
    filter.to ? lt(ledgerEntries.createdAt, filter.to) : undefined,
  );
}

function ledgerJoined(db: DbOrTx) {
  return db
    .select({
      id: ledgerEntries.id,
      accountId: ledgerEntries.accountId,
      organisationId: accounts.organisationId,
      line: accounts.line,
      type: ledgerEntries.type,
      amount: ledgerEntries.amount,
      balanceAfter: ledgerEntries.balanceAfter,
      refType: ledgerEntries.refType,
      refId: ledgerEntries.refId,
      operatorId: ledgerEntries.operatorId,
      note: ledgerEntries.note,
      createdAt: ledgerEntries.createdAt,
    })
    .from(ledgerEntries)
    .innerJoin(
      accounts,
      and(eq(accounts.tenantId, ledgerEntries.tenantId), eq(accounts.id, ledgerEntries.accountId)),
    );
}

export type LedgerListRow = Awaited<ReturnType<typeof listLedger>>['list'][number];

/**
 * The ledger rows of a filter for an export, newest first, a keyset page at a time (by id, the list's
 * order), and their count up to a cap.
 */
export function ledgerExportPages(
  db: DbOrTx,
  tenantId: number,
  visibleOrganisations: VisibleOrganisations | null,
  filter: LedgerFilter,
) {
  const condition = ledgerCondition(tenantId, visibleOrganisations, filter);
  return {
    async count(cap: number) {
      const matching = db
        .select({ one: sql`1` })
        .from(ledgerEntries)
        .innerJoin(
          accounts,
          and(eq(accounts.tenantId, ledgerEntries.tenantId), eq(accounts.id, ledgerEntries.accountId)),
        )
        .where(condition)
        .limit(cap + 1)
        .as('matching');
      const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(matching);
      return row?.n ?? 0;
    },
    pages: (size: number) =>
      keysetPages<LedgerListRow>(size, (after, limit) =>
        ledgerJoined(db)
          .where(and(condition, after ? lt(ledgerEntries.id, after.id) : undefined))
          .orderBy(desc(ledgerEntries.id))
          .limit(limit),
      ),
  };
}

/** Every account of a line in scope, for the balance summary. */
export async function listAccounts(
  db: DbOrTx,
  tenantId: number,
  visibleOrganisations: VisibleOrganisations | null,
  line: BusinessLine,
) {
  return db
    .select()
    .from(accounts)
    .where(
      and(
        eq(accounts.tenantId, tenantId),
        eq(accounts.line, line),
        visibleOrganisations ? inArray(accounts.organisationId, visibleOrganisations) : undefined,
      ),
    )
    .orderBy(accounts.organisationId)
    .limit(50_000);
}

/** What an organisation paid for orders on a line in a period, less refunds: what it may invoice. */
export async function invoiceableAmount(
  db: DbOrTx,
  tenantId: number,
  organisationId: number,
  line: BusinessLine,
  from: Date,
  to: Date,
): Promise<bigint> {
  const [row] = await db
    .select({ total: sql<string>`coalesce(-sum(${ledgerEntries.amount}), 0)::text` })
    .from(ledgerEntries)
    .innerJoin(
      accounts,
      and(eq(accounts.tenantId, ledgerEntries.tenantId), eq(accounts.id, ledgerEntries.accountId)),
    )
    .where(
      and(
        eq(ledgerEntries.tenantId, tenantId),
        eq(accounts.organisationId, organisationId),
        eq(accounts.line, line),
        inArray(ledgerEntries.type, ['order_payment', 'refund']),
        gte(ledgerEntries.createdAt, from),
        lt(ledgerEntries.createdAt, to),
      ),
    );
  return BigInt(row?.total ?? '0');
}

/**
 * What the organisations `visibleOrganisations` yields (null: the whole tenant) paid for orders on a
 * line each day (UTC) since a moment, less refunds, as `invoiceableAmount` counts it: the dashboards'
 * revenue. Days without money are left out.
 */
export async function netPaidPerDay(
  db: DbOrTx,
  tenantId: number,
  visibleOrganisations: VisibleOrganisations | null,
  line: BusinessLine,
  since: Date,
): Promise<{ day: string; net: bigint }[]> {
  const rows = await db
    .select({
      day: sql<string>`to_char(${ledgerEntries.createdAt} at time zone 'UTC', 'YYYY-MM-DD')`,
      net: sql<string>`coalesce(-sum(${ledgerEntries.amount}), 0)::text`,
    })
    .from(ledgerEntries)
    .innerJoin(
      accounts,
      and(eq(accounts.tenantId, ledgerEntries.tenantId), eq(accounts.id, ledgerEntries.accountId)),
    )
    .where(
      and(
        eq(ledgerEntries.tenantId, tenantId),
        visibleOrganisations ? inArray(accounts.organisationId, visibleOrganisations) : undefined,
        eq(accounts.line, line),
        inArray(ledgerEntries.type, ['order_payment', 'refund']),
        gte(ledgerEntries.createdAt, since),
      ),
    )
    .groupBy(sql`1`);
  return rows.map((r) => ({ day: r.day, net: BigInt(r.net) }));
}

/**
 * What an account was charged under one reference (an order's number: its payment, surcharges and
 * work-order deductions), less what went back to it: the most a work order may still refund.
 */
export async function netChargedFor(
  db: DbOrTx,
  tenantId: number,
  accountId: number,
  refId: string,
): Promise<bigint> {
  const [row] = await db
    .select({ total: sql<string>`coalesce(-sum(${ledgerEntries.amount}), 0)::text` })
    .from(ledgerEntries)
    .where(
      and(
        eq(ledgerEntries.tenantId, tenantId),
        eq(ledgerEntries.accountId, accountId),
        eq(ledgerEntries.refId, refId),
        inArray(ledgerEntries.type, [
          'order_payment',
          'refund',
          'surcharge',
          'work_order_deduct',
          'work_order_refund',
        ]),
      ),
    );
  return BigInt(row?.total ?? '0');
}
