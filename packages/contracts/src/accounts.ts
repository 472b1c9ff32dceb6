/** Business lines: each organisation has one account per line (ARCHITECTURE section 6). */
export const BUSINESS_LINES = ['truck', 'express'] as const;
export type BusinessLine = (typeof BUSINESS_LINES)[number];

export const ACCOUNT_STATUSES = ['normal', 'frozen'] as const;
export type AccountStatus = (typeof ACCOUNT_STATUSES)[number];

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
] as const;
export type LedgerType = (typeof LEDGER_TYPES)[number];
