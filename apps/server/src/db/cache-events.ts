import type { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import type { Database, DbOrTx } from './client.ts';

/**
 * Caches every server process keeps for a few seconds (ARCHITECTURE section 9): the tenants looked up
 * by host (plugins/tenant.ts), the users' grants (roles/service.ts) and the signed-in sessions with their
 * users (auth/service.ts). A change is announced on one PostgreSQL channel; every process listens and
 * drops that cache at once, its own included.
 * The pricing caches (truck tariffs, express channels, markups: lib/tenant-cache.ts) are announced by
 * the database itself, a trigger on each table they read, as `<cache>:<tenant id>`,
 * so every write drops only that tenant's entry, whoever made it.
 */
export type CacheName = 'tenants' | 'grants' | 'sessions' | 'tariffs' | 'channels' | 'markups';

const CHANNEL = 'cache_changes';
/** How the listening connection shows in pg_stat_activity. */
export const CACHE_LISTENER_NAME = 'cache listener';
const CACHES: readonly CacheName[] = ['tenants', 'grants', 'sessions', 'tariffs', 'channels', 'markups'];

/**
 * Tells every process that a cache's data changed. Inside a transaction PostgreSQL delivers it at the
 * commit, never before and never on a rollback, so no process can read the old rows again afterwards.
 */
export async function announceCacheChange(db: DbOrTx, cache: CacheName): Promise<void> {
  await db.execute(sql`select pg_notify(${CHANNEL}, ${cache})`);
}

export interface CacheListener {
  /** Settles once the first LISTEN is in place (or has failed; it is retried in the background). */
  ready: Promise<void>;
  close(): Promise<void>;
}

/**
 * Listens on a connection of its own (not one of the pool's, which are handed round), and calls
 * `forget` with each cache named. When the connection drops (a database restart, a failover) it
 * connects again by itself; as changes may have gone unheard meanwhile, every cache is dropped then.
 * PGlite is one process, but listens the same way, so both databases behave alike.
 */
export function listenForCacheChanges(
  database: Database,
  /** Drops a cache: one tenant's entries when `tenantId` is given, else all of them. */
  forget: (cache: CacheName, tenantId?: number) => void,
  log: { warn(obj: object, msg: string): void },
): CacheListener {
  const client = (database.db as unknown as { $client: unknown }).$client;
  const heard = (payload: string) => {
    const [name = '', tenant] = payload.split(':');
    const tenantId = tenant === undefined ? undefined : Number(tenant);
    if (
      (CACHES as readonly string[]).includes(name) &&
      (tenantId === undefined || Number.isSafeInteger(tenantId))
    )
      forget(name as CacheName, tenantId);
    else for (const cache of CACHES) forget(cache);
  };
  if (database.kind === 'pglite') {
    const listening = (client as PGlite).listen(CHANNEL, heard);
    return {
      ready: listening.then(() => {}),
      close: () => listening.then((stop) => stop()).catch(() => {}),
    };
  }
  return listenOnPostgres(
    (client as pg.Pool).options,
    heard,
    () => {
      for (const cache of CACHES) forget(cache);
    },
    log,
  );
}

function listenOnPostgres(
  options: pg.ClientConfig,
  heard: (payload: string) => void,
  forgetAll: () => void,
  log: { warn(obj: object, msg: string): void },
): CacheListener {
  let current: pg.Client | null = null;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;
  let delayMs = 250;
  // Warned once per outage, not at every attempt.
  let warned = false;
  let markReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => {
    markReady = resolve;
  });

  const again = () => {
    if (closed || retry) return;
    retry = setTimeout(() => {
      retry = undefined;
      void connect();
    }, delayMs);
    retry.unref();
    delayMs = Math.min(delayMs * 2, 5_000);
  };

  async function connect() {
    const client = new pg.Client({ ...options, application_name: CACHE_LISTENER_NAME });
    client.on('notification', (message) => heard(message.payload ?? ''));
    // An error is followed by 'end'; both leave the retry to the 'end' handler.
    client.on('error', (err) => {
      if (!warned) log.warn({ err }, 'cache listener lost its connection');
      warned = true;
    });
    client.on('end', () => {
      if (current !== client) return;
      current = null;
      again();
    });
    try {
      await client.connect();
      await client.query(`listen ${CHANNEL}`);
    } catch (err) {
      client.end().catch(() => {});
      markReady();
      if (!closed && !warned) log.warn({ err }, 'cache listener could not listen; trying again');
      warned = true;
      again();
      return;
    }
    if (closed) {
      await client.end().catch(() => {});
      return;
    }
    current = client;
    delayMs = 250;
    warned = false;
    // Whatever changed while nobody listened was not heard: start afresh.
    forgetAll();
    markReady();
  }

  void connect();
  return {
    ready,
    async close() {
      closed = true;
      clearTimeout(retry);
      const client = current;
      current = null;
      await client?.end().catch(() => {});
    },
  };
}
