import { constants, publicEncrypt } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { loginFailures, sessions, users, verificationCodes } from '../src/db/schema.ts';
import { sha256Hex } from '../src/lib/crypto.ts';
import { updateSettings } from '../src/modules/site/service.ts';
import { useTestApp } from './fixture.ts';
import {
  addUser,
  allowNewCode,
  badFields,
  call,
  codeIn,
  fieldMessage,
  lastMailTo,
  signIn,
  signInAs,
} from './helpers.ts';

const f = useTestApp();

const LOGIN_FAILED_EN = 'Wrong e-mail, password or code';
const LOGIN_FAILED_ZH = '邮箱、密码或验证码错误';

async function mailedCode(email: string): Promise<string> {
  await allowNewCode(f.ctx, f.t.tenant.id, email);
  const res = await call(f.ctx, 'POST', '/api/admin/auth/getVerificationCode', { email }, { host: f.t.host });
  expect(res.json().code).toBe(200);
  return codeIn((await lastMailTo(f.ctx, f.t.tenant.id, email))?.text);
}

/** A code for this address planted straight in the table, for accounts that get no mail. */
async function plantCode(email: string, code = '246810') {
  await f.db.insert(verificationCodes).values({
    tenantId: f.t.tenant.id,
    email,
    purpose: 'login',
    codeHash: sha256Hex(`${email}:${code}`),
    expiresAt: new Date(Date.now() + 600_000),
  });
  return code;
}

const login = (body: object, language: 'zh-CN' | 'en-US' = 'en-US', url = '/api/admin/auth/login') =>
  call(f.ctx, 'POST', url, body, { host: f.t.host, language });

const sessionsOf = (userId: number) =>
  f.db
    .select()
    .from(sessions)
    .where(and(eq(sessions.tenantId, f.t.tenant.id), eq(sessions.userId, userId)));

describe('sign-in', () => {
  it('answers a token, keeps only its hash, and records the sign-in time', async () => {
    const { email, id } = await addUser(f.ctx, f.t);
    const code = await mailedCode(email);
    const res = await login({ email, password: sha256Hex(f.t.password), code });
    expect(res.json()).toMatchObject({ code: 200, msg: 'Done' });
    const token = res.json().data.token as string;
    expect(token.length).toBeGreaterThanOrEqual(40);
    const [session] = await sessionsOf(id);
    expect(session?.tokenHash).toBe(sha256Hex(token));
    expect(session?.revokedAt).toBeNull();
    expect(session?.expiresAt.getTime()).toBeGreaterThan(Date.now() + 6 * 24 * 3_600_000);
    const [user] = await f.db
      .select()
      .from(users)
      .where(and(eq(users.tenantId, f.t.tenant.id), eq(users.id, id)));
    expect(user?.lastLoginAt).toBeInstanceOf(Date);
  });

  it('takes the e-mail in any case and with spaces around it', async () => {
    const { email } = await addUser(f.ctx, f.t);
    const code = await mailedCode(email);
    const res = await login({ email: `  ${email.toUpperCase()} `, password: sha256Hex(f.t.password), code });
    expect(res.json().code).toBe(200);
  });

  it('signs in on the short path /api/login too', async () => {
    const { email } = await addUser(f.ctx, f.t);
    const code = await mailedCode(email);
    const res = await login({ email, password: sha256Hex(f.t.password), code }, 'en-US', '/api/login');
    expect(res.json().code).toBe(200);
    expect(res.json().data.token).toEqual(expect.any(String));
  });

  it('gives the same answer for an unknown e-mail as for a wrong password', async () => {
    const { email } = await addUser(f.ctx, f.t);
    const code = await mailedCode(email);
    for (const language of ['en-US', 'zh-CN'] as const) {
      const wrongPassword = await login({ email, password: sha256Hex('not-the-password'), code }, language);
      const unknown = await login(
        { email: `ghost-${email}`, password: sha256Hex(f.t.password), code },
        language,
      );
      expect(wrongPassword.statusCode).toBe(400);
      expect(unknown.statusCode).toBe(wrongPassword.statusCode);
      expect(unknown.json()).toEqual(wrongPassword.json());
      expect(unknown.json().msg).toBe(language === 'en-US' ? LOGIN_FAILED_EN : LOGIN_FAILED_ZH);
    }
    // The code survived the wrong passwords.
    expect((await login({ email, password: sha256Hex(f.t.password), code })).json().code).toBe(200);
  });

  it('names each missing or malformed field', async () => {
    const empty = await login({}, 'en-US');
    expect(empty.statusCode).toBe(400);
    expect(badFields(empty).sort()).toEqual(['code', 'email', 'password']);
    expect(fieldMessage(empty, 'email')).toBe('E-mail is required');
    const bad = await login({ email: 'x@y', password: 'plain-text', code: '12ab' }, 'zh-CN');
    expect(badFields(bad).sort()).toEqual(['code', 'email', 'password']);
    expect(fieldMessage(bad, 'code')).toBe('请输入 6 位数字验证码');
    expect(fieldMessage(bad, 'password')).toBe('密码格式不正确');
  });

  it('locks the address from this IP after ten failures, even for the right password and code', async () => {
    const { email } = await addUser(f.ctx, f.t);
    const code = await mailedCode(email);
    for (let i = 0; i < 10; i++) {
      const res = await login({ email, password: sha256Hex(`wrong-${i}`), code });
      expect(res.json().msg).toBe(LOGIN_FAILED_EN);
    }
    const locked = await login({ email, password: sha256Hex(f.t.password), code });
    expect(locked.statusCode).toBe(429);
    expect(locked.json()).toMatchObject({
      code: 429,
      msg: 'Too many failed sign-ins, please try again in 15 minutes',
    });
    const lockedZh = await login({ email, password: sha256Hex(f.t.password), code }, 'zh-CN');
    expect(lockedZh.json().msg).toBe('登录失败次数过多,请 15 分钟后再试');

    // Fifteen minutes later the address opens again, and the code was not spent meanwhile.
    await f.db
      .update(loginFailures)
      .set({ createdAt: sql`${loginFailures.createdAt} - interval '16 minutes'` })
      .where(and(eq(loginFailures.tenantId, f.t.tenant.id), eq(loginFailures.email, email)));
    expect((await login({ email, password: sha256Hex(f.t.password), code })).json().code).toBe(200);
  });

  it('locks an unknown address the same way, so the lock reveals nothing', async () => {
    const email = `nobody-${Date.now()}@${f.t.tenant.code}.example.com`;
    for (let i = 0; i < 10; i++) await login({ email, password: sha256Hex('x'), code: '123456' });
    const locked = await login({ email, password: sha256Hex('x'), code: '123456' });
    expect(locked.json().code).toBe(429);
  });

  it('locks the address from this IP even when the failures arrive all at once', async () => {
    const { email } = await addUser(f.ctx, f.t);
    const tries = await Promise.all(
      Array.from({ length: 16 }, (_, i) => login({ email, password: sha256Hex(`w${i}`), code: '123456' })),
    );
    const answers = tries.map((r) => r.json().code);
    // No more than ten guesses at the password were judged.
    expect(answers.filter((c) => c === 400).length).toBeLessThanOrEqual(10);
    expect(answers.filter((c) => c === 429).length).toBeGreaterThanOrEqual(6);
  });

  it('refuses a disabled account even with the right password and code, and opens no session', async () => {
    const { email, id } = await addUser(f.ctx, f.t);
    const code = await plantCode(email);
    await f.db
      .update(users)
      .set({ enabled: false })
      .where(and(eq(users.tenantId, f.t.tenant.id), eq(users.id, id)));
    const res = await login({ email, password: sha256Hex(f.t.password), code });
    // A state that does not allow the action (409), not a missing grant (401 would send the client to /401).
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe(409);
    expect(res.json().msg).toBe('This account is disabled, please contact the administrator');
    expect(res.json().data).toBeNull();
    expect(await sessionsOf(id)).toHaveLength(0);
  });
});

describe('encrypted sign-in', () => {
  it('hands out one RSA public key', async () => {
    const a = await call(f.ctx, 'POST', '/api/publicKey', {}, { host: f.t.host });
    const b = await call(f.ctx, 'POST', '/api/publicKey', undefined, { host: f.t.host });
    expect(a.json().code).toBe(200);
    expect(a.json().data.publicKey).toMatch(/^-----BEGIN PUBLIC KEY-----/);
    expect(a.json().data.mockServer).toBe(false);
    expect(b.json().data.publicKey).toBe(a.json().data.publicKey);
  });

  it('signs in with the payload encrypted under the public key and sent as param', async () => {
    const { email, id } = await addUser(f.ctx, f.t);
    const code = await mailedCode(email);
    const key = (await call(f.ctx, 'POST', '/api/publicKey', {}, { host: f.t.host })).json().data.publicKey;
    const param = publicEncrypt(
      { key, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
      Buffer.from(JSON.stringify({ email, password: sha256Hex(f.t.password), code })),
    ).toString('base64');
    const res = await login({ param });
    expect(res.json().code).toBe(200);
    const [session] = await sessionsOf(id);
    expect(session?.tokenHash).toBe(sha256Hex(res.json().data.token));
  });

  it('names the bad field inside an encrypted payload', async () => {
    const key = (await call(f.ctx, 'POST', '/api/publicKey', {}, { host: f.t.host })).json().data.publicKey;
    const param = publicEncrypt(
      { key, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
      Buffer.from(JSON.stringify({ email: 'broken', password: sha256Hex('x'), code: '123456' })),
    ).toString('base64');
    const res = await login({ param });
    expect(res.statusCode).toBe(400);
    expect(badFields(res)).toEqual(['email']);
  });

  it('refuses a param that does not decrypt, with the decrypt message', async () => {
    const en = await login({ param: 'bm90IGVuY3J5cHRlZA==' }, 'en-US');
    expect(en.statusCode).toBe(400);
    expect(en.json().code).toBe(400);
    expect(en.json().msg).toBe('The sign-in data could not be decrypted, please reload the page');
    expect(badFields(en)).toEqual(['param']);
    const zh = await login({ param: 'garbage!!' }, 'zh-CN');
    expect(zh.json().msg).toBe('登录数据解密失败,请刷新页面后重试');
  });
});

describe('session', () => {
  it('opens the user info on both info paths', async () => {
    const token = await signInAs(f.ctx, f.t, 'agent');
    for (const url of ['/api/admin/auth/getInfo', '/api/admin/admin/info']) {
      const res = await call(f.ctx, 'POST', url, {}, { host: f.t.host, token });
      expect(res.json().code).toBe(200);
      expect(res.json().data.userInfo).toMatchObject({
        email: f.t.email('agent'),
        company: 'Harbor Freight Agency',
        identity: 'agent',
        language: 'zh-CN',
      });
      expect(res.json().data.language).toBe('zh_CN');
      expect(res.json().data.permissions).toEqual(['agent']);
    }
  });

  it('answers code 300 with no token, a made-up token, or an expired session', async () => {
    const { email, id } = await addUser(f.ctx, f.t);
    const token = await signIn(f.ctx, f.t, email);
    const noToken = await call(f.ctx, 'POST', '/api/admin/auth/getInfo', {}, { host: f.t.host });
    expect(noToken.statusCode).toBe(401);
    expect(noToken.json()).toMatchObject({ code: 300, msg: '登录已失效,请重新登录', data: null });
    const madeUp = await call(
      f.ctx,
      'POST',
      '/api/admin/auth/getInfo',
      {},
      { host: f.t.host, token: 'x'.repeat(43) },
    );
    expect(madeUp.json().code).toBe(300);

    await f.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(and(eq(sessions.tenantId, f.t.tenant.id), eq(sessions.userId, id)));
    const expired = await call(
      f.ctx,
      'POST',
      '/api/admin/auth/getInfo',
      {},
      { host: f.t.host, token, language: 'en-US' },
    );
    expect(expired.json()).toMatchObject({
      code: 300,
      msg: 'Your session has expired, please sign in again',
    });
  });

  it('ends the session on logout, on either path', async () => {
    for (const url of ['/api/logout', '/api/admin/auth/logout']) {
      const { email, id } = await addUser(f.ctx, f.t);
      const token = await signIn(f.ctx, f.t, email);
      const out = await call(f.ctx, 'POST', url, {}, { host: f.t.host, token });
      expect(out.json().code).toBe(200);
      const after = await call(f.ctx, 'POST', '/api/admin/auth/getInfo', {}, { host: f.t.host, token });
      expect(after.json().code).toBe(300);
      const [session] = await sessionsOf(id);
      expect(session?.revokedAt).toBeInstanceOf(Date);
    }
  });

  it('answers code 300 to a logout without a session', async () => {
    const res = await call(f.ctx, 'POST', '/api/logout', {}, { host: f.t.host });
    expect(res.json().code).toBe(300);
  });

  it('switches the saved language, which answers when the request names none', async () => {
    const { email, id } = await addUser(f.ctx, f.t);
    const token = await signIn(f.ctx, f.t, email);
    const res = await call(
      f.ctx,
      'POST',
      '/api/admin/auth/setLocale',
      { locale: 'en', token },
      { host: f.t.host, token, language: null },
    );
    expect(res.json()).toMatchObject({ code: 200, msg: 'Language switched', data: { language: 'en' } });
    const [row] = await f.db
      .select({ locale: users.locale })
      .from(users)
      .where(and(eq(users.tenantId, f.t.tenant.id), eq(users.id, id)));
    expect(row?.locale).toBe('en');
    const info = await call(
      f.ctx,
      'POST',
      '/api/admin/admin/info',
      {},
      { host: f.t.host, token, language: null },
    );
    expect(info.json().data.language).toBe('en');
    expect(info.json().data.userInfo.language).toBe('en-US');
    expect(info.json().msg).toBe('Done');
    // The language the request asks for comes first.
    const asked = await call(
      f.ctx,
      'POST',
      '/api/admin/admin/info',
      {},
      { host: f.t.host, token, language: 'zh-CN' },
    );
    expect(asked.json().msg).toBe('操作成功');

    const back = await call(
      f.ctx,
      'POST',
      '/api/admin/auth/setLocale',
      { locale: 'zh_CN' },
      { host: f.t.host, token, language: null },
    );
    expect(back.json()).toMatchObject({ code: 200, msg: '语言已切换' });
  });

  it('refuses an unknown locale, naming the field', async () => {
    const token = await signInAs(f.ctx, f.t, 'direct');
    const res = await call(
      f.ctx,
      'POST',
      '/api/admin/auth/setLocale',
      { locale: 'fr' },
      { host: f.t.host, token },
    );
    expect(res.statusCode).toBe(400);
    expect(badFields(res)).toEqual(['locale']);
    expect(fieldMessage(res, 'locale')).toBe('语言格式不正确');
  });

  it('answers the quotation config, hiding batch orders for the listed accounts', async () => {
    const { email, id } = await addUser(f.ctx, f.t, { identity: 'customer', role: 'customer' });
    const token = await signIn(f.ctx, f.t, email);
    const shown = await call(
      f.ctx,
      'POST',
      '/api/admin/admin/quotationConfig',
      {},
      { host: f.t.host, token },
    );
    expect(shown.json().data).toMatchObject({ showBatchOrder: true });
    await updateSettings(f.db, f.t.tenant.id, { batchOrderHiddenUserIds: [id] });
    f.ctx.app.forgetTenant(f.t.tenant.code);
    const hidden = await call(
      f.ctx,
      'POST',
      '/api/admin/admin/quotationConfig',
      {},
      { host: f.t.host, token },
    );
    expect(hidden.json().data).toMatchObject({ showBatchOrder: false });
    const info = await call(f.ctx, 'POST', '/api/admin/auth/getInfo', {}, { host: f.t.host, token });
    expect(info.json().data.config).toMatchObject({ showBatchOrder: false });
    await updateSettings(f.db, f.t.tenant.id, { batchOrderHiddenUserIds: [] });
    f.ctx.app.forgetTenant(f.t.tenant.code);
  });

  it('saves the quotation settings of the user, filling the defaults', async () => {
    const { email } = await addUser(f.ctx, f.t, { identity: 'customer', role: 'customer' });
    const token = await signIn(f.ctx, f.t, email);
    const before = await call(
      f.ctx,
      'POST',
      '/api/admin/admin/quotationConfig',
      {},
      { host: f.t.host, token },
    );
    expect(before.json().data.quotation).toEqual({
      defaultLine: 'truck',
      defaultInsurance: false,
      defaultPickupAddressId: null,
      defaultCurrency: 'USD',
      hiddenChannelIds: [],
    });
    const saved = await call(
      f.ctx,
      'POST',
      '/api/express/customer/setQuotationConfig',
      { defaultLine: 'express', defaultInsurance: true },
      { host: f.t.host, token },
    );
    expect(saved.json().code).toBe(200);
    const after = await call(
      f.ctx,
      'POST',
      '/api/admin/admin/quotationConfig',
      {},
      { host: f.t.host, token },
    );
    expect(after.json().data.quotation).toEqual({
      defaultLine: 'express',
      defaultInsurance: true,
      defaultPickupAddressId: null,
      defaultCurrency: 'USD',
      hiddenChannelIds: [],
    });
    const bad = await call(
      f.ctx,
      'POST',
      '/api/express/customer/setQuotationConfig',
      { defaultCurrency: 'EUR', defaultPickupAddressId: -3 },
      { host: f.t.host, token },
    );
    expect(bad.statusCode).toBe(400);
    expect(badFields(bad).sort()).toEqual(['defaultCurrency', 'defaultPickupAddressId']);
    const anonymous = await call(
      f.ctx,
      'POST',
      '/api/express/customer/setQuotationConfig',
      {},
      { host: f.t.host },
    );
    expect(anonymous.json().code).toBe(300);
  });

  it('lists the registration options without a session', async () => {
    const res = await call(f.ctx, 'POST', '/api/admin/auth/options', undefined, { host: f.t.host });
    expect(res.json().code).toBe(200);
    expect(res.json().data.business.map((b: { value: string }) => b.value)).toEqual(['truck', 'express']);
    expect(res.json().data.transportMethods.map((b: { value: string }) => b.value)).toContain('LTL');
  });
});
