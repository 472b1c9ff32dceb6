import type { AccountStatus, BusinessLine, LedgerType } from '@freight/contracts/accounts';
import { sql } from 'drizzle-orm';
import { bigint, index, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, id, tenantId, updatedAt } from '../../db/columns.ts';

const cents = (name: string) => bigint(name, { mode: 'bigint' }).notNull().default(sql`0`);

/** One account per organisation and business line; amounts in integer cents. */
export const accounts = pgTable(
  'accounts',
  {
    tenantId: tenantId(),
    id: id(),
    organisationId: bigint('organisation_id', { mode: 'number' }).notNull(),
    line: text('line').$type<BusinessLine>().notNull(),
    balance: cents('balance_cents'),
    creditLimit: cents('credit_limit_cents'),
    frozen: cents('frozen_cents'),
    deposit: cents('deposit_cents'),
    status: text('status').$type<AccountStatus>().notNull().default('normal'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex('accounts_org_line').on(t.tenantId, t.organisationId, t.line),
  ],
);

/**
 * Append-only: every change of a balance is one row, written in the same transaction as the change.
 * `idempotencyKey` makes paying, refunding and approving safe to repeat: a second attempt collides.
 */
export const ledgerEntries = pgTable(
  'ledger_entries',
  {
    tenantId: tenantId(),
    id: id(),
    accountId: bigint('account_id', { mode: 'number' }).notNull(),
    type: text('type').$type<LedgerType>().notNull(),
    amount: bigint('amount_cents', { mode: 'bigint' }).notNull(),
    balanceAfter: bigint('balance_after_cents', { mode: 'bigint' }).notNull(),
    refType: text('ref_type').notNull().default(''),
    refId: text('ref_id').notNull().default(''),
    operatorId: bigint('operator_id', { mode: 'number' }),
    note: text('note').notNull().default(''),
    idempotencyKey: text('idempotency_key'),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index('ledger_account_time').on(t.tenantId, t.accountId, t.createdAt),
    // The ledger pages newest first by id; this range gives that order without a sort.
    index('ledger_account_id').on(t.tenantId, t.accountId, t.id),
    uniqueIndex('ledger_idempotency').on(t.tenantId, t.idempotencyKey),
    // An order's rows (payment, refunds, surcharges, work orders) are found by its number.
    index('ledger_reference').on(t.tenantId, t.refId),
  ],
);
