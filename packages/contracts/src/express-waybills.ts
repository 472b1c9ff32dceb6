import { defineStateMachine } from './state-machine.ts';

/**
 * Express waybills (SPEC section 4 "Waybill statuses"). `unpaid` is added for waybills created without
 * paying (batch files, a booking whose balance fell short); every status of the SPEC follows payment.
 */
export const WAYBILL_STATUSES = [
  'unpaid',
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
  { from: 'unpaid', action: 'pay', to: 'to_be_printed', who: SO },
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
