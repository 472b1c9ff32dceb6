import { randomBytes } from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../src/app.ts';
import { testConfig } from '../src/config.ts';
import { type Database, openDatabase } from '../src/db/client.ts';
import {
  loginFailures,
  outbox,
  passwordResets,
  rateLimitHits,
  uploads,
  verificationCodes,
} from '../src/db/schema.ts';
import { sweepLoginFailures } from '../src/modules/auth/service.ts';
import { localUploadStore, PENDING_LICENCE } from '../src/modules/uploads/service.ts';
import {
  HOUSEKEEPING_EVERY_MS,
  moduleSweeps,
  runHousekeeping,
  type Sweep,
} from '../src/plugins/housekeeping.ts';
import { useTestApp } from './fixture.ts';

const f = useTestApp();
const onPostgres = process.env.TEST_DB === 'pg';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const ago = (ms: number) => new Date(Date.now() - ms);
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const tag = () => randomBytes(6).toString('hex');

/** The URL of this file's own PostgreSQL database, for a second handle on it (a second process). */
async function ownDatabaseUrl(): Promise<string> {
  const result = await f.db.execute(sql`select current_database() as name`);
  const [row] = (result as unknown as { rows: { name: string }[] }).rows;
  const url = new URL(process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  url.pathname = `/${row?.name}`;
  return url.toString();
}

/** Runs a pass of every module's sweep, waiting out the one the app may still run since its start. */
async function passNow(database: Database = f.ctx.database) {
  const sweeps = moduleSweeps(localUploadStore(f.ctx.app.config.DATA_DIR));
  for (let i = 0; i < 100; i++) {
    const removed = await runHousekeeping(database, sweeps);
    if (removed) return removed;
    await sleep(50);
  }
  throw new Error('no housekeeping pass ran');
}

describe('a housekeeping pass', () => {
  it("removes each module's rows past their keeping time and keeps the newer ones", async () => {
    const tenantId = f.t.tenant.id;
    const t = tag();

    await f.db.insert(rateLimitHits).values([
      { key: `hk:${t}:spent`, windowStart: ago(2 * HOUR), count: 5 },
      { key: `hk:${t}:live`, windowStart: ago(MINUTE), count: 5 },
    ]);
    const failures = await f.db
      .insert(loginFailures)
      .values([
        { tenantId, email: `old-${t}@x.test`, ip: '192.0.2.1', createdAt: ago(20 * MINUTE) },
        { tenantId, email: `new-${t}@x.test`, ip: '192.0.2.1', createdAt: ago(5 * MINUTE) },
      ])
      .returning({ email: loginFailures.email });
    const code = (email: string, expiresAt: Date, usedAt: Date | null = null) => ({
      tenantId,
      email,
      purpose: 'login' as const,
      codeHash: tag(),
      createdAt: new Date(expiresAt.getTime() - 10 * MINUTE),
      expiresAt,
      usedAt,
    });
    await f.db
      .insert(verificationCodes)
      .values([
        code(`expired-${t}@x.test`, ago(25 * HOUR)),
        code(`used-${t}@x.test`, ago(25 * HOUR), ago(25 * HOUR + MINUTE)),
        code(`recent-${t}@x.test`, ago(23 * HOUR)),
        code(`live-${t}@x.test`, new Date(Date.now() + 5 * MINUTE)),
      ]);
    const reset = (name: string, expiresAt: Date, usedAt: Date | null = null) => ({
      tokenHash: `${name}-${t}`,
      tenantId,
      userId: 1,
      createdAt: new Date(expiresAt.getTime() - 30 * MINUTE),
      expiresAt,
      usedAt,
    });
    await f.db
      .insert(passwordResets)
      .values([
        reset('used', ago(25 * HOUR), ago(26 * HOUR)),
        reset('expired', ago(25 * HOUR)),
        reset('recent', ago(2 * HOUR)),
      ]);
    const mail = (name: string, status: 'stored' | 'sent' | 'failed', createdAt: Date) => ({
      tenantId,
      to: `${name}-${t}@x.test`,
      subject: name,
      text: name,
      status,
      createdAt,
    });
    await f.db
      .insert(outbox)
      .values([
        mail('sent-old', 'sent', ago(31 * DAY)),
        mail('stored-old', 'stored', ago(31 * DAY)),
        mail('sent-recent', 'sent', ago(29 * DAY)),
        mail('failed-month', 'failed', ago(31 * DAY)),
        mail('failed-old', 'failed', ago(91 * DAY)),
      ]);
    const upload = (name: string, record: string | null, createdAt: Date) => ({
      tenantId,
      key: `${name}-${t}.png`,
      userId: record === PENDING_LICENCE ? null : 1,
      kind: 'image' as const,
      mime: 'image/png',
      size: 1,
      originalName: 'licence.png',
      record,
      createdAt,
    });
    await f.db
      .insert(uploads)
      .values([
        upload('pending-old', PENDING_LICENCE, ago(25 * HOUR)),
        upload('pending-new', PENDING_LICENCE, ago(HOUR)),
        upload('claimed-old', 'organisation:1', ago(25 * HOUR)),
      ]);
    expect(failures).toHaveLength(2);

    const removed = await passNow();
    expect(removed).toMatchObject({
      'rate limit windows': expect.any(Number),
      'sign-in failures': expect.any(Number),
      'verification codes': expect.any(Number),
      'password resets': expect.any(Number),
      mail: expect.any(Number),
      'pending licences': expect.any(Number),
    });

    const hits = await f.db
      .select({ key: rateLimitHits.key })
      .from(rateLimitHits)
      .where(sql`${rateLimitHits.key} like ${`hk:${t}:%`}`);
    expect(hits.map((r) => r.key)).toEqual([`hk:${t}:live`]);
    const failuresLeft = await f.db
      .select({ email: loginFailures.email })
      .from(loginFailures)
      .where(and(eq(loginFailures.tenantId, tenantId), sql`${loginFailures.email} like ${`%-${t}@x.test`}`));
    expect(failuresLeft.map((r) => r.email)).toEqual([`new-${t}@x.test`]);
    const codesLeft = await f.db
      .select({ email: verificationCodes.email })
      .from(verificationCodes)
      .where(sql`${verificationCodes.email} like ${`%-${t}@x.test`}`);
    expect(codesLeft.map((r) => r.email).sort()).toEqual([`live-${t}@x.test`, `recent-${t}@x.test`]);
    const resetsLeft = await f.db
      .select({ tokenHash: passwordResets.tokenHash })
      .from(passwordResets)
      .where(sql`${passwordResets.tokenHash} like ${`%-${t}`}`);
    expect(resetsLeft.map((r) => r.tokenHash)).toEqual([`recent-${t}`]);
    const mailLeft = await f.db
      .select({ subject: outbox.subject })
      .from(outbox)
      .where(sql`${outbox.to} like ${`%-${t}@x.test`}`);
    expect(mailLeft.map((r) => r.subject).sort()).toEqual(['failed-month', 'sent-recent']);
    const uploadsLeft = await f.db
      .select({ key: uploads.key })
      .from(uploads)
      .where(inArray(uploads.key, [`pending-old-${t}.png`, `pending-new-${t}.png`, `claimed-old-${t}.png`]));
    expect(uploadsLeft.map((r) => r.key).sort()).toEqual([`claimed-old-${t}.png`, `pending-new-${t}.png`]);
  });

  it('deletes a backlog in bounded batches until none is left, and stops between batches when told', async () => {
    const tenantId = f.t.tenant.id;
    const ip = `192.0.2.${10 + Math.floor(Math.random() * 200)}`;
    const backlog = Array.from({ length: 25 }, (_, i) => ({
      tenantId,
      email: `backlog-${i}@x.test`,
      ip,
      createdAt: ago(HOUR),
    }));
    await f.db.insert(loginFailures).values(backlog);
    const left = async () =>
      (
        await f.db
          .select({ email: loginFailures.email })
          .from(loginFailures)
          .where(and(eq(loginFailures.tenantId, tenantId), eq(loginFailures.ip, ip)))
      ).length;

    const stopped = new AbortController();
    stopped.abort();
    expect(await sweepLoginFailures(f.db, { batch: 10, signal: stopped.signal })).toBe(0);
    expect(await left()).toBe(25);

    const statements = vi.spyOn(f.db, 'execute');
    try {
      expect(await sweepLoginFailures(f.db, { batch: 10 })).toBeGreaterThanOrEqual(25);
      // 10, 10, 5: three statements, each bounded.
      expect(statements).toHaveBeenCalledTimes(3);
    } finally {
      statements.mockRestore();
    }
    expect(await left()).toBe(0);
  });
});

describe('one pass at a time', () => {
  const others: Database[] = [];
  afterAll(async () => {
    for (const database of others) await database.close();
  });
  /** Another process's handle on the same database: its own pool on PostgreSQL; PGlite has one session. */
  async function secondHandle(): Promise<Database> {
    if (!onPostgres) return f.ctx.database;
    const database = await openDatabase({ url: await ownDatabaseUrl() });
    others.push(database);
    return database;
  }

  it('runs one of two passes started together on one database; the other skips', async () => {
    let running = 0;
    let most = 0;
    const slow: Sweep[] = [
      {
        name: 'slow',
        run: async () => {
          running++;
          most = Math.max(most, running);
          await sleep(300);
          running--;
          return 0;
        },
      },
    ];
    // Whatever pass the app started on its own is over before the race.
    await passNow();
    const results = await Promise.all([
      runHousekeeping(f.ctx.database, slow),
      runHousekeeping(await secondHandle(), slow),
    ]);
    expect(results.filter((r) => r !== null)).toEqual([{ slow: 0 }]);
    expect(results.filter((r) => r === null)).toHaveLength(1);
    expect(most).toBe(1);
  });

  it("schedules a pass on an unref'd timer that the app clears on close", async () => {
    const setSpy = vi.spyOn(globalThis, 'setInterval');
    const clearSpy = vi.spyOn(globalThis, 'clearInterval');
    try {
      const app = await buildApp({
        config: testConfig({ DATA_DIR: f.ctx.app.config.DATA_DIR }),
        database: await secondHandle(),
        mailer: null,
        serveWeb: false,
      });
      await app.ready();
      const call = setSpy.mock.calls.findIndex((args) => args[1] === HOUSEKEEPING_EVERY_MS);
      expect(call).toBeGreaterThanOrEqual(0);
      const timer = setSpy.mock.results[call]?.value as NodeJS.Timeout;
      expect(timer.hasRef()).toBe(false);
      await app.close();
      expect(clearSpy).toHaveBeenCalledWith(timer);
    } finally {
      setSpy.mockRestore();
      clearSpy.mockRestore();
    }
  });
});
