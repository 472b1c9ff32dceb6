import { z } from 'zod';
import { pageQuery } from './api.ts';
import { LABEL_FORMATS } from './carriers.ts';
import { expressBreakdownView, parcelBody } from './express-quotes.ts';
import {
  BEYOND_LAST_WEIGHT,
  DIM_ROUNDINGS,
  EXPRESS_REFUSALS,
  EXPRESS_SCOPES,
  PACKAGINGS,
  type PriceTable,
  SURCHARGE_TRIGGERS,
  type SurchargeTerms,
  UNIT_SYSTEMS,
  type ZoneRow,
} from './express-rating.ts';
import { moneyString, pageOf, timestamp } from './responses.ts';
import { dateField } from './truck-shipment.ts';
import { idField, moneyField, str } from './validation.ts';

/**
 * Express products and channels (SPEC section 2: /expressProductManagement, /expressChannelManag,
 * /partitionTable, /channelPrice). A product is what customers buy and see on a quote ("US ground",
 * "Canada express"); each channel belongs to one product and is a carrier's service behind it with
 * its own limits, zone chart, price table and surcharges. A quote prices every channel the customer
 * may use and shows each under its product's name.
 */

/** The only currency balances are kept in today; a channel records it so prices are never mixed. */
export const EXPRESS_CURRENCIES = ['USD'] as const;

const codeField = str()
  .trim()
  .min(1)
  .max(40)
  .regex(/^[A-Za-z0-9_-]+$/, { error: 'validation.englishOnly' });
const nameField = (max: number) => str().trim().min(1).max(max);
const percentField = str().regex(/^\d{1,3}(\.\d{1,2})?$/, { error: 'validation.percent' });
/** A length or weight in the channel's units, up to two decimals. */
const measure = (max: number) => z.number().positive().max(max);
const organisationIds = z.array(idField()).max(500).default([]);

/* ---------- products ---------- */

export const expressProductListQuery = pageQuery.extend({
  keyword: str().trim().max(100).optional(),
  enabled: z.boolean().optional(),
});

export const expressProductSaveBody = z.object({
  id: idField().optional(),
  code: codeField,
  name: nameField(100),
  nameEn: nameField(100),
  description: str().trim().max(500).default(''),
  descriptionEn: str().trim().max(500).default(''),
  enabled: z.boolean().default(true),
  /** Empty: every customer may use it; otherwise only these organisations and those under them. */
  organisationIds,
});
export type ExpressProductSaveBody = z.infer<typeof expressProductSaveBody>;

/* ---------- channels ---------- */

export const surchargeTermsBody = z.object({
  fuelPercent: percentField.default('0'),
  residential: moneyField.default('0'),
  signature: moneyField.default('0'),
  additionalHandling: z
    .object({
      fee: moneyField,
      longest: measure(1_000),
      secondLongest: measure(1_000),
      weight: measure(10_000),
    })
    .nullable()
    .default(null),
  largePackage: z
    .object({
      fee: moneyField,
      longest: measure(1_000),
      lengthGirth: measure(2_000),
      minBillable: measure(10_000),
    })
    .nullable()
    .default(null),
  declaredValue: z
    .object({ free: moneyField, per100: moneyField, minimum: moneyField.default('0') })
    .nullable()
    .default(null),
});

export const expressChannelListQuery = pageQuery.extend({
  keyword: str().trim().max(100).optional(),
  productId: idField().optional(),
  scope: z.enum(EXPRESS_SCOPES).optional(),
  enabled: z.boolean().optional(),
});
/** The channel list's filters, for its export (every matching channel, not a page). */
export const expressChannelExportQuery = expressChannelListQuery.omit({ page: true, limit: true });

export const expressChannelSaveBody = z
  .object({
    id: idField().optional(),
    productId: idField(),
    code: codeField,
    name: nameField(100),
    nameEn: nameField(100),
    carrier: nameField(100),
    service: nameField(60),
    scope: z.enum(EXPRESS_SCOPES),
    unitSystem: z.enum(UNIT_SYSTEMS),
    currency: z.enum(EXPRESS_CURRENCIES).default('USD'),
    /** Cubic units per weight unit; 0 bills the actual weight only. */
    dimDivisor: z.number().int().min(0).max(100_000),
    transitDaysMin: z.number().int().min(0).max(60),
    transitDaysMax: z.number().int().min(0).max(60),
    maxWeight: measure(10_000),
    maxLength: measure(1_000),
    maxLengthGirth: measure(2_000),
    enabled: z.boolean().default(true),
    organisationIds,
    surcharges: surchargeTermsBody.prefault({}),
    /**
     * The tenant's carrier account that rates the channel (its prices then come from the carrier, the
     * tables are not used), with the carrier's service code; null for the tenant's own tables.
     */
    carrierAccountId: idField().nullable().default(null),
    carrierService: str().trim().max(60).default(''),
    /** What the carrier is asked to draw its labels as (a PDF page or ZPL); only for a carrier's channel. */
    carrierLabelFormat: z.enum(LABEL_FORMATS).default('pdf'),
  })
  .superRefine((v, ctx) => {
    if (v.carrierAccountId !== null && !v.carrierService)
      ctx.addIssue({ code: 'custom', path: ['carrierService'], message: 'validation.required' });
    if (v.transitDaysMax < v.transitDaysMin)
      ctx.addIssue({ code: 'custom', path: ['transitDaysMax'], message: 'express.transitOrder' });
    if (v.maxLengthGirth < v.maxLength)
      ctx.addIssue({ code: 'custom', path: ['maxLengthGirth'], message: 'express.girthUnderLength' });
  });
export type ExpressChannelSaveBody = z.infer<typeof expressChannelSaveBody>;

/** A channel, or a product, switched on or off. */
export const expressEnableBody = z.object({ id: idField(), enabled: z.boolean() });
export const expressIdBody = z.object({ id: idField() });
export const expressChannelQuery = z.object({ channelId: idField() });

/* ---------- zone charts ---------- */

const zip3Field = str()
  .trim()
  .regex(/^\d{3}$/, { error: 'express.zip3' });
/** A destination is a ZIP3, or a ZIP5 for an exception over the ZIP3 rows (an island, rural Alaska). */
const destinationZipField = str()
  .trim()
  .regex(/^(\d{3}|\d{5})$/, { error: 'express.zip3or5' });

/** One zone chart row: origin ZIP3 range to a destination ZIP3 range (domestic) or a country. */
export const zoneRowBody = z
  .object({
    originFrom: zip3Field,
    originTo: zip3Field,
    destFrom: destinationZipField.or(z.literal('')).default(''),
    destTo: destinationZipField.or(z.literal('')).default(''),
    country: str()
      .trim()
      .toUpperCase()
      .regex(/^([A-Z]{2})?$/, { error: 'express.country' })
      .default(''),
    zone: str()
      .trim()
      .min(1)
      .max(10)
      .regex(/^[A-Za-z0-9_-]+$/, { error: 'express.zoneName' }),
  })
  .superRefine((v, ctx) => {
    if (v.originTo < v.originFrom)
      ctx.addIssue({ code: 'custom', path: ['originTo'], message: 'express.rangeOrder' });
    const domestic = v.destFrom !== '' || v.destTo !== '';
    if (domestic === (v.country !== ''))
      ctx.addIssue({ code: 'custom', path: ['country'], message: 'express.zoneDestination' });
    if (domestic && (v.destFrom === '' || (v.destTo !== '' && v.destTo < v.destFrom)))
      ctx.addIssue({ code: 'custom', path: ['destTo'], message: 'express.rangeOrder' });
    const zip = /^(\d{3}|\d{5})$/;
    if (zip.test(v.destFrom) && zip.test(v.destTo) && v.destTo.length !== v.destFrom.length)
      ctx.addIssue({ code: 'custom', path: ['destTo'], message: 'express.zipLengths' });
  });
export type ZoneRowBody = z.infer<typeof zoneRowBody>;

export const zoneListQuery = pageQuery.extend({
  channelId: idField(),
  keyword: str().trim().max(20).optional(),
});

/* ---------- price tables ---------- */

/** The price table of a channel as the API carries it: money as decimal strings, empty for none. */
export const priceTableBody = z
  .object({
    channelId: idField(),
    zones: z.array(str().trim().min(1).max(10)).min(1).max(50),
    brackets: z
      .array(z.object({ weight: measure(10_000), prices: z.array(moneyField.or(z.literal(''))) }))
      .min(1)
      .max(500),
    additional: z
      .object({ unit: measure(100), prices: z.array(moneyField.or(z.literal(''))) })
      .nullable()
      .default(null),
    minimums: z.array(moneyField.or(z.literal(''))).default([]),
    /** Cubic tiers (cubic feet, or cubic decimetres on a metric channel), each with its prices by zone. */
    cubic: z
      .array(
        z.object({ tier: z.number().positive().max(100), prices: z.array(moneyField.or(z.literal(''))) }),
      )
      .max(50)
      .default([]),
    /**
     * The first ship date the table prices: a later date keeps it beside the table in force until
     * then (a carrier's new card, loaded ahead); none, or a date not after today, makes it the table.
     */
    effectiveFrom: dateField.optional(),
  })
  .superRefine((v, ctx) => {
    v.cubic.forEach((c, i) => {
      if (c.prices.length !== v.zones.length)
        ctx.addIssue({ code: 'custom', path: ['cubic', i, 'prices'], message: 'express.pricePerZone' });
      const before = v.cubic[i - 1];
      if (before && c.tier <= before.tier)
        ctx.addIssue({ code: 'custom', path: ['cubic', i, 'tier'], message: 'express.bracketOrder' });
    });
    if (new Set(v.zones).size !== v.zones.length)
      ctx.addIssue({ code: 'custom', path: ['zones'], message: 'express.zoneTwice' });
    v.brackets.forEach((b, i) => {
      if (b.prices.length !== v.zones.length)
        ctx.addIssue({ code: 'custom', path: ['brackets', i, 'prices'], message: 'express.pricePerZone' });
      const before = v.brackets[i - 1];
      if (before && b.weight <= before.weight)
        ctx.addIssue({ code: 'custom', path: ['brackets', i, 'weight'], message: 'express.bracketOrder' });
    });
    if (v.additional && v.additional.prices.length !== v.zones.length)
      ctx.addIssue({ code: 'custom', path: ['additional', 'prices'], message: 'express.pricePerZone' });
    if (v.minimums.length > 0 && v.minimums.length !== v.zones.length)
      ctx.addIssue({ code: 'custom', path: ['minimums'], message: 'express.pricePerZone' });
  });
export type PriceTableBody = z.infer<typeof priceTableBody>;

/** A table loaded ahead of its date, removed before it takes effect. */
export const scheduledPricesDeleteBody = expressChannelQuery.extend({ effectiveFrom: dateField });

/* ---------- rating rules ---------- */

const zip5Value = str()
  .trim()
  .regex(/^\d{5}$/, { error: 'validation.zip' });
const NUMERIC_TRIGGERS = new Set(['weight', 'longest', 'second', 'length_girth', 'volume']);

/** A surcharge as a carrier's service guide states it (`SurchargeRule` in express-rating). */
export const surchargeRuleBody = z
  .object({
    name: nameField(60),
    trigger: z.enum(SURCHARGE_TRIGGERS),
    /** The limit a numeric trigger must exceed, in the channel's units (cubic units for volume). */
    over: z.number().min(0).max(10_000_000).default(0),
    /** Packaging kinds for a packaging rule, five-digit ZIPs for a ZIP rule. */
    values: z.array(str().trim().min(1).max(20)).max(50_000).default([]),
    fee: moneyField.default('0'),
    feeByZone: z
      .array(
        z.object({
          zone: str()
            .trim()
            .min(1)
            .max(10)
            .regex(/^[A-Za-z0-9_-]+$/, { error: 'express.zoneName' }),
          fee: moneyField,
        }),
      )
      .max(50)
      .default([]),
    fuel: z.boolean().default(true),
    group: str().trim().max(40).default(''),
    replaces: z.array(str().trim().min(1).max(40)).max(20).default([]),
    minBillable: z.number().min(0).max(10_000).default(0),
  })
  .superRefine((v, ctx) => {
    if (NUMERIC_TRIGGERS.has(v.trigger) && v.over <= 0)
      ctx.addIssue({ code: 'custom', path: ['over'], message: 'validation.required' });
    if ((v.trigger === 'packaging' || v.trigger === 'zip5') && v.values.length === 0)
      ctx.addIssue({ code: 'custom', path: ['values'], message: 'validation.required' });
    v.values.forEach((value, i) => {
      const fits =
        v.trigger === 'packaging'
          ? (PACKAGINGS as readonly string[]).includes(value)
          : v.trigger !== 'zip5' || zip5Value.safeParse(value).success;
      if (!fits)
        ctx.addIssue({
          code: 'custom',
          path: ['values', i],
          message: v.trigger === 'zip5' ? 'validation.zip' : 'express.packaging',
        });
    });
    if (new Set(v.feeByZone.map((f) => f.zone)).size !== v.feeByZone.length)
      ctx.addIssue({ code: 'custom', path: ['feeByZone'], message: 'express.zoneTwice' });
  });
export type SurchargeRuleBody = z.infer<typeof surchargeRuleBody>;

/** The rules of a carrier's service guide beyond the tables (`RatingRules` in express-rating). */
export const ratingRulesBody = z
  .object({
    channelId: idField(),
    dimRounding: z.enum(DIM_ROUNDINGS).default('none'),
    /** Cubic units above which dimensional weight counts; 0 for every parcel. */
    dimThreshold: z.number().min(0).max(10_000_000).default(0),
    /** Under one weight unit, round up to this step (0: as weighed); null: whole units. */
    underOneUnit: z
      .object({ step: z.number().min(0).max(1) })
      .nullable()
      .default(null),
    beyondLastWeight: z.enum(BEYOND_LAST_WEIGHT).default('additional'),
    cubic: z
      .object({
        roundDown: z.number().min(0).max(10),
        maxWeight: measure(10_000),
        maxLongest: z.number().min(0).max(1_000).default(0),
      })
      .nullable()
      .default(null),
    surchargeRules: z.array(surchargeRuleBody).max(200).default([]),
    /** Fuel from each date on, as a percentage. */
    fuel: z
      .array(z.object({ from: dateField, percent: percentField }))
      .max(2_000)
      .default([]),
  })
  .superRefine((v, ctx) => {
    const dates = v.fuel.map((f) => f.from);
    dates.forEach((date, i) => {
      if (dates.indexOf(date) !== i)
        ctx.addIssue({ code: 'custom', path: ['fuel', i, 'from'], message: 'express.dateTwice' });
    });
  });
export type RatingRulesBody = z.infer<typeof ratingRulesBody>;

/** A delivery-area list of a channel: a name, a fee per parcel and its five-digit ZIP codes. */
export const deliveryAreaBody = z.object({
  name: nameField(40),
  fee: moneyField,
  zips: z
    .array(
      str()
        .trim()
        .regex(/^\d{5}$/, { error: 'validation.zip' }),
    )
    .min(1)
    .max(50_000),
});

/** Adds a delivery-area list to a channel, or replaces the list of the same name. */
export const deliveryAreaSaveBody = expressChannelQuery.extend(deliveryAreaBody.shape);
/** Removes a channel's delivery-area list by its name. */
export const deliveryAreaDeleteBody = expressChannelQuery.extend({ name: nameField(40) });

/* ---------- responses ---------- */

const percentString = z.string().regex(/^\d{1,3}\.\d{2}$/);

export const expressProductView = z.object({
  id: z.number().int(),
  code: z.string(),
  name: z.string(),
  nameEn: z.string(),
  description: z.string(),
  descriptionEn: z.string(),
  enabled: z.boolean(),
  organisationIds: z.array(z.number().int()),
  /** How many channels it has, and how many of them are enabled. */
  channels: z.number().int(),
  enabledChannels: z.number().int(),
  createdAt: timestamp,
  updatedAt: timestamp,
});
export const expressProductListView = pageOf(expressProductView);

export const surchargeTermsView = z.object({
  fuelPercent: percentString,
  residential: moneyString,
  signature: moneyString,
  additionalHandling: z
    .object({ fee: moneyString, longest: z.number(), secondLongest: z.number(), weight: z.number() })
    .nullable(),
  largePackage: z
    .object({ fee: moneyString, longest: z.number(), lengthGirth: z.number(), minBillable: z.number() })
    .nullable(),
  declaredValue: z.object({ free: moneyString, per100: moneyString, minimum: moneyString }).nullable(),
  /** The delivery-area lists, without their ZIP codes (the price export carries those). */
  deliveryAreas: z.array(z.object({ name: z.string(), fee: moneyString, zips: z.number().int() })),
});

export const expressChannelView = z.object({
  id: z.number().int(),
  productId: z.number().int(),
  productName: z.string(),
  productNameEn: z.string(),
  code: z.string(),
  name: z.string(),
  nameEn: z.string(),
  carrier: z.string(),
  service: z.string(),
  /** The carrier provider that rates and books it; `builtin` prices from the tenant's own tables. */
  provider: z.string(),
  carrierAccountId: z.number().int().nullable(),
  carrierService: z.string(),
  carrierLabelFormat: z.enum(LABEL_FORMATS),
  scope: z.enum(EXPRESS_SCOPES),
  unitSystem: z.enum(UNIT_SYSTEMS),
  currency: z.enum(EXPRESS_CURRENCIES),
  dimDivisor: z.number().int(),
  transitDaysMin: z.number().int(),
  transitDaysMax: z.number().int(),
  maxWeight: z.number(),
  maxLength: z.number(),
  maxLengthGirth: z.number(),
  enabled: z.boolean(),
  organisationIds: z.array(z.number().int()),
  surcharges: surchargeTermsView,
  /** Rows of its zone chart and zones of its price table: 0 until each is imported. */
  zoneRows: z.number().int(),
  priceZones: z.number().int(),
  createdAt: timestamp,
  updatedAt: timestamp,
});
export const expressChannelListView = pageOf(expressChannelView);

export const zoneRowView = z.object({
  id: z.number().int(),
  originFrom: z.string(),
  originTo: z.string(),
  destFrom: z.string(),
  destTo: z.string(),
  country: z.string(),
  zone: z.string(),
});
export const zoneListView = pageOf(zoneRowView);

export const priceTableView = z.object({
  channelId: z.number().int(),
  zones: z.array(z.string()),
  brackets: z.array(z.object({ weight: z.number(), prices: z.array(moneyString.nullable()) })),
  additional: z.object({ unit: z.number(), prices: z.array(moneyString.nullable()) }).nullable(),
  minimums: z.array(moneyString.nullable()),
  cubic: z.array(z.object({ tier: z.number(), prices: z.array(moneyString.nullable()) })),
  /** Zones of the chart that the table has no column for: quotes to them are refused. */
  unpricedZones: z.array(z.string()),
  updatedAt: timestamp.nullable(),
  /** Tables loaded ahead of their dates, soonest first. */
  scheduled: z.array(
    z.object({ effectiveFrom: z.string(), brackets: z.number().int(), zones: z.array(z.string()) }),
  ),
});

export const surchargeRuleView = z.object({
  name: z.string(),
  trigger: z.enum(SURCHARGE_TRIGGERS),
  over: z.number(),
  values: z.array(z.string()),
  fee: moneyString,
  feeByZone: z.array(z.object({ zone: z.string(), fee: moneyString })),
  fuel: z.boolean(),
  group: z.string(),
  replaces: z.array(z.string()),
  minBillable: z.number(),
});

export const ratingRulesView = z.object({
  channelId: z.number().int(),
  dimRounding: z.enum(DIM_ROUNDINGS),
  dimThreshold: z.number(),
  underOneUnit: z.object({ step: z.number() }).nullable(),
  beyondLastWeight: z.enum(BEYOND_LAST_WEIGHT),
  cubic: z.object({ roundDown: z.number(), maxWeight: z.number(), maxLongest: z.number() }).nullable(),
  surchargeRules: z.array(surchargeRuleView),
  fuel: z.array(z.object({ from: z.string(), percent: percentString })),
  /** The fuel percentage in force today, as quotes use it. */
  fuelToday: percentString,
});

/**
 * A parcel priced on a channel's own tables and rules for staff to check against a carrier's invoice:
 * `channelPrice/sample`. One piece, from ZIP to ZIP (or a country), on a ship date.
 */
export const samplePriceBody = z.object({
  channelId: idField(),
  originZip: str()
    .trim()
    .regex(/^\d{5}(-\d{4})?$/, { error: 'validation.zip' }),
  destinationCountry: str()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{2}$/, { error: 'express.country' })
    .default('US'),
  destinationZip: str().trim().toUpperCase().min(1).max(12),
  unitSystem: z.enum(UNIT_SYSTEMS).default('lb_in'),
  parcel: parcelBody.omit({ quantity: true, description: true }),
  residential: z.boolean().default(false),
  signature: z.boolean().default(false),
  shipDate: dateField.or(z.literal('')).default(''),
});
export type SamplePriceBody = z.infer<typeof samplePriceBody>;

/**
 * The sample's price at cost, with what each step of it read: the channel's divisor and rules, the
 * volume of the sides as measured, and the breakdown a staff quote shows; or why the channel refuses it.
 */
export const samplePriceView = z.discriminatedUnion('ok', [
  z.object({
    ok: z.literal(true),
    unitSystem: z.enum(UNIT_SYSTEMS),
    dimDivisor: z.number(),
    dimThreshold: z.number(),
    dimRounding: z.enum(DIM_ROUNDINGS),
    /** Cubic units of the sides as measured. */
    volume: z.number(),
    breakdown: expressBreakdownView,
    freight: moneyString,
    surcharges: z.array(z.object({ code: z.string(), name: z.string().optional(), fee: moneyString })),
    fuel: moneyString,
    total: moneyString,
  }),
  z.object({ ok: z.literal(false), reason: z.enum(EXPRESS_REFUSALS) }),
]);

export const importedRowsView = z.object({ imported: z.number().int() });
/** A channel workbook imported: every row, of which these were new channels and these existing ones. */
export const channelImportView = z.object({
  imported: z.number().int(),
  created: z.number().int(),
  updated: z.number().int(),
});

/* ---------- stored shapes (what the server keeps; the rating engine reads them as they are) ---------- */

/** Surcharges as stored: cents and basis points, the shape `rateExpress` takes. */
export type StoredSurcharges = SurchargeTerms;
export type StoredPriceTable = PriceTable;
export type StoredZoneRow = ZoneRow;
