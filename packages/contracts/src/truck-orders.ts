import { z } from 'zod';
import { pageQuery } from './api.ts';
import { moneyString, pageOf, timestamp } from './responses.ts';
import { defineStateMachine } from './state-machine.ts';
import { TRUCK_MODES } from './truck-products.ts';
import { dateField, shipmentAddress, shipmentView } from './truck-shipment.ts';
import { englishField, str } from './validation.ts';

/**
 * Truck order statuses: the thirteen of SPEC section 4, plus `unpaid` for an order booked but not
 * yet paid (a booking whose payment failed stays there, to be paid or cancelled).
 */
export const ORDER_STATUSES = [
  'unpaid',
  'pending_review',
  'to_be_picked_up',
  'picked_up',
  'in_transit',
  'delivered',
  'customer_rejection',
  'cancelled',
  'review_rejected',
  'pickup_abnormal',
  'track_abnormal',
  'delivery_failed',
  'customer_unloading',
  'self_unloading',
] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export const ORDER_ACTIONS = [
  'pay',
  'approve',
  'reject',
  'cancel',
  'pickup',
  'pickup_exception',
  'depart',
  'track_exception',
  'resume',
  'customer_unload',
  'self_unload',
  'deliver',
  'delivery_fail',
  'redeliver',
  'customer_reject',
] as const;
export type OrderAction = (typeof ORDER_ACTIONS)[number];

/** `staff`: the operator's employees; `owner`: users of the booking organisation or one above it. */
export type OrderActor = 'staff' | 'owner';

const S = ['staff'] as const;
const SO = ['staff', 'owner'] as const;

/** Who may move a truck order from which status to which (ARCHITECTURE section 7). */
export const orderMachine = defineStateMachine<OrderStatus, OrderAction, OrderActor>([
  { from: 'unpaid', action: 'pay', to: 'pending_review', who: SO },
  { from: 'unpaid', action: 'cancel', to: 'cancelled', who: SO },
  { from: 'pending_review', action: 'approve', to: 'to_be_picked_up', who: S },
  { from: 'pending_review', action: 'reject', to: 'review_rejected', who: S },
  { from: 'pending_review', action: 'cancel', to: 'cancelled', who: SO },
  { from: 'to_be_picked_up', action: 'pickup', to: 'picked_up', who: S },
  { from: 'to_be_picked_up', action: 'pickup_exception', to: 'pickup_abnormal', who: S },
  { from: 'to_be_picked_up', action: 'cancel', to: 'cancelled', who: S },
  { from: 'pickup_abnormal', action: 'pickup', to: 'picked_up', who: S },
  { from: 'pickup_abnormal', action: 'cancel', to: 'cancelled', who: S },
  { from: 'picked_up', action: 'depart', to: 'in_transit', who: S },
  { from: 'in_transit', action: 'track_exception', to: 'track_abnormal', who: S },
  { from: 'track_abnormal', action: 'resume', to: 'in_transit', who: S },
  { from: 'in_transit', action: 'customer_unload', to: 'customer_unloading', who: S },
  { from: 'in_transit', action: 'self_unload', to: 'self_unloading', who: S },
  { from: 'in_transit', action: 'deliver', to: 'delivered', who: S },
  { from: 'customer_unloading', action: 'deliver', to: 'delivered', who: S },
  { from: 'self_unloading', action: 'deliver', to: 'delivered', who: S },
  { from: 'in_transit', action: 'delivery_fail', to: 'delivery_failed', who: S },
  { from: 'delivery_failed', action: 'redeliver', to: 'in_transit', who: S },
  { from: 'in_transit', action: 'customer_reject', to: 'customer_rejection', who: S },
  { from: 'delivery_failed', action: 'customer_reject', to: 'customer_rejection', who: S },
]);

/**
 * Actions that give the paid amount back in full. Later disputes (a customer rejection, a damaged
 * load) go through a work order, where staff decide the amount.
 */
export const REFUNDING_ACTIONS: readonly OrderAction[] = ['reject', 'cancel'];

/** Actions that need a reason written down. */
export const REASONED_ACTIONS: readonly OrderAction[] = [
  'reject',
  'cancel',
  'pickup_exception',
  'track_exception',
  'delivery_fail',
  'customer_reject',
];

/** Until the truck has the goods, the addresses may still change. */
export const ADDRESS_EDITABLE: readonly OrderStatus[] = ['unpaid', 'pending_review', 'to_be_picked_up'];

/**
 * What an order answer lists as the caller's `actions`: the machine's moves, `edit_address` while
 * editable, and `open_work_order` for the customer's side (staff answer work orders, never open them).
 */
export type OrderViewAction = OrderAction | 'edit_address' | 'open_work_order';

export const ORDER_TYPES = ['regular', 'return'] as const;

/* ---------- calls ---------- */

const orderId = z.number().int().positive();

/** `order/save`: book a priced product of a quote, or an accepted manual quotation. */
export const orderSaveBody = z
  .object({
    quoteId: orderId,
    productId: orderId.optional(),
    taskId: orderId.optional(),
    customerOrderNo: englishField.trim().max(60).default(''),
    orderType: z.enum(ORDER_TYPES).default('regular'),
    shippingNote: str().trim().max(500).default(''),
    receivingNote: str().trim().max(500).default(''),
    extraNote: str().trim().max(500).default(''),
    /** Pay from the truck balance right away (the usual path); false books it unpaid. */
    pay: z.boolean().default(true),
  })
  .superRefine((v, ctx) => {
    if (!v.productId && !v.taskId)
      ctx.addIssue({ code: 'custom', path: ['productId'], message: 'validation.required' });
  });

export const orderIdBody = z.object({ id: orderId });

export const orderTransitionBody = z.object({
  id: orderId,
  action: z.enum(ORDER_ACTIONS),
  reason: str().trim().max(500).default(''),
  /** Carrier details staff record when the truck takes the goods. */
  carrierInfo: str().trim().max(200).optional(),
});

export const orderBulkReviewBody = z.object({
  ids: z.array(orderId).min(1).max(200),
  action: z.enum(['approve', 'reject']),
  reason: str().trim().max(500).default(''),
});

export const orderBulkPayBody = z.object({ ids: z.array(orderId).min(1).max(200) });

export const orderEditAddressBody = z.object({
  id: orderId,
  pickup: shipmentAddress.optional(),
  delivery: shipmentAddress.optional(),
});

/**
 * The order list counts up to this many orders exactly and says "more" beyond: counting a filter
 * that matches a million orders would cost more than the page it goes with.
 */
export const ORDER_COUNT_CAP = 10_000;

export const orderListQuery = pageQuery.extend({
  keyword: str().trim().max(100).optional(),
  status: z.enum(ORDER_STATUSES).optional(),
  mode: z.enum(TRUCK_MODES).optional(),
  productId: orderId.optional(),
  organisationId: orderId.optional(),
  orderType: z.enum(ORDER_TYPES).optional(),
  from: dateField.optional(),
  to: dateField.optional(),
});
export type OrderListQuery = z.infer<typeof orderListQuery>;

export const orderFileBody = z.object({ id: orderId, url: str().trim().min(1).max(500) });

/* ----- responses ----- */

const orderViewActions = z.enum([...ORDER_ACTIONS, 'edit_address', 'open_work_order']);

/**
 * An order as the caller may see it: staff see every level's price (`costPrice`), an agent or branch
 * its own and those below, a customer only what it pays; the others are null.
 */
export const orderView = z.object({
  id: z.number().int(),
  orderNo: z.string(),
  customerOrderNo: z.string(),
  queryCode: z.string(),
  organisationId: z.number().int(),
  userId: z.number().int(),
  quoteId: z.number().int().nullable(),
  taskId: z.number().int().nullable(),
  productId: z.number().int().nullable(),
  carrier: z.string(),
  mode: z.enum(['LTL', 'FTL']),
  status: z.enum(ORDER_STATUSES),
  orderType: z.enum(['regular', 'return']),
  shipment: shipmentView,
  total: moneyString,
  freight: moneyString,
  fuel: moneyString,
  surcharge: moneyString,
  premium: moneyString,
  insuredAmount: moneyString,
  costPrice: moneyString.nullable(),
  branchPrice: moneyString.nullable(),
  agentPrice: moneyString.nullable(),
  paid: moneyString,
  paidAt: timestamp.nullable(),
  origin: z.string(),
  destination: z.string(),
  transitDaysMin: z.number().int(),
  transitDaysMax: z.number().int(),
  pickupCode: z.string(),
  deliveryCode: z.string(),
  carrierInfo: z.string(),
  /** Booked by a batch for a carrier's product, still being handed to the carrier: it cannot be paid yet. */
  carrierPending: z.boolean(),
  rejectReason: z.string(),
  shippingNote: z.string(),
  receivingNote: z.string(),
  extraNote: z.string(),
  orderFileUrl: z.string().nullable(),
  createdAt: timestamp,
  updatedAt: timestamp,
  customerPrice: moneyString,
  accessorials: z.array(z.object({ code: z.string(), fee: moneyString })),
  serviceLevel: z.string(),
  productName: z.string(),
  productNameEn: z.string(),
  /** The goods lines as rated: weights and classes, never the operator's rates. */
  lines: z.array(
    z.object({
      weight: z.number(),
      density: z.number(),
      freightClass: z.string(),
      suggestedClass: z.string(),
    }),
  ),
  actions: z.array(orderViewActions),
});

/**
 * An order as a list row: what the list shows and acts on. The shipment's addresses and goods lines,
 * the rated lines and the accessorials are the order page's (`/admin/order/info`), not every row's.
 */
export const orderListItem = orderView.omit({ shipment: true, lines: true, accessorials: true });

/**
 * A page of orders. `total` and each status's count stop at `countCap`; `totalCapped` says the total
 * is more than that. `counts` is null when the list is filtered by status.
 */
export const orderListView = pageOf(orderListItem).extend({
  totalCapped: z.boolean(),
  counts: z.partialRecord(z.enum(ORDER_STATUSES), z.number().int()).nullable(),
  countCap: z.number().int(),
});

export const orderSavedView = z.object({
  id: z.number().int(),
  orderNo: z.string(),
  status: z.enum(ORDER_STATUSES),
  /** Whether paying on booking went through, and why not. */
  payment: z.object({ ok: z.boolean(), message: z.string() }).nullable(),
});
export const orderPaidView = z.object({
  id: z.number().int(),
  status: z.enum(ORDER_STATUSES),
  /** The order was paid already; nothing moved. */
  repeated: z.boolean(),
});
export const orderStatusView = z.object({ id: z.number().int(), status: z.enum(ORDER_STATUSES) });
export const orderIdView = z.object({ id: z.number().int() });
/** Each order id of a bulk call: `success` or why it failed. */
export const orderBulkView = z.object({ results: z.record(z.string(), z.string()) });

export const orderPaymentInfoView = z.object({
  order: orderView,
  account: z.object({
    balance: moneyString,
    creditLimit: moneyString,
    frozen: moneyString,
    available: moneyString,
    status: z.enum(['normal', 'frozen']),
  }),
});

export const orderDetailView = z.object({
  order: orderView,
  timeline: z.array(
    z.object({
      id: z.number().int(),
      orderId: z.number().int(),
      action: z.string(),
      fromStatus: z.enum(ORDER_STATUSES).nullable(),
      toStatus: z.enum(ORDER_STATUSES).nullable(),
      actorId: z.number().int().nullable(),
      note: z.string(),
      createdAt: timestamp,
    }),
  ),
  /** What the order's carrier reports beside the timeline. */
  carrierEvents: z.array(z.object({ at: timestamp, code: z.string(), note: z.string() })),
  /** The ledger rows that name the order. */
  ledger: z.array(
    z.object({
      id: z.number().int(),
      accountId: z.number().int(),
      organisationId: z.number().int(),
      line: z.enum(['truck', 'express']),
      type: z.string(),
      amount: moneyString,
      balanceAfter: moneyString,
      refType: z.string(),
      refId: z.string(),
      operatorId: z.number().int().nullable(),
      note: z.string(),
      createdAt: timestamp,
    }),
  ),
});

const dayTotals = z.object({ orders: z.number().int(), paid: moneyString });
/** The truck dashboards for the caller's scope. */
export const orderStatsView = z.object({
  today: dayTotals,
  month: dayTotals,
  series: z.array(dayTotals.extend({ day: z.string() })),
  statuses: z.partialRecord(z.enum(ORDER_STATUSES), z.number().int()),
  waitingReview: z.number().int(),
  unpaid: z.number().int(),
  openWorkOrders: z.number().int(),
  unpaidBills: z.number().int(),
  balance: z.object({ balance: moneyString, available: moneyString }).nullable(),
});

/** Kept here for the truck pages that import it; the shape is every batch import's. */
export { batchRowsView } from './responses.ts';
