import { randomBytes } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { buildApp } from '../src/app.ts';
import { type Config, testConfig } from '../src/config.ts';
import { type Database, openDatabase } from '../src/db/client.ts';
import { DEMO_PASSWORD, seedTenant, syncReferenceData } from '../src/db/seed.ts';
import { sha256Hex } from '../src/lib/crypto.ts';
import type { Mailer } from '../src/modules/mail/service.ts';
import { listOutbox } from '../src/modules/mail/service.ts';

/**
 * Each test file gets its own database: PGlite in memory, or with TEST_DB=pg a fresh database on
 * the PostgreSQL server at TEST_DATABASE_URL, dropped afterwards.
 */
export async function openTestDatabase(): Promise<Database> {
  if (process.env.TEST_DB !== 'pg') return openDatabase({ dataDir: null });
  const adminUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `fp_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
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

export interface TestContext {
  app: FastifyInstance;
  database: Database;
  close(): Promise<void>;
}

export async function createTestApp(
  options: { config?: Partial<Config>; mailer?: Mailer } = {},
): Promise<TestContext> {
  const database = await openTestDatabase();
  await syncReferenceData(database.db);
  const app = await buildApp({
    config: testConfig({ DATA_DIR: `/tmp/fp-test-${process.pid}`, ...options.config }),
    database,
    mailer: options.mailer ?? null,
    serveWeb: false,
  });
  await app.ready();
  return {
    app,
    database,
    async close() {
      await app.close();
      await database.close();
    },
  };
}

/** A tenant of its own with the demo users, on host `<code>.test` (tenant code `<code>-test`). */
export async function createTenant(ctx: TestContext, name = `t${randomBytes(3).toString('hex')}`) {
  const host = `${name}.test`;
  const { tenant, roleIds } = await seedTenant(ctx.database.db, {
    code: host.replace(/\./g, '-'),
    name,
    emailDomain: `${name}.example.com`,
  });
  const email = (who: 'admin' | 'editor' | 'branch' | 'agent' | 'customer' | 'direct') =>
    `${who}@${name}.example.com`;
  return { tenant, roleIds, host, email, password: DEMO_PASSWORD };
}

export type TestTenant = Awaited<ReturnType<typeof createTenant>>;

/** The newest code mailed to this address within the tenant. */
export async function lastMailTo(ctx: TestContext, tenantId: number, to: string) {
  const [mail] = await listOutbox(ctx.database.db, tenantId, to, 1);
  return mail;
}

export function codeIn(text: string | undefined): string {
  const match = /\b(\d{6})\b/.exec(text ?? '');
  if (!match?.[1]) throw new Error(`no code in mail: ${text}`);
  return match[1];
}

export interface CallOptions {
  host: string;
  token?: string;
  language?: 'zh-CN' | 'en-US';
}

/** POST (or GET) a JSON call the way the browser does. */
export async function call(
  ctx: TestContext,
  method: 'GET' | 'POST',
  url: string,
  body: unknown,
  opts: CallOptions,
): Promise<
  LightMyRequestResponse & { body: string; json<T = { code: number; msg: string; data: any }>(): T }
> {
  const headers: Record<string, string> = { host: opts.host, 'accept-language': opts.language ?? 'zh-CN' };
  if (opts.token) headers.accesstoken = opts.token;
  return ctx.app.inject({
    method,
    url,
    headers,
    ...(method === 'POST' ? { payload: (body ?? {}) as object } : {}),
  });
}

/** Signs in with password and the code read from the outbox; returns the token. */
export async function signIn(
  ctx: TestContext,
  t: TestTenant,
  email: string,
  password = t.password,
): Promise<string> {
  const sent = await call(ctx, 'POST', '/api/admin/auth/getVerificationCode', { email }, { host: t.host });
  if (sent.json().code !== 200) throw new Error(`code request failed: ${sent.body}`);
  const code = codeIn((await lastMailTo(ctx, t.tenant.id, email))?.text);
  const res = await call(
    ctx,
    'POST',
    '/api/admin/auth/login',
    { email, password: sha256Hex(password), code },
    { host: t.host },
  );
  const token = res.json().data?.token as string | undefined;
  if (!token) throw new Error(`login failed: ${res.body}`);
  return token;
}
