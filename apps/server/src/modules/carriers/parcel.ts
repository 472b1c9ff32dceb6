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
