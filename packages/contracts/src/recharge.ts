import { z } from 'zod';
import { BUSINESS_LINES } from './accounts.ts';
import { pageQuery } from './api.ts';
import { listOf, moneyString, pageOf, timestamp } from './responses.ts';
import { defineStateMachine } from './state-machine.ts';
import { instantField, moneyField, str } from './validation.ts';

/** SPEC section 4 "Recharge review": the four outcomes, and the submitted state before them. */
export const RECHARGE_STATUSES = [
  'submitted',
  'awaiting_funds',
  'approved_received',
  'approved_pending',
  'rejected',
] as const;
export type RechargeStatus = (typeof RECHARGE_STATUSES)[number];

/** What a reviewer does; each names the outcome it leads to (`approve_received` -> `approved_received`). */
export const RECHARGE_ACTIONS = [
  'approve_received',
  'approve_pending',
  'await_funds',
  'reject',
  'settle',
] as const;
export type RechargeAction = (typeof RECHARGE_ACTIONS)[number];

/** The actions of the review form; `settle` has a call of its own. */
export const REVIEW_ACTIONS = ['approve_received', 'approve_pending', 'await_funds', 'reject'] as const;

/** Statuses that still wait for a reviewer: they feed the menu badges. */
export const RECHARGE_WAITING: readonly RechargeStatus[] = ['submitted', 'awaiting_funds'];

/**
 * Who may move a recharge: only staff holding the review button of the recharge's line. The submitter
 * has no transition; a submitted recharge is changed by reviewing it, never by editing it.
 */
export type RechargeActor = 'reviewer';
const reviewer = ['reviewer'] as const;
export const rechargeMachine = defineStateMachine<RechargeStatus, RechargeAction, RechargeActor>([
  { from: 'submitted', action: 'approve_received', to: 'approved_received', who: reviewer },
  { from: 'submitted', action: 'approve_pending', to: 'approved_pending', who: reviewer },
  { from: 'submitted', action: 'await_funds', to: 'awaiting_funds', who: reviewer },
  { from: 'submitted', action: 'reject', to: 'rejected', who: reviewer },
  // Awaiting confirmation of funds credits nothing and stays reviewable.
  { from: 'awaiting_funds', action: 'approve_received', to: 'approved_received', who: reviewer },
  { from: 'awaiting_funds', action: 'approve_pending', to: 'approved_pending', who: reviewer },
  { from: 'awaiting_funds', action: 'reject', to: 'rejected', who: reviewer },
  // Approved before the money arrived: credited then, settled (no money moves) once the bank shows it.
  { from: 'approved_pending', action: 'settle', to: 'approved_received', who: reviewer },
]);

/** Actions that credit the account (once, whatever happens later). */
export const CREDITING_ACTIONS: readonly RechargeAction[] = ['approve_received', 'approve_pending'];

export const PAYMENT_METHODS = ['bank_transfer', 'alipay', 'wechat', 'other'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

/** Receiving accounts are kept in RMB or USD; a recharge takes the currency of the account paid into. */
export const RECHARGE_CURRENCIES = ['CNY', 'USD'] as const;
export type RechargeCurrency = (typeof RECHARGE_CURRENCIES)[number];

const positiveMoney = moneyField.refine((v) => /[1-9]/.test(v), { message: 'validation.moneyPositive' });

/** What a customer, agent or branch sends to top up its own account on one line. */
export const rechargeSubmitBody = z.object({
  line: z.enum(BUSINESS_LINES),
  amount: positiveMoney,
  method: z.enum(PAYMENT_METHODS, { error: 'recharge.methodInvalid' }),
  receivingAccountId: z
    .number({ error: 'recharge.receivingAccountRequired' })
    .int()
    .positive({ error: 'recharge.receivingAccountRequired' }),
  payerName: str({ error: 'recharge.payerNameRequired' })
    .trim()
    .min(1, { error: 'recharge.payerNameRequired' })
    .max(100),
  payerCardNumber: str({ error: 'validation.cardNumber' })
    .trim()
    .regex(/^[0-9 -]{4,40}$/, { error: 'validation.cardNumber' }),
  screenshotUrl: str({ error: 'recharge.screenshotRequired' })
    .trim()
    .min(1, { error: 'recharge.screenshotRequired' })
    .max(500),
  note: str().trim().max(200).default(''),
});
export type RechargeSubmitBody = z.infer<typeof rechargeSubmitBody>;

export const rechargeListQuery = pageQuery.extend({
  line: z.enum(BUSINESS_LINES).optional(),
  status: z.enum(RECHARGE_STATUSES).optional(),
  serial: str().trim().max(40).optional(),
  organisationId: z.number().int().positive().optional(),
  /** Matches the organisation's name or contact, the payer's name, or part of the serial. */
  keyword: str().trim().max(100).optional(),
  /** Submitted at or after `from`, before `to`. */
  from: instantField().optional(),
  to: instantField().optional(),
});
export type RechargeListQuery = z.infer<typeof rechargeListQuery>;

export const rechargeReviewBody = z.object({
  id: z.number().int().positive(),
  action: z.enum(REVIEW_ACTIONS),
  /** What actually arrived; defaults to the submitted amount. Only read by the approving actions. */
  creditedAmount: positiveMoney.optional(),
  /** Kept by the operator: the account receives creditedAmount - fee. */
  fee: moneyField.default('0'),
  /** Required when rejecting: the reason the submitter is told. */
  note: str().trim().max(200).default(''),
});
export type RechargeReviewBody = z.infer<typeof rechargeReviewBody>;

export const receivingAccountBody = z.object({
  id: z.number().int().positive().optional(),
  currency: z.enum(RECHARGE_CURRENCIES),
  bankName: str().trim().min(1).max(100),
  /** The bank's name on the English interface; empty shows `bankName` there too. */
  bankNameEn: str().trim().max(100).default(''),
  accountName: str().trim().min(1).max(100),
  /** The holder's name on the English interface; empty shows `accountName` there too. */
  accountNameEn: str().trim().max(100).default(''),
  accountNumber: str().trim().min(4).max(60),
  enabled: z.boolean().default(true),
});
export type ReceivingAccountBody = z.infer<typeof receivingAccountBody>;

/* ----- responses ----- */

export const receivingAccountView = z.object({
  id: z.number().int(),
  currency: z.enum(RECHARGE_CURRENCIES),
  bankName: z.string(),
  bankNameEn: z.string(),
  accountName: z.string(),
  accountNameEn: z.string(),
  accountNumber: z.string(),
  enabled: z.boolean(),
});
export const receivingAccountsView = listOf(receivingAccountView);

/** A recharge as the API shows it; `actions` are the review steps the caller may take now. */
export const rechargeView = z.object({
  id: z.number().int(),
  serial: z.string(),
  organisationId: z.number().int(),
  organisationName: z.string(),
  line: z.enum(BUSINESS_LINES),
  amount: moneyString,
  currency: z.enum(RECHARGE_CURRENCIES),
  method: z.enum(PAYMENT_METHODS),
  receivingAccountId: z.number().int(),
  payerName: z.string(),
  /** Masked to its last four digits, except for staff on the recharge's own page. */
  payerCardNumber: z.string(),
  screenshotUrl: z.string(),
  note: z.string(),
  status: z.enum(RECHARGE_STATUSES),
  creditedAmount: moneyString.nullable(),
  fee: moneyString.nullable(),
  reviewNote: z.string(),
  reviewedAt: timestamp.nullable(),
  settledAt: timestamp.nullable(),
  submittedAt: timestamp,
  createdAt: timestamp,
  actions: z.array(z.enum(RECHARGE_ACTIONS)),
});
export const rechargeListResponse = pageOf(rechargeView);

export const rechargeInfoView = rechargeView.extend({
  receivingAccount: receivingAccountView.nullable(),
  reviews: z.array(
    z.object({
      auditor: z.string(),
      time: timestamp,
      action: z.enum(RECHARGE_ACTIONS),
      result: z.enum(RECHARGE_STATUSES),
      amount: moneyString.nullable(),
      fee: moneyString.nullable(),
      note: z.string(),
    }),
  ),
});

/** Recharges waiting for review on each line (the menu badges). */
export const rechargeWaitingView = z.object({ waitNum: z.number().int(), expressWaitNum: z.number().int() });
