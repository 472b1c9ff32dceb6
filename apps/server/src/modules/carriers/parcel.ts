import type { CustomsContents, Incoterm } from '@freight/contracts/express-quotes';
import { isMoneyString, parseMoney } from '@freight/contracts/money';
import { z } from 'zod';

/**
 * The parcel shipment a carrier's API prices and the rates it answers, in the carriers' own terms
 * (parcels with a weight each, a service code): not the portal's tariff shapes, which each line maps
 * to and from these.
 */

export interface ParcelAddress {
  name: string;
  company?: string;
  phone?: string;
  address1: string;
  address2?: string;
  city: string;
  /** The state or province code (`CA`, `ON`). */
  state: string;
  zipcode: string;
  /** ISO 3166-1 alpha-2. */
  country: string;
}

export interface Parcel {
  weight: number;
  dimensions?: { length: number; width: number; height: number };
}

export interface ParcelShipment {
  /** YYYY-MM-DD. */
  shipDate: string;
  from: ParcelAddress;
  to: ParcelAddress;
  parcels: Parcel[];
  weightUnit: 'lb' | 'kg';
  dimensionUnit: 'in' | 'cm';
  /** The recipient's address is a home, which some carriers charge extra for. */
  residential?: boolean;
}

export type RateChargeKind = 'base' | 'fuel' | 'surcharge' | 'tax' | 'other';

export interface RateCharge {
  kind: RateChargeKind;
  name: string;
  amountCents: number;
}

/** One service the carrier offers for the shipment, at the price it answered. */
export interface CarrierRateQuote {
  /** The carrier's code for the service, as a booking must name it again. */
  serviceCode: string;
  serviceName: string;
  currency: string;
  totalCents: number;
  /** What the total is made of; the amounts add up to it. */
  charges: RateCharge[];
  /** The account's own (contract) price rather than the carrier's published one. */
  negotiated: boolean;
  transitDays: number | null;
}

/**
 * A carrier's decimal amount (`"12.34"`, or a JSON number such as 12.3) as integer cents, exactly:
 * the text is read digit by digit, never through floating point arithmetic. A number goes through its
 * shortest text form, which is the decimal the carrier wrote. Anything else (a third decimal place,
 * an exponent, spaces) fails the answer's shape.
 */
export const carrierMoney = z
  .union([z.string(), z.number().transform(String)])
  .refine(isMoneyString, { message: 'not a decimal amount with at most two places' })
  .transform((text) => Number(parseMoney(text)));

/* ----- booking, labels and tracking ----- */

/** The portal's own customs terms (`@freight/contracts/express-quotes`), as carriers are given them. */
export { INCOTERMS, type Incoterm } from '@freight/contracts/express-quotes';
export type ParcelContentsType = CustomsContents;

/** One line of a customs declaration. */
export interface ParcelCustomsItem {
  description: string;
  /** The Harmonized System code, 6 to 10 digits (dots and spaces are dropped before it is sent). */
  hsCode: string;
  /** ISO 3166-1 alpha-2: where the goods were made. */
  originCountry: string;
  quantity: number;
  /** The value of one unit, in the declaration's currency. */
  unitValueCents: number;
  /** The weight of one unit, in the booking's weight unit. */
  weight: number;
}

/** What an international parcel declares to customs (the commercial invoice). */
export interface ParcelCustoms {
  contentsType: ParcelContentsType;
  items: ParcelCustomsItem[];
  /** ISO 4217. */
  currency: string;
  incoterm: Incoterm;
  senderTaxId?: string;
  receiverTaxId?: string;
  /** The commercial invoice's number; the booking's reference stands for it when absent. */
  invoiceNumber?: string;
}

/** A shipment to buy a label for, with the service a rate quote named. */
export interface ParcelBooking extends ParcelShipment {
  /** A `CarrierRateQuote.serviceCode`. */
  serviceCode: string;
  /** The portal's waybill number, printed on the label as the shipper's reference. */
  reference: string;
  labelFormat: 'pdf' | 'zpl';
  customs?: ParcelCustoms;
  /** One key per purchase, the same on every attempt of it, so the carrier's records can tell a retry. */
  idempotencyKey: string;
}

export type CarrierLabelFormat = 'pdf' | 'zpl' | 'png' | 'gif';

/** A bought label: what to print, and what to track, void and reconcile the purchase with. */
export interface CarrierLabel {
  /**
   * One per parcel where the carrier numbers each (UPS always does); a carrier behind Karrio may
   * give one number for the whole shipment.
   */
  trackingNumbers: string[];
  /** The carrier's id of the shipment, which voids or cancels it. */
  shipmentId: string;
  label: { format: CarrierLabelFormat; bytes: Buffer }[];
  /** What the carrier charges the account, when it says. */
  chargedCents: number | null;
  currency: string | null;
}

/**
 * Where a parcel stands, in the terms every carrier's tracking maps to. Not the waybill's own
 * tracking codes (`@freight/contracts/express-waybills`), which the portal derives from these.
 */
export const CARRIER_TRACK_CODES = [
  'label_created',
  'picked_up',
  'in_transit',
  'out_for_delivery',
  'delivered',
  'exception',
  'returned',
  'unknown',
] as const;
export type CarrierTrackCode = (typeof CARRIER_TRACK_CODES)[number];

export interface CarrierTrackEvent {
  at: Date;
  code: CarrierTrackCode;
  /** The carrier's own code for the event, as it sent it. */
  carrierCode: string;
  description: string;
  location: string | null;
}

export interface CarrierTracking {
  trackingNumber: string;
  status: CarrierTrackCode;
  /** Oldest first. */
  events: CarrierTrackEvent[];
  deliveredAt: Date | null;
}
