/**
 * `npm run bench`: throughput of the platform's hot calls, each next to a bare Fastify route measured
 * in the same run on the same machine, so the printed ratios mean something anywhere.
 */

import { createHash } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import pg from 'pg';
import { buildApp } from '../apps/server/src/app.ts';
import { testConfig } from '../apps/server/src/config.ts';
import { type Database, openDatabase } from '../apps/server/src/db/client.ts';
import { seedTenant, syncReferenceData } from '../apps/server/src/db/seed.ts';
import { benchExport } from './export.ts';
import { benchExpress } from './express.ts';
import { benchHotPaths } from './hotpaths.ts';
import { rps, storeSignInCode } from './http.ts';
import { benchMoney } from './money.ts';
import { benchQuoteHttp } from './quote.ts';
import { benchReports } from './reports.ts';
import { benchTruck } from './truck.ts';

/** `BENCH_ONLY=quote,truck` runs those parts alone; `BENCH_DB=postgres` one database alone. */
const ONLY = new Set((process.env.BENCH_ONLY ?? '').split(',').filter(Boolean));
const runs = (part: string) => ONLY.size === 0 || ONLY.has(part);
const DATABASES = (process.env.BENCH_DB ?? 'pglite,postgres').split(',');
const sha256 = (t: string) => createHash('sha256').update(t).digest('hex');

async function bareBaseline(): Promise<number> {
  const bare = Fastify();
  bare.get('/ping', async () => ({ code: 200, msg: 'ok', data: null }));
  await bare.listen({ port: 0, host: '127.0.0.1' });
  const { port } = bare.server.address() as AddressInfo;
  const value = await rps(`http://127.0.0.1:${port}/ping`);
  await bare.close();
  return value;
}

async function openBenchDatabase(kind: 'pglite' | 'postgres'): Promise<Database | null> {
  if (kind === 'pglite') return openDatabase({ dataDir: null });
  const adminUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const admin = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 3000 });
  try {
    await admin.connect();
  } catch {
    console.warn(`PostgreSQL does not answer at ${adminUrl}: its run is left out.`);
    return null;
  }
  const name = `fp_bench_${process.pid}`;
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ url: url.toString() });
  return {
    ...database,
    async close() {
      await database.close();
      const dropper = new pg.Client({ connectionString: adminUrl });
      await dropper.connect();
      await dropper.query(`drop database if exists ${name} with (force)`);
      await dropper.end();
    },
  };
}

async function benchPortal(kind: 'pglite' | 'postgres', baseline: number) {
  const database = await openBenchDatabase(kind);
  if (!database) return;
  await syncReferenceData(database.db);
  const { tenant } = await seedTenant(database.db, { code: 'default', name: 'Bench' });
  const app = await buildApp({ config: testConfig(), database, mailer: null, serveWeb: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

  // Sign-in: each needs its own live code, so the bench stores known codes for the admin first.
  const email = 'admin@example.com';
  const logins = 60;
  const codes = Array.from({ length: logins }, (_, i) => String(100000 + i));
  const started = performance.now();
  let token = '';
  for (const code of codes) {
    await storeSignInCode(database.db, tenant.id, email, code);
    const res = await fetch(`${base}/api/admin/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: sha256('Demo@123456'), code }),
    });
    const body = (await res.json()) as { data: { token: string } };
    token = body.data.token;
  }
  const signInPerSecond = logins / ((performance.now() - started) / 1000);

  if (!token) throw new Error('the bench could not sign in');
  await app.close();
  // The signed-in pages' calls over HTTP, next to `route + select 1` (bench/hotpaths.ts).
  if (runs('hotpaths')) await benchHotPaths(kind, database);
  if (runs('money')) await benchMoney(kind, database);
  // The express rows are also set next to the truck tariff read.
  const tariffRead = runs('truck') || runs('express') ? await benchTruck(kind, database) : 0;
  if (runs('quote')) await benchQuoteHttp(kind, database);
  if (runs('express')) await benchExpress(kind, database, tariffRead);
  if (runs('reports')) await benchReports(kind, database);
  if (runs('export')) await benchExport(kind, database);
  await database.close();

  const row = (name: string, value: number) =>
    console.log(
      `${kind.padEnd(9)} ${name.padEnd(26)} ${value.toFixed(0).padStart(8)} req/s   ${(value / baseline).toFixed(3)} × bare`,
    );
  row('sign-in (argon2id, 1 conn)', signInPerSecond);
}

const baseline = await bareBaseline();
console.log(`baseline  bare Fastify route          ${baseline.toFixed(0).padStart(8)} req/s   1.000 × bare`);
if (DATABASES.includes('pglite')) await benchPortal('pglite', baseline);
if (DATABASES.includes('postgres')) await benchPortal('postgres', baseline);
