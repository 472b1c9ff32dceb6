import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { testConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/client.ts';
import { syncReferenceData } from '../src/db/seed.ts';
import { call, createTenant, signInAs, type TestContext, type TestTenant } from './helpers.ts';
import { adminUrl, scratchDatabase } from './server-process.ts';
import { tcpProxy } from './tcp-proxy.ts';

/**
 * An app whose pool reaches PostgreSQL through a proxy this test owns: the database goes away for
 * this app alone and comes back, while other tests keep using the same server.
 */
let proxy: Awaited<ReturnType<typeof tcpProxy>>;
let scratch: Awaited<ReturnType<typeof scratchDatabase>>;
let ctx: TestContext;
let app: FastifyInstance;
let t: TestTenant;
let token: string;

beforeAll(async () => {
  scratch = await scratchDatabase('fp_away');
  const target = new URL(adminUrl);
  proxy = await tcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
  const viaProxy = new URL(scratch.url);
  viaProxy.hostname = '127.0.0.1';
  viaProxy.port = String(proxy.port);
  const database = await openDatabase({ url: viaProxy.toString() });
  await syncReferenceData(database.db);
  app = await buildApp({
    config: testConfig({ DATA_DIR: `/tmp/fp-test-${process.pid}` }),
    database,
    mailer: null,
    serveWeb: false,
  });
  // A call that spends a while inside the database, to lose its connection in the middle.
  app.post('/api/test/slow-query', { config: { public: true } }, async () => {
    await app.db.execute(sql`select pg_sleep(2)`);
    return null;
  });
  await app.ready();
  ctx = { app, database, close: async () => {} };
  t = await createTenant(ctx);
  token = await signInAs(ctx, t, 'customer');
});

afterAll(async () => {
  await app?.close();
  await ctx?.database.close();
  await proxy?.close();
  await scratch?.drop();
});

const orders = (language: 'zh-CN' | 'en-US' = 'zh-CN') =>
  call(ctx, 'POST', '/api/admin/order/list', { page: 1, limit: 10 }, { host: t.host, token, language });
/**
 * The calls after the database is back: a pooled connection that died without the pool hearing of it
 * fails the one call that draws it (503 again), and is discarded; a fresh one serves the next.
 */
async function answersAgain(): Promise<void> {
  for (let attempt = 0; attempt < 10; attempt++) {
    const res = await orders('en-US');
    if (res.statusCode === 200 && res.json().code === 200) return;
    expect(res.statusCode).toBe(503);
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the app did not recover once the database was back');
}
const get = (url: string) => app.inject({ method: 'GET', url, headers: { host: t.host } });

describe('the database going away and coming back', () => {
  it('answers 503 in the envelope while it is away and recovers by itself when it is back', async () => {
    expect((await orders()).json().code).toBe(200);
    expect((await get('/api/health/ready')).statusCode).toBe(200);
    // The pool holds idle connections now; cutting them must not take the process down.
    expect(proxy.connections).toBeGreaterThan(0);

    await proxy.cut();
    const zh = await orders();
    expect(zh.statusCode).toBe(503);
    expect(zh.json()).toEqual({ code: 503, msg: '数据库暂时无法访问,请稍后再试', data: null });
    const en = await orders('en-US');
    expect(en.statusCode).toBe(503);
    expect(en.json()).toEqual({
      code: 503,
      msg: 'The database is unavailable at the moment, please try again shortly',
      data: null,
    });
    // Several at once: each one answered, none hanging, no stack trace anywhere.
    const many = await Promise.all(Array.from({ length: 8 }, () => orders('en-US')));
    for (const res of many) {
      expect(res.statusCode).toBe(503);
      expect(res.body).not.toMatch(/ECONNREFUSED|at .*\.ts:|stack/i);
    }
    // Alive, says the database is away; not ready.
    const health = await get('/api/health');
    expect(health.statusCode).toBe(200);
    expect(health.json().data.database).toMatchObject({ kind: 'postgres', ok: false });
    const ready = await get('/api/health/ready');
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toMatchObject({ code: 503, data: { ready: false, database: { ok: false } } });

    await proxy.restore();
    await answersAgain();
    expect((await get('/api/health/ready')).statusCode).toBe(200);
    expect((await get('/api/health')).json().data.database.ok).toBe(true);
  });

  it('outlives the database ending its idle connections (a restart, a failover) and serves the next call', async () => {
    expect((await orders()).json().code).toBe(200);
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    const { rows } = await admin.query(
      'select pg_terminate_backend(pid) as ended from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
      [scratch.name],
    );
    await admin.end();
    expect(rows.length).toBeGreaterThan(0);
    // Each idle connection hears FATAL 57P01 and fails; the pool's error handler drops it, the process
    // stays up (an unhandled 'error' would end this test run).
    await new Promise((r) => setTimeout(r, 200));
    expect((await orders('en-US')).json().code).toBe(200);
  });

  it('answers 503 for a call that loses its connection in the middle, then serves the next one', async () => {
    const slow = call(ctx, 'POST', '/api/test/slow-query', {}, { host: t.host, language: 'en-US' });
    await new Promise((r) => setTimeout(r, 300));
    await proxy.cut();
    const lost = await slow;
    expect(lost.statusCode).toBe(503);
    expect(lost.json()).toMatchObject({ code: 503, data: null });
    await proxy.restore();
    await answersAgain();
  });
});
