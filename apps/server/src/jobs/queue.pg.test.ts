import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scratchDatabase } from '../../test/server-process.ts';
import { buildApp } from '../app.ts';
import { testConfig } from '../config.ts';
import { type Database, openDatabase } from '../db/client.ts';

/**
 * Two servers on one PostgreSQL database, each with its own pools and its own workers on one queue:
 * every job runs once, in one of them (pg-boss takes a job with FOR UPDATE SKIP LOCKED).
 */
describe('job queue on PostgreSQL with two servers', () => {
  let scratch: Awaited<ReturnType<typeof scratchDatabase>>;
  const databases: Database[] = [];
  const apps: FastifyInstance[] = [];
  const runs: { job: string; server: number }[] = [];

  beforeAll(async () => {
    scratch = await scratchDatabase('fp_jobs');
    for (const server of [0, 1]) {
      const database = await openDatabase({ url: scratch.url });
      databases.push(database);
      const app = await buildApp({
        config: testConfig({ DATA_DIR: `/tmp/fp-test-${process.pid}` }),
        database,
        mailer: null,
        serveWeb: false,
      });
      app.jobs.work(
        'test-once',
        async (job) => {
          runs.push({ job: job.id, server });
          // Long enough that both servers are busy at once and both poll the queue meanwhile.
          await new Promise((resolve) => setTimeout(resolve, 20));
        },
        { concurrency: 3 },
      );
      await app.ready();
      apps.push(app);
    }
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    for (const database of databases) await database.close();
    await scratch?.drop();
  });

  it('runs each of 60 jobs exactly once across both servers', async () => {
    const [a, b] = apps as [FastifyInstance, FastifyInstance];
    const ids: string[] = [];
    // Sent from both sides, so both servers' workers are woken and race for the same rows.
    for (let i = 0; i < 30; i++) {
      ids.push(await a.jobs.send('test-once', { i }, { tenantId: null }));
      ids.push(await b.jobs.send('test-once', { i: i + 30 }, { tenantId: null }));
    }
    for (const id of ids) expect(await a.jobs.settled('test-once', id)).toMatchObject({ state: 'completed' });
    expect(runs).toHaveLength(60);
    expect(new Set(runs.map((r) => r.job))).toEqual(new Set(ids));
    // Both took part: the exactly-once above was a real race, not one server doing everything.
    expect(new Set(runs.map((r) => r.server))).toEqual(new Set([0, 1]));
  });
});
