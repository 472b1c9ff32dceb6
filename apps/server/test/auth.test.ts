import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../src/lib/crypto.ts';
import {
  call,
  codeIn,
  createTenant,
  createTestApp,
  lastMailTo,
  signIn,
  type TestContext,
  type TestTenant,
} from './helpers.ts';

let ctx: TestContext;
let t: TestTenant;

beforeAll(async () => {
  ctx = await createTestApp();
  t = await createTenant(ctx);
});
afterAll(() => ctx.close());

describe('sign-in', () => {
  it('signs in with password and the e-mailed code, and the token opens the user info', async () => {
    const token = await signIn(ctx, t, t.email('admin'));
    const info = await call(ctx, 'POST', '/api/admin/admin/info', {}, { host: t.host, token });
    expect(info.json().code).toBe(200);
    expect(info.json().data.userInfo.email).toBe(t.email('admin'));
    expect(info.json().data.permissions).toContain('admin');
  });

  it('refuses a wrong code with the same message as a wrong password, and spends nothing', async () => {
    const email = t.email('editor');
    await call(ctx, 'POST', '/api/admin/auth/getVerificationCode', { email }, { host: t.host });
    const code = codeIn((await lastMailTo(ctx, t.tenant.id, email))?.text);
    const wrongCode = code === '000000' ? '111111' : '000000';
    const badCode = await call(
      ctx,
      'POST',
      '/api/admin/auth/login',
      { email, password: sha256Hex(t.password), code: wrongCode },
      { host: t.host, language: 'en-US' },
    );
    const badPassword = await call(
      ctx,
      'POST',
      '/api/admin/auth/login',
      { email, password: sha256Hex('nope-nope'), code },
      { host: t.host, language: 'en-US' },
    );
    expect(badCode.json().msg).toBe('Wrong e-mail, password or code');
    expect(badPassword.json().msg).toBe(badCode.json().msg);
    const good = await call(
      ctx,
      'POST',
      '/api/admin/auth/login',
      { email, password: sha256Hex(t.password), code },
      { host: t.host },
    );
    expect(good.json().code).toBe(200);
  });

  it('names the bad field in the language of the request', async () => {
    const res = await call(
      ctx,
      'POST',
      '/api/admin/auth/getVerificationCode',
      { email: 'not-an-email' },
      { host: t.host, language: 'en-US' },
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe(400);
    expect(res.json().data.fields).toEqual([
      { field: 'email', message: 'Please enter a valid e-mail address' },
    ]);
  });

  it('answers code 300 without a session', async () => {
    const res = await call(ctx, 'POST', '/api/menu/navigate', {}, { host: t.host });
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe(300);
  });
});
