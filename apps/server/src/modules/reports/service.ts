import type { BusinessLine } from '@freight/contracts/accounts';
import type { Language } from '@freight/contracts/api';
import { formatMoney } from '@freight/contracts/money';
import type { CostBasis, ReportQuery } from '@freight/contracts/reports';
import { and, eq, gte, like, lte, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { forbidden } from '../../lib/errors.ts';
import type { RequestUser } from '../../plugins/context.ts';
import { findOrganisation, organisationLineages, organisationNames } from '../customers/service.ts';
import { findChannel } from '../express-channels/service.ts';
import { findProduct } from '../truck-products/service.ts';
import { reportDaily } from './schema.ts';

/**
 * A change of the money of one sale, as the module that moves the money sees it: a payment adds the
 * order (`orders: 1`) and its prices, a refund subtracts them (`orders: -1`), a surcharge or a
 * work order's money changes the revenue (and, passed through, the costs) without an order.
 */
export interface SaleMove {
  tenantId: number;
  line: BusinessLine;
  organisationId: number;
  /** The truck product or express channel; null when the money has none. */
  productId: number | null;
  /** When the money moved: the report's day is its UTC date. */
  at: Date;
  orders: number;
  revenue: bigint;
  cost: bigint;
  branchPrice: bigint;
  agentPrice: bigint;
}

/**
 * A day's sums of one organisation and product as a source module computes them from its own rows
 * for a rebuild (signed, cents and counts as text from SQL sums).
 */
export interface ReportFact {
  day: string;
  organisationId: number;
  productId: number;
  orders: string;
  revenue: string;
  cost: string;
  branchPrice: string;
  agentPrice: string;
}

/** The modules that record sales: a rebuild without any one of them would drop its money. */
export const SALES_SOURCES = ['truck-orders', 'express-waybills', 'bounce-bills', 'work-orders'] as const;
export type SalesSourceName = (typeof SALES_SOURCES)[number];

/** A source module's recount of one line's sales of a tenant from its own rows. */
export type SalesFacts = (db: DbOrTx, tenantId: number, line: BusinessLine) => Promise<ReportFact[]>;

interface SalesSource {
  lines: readonly BusinessLine[];
  facts: SalesFacts;
}

const salesSources = new Map<SalesSourceName, SalesSource>();

/**
 * Called by each module that records sales, when it loads, so the reports can rebuild from its rows
 * without importing it (the module imports the reports to record its sales).
 */
export function registerSalesSource(
  name: SalesSourceName,
  lines: readonly BusinessLine[],
  facts: SalesFacts,
) {
  salesSources.set(name, { lines, facts });
}

/**
 * Every source of sales, in a fixed order. Throws when one has not loaded in this process: a rebuild
 * from part of the sources would replace a tenant's figures with smaller ones.
 */
export function salesSourcesForRebuild(): SalesSource[] {
  const missing = SALES_SOURCES.filter((name) => !salesSources.has(name));
  if (missing.length) throw new Error(`reports rebuild: no sales source registered by ${missing.join(', ')}`);
  return SALES_SOURCES.map((name) => salesSources.get(name) as SalesSource);
}

/** The UTC day of a moment, as the reports (and every date filter of the product) count days. */
export const utcDay = (at: Date) => at.toISOString().slice(0, 10);

/**
 * Adds a move to the day's aggregate. Call it inside the transaction that moves the money, so the
 * report and the ledger commit together. One upsert that adds to the stored sums: concurrent payments
 * of the same day and customer each add their own amounts, none is lost.
 */
export async function recordSale(tx: DbOrTx, move: SaleMove): Promise<void> {
  const lineage = (await organisationLineages(tx, move.tenantId, [move.organisationId])).get(
    move.organisationId,
  );
  await upsertDaily(tx, [
    {
      tenantId: move.tenantId,
      day: utcDay(move.at),
      line: move.line,
      organisationId: move.organisationId,
      productId: move.productId ?? 0,
      // An organisation the tree no longer has keeps its money, seen by staff only.
      orgPath: lineage?.path ?? '/',
      branchId: lineage?.branchId ?? null,
      agentId: lineage?.agentId ?? null,
      orders: move.orders,
      revenue: move.revenue,
      cost: move.cost,
      branchPrice: move.branchPrice,
      agentPrice: move.agentPrice,
    },
  ]);
}

export type DailyRow = typeof reportDaily.$inferInsert;

/** Adds rows to the aggregates, summing into the rows already there; the lineage is refreshed. */
export async function upsertDaily(tx: DbOrTx, rows: DailyRow[]): Promise<void> {
  if (rows.length === 0) return;
  const add = (column: string) => sql.raw(`report_daily.${column} + excluded.${column}`);
  await tx
    .insert(reportDaily)
    .values(rows)
    .onConflictDoUpdate({
      target: [
        reportDaily.tenantId,
        reportDaily.day,
        reportDaily.line,
        reportDaily.organisationId,
        reportDaily.productId,
      ],
      set: {
        orders: add('orders'),
        revenue: add('revenue_cents'),
        cost: add('cost_cents'),
        branchPrice: add('branch_price_cents'),
        agentPrice: add('agent_price_cents'),
        orgPath: sql`excluded.org_path`,
        branchId: sql`excluded.branch_id`,
        agentId: sql`excluded.agent_id`,
      },
    });
}

/* ---------- reading ---------- */

type Caller = Pick<RequestUser, 'tenantId' | 'identity' | 'organisationId'>;

/** What the caller may read: staff the whole tenant at the operator's cost; a branch or agent its subtree at its own price. */
interface ReportScope {
  tenantId: number;
  costBasis: CostBasis;
  /** The subtree's path prefix; none for staff. */
  path: string | null;
}

export async function reportScope(db: DbOrTx, caller: Caller): Promise<ReportScope> {
  if (caller.identity === 'employee') return { tenantId: caller.tenantId, costBasis: 'operator', path: null };
  // A plain customer has no cost of its own to compare with what it paid: the page is not for it.
  if (caller.identity !== 'branch' && caller.identity !== 'agent') throw forbidden('report.noAccess');
  const own = caller.organisationId
    ? await findOrganisation(db, caller.tenantId, caller.organisationId)
    : null;
  if (!own) throw forbidden('report.noAccess');
  return { tenantId: caller.tenantId, costBasis: caller.identity, path: own.path };
}

const COST_COLUMN = {
  operator: reportDaily.cost,
  branch: reportDaily.branchPrice,
  agent: reportDaily.agentPrice,
} as const;

/** A `like` pattern for the paths under a path (paths hold digits and slashes only). */
const under = (path: string) => `${path}%`;

function conditions(scope: ReportScope, query: ReportQuery): SQL | undefined {
  return and(
    eq(reportDaily.tenantId, scope.tenantId),
    gte(reportDaily.day, query.from),
    lte(reportDaily.day, query.to),
    query.line ? eq(reportDaily.line, query.line) : undefined,
    scope.path ? like(reportDaily.orgPath, under(scope.path)) : undefined,
  );
}

const sums = (scope: ReportScope) => ({
  orders: sql<string>`coalesce(sum(${reportDaily.orders}), 0)::text`,
  revenue: sql<string>`coalesce(sum(${reportDaily.revenue}), 0)::text`,
  cost: sql<string>`coalesce(sum(${COST_COLUMN[scope.costBasis]}), 0)::text`,
});

interface Figures {
  orders: number;
  revenue: bigint;
  cost: bigint;
}

const figures = (row: { orders: string; revenue: string; cost: string }): Figures => ({
  orders: Number(row.orders),
  revenue: BigInt(row.revenue),
  cost: BigInt(row.cost),
});

const wire = (f: Figures) => ({
  orders: f.orders,
  revenue: formatMoney(f.revenue),
  cost: formatMoney(f.cost),
  margin: formatMoney(f.revenue - f.cost),
});

export interface ReportRow extends Figures {
  id: number | null;
  name: string;
  line: BusinessLine | null;
}

/** The report in figures (cents): the chart's buckets, the table's rows and the totals. */
export async function buildReport(db: DbOrTx, caller: Caller, query: ReportQuery, language: Language) {
  const scope = await reportScope(db, caller);
  const where = conditions(scope, query);
  const bucket = sql<string>`to_char(date_trunc(${query.period}, ${reportDaily.day}::timestamp), 'YYYY-MM-DD')`;
  const key = {
    branch: reportDaily.branchId,
    agent: reportDaily.agentId,
    customer: reportDaily.organisationId,
    product: reportDaily.productId,
  }[query.dimension];
  const byProduct = query.dimension === 'product';
  const lineKey = byProduct ? reportDaily.line : sql<BusinessLine | null>`null`;

  const [series, grouped, [total]] = await Promise.all([
    db
      .select({ period: bucket, ...sums(scope) })
      .from(reportDaily)
      .where(where)
      .groupBy(sql`1`)
      .orderBy(sql`1`),
    db
      .select({ id: key, line: lineKey, ...sums(scope) })
      .from(reportDaily)
      .where(where)
      .groupBy(...(byProduct ? [key, reportDaily.line] : [key])),
    db.select(sums(scope)).from(reportDaily).where(where),
  ]);

  const names = await namesOf(db, scope.tenantId, query.dimension, grouped, language);
  const rows: ReportRow[] = grouped
    .map((g) => ({
      id: g.id === 0 ? null : g.id,
      line: g.line as BusinessLine | null,
      name: g.id ? (names.get(`${g.line ?? ''}:${g.id}`) ?? `#${g.id}`) : '',
      ...figures(g),
    }))
    // Biggest first: what a reader of a revenue table looks for.
    .sort((a, b) => (b.revenue > a.revenue ? 1 : b.revenue < a.revenue ? -1 : a.name.localeCompare(b.name)));
  return {
    costBasis: scope.costBasis,
    series: series.map((s) => ({ period: s.period, ...figures(s) })),
    rows,
    totals: figures(total ?? { orders: '0', revenue: '0', cost: '0' }),
  };
}

/** The report as the API answers it: money in decimal strings. */
export async function reportFor(db: DbOrTx, caller: Caller, query: ReportQuery, language: Language) {
  const report = await buildReport(db, caller, query, language);
  return {
    costBasis: report.costBasis,
    series: report.series.map((s) => ({ period: s.period, ...wire(s) })),
    rows: report.rows.map((r) => ({ id: r.id, name: r.name, line: r.line, ...wire(r) })),
    totals: wire(report.totals),
  };
}

/** Names of the table's rows, keyed `line:id` (the line only for products, whose ids are per line). */
async function namesOf(
  db: DbOrTx,
  tenantId: number,
  dimension: ReportQuery['dimension'],
  rows: { id: number | null; line: string | null }[],
  language: Language,
): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  if (dimension !== 'product') {
    const ids = rows.map((r) => r.id).filter((id): id is number => Boolean(id));
    for (const [id, name] of await organisationNames(db, tenantId, ids)) names.set(`:${id}`, name);
    return names;
  }
  // A report shows a handful of products and channels: one lookup each through their own modules.
  await Promise.all(
    rows.map(async (r) => {
      if (!r.id) return;
      const found =
        r.line === 'express' ? await findChannel(db, tenantId, r.id) : await findProduct(db, tenantId, r.id);
      if (found) names.set(`${r.line}:${r.id}`, language === 'en-US' ? found.nameEn : found.name);
    }),
  );
  return names;
}
