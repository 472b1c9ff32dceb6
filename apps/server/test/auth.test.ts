import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../src/lib/crypto.ts';
import { useTestApp } from './fixture.ts';
import { call, codeIn, lastMailTo, signIn } from './helpers.ts';

const f = useTestApp();

describe('sign-in', () => {
  it('signs in with password and the e-mailed code, and the token opens the user info', async () => {
    const token = await signIn(f.ctx, f.t, f.t.email('admin'));
    const info = await call(f.ctx, 'POST', '/api/admin/admin/info', {}, { host: f.t.host, token });
    expect(info.json().code).toBe(200);
    expect(info.json().data.userInfo.email).toBe(f.t.email('admin'));
    expect(info.json().data.permissions).toContain('admin');
  });

  it('refuses a wrong code with the same message as a wrong password, and spends nothing', async () => {
    const email = f.t.email('editor');
    await call(f.ctx, 'POST', '/api/admin/auth/getVerificationCode', { email }, { host: f.t.host });
    const code = codeIn((await lastMailTo(f.ctx, f.t.tenant.id, email))?.text);
    const wrongCode = code === '000000' ? '111111' : '000000';
    const badCode = await call(
      f.ctx,
      'POST',
      '/api/admin/auth/login',
      { email, password: sha256Hex(f.t.password), code: wrongCode },
      { host: f.t.host, language: 'en-US' },
    );
    const badPassword = await call(
      f.ctx,
      'POST',
      '/api/admin/auth/login',
      { email, password: sha256Hex('nope-nope'), code },
      { host: f.t.host, language: 'en-US' },
    );
    expect(badCode.json().msg).toBe('Wrong e-mail, password or code');
    expect(badPassword.json().msg).toBe(badCode.json().msg);
    const good = await call(
      f.ctx,
      'POST',
      '/api/admin/auth/login',
      { email, password: sha256Hex(f.t.password), code },
      { host: f.t.host },
    );
    expect(good.json().code).toBe(200);
  });

  it('names the bad field in the language of the request', async () => {
    const res = await call(
      f.ctx,
      'POST',
      '/api/admin/auth/getVerificationCode',
      { email: 'not-an-email' },
      { host: f.t.host, language: 'en-US' },
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe(400);
    expect(res.json().data.fields).toEqual([
      { field: 'email', message: 'Please enter a valid e-mail address' },
    ]);
  });

  it('answers code 300 without a session', async () => {
    const res = await call(f.ctx, 'POST', '/api/menu/navigate', {}, { host: f.t.host });
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe(300);
  });
});
