import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Database, Db } from '../db/client.ts';
import { runAsSystem } from '../db/tenant-scope.ts';
import type { BatchOptions } from '../lib/batched-delete.ts';
import { runPeriodically } from '../lib/periodic.ts';
import { sweepLoginFailures, sweepPasswordResets, sweepVerificationCodes } from '../modules/auth/service.ts';
import { sweepExpiredExports } from '../modules/downloads/service.ts';
import { sweepOldDeliveries } from '../modules/integrations/webhooks.ts';
import { sweepExpiredHits } from '../modules/limits/service.ts';
import { sweepOldMail } from '../modules/mail/service.ts';
import { localUploadStore, sweepPendingLicences, type UploadStore } from '../modules/uploads/service.ts';

/** How often each process tries a pass; only one process at a time gets to run it. */
export const HOUSEKEEPING_EVERY_MS = 60 * 60 * 1000;
/** The advisory lock a pass holds, named so that `pg_locks` tells what it is. */
export const HOUSEKEEPING_LOCK = 'housekeeping';

/** One module's clean-up: it deletes its own rows past their keeping time, a bounded batch at a time. */
export interface Sweep {
  name: string;
  run(db: Db, options: BatchOptions): Promise<number>;
}

/**
 * Every module's sweep. Each deletes only its own module's rows, through its own service. With
 * `dataDir`, also the download centre's files past their keeping time.
 */
export function moduleSweeps(store: UploadStore, dataDir?: string): Sweep[] {
  return [
    { name: 'rate limit windows', run: (db, o) => sweepExpiredHits(db, o) },
    { name: 'sign-in failures', run: sweepLoginFailures },
    { name: 'verification codes', run: sweepVerificationCodes },
    { name: 'password resets', run: sweepPasswordResets },
    { name: 'mail', run: sweepOldMail },
    { name: 'pending licences', run: (db, o) => sweepPendingLicences(db, store, o) },
    { name: 'webhook deliveries', run: sweepOldDeliveries },
    ...(dataDir
      ? [{ name: 'expired exports', run: (db: Db, o: BatchOptions) => sweepExpiredExports(db, dataDir, o) }]
      : []),
  ];
}

/** Databases a pass runs on in this process: a second app on the same handle skips (PGlite has one session). */
const passing = new WeakSet<Db>();

/**
 * Runs every sweep once, unless another pass is running: in this process on the same database, or in
 * any process on PostgreSQL, where the pass holds a transaction-scoped advisory lock on a connection
 * of its own while its batches run and commit one by one on others (a huge backlog never holds a long
 * lock on rows). The held transaction has written nothing, so it keeps nothing from vacuum, and a
 * crash ends it. PGlite is one embedded session that no other process can open: the in-process guard
 * is the whole lock there. Answers the rows each sweep removed, or null when it skipped.
 */
export function runHousekeeping(
  database: Database,
  sweeps: Sweep[],
  options: { signal?: AbortSignal; log?: FastifyBaseLogger } = {},
): Promise<Record<string, number> | null> {
  // Sweeps span every tenant: system work, declared as such.
  return runAsSystem(() => housekeepingPass(database, sweeps, options));
}

async function housekeepingPass(
  database: Database,
  sweeps: Sweep[],
  options: { signal?: AbortSignal; log?: FastifyBaseLogger },
): Promise<Record<string, number> | null> {
  const { db } = database;
  if (passing.has(db)) return null;
  passing.add(db);
  try {
    const sweepAll = async () => {
      const removed: Record<string, number> = {};
      for (const sweep of sweeps) {
        if (options.signal?.aborted) break;
        try {
          removed[sweep.name] = await sweep.run(db, { signal: options.signal });
        } catch (error) {
          // One module's failure does not keep the others' tables growing.
          options.log?.warn({ err: error, sweep: sweep.name }, 'housekeeping sweep failed');
        }
      }
      return removed;
    };
    if (database.kind === 'pglite') return await sweepAll();
    return await db.transaction(async (tx) => {
      const result = await tx.execute(
        sql`select pg_try_advisory_xact_lock(hashtextextended(${HOUSEKEEPING_LOCK}, 0)) as locked`,
      );
      const [lock] = ((result as unknown as { rows?: unknown[] }).rows ?? result) as { locked: boolean }[];
      if (!lock?.locked) return null;
      return sweepAll();
    });
  } finally {
    passing.delete(db);
  }
}

/**
 * The one scheduler of clean-ups: a pass on start and every `HOUSEKEEPING_EVERY_MS`, in one process at a
 * time. The timer never keeps the process alive, is cleared on close, and a pass in progress stops
 * after its current batch; the rest waits for the next pass.
 */
export const housekeepingPlugin = fp(async (app: FastifyInstance) => {
  const sweeps = moduleSweeps(localUploadStore(app.config.DATA_DIR), app.config.DATA_DIR);
  runPeriodically(
    app,
    HOUSEKEEPING_EVERY_MS,
    'housekeeping pass',
    (signal) => runHousekeeping(app.database, sweeps, { signal, log: app.log }),
    (removed) => {
      const total = Object.values(removed ?? {}).reduce((a, b) => a + b, 0);
      if (removed === null) app.log.debug('housekeeping pass skipped: another one is running');
      else if (total > 0) app.log.info({ removed }, 'housekeeping pass');
    },
  );
});
