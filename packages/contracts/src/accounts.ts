import { z } from 'zod';
import { pageQuery } from './api.ts';
import { moneyString, pageOf, timestamp } from './responses.ts';
import { defineStateMachine } from './state-machine.ts';
import { instantField, str } from './validation.ts';

/** Business lines: each organisation has one account per line (ARCHITECTURE section 6). */
export const BUSINESS_LINES = ['truck', 'express'] as const;
export type BusinessLine = (typeof BUSINESS_LINES)[number];

export const ACCOUNT_STATUSES = ['normal', 'frozen'] as const;
export type AccountStatus = (typeof ACCOUNT_STATUSES)[number];

/**
 * What staff do to an account: freeze and unfreeze move its status; a credit limit and a manual
 * adjustment may be set in either status. Each needs its button (`ACCOUNT_ACTION_BUTTON`).
 */
export const ACCOUNT_ACTIONS = ['freeze', 'unfreeze', 'credit', 'adjust'] as const;
export type AccountAction = (typeof ACCOUNT_ACTIONS)[number];

export const accountMachine = defineStateMachine<AccountStatus, 'freeze' | 'unfreeze', 'staff'>([
  { from: 'normal', action: 'freeze', to: 'frozen', who: ['staff'] },
  { from: 'frozen', action: 'unfreeze', to: 'normal', who: ['staff'] },
]);

/** The button each account action needs, by line (express accounts adjust with their own button). */
export const ACCOUNT_ACTION_BUTTON: Record<AccountAction, Record<'truck' | 'express', string>> = {
  freeze: { truck: 'account:freeze', express: 'account:freeze' },
  unfreeze: { truck: 'account:freeze', express: 'account:freeze' },
  credit: { truck: 'account:credit', express: 'account:credit' },
  adjust: { truck: 'account:adjust', express: 'express-account:adjust' },
};

/** Ledger row types. Status and credit changes are recorded with a zero amount. */
export const LEDGER_TYPES = [
  'recharge',
  'order_payment',
  'refund',
  'work_order_add',
  'work_order_deduct',
  'work_order_refund',
  'surcharge',
  'manual_adjustment',
  'freeze',
  'unfreeze',
  'credit_limit',
  // Recharge review steps that credit nothing; the approving steps are the `recharge` credit itself.
  'recharge_awaiting',
  'recharge_rejected',
  'recharge_settled',
] as const;
export type LedgerType = (typeof LEDGER_TYPES)[number];

/** The account log: what happened to an account other than orders and work orders (SPEC section 2). */
export const ACCOUNT_LOG_TYPES = [
  'freeze',
  'unfreeze',
  'credit_limit',
  'manual_adjustment',
  'recharge',
  'recharge_awaiting',
  'recharge_rejected',
  'recharge_settled',
] as const satisfies readonly LedgerType[];

/** Supplementary deductions: charges made after the order was paid. */
export const DEDUCTION_TYPES = ['surcharge', 'work_order_deduct'] as const satisfies readonly LedgerType[];

export const ledgerQuery = pageQuery.extend({
  line: z.enum(BUSINESS_LINES),
  type: z.enum(LEDGER_TYPES).optional(),
  organisationId: z.number().int().positive().optional(),
  reference: str().trim().max(60).optional(),
  /** Part of the organisation's name, contact or contact e-mail. */
  keyword: str().trim().max(100).optional(),
  from: instantField().optional(),
  to: instantField().optional(),
});

export const balanceQuery = z.object({ line: z.enum(BUSINESS_LINES) });

/* ----- responses ----- */

/** An account as staff see it; `actions` are what the caller may do to it now. */
export const accountView = z.object({
  id: z.number().int(),
  organisationId: z.number().int(),
  line: z.enum(BUSINESS_LINES),
  status: z.enum(ACCOUNT_STATUSES),
  balance: moneyString,
  creditLimit: moneyString,
  frozen: moneyString,
  deposit: moneyString,
  available: moneyString,
  actions: z.array(z.enum(ACCOUNT_ACTIONS)),
});

export const balanceTotalView = z.object({
  list: z.array(accountView.extend({ organisationName: z.string() })),
  totals: z.object({
    balance: moneyString,
    creditLimit: moneyString,
    frozen: moneyString,
    deposit: moneyString,
    available: moneyString,
  }),
});

/** One money movement or account event (details, log, deductions). */
export const ledgerRowView = z.object({
  id: z.number().int(),
  accountId: z.number().int(),
  organisationId: z.number().int(),
  line: z.enum(BUSINESS_LINES),
  type: z.enum(LEDGER_TYPES),
  amount: moneyString,
  balanceAfter: moneyString,
  refType: z.string(),
  refId: z.string(),
  note: z.string(),
  createdAt: timestamp,
  /** Staff see who made the movement; others get an empty string. */
  operator: z.string(),
  organisationName: z.string(),
});
/** A page of ledger rows with the credits and debits of every row the filters match. */
export const ledgerListView = pageOf(ledgerRowView).extend({
  totals: z.object({ credits: moneyString, debits: moneyString }),
});

export const adjustmentView = z.object({ entryId: z.number().int(), balanceAfter: moneyString });
