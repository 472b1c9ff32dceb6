import { z } from 'zod';
import { pageQuery } from './api.ts';
import { CARRIER_FAILURES, type CarrierFailure } from './carriers.ts';
import { formatPercentBp, priceLevelSaveBody } from './customers.ts';
import {
  EXPRESS_REFUSALS,
  EXPRESS_SCOPES,
  EXPRESS_SURCHARGES,
  type ExpressBreakdown,
  type ExpressPriceLevel,
  type ExpressRefusal,
  PACKAGINGS,
  type ExpressShipment as RatedShipment,
  UNIT_SYSTEMS,
} from './express-rating.ts';
import { formatMoney, parseMoney } from './money.ts';
import { moneyString, pageOf, timestamp } from './responses.ts';
import { dateField } from './truck-shipment.ts';
import { emailField, englishField, idField, moneyField, str } from './validation.ts';

/**
 * Express quotes (SPEC sections 2 and 7: /onlineQuotation, /queryQuotation, `quotation/getQuotas`,
 * `/rates`, `/select`): a sender, a recipient and parcels, priced on every channel the customer may
 * use, each result kept with every level's price until one channel is selected and booked.
 */

/** SPEC section 5: "fill all fields in English"; labels go to carriers abroad too. */
const english = (max: number) => englishField.trim().max(max);
const requiredEnglish = (max: number) => englishField.trim().min(1).max(max);

/** One end of a parcel shipment. A US address has a five-digit ZIP (ZIP+4 allowed) and a state code. */
export const expressAddressBody = z
  .object({
    name: requiredEnglish(100),
    company: english(100).default(''),
    address1: requiredEnglish(200),
    address2: english(200).default(''),
    city: requiredEnglish(100),
    state: english(60).default(''),
    zipcode: str().trim().toUpperCase().min(1).max(12),
    country: str()
      .trim()
      .toUpperCase()
      .regex(/^[A-Z]{2}$/, { error: 'express.country' })
      .default('US'),
    dialCode: str()
      .regex(/^\d{1,4}$/, { error: 'validation.dialCode' })
      .default('1'),
    phone: str().regex(/^\d{7,15}$/, { error: 'validation.phoneDigits' }),
    email: emailField.or(z.literal('')).default(''),
    residential: z.boolean().default(false),
  })
  .superRefine((v, ctx) => {
    if (v.country !== 'US') return;
    if (!/^\d{5}(-\d{4})?$/.test(v.zipcode))
      ctx.addIssue({ code: 'custom', path: ['zipcode'], message: 'validation.zip' });
    if (!/^[A-Za-z]{2}$/.test(v.state))
      ctx.addIssue({ code: 'custom', path: ['state'], message: 'validation.state' });
  });
export type ExpressAddress = z.infer<typeof expressAddressBody>;

export const parcelBody = z.object({
  quantity: z.number().int().min(1).max(100).default(1),
  length: z.number().positive().max(1_000),
  width: z.number().positive().max(1_000),
  height: z.number().positive().max(1_000),
  weight: z.number().positive().max(10_000),
  /** Per piece; 0 for no declared value. */
  declaredValue: moneyField.default('0'),
  description: english(100).default(''),
  /** What the piece is packed in; some carriers charge for packaging that is not a carton. */
  packaging: z.enum(PACKAGINGS).default('box'),
});
export type ParcelInput = z.infer<typeof parcelBody>;

/* ---------- customs ---------- */

/** What an international parcel holds, as customs forms name it. */
export const CUSTOMS_CONTENTS = ['merchandise', 'documents', 'gift', 'sample', 'return'] as const;
export type CustomsContents = (typeof CUSTOMS_CONTENTS)[number];

/** Incoterms 2020: who pays what, and where the risk passes to the buyer. */
export const INCOTERMS = [
  'EXW',
  'FCA',
  'CPT',
  'CIP',
  'DAP',
  'DPU',
  'DDP',
  'FAS',
  'FOB',
  'CFR',
  'CIF',
] as const;
export type Incoterm = (typeof INCOTERMS)[number];

const countryCode = str()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z]{2}$/, { error: 'express.country' });

/** One line of a customs declaration: a kind of goods, how many, what one is worth and weighs. */
export const customsItemBody = z.object({
  description: requiredEnglish(100),
  /** The Harmonized System code: 6 to 10 digits, dots and spaces as written on tariffs dropped. */
  hsCode: str()
    .trim()
    .transform((code) => code.replace(/[\s.]/g, ''))
    .pipe(str().regex(/^\d{6,10}$/, { error: 'express.hsCode' })),
  /** Where the goods were made. */
  originCountry: countryCode,
  quantity: z.number().int().min(1).max(100_000),
  /** The value of one unit, in the declaration's currency. */
  unitValue: moneyField,
  /** The weight of one unit, in the shipment's weight unit. */
  weight: z.number().positive().max(10_000),
});
export type CustomsItemInput = z.infer<typeof customsItemBody>;

/** What an international parcel declares to customs: the commercial invoice and the CN22/CN23. */
export const customsBody = z.object({
  contentsType: z.enum(CUSTOMS_CONTENTS),
  items: z.array(customsItemBody).max(50).default([]),
  /** ISO 4217. */
  currency: str()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{3}$/, { error: 'express.currency' })
    .default('USD'),
  incoterm: z.enum(INCOTERMS).default('DAP'),
  senderTaxId: english(30).default(''),
  receiverTaxId: english(30).default(''),
});
export type CustomsInput = z.infer<typeof customsBody>;

/** A parcel crossing a border: its sender and recipient are in different countries. */
export const crossesBorder = (shipment: { sender: { country: string }; recipient: { country: string } }) =>
  shipment.sender.country !== shipment.recipient.country;

/**
 * Customs data a shipment lacks, as issues on the fields to fill: a parcel crossing a border declares
 * its contents, and one that is not documents lists at least one item.
 */
export function customsIssues(shipment: {
  sender: { country: string };
  recipient: { country: string };
  customs?: CustomsInput | undefined;
}): { path: (string | number)[]; message: string }[] {
  if (!crossesBorder(shipment)) return [];
  if (!shipment.customs) return [{ path: ['customs', 'contentsType'], message: 'express.customsRequired' }];
  if (shipment.customs.contentsType !== 'documents' && shipment.customs.items.length === 0)
    return [{ path: ['customs', 'items'], message: 'express.customsItemsRequired' }];
  return [];
}

export const expressShipmentBody = z.object({
  sender: expressAddressBody,
  recipient: expressAddressBody,
  /** The units the parcels are given in; each channel converts to its own. */
  unitSystem: z.enum(UNIT_SYSTEMS).default('lb_in'),
  parcels: z.array(parcelBody).min(1).max(50),
  signature: z.boolean().default(false),
  /** The shipper's own reference, printed on the label. */
  reference: english(60).default(''),
  /** Required for a parcel crossing a border (customsIssues). */
  customs: customsBody.optional(),
  /** The day it ships: prices and fuel are those in force then. Empty for today. */
  shipDate: dateField.or(z.literal('')).default(''),
});
export type ExpressShipmentInput = z.infer<typeof expressShipmentBody>;

/** `getQuotas`: a new quote; staff and parents name the customer it is for. */
export const expressQuoteSaveBody = expressShipmentBody
  .extend({ organisationId: idField().optional() })
  .superRefine((shipment, ctx) => {
    for (const issue of customsIssues(shipment)) ctx.addIssue({ code: 'custom', ...issue });
  });
export const expressQuoteIdBody = z.object({ id: idField() });
/** `select`: the channel of a priced quote the customer books. */
export const expressSelectBody = z.object({ id: idField(), channelId: idField() });

export const EXPRESS_QUOTE_STATUSES = ['open', 'selected', 'booked', 'expired'] as const;
export type ExpressQuoteStatus = (typeof EXPRESS_QUOTE_STATUSES)[number];
export const EXPRESS_QUOTE_ACTIONS = ['select', 'book', 'requote'] as const;
export type ExpressQuoteAction = (typeof EXPRESS_QUOTE_ACTIONS)[number];

export const expressQuoteListQuery = pageQuery.extend({
  keyword: str().trim().max(100).optional(),
  status: z.enum(EXPRESS_QUOTE_STATUSES).optional(),
});

/** `address/check`: whether a US ZIP, city and state agree. */
export const addressCheckBody = z.object({
  zipcode: str().trim().min(1).max(12),
  city: str().trim().min(1).max(100),
  state: str().trim().max(60).default(''),
  country: str()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{2}$/, { error: 'express.country' })
    .default('US'),
});

/** What rating takes from a quote's shipment: ZIPs, countries and parcels in cents. */
export function ratedShipment(shipment: ExpressShipmentInput): RatedShipment {
  const party = (a: ExpressShipmentInput['sender']) => ({
    name: a.name,
    company: a.company,
    phone: a.phone,
    address1: a.address1,
    address2: a.address2,
    city: a.city,
    state: a.state,
    zipcode: a.zipcode,
    country: a.country,
  });
  return {
    parties: { from: party(shipment.sender), to: party(shipment.recipient) },
    unitSystem: shipment.unitSystem,
    originZip: shipment.sender.zipcode,
    destinationCountry: shipment.recipient.country,
    destinationZip: shipment.recipient.zipcode,
    residential: shipment.recipient.residential,
    signature: shipment.signature,
    parcels: shipment.parcels.map((p) => ({
      quantity: p.quantity,
      length: p.length,
      width: p.width,
      height: p.height,
      weight: p.weight,
      declaredValue: Number(parseMoney(p.declaredValue)),
      // Older quotes were stored before a piece said its packaging: a carton.
      packaging: p.packaging ?? 'box',
    })),
    ...(shipment.shipDate ? { shipDate: shipment.shipDate } : {}),
  };
}

/* ---------- results ---------- */

/** The channel a result is for, as a quote shows it. */
export interface ExpressQuoteChannel {
  channelId: number;
  productId: number;
  code: string;
  name: string;
  nameEn: string;
  productName: string;
  productNameEn: string;
  carrier: string;
  service: string;
  scope: (typeof EXPRESS_SCOPES)[number];
  transitDaysMin: number;
  transitDaysMax: number;
  /** The carrier provider that priced it and books it. */
  provider: string;
}

/**
 * `no_carrier`: the channel names a carrier provider this release does not have; `carrier_failed`: its
 * carrier did not price the shipment (unreachable, too slow, refused...), said by `failure`.
 */
export type ExpressQuoteRefusal = ExpressRefusal | 'no_carrier' | 'carrier_failed';
export const EXPRESS_QUOTE_REFUSALS = [...EXPRESS_REFUSALS, 'no_carrier', 'carrier_failed'] as const;

export type ExpressQuoteResult = ExpressQuoteChannel &
  (
    | {
        ok: true;
        breakdown: ExpressBreakdown;
        levels: ExpressPriceLevel[];
        cheapest: boolean;
        fastest: boolean;
      }
    | { ok: false; reason: ExpressQuoteRefusal; failure?: CarrierFailure }
  );

/** Marks the cheapest and the fastest of the priced results, whoever priced them. */
export function markBestExpress(results: ExpressQuoteResult[]): ExpressQuoteResult[] {
  const priced = results.filter((r): r is Extract<ExpressQuoteResult, { ok: true }> => r.ok);
  if (priced.length === 0) return results;
  const total = (r: (typeof priced)[number]) => (r.levels[r.levels.length - 1] as ExpressPriceLevel).total;
  const cheapest = Math.min(...priced.map(total));
  const fastest = Math.min(...priced.map((r) => r.transitDaysMax));
  return results.map((r) =>
    r.ok ? { ...r, cheapest: total(r) === cheapest, fastest: r.transitDaysMax === fastest } : r,
  );
}

/**
 * The levels a caller may see: staff see all; an organisation sees its own price and the prices of
 * the levels below it, never what the levels above it pay.
 */
export function visibleExpressLevels(
  levels: readonly ExpressPriceLevel[],
  callerOrganisationId: number | null,
): ExpressPriceLevel[] {
  if (callerOrganisationId === null) return [...levels];
  const own = levels.findIndex((l) => l.organisationId === callerOrganisationId);
  return own < 0 ? [] : levels.slice(own);
}

/* ---------- on the wire ---------- */

const surchargeLine = z.object({
  code: z.enum(EXPRESS_SURCHARGES),
  fee: moneyString,
  /** The carrier's own name of a `carrier` charge, or a channel rule's. */
  name: z.string().optional(),
});

export const expressLevelView = z.object({
  organisationId: z.number().int().nullable(),
  type: z.enum(['platform', 'branch', 'agent', 'customer']),
  freight: moneyString,
  surcharges: z.array(surchargeLine),
  fuel: moneyString,
  total: moneyString,
});

/**
 * How a price was reached: weights for everyone; the operator's cost parts (freight per parcel and
 * the cost totals) only for staff, absent from anyone else's answer.
 */
export const expressBreakdownView = z.object({
  zone: z.string(),
  unitSystem: z.enum(UNIT_SYSTEMS),
  billableWeight: z.number(),
  parcels: z.array(
    z.object({
      actualWeight: z.number(),
      dimWeight: z.number(),
      billableWeight: z.number(),
      quantity: z.number().int(),
      freight: moneyString.optional(),
      minimumApplied: z.boolean().optional(),
      /** The cubic tier that priced it; whether the last weight row was prorated. */
      cubicTier: z.number().optional(),
      prorated: z.boolean().optional(),
      /** Sides as the carrier measures them, longest first. */
      sides: z.array(z.number()).optional(),
      surcharges: z.array(surchargeLine.extend({ note: z.string().optional() })).optional(),
    }),
  ),
  /** The fuel percentage applied and the charges it was applied to (staff), and the first day of the price table that priced it. */
  fuelPercent: z.string().optional(),
  fuelBase: moneyString.optional(),
  pricesFrom: z.string().optional(),
});

const channelView = z.object({
  channelId: z.number().int(),
  productId: z.number().int(),
  code: z.string(),
  name: z.string(),
  nameEn: z.string(),
  productName: z.string(),
  productNameEn: z.string(),
  carrier: z.string(),
  service: z.string(),
  scope: z.enum(EXPRESS_SCOPES),
  transitDaysMin: z.number().int(),
  transitDaysMax: z.number().int(),
  provider: z.string(),
});

export const expressResultView = z.discriminatedUnion('ok', [
  channelView.extend({
    ok: z.literal(true),
    breakdown: expressBreakdownView,
    levels: z.array(expressLevelView),
    cheapest: z.boolean(),
    fastest: z.boolean(),
  }),
  channelView.extend({
    ok: z.literal(false),
    reason: z.enum(EXPRESS_QUOTE_REFUSALS),
    failure: z.enum(CARRIER_FAILURES).optional(),
  }),
]);
export type ExpressResultWire = z.input<typeof expressResultView>;

const moneyOf = (cents: number) => formatMoney(BigInt(cents));

export function expressLevelOnWire(level: ExpressPriceLevel): z.input<typeof expressLevelView> {
  return {
    organisationId: level.organisationId,
    type: level.type,
    freight: moneyOf(level.freight),
    surcharges: level.surcharges.map((s) => ({ ...s, fee: moneyOf(s.fee) })),
    fuel: moneyOf(level.fuel),
    total: moneyOf(level.total),
  };
}

/** A result on the wire with the levels given; the cost parts of each parcel for staff only. */
export function expressResultOnWire(
  result: ExpressQuoteResult,
  levels: readonly ExpressPriceLevel[] | null,
  withCost: boolean,
): ExpressResultWire {
  if (!result.ok) return result;
  const { breakdown, levels: all, ...rest } = result;
  return {
    ...rest,
    breakdown: expressBreakdownOnWire(breakdown, withCost),
    levels: (levels ?? all).map(expressLevelOnWire),
  };
}

/** How a price was reached, on the wire: each parcel's cost parts and the fuel applied for staff only. */
export function expressBreakdownOnWire(
  breakdown: ExpressBreakdown,
  withCost: boolean,
): z.input<typeof expressBreakdownView> {
  return {
    zone: breakdown.zone,
    unitSystem: breakdown.unitSystem,
    billableWeight: breakdown.billableWeight,
    parcels: breakdown.parcels.map((p) =>
      withCost
        ? {
            ...p,
            freight: moneyOf(p.freight),
            surcharges: p.surcharges.map((s) => ({ ...s, fee: moneyOf(s.fee) })),
          }
        : {
            actualWeight: p.actualWeight,
            dimWeight: p.dimWeight,
            billableWeight: p.billableWeight,
            quantity: p.quantity,
            // How the carrier measures the piece is no cost: the customer checks an invoice by it.
            ...(p.sides ? { sides: p.sides } : {}),
            ...(p.cubicTier !== undefined ? { cubicTier: p.cubicTier } : {}),
            ...(p.prorated ? { prorated: true } : {}),
          },
    ),
    ...(withCost && breakdown.fuelBp !== undefined ? { fuelPercent: formatPercentBp(breakdown.fuelBp) } : {}),
    ...(withCost && breakdown.fuelBase !== undefined ? { fuelBase: moneyOf(breakdown.fuelBase) } : {}),
    ...(breakdown.pricesFrom ? { pricesFrom: breakdown.pricesFrom } : {}),
  };
}

/** One end of a parcel shipment as answers give it; the express address book's entries too. */
export const expressAddressView = z.object({
  name: z.string(),
  company: z.string(),
  address1: z.string(),
  address2: z.string(),
  city: z.string(),
  state: z.string(),
  zipcode: z.string(),
  country: z.string(),
  dialCode: z.string(),
  phone: z.string(),
  email: z.string(),
  residential: z.boolean(),
});

export const expressShipmentView = z.object({
  sender: expressAddressView,
  recipient: expressAddressView,
  unitSystem: z.enum(UNIT_SYSTEMS),
  parcels: z.array(
    z.object({
      quantity: z.number().int(),
      length: z.number(),
      width: z.number(),
      height: z.number(),
      weight: z.number(),
      declaredValue: z.string(),
      description: z.string(),
      // Shipments stored before these fields were asked read as a carton shipped on the quote's day.
      packaging: z.enum(PACKAGINGS).default('box'),
    }),
  ),
  signature: z.boolean(),
  reference: z.string(),
  shipDate: z.string().default(''),
  customs: z
    .object({
      contentsType: z.enum(CUSTOMS_CONTENTS),
      items: z.array(
        z.object({
          description: z.string(),
          hsCode: z.string(),
          originCountry: z.string(),
          quantity: z.number().int(),
          unitValue: z.string(),
          weight: z.number(),
        }),
      ),
      currency: z.string(),
      incoterm: z.enum(INCOTERMS),
      senderTaxId: z.string(),
      receiverTaxId: z.string(),
    })
    .optional(),
});

// The stored shipment and its wire shape stay one shape: a field added to one fails the typecheck.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const shipmentViewMatches: Same<z.output<typeof expressShipmentView>, ExpressShipmentInput> = true;
void shipmentViewMatches;

export const expressQuoteView = z.object({
  id: z.number().int(),
  quoteNo: z.string(),
  organisationId: z.number().int(),
  userId: z.number().int(),
  status: z.enum(EXPRESS_QUOTE_STATUSES),
  shipment: expressShipmentView,
  results: z.array(expressResultView),
  selectedChannelId: z.number().int().nullable(),
  pricedAt: timestamp.nullable(),
  expiresAt: timestamp.nullable(),
  expired: z.boolean(),
  actions: z.array(z.enum(EXPRESS_QUOTE_ACTIONS)),
  createdAt: timestamp,
  updatedAt: timestamp,
});
export const expressQuoteListView = pageOf(expressQuoteView);
export const expressQuoteSavedView = z.object({ id: z.number().int(), quoteNo: z.string() });
export const expressSelectedView = z.object({
  id: z.number().int(),
  status: z.enum(EXPRESS_QUOTE_STATUSES),
  selectedChannelId: z.number().int(),
  /** What the booking customer pays for the selected channel. */
  total: moneyString,
});

/** One line of the rates stream (`application/x-ndjson`): each channel as it is priced, then the end. */
export const expressRateLine = z.discriminatedUnion('type', [
  z.object({ type: z.literal('result'), result: expressResultView }),
  z.object({ type: z.literal('done'), expiresAt: timestamp, results: z.array(expressResultView) }),
  /** The pricing failed after the first line: `code` 503 while the database is away, else 500. */
  z.object({ type: z.literal('error'), code: z.number().int().optional(), msg: z.string().optional() }),
]);
export const expressRateStreamResponse = {
  description: 'One JSON object a line: each channel as it is priced, then `done` (or `error`)',
  content: { 'application/x-ndjson': { schema: expressRateLine } },
};

/** The quote form's choices (`quotation/options`). */
export const expressOptionsView = z.object({
  channels: z.array(channelView.omit({ provider: true }).extend({ unitSystem: z.enum(UNIT_SYSTEMS) })),
  unitSystems: z.array(z.enum(UNIT_SYSTEMS)).readonly(),
  quoteTtlHours: z.number().int(),
  /** Customers a staff member or a parent may quote for; empty for a customer quoting for itself. */
  customers: z.array(z.object({ id: z.number().int(), name: z.string() })),
});

/** SPEC section 3 "Express shipping address option". */
export const expressAddressOptionView = z.object({
  id: z.number().int(),
  address_code: z.string(),
  name: z.string(),
  detail: z.string(),
  country: z.string(),
  province_code: z.string(),
  city: z.string(),
  zipcode: z.string(),
  /** The whole address, to fill the form with: `contact` is the name on the label, `company` its company. */
  contact: z.string(),
  company: z.string(),
  dialCode: z.string(),
  phone: z.string(),
  email: z.string(),
  address1: z.string(),
  address2: z.string(),
  residential: z.boolean(),
  isDefault: z.boolean(),
});
export const expressAddressOptionsView = z.object({ list: z.array(expressAddressOptionView) });

export const addressCheckedView = z.object({
  zipcode: z.string(),
  city: z.string(),
  state: z.string(),
  country: z.string(),
  /** False when a US ZIP is unknown to the lookup: the address may still be right, but is not confirmed. */
  confirmed: z.boolean(),
});

/** A money string from cents, for the services that build wire answers. */
export const expressMoney = moneyOf;

/* ---------- markups per channel (`/setPrice`, the express customer pages' price drawer) ---------- */

/**
 * `express/price/sample`: what a sample parcel costs on every channel open to an organisation, at the
 * operator's cost and at each level down to it. `levels` (the organisation's express markups as being
 * edited, default `productKey` '' and one per channel code) prices in place of its saved ones, so
 * the page shows an edit's effect before it is saved; nothing is stored.
 */
export const expressPriceSampleBody = z
  .object({
    organisationId: idField(),
    originZip: str()
      .trim()
      .regex(/^\d{5}$/, { error: 'validation.zip' })
      .default('90001'),
    destinationCountry: str()
      .trim()
      .toUpperCase()
      .regex(/^[A-Z]{2}$/, { error: 'express.country' })
      .default('US'),
    destinationZip: str().trim().toUpperCase().min(1).max(12).default('75201'),
    unitSystem: z.enum(UNIT_SYSTEMS).default('lb_in'),
    weight: z.number().positive().max(10_000).default(5),
    length: z.number().positive().max(1_000).default(10),
    width: z.number().positive().max(1_000).default(8),
    height: z.number().positive().max(1_000).default(6),
    levels: z
      .array(priceLevelSaveBody.pick({ productKey: true, markupPercent: true, markupFixed: true }))
      .max(500)
      .optional(),
  })
  .superRefine((v, ctx) => {
    if (v.destinationCountry === 'US' && !/^\d{5}$/.test(v.destinationZip))
      ctx.addIssue({ code: 'custom', path: ['destinationZip'], message: 'validation.zip' });
  });

export const MARKUP_SOURCES = ['channel', 'default', 'none'] as const;

export const expressPriceSampleView = z.object({
  results: z.array(
    z.object({
      channelId: z.number().int(),
      code: z.string(),
      name: z.string(),
      nameEn: z.string(),
      productName: z.string(),
      productNameEn: z.string(),
      ok: z.boolean(),
      reason: z.enum(EXPRESS_QUOTE_REFUSALS).nullable(),
      zone: z.string().nullable(),
      billableWeight: z.number().nullable(),
      /** The levels the caller may see, the operator's cost first for staff; empty when refused. */
      levels: z.array(
        z.object({
          organisationId: z.number().int().nullable(),
          type: z.enum(['platform', 'branch', 'agent', 'customer']),
          /** The organisation's name; empty for the operator. */
          name: z.string(),
          /** The markup this level adds to the price above it, and where it comes from. */
          markupPercent: z.string(),
          markupFixed: moneyString,
          source: z.enum(MARKUP_SOURCES),
          total: moneyString,
        }),
      ),
    }),
  ),
});
