import { PgTransaction } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../db/client.ts';

/**
 * What a tenant prices with (tariffs, channels, markups), loaded once and kept in this process's
 * memory. Entries are dropped the moment the database announces a change of the tenant's rows
 * (db/cache-events.ts, plugins/cache-events.ts); the age limit only bounds what a listener that lost
 * its connection could miss. A load inside a transaction is not kept: it may see that transaction's
 * own uncommitted writes, which a rollback would never announce.
 */
export interface TenantCache<K, T> {
  get(db: DbOrTx, tenantId: number, key: K): Promise<T>;
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
  } = {},
): TenantCache<K, T> {
  const ttlMs = options.ttlMs ?? PRICING_CACHE_TTL_MS;
  const keyOf = options.keyOf ?? ((key: K) => String(key));
  const tenants = new Map<number, Map<string, { value: Promise<T>; until: number }>>();
  return {
    get(db, tenantId, key) {
      if (db instanceof PgTransaction) return load(db, tenantId, key);
      let entries = tenants.get(tenantId);
      if (!entries) {
        entries = new Map();
        tenants.set(tenantId, entries);
      }
      const name = keyOf(key);
      const hit = entries.get(name);
      if (hit && hit.until > Date.now()) return hit.value;
      // Kept before it settles, so a change announced while it loads drops it too.
      const entry = { value: load(db, tenantId, key), until: Date.now() + ttlMs };
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
