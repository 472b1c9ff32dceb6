import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { rateLimitHits } from '../src/db/schema.ts';
import { localUploadStore } from '../src/modules/uploads/service.ts';
import { HOUSEKEEPING_LOCK, moduleSweeps, runHousekeeping } from '../src/plugins/housekeeping.ts';
import { useTestApp } from './fixture.ts';

/** The housekeeping lock across processes: PostgreSQL's advisory lock, which PGlite has no second session for. */
const f = useTestApp();
const ago = (ms: number) => new Date(Date.now() - ms);
const HOUR = 60 * 60_000;
const tag = () => randomBytes(6).toString('hex');

/** The URL of this file's own PostgreSQL database, for a second connection to it (another process). */
async function ownDatabaseUrl(): Promise<string> {
  const result = await f.db.execute(sql`select current_database() as name`);
  const [row] = (result as unknown as { rows: { name: string }[] }).rows;
  const url = new URL(process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  url.pathname = `/${row?.name}`;
  return url.toString();
}

describe('housekeeping across processes', () => {
  it('skips while another process holds the lock, and runs once it is let go', async () => {
    const t = tag();
    await f.db.insert(rateLimitHits).values({ key: `hk:${t}:held`, windowStart: ago(2 * HOUR), count: 1 });
    const holder = new pg.Client({ connectionString: await ownDatabaseUrl() });
    await holder.connect();
    try {
      const held = await holder.query('select pg_try_advisory_lock(hashtextextended($1, 0)) as locked', [
        HOUSEKEEPING_LOCK,
      ]);
      expect(held.rows[0]?.locked).toBe(true);
      const sweeps = moduleSweeps(localUploadStore(f.ctx.app.config.DATA_DIR));
      expect(await runHousekeeping(f.ctx.database, sweeps)).toBeNull();
      const stillThere = await f.db
        .select()
        .from(rateLimitHits)
        .where(eq(rateLimitHits.key, `hk:${t}:held`));
      expect(stillThere).toHaveLength(1);

      await holder.query('select pg_advisory_unlock(hashtextextended($1, 0))', [HOUSEKEEPING_LOCK]);
      expect(await runHousekeeping(f.ctx.database, sweeps)).not.toBeNull();
      const gone = await f.db
        .select()
        .from(rateLimitHits)
        .where(eq(rateLimitHits.key, `hk:${t}:held`));
      expect(gone).toHaveLength(0);
    } finally {
      await holder.end();
    }
  });
});
