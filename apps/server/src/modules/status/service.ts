import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { MIGRATIONS_DIR } from '../../paths.ts';

/** The migrations this release ships, by the time drizzle records for each (`when` of the journal). */
const journal = JSON.parse(readFileSync(join(MIGRATIONS_DIR, 'meta', '_journal.json'), 'utf8')) as {
  entries: { when: number; tag: string }[];
};

/** How long a health probe waits for the database before calling it away (the pool waits longer). */
const PROBE_TIMEOUT_MS = 2_000;

function withinProbeTime<T>(work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('database probe timed out')), PROBE_TIMEOUT_MS);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

const rowsOf = <T>(result: unknown): T[] => ((result as { rows?: T[] }).rows ?? (result as T[])) as T[];

/** Does the database answer `select 1` in time, and how fast. */
export async function probeDatabase(db: Db): Promise<{ ok: boolean; latencyMs: number }> {
  const t0 = performance.now();
  let ok = true;
  try {
    await withinProbeTime(db.execute(sql`select 1`));
  } catch {
    ok = false;
  }
  return { ok, latencyMs: Math.round((performance.now() - t0) * 100) / 100 };
}

/** How many of this release's migrations the database has recorded as applied. */
export async function appliedMigrations(db: Db): Promise<{ applied: number; expected: number }> {
  const result = await withinProbeTime(db.execute(sql`select created_at from drizzle.__drizzle_migrations`));
  const done = new Set(rowsOf<{ created_at: string | number }>(result).map((r) => Number(r.created_at)));
  const applied = journal.entries.filter((entry) => done.has(entry.when)).length;
  return { applied, expected: journal.entries.length };
}

/** Ready to take traffic: not shutting down, the database answers, and its schema is this release's. */
export async function readiness(db: Db, shuttingDown: boolean) {
  const database = await probeDatabase(db);
  let migrations = { applied: 0, expected: journal.entries.length };
  if (database.ok) {
    try {
      migrations = await appliedMigrations(db);
    } catch {
      database.ok = false;
    }
  }
  const ready = !shuttingDown && database.ok && migrations.applied === migrations.expected;
  return { ready, shuttingDown, database, migrations };
}
