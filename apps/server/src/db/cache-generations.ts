import { type SQL, sql } from 'drizzle-orm';
import { PgTransaction } from 'drizzle-orm/pg-core';
import type { DbOrTx } from './client.ts';

/**
 * The generations of a tenant's pricing data (migration 0038): each committed change of its tariffs,
 * channels or markups moves that one on by one, in commit order. A value read by a request's own
 * statement tells a process whether what it holds in memory was loaded before a change that had
 * committed when the request was asked; the announcement at commit (cache-events.ts) arrives a moment
 * later, on another connection, and cannot tell that alone.
 */
export type GenerationName = 'tariffs' | 'channels' | 'markups';
export type Generations = Readonly<Record<GenerationName, bigint>>;

const NAMES: readonly GenerationName[] = ['tariffs', 'channels', 'markups'];

/**
 * The tenant's generations as one text column (`tariffs:3,markups:7`), for a statement a request runs
 * anyway to read them in the same round trip. `tenantId` is a value or a placeholder.
 */
export const generationsColumn = (tenantId: unknown): SQL<string> =>
  sql<string>`(select coalesce(string_agg(cache || ':' || generation, ','), '')
     from cache_generations where tenant_id = ${tenantId})`;

/** Reads the text of `generationsColumn`; a data kind never changed is at generation 0. */
export function parseGenerations(text: string): Generations {
  const generations: Record<GenerationName, bigint> = { tariffs: 0n, channels: 0n, markups: 0n };
  for (const pair of text.split(',')) {
    const [name, value] = pair.split(':');
    if ((NAMES as readonly string[]).includes(name ?? '') && value && /^\d+$/.test(value))
      generations[name as GenerationName] = BigInt(value);
  }
  return generations;
}

/**
 * The tenant's generations now, for a pricer that runs no statement of its own to read them with;
 * none inside a transaction, where nothing held is used and there is nothing to compare.
 */
export function generationsNow(db: DbOrTx, tenantId: number): Promise<Generations | undefined> {
  return db instanceof PgTransaction ? Promise.resolve(undefined) : readGenerations(db, tenantId);
}

/** The tenant's generations now, in a round trip of their own. */
export async function readGenerations(db: DbOrTx, tenantId: number): Promise<Generations> {
  const result = await db.execute(sql`select ${generationsColumn(tenantId)} as generations`);
  const [row] = (result as unknown as { rows: { generations: string }[] }).rows;
  return parseGenerations(row?.generations ?? '');
}
