import { z } from 'zod';
import { BUSINESS_LINES, type BusinessLine } from './accounts.ts';
import { pageQuery } from './api.ts';
import { moneyString, pageOf, timestamp } from './responses.ts';
import { defineStateMachine } from './state-machine.ts';
import { dateField } from './truck-shipment.ts';
import { moneyField, str } from './validation.ts';

/** What went wrong (SPEC section 3 "Work order": category). */
export const WORK_ORDER_CATEGORIES = [
  'bill_dispute',
  'damage',
  'loss',
  'delay',
  'refund',
  'address_change',
  'other',
] as const;
export type WorkOrderCategory = (typeof WORK_ORDER_CATEGORIES)[number];

/** Which charge it is about (SPEC: transaction item). */
export const TRANSACTION_ITEMS = ['freight', 'surcharge', 'accessorial', 'insurance', 'other'] as const;
export type TransactionItem = (typeof TRANSACTION_ITEMS)[number];

/**
 * How the resolution moved money (SPEC: consumption type): `add` credits the customer (a goodwill
 * payment or a claim), `deduct` charges it, `refund` gives back part of what it paid for the order,
 * `none` closes without money.
 */
export const CONSUMPTION_TYPES = ['none', 'add', 'deduct', 'refund'] as const;
export type ConsumptionType = (typeof CONSUMPTION_TYPES)[number];

export const WORK_ORDER_STATUSES = ['pending', 'processing', 'resolved', 'rejected', 'withdrawn'] as const;
export type WorkOrderStatus = (typeof WORK_ORDER_STATUSES)[number];

export const WORK_ORDER_ACTIONS = ['accept', 'resolve', 'reject', 'withdraw'] as const;
export type WorkOrderAction = (typeof WORK_ORDER_ACTIONS)[number];

export type WorkOrderActor = 'staff' | 'owner';

export const workOrderMachine = defineStateMachine<WorkOrderStatus, WorkOrderAction, WorkOrderActor>([
  { from: 'pending', action: 'accept', to: 'processing', who: ['staff'] },
  { from: 'pending', action: 'resolve', to: 'resolved', who: ['staff'] },
  { from: 'processing', action: 'resolve', to: 'resolved', who: ['staff'] },
  { from: 'pending', action: 'reject', to: 'rejected', who: ['staff'] },
  { from: 'processing', action: 'reject', to: 'rejected', who: ['staff'] },
  { from: 'pending', action: 'withdraw', to: 'withdrawn', who: ['owner'] },
  { from: 'processing', action: 'withdraw', to: 'withdrawn', who: ['owner'] },
]);

/** The pages of a line's work orders: the list and one work order's page. */
export const WORK_ORDER_PAGES: Record<BusinessLine, readonly string[]> = {
  truck: ['/workOrderList', '/work-order-copy'],
  express: ['/expressWorkOrderList', '/expressWorkorderoperate'],
};

/** The button that lets staff accept, resolve and reject a line's work orders. */
export const WORK_ORDER_RESOLVE_KEY: Record<BusinessLine, string> = {
  truck: 'work-order:resolve',
  express: 'express-work-order:resolve',
};

/** While open, both sides may write in the thread. */
export const WORK_ORDER_OPEN: readonly WorkOrderStatus[] = ['pending', 'processing'];

export const MAX_PROOF_FILES = 5;
const proofFiles = z.array(str().trim().min(1).max(500)).max(MAX_PROOF_FILES).default([]);

export const workOrderSaveBody = z
  .object({
    line: z.enum(BUSINESS_LINES).default('truck'),
    /** The truck order's number (truck work orders). */
    orderNo: str().trim().max(40).default(''),
    /** The waybill's number (express work orders). */
    waybillNo: str().trim().max(40).default(''),
    category: z.enum(WORK_ORDER_CATEGORIES),
    transactionItem: z.enum(TRANSACTION_ITEMS),
    /** What the customer asks for, if money: the transaction amount. */
    amount: moneyField.default('0'),
    description: str().trim().min(1).max(2000),
    proofUrls: proofFiles,
    /** The bounce bill disputed, for a `bill_dispute`. */
    billId: z.number().int().positive().optional(),
  })
  .superRefine((v, ctx) => {
    const numberField = v.line === 'express' ? 'waybillNo' : 'orderNo';
    if (!v[numberField])
      ctx.addIssue({ code: 'custom', path: [numberField], message: 'validation.required' });
    if (v.category === 'bill_dispute' && !v.billId)
      ctx.addIssue({ code: 'custom', path: ['billId'], message: 'validation.required' });
  });

export const workOrderSnQuery = z.object({ sn: str().trim().min(1).max(40) });

export const workOrderMessageBody = z.object({
  sn: str().trim().min(1).max(40),
  body: str().trim().min(1).max(2000),
  attachments: proofFiles,
});

export const workOrderActionBody = z
  .object({
    sn: str().trim().min(1).max(40),
    action: z.enum(WORK_ORDER_ACTIONS),
    consumptionType: z.enum(CONSUMPTION_TYPES).default('none'),
    resultAmount: moneyField.default('0'),
    /** The resolution or rejection, shown to the customer. */
    remark: str().trim().max(1000).default(''),
  })
  .superRefine((v, ctx) => {
    if (v.action === 'resolve' && v.consumptionType !== 'none' && !/[1-9]/.test(v.resultAmount))
      ctx.addIssue({ code: 'custom', path: ['resultAmount'], message: 'validation.moneyPositive' });
    if ((v.action === 'reject' || v.action === 'resolve') && !v.remark)
      ctx.addIssue({ code: 'custom', path: ['remark'], message: 'validation.required' });
  });

export const workOrderListQuery = pageQuery.extend({
  /** Truck pages list truck work orders, express pages express ones; never both. */
  line: z.enum(BUSINESS_LINES).default('truck'),
  /** The start of the work order number or the order's (waybill's) number. */
  keyword: str().trim().max(60).optional(),
  status: z.enum(WORK_ORDER_STATUSES).optional(),
  category: z.enum(WORK_ORDER_CATEGORIES).optional(),
  /** The truck order's id, or on the express line the waybill's. */
  orderId: z.number().int().positive().optional(),
  from: dateField.optional(),
  to: dateField.optional(),
});
export type WorkOrderListQuery = z.infer<typeof workOrderListQuery>;

/* ----- responses ----- */

/** A work order as the API shows it; `actions` are what the caller may do with it now. */
export const workOrderView = z.object({
  id: z.number().int(),
  workOrderNo: z.string(),
  line: z.enum(BUSINESS_LINES),
  /** The truck order's id and number, or on the express line the waybill's. */
  orderId: z.number().int(),
  orderNo: z.string(),
  organisationId: z.number().int(),
  organisationName: z.string(),
  billId: z.number().int().nullable(),
  billNo: z.string().nullable(),
  category: z.enum(WORK_ORDER_CATEGORIES),
  transactionItem: z.enum(TRANSACTION_ITEMS),
  amount: moneyString,
  description: z.string(),
  proofUrls: z.array(z.string()),
  status: z.enum(WORK_ORDER_STATUSES),
  consumptionType: z.enum(CONSUMPTION_TYPES),
  resultAmount: moneyString,
  remark: z.string(),
  /** The staff member who handled it, for staff only; empty otherwise. */
  operator: z.string(),
  processedAt: timestamp.nullable(),
  createdAt: timestamp,
  actions: z.array(z.enum(WORK_ORDER_ACTIONS)),
  canMessage: z.boolean(),
});
export const workOrderListView = pageOf(workOrderView);

export const workOrderMessageView = z.object({
  id: z.number().int(),
  side: z.enum(['staff', 'owner']),
  author: z.string(),
  body: z.string(),
  attachments: z.array(z.string()),
  createdAt: timestamp,
});

/** A work order with its thread and its history. */
export const workOrderInfoView = workOrderView.extend({
  messages: z.array(workOrderMessageView),
  events: z.array(
    z.object({
      id: z.number().int(),
      /** `open` or one of the actions. */
      action: z.string(),
      /** Statuses of `WORK_ORDER_STATUSES`, as the history recorded them. */
      fromStatus: z.enum(WORK_ORDER_STATUSES).nullable(),
      toStatus: z.enum(WORK_ORDER_STATUSES),
      operator: z.string(),
      note: z.string(),
      createdAt: timestamp,
    }),
  ),
});
