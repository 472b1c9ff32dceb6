import type { BusinessLine } from '@freight/contracts/accounts';
import type {
  PaymentMethod,
  RechargeAction,
  RechargeCurrency,
  RechargeStatus,
} from '@freight/contracts/recharge';
import {
  bigint,
  boolean,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { createdAt, id, tenantId, updatedAt } from '../../db/columns.ts';

/** Where customers send money: the operator's bank accounts in RMB and USD, kept by staff. */
export const receivingAccounts = pgTable(
  'receiving_accounts',
  {
    tenantId: tenantId(),
    id: id(),
    currency: text('currency').$type<RechargeCurrency>().notNull(),
    bankName: text('bank_name').notNull(),
    /** The bank's name in English; empty means the same in both languages. */
    bankNameEn: text('bank_name_en').notNull().default(''),
    accountName: text('account_name').notNull(),
    /** The holder's name on the English interface; empty means the same in both languages. */
    accountNameEn: text('account_name_en').notNull().default(''),
    accountNumber: text('account_number').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.id] })],
);

/**
 * Serial numbers are `R<yyyymmdd>-<six digits>`, counted per tenant and UTC day: one upserted row per
 * day hands out the next number atomically, so two submissions never share a serial.
 */
export const rechargeSerials = pgTable(
  'recharge_serials',
  {
    tenantId: tenantId(),
    day: text('day').notNull(),
    last: integer('last').notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.day] })],
);

/** A top-up of one organisation's account on one line; `created_at` is when it was submitted. */
export const recharges = pgTable(
  'recharges',
  {
    tenantId: tenantId(),
    id: id(),
    serial: text('serial').notNull(),
    organisationId: bigint('organisation_id', { mode: 'number' }).notNull(),
    line: text('line').$type<BusinessLine>().notNull(),
    amount: bigint('amount_cents', { mode: 'bigint' }).notNull(),
    currency: text('currency').$type<RechargeCurrency>().notNull(),
    method: text('method').$type<PaymentMethod>().notNull(),
    receivingAccountId: bigint('receiving_account_id', { mode: 'number' }).notNull(),
    payerName: text('payer_name').notNull(),
    payerCardNumber: text('payer_card_number').notNull(),
    screenshotUrl: text('screenshot_url').notNull(),
    note: text('note').notNull().default(''),
    status: text('status').$type<RechargeStatus>().notNull().default('submitted'),
    /** Set by an approval: what arrived, and the operator's fee; the account got the difference. */
    creditedAmount: bigint('credited_amount_cents', { mode: 'bigint' }),
    fee: bigint('fee_cents', { mode: 'bigint' }),
    submittedBy: bigint('submitted_by', { mode: 'number' }).notNull(),
    reviewedBy: bigint('reviewed_by', { mode: 'number' }),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    reviewNote: text('review_note').notNull().default(''),
    /** When the funds were seen to arrive: at approval with funds received, or when settled later. */
    settledAt: timestamp('settled_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex('recharges_serial').on(t.tenantId, t.serial),
    index('recharges_waiting').on(t.tenantId, t.line, t.status, t.id),
    index('recharges_org').on(t.tenantId, t.organisationId, t.createdAt),
    index('recharges_org_id').on(t.tenantId, t.organisationId, t.id),
  ],
);

/** The audit record of every review step: who, when, what amount, which outcome. */
export const rechargeReviews = pgTable(
  'recharge_reviews',
  {
    tenantId: tenantId(),
    id: id(),
    rechargeId: bigint('recharge_id', { mode: 'number' }).notNull(),
    action: text('action').$type<RechargeAction>().notNull(),
    fromStatus: text('from_status').$type<RechargeStatus>().notNull(),
    toStatus: text('to_status').$type<RechargeStatus>().notNull(),
    creditedAmount: bigint('credited_amount_cents', { mode: 'bigint' }),
    fee: bigint('fee_cents', { mode: 'bigint' }),
    auditorId: bigint('auditor_id', { mode: 'number' }).notNull(),
    auditorEmail: text('auditor_email').notNull(),
    note: text('note').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index('recharge_reviews_recharge').on(t.tenantId, t.rechargeId),
  ],
);
