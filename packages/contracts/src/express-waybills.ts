import { z } from 'zod';
import { pageQuery } from './api.ts';
import { CARRIER_FAILURES, LABEL_FORMATS } from './carriers.ts';

export { LABEL_FORMATS, type LabelFormat } from './carriers.ts';

import { expressLevelView, expressShipmentView } from './express-quotes.ts';
import { EXPRESS_SURCHARGES } from './express-rating.ts';
import { moneyString, pageOf, timestamp } from './responses.ts';
import { defineStateMachine } from './state-machine.ts';
import { dayField, idField, instantField, str } from './validation.ts';

/**
 * Express waybills (SPEC section 4 "Waybill statuses"). `unpaid` is added for waybills created without
 * paying (batch files, a booking whose balance fell short); every status of the SPEC follows payment.
 * `label_pending` is added for a channel a carrier's API serves: paid, while the carrier's label is
 * bought in the background.
 */
export const WAYBILL_STATUSES = [
  'unpaid',
  'label_pending',
  'to_be_printed',
  'printed',
  'ready_to_ship',
  'to_be_shipped',
  'in_transit',
  'out_for_delivery',
  'delivered',
  'exception',
  'cancelled',
  'refunded',
  'funds_frozen',
] as const;
export type WaybillStatus = (typeof WAYBILL_STATUSES)[number];

export const WAYBILL_ACTIONS = [
  'pay',
  'label',
  'cancel',
  'print',
  'ready',
  'hand_over',
  'ship',
  'out_for_delivery',
  'deliver',
  'exception',
  'resume',
  'refund',
  'freeze',
  'release',
] as const;
export type WaybillAction = (typeof WAYBILL_ACTIONS)[number];

/** `staff`: the operator's employees; `owner`: users of the booking organisation or one above it. */
export type WaybillActor = 'staff' | 'owner';

const S = ['staff'] as const;
const SO = ['staff', 'owner'] as const;

/** Statuses before the carrier has the parcel: a waybill may still be voided with a refund. */
export const UNSHIPPED: readonly WaybillStatus[] = [
  'to_be_printed',
  'printed',
  'ready_to_ship',
  'to_be_shipped',
];

/**
 * Who may move a waybill from which status to which. Printing moves it to printed (and may repeat);
 * the shipper marks it packed (`ready`); staff hand it to the carrier and record the scans (or the
 * carrier's tracking does); voiding an unshipped waybill refunds it; staff freeze the money of a
 * waybill in dispute and release it or refund it when the dispute ends.
 */
export const waybillMachine = defineStateMachine<WaybillStatus, WaybillAction, WaybillActor>([
  // A waybill of a carrier's channel is paid into `label_pending` instead (paidStatus).
  { from: 'unpaid', action: 'pay', to: 'to_be_printed', who: SO },
  // The carrier's label came: the portal's job makes this move, and its refusal's refund.
  { from: 'label_pending', action: 'label', to: 'to_be_printed', who: S },
  { from: 'label_pending', action: 'refund', to: 'refunded', who: S },
  { from: 'unpaid', action: 'cancel', to: 'cancelled', who: SO },
  { from: 'to_be_printed', action: 'print', to: 'printed', who: SO },
  { from: 'printed', action: 'print', to: 'printed', who: SO },
  { from: 'ready_to_ship', action: 'print', to: 'ready_to_ship', who: SO },
  { from: 'printed', action: 'ready', to: 'ready_to_ship', who: SO },
  { from: 'printed', action: 'hand_over', to: 'to_be_shipped', who: S },
  { from: 'ready_to_ship', action: 'hand_over', to: 'to_be_shipped', who: S },
  { from: 'to_be_shipped', action: 'ship', to: 'in_transit', who: S },
  { from: 'in_transit', action: 'out_for_delivery', to: 'out_for_delivery', who: S },
  { from: 'in_transit', action: 'deliver', to: 'delivered', who: S },
  { from: 'out_for_delivery', action: 'deliver', to: 'delivered', who: S },
  { from: 'to_be_shipped', action: 'exception', to: 'exception', who: S },
  { from: 'in_transit', action: 'exception', to: 'exception', who: S },
  { from: 'out_for_delivery', action: 'exception', to: 'exception', who: S },
  { from: 'exception', action: 'resume', to: 'in_transit', who: S },
  { from: 'exception', action: 'deliver', to: 'delivered', who: S },
  ...UNSHIPPED.map((from) => ({ from, action: 'refund' as const, to: 'refunded' as const, who: SO })),
  ...(['in_transit', 'out_for_delivery', 'delivered', 'exception'] as const).map((from) => ({
    from,
    action: 'freeze' as const,
    to: 'funds_frozen' as const,
    who: S,
  })),
  // Released, a frozen waybill goes back to the status it was frozen from (kept on the waybill).
  { from: 'funds_frozen', action: 'release', to: 'funds_frozen', who: S },
  { from: 'funds_frozen', action: 'refund', to: 'refunded', who: S },
]);

/** Where paying moves a waybill: a carrier's channel waits for its label first. */
export const paidStatus = (servedByCarrier: boolean): WaybillStatus =>
  servedByCarrier ? 'label_pending' : 'to_be_printed';

/**
 * What each action does to the express account, beside the status. Freezing moves no money: the
 * waybill's payment is held as it is (neither final nor given back) until staff release or refund it.
 */
export const WAYBILL_MONEY: Partial<Record<WaybillAction, 'debit' | 'credit_paid'>> = {
  pay: 'debit',
  refund: 'credit_paid',
};

/** Actions that need a reason written down. */
export const WAYBILL_REASONED: readonly WaybillAction[] = [
  'cancel',
  'exception',
  'refund',
  'freeze',
  'release',
];

/* ---------- calls ---------- */

const waybillId = idField();

/** `order/create`: a waybill from the channel selected on a quote, priced as the quote priced it. */
export const waybillCreateBody = z.object({
  quoteId: waybillId,
  /** The channel to book; the quote's selected channel when left out. */
  channelId: waybillId.optional(),
  /** Pay from the express account at once; without it the waybill waits unpaid on the payment page. */
  pay: z.boolean().default(false),
});

export const waybillIdBody = z.object({ id: waybillId });
export const waybillIdsBody = z.object({ ids: z.array(waybillId).min(1).max(500) });

/**
 * What labels are printed as: a PDF of 4 × 6 inch pages for office printers, or ZPL II that thermal
 * printers (Zebra and compatibles) take directly.
 */

/** `order/print`: the waybills' labels in one file, a PDF unless ZPL is asked for. */
export const waybillPrintBody = waybillIdsBody.extend({ format: z.enum(LABEL_FORMATS).default('pdf') });

/**
 * `order/createReturn`: a return waybill for a parcel coming back from a waybill's recipient to a
 * return address of the book, priced on the original's channel unless another is named.
 */
export const waybillReturnBody = z.object({
  id: waybillId,
  returnAddressId: waybillId,
  channelId: waybillId.optional(),
  pay: z.boolean().default(false),
});

/** Statuses from which a parcel may be sent back: it reached its recipient, or it went wrong. */
export const RETURNABLE: readonly WaybillStatus[] = ['delivered', 'exception'];

/** `order/refund`: voids an unshipped waybill and gives its payment back once. */
export const waybillRefundBody = z.object({ id: waybillId, reason: str().trim().min(1).max(500) });

/** A move of the waybill machine other than pay, print and refund, which have their own calls. */
export const waybillTransitionBody = z.object({
  id: waybillId,
  action: z.enum([
    'cancel',
    'ready',
    'hand_over',
    'ship',
    'out_for_delivery',
    'deliver',
    'exception',
    'resume',
    'freeze',
    'release',
  ]),
  note: str().trim().max(500).default(''),
});

export const waybillListQuery = pageQuery.extend({
  /** Waybill number, tracking number or the shipper's reference, by its start. */
  keyword: str().trim().max(60).optional(),
  status: z.enum(WAYBILL_STATUSES).optional(),
  channelId: waybillId.optional(),
  /** Return waybills only (`/expressReturnsList`), or only the others. */
  type: z.enum(['regular', 'return']).optional(),
  from: dayField().optional(),
  to: dayField().optional(),
});
export type WaybillListQuery = z.infer<typeof waybillListQuery>;
/** `order/export`: the list's filters, every page. */
export const waybillExportQuery = waybillListQuery.omit({ page: true, limit: true });

/* ---------- responses ---------- */

export const waybillView = z.object({
  id: z.number().int(),
  waybillNo: z.string(),
  trackingNo: z.string(),
  reference: z.string(),
  organisationId: z.number().int(),
  organisationName: z.string(),
  userId: z.number().int(),
  quoteId: z.number().int().nullable(),
  channelId: z.number().int(),
  channel: z.object({
    code: z.string(),
    name: z.string(),
    nameEn: z.string(),
    productName: z.string(),
    productNameEn: z.string(),
    carrier: z.string(),
    service: z.string(),
    transitDaysMin: z.number().int(),
    transitDaysMax: z.number().int(),
  }),
  status: z.enum(WAYBILL_STATUSES),
  shipment: expressShipmentView,
  zone: z.string(),
  billableWeight: z.number(),
  /** What the booking customer pays, and its parts. */
  total: moneyString,
  freight: moneyString,
  fuel: moneyString,
  // `name`: a carrier's own name of a `carrier` charge, or a channel rule's.
  surcharges: z.array(
    z.object({ code: z.enum(EXPRESS_SURCHARGES), fee: moneyString, name: z.string().optional() }),
  ),
  /** Every level's price the caller may see (staff: all of them, the operator's cost first). */
  levels: z.array(expressLevelView),
  paid: moneyString,
  paidAt: timestamp.nullable(),
  printCount: z.number().int(),
  printedAt: timestamp.nullable(),
  refundReason: z.string(),
  /** For a channel a carrier's API serves: the carrier's label and how buying it went; null otherwise. */
  carrierLabel: z
    .object({
      /** The carrier account's kind (`ups`, `karrio`). */
      provider: z.string(),
      /** Whether the label is bought (and printing prints it). */
      bought: z.boolean(),
      /** Why the carrier refused the label, when it did: the waybill was then refunded. */
      failure: z.enum(CARRIER_FAILURES).nullable(),
      /** The carrier's own words about the last failed attempt: staff only, null for anyone else. */
      detail: z.string().nullable(),
    })
    .nullable(),
  /** A return waybill's original waybill number; null for any other. */
  returnOfNo: z.string().nullable(),
  /** Whether it prints customs papers (it crosses a border and declares its contents): `order/customsPapers`. */
  customsPapers: z.boolean(),
  createdAt: timestamp,
  updatedAt: timestamp,
  actions: z.array(z.enum(WAYBILL_ACTIONS)),
});

/** Statuses in which a carrier's parcel may still move: from its label printed to an exception being cleared. */
export const CARRIER_TRACKED_STATUSES: readonly WaybillStatus[] = [
  'printed',
  'ready_to_ship',
  'to_be_shipped',
  'in_transit',
  'out_for_delivery',
  'exception',
];

/** `order/trackNow`: whether the carrier was asked, the scans it added, and what happened in words. */
export const trackNowView = z.object({
  asked: z.boolean(),
  recorded: z.number().int(),
  failure: z.enum(CARRIER_FAILURES).nullable(),
  message: z.string(),
});

export const waybillListView = pageOf(waybillView).extend({
  /** Waybills per status over the filters other than status (null when filtered by status). */
  counts: z.partialRecord(z.enum(WAYBILL_STATUSES), z.number().int()).nullable(),
});

export const waybillCreatedView = z.object({
  id: z.number().int(),
  waybillNo: z.string(),
  status: z.enum(WAYBILL_STATUSES),
  total: moneyString,
  /** Whether paying on creation went through, and why not. */
  payment: z.object({ ok: z.boolean(), message: z.string() }).nullable(),
});
export const waybillStatusView = z.object({
  id: z.number().int(),
  status: z.enum(WAYBILL_STATUSES),
  /** The move had been made already; nothing changed now. */
  repeated: z.boolean(),
});
export const waybillBulkView = z.object({ results: z.record(z.string(), z.string()) });

export const waybillDetailView = z.object({
  waybill: waybillView,
  timeline: z.array(
    z.object({
      id: z.number().int(),
      action: z.string(),
      fromStatus: z.enum(WAYBILL_STATUSES).nullable(),
      toStatus: z.enum(WAYBILL_STATUSES),
      actorId: z.number().int().nullable(),
      note: z.string(),
      createdAt: timestamp,
    }),
  ),
  ledger: z.array(
    z.object({
      id: z.number().int(),
      type: z.string(),
      amount: moneyString,
      balanceAfter: moneyString,
      note: z.string(),
      createdAt: timestamp,
    }),
  ),
});

export const waybillPaymentInfoView = z.object({
  waybill: waybillView,
  account: z.object({
    balance: moneyString,
    creditLimit: moneyString,
    frozen: moneyString,
    available: moneyString,
    status: z.enum(['normal', 'frozen']),
  }),
});

/* ---------- tracking (`/waybillTracking`) ---------- */

/**
 * What a scan says, and the status the waybill follows it to (null: a scan on the way that changes
 * nothing, such as arriving at a depot). Staff add scans, import them from a sheet, or the channel's
 * carrier provider reports them; all three are the same events.
 */
export const TRACKING_CODES = [
  'picked_up',
  'arrived',
  'departed',
  'in_transit',
  'out_for_delivery',
  'delivered',
  'exception',
] as const;
export type TrackingCode = (typeof TRACKING_CODES)[number];

export const TRACKING_STATUS: Record<TrackingCode, WaybillStatus | null> = {
  picked_up: 'in_transit',
  arrived: null,
  departed: null,
  in_transit: 'in_transit',
  out_for_delivery: 'out_for_delivery',
  delivered: 'delivered',
  exception: 'exception',
};

/** The moves staff make to follow a scan: never a money move, a freeze or a print. */
export const TRACKING_MOVES: readonly WaybillAction[] = [
  'hand_over',
  'ship',
  'out_for_delivery',
  'deliver',
  'exception',
  'resume',
];

/**
 * The moves that take a waybill from one status to the status a scan shows, in order; empty when it
 * is there already, null when no run of tracking moves gets there (a delivered waybill does not go
 * back in transit because an old scan came late).
 */
export function trackingPath(from: WaybillStatus, to: WaybillStatus): WaybillAction[] | null {
  if (from === to) return [];
  const seen = new Set<WaybillStatus>([from]);
  let frontier: { status: WaybillStatus; path: WaybillAction[] }[] = [{ status: from, path: [] }];
  while (frontier.length > 0) {
    const next: typeof frontier = [];
    for (const { status, path } of frontier)
      for (const action of TRACKING_MOVES) {
        const move = waybillMachine.find(status, action, 'staff');
        if (!move || seen.has(move.to)) continue;
        if (move.to === to) return [...path, action];
        seen.add(move.to);
        next.push({ status: move.to, path: [...path, action] });
      }
    frontier = next;
  }
  return null;
}

export const TRACKING_SOURCES = ['staff', 'import', 'carrier'] as const;

export const trackingAddBody = z.object({
  id: waybillId,
  code: z.enum(TRACKING_CODES),
  /** When the scan happened; now when left out. */
  at: instantField().optional(),
  location: str().trim().max(100).default(''),
  note: str().trim().max(500).default(''),
});

export const trackingListQuery = pageQuery.extend({
  /** Tracking or waybill number, by its start. */
  keyword: str().trim().max(60).optional(),
  waybillId: waybillId.optional(),
  code: z.enum(TRACKING_CODES).optional(),
});

export const trackingEventView = z.object({
  id: z.number().int(),
  waybillId: z.number().int(),
  waybillNo: z.string(),
  trackingNo: z.string(),
  at: timestamp,
  code: z.enum(TRACKING_CODES),
  location: z.string(),
  note: z.string(),
  source: z.enum(TRACKING_SOURCES),
  createdAt: timestamp,
});
export const trackingListView = pageOf(trackingEventView);
export const trackingAddedView = z.object({
  id: z.number().int(),
  /** The waybill's status after the scan. */
  status: z.enum(WAYBILL_STATUSES),
});
export const trackingImportedView = z.object({
  imported: z.number().int(),
  /** Rows already recorded (the same waybill, time and scan), left as they were. */
  skipped: z.number().int(),
});

/* ---------- dashboards (`/expressDashboard`, `/expressHome`) ---------- */

/** Waybills booked, and what customers paid less refunds, in a period. */
const expressTotals = z.object({ waybills: z.number().int(), revenue: moneyString });

/** The express dashboards for the caller's scope. */
export const expressStatsView = z.object({
  today: expressTotals,
  month: expressTotals,
  /** The last 30 days, oldest first, by the day (UTC) waybills were booked and money moved. */
  series: z.array(expressTotals.extend({ day: z.string() })),
  /** Waybills of each status now, as the waybill list counts them. */
  statuses: z.partialRecord(z.enum(WAYBILL_STATUSES), z.number().int()),
  exceptions: z.number().int(),
  unpaid: z.number().int(),
  /** What the unpaid waybills come to. */
  unpaidAmount: moneyString,
  /** Express recharges waiting for review; null for a caller who does not review them. */
  waitingRecharges: z.number().int().nullable(),
  /** The caller's own express account; null for staff. */
  balance: z.object({ balance: moneyString, available: moneyString }).nullable(),
});
