import { z } from 'zod';
import { pageQuery } from './api.ts';
import { applyMarkup, type Markup } from './customers.ts';
import type { OrganisationType } from './identity.ts';
import { defineStateMachine } from './state-machine.ts';
import type { Accessorial, RatingBreakdown, RatingRefusal } from './truck-rating.ts';
import type { ManualReason } from './truck-shipment.ts';
import { moneyField, str } from './validation.ts';

/** One level's price of a quote: the operator's cost first, the booking customer's price last. */
export interface PriceLevel {
  /** Null for the operator itself. */
  organisationId: number | null;
  type: OrganisationType | 'platform';
  linehaul: number;
  fuel: number;
  accessorials: { code: Accessorial; fee: number }[];
  insurance: number;
  total: number;
}

export interface QuoteProduct {
  productId: number;
  code: string;
  name: string;
  nameEn: string;
  carrier: string;
  serviceLevel: string;
  mode: 'LTL' | 'FTL';
  transitDaysMin: number;
  transitDaysMax: number;
  /** The carrier provider that priced it and books it; quotes stored before providers had none: `builtin`. */
  provider?: string;
}

/** `no_carrier`: the product names a carrier provider this release does not have. */
export type QuoteRefusal = RatingRefusal | 'no_lane' | 'no_carrier' | ManualReason;

export type QuoteResult = QuoteProduct &
  (
    | {
        ok: true;
        breakdown: RatingBreakdown;
        levels: PriceLevel[];
        cheapest: boolean;
        fastest: boolean;
      }
    | { ok: false; reason: QuoteRefusal }
  );

/**
 * Every level's price from the operator's cost and the markups down the tree. Each level marks up
 * the linehaul, the fuel and each accessorial by its percentage and adds its fixed amount to the
 * linehaul; the insurance premium passes through at cost, since the insurer sets it.
 */
export function priceLevels(
  breakdown: Pick<RatingBreakdown, 'linehaul' | 'fuel' | 'accessorials' | 'insurance'>,
  chain: readonly { organisationId: number; type: OrganisationType; markup: Markup }[],
): PriceLevel[] {
  const insurance = breakdown.insurance?.premium ?? 0;
  const level = (
    organisationId: number | null,
    type: PriceLevel['type'],
    linehaul: number,
    fuel: number,
    accessorials: PriceLevel['accessorials'],
  ): PriceLevel => ({
    organisationId,
    type,
    linehaul,
    fuel,
    accessorials,
    insurance,
    total: linehaul + fuel + accessorials.reduce((s, a) => s + a.fee, 0) + insurance,
  });
  const levels = [level(null, 'platform', breakdown.linehaul, breakdown.fuel, breakdown.accessorials)];
  for (const { organisationId, type, markup } of chain) {
    const above = levels[levels.length - 1] as PriceLevel;
    const percent = { percentBp: markup.percentBp, fixedCents: 0n };
    const up = (cents: number, m: Markup) => Number(applyMarkup(BigInt(cents), m));
    levels.push(
      level(
        organisationId,
        type,
        up(above.linehaul, markup),
        up(above.fuel, percent),
        above.accessorials.map((a) => ({ code: a.code, fee: up(a.fee, percent) })),
      ),
    );
  }
  return levels;
}

/**
 * The levels a caller may see: staff see all; an organisation sees its own price and the prices of
 * the levels below it (its margin over them), never what the levels above it pay.
 */
export function visibleLevels(
  levels: readonly PriceLevel[],
  callerOrganisationId: number | null,
): PriceLevel[] {
  if (callerOrganisationId === null) return [...levels];
  const own = levels.findIndex((l) => l.organisationId === callerOrganisationId);
  return own < 0 ? [] : levels.slice(own);
}

/** Marks the cheapest and the fastest of the priced results. */
export function markBest(results: QuoteResult[]): QuoteResult[] {
  const priced = results.filter((r): r is Extract<QuoteResult, { ok: true }> => r.ok);
  if (priced.length === 0) return results;
  const total = (r: (typeof priced)[number]) => (r.levels[r.levels.length - 1] as PriceLevel).total;
  const cheapest = Math.min(...priced.map(total));
  const fastest = Math.min(...priced.map((r) => r.transitDaysMax));
  return results.map((r) =>
    r.ok ? { ...r, cheapest: total(r) === cheapest, fastest: r.transitDaysMax === fastest } : r,
  );
}

/* ---------- manual quotation tasks ---------- */

export const TASK_STATUSES = [
  'pending',
  'priced',
  'accepted',
  'declined',
  'refused',
  'cancelled',
  'booked',
] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];
export const TASK_ACTIONS = ['price', 'refuse', 'accept', 'decline', 'cancel', 'book'] as const;
export type TaskAction = (typeof TASK_ACTIONS)[number];

/** Who moves a manual quotation task: staff price or refuse it; the customer accepts, declines or books. */
export const taskMachine = defineStateMachine<TaskStatus, TaskAction, 'staff' | 'owner'>([
  { from: 'pending', action: 'price', to: 'priced', who: ['staff'] },
  { from: 'pending', action: 'refuse', to: 'refused', who: ['staff'] },
  { from: 'pending', action: 'cancel', to: 'cancelled', who: ['owner', 'staff'] },
  { from: 'priced', action: 'price', to: 'priced', who: ['staff'] },
  { from: 'priced', action: 'accept', to: 'accepted', who: ['owner'] },
  { from: 'priced', action: 'decline', to: 'declined', who: ['owner'] },
  { from: 'accepted', action: 'book', to: 'booked', who: ['owner'] },
]);

const taskId = z.number().int().positive();

export const taskRequestBody = z.object({
  quoteId: taskId,
  note: str().trim().max(500).default(''),
});

/** `quotation/saveQuotation`: staff price a manual quotation task at the operator's cost. */
export const saveQuotationBody = z.object({
  id: taskId,
  carrier: str().trim().min(1).max(100),
  linehaul: moneyField,
  fuel: moneyField.default('0'),
  accessorials: moneyField.default('0'),
  insurance: moneyField.default('0'),
  transitDaysMin: z.number().int().min(0).max(60),
  transitDaysMax: z.number().int().min(0).max(60),
  validDays: z.number().int().min(1).max(60).default(7),
  note: str().trim().max(500).default(''),
});

export const taskActionBody = z.object({
  id: taskId,
  action: z.enum(['refuse', 'accept', 'decline', 'cancel']),
  note: str().trim().max(500).default(''),
});

export const taskListQuery = pageQuery.extend({
  keyword: str().trim().max(100).optional(),
  status: z.enum(TASK_STATUSES).optional(),
});
