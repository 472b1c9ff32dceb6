import { z } from 'zod';
import { pageQuery } from './api.ts';
import { ACCESSORIALS, FREIGHT_CLASSES } from './truck-rating.ts';
import { moneyField } from './validation.ts';

export const TRUCK_MODES = ['LTL', 'FTL'] as const;

export const productListQuery = pageQuery.extend({
  keyword: z.string().trim().max(100).optional(),
  mode: z.enum(TRUCK_MODES).optional(),
  enabled: z.boolean().optional(),
});

export const productSaveBody = z
  .object({
    id: z.number().int().positive().optional(),
    code: z
      .string()
      .trim()
      .min(1)
      .max(40)
      .regex(/^[A-Za-z0-9_-]+$/, { error: 'validation.englishOnly' }),
    name: z.string().trim().min(1).max(100),
    nameEn: z.string().trim().min(1).max(100),
    carrier: z.string().trim().min(1).max(100),
    serviceLevel: z.string().trim().max(60).default('standard'),
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
