import { z } from 'zod';
import { pageQuery } from './api.ts';
import { applyMarkup, type Markup } from './customers.ts';
import type { OrganisationType } from './identity.ts';
import { ORGANISATION_TYPES } from './identity.ts';
import { formatCents } from './money.ts';
import { moneyString, pageOf, timestamp } from './responses.ts';
import { defineStateMachine } from './state-machine.ts';
import type { Accessorial, RatingBreakdown, RatingRefusal } from './truck-rating.ts';
import { ACCESSORIALS, FREIGHT_CLASSES } from './truck-rating.ts';
import type { ManualReason } from './truck-shipment.ts';
import { ADDRESS_TYPES, PALLET_TYPES, QUOTE_STATUSES, shipmentView } from './truck-shipment.ts';
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
  const levels = [
    priceLevel(null, 'platform', breakdown.linehaul, breakdown.fuel, breakdown.accessorials, insurance),
  ];
  for (const { organisationId, type, markup } of chain) {
    const above = levels[levels.length - 1] as PriceLevel;
    const percent = { percentBp: markup.percentBp, fixedCents: 0n };
    levels.push(
      priceLevel(
        organisationId,
        type,
        markedUp(above.linehaul, markup),
        markedUp(above.fuel, percent),
        above.accessorials.map((a) => ({ code: a.code, fee: markedUp(a.fee, percent) })),
        insurance,
      ),
    );
  }
  return levels;
}

// At module level rather than inside `priceLevels`: the server runs through a transpiler that names
// every inner function as it is made, a cost paid on every product of every quote.
const markedUp = (cents: number, markup: Markup) => Number(applyMarkup(BigInt(cents), markup));

function priceLevel(
  organisationId: number | null,
  type: PriceLevel['type'],
  linehaul: number,
  fuel: number,
  accessorials: PriceLevel['accessorials'],
  insurance: number,
): PriceLevel {
  let total = linehaul + fuel + insurance;
  for (const a of accessorials) total += a.fee;
  return { organisationId, type, linehaul, fuel, accessorials, insurance, total };
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
  // Assigned onto a copy rather than spread: V8 builds an object from a spread and further fields
  // slowly, and quotes run this (and the conversions below) for every product.
  return results.map((r) =>
    r.ok
      ? Object.assign({}, r, { cheapest: total(r) === cheapest, fastest: r.transitDaysMax === fastest })
      : r,
  );
}

/* ---------- quotes on the wire: money as decimal strings (ARCHITECTURE section 3) ---------- */

const quoteProductView = z.object({
  productId: z.number().int(),
  code: z.string(),
  name: z.string(),
  nameEn: z.string(),
  carrier: z.string(),
  serviceLevel: z.string(),
  mode: z.enum(['LTL', 'FTL']),
  transitDaysMin: z.number().int(),
  transitDaysMax: z.number().int(),
  provider: z.string().optional(),
});

export const priceLevelView = z.object({
  organisationId: z.number().int().nullable(),
  type: z.enum(['platform', 'branch', 'agent', 'customer']),
  linehaul: moneyString,
  fuel: moneyString,
  accessorials: z.array(z.object({ code: z.string(), fee: moneyString })),
  insurance: moneyString,
  total: moneyString,
});

/**
 * How a price was reached. Staff see all of it; an organisation sees only the weights, classes and
 * insurance, never the operator's rates, so those fields are absent from its answers.
 */
export const ratingBreakdownView = z.object({
  lines: z.array(
    z.object({
      freightClass: z.string(),
      suggestedClass: z.string(),
      density: z.number(),
      weight: z.number(),
      /** Per hundredweight. */
      rate: moneyString.optional(),
      charge: moneyString.optional(),
    }),
  ),
  totalWeight: z.number(),
  deficitWeight: z.number(),
  insurance: z
    .object({ premium: moneyString, deductible: moneyString, insuredValue: moneyString })
    .nullable(),
  breakIndex: z.number().int().optional(),
  deficitCharge: moneyString.optional(),
  grossCharge: moneyString.optional(),
  discount: moneyString.optional(),
  linehaul: moneyString.optional(),
  minimumApplied: z.boolean().optional(),
  fuel: moneyString.optional(),
  accessorials: z.array(z.object({ code: z.string(), fee: moneyString })).optional(),
  total: moneyString.optional(),
});

/** One product's answer to a quote as a caller receives it, in the stream and in every quote answer. */
export const quoteResultView = z.discriminatedUnion('ok', [
  quoteProductView.extend({
    ok: z.literal(true),
    breakdown: ratingBreakdownView,
    levels: z.array(priceLevelView),
    cheapest: z.boolean(),
    fastest: z.boolean(),
  }),
  quoteProductView.extend({ ok: z.literal(false), reason: z.string() }),
]);
export type QuoteResultWire = z.input<typeof quoteResultView>;
export type PriceLevelWire = z.input<typeof priceLevelView>;

const moneyOf = formatCents;

export function priceLevelOnWire(level: PriceLevel): PriceLevelWire {
  return {
    organisationId: level.organisationId,
    type: level.type,
    linehaul: moneyOf(level.linehaul),
    fuel: moneyOf(level.fuel),
    accessorials: level.accessorials.map((a) => ({ code: a.code, fee: moneyOf(a.fee) })),
    insurance: moneyOf(level.insurance),
    total: moneyOf(level.total),
  };
}

/** A breakdown on the wire: all of it for staff, without the operator's rates for anyone else. */
export function breakdownOnWire(
  breakdown: RatingBreakdown,
  withRates: boolean,
): z.input<typeof ratingBreakdownView> {
  const insurance = breakdown.insurance && {
    premium: moneyOf(breakdown.insurance.premium),
    deductible: moneyOf(breakdown.insurance.deductible),
    insuredValue: moneyOf(breakdown.insurance.insuredValue),
  };
  const lines = breakdown.lines.map((rated) => {
    const { freightClass, suggestedClass, density, weight } = rated;
    const line = { freightClass, suggestedClass, density, weight };
    return withRates
      ? Object.assign(line, { rate: moneyOf(rated.rate), charge: moneyOf(rated.charge) })
      : line;
  });
  const shown = {
    lines,
    totalWeight: breakdown.totalWeight,
    deficitWeight: breakdown.deficitWeight,
    insurance,
  };
  if (!withRates) return shown;
  return Object.assign(shown, {
    breakIndex: breakdown.breakIndex,
    deficitCharge: moneyOf(breakdown.deficitCharge),
    grossCharge: moneyOf(breakdown.grossCharge),
    discount: moneyOf(breakdown.discount),
    linehaul: moneyOf(breakdown.linehaul),
    minimumApplied: breakdown.minimumApplied,
    fuel: moneyOf(breakdown.fuel),
    accessorials: breakdown.accessorials.map((a) => ({ code: a.code, fee: moneyOf(a.fee) })),
    total: moneyOf(breakdown.total),
  });
}

/** A result on the wire with the levels given (all of them, or those the caller may see). */
export function resultOnWire(
  result: QuoteResult,
  levels: readonly PriceLevel[] | null,
  withRates: boolean,
): QuoteResultWire {
  if (!result.ok) return result;
  return Object.assign({}, result, {
    breakdown: breakdownOnWire(result.breakdown, withRates),
    levels: (levels ?? result.levels).map(priceLevelOnWire),
  });
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

/** Buttons a task's `price` needs beyond the machine: staff price with the pricing button. */
export const TASK_ACTION_BUTTON: Partial<Record<TaskAction, string>> = { price: 'quotation-task:price' };

/**
 * What may be done with a quote: `book` one of its live prices, `requote` (change the shipment and
 * price it again) until it is booked. A booked quote is closed.
 */
export const QUOTE_ACTIONS = ['book', 'requote'] as const;
export type QuoteAction = (typeof QUOTE_ACTIONS)[number];

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

/* ----- responses ----- */

/** The quote form's choices (`getQuotationBaseInfo`). */
export const quoteBaseInfoView = z.object({
  accessorials: z.array(z.enum(ACCESSORIALS)).readonly(),
  freightClasses: z.array(z.enum(FREIGHT_CLASSES)).readonly(),
  addressTypes: z.array(z.enum(ADDRESS_TYPES)).readonly(),
  palletTypes: z.array(z.enum(PALLET_TYPES)).readonly(),
  quoteTtlHours: z.number().int(),
});

export const quoteCustomerOptionsView = z.object({
  list: z.array(z.object({ id: z.number().int(), name: z.string(), type: z.enum(ORGANISATION_TYPES) })),
});

export const quoteSavedView = z.object({
  id: z.number().int(),
  quoteNo: z.string(),
  /** Why staff must price it by hand, when the tables cannot. */
  manualReason: z.enum(['oversize', 'dangerous_goods', 'no_rate']).nullable(),
});

/** A quote as the caller may see it; `actions` are what it may do with it now. */
export const quoteView = z.object({
  id: z.number().int(),
  quoteNo: z.string(),
  organisationId: z.number().int(),
  userId: z.number().int(),
  status: z.enum(QUOTE_STATUSES),
  shipment: shipmentView,
  manualReason: z.enum(['oversize', 'dangerous_goods', 'no_rate']).nullable(),
  pricedAt: timestamp.nullable(),
  expiresAt: timestamp.nullable(),
  createdAt: timestamp,
  updatedAt: timestamp,
  expired: z.boolean(),
  results: z.array(quoteResultView),
  actions: z.array(z.enum(QUOTE_ACTIONS)),
});
export const quoteListView = pageOf(quoteView);

/** One line of the rates stream (`application/x-ndjson`): each result as it is priced, then the end. */
export const rateStreamLine = z.discriminatedUnion('type', [
  z.object({ type: z.literal('result'), result: quoteResultView }),
  z.object({ type: z.literal('done'), expiresAt: timestamp, results: z.array(quoteResultView) }),
  /** The pricing failed after the first line: `code` 503 while the database is away, else 500. */
  z.object({ type: z.literal('error'), code: z.number().int().optional(), msg: z.string().optional() }),
]);
export const rateStreamResponse = {
  description: 'One JSON object a line: each product as it is priced, then `done` (or `error`)',
  content: { 'application/x-ndjson': { schema: rateStreamLine } },
};

export const taskView = z.object({
  id: z.number().int(),
  taskNo: z.string(),
  quoteId: z.number().int(),
  organisationId: z.number().int(),
  userId: z.number().int(),
  status: z.enum(TASK_STATUSES),
  reason: z.enum(['oversize', 'dangerous_goods', 'no_rate']),
  note: z.string(),
  productId: z.number().int().nullable(),
  carrier: z.string(),
  transitDaysMin: z.number().int().nullable(),
  transitDaysMax: z.number().int().nullable(),
  validUntil: timestamp.nullable(),
  pricedBy: z.number().int().nullable(),
  createdAt: timestamp,
  updatedAt: timestamp,
  result: quoteResultView.nullable(),
  actions: z.array(z.enum(TASK_ACTIONS)),
});
/** A page of tasks, with every status the list can filter by. */
export const taskListView = pageOf(taskView).extend({ statuses: z.array(z.enum(TASK_STATUSES)).readonly() });
export const taskRequestedView = z.object({ id: z.number().int(), taskNo: z.string() });
export const taskStatusView = z.object({ id: z.number().int(), status: z.enum(TASK_STATUSES) });

export const taskDetailView = z.object({
  task: taskView,
  quote: quoteView,
  history: z.array(
    z.object({
      tenantId: z.number().int(),
      id: z.number().int(),
      taskId: z.number().int(),
      action: z.string(),
      fromStatus: z.enum(TASK_STATUSES).nullable(),
      toStatus: z.enum(TASK_STATUSES),
      actorId: z.number().int(),
      note: z.string(),
      createdAt: timestamp,
    }),
  ),
});
