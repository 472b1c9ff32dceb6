import type { BusinessLine } from '@freight/contracts/accounts';
import { eq, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client.ts';
import { organisationLineages } from '../customers/service.ts';
import { tenantIds } from '../site/service.ts';
import { reportDaily } from './schema.ts';
import { type DailyRow, type ReportFact, salesSourcesForRebuild, upsertDaily } from './service.ts';

/** Rows per insert statement: well under the drivers' limit of bind parameters. */
const CHUNK = 1_000;

/**
 * Recomputes a tenant's aggregates from the source modules' own rows (each registers its recount,
 * `registerSalesSource`): for data written before the reports existed, and to repair. The table is
 * locked against writers for the length of it, so a payment committing meanwhile is either in the
 * sources read here or adds its move after the rebuild commits, never both nor neither. Answers how
 * many aggregate rows it wrote.
 */
export async function rebuildReports(db: Db, tenantId: number): Promise<number> {
  const sources = salesSourcesForRebuild();
  return db.transaction(async (tx) => {
    // Blocks other writers (their upserts) until this commits; readers go on reading the old rows.
    await tx.execute(sql`lock table report_daily in share row exclusive mode`);
    await tx.delete(reportDaily).where(eq(reportDaily.tenantId, tenantId));
    const facts: { line: BusinessLine; fact: ReportFact }[] = [];
    const add = (line: BusinessLine) => (rows: ReportFact[]) => {
      for (const fact of rows) facts.push({ line, fact });
    };
    // One after the other: a transaction is one connection.
    for (const source of sources)
      for (const line of source.lines) add(line)(await source.facts(tx, tenantId, line));
    return writeFacts(tx, tenantId, facts);
  });
}

async function writeFacts(tx: DbOrTx, tenantId: number, facts: { line: BusinessLine; fact: ReportFact }[]) {
  // Payments and refunds of one day and key arrive as separate facts: summed here, one row each.
  const rows = new Map<string, DailyRow>();
  const lineages = await organisationLineages(tx, tenantId, [
    ...new Set(facts.map((f) => f.fact.organisationId)),
  ]);
  for (const { line, fact } of facts) {
    const key = `${fact.day}|${line}|${fact.organisationId}|${fact.productId}`;
    const lineage = lineages.get(fact.organisationId);
    const row = rows.get(key) ?? {
      tenantId,
      day: fact.day,
      line,
      organisationId: fact.organisationId,
      productId: fact.productId,
      orgPath: lineage?.path ?? '/',
      branchId: lineage?.branchId ?? null,
      agentId: lineage?.agentId ?? null,
      orders: 0,
      revenue: 0n,
      cost: 0n,
      branchPrice: 0n,
      agentPrice: 0n,
    };
    row.orders = (row.orders ?? 0) + Number(fact.orders);
    row.revenue = (row.revenue ?? 0n) + BigInt(fact.revenue);
    row.cost = (row.cost ?? 0n) + BigInt(fact.cost);
    row.branchPrice = (row.branchPrice ?? 0n) + BigInt(fact.branchPrice);
    row.agentPrice = (row.agentPrice ?? 0n) + BigInt(fact.agentPrice);
    rows.set(key, row);
  }
  const all = [...rows.values()];
  for (let i = 0; i < all.length; i += CHUNK) await upsertDaily(tx, all.slice(i, i + CHUNK));
  return all.length;
}

/**
 * At start-up: builds the aggregates of every tenant that has none yet, so money moved before the
 * reports existed (the demo's, an upgraded database's) shows in them. A tenant with rows is kept up
 * by the money paths themselves and left alone; one with no money at all costs a few empty reads.
 */
export async function buildMissingReports(db: Db): Promise<void> {
  for (const tenantId of await tenantIds(db)) {
    const [row] = await db
      .select({ one: sql`1` })
      .from(reportDaily)
      .where(eq(reportDaily.tenantId, tenantId))
      .limit(1);
    if (!row) await rebuildReports(db, tenantId);
  }
}
