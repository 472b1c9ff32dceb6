import { z } from 'zod';
import { pageQuery } from './api.ts';
import { TRUCK_MODES } from './truck-products.ts';
import { ACCESSORIALS, FREIGHT_CLASSES, type GoodsLine } from './truck-rating.ts';
import { emailField, englishField, moneyField, str, zipField } from './validation.ts';

/** SPEC section 5: "fill all fields in English"; addresses go to US carriers. */
const english = (max: number) => englishField.trim().max(max);
const requiredEnglish = (max: number) => englishField.trim().min(1).max(max);
const timeField = str().regex(/^([01]\d|2[0-3]):[0-5]\d$/, { error: 'validation.time' });
export const dateField = str().regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'validation.date' });

export const ADDRESS_TYPES = ['business', 'residential', 'warehouse', 'fba', 'construction'] as const;
export type AddressType = (typeof ADDRESS_TYPES)[number];

/** One end of a shipment, every field of the quote form (SPEC section 3 "Quote form"). */
export const shipmentAddress = z
  .object({
    name: requiredEnglish(100),
    address1: requiredEnglish(200),
    address2: english(200).default(''),
    zipcode: zipField,
    city: requiredEnglish(100),
    state: str()
      .trim()
      .toUpperCase()
      .regex(/^[A-Z]{2}$/, { error: 'validation.state' }),
    country: str().trim().toUpperCase().length(2).default('US'),
    contact: requiredEnglish(100),
    dialCode: str()
      .regex(/^\d{1,4}$/, { error: 'validation.dialCode' })
      .default('1'),
    phone: str().regex(/^\d{7,15}$/, { error: 'validation.phoneDigits' }),
    email: emailField.or(z.literal('')).default(''),
    windowStart: timeField.default('09:00'),
    windowEnd: timeField.default('17:00'),
    addressType: z.enum(ADDRESS_TYPES).default('business'),
    /** An Amazon FBA warehouse code when the address is one. */
    fbaCode: english(10).default(''),
    saveToBook: z.boolean().default(false),
  })
  .superRefine((v, ctx) => {
    // A badly written time has its own message; the order is checked between two good ones.
    const good = (time: string) => timeField.safeParse(time).success;
    if (good(v.windowStart) && good(v.windowEnd) && v.windowEnd <= v.windowStart)
      ctx.addIssue({ code: 'custom', path: ['windowEnd'], message: 'validation.windowOrder' });
  });
export type ShipmentAddress = z.infer<typeof shipmentAddress>;

const inches = z.number().positive().max(1_000);

export const dangerousGoods = z.object({
  /** UN number, e.g. UN1263. */
  unNumber: str()
    .trim()
    .regex(/^UN\d{4}$/i, { error: 'validation.unNumber' }),
  hazardClass: str().trim().min(1).max(10),
  quantity: z.number().positive().max(100_000),
  toxic: z.boolean().default(false),
  emergencyContact: requiredEnglish(100),
  emergencyPhone: str().regex(/^\d{7,15}$/, { error: 'validation.phoneDigits' }),
});

export const PALLET_TYPES = ['pallet', 'crate', 'box', 'drum', 'roll', 'other'] as const;

/** One goods line of the quote form; dimensions in inches per handling unit, weight in pounds. */
export const shipmentLine = z.object({
  sku: english(60).default(''),
  name: requiredEnglish(100),
  quantity: z.number().int().positive().max(100_000),
  unit: english(20).default('pcs'),
  palletCount: z.number().int().positive().max(1_000),
  palletType: z.enum(PALLET_TYPES).default('pallet'),
  goodsValue: moneyField.default('0'),
  length: inches,
  width: inches,
  height: inches,
  totalWeight: z.number().positive().max(100_000),
  freightClass: z.enum(FREIGHT_CLASSES).optional(),
  nmfc: english(20).default(''),
  stackable: z.boolean().default(true),
  dangerous: dangerousGoods.nullable().default(null),
});
export type ShipmentLine = z.infer<typeof shipmentLine>;

export const shipmentBody = z.object({
  mode: z.enum(TRUCK_MODES),
  pickup: shipmentAddress,
  delivery: shipmentAddress,
  quoteDate: dateField,
  /** The delivery date asked for; empty for the product's standard transit. */
  deliveryDate: dateField.or(z.literal('')).default(''),
  lines: z.array(shipmentLine).min(1).max(50),
  accessorials: z.array(z.enum(ACCESSORIALS)).max(ACCESSORIALS.length).default([]),
  insurance: z
    .object({ included: z.boolean(), insuredValue: moneyField.default('0') })
    .default({ included: false, insuredValue: '0' }),
});
export type Shipment = z.infer<typeof shipmentBody>;

/* ---------- the shipment on the wire ---------- */

const addressView = z.object({
  name: z.string(),
  address1: z.string(),
  address2: z.string(),
  zipcode: z.string(),
  city: z.string(),
  state: z.string(),
  country: z.string(),
  contact: z.string(),
  dialCode: z.string(),
  phone: z.string(),
  email: z.string(),
  windowStart: z.string(),
  windowEnd: z.string(),
  addressType: z.enum(ADDRESS_TYPES),
  fbaCode: z.string(),
  saveToBook: z.boolean(),
});

const lineView = z.object({
  sku: z.string(),
  name: z.string(),
  quantity: z.number(),
  unit: z.string(),
  palletCount: z.number(),
  palletType: z.enum(PALLET_TYPES),
  goodsValue: z.string(),
  length: z.number(),
  width: z.number(),
  height: z.number(),
  totalWeight: z.number(),
  freightClass: z.enum(FREIGHT_CLASSES).optional(),
  nmfc: z.string(),
  stackable: z.boolean(),
  dangerous: z
    .object({
      unNumber: z.string(),
      hazardClass: z.string(),
      quantity: z.number(),
      toxic: z.boolean(),
      emergencyContact: z.string(),
      emergencyPhone: z.string(),
    })
    .nullable(),
});

/**
 * A stored shipment as quotes and orders answer it: the shape `shipmentBody` gave when the quote was
 * saved, every field named, without the input rules (it was checked on the way in).
 */
export const shipmentView = z.object({
  mode: z.enum(TRUCK_MODES),
  pickup: addressView,
  delivery: addressView,
  quoteDate: z.string(),
  deliveryDate: z.string(),
  lines: z.array(lineView),
  accessorials: z.array(z.enum(ACCESSORIALS)),
  insurance: z.object({ included: z.boolean(), insuredValue: z.string() }),
});

// The wire shape and the parsed input stay one shape: a field added to one fails the typecheck here.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const shipmentViewMatches: Same<z.output<typeof shipmentView>, Shipment> = true;
void shipmentViewMatches;

/** Limits past which the tables do not price a shipment and staff quote it by hand. */
export const MANUAL_LIMITS = {
  /** Inches: longer or higher units are oversize. */
  maxLength: 240,
  maxHeight: 96,
  /** Pounds of one handling unit. */
  maxUnitWeight: 5_000,
  /** Units of dangerous goods one LTL shipment may carry. */
  maxDangerousQuantity: 1_000,
} as const;

export type ManualReason = 'oversize' | 'dangerous_goods' | 'no_rate';

/** Why a shipment must be quoted by hand, before any table is read; null when the tables may price it. */
export function manualReason(shipment: Pick<Shipment, 'lines'>): ManualReason | null {
  for (const line of shipment.lines) {
    const unitWeight = line.totalWeight / line.palletCount;
    if (
      Math.max(line.length, line.width) > MANUAL_LIMITS.maxLength ||
      line.height > MANUAL_LIMITS.maxHeight ||
      unitWeight > MANUAL_LIMITS.maxUnitWeight
    )
      return 'oversize';
    if (
      line.dangerous &&
      (line.dangerous.toxic || line.dangerous.quantity > MANUAL_LIMITS.maxDangerousQuantity)
    )
      return 'dangerous_goods';
  }
  return null;
}

/** What the rating engine needs of a goods line: handling units, their size, the line's weight. */
export const ratingLine = (line: ShipmentLine): GoodsLine => ({
  quantity: line.palletCount,
  length: line.length,
  width: line.width,
  height: line.height,
  totalWeight: line.totalWeight,
  ...(line.freightClass ? { freightClass: line.freightClass } : {}),
});

/** Accessorials the shipment implies: dangerous goods are hazardous, residential ends are residential. */
export function impliedAccessorials(shipment: Shipment): Shipment['accessorials'] {
  const set = new Set(shipment.accessorials);
  if (shipment.lines.some((l) => l.dangerous)) set.add('hazardous');
  if (shipment.pickup.addressType === 'residential') set.add('residential_pickup');
  if (shipment.delivery.addressType === 'residential') set.add('residential_delivery');
  return ACCESSORIALS.filter((a) => set.has(a));
}

/* ---------- calls of the quote flow ---------- */

export const quoteIdBody = z.object({ id: z.number().int().positive() });

/** `quotation/save`: a new quote from a whole shipment; staff and agents name the customer it is for. */
export const quoteSaveBody = shipmentBody.extend({ organisationId: z.number().int().positive().optional() });

/** `quotation/saveQuotationLocation`: the quote's two addresses changed; its prices are gone. */
export const quoteLocationBody = z.object({
  id: z.number().int().positive(),
  pickup: shipmentAddress,
  delivery: shipmentAddress,
});

/** `quotation/saveQuotationDetail`: the goods, services, insurance or dates changed. */
export const quoteDetailBody = shipmentBody
  .pick({ mode: true, quoteDate: true, deliveryDate: true, lines: true, accessorials: true, insurance: true })
  .extend({ id: z.number().int().positive() });

export const QUOTE_STATUSES = ['open', 'booked', 'expired'] as const;
export type QuoteStatus = (typeof QUOTE_STATUSES)[number];

export const quoteListQuery = pageQuery.extend({
  keyword: str().trim().max(100).optional(),
  status: z.enum(QUOTE_STATUSES).optional(),
  mode: z.enum(TRUCK_MODES).optional(),
  from: dateField.optional(),
  to: dateField.optional(),
});
