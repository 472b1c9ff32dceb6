import { constants, publicEncrypt } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { testConfig } from '../src/config.ts';
import { rateLimitHits, verificationCodes } from '../src/db/schema.ts';
import { sha256Hex } from '../src/lib/crypto.ts';
import {
  CODE_MAX_PER_HOUR,
  LOGIN_MAX_FAILURES,
  LOGIN_MAX_FAILURES_PER_IP,
} from '../src/modules/auth/service.ts';
import { hit, LIMITS, sweepExpiredHits } from '../src/modules/limits/service.ts';
import { useTestApp } from './fixture.ts';
import { addUser, type CallOptions, call, codeIn, lastMailTo } from './helpers.ts';

const f = useTestApp({ app: { config: { RATE_LIMIT_SCALE: 1 } } });

const publicCall = (ip: string, language: CallOptions['language'] = 'zh-CN') =>
  call(f.ctx, 'POST', '/api/admin/auth/options', {}, { host: f.t.host, ip, language });

/** Calls `n` times from `ip`, a few at a time as a browser would; answers the HTTP statuses. */
async function burst(n: number, send: (i: number) => Promise<{ statusCode: number }>) {
  const statuses: number[] = [];
  for (let i = 0; i < n; i += 20) {
    const batch = Array.from({ length: Math.min(20, n - i) }, (_, j) => send(i + j));
    for (const res of await Promise.all(batch)) statuses.push(res.statusCode);
  }
  return statuses;
}

describe('per-IP limit of public calls', () => {
  it('answers 429 with Retry-After and a translated message past the limit, in both languages', async () => {
    const ip = '198.51.100.10';
    const statuses = await burst(LIMITS.publicPerIp.max, () => publicCall(ip));
    expect(statuses.every((s) => s === 200)).toBe(true);

    const zh = await publicCall(ip, 'zh-CN');
    expect(zh.statusCode).toBe(429);
    expect(zh.json()).toEqual({ code: 429, msg: '操作过于频繁,请稍后再试', data: null });
    const wait = Number(zh.headers['retry-after']);
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(LIMITS.publicPerIp.windowMs / 1000);

    const en = await publicCall(ip, 'en-US');
    expect(en.statusCode).toBe(429);
    expect(en.json()).toEqual({ code: 429, msg: 'Too many requests, please try again later', data: null });
    expect(en.headers['retry-after']).toBeDefined();
  });

  it('leaves another IP unaffected', async () => {
    const res = await publicCall('198.51.100.11');
    expect(res.statusCode).toBe(200);
    expect(res.json().code).toBe(200);
  });

  it('does not count calls made with a session', async () => {
    const ip = '198.51.100.10';
    // Already past the public limit: a signed-in call from the same address is not held up by it.
    const res = await call(f.ctx, 'POST', '/api/admin/auth/getInfo', {}, { host: f.t.host, ip });
    expect(res.statusCode).toBe(401);
  });

  describe('two processes on one database', () => {
    let second: FastifyInstance;
    beforeAll(async () => {
      second = await buildApp({
        config: testConfig({ RATE_LIMIT_SCALE: 1 }),
        database: f.ctx.database,
        mailer: null,
        serveWeb: false,
      });
      await second.ready();
    });
    afterAll(async () => {
      await second.close();
    });

    it('share one count per IP', async () => {
      const ip = '198.51.100.12';
      const half = LIMITS.publicPerIp.max / 2;
      const viaSecond = (language: string) =>
        second.inject({
          method: 'POST',
          url: '/api/admin/auth/options',
          headers: { host: f.t.host, 'accept-language': language },
          remoteAddress: ip,
          payload: {},
        });
      expect((await burst(half, () => publicCall(ip))).every((s) => s === 200)).toBe(true);
      expect((await burst(half, () => viaSecond('zh-CN'))).every((s) => s === 200)).toBe(true);
      // Each process alone has seen half the limit; together they have seen all of it.
      expect((await publicCall(ip)).statusCode).toBe(429);
      const refused = await viaSecond('en-US');
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toMatchObject({ code: 429, msg: 'Too many requests, please try again later' });
    });
  });
});

const LOCKED_EN = 'Too many failed sign-ins, please try again in 15 minutes';
const FAILED_EN = 'Wrong e-mail, password or code';

const signIn = (ip: string, body: { email: string; password: string; code: string }) =>
  call(
    f.ctx,
    'POST',
    '/api/admin/auth/login',
    { ...body, password: sha256Hex(body.password) },
    { host: f.t.host, ip, language: 'en-US' },
  );

/** Asks for a sign-in code from `ip` and reads it from the outbox. */
async function freshCode(ip: string, email: string) {
  const res = await call(
    f.ctx,
    'POST',
    '/api/admin/auth/getVerificationCode',
    { email },
    { host: f.t.host, ip, language: 'en-US' },
  );
  expect(res.json()).toMatchObject({ code: 200 });
  return codeIn((await lastMailTo(f.ctx, f.t.tenant.id, email))?.text);
}

describe('sign-in lock', () => {
  it('locks the guessing IP for that address, while the owner signs in from elsewhere', async () => {
    const owner = await addUser(f.ctx, f.t);
    const attacker = '203.0.113.20';
    for (let i = 0; i < LOGIN_MAX_FAILURES; i++) {
      const res = await signIn(attacker, { email: owner.email, password: `guess-${i}`, code: '123456' });
      expect(res.json().msg).toBe(FAILED_EN);
    }
    const locked = await signIn(attacker, { email: owner.email, password: `guess-x`, code: '123456' });
    expect(locked.statusCode).toBe(429);
    expect(locked.json()).toEqual({ code: 429, msg: LOCKED_EN, data: null });
    const wait = Number(locked.headers['retry-after']);
    expect(wait).toBeGreaterThan(14 * 60);
    expect(wait).toBeLessThanOrEqual(15 * 60);

    // The owner, elsewhere, gets a fresh code and signs in with the right password.
    const home = '192.0.2.20';
    const code = await freshCode(home, owner.email);
    const ok = await signIn(home, { email: owner.email, password: f.t.password, code });
    expect(ok.json()).toMatchObject({ code: 200 });
    expect(ok.json().data.token).toBeTruthy();

    // The attacker's IP stays locked for that address, right password or not.
    const still = await signIn(attacker, { email: owner.email, password: f.t.password, code });
    expect(still.json().code).toBe(429);
  });

  it('counts encrypted sign-ins by the address inside them', async () => {
    const owner = await addUser(f.ctx, f.t);
    const attacker = '203.0.113.22';
    const key = (await call(f.ctx, 'POST', '/api/publicKey', {}, { host: f.t.host, ip: attacker })).json()
      .data.publicKey as string;
    const sealed = (password: string) =>
      publicEncrypt(
        { key, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
        Buffer.from(JSON.stringify({ email: owner.email, password: sha256Hex(password), code: '123456' })),
      ).toString('base64');
    const send = (password: string) =>
      call(
        f.ctx,
        'POST',
        '/api/login',
        { param: sealed(password) },
        { host: f.t.host, ip: attacker, language: 'en-US' },
      );
    for (let i = 0; i < LOGIN_MAX_FAILURES; i++)
      expect((await send(`guess-${i}`)).json().msg).toBe(FAILED_EN);
    expect((await send('guess-x')).json()).toMatchObject({ code: 429, msg: LOCKED_EN });
  });

  it('counts an IPv6 network of one subscriber as one client', async () => {
    const owner = await addUser(f.ctx, f.t);
    for (let i = 0; i < LOGIN_MAX_FAILURES; i++) {
      const res = await signIn(`2001:db8:1:2::${(i + 1).toString(16)}`, {
        email: owner.email,
        password: `guess-${i}`,
        code: '123456',
      });
      expect(res.json().msg).toBe(FAILED_EN);
    }
    const locked = await signIn('2001:db8:1:2:ffff::1', {
      email: owner.email,
      password: 'x',
      code: '123456',
    });
    expect(locked.json().code).toBe(429);
    const code = await freshCode('2001:db8:9::1', owner.email);
    expect(
      (await signIn('2001:db8:9::1', { email: owner.email, password: f.t.password, code })).json().code,
    ).toBe(200);
  });

  it('locks an IP that fails over many addresses, for every address, and no other IP', async () => {
    const attacker = '203.0.113.21';
    const owner = await addUser(f.ctx, f.t);
    for (let i = 0; i < LOGIN_MAX_FAILURES_PER_IP; i++) {
      const email = `nobody-${i}@${f.t.tenant.code}.example.com`;
      const res = await signIn(attacker, { email, password: 'guess', code: '123456' });
      expect(res.json().msg, `attempt ${i}`).toBe(FAILED_EN);
    }
    const locked = await signIn(attacker, { email: owner.email, password: 'guess', code: '123456' });
    expect(locked.json()).toMatchObject({ code: 429, msg: LOCKED_EN });

    const code = await freshCode('192.0.2.21', owner.email);
    const ok = await signIn('192.0.2.21', { email: owner.email, password: f.t.password, code });
    expect(ok.json()).toMatchObject({ code: 200 });
  });
});

const askCode = (ip: string, email: string, language: CallOptions['language'] = 'en-US') =>
  call(f.ctx, 'POST', '/api/admin/auth/getVerificationCode', { email }, { host: f.t.host, ip, language });

describe('code requests', () => {
  it('limits one IP asking codes for many addresses, and no other IP', async () => {
    const ip = '203.0.113.30';
    for (let i = 0; i < LIMITS.codePerIp.max; i++) {
      const res = await askCode(ip, `list-${i}@${f.t.tenant.code}.example.com`);
      expect(res.json().code, `request ${i}`).toBe(200);
    }
    const refused = await askCode(ip, `list-x@${f.t.tenant.code}.example.com`, 'zh-CN');
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ code: 429, msg: '操作过于频繁,请稍后再试', data: null });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((await askCode('203.0.113.31', `list-x@${f.t.tenant.code}.example.com`)).json().code).toBe(200);
  });

  it('caps the codes mailed to one address from strangers, but never the owner on an IP they signed in from', async () => {
    const owner = await addUser(f.ctx, f.t);
    const home = '192.0.2.40';
    const first = await freshCode(home, owner.email);
    expect(
      (await signIn(home, { email: owner.email, password: f.t.password, code: first })).json().code,
    ).toBe(200);
    // Strangers, each from their own IP, ask codes for the owner's address up to the hourly cap.
    for (let i = 1; i < CODE_MAX_PER_HOUR; i++)
      expect((await askCode(`203.0.113.${100 + i}`, owner.email)).json().code, `stranger ${i}`).toBe(200);
    const bomb = await askCode('203.0.113.99', owner.email);
    expect(bomb.statusCode).toBe(429);
    expect(bomb.json()).toMatchObject({ code: 429, msg: 'Too many codes requested today, please try later' });
    expect(bomb.headers['retry-after']).toBeDefined();

    // A minute on, the owner at home still gets a fresh code and signs in with it.
    await f.db
      .update(verificationCodes)
      .set({ createdAt: sql`${verificationCodes.createdAt} - interval '61 seconds'` })
      .where(and(eq(verificationCodes.tenantId, f.t.tenant.id), eq(verificationCodes.email, owner.email)));
    const code = await freshCode(home, owner.email);
    expect(code).not.toBe(first);
    expect((await signIn(home, { email: owner.email, password: f.t.password, code })).json().code).toBe(200);
  });

  it('makes a stranger wait a minute between codes for one address without holding up the owner', async () => {
    const owner = await addUser(f.ctx, f.t);
    expect((await askCode('203.0.113.50', owner.email)).json().code).toBe(200);
    const again = await askCode('203.0.113.50', owner.email);
    expect(again.json().code).toBe(429);
    expect(Number(again.headers['retry-after'])).toBeGreaterThan(0);
    // The owner, elsewhere, is not made to wait for the stranger's code.
    const code = await freshCode('192.0.2.50', owner.email);
    expect(
      (await signIn('192.0.2.50', { email: owner.email, password: f.t.password, code })).json().code,
    ).toBe(200);
  });
});

describe('registration', () => {
  it('counts both registration paths as one call per IP', async () => {
    const ip = '203.0.113.60';
    const attempt = (i: number) =>
      call(
        f.ctx,
        'POST',
        i % 2 === 0 ? '/api/register' : '/api/admin/auth/register',
        { email: `reg-${i}@${f.t.tenant.code}.example.com`, code: '000000' },
        { host: f.t.host, ip, language: 'en-US' },
      );
    for (let i = 0; i < LIMITS.registerPerIp.max; i++)
      expect((await attempt(i)).statusCode, `try ${i}`).toBe(400);
    const refused = await attempt(LIMITS.registerPerIp.max);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ code: 429, msg: 'Too many requests, please try again later' });
  });
});

describe('invitation checks', () => {
  const check = (ip: string) =>
    call(
      f.ctx,
      'POST',
      '/api/admin/auth/checkInvitation',
      { invitationCode: 'GUESS000' },
      { host: f.t.host, ip, language: 'en-US' },
    );

  it('answers twenty checks in ten minutes per client, counted in the shared store, and no other client', async () => {
    const ip = '203.0.113.70';
    expect(LIMITS.invitationPerIp).toEqual({ max: 20, windowMs: 10 * 60_000 });
    for (let i = 0; i < 20; i++) expect((await check(ip)).json().code, `check ${i}`).toBe(200);
    const refused = await check(ip);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((await check('203.0.113.71')).json().code).toBe(200);
    // One window later the client may ask again.
    await f.db
      .update(rateLimitHits)
      .set({ windowStart: new Date(Date.now() - 11 * 60_000) })
      .where(sql`${rateLimitHits.key} like ${'%checkInvitation:203.0.113.70'}`);
    expect((await check(ip)).json().code).toBe(200);
  });

  it('counts an IPv6 network of one subscriber as one client', async () => {
    const answers = [];
    for (let i = 0; i < 21; i++)
      answers.push((await check(`2001:db8:7:7::${(i + 1).toString(16)}`)).statusCode);
    expect(answers.slice(0, 20).every((s) => s === 200)).toBe(true);
    expect(answers[20]).toBe(429);
  });
});

describe('the store', () => {
  it('counts in a fixed window and starts a new one once it has passed', async () => {
    const key = 'test:window';
    expect((await hit(f.db, key, 60_000)).count).toBe(1);
    const second = await hit(f.db, key, 60_000);
    expect(second.count).toBe(2);
    expect(second.ttlMs).toBeGreaterThan(50_000);
    expect(second.ttlMs).toBeLessThanOrEqual(60_000);
    await f.db
      .update(rateLimitHits)
      .set({ windowStart: new Date(Date.now() - 61_000) })
      .where(eq(rateLimitHits.key, key));
    expect((await hit(f.db, key, 60_000)).count).toBe(1);
  });

  it('counts parallel hits once each', async () => {
    const results = await Promise.all(Array.from({ length: 20 }, () => hit(f.db, 'test:parallel', 60_000)));
    expect(results.map((r) => r.count).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 20 }, (_, i) => i + 1),
    );
  });

  it('sweeps rows whose window has long passed and keeps live ones', async () => {
    await hit(f.db, 'test:old', 60_000);
    await f.db
      .update(rateLimitHits)
      .set({ windowStart: new Date(Date.now() - 2 * 3_600_000) })
      .where(eq(rateLimitHits.key, 'test:old'));
    await hit(f.db, 'test:live', 60_000);
    expect(await sweepExpiredHits(f.db)).toBeGreaterThanOrEqual(1);
    const keys = (await f.db.select({ key: rateLimitHits.key }).from(rateLimitHits)).map((r) => r.key);
    expect(keys).not.toContain('test:old');
    expect(keys).toContain('test:live');
  });
});
