import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import * as schema from './schema.ts';
import { scopeConnectionsToTenant } from './tenant-scope.ts';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** Services take either, so a caller can compose them into one transaction. */
export type DbOrTx = Db | Tx;

export interface Database {
  db: Db;
  /** Where reports and exports read: the streaming replica when one is configured, else `db`. */
  reader: Db;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
}

/** The pool's defaults; the server takes them from `DATABASE_POOL_MAX` and `DATABASE_ACQUIRE_TIMEOUT_MS`. */
export const POOL_DEFAULTS = { max: 20, acquireTimeoutMs: 10_000 };

const migrationsFolder = join(dirname(fileURLToPath(import.meta.url)), 'migrations');

/** PGlite under `dataDir` (or in memory when `dataDir` is null), or a PostgreSQL server by URL. */
export async function openDatabase(options: {
  url?: string;
  replicaUrl?: string;
  dataDir?: string | null;
  /** Connections per pool (the primary's, and the replica's). */
  poolMax?: number;
  /** How long a query waits for a connection (a free one, or a new one to open) before it fails. */
  acquireTimeoutMs?: number;
}): Promise<Database> {
  if (options.url) {
    const sizing = {
      max: options.poolMax ?? POOL_DEFAULTS.max,
      acquireTimeoutMs: options.acquireTimeoutMs ?? POOL_DEFAULTS.acquireTimeoutMs,
    };
    const pool = openPool(options.url, sizing);
    const db = drizzlePg(pool, { schema }) as unknown as Db;
    await migratePg(drizzlePg(pool), { migrationsFolder });
    const replicaPool = options.replicaUrl ? openPool(options.replicaUrl, sizing) : null;
    const reader = replicaPool ? (drizzlePg(replicaPool, { schema }) as unknown as Db) : db;
    return {
      db,
      reader,
      kind: 'postgres',
      close: async () => {
        await Promise.all([pool.end(), replicaPool?.end()]);
      },
    };
  }
  let client: PGlite;
  if (options.dataDir) {
    const dir = resolve(options.dataDir, 'db');
    mkdirSync(dir, { recursive: true });
    client = new PGlite(dir);
  } else {
    client = new PGlite();
  }
  await client.waitReady;
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  await migratePglite(drizzlePglite(client), { migrationsFolder });
  return { db, reader: db, kind: 'pglite', close: () => client.close() };
}

function openPool(connectionString: string, sizing: { max: number; acquireTimeoutMs: number }): pg.Pool {
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
  // superuser session, has no pool and is left as it is).
  scopeConnectionsToTenant(pool);
  return pool;
}
