import { PgTransaction } from 'drizzle-orm/pg-core';
import type { GenerationName, Generations } from '../db/cache-generations.ts';
import { readGenerations } from '../db/cache-generations.ts';
import type { DbOrTx } from '../db/client.ts';
import { handleKey } from './short-cache.ts';

/**
 * What a tenant prices with (tariffs, channels, markups), loaded once and kept in this process's
 * memory. Entries are dropped the moment the database announces a change of the tenant's rows
 * (db/cache-events.ts, plugins/cache-events.ts); the age limit only bounds what a listener that lost
 * its connection could miss. A load inside a transaction is not kept: it may see that transaction's
 * own uncommitted writes, which a rollback would never announce.
 * The announcement comes a moment after the commit, on a connection of its own. A caller that has read
 * the tenant's generations in its own statement (db/cache-generations.ts) passes them as `seen`, and
 * an entry loaded at an older generation is loaded again: it never answers with data older than what
 * had committed when that statement ran.
 */
export interface TenantCache<K, T> {
  get(db: DbOrTx, tenantId: number, key: K, seen?: Generations): Promise<T>;
  /** Drops one tenant's entries, or every tenant's. */
  forget(tenantId?: number): void;
}

export const PRICING_CACHE_TTL_MS = 60_000;

export function tenantCache<K, T>(
  load: (db: DbOrTx, tenantId: number, key: K) => Promise<T>,
  options: {
    ttlMs?: number;
    keyOf?: (key: K) => string;
    /** Whether a loaded value is held; one that is not (a row not found, say) is loaded again next time. */
    keep?: (value: T) => boolean;
    /** The generation whose changes this data follows; without one, `seen` is not looked at. */
    generation?: GenerationName;
  } = {},
): TenantCache<K, T> {
  const ttlMs = options.ttlMs ?? PRICING_CACHE_TTL_MS;
  const keyOf = options.keyOf ?? ((key: K) => String(key));
  const follows = options.generation;
  type Entry = { value: Promise<T>; generation: Promise<bigint>; until: number };
  // By tenant, then by database handle and key: two databases in one process (the tests open several,
  // one after another in a worker) never share an entry.
  const tenants = new Map<number, Map<string, Entry>>();
  /** Whether an entry may answer a caller that has seen these generations. */
  const current = async (entry: Entry, seen: Generations | undefined) => {
    if (entry.until <= Date.now()) return false;
    if (!seen || !follows) return true;
    return (await entry.generation.catch(() => -1n)) >= seen[follows];
  };
  return {
    async get(db, tenantId, key, seen) {
      if (db instanceof PgTransaction) return load(db, tenantId, key);
      const name = `${handleKey(db)}:${keyOf(key)}`;
      const hit = tenants.get(tenantId)?.get(name);
      if (hit && (await current(hit, seen))) return hit.value;
      // Another caller may have loaded it again while this one looked.
      const again = tenants.get(tenantId)?.get(name);
      if (again && again !== hit && (await current(again, seen))) return again.value;
      let entries = tenants.get(tenantId);
      if (!entries) {
        entries = new Map();
        tenants.set(tenantId, entries);
      }
      // The generation is read before the data: the data is then at least as new as it says.
      const generation = follows
        ? readGenerations(db, tenantId).then((g) => g[follows])
        : Promise.resolve(0n);
      // Kept before it settles, so a change announced while it loads drops it too.
      const entry: Entry = {
        value: generation.then(() => load(db, tenantId, key)),
        generation,
        until: Date.now() + ttlMs,
      };
      const owner = entries;
      owner.set(name, entry);
      const drop = () => {
        if (owner.get(name) === entry) owner.delete(name);
      };
      const keep = options.keep;
      entry.value.then((value) => {
        if (keep && !keep(value)) drop();
      }, drop);
      return entry.value;
    },
    forget(tenantId) {
      if (tenantId === undefined) tenants.clear();
      else tenants.delete(tenantId);
    },
  };
}
