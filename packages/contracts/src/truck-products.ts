import { z } from 'zod';
import { pageQuery } from './api.ts';
import { moneyString, pageOf, timestamp } from './responses.ts';
import { ACCESSORIALS, FREIGHT_CLASSES } from './truck-rating.ts';
import { moneyField, str } from './validation.ts';

export const TRUCK_MODES = ['LTL', 'FTL'] as const;

/** The service levels a product's tag offers, each in both languages (the stored value is the key). */
export const TRUCK_SERVICE_LEVELS = {
  standard: { 'zh-CN': '标准', 'en-US': 'Standard' },
  economy: { 'zh-CN': '经济', 'en-US': 'Economy' },
  expedited: { 'zh-CN': '加急', 'en-US': 'Expedited' },
  guaranteed: { 'zh-CN': '限时达', 'en-US': 'Guaranteed' },
} as const;

/** A product's service level in the reader's words; a level typed before these existed shows as typed. */
export function serviceLevelLabel(level: string, language: 'zh-CN' | 'en-US'): string {
  return Object.hasOwn(TRUCK_SERVICE_LEVELS, level)
    ? TRUCK_SERVICE_LEVELS[level as keyof typeof TRUCK_SERVICE_LEVELS][language]
    : level;
}

export const productListQuery = pageQuery.extend({
  keyword: str().trim().max(100).optional(),
  mode: z.enum(TRUCK_MODES).optional(),
  enabled: z.boolean().optional(),
});

export const productSaveBody = z
  .object({
    id: z.number().int().positive().optional(),
    code: str()
      .trim()
      .min(1)
      .max(40)
      .regex(/^[A-Za-z0-9_-]+$/, { error: 'validation.englishOnly' }),
    name: str().trim().min(1).max(100),
    nameEn: str().trim().min(1).max(100),
    carrier: str().trim().min(1).max(100),
    // One of TRUCK_SERVICE_LEVELS, shown in the reader's words; other text is kept and shown as typed.
    serviceLevel: str().trim().max(60).default('standard'),
    mode: z.enum(TRUCK_MODES),
    transitDaysMin: z.number().int().min(0).max(60),
    transitDaysMax: z.number().int().min(0).max(60),
    enabled: z.boolean().default(true),
    /** Empty: every customer may use it; otherwise only these organisations and those under them. */
    organisationIds: z.array(z.number().int().positive()).max(500).default([]),
  })
  .superRefine((v, ctx) => {
    if (v.transitDaysMax < v.transitDaysMin)
      ctx.addIssue({ code: 'custom', path: ['transitDaysMax'], message: 'truck.transitOrder' });
  });

const dimension = z.number().positive().max(1_000);

/** One goods line as the quote form's class helper sends it (inches and pounds). */
export const classLine = z.object({
  quantity: z.number().int().positive().max(1_000),
  length: dimension,
  width: dimension,
  height: dimension,
  totalWeight: z.number().positive().max(100_000),
  freightClass: z.enum(FREIGHT_CLASSES).optional(),
});

export const getClassBody = z.object({ lines: z.array(classLine).min(1).max(50) });

export const insuredAmountBody = z.object({
  productId: z.number().int().positive(),
  insuredValue: moneyField,
});

export const accessorialField = z.enum(ACCESSORIALS);

export const percentField = str().regex(/^\d{1,3}(\.\d{1,2})?$/, { error: 'validation.percent' });
const laneEndField = str()
  .trim()
  .toUpperCase()
  .regex(/^(\*|[A-Z]{2}|\d{3}(\s*-\s*\d{3})?)$/, { error: 'truck.laneEnd' });

/** The LTL terms of a lane as the API carries them: dollars per hundredweight, percentages. */
export const ltlTermsBody = z
  .object({
    /** Pounds at which each weight break starts, ascending, the first 0. */
    breaks: z.array(z.number().int().min(0).max(100_000)).min(1).max(12),
    rates: z.partialRecord(z.enum(FREIGHT_CLASSES), z.array(moneyField).max(12)),
    minimumCharge: moneyField,
    discountPercent: percentField.default('0'),
    fuelPercent: percentField.default('0'),
  })
  .superRefine((v, ctx) => {
    if (v.breaks[0] !== 0) ctx.addIssue({ code: 'custom', path: ['breaks'], message: 'truck.breaksStart' });
    if (v.breaks.some((b, i) => i > 0 && b <= (v.breaks[i - 1] as number)))
      ctx.addIssue({ code: 'custom', path: ['breaks'], message: 'truck.breaksOrder' });
    for (const [cls, rates] of Object.entries(v.rates))
      if (rates && rates.length !== v.breaks.length)
        ctx.addIssue({ code: 'custom', path: ['rates', cls], message: 'truck.ratesPerBreak' });
    if (Object.keys(v.rates).length === 0)
      ctx.addIssue({ code: 'custom', path: ['rates'], message: 'validation.required' });
  });

export const ftlTermsBody = z
  .object({
    flatRate: moneyField.optional(),
    ratePerMile: moneyField.optional(),
    miles: z.number().int().positive().max(10_000).optional(),
    minimumCharge: moneyField.default('0'),
    fuelPercent: percentField.default('0'),
    maxWeight: z.number().int().positive().max(200_000).default(45_000),
  })
  .superRefine((v, ctx) => {
    if (v.flatRate === undefined && v.ratePerMile === undefined)
      ctx.addIssue({ code: 'custom', path: ['flatRate'], message: 'truck.ftlRateNeeded' });
  });

export const laneSaveBody = z
  .object({
    id: z.number().int().positive().optional(),
    productId: z.number().int().positive(),
    origin: laneEndField,
    destination: laneEndField,
    ltl: ltlTermsBody.nullable().default(null),
    ftl: ftlTermsBody.nullable().default(null),
  })
  .superRefine((v, ctx) => {
    if (!v.ltl && !v.ftl) ctx.addIssue({ code: 'custom', path: ['ltl'], message: 'truck.laneTermsNeeded' });
  });
export type LaneSaveBody = z.infer<typeof laneSaveBody>;

export const laneListQuery = pageQuery.extend({
  productId: z.number().int().positive(),
  keyword: str().trim().max(20).optional(),
});

export const productTermsBody = z.object({
  id: z.number().int().positive(),
  accessorialFees: z.partialRecord(accessorialField, moneyField),
  insuranceRatePercent: percentField,
  minimumPremium: moneyField,
  deductible: moneyField,
});

/* ----- responses ----- */

/** Percent with two places on the wire, "12.50". */
const percentString = z.string().regex(/^\d{1,3}\.\d{2}$/);

/** A truck product as the API shows it: fees and insurance terms in money and percent strings. */
export const productView = z.object({
  id: z.number().int(),
  code: z.string(),
  name: z.string(),
  nameEn: z.string(),
  carrier: z.string(),
  /** The carrier provider that rates and books it; `builtin` prices from the tenant's lanes. */
  provider: z.string(),
  serviceLevel: z.string(),
  mode: z.enum(TRUCK_MODES),
  transitDaysMin: z.number().int(),
  transitDaysMax: z.number().int(),
  enabled: z.boolean(),
  organisationIds: z.array(z.number().int()),
  createdAt: timestamp,
  updatedAt: timestamp,
  accessorialFees: z.partialRecord(z.enum(ACCESSORIALS), moneyString),
  insuranceRatePercent: percentString,
  minimumPremium: moneyString,
  deductible: moneyString,
});
export const productListView = pageOf(productView);

export const classSuggestionsView = z.object({
  lines: z.array(
    z.object({
      cubicFeet: z.number(),
      density: z.number(),
      suggestedClass: z.enum(FREIGHT_CLASSES),
      freightClass: z.enum(FREIGHT_CLASSES),
    }),
  ),
});

export const insuredAmountView = z.object({
  insuredValue: moneyString,
  premium: moneyString,
  deductible: moneyString,
});

/** A lane of a product's tariff as the API carries it. */
export const laneView = z.object({
  id: z.number().int(),
  productId: z.number().int(),
  origin: z.string(),
  destination: z.string(),
  ltl: z
    .object({
      breaks: z.array(z.number().int()),
      rates: z.partialRecord(z.enum(FREIGHT_CLASSES), z.array(moneyString)),
      minimumCharge: moneyString,
      discountPercent: percentString,
      fuelPercent: percentString,
    })
    .nullable(),
  ftl: z
    .object({
      flatRate: moneyString.optional(),
      ratePerMile: moneyString.optional(),
      miles: z.number().int().optional(),
      minimumCharge: moneyString,
      fuelPercent: percentString,
      maxWeight: z.number().int(),
    })
    .nullable(),
  updatedAt: timestamp,
});
export const laneListView = pageOf(laneView);
export const lanesRemovedView = z.object({ removed: z.number().int() });
export const lanesImportedView = z.object({ imported: z.number().int() });
