import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { loginFailures, outbox, sessions, verificationCodes } from '../src/db/schema.ts';
import { sha256Hex } from '../src/lib/crypto.ts';
import { consumeVerificationCode } from '../src/modules/auth/service.ts';
import { useTestApp } from './fixture.ts';
import { addUser, allowNewCode, badFields, call, codeIn, fieldMessage, lastMailTo } from './helpers.ts';

const f = useTestApp();

const requestCode = (email: string, language: 'zh-CN' | 'en-US' = 'zh-CN', purpose?: string) =>
  call(
    f.ctx,
    'POST',
    '/api/admin/auth/getVerificationCode',
    { email, ...(purpose ? { purpose } : {}) },
    { host: f.t.host, language },
  );

const login = (email: string, code: string, password = f.t.password) =>
  call(
    f.ctx,
    'POST',
    '/api/admin/auth/login',
    { email, password: sha256Hex(password), code },
    { host: f.t.host, language: 'en-US' },
  );

const codesOf = (email: string) =>
  f.db
    .select()
    .from(verificationCodes)
    .where(and(eq(verificationCodes.tenantId, f.t.tenant.id), eq(verificationCodes.email, email)));

async function mailedCode(email: string): Promise<string> {
  const res = await requestCode(email);
  expect(res.json().code).toBe(200);
  return codeIn((await lastMailTo(f.ctx, f.t.tenant.id, email))?.text);
}

const otherCode = (code: string) => (code === '123456' ? '654321' : '123456');

describe('verification codes', () => {
  it('mails a six-digit code and stores only its hash', async () => {
    const { email } = await addUser(f.ctx, f.t);
    const res = await requestCode(email, 'en-US');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      code: 200,
      msg: 'The code has been sent, please check your e-mail',
      data: null,
    });
    const mail = await lastMailTo(f.ctx, f.t.tenant.id, email);
    expect(mail?.subject).toContain(f.t.tenant.branding.siteName);
    const code = codeIn(mail?.text);
    expect(code).toMatch(/^\d{6}$/);

    const [row] = await codesOf(email);
    expect(row?.purpose).toBe('login');
    expect(row?.codeHash).not.toContain(code);
    expect(row?.codeHash).toBe(sha256Hex(`${email}:${code}`));
    const ttlMinutes = ((row?.expiresAt.getTime() ?? 0) - Date.now()) / 60_000;
    expect(ttlMinutes).toBeGreaterThan(9);
    expect(ttlMinutes).toBeLessThanOrEqual(10);
  });

  it('answers an unknown address exactly like a known one and mails nothing', async () => {
    const known = await addUser(f.ctx, f.t);
    const unknown = `nobody-${known.id}@${f.t.tenant.code}.example.com`;
    const a = await requestCode(known.email);
    const b = await requestCode(unknown);
    expect(b.statusCode).toBe(a.statusCode);
    expect(b.json()).toEqual(a.json());
    expect(b.json().msg).toBe('验证码已发送,请查收邮件');
    expect(await lastMailTo(f.ctx, f.t.tenant.id, unknown)).toBeUndefined();
    expect(await lastMailTo(f.ctx, f.t.tenant.id, known.email)).toBeDefined();
  });

  it('refuses a second code within 60 seconds with code 429, in the language of the request', async () => {
    const { email } = await addUser(f.ctx, f.t);
    await mailedCode(email);
    const zh = await requestCode(email, 'zh-CN');
    expect(zh.statusCode).toBe(429);
    expect(zh.json().code).toBe(429);
    expect(zh.json().msg).toMatch(/^验证码发送过于频繁,请 \d+ 秒后再试$/);
    const en = await requestCode(email, 'en-US');
    expect(en.json().code).toBe(429);
    expect(en.json().msg).toMatch(/^Codes are sent too often, please try again in \d+ s$/);
    expect(await codesOf(email)).toHaveLength(1);

    // A minute later the next code is sent.
    await f.db
      .update(verificationCodes)
      .set({ createdAt: sql`${verificationCodes.createdAt} - interval '61 seconds'` })
      .where(and(eq(verificationCodes.tenantId, f.t.tenant.id), eq(verificationCodes.email, email)));
    expect((await requestCode(email)).json().code).toBe(200);
    expect(await codesOf(email)).toHaveLength(2);
  });

  it('refuses an eleventh code within the hour', async () => {
    const { email } = await addUser(f.ctx, f.t);
    const twoMinutesAgo = new Date(Date.now() - 120_000);
    await f.db.insert(verificationCodes).values(
      Array.from({ length: 10 }, () => ({
        tenantId: f.t.tenant.id,
        email,
        purpose: 'login' as const,
        codeHash: 'x',
        createdAt: twoMinutesAgo,
        expiresAt: new Date(Date.now() + 60_000),
      })),
    );
    const res = await requestCode(email, 'en-US');
    expect(res.json().code).toBe(429);
    expect(res.json().msg).toBe('Too many codes requested today, please try later');
  });

  it('names a malformed e-mail and an unknown purpose', async () => {
    const res = await requestCode('not-an-email', 'zh-CN', 'sell');
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe(400);
    expect(badFields(res).sort()).toEqual(['email', 'purpose']);
    expect(fieldMessage(res, 'email')).toBe('请输入正确的邮箱地址');
    const missing = await call(f.ctx, 'POST', '/api/admin/auth/getVerificationCode', {}, { host: f.t.host });
    expect(badFields(missing)).toEqual(['email']);
    expect(fieldMessage(missing, 'email')).toBe('邮箱不能为空');
  });

  it('signs in with the mailed code and marks the code used', async () => {
    const { email } = await addUser(f.ctx, f.t);
    const code = await mailedCode(email);
    const res = await login(email, code);
    expect(res.json().code).toBe(200);
    expect(res.json().data.token).toEqual(expect.any(String));
    const [row] = await codesOf(email);
    expect(row?.usedAt).toBeInstanceOf(Date);
  });

  it('refuses a code after five wrong attempts, even the right one', async () => {
    const { email } = await addUser(f.ctx, f.t);
    const code = await mailedCode(email);
    for (let i = 0; i < 5; i++) {
      const wrong = await login(email, otherCode(code));
      expect(wrong.json().code).toBe(400);
      expect(wrong.json().msg).toBe('Wrong e-mail, password or code');
    }
    const [row] = await codesOf(email);
    expect(row?.attempts).toBe(5);
    const right = await login(email, code);
    expect(right.json().code).toBe(400);
    expect(right.json().msg).toBe('Wrong e-mail, password or code');
    expect((await codesOf(email))[0]?.usedAt).toBeNull();
  });

  it('weighs parallel wrong guesses against the same five attempts', async () => {
    const { email } = await addUser(f.ctx, f.t);
    const code = await mailedCode(email);
    const guesses = Array.from({ length: 9 }, (_, i) => String(100000 + i)).filter((g) => g !== code);
    const results = await Promise.all(guesses.map((g) => login(email, g)));
    expect(results.every((r) => r.json().code === 400)).toBe(true);
    const [row] = await codesOf(email);
    // Only five guesses were ever compared with the code.
    expect(row?.attempts).toBe(5);
    expect((await login(email, code)).json().code).toBe(400);
  });

  it('never compares more than five guesses, however many arrive at once', async () => {
    const { email } = await addUser(f.ctx, f.t);
    const code = await mailedCode(email);
    const guesses = Array.from({ length: 20 }, (_, i) => String(200000 + i)).filter((g) => g !== code);
    const outcomes = await Promise.all(
      guesses.map((g) => consumeVerificationCode(f.db, f.t.tenant.id, email, 'login', g)),
    );
    expect(outcomes.every((ok) => ok === false)).toBe(true);
    const [row] = await codesOf(email);
    expect(row?.attempts).toBe(5);
    expect(await consumeVerificationCode(f.db, f.t.tenant.id, email, 'login', code)).toBe(false);
  });

  it('refuses an expired code', async () => {
    const { email } = await addUser(f.ctx, f.t);
    const code = await mailedCode(email);
    await f.db
      .update(verificationCodes)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(and(eq(verificationCodes.tenantId, f.t.tenant.id), eq(verificationCodes.email, email)));
    const res = await login(email, code);
    expect(res.json().code).toBe(400);
    expect(res.json().msg).toBe('Wrong e-mail, password or code');
    expect(res.json().data).toBeNull();
  });

  it('refuses a used code the second time', async () => {
    const { email } = await addUser(f.ctx, f.t);
    const code = await mailedCode(email);
    expect((await login(email, code)).json().code).toBe(200);
    const again = await login(email, code);
    expect(again.json().code).toBe(400);
    expect(again.json().data).toBeNull();
  });

  it('only accepts the newest code of an address', async () => {
    const { email } = await addUser(f.ctx, f.t);
    const first = await mailedCode(email);
    await allowNewCode(f.ctx, f.t.tenant.id, email);
    const second = await mailedCode(email);
    if (first !== second) expect((await login(email, first)).json().code).toBe(400);
    expect((await login(email, second)).json().code).toBe(200);
  });

  it('lets only one of two concurrent sign-ins with the same code through', async () => {
    const { email, id } = await addUser(f.ctx, f.t);
    const code = await mailedCode(email);
    const results = await Promise.all([login(email, code), login(email, code)]);
    const codes = results.map((r) => r.json().code).sort();
    expect(codes).toEqual([200, 400]);
    const live = await f.db
      .select()
      .from(sessions)
      .where(and(eq(sessions.tenantId, f.t.tenant.id), eq(sessions.userId, id)));
    expect(live).toHaveLength(1);
  });

  it('does not mail a sign-in code to a disabled account but answers the same', async () => {
    const { email } = await addUser(f.ctx, f.t);
    await f.db.execute(
      sql`update users set enabled = false where tenant_id = ${f.t.tenant.id} and email = ${email}`,
    );
    const res = await requestCode(email);
    expect(res.json()).toMatchObject({ code: 200, msg: '验证码已发送,请查收邮件' });
    await f.ctx.app.afterAnswerSettled();
    const mails = await f.db
      .select()
      .from(outbox)
      .where(and(eq(outbox.tenantId, f.t.tenant.id), eq(outbox.to, email)));
    expect(mails).toHaveLength(0);
  });

  it('counts a wrong code as a failed sign-in', async () => {
    const { email } = await addUser(f.ctx, f.t);
    const code = await mailedCode(email);
    await login(email, otherCode(code));
    const failures = await f.db
      .select()
      .from(loginFailures)
      .where(and(eq(loginFailures.tenantId, f.t.tenant.id), eq(loginFailures.email, email)));
    expect(failures).toHaveLength(1);
  });
});
