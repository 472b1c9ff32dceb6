import { z } from 'zod';
import { BUSINESS_LINES } from './accounts.ts';
import { pageQuery } from './api.ts';
import { defineStateMachine } from './state-machine.ts';
import { moneyField } from './validation.ts';

/** SPEC section 4 "Recharge review": the four outcomes, and the submitted state before them. */
export const RECHARGE_STATUSES = [
  'submitted',
  'awaiting_funds',
  'approved_received',
  'approved_pending',
  'rejected',
] as const;
export type RechargeStatus = (typeof RECHARGE_STATUSES)[number];

export const RECHARGE_ACTIONS = [
  'approve_received',
  'approve_pending',
  'await_funds',
  'reject',
  'settle',
] as const;
export type RechargeAction = (typeof RECHARGE_ACTIONS)[number];

/** Statuses that still wait for a reviewer: they feed the menu badges. */
export const RECHARGE_WAITING: readonly RechargeStatus[] = ['submitted', 'awaiting_funds'];

const staff = ['reviewer'] as const;
export const rechargeMachine = defineStateMachine<RechargeStatus, RechargeAction, 'reviewer'>([
  { from: 'submitted', action: 'approve_received', to: 'approved_received', who: staff },
  { from: 'submitted', action: 'approve_pending', to: 'approved_pending', who: staff },
  { from: 'submitted', action: 'await_funds', to: 'awaiting_funds', who: staff },
  { from: 'submitted', action: 'reject', to: 'rejected', who: staff },
  { from: 'awaiting_funds', action: 'approve_received', to: 'approved_received', who: staff },
  { from: 'awaiting_funds', action: 'approve_pending', to: 'approved_pending', who: staff },
  { from: 'awaiting_funds', action: 'reject', to: 'rejected', who: staff },
  // Approved before the money arrived: credited then, settled once the bank shows it.
  { from: 'approved_pending', action: 'settle', to: 'approved_received', who: staff },
]);

/** Actions that credit the account (once, whatever happens later). */
export const CREDITING_ACTIONS: readonly RechargeAction[] = ['approve_received', 'approve_pending'];

export const PAYMENT_METHODS = ['bank_transfer', 'alipay', 'wechat', 'other'] as const;

const positiveMoney = moneyField.refine((v) => Number(v) > 0, { message: 'validation.moneyPositive' });

export const rechargeSubmitBody = z.object({
  line: z.enum(BUSINESS_LINES),
  amount: positiveMoney,
  method: z.enum(PAYMENT_METHODS),
  receivingAccountId: z.number().int().positive(),
  payerName: z.string().trim().min(1).max(100),
  payerCardNumber: z
    .string()
    .trim()
    .regex(/^[0-9 -]{4,40}$/, { error: 'validation.cardNumber' }),
  screenshotUrl: z.string().trim().min(1).max(500),
  note: z.string().trim().max(200).default(''),
});

export const rechargeListQuery = pageQuery.extend({
  line: z.enum(BUSINESS_LINES).optional(),
  status: z.enum(RECHARGE_STATUSES).optional(),
  serial: z.string().trim().max(40).optional(),
  keyword: z.string().trim().max(100).optional(),
  from: z.coerce.date().optional(),
  to: z.coerce.date().optional(),
});

export const rechargeReviewBody = z.object({
  id: z.number().int().positive(),
  action: z.enum(['approve_received', 'approve_pending', 'await_funds', 'reject']),
  /** Defaults to the submitted amount. */
  creditedAmount: moneyField.optional(),
  fee: moneyField.default('0'),
  note: z.string().trim().max(200).default(''),
});

export const receivingAccountBody = z.object({
  id: z.number().int().positive().optional(),
  currency: z.enum(['CNY', 'USD']),
  bankName: z.string().trim().min(1).max(100),
  accountName: z.string().trim().min(1).max(100),
  accountNumber: z.string().trim().min(4).max(60),
  enabled: z.boolean().default(true),
});
