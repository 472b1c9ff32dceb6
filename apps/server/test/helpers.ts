import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { crc32, deflateSync } from 'node:zlib';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { inject } from 'vitest';
import { buildApp } from '../src/app.ts';
import { type Config, testConfig } from '../src/config.ts';
import { type Database, openDatabase } from '../src/db/client.ts';
import { users, verificationCodes } from '../src/db/schema.ts';
import { DEMO_PASSWORD, seedTenant, syncReferenceData } from '../src/db/seed.ts';
import { sha256Hex } from '../src/lib/crypto.ts';
import { createUser } from '../src/modules/auth/service.ts';
import type { Mailer } from '../src/modules/mail/service.ts';
import { listOutbox } from '../src/modules/mail/service.ts';
import { assignRoles } from '../src/modules/roles/service.ts';

let templateBlob: Blob | undefined;
/** The run's migrated embedded database, read once per test file's process. */
function pgliteTemplate(): Blob | undefined {
  const path = inject('pgliteTemplate');
  if (!path) return undefined;
  templateBlob ??= new Blob([readFileSync(path)]);
  return templateBlob;
}

/**
 * Each test file gets its own database, a copy of the run's migrated template: PGlite in memory, or
 * with TEST_DB=pg a fresh database on
 * the PostgreSQL server at TEST_DATABASE_URL, dropped afterwards.
 */
export async function openTestDatabase(): Promise<Database> {
  if (process.env.TEST_DB !== 'pg') return openDatabase({ dataDir: null, pgliteTemplate: pgliteTemplate() });
  const adminUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `fp_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  // A copy of the run's migrated template (test/global-setup.ts); migrating it again finds nothing to do.
  const template = inject('postgresTemplate');
  await admin.query(`create database ${name}${template ? ` template ${template}` : ''}`);
  // A test database outlives no crash of the server it sits on: its commits need not wait for the disk.
  await admin.query(`alter database ${name} set synchronous_commit = off`);
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
      // The pool's end resolves before its sockets are gone; a forced drop would then kill live
      // connections, which report an unhandled FATAL 57P01. Wait for them to leave first.
      for (let i = 0; i < 50; i++) {
        const { rows } = await dropper.query(
          'select count(*)::int as n from pg_stat_activity where datname = $1',
          [name],
        );
        if (rows[0]?.n === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
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
  options: {
    config?: Partial<Config>;
    mailer?: Mailer;
    /** Adds routes (a deliberately failing one, say) before the app is sealed. */
    extend?: (app: FastifyInstance) => void | Promise<void>;
    /** Changes the database handed to the app (a reader that counts its queries, say). */
    database?: (database: Database) => Database;
  } = {},
): Promise<TestContext> {
  const opened = await openTestDatabase();
  const database = options.database ? options.database(opened) : opened;
  await syncReferenceData(database.db);
  const app = await buildApp({
    config: testConfig({ DATA_DIR: `/tmp/fp-test-${process.pid}`, ...options.config }),
    database,
    mailer: options.mailer ?? null,
    serveWeb: false,
  });
  await options.extend?.(app);
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

/** The demo identities every test tenant has (see DEMO_ACCOUNTS). */
export type Who = 'admin' | 'editor' | 'branch' | 'agent' | 'customer' | 'direct';

/** A tenant of its own with the demo users, on host `<code>.test` (tenant code `<code>-test`). */
export async function createTenant(ctx: TestContext, name = `t${randomBytes(3).toString('hex')}`) {
  const host = `${name}.test`;
  const { tenant, roleIds } = await seedTenant(ctx.database.db, {
    code: host.replace(/\./g, '-'),
    name,
    emailDomain: `${name}.example.com`,
  });
  const email = (who: Who) => `${who}@${name}.example.com`;
  return { tenant, roleIds, host, email, password: DEMO_PASSWORD };
}

export type TestTenant = Awaited<ReturnType<typeof createTenant>>;

/** The newest code mailed to this address within the tenant (once the mail sent after the answer is out). */
export async function lastMailTo(ctx: TestContext, tenantId: number, to: string) {
  await ctx.app.afterAnswerSettled();
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
  /** Sent as Accept-Language (zh-CN unless told); null sends none, so the user's saved language counts. */
  language?: 'zh-CN' | 'en-US' | null;
  /** The client's address (127.0.0.1 unless told), for the per-client limits. */
  ip?: string;
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
  const headers: Record<string, string> = { host: opts.host };
  if (opts.language !== null) headers['accept-language'] = opts.language ?? 'zh-CN';
  if (opts.token) headers.accesstoken = opts.token;
  return ctx.app.inject({
    method,
    url,
    headers,
    ...(opts.ip ? { remoteAddress: opts.ip } : {}),
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

/**
 * Moves this address's earlier codes an hour back, so the resend and hourly limits do not stand in
 * the way of a test that signs the same user in again. The codes stay valid until they expire.
 */
export async function allowNewCode(ctx: TestContext, tenantId: number, email: string) {
  await ctx.database.db
    .update(verificationCodes)
    .set({ createdAt: sql`${verificationCodes.createdAt} - interval '61 minutes'` })
    .where(and(eq(verificationCodes.tenantId, tenantId), eq(verificationCodes.email, email.toLowerCase())));
}

/** Signs a demo identity in through the real flow (code request, outbox, login); returns the token. */
export async function signInAs(ctx: TestContext, t: TestTenant, who: Who): Promise<string> {
  await allowNewCode(ctx, t.tenant.id, t.email(who));
  return signIn(ctx, t, t.email(who));
}

/** The id of a user of the tenant, by e-mail. */
export async function userIdOf(ctx: TestContext, tenantId: number, email: string): Promise<number> {
  const [row] = await ctx.database.db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.tenantId, tenantId), eq(users.email, email.toLowerCase())));
  if (!row) throw new Error(`no user ${email}`);
  return row.id;
}

/** Field names of a 400 answer, in order. */
export function badFields(res: { json(): { data: any } }): string[] {
  return (res.json().data?.fields ?? []).map((f: { field: string }) => f.field);
}

/** The message given for one field of a 400 answer. */
export function fieldMessage(res: { json(): { data: any } }, field: string): string | undefined {
  return (res.json().data?.fields ?? []).find((f: { field: string }) => f.field === field)?.message;
}

export type MultipartPart =
  | { name: string; value: string }
  | { name: string; filename: string; contentType: string; content: Buffer };

/** A multipart/form-data body built by hand, as a browser's FormData would send it. */
export function multipartBody(parts: MultipartPart[]): { payload: Buffer; contentType: string } {
  const boundary = `----fp${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    if ('value' in part) {
      chunks.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"\r\n\r\n${part.value}\r\n`,
        ),
      );
    } else {
      chunks.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"; filename="${part.filename}"\r\nContent-Type: ${part.contentType}\r\n\r\n`,
        ),
        part.content,
        Buffer.from('\r\n'),
      );
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** POSTs a multipart form. */
export async function postMultipart(
  ctx: TestContext,
  url: string,
  parts: MultipartPart[],
  opts: CallOptions,
) {
  const { payload, contentType } = multipartBody(parts);
  const headers: Record<string, string> = { host: opts.host, 'content-type': contentType };
  if (opts.language !== null) headers['accept-language'] = opts.language ?? 'zh-CN';
  if (opts.token) headers.accesstoken = opts.token;
  return ctx.app.inject({ method: 'POST', url, headers, payload });
}

/** A licence image uploaded with no session from `ip`, in English: what a registering shipper sends. */
export function anonymousUpload(
  ctx: TestContext,
  host: string,
  ip: string,
  content: Buffer,
  filename = 'licence.png',
) {
  const { payload, contentType } = multipartBody([
    { name: 'file', filename, contentType: 'image/png', content },
  ]);
  return ctx.app.inject({
    method: 'POST',
    url: '/api/common/upload/images',
    remoteAddress: ip,
    headers: { host, 'content-type': contentType, 'accept-language': 'en-US' },
    payload,
  });
}

/**
 * Uploads a small file as a signed-in user (or, without a token, as a registering shipper's licence)
 * and answers its URL: records accept only their caller's own uploads.
 */
export async function uploadFor(
  ctx: TestContext,
  host: string,
  token: string | undefined,
  kind: 'image' | 'pdf' = 'image',
): Promise<string> {
  const pdf = kind === 'pdf';
  const res = await postMultipart(
    ctx,
    pdf ? '/api/common/upload/documents' : '/api/common/upload/images',
    [
      {
        name: 'file',
        filename: pdf ? 'proof.pdf' : 'proof.png',
        contentType: pdf ? 'application/pdf' : 'image/png',
        content: pdf ? Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n') : makePng(),
      },
    ],
    { host, token },
  );
  if (res.json().code !== 200) throw new Error(`upload failed: ${res.body}`);
  return res.json().data[0];
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A real PNG: `width` x `height` pixels of one RGB colour; `padding` adds a text chunk to make it bigger. */
export function makePng(width = 2, height = 2, padding = 0): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // truecolour
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3, 0xff)]);
  const pixels = Buffer.concat(Array.from({ length: height }, () => row));
  const chunks = [
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    ...(padding > 0
      ? [pngChunk('tEXt', Buffer.concat([Buffer.from('Comment\0'), Buffer.alloc(padding, 0x61)]))]
      : []),
    pngChunk('IDAT', deflateSync(pixels)),
    pngChunk('IEND', Buffer.alloc(0)),
  ];
  return Buffer.concat(chunks);
}

/** One more user in the tenant (a staff member with the editor role unless told), for tests that spend it. */
export async function addUser(
  ctx: TestContext,
  t: TestTenant,
  options: { email?: string; role?: string; identity?: 'employee' | 'customer'; password?: string } = {},
) {
  const email = options.email ?? `u${randomBytes(4).toString('hex')}@${t.tenant.code}.example.com`;
  const user = await createUser(ctx.database.db, t.tenant.id, {
    email,
    password: options.password ?? t.password,
    identity: options.identity ?? 'employee',
    name: `User ${email.split('@')[0]}`,
  });
  const roleId = t.roleIds.get(options.role ?? 'editor');
  if (roleId) await assignRoles(ctx.database.db, t.tenant.id, user.id, [roleId]);
  return { id: user.id, email };
}

/** A calendar day as `YYYY-MM-DD` (UTC), `days` from today: dates in tests follow the clock. */
export function isoDay(days = 0, from: Date = new Date()): string {
  return new Date(from.getTime() + days * 86_400_000).toISOString().slice(0, 10);
}
