import { z } from 'zod';
import { BUSINESS_LINES } from './accounts.ts';
import { dayField } from './fields.ts';
import { dayString, moneyString } from './responses.ts';

/**
 * Data reports (`/financialStatements`): revenue (what customers paid), cost and margin, read from
 * daily aggregates kept as money moves, in the caller's scope. Staff see the operator's cost; a
 * branch or an agent sees its own buying price as its cost, never the operator's.
 */

/** How the chart buckets time: UTC days, ISO weeks (from Monday), calendar months. */
export const REPORT_PERIODS = ['day', 'week', 'month'] as const;
export type ReportPeriod = (typeof REPORT_PERIODS)[number];

/** What the table's rows are: a level of the organisation tree, the product (channel), or the booking customer. */
export const REPORT_DIMENSIONS = ['branch', 'agent', 'customer', 'product'] as const;
export type ReportDimension = (typeof REPORT_DIMENSIONS)[number];

/** Whose cost a report shows: the operator's (staff), or the branch's or agent's buying price. */
export const COST_BASES = ['operator', 'branch', 'agent'] as const;
export type CostBasis = (typeof COST_BASES)[number];

/** The longest range one report covers: 3 years of days, plenty for month buckets. */
export const REPORT_MAX_DAYS = 1_100;

const dayNumber = (day: string) => Date.parse(`${day}T00:00:00Z`) / 86_400_000;

export const reportQuery = z
  .object({
    from: dayField(),
    to: dayField(),
    /** One line, or both when absent. */
    line: z.enum(BUSINESS_LINES).optional(),
    period: z.enum(REPORT_PERIODS).default('day'),
    dimension: z.enum(REPORT_DIMENSIONS).default('customer'),
  })
  .refine((q) => dayNumber(q.to) >= dayNumber(q.from), { path: ['to'], error: 'report.rangeOrder' })
  .refine((q) => dayNumber(q.to) - dayNumber(q.from) < REPORT_MAX_DAYS, {
    path: ['to'],
    error: 'report.rangeTooLong',
  });
export type ReportQuery = z.infer<typeof reportQuery>;

/** The figures of one bucket or row: orders net of refunds, money in decimal strings. */
export const reportFigures = z.object({
  orders: z.number().int(),
  revenue: moneyString,
  cost: moneyString,
  margin: moneyString,
});

export const reportSeriesPoint = reportFigures.extend({
  /** The first day of the bucket. */
  period: dayString,
});

export const reportRow = reportFigures.extend({
  /** The organisation's or product's id; null for "none" (a direct customer has no branch, say). */
  id: z.number().int().nullable(),
  /** Its name, or empty when `id` is null (the web words it). */
  name: z.string(),
  line: z.enum(BUSINESS_LINES).nullable(),
});

export const reportView = z.object({
  costBasis: z.enum(COST_BASES),
  series: z.array(reportSeriesPoint),
  rows: z.array(reportRow),
  totals: reportFigures,
});
