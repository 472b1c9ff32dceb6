import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { testConfig } from '../src/config.ts';
import { type Database, openDatabase } from '../src/db/client.ts';
import { syncReferenceData } from '../src/db/seed.ts';
import { call, createTenant, signInAs, type TestContext, type TestTenant } from './helpers.ts';
import { adminUrl, scratchDatabase } from './server-process.ts';
import { tcpProxy } from './tcp-proxy.ts';

/**
 * The reader's replica is the test's own database reached through a proxy this test owns: cutting the
 * proxy is the replica going away (nothing listens on its port any more), while the primary stays.
 */
const RETRY_MS = 2_000;
let proxy: Awaited<ReturnType<typeof tcpProxy>>;
let scratch: Awaited<ReturnType<typeof scratchDatabase>>;
let database: Database;
let ctx: TestContext;
let app: FastifyInstance;
let t: TestTenant;
let admin: string;
const logged: { level: 'warn' | 'info'; msg: string }[] = [];

beforeAll(async () => {
  scratch = await scratchDatabase('fp_replica');
  const target = new URL(adminUrl);
  proxy = await tcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
  const viaProxy = new URL(scratch.url);
  viaProxy.hostname = '127.0.0.1';
  viaProxy.port = String(proxy.port);
  database = await openDatabase({
    url: scratch.url,
    replicaUrl: viaProxy.toString(),
    replicaRetryMs: RETRY_MS,
  });
  await syncReferenceData(database.db);
  app = await buildApp({
    config: testConfig({ DATA_DIR: `/tmp/fp-test-${process.pid}` }),
    database,
    mailer: null,
    serveWeb: false,
  });
  await app.ready();
  database.logTo?.({
    warn: (_obj, msg) => logged.push({ level: 'warn', msg }),
    info: (_obj, msg) => logged.push({ level: 'info', msg }),
  });
  ctx = { app, database, close: async () => {} };
  t = await createTenant(ctx);
  admin = await signInAs(ctx, t, 'admin');
});

afterAll(async () => {
  await app?.close();
  await database?.close();
  await proxy?.close();
  await scratch?.drop();
});

const post = (url: string, body: unknown = {}) =>
  call(ctx, 'POST', url, body, { host: t.host, token: admin, language: 'en-US' });
/** The reports that read the reader: two exports and a dashboard's figures. */
async function reportsAnswer() {
  for (const [url, body] of [
    ['/api/admin/order/export', {}],
    ['/api/admin/account/detailsExport', { line: 'truck' }],
    ['/api/admin/order/stats', {}],
  ] as const) {
    const res = await post(url, body);
    expect(res.statusCode, url).toBe(200);
  }
}

describe('the reader falls back to the primary while the replica does not answer', () => {
  it('reads the replica while it answers', async () => {
    await reportsAnswer();
    expect(proxy.connections).toBeGreaterThan(0);
    expect(logged).toEqual([]);
  });

  it('answers the exports from the primary with the replica gone, logging it once', async () => {
    await proxy.cut();
    await reportsAnswer();
    await reportsAnswer();
    // Several at once: each answered, one warning for the whole outage.
    const many = await Promise.all(Array.from({ length: 6 }, () => post('/api/admin/order/export')));
    for (const res of many) expect(res.statusCode).toBe(200);
    expect(logged).toEqual([{ level: 'warn', msg: expect.stringMatching(/replica unavailable/) }]);
  });

  it('leaves the replica alone for a while, then reads it again once it answers, logging that once', async () => {
    await proxy.restore();
    // Within the back-off the replica is not asked, though it answers again.
    await reportsAnswer();
    expect(proxy.connections).toBe(0);
    await new Promise((r) => setTimeout(r, RETRY_MS + 100));
    await reportsAnswer();
    expect(proxy.connections).toBeGreaterThan(0);
    expect(logged.map((l) => l.level)).toEqual(['warn', 'info']);
    expect(logged[1]?.msg).toMatch(/answers again/);
  });

  it('does not send a query that fails on its own to the primary, nor count it as the replica away', async () => {
    logged.length = 0;
    await expect(database.reader.execute(sql`select 1 / 0`)).rejects.toMatchObject({
      cause: expect.objectContaining({ code: '22012' }),
    });
    expect(logged).toEqual([]);
  });

  it('runs a transaction on the reader on the primary while the replica is away', async () => {
    await proxy.cut();
    logged.length = 0;
    const result = await database.reader.transaction(async (tx) => tx.execute(sql`select 1 as one`));
    expect((result as unknown as { rows: unknown[] }).rows).toEqual([{ one: 1 }]);
    expect(logged.map((l) => l.level)).toEqual(['warn']);
    await proxy.restore();
  });
});
