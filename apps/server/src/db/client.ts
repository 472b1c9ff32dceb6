import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { isDatabaseUnavailable } from '../lib/errors.ts';
import { MIGRATIONS_DIR } from '../paths.ts';
import { distributeOnCitus } from './citus.ts';
import * as schema from './schema.ts';
import { runAsSystem, scopeConnectionsToTenant } from './tenant-scope.ts';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** Services take either, so a caller can compose them into one transaction. */
export type DbOrTx = Db | Tx;

export interface Database {
  db: Db;
  /**
   * Where reports and exports read: the streaming replica when one is configured, else `db`. A replica
   * that does not answer is skipped for a while and the primary answers instead.
   */
  reader: Db;
  kind: 'pglite' | 'postgres';
  /** The PostgreSQL server's URL: the job queue opens a small pool of its own on it. */
  url?: string;
  /** The embedded database's one session: the job queue runs its SQL there. */
  pglite?: PGlite;
  close(): Promise<void>;
  /** Where the reader reports the replica going away and coming back (nowhere until told). */
  logTo?(log: DatabaseLog): void;
}

export interface DatabaseLog {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

/** The pool's defaults; the server takes them from `DATABASE_POOL_MAX` and `DATABASE_ACQUIRE_TIMEOUT_MS`. */
export const POOL_DEFAULTS = { max: 20, acquireTimeoutMs: 10_000, replicaRetryMs: 10_000 };

const migrationsFolder = MIGRATIONS_DIR;

let distributed = false;
/**
 * Whether this process's database spreads by tenant on Citus, which refuses a few things plain
 * PostgreSQL takes (a volatile function in a modification's WHERE, for one).
 */
export const onDistributedDatabase = () => distributed;

/** PGlite under `dataDir` (or in memory when `dataDir` is null), or a PostgreSQL server by URL. */
export async function openDatabase(options: {
  url?: string;
  replicaUrl?: string;
  dataDir?: string | null;
  /** Connections per pool (the primary's, and the replica's). */
  poolMax?: number;
  /** How long a query waits for a connection (a free one, or a new one to open) before it fails. */
  acquireTimeoutMs?: number;
  /** How long the reader leaves a replica that did not answer before it tries it again. */
  replicaRetryMs?: number;
  /** On a Citus coordinator, spread the tables by tenant after the migrations (db/citus.ts). */
  distribute?: boolean;
  /** An in-memory embedded database starts as a copy of this dump (`dumpDataDir`) instead of empty. */
  pgliteTemplate?: Blob;
}): Promise<Database> {
  if (options.url) {
    const sizing = {
      max: options.poolMax ?? POOL_DEFAULTS.max,
      acquireTimeoutMs: options.acquireTimeoutMs ?? POOL_DEFAULTS.acquireTimeoutMs,
      distributed: options.distribute ?? false,
    };
    const pool = openPool(options.url, sizing);
    const db = drizzlePg(pool, { schema }) as unknown as Db;
    // Migrations may move rows of every tenant: they declare themselves system work.
    await runAsSystem(() => migratePg(drizzlePg(pool), { migrationsFolder }));
    // On Citus, what the migrations made spreads by tenant before anything is written to it.
    if (options.distribute) distributed = (await distributeOnCitus(pool)).citus;
    const replicaPool = options.replicaUrl ? openPool(options.replicaUrl, sizing) : null;
    const fallback = replicaPool
      ? replicaFallingBack(replicaPool, pool, options.replicaRetryMs ?? POOL_DEFAULTS.replicaRetryMs)
      : null;
    const reader = fallback ? (drizzlePg(fallback.pool, { schema }) as unknown as Db) : db;
    return {
      db,
      reader,
      kind: 'postgres',
      url: options.url,
      close: async () => {
        await Promise.all([pool.end(), replicaPool?.end()]);
      },
      logTo: (log) => fallback?.logTo(log),
    };
  }
  let client: PGlite;
  if (options.dataDir) {
    const dir = resolve(options.dataDir, 'db');
    mkdirSync(dir, { recursive: true });
    client = new PGlite(dir);
  } else {
    client = options.pgliteTemplate ? new PGlite({ loadDataDir: options.pgliteTemplate }) : new PGlite();
  }
  await client.waitReady;
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  await migratePglite(drizzlePglite(client), { migrationsFolder });
  return { db, reader: db, kind: 'pglite', pglite: client, close: () => client.close() };
}

function openPool(
  connectionString: string,
  sizing: { max: number; acquireTimeoutMs: number; distributed: boolean },
): pg.Pool {
  // A query waits in line for a connection up to the acquire timeout: a burst (200 payments on one
  // account at once) queues rather than failing; only a database that does not answer within it is a 503.
  const pool = new pg.Pool({
    connectionString,
    max: sizing.max,
    connectionTimeoutMillis: sizing.acquireTimeoutMs,
  });
  // An idle connection the server drops (a restart, a failover) must not take the process down; the
  // pool discards it and the next request opens a fresh one.
  pool.on('error', () => {});
  // Each connection carries the request's tenant for row-level security (PGlite, one embedded
  // superuser session, has no pool and is left as it is); on Citus, each transaction carries it too.
  scopeConnectionsToTenant(pool, { perTransaction: sizing.distributed });
  return pool;
}

type QueryArgs = Parameters<pg.Pool['query']>;

/**
 * The replica's pool as the reader sees it: a query (or a transaction's connection) goes to the replica,
 * and when the replica does not answer (refused, reset, shutting down, starting up, no connection in
 * time: connection-level errors, never a query's own error) the same query goes to the primary, and the
 * replica is left alone for `retryMs` so a dead one costs nothing per call. Reads only, so running one
 * again on the primary is harmless. Logged once when the replica goes away and once when it is back.
 * The object inherits from the replica's pool (drizzle treats it as a pool: a transaction checks a
 * connection out with `connect`).
 */
function replicaFallingBack(replica: pg.Pool, primary: pg.Pool, retryMs: number) {
  let log: DatabaseLog | null = null;
  let away = false;
  let skipUntil = 0;
  const skipping = () => Date.now() < skipUntil;
  const wentAway = (error: unknown) => {
    skipUntil = Date.now() + retryMs;
    if (away) return;
    away = true;
    log?.warn(
      { err: error, retryMs },
      'read replica unavailable: reports read the primary until it answers again',
    );
  };
  const answered = () => {
    if (!away) return;
    away = false;
    log?.info({}, 'read replica answers again: reports read it again');
  };

  const pool = Object.create(replica) as pg.Pool;
  pool.query = (async (...args: QueryArgs) => {
    if (typeof args.at(-1) === 'function') throw new Error('the reader takes no callbacks');
    if (skipping()) return (primary.query as (...a: QueryArgs) => Promise<unknown>)(...args);
    try {
      const result = await (replica.query as (...a: QueryArgs) => Promise<unknown>)(...args);
      answered();
      return result;
    } catch (error) {
      if (!isDatabaseUnavailable(error)) throw error;
      wentAway(error);
      return (primary.query as (...a: QueryArgs) => Promise<unknown>)(...args);
    }
  }) as pg.Pool['query'];
  pool.connect = (async (callback?: unknown) => {
    if (callback) throw new Error('the reader takes no callbacks');
    if (skipping()) return primary.connect();
    try {
      const client = await replica.connect();
      answered();
      return client;
    } catch (error) {
      if (!isDatabaseUnavailable(error)) throw error;
      wentAway(error);
      return primary.connect();
    }
  }) as pg.Pool['connect'];
  return {
    pool,
    logTo(to: DatabaseLog) {
      log = to;
    },
  };
}
