import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../test/helpers.ts';
import { buildApp } from '../app.ts';
import { testConfig } from '../config.ts';
import type { Database } from '../db/client.ts';
import { currentTenantId, runAsTenant } from '../db/tenant-scope.ts';

/** An app on `database` (not closing it on close), with `extend` registering workers before it is ready. */
async function appOn(database: Database, extend?: (app: FastifyInstance) => void): Promise<FastifyInstance> {
  const app = await buildApp({
    config: testConfig({ DATA_DIR: `/tmp/fp-test-${process.pid}` }),
    database,
    mailer: null,
    serveWeb: false,
  });
  extend?.(app);
  await app.ready();
  return app;
}

describe('job queue', () => {
  let database: Database;
  const apps: FastifyInstance[] = [];
  const open = async (extend?: (app: FastifyInstance) => void) => {
    database ??= await openTestDatabase();
    const app = await appOn(database, extend);
    apps.push(app);
    return app;
  };
  afterAll(async () => {
    for (const app of apps) await app.close();
    await database?.close();
  });

  it('runs a job as the tenant it was sent for, and hands the data through', async () => {
    const seen: { data: unknown; tenant: number | null }[] = [];
    const app = await open((a) =>
      a.jobs.work<{ n: number }>('test-scope', async (job) => {
        seen.push({ data: job.data, tenant: currentTenantId() });
      }),
    );
    const id = await runAsTenant(42, () => app.jobs.send('test-scope', { n: 7 }));
    const system = await app.jobs.send('test-scope', { n: 8 }, { tenantId: null });
    expect(await app.jobs.settled('test-scope', id)).toMatchObject({ state: 'completed' });
    expect(await app.jobs.settled('test-scope', system)).toMatchObject({ state: 'completed' });
    expect(seen).toEqual(
      expect.arrayContaining([
        { data: { n: 7 }, tenant: 42 },
        { data: { n: 8 }, tenant: null },
      ]),
    );
  });

  it("takes jobs fairly: one user's burst goes behind a colleague's and another tenant's first job", async () => {
    const order: string[] = [];
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const app = await open((a) =>
      a.jobs.work<{ who: string }>('test-fair', async (job) => {
        // The first job holds the only worker while the others are sent.
        if (job.data.who === 'hold') await gate;
        else order.push(job.data.who);
      }),
    );
    const hold = await app.jobs.send('test-fair', { who: 'hold' }, { tenantId: 1, userId: 9 });
    while ((await app.jobs.state('test-fair', hold)) !== 'active')
      await new Promise((r) => setTimeout(r, 20));
    const ids: string[] = [];
    for (let i = 0; i < 6; i++)
      ids.push(await app.jobs.send('test-fair', { who: `burst${i}` }, { tenantId: 1, userId: 1 }));
    ids.push(await app.jobs.send('test-fair', { who: 'colleague' }, { tenantId: 1, userId: 2 }));
    ids.push(await app.jobs.send('test-fair', { who: 'other-tenant' }, { tenantId: 2, userId: 3 }));
    release();
    for (const id of ids)
      expect(await app.jobs.settled('test-fair', id)).toMatchObject({ state: 'completed' });
    // The burst's first job was sent first and waits behind nobody of its own; the colleague and the
    // other tenant come next, ahead of the rest of the burst, which keeps its own order.
    expect(order.slice(0, 3).sort()).toEqual(['burst0', 'colleague', 'other-tenant']);
    expect(order.slice(3)).toEqual(['burst1', 'burst2', 'burst3', 'burst4', 'burst5']);
  });

  it('tries a failing job again, then gives up after its retry limit with the error kept', async () => {
    const tries = new Map<string, number>();
    const app = await open((a) =>
      a.jobs.work<{ failTimes: number }>('test-retry', async (job) => {
        tries.set(job.id, (tries.get(job.id) ?? 0) + 1);
        if (job.retryCount < job.data.failTimes) throw new Error(`try ${job.retryCount} broke`);
      }),
    );
    const options = { retryLimit: 2, retryDelaySeconds: 0, retryBackoff: false };
    const recovers = await app.jobs.send('test-retry', { failTimes: 1 }, options);
    const never = await app.jobs.send('test-retry', { failTimes: 99 }, options);
    expect(await app.jobs.settled('test-retry', recovers)).toMatchObject({
      state: 'completed',
      retryCount: 1,
    });
    expect(await app.jobs.settled('test-retry', never)).toMatchObject({
      state: 'failed',
      retryCount: 2,
      error: 'try 2 broke',
    });
    expect(tries.get(recovers)).toBe(2);
    expect(tries.get(never)).toBe(3);
  });

  it('enqueues inside the caller transaction: a rollback leaves no job, a commit does', async () => {
    const ran: string[] = [];
    const app = await open((a) =>
      a.jobs.work<{ tag: string }>('test-tx', async (job) => {
        ran.push(job.data.tag);
      }),
    );
    let rolledBack = '';
    await app.db
      .transaction(async (tx) => {
        rolledBack = await app.jobs.send('test-tx', { tag: 'rolled back' }, { tx, tenantId: null });
        throw new Error('abort');
      })
      .catch(() => {});
    const committed = await app.db.transaction(async (tx) => {
      await tx.execute(sql`select 1`);
      return app.jobs.send('test-tx', { tag: 'committed' }, { tx, tenantId: null });
    });
    expect(await app.jobs.settled('test-tx', committed)).toMatchObject({ state: 'completed' });
    expect(await app.jobs.state('test-tx', rolledBack)).toBeNull();
    expect(ran).toEqual(['committed']);
  });

  it('keeps a job over a restart: sent by one app, run by the next one on the same database', async () => {
    const first = await open();
    const id = await first.jobs.send('test-restart', { hello: 'world' }, { tenantId: 5 });
    await first.close();
    apps.splice(apps.indexOf(first), 1);
    const ran: unknown[] = [];
    const second = await open((a) =>
      a.jobs.work('test-restart', async (job) => {
        ran.push({ data: job.data, tenant: currentTenantId() });
      }),
    );
    expect(await second.jobs.settled('test-restart', id)).toMatchObject({ state: 'completed' });
    expect(ran).toEqual([{ data: { hello: 'world' }, tenant: 5 }]);
  });
});
