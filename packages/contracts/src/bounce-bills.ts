import { z } from 'zod';
import { BUSINESS_LINES, type BusinessLine } from './accounts.ts';
import { pageQuery } from './api.ts';
import type { WaybillStatus } from './express-waybills.ts';
import { moneyString, pageOf, timestamp } from './responses.ts';
import { defineStateMachine } from './state-machine.ts';
import type { OrderStatus } from './truck-orders.ts';
import { dateField } from './truck-shipment.ts';
import { moneyField, str } from './validation.ts';

/** What a bounce bill charges for: found after the carrier took the goods, on either line. */
export const BOUNCE_BILL_TYPES = [
  'reweigh',
  'reclass',
  'accessorial',
  'storage',
  'dimension_correction',
  'address_correction',
  'other',
] as const;
export type BounceBillType = (typeof BOUNCE_BILL_TYPES)[number];

/**
 * The types each line bills: truck finds weight, class, accessorials and storage; express (the SPEC's
 * "abnormal billing") finds weight, dimensions and a corrected address.
 */
export const BILL_TYPES_OF_LINE: Record<BusinessLine, readonly BounceBillType[]> = {
  truck: ['reweigh', 'reclass', 'accessorial', 'storage', 'other'],
  express: ['reweigh', 'dimension_correction', 'address_correction', 'other'],
};

/** Types that must say what was declared and what was found (weight, freight class, dimensions). */
export const BILL_TYPES_WITH_FINDINGS: readonly BounceBillType[] = [
  'reweigh',
  'reclass',
  'dimension_correction',
];

/** The pages that list a line's bills: truck `/bounceBill`; express the customer's and staff's. */
export const BILL_PAGES: Record<BusinessLine, readonly string[]> = {
  truck: ['/bounceBill'],
  express: ['/abnormalBilling', '/expressBounceBill'],
};

/** The button that raises and cancels a line's bills. */
export const BILL_SAVE_KEY: Record<BusinessLine, string> = {
  truck: 'bounce-bill:save',
  express: 'express-bounce-bill:save',
};

/**
 * `unpaid`: the customer's funds were short when it was raised, so it waits to be paid;
 * `charged`: debited from the line's balance (truck or express); `disputed`: a work order on it is open;
 * `settled`: that work order was resolved (any refund is on the work order); `cancelled` by staff
 * before it was paid.
 */
export const BOUNCE_BILL_STATUSES = ['unpaid', 'charged', 'disputed', 'settled', 'cancelled'] as const;
export type BounceBillStatus = (typeof BOUNCE_BILL_STATUSES)[number];

export const BOUNCE_BILL_ACTIONS = ['pay', 'cancel', 'dispute', 'settle', 'withdraw'] as const;
export type BounceBillAction = (typeof BOUNCE_BILL_ACTIONS)[number];

/** `system`: the work-order module, when the dispute's work order ends. */
export type BounceBillActor = 'staff' | 'owner' | 'system';

export const bounceBillMachine = defineStateMachine<BounceBillStatus, BounceBillAction, BounceBillActor>([
  { from: 'unpaid', action: 'pay', to: 'charged', who: ['staff', 'owner'] },
  { from: 'unpaid', action: 'cancel', to: 'cancelled', who: ['staff'] },
  { from: 'charged', action: 'dispute', to: 'disputed', who: ['owner'] },
  { from: 'disputed', action: 'settle', to: 'settled', who: ['system'] },
  { from: 'disputed', action: 'withdraw', to: 'charged', who: ['system'] },
]);

/** A bill needs the goods to have been in the carrier's hands: from pickup on, never once cancelled. */
export const BILLABLE_ORDER_STATUSES: readonly OrderStatus[] = [
  'picked_up',
  'in_transit',
  'track_abnormal',
  'delivered',
  'delivery_failed',
  'customer_rejection',
  'customer_unloading',
  'self_unloading',
];

/** An express bill likewise needs the parcel in the carrier's hands: shipped, never voided. */
export const BILLABLE_WAYBILL_STATUSES: readonly WaybillStatus[] = [
  'in_transit',
  'out_for_delivery',
  'delivered',
  'exception',
];

const positiveMoney = moneyField.refine((v) => /[1-9]/.test(v), { message: 'validation.moneyPositive' });

export const bounceBillSaveBody = z
  .object({
    line: z.enum(BUSINESS_LINES).default('truck'),
    /** The truck order's number (truck bills). */
    orderNo: str().trim().max(40).default(''),
    /** The waybill's number (express bills). */
    waybillNo: str().trim().max(40).default(''),
    type: z.enum(BOUNCE_BILL_TYPES),
    amount: positiveMoney,
    /** What the booking said, e.g. 500 (lb) or class 70. */
    declared: str().trim().max(60).default(''),
    /** What the carrier found, e.g. 720 (lb) or class 100. */
    actual: str().trim().max(60).default(''),
    description: str().trim().min(1).max(500),
    proofUrl: str().trim().max(500).nullable().default(null),
  })
  .superRefine((v, ctx) => {
    const numberField = v.line === 'express' ? 'waybillNo' : 'orderNo';
    if (!v[numberField])
      ctx.addIssue({ code: 'custom', path: [numberField], message: 'validation.required' });
    if (!BILL_TYPES_OF_LINE[v.line].includes(v.type))
      ctx.addIssue({ code: 'custom', path: ['type'], message: 'bounceBill.typeNotForLine' });
    if (!BILL_TYPES_WITH_FINDINGS.includes(v.type)) return;
    if (!v.declared) ctx.addIssue({ code: 'custom', path: ['declared'], message: 'validation.required' });
    if (!v.actual) ctx.addIssue({ code: 'custom', path: ['actual'], message: 'validation.required' });
  });

export const bounceBillIdBody = z.object({ id: z.number().int().positive() });

export const bounceBillCancelBody = z.object({
  id: z.number().int().positive(),
  reason: str().trim().min(1).max(500),
});

export const bounceBillListQuery = pageQuery.extend({
  /** Truck pages list truck bills, express pages express ones; never both. */
  line: z.enum(BUSINESS_LINES).default('truck'),
  /** The start of the bill number or the order's (waybill's) number. */
  keyword: str().trim().max(60).optional(),
  status: z.enum(BOUNCE_BILL_STATUSES).optional(),
  type: z.enum(BOUNCE_BILL_TYPES).optional(),
  /** The truck order's id, or on the express line the waybill's. */
  orderId: z.number().int().positive().optional(),
  from: dateField.optional(),
  to: dateField.optional(),
});
export type BounceBillListQuery = z.infer<typeof bounceBillListQuery>;

/* ----- responses ----- */

/** A bounce bill as the API shows it; `actions` are what the caller may do with it now. */
export const bounceBillView = z.object({
  id: z.number().int(),
  billNo: z.string(),
  line: z.enum(BUSINESS_LINES),
  /** The truck order's id and number, or on the express line the waybill's. */
  orderId: z.number().int(),
  orderNo: z.string(),
  organisationId: z.number().int(),
  organisationName: z.string(),
  type: z.enum(BOUNCE_BILL_TYPES),
  amount: moneyString,
  declared: z.string(),
  actual: z.string(),
  description: z.string(),
  proofUrl: z.string().nullable(),
  status: z.enum(BOUNCE_BILL_STATUSES),
  chargedAt: timestamp.nullable(),
  cancelReason: z.string(),
  /** The work order that disputes the bill, if any. */
  workOrderNo: z.string().nullable(),
  createdAt: timestamp,
  actions: z.array(z.enum(BOUNCE_BILL_ACTIONS)),
});
export const bounceBillListView = pageOf(bounceBillView);
