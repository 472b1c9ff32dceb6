import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { outbox, passwordResets, sessions, users } from '../src/db/schema.ts';
import { sha256Hex } from '../src/lib/crypto.ts';
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
} from './helpers.ts';

const f = useTestApp();

const info = (token: string) => call(f.ctx, 'POST', '/api/admin/auth/getInfo', {}, { host: f.t.host, token });

/** Signs in again (a second device), past the resend limit. */
async function signInAgain(email: string, password = f.t.password) {
  await allowNewCode(f.ctx, f.t.tenant.id, email);
  return signIn(f.ctx, f.t, email, password);
}

async function tryLogin(email: string, password: string) {
  await allowNewCode(f.ctx, f.t.tenant.id, email);
  await call(f.ctx, 'POST', '/api/admin/auth/getVerificationCode', { email }, { host: f.t.host });
  const code = codeIn((await lastMailTo(f.ctx, f.t.tenant.id, email))?.text);
  return call(
    f.ctx,
    'POST',
    '/api/admin/auth/login',
    { email, password: sha256Hex(password), code },
    { host: f.t.host },
  );
}

const userRow = async (id: number) => {
  const [row] = await f.db
    .select()
    .from(users)
    .where(and(eq(users.tenantId, f.t.tenant.id), eq(users.id, id)));
  return row;
};

describe('password change', () => {
  const change = (token: string, body: object, language: 'zh-CN' | 'en-US' = 'zh-CN') =>
    call(f.ctx, 'POST', '/api/admin/admin/changePassword', body, { host: f.t.host, token, language });

  it('ends the other sessions but keeps the current one, and the new password signs in', async () => {
    const { email, id } = await addUser(f.ctx, f.t);
    const current = await signIn(f.ctx, f.t, email);
    const other = await signInAgain(email);
    const res = await change(current, {
      oldPassword: f.t.password,
      password: 'New-secret-1',
      confirmPassword: 'New-secret-1',
    });
    expect(res.json()).toMatchObject({ code: 200, msg: '密码已修改,其他设备已退出登录' });
    expect((await info(current)).json().code).toBe(200);
    expect((await info(other)).json().code).toBe(300);
    expect((await userRow(id))?.passwordChangedAt).toBeInstanceOf(Date);

    expect((await tryLogin(email, f.t.password)).json().code).toBe(400);
    expect((await tryLogin(email, 'New-secret-1')).json().code).toBe(200);
  });

  it('refuses a wrong current password, naming it, and changes nothing', async () => {
    const { email, id } = await addUser(f.ctx, f.t);
    const token = await signIn(f.ctx, f.t, email);
    const before = (await userRow(id))?.passwordHash;
    const res = await change(
      token,
      { oldPassword: 'not-it', password: 'New-secret-1', confirmPassword: 'New-secret-1' },
      'en-US',
    );
    expect(res.statusCode).toBe(400);
    expect(badFields(res)).toEqual(['oldPassword']);
    expect(fieldMessage(res, 'oldPassword')).toBe('The current password is wrong');
    expect((await userRow(id))?.passwordHash).toBe(before);
  });

  it('names a short password and a confirmation that does not match', async () => {
    const { email } = await addUser(f.ctx, f.t);
    const token = await signIn(f.ctx, f.t, email);
    const short = await change(token, {
      oldPassword: f.t.password,
      password: '12345',
      confirmPassword: '12345',
    });
    expect(badFields(short)).toEqual(['password']);
    expect(fieldMessage(short, 'password')).toBe('密码至少 6 位');
    const mismatch = await change(
      token,
      { oldPassword: f.t.password, password: '123456', confirmPassword: '1234567' },
      'en-US',
    );
    expect(badFields(mismatch)).toEqual(['confirmPassword']);
    expect(fieldMessage(mismatch, 'confirmPassword')).toBe(
      'Confirm password: The two passwords do not match',
    );
  });

  it('answers code 300 without a session', async () => {
    const res = await call(
      f.ctx,
      'POST',
      '/api/admin/admin/changePassword',
      { oldPassword: 'x', password: '123456', confirmPassword: '123456' },
      { host: f.t.host },
    );
    expect(res.json().code).toBe(300);
  });
});

describe('password reset by e-mail', () => {
  const retrieve = (body: object, language: 'zh-CN' | 'en-US' = 'zh-CN') =>
    call(f.ctx, 'POST', '/api/admin/auth/retrievePassword', body, { host: f.t.host, language });

  async function resetLink(email: string): Promise<string> {
    const res = await retrieve({ email });
    expect(res.json().code).toBe(200);
    const mail = await lastMailTo(f.ctx, f.t.tenant.id, email);
    const match = /(https?:\/\/\S+\/forgotPassword\?token=([A-Za-z0-9_-]+))/.exec(mail?.text ?? '');
    if (!match?.[2]) throw new Error(`no link in ${mail?.text}`);
    expect(match[1]?.startsWith(`http://${f.t.host}/forgotPassword?token=`)).toBe(true);
    return match[2];
  }

  it('mails a link whose token sets a new password once, and ends every session', async () => {
    const { email, id } = await addUser(f.ctx, f.t);
    const token = await signIn(f.ctx, f.t, email);
    const resetToken = await resetLink(email);
    const [stored] = await f.db
      .select()
      .from(passwordResets)
      .where(and(eq(passwordResets.tenantId, f.t.tenant.id), eq(passwordResets.userId, id)));
    expect(stored?.tokenHash).toBe(sha256Hex(resetToken));

    const done = await retrieve(
      { token: resetToken, password: 'Reset-pass-1', confirmPassword: 'Reset-pass-1' },
      'en-US',
    );
    expect(done.json()).toMatchObject({
      code: 200,
      msg: 'Your password has been reset, please sign in with the new one',
    });
    expect((await info(token)).json().code).toBe(300);
    expect((await tryLogin(email, 'Reset-pass-1')).json().code).toBe(200);

    const again = await retrieve({
      token: resetToken,
      password: 'Other-pass-2',
      confirmPassword: 'Other-pass-2',
    });
    expect(again.statusCode).toBe(400);
    expect(badFields(again)).toEqual(['token']);
    expect(fieldMessage(again, 'token')).toBe('令牌:重置链接无效或已过期');
    expect((await tryLogin(email, 'Reset-pass-1')).json().code).toBe(200);
  });

  it('refuses an expired link', async () => {
    const { email, id } = await addUser(f.ctx, f.t);
    const resetToken = await resetLink(email);
    await f.db
      .update(passwordResets)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(and(eq(passwordResets.tenantId, f.t.tenant.id), eq(passwordResets.userId, id)));
    const res = await retrieve({
      token: resetToken,
      password: 'Reset-pass-1',
      confirmPassword: 'Reset-pass-1',
    });
    expect(badFields(res)).toEqual(['token']);
  });

  it('needs at least six characters and two matching entries, and spends nothing until then', async () => {
    const { email } = await addUser(f.ctx, f.t);
    const resetToken = await resetLink(email);
    const short = await retrieve({ token: resetToken, password: 'abc', confirmPassword: 'abc' });
    expect(short.statusCode).toBe(400);
    expect(badFields(short)).toEqual(['password']);
    expect(fieldMessage(short, 'password')).toBe('密码至少 6 位');
    const mismatch = await retrieve({ token: resetToken, password: 'abcdef', confirmPassword: 'abcdeg' });
    expect(badFields(mismatch)).toEqual(['confirmPassword']);
    expect(fieldMessage(mismatch, 'confirmPassword')).toBe('确认密码:两次输入密码不一致');
    const ok = await retrieve({ token: resetToken, password: 'abcdef', confirmPassword: 'abcdef' });
    expect(ok.json().code).toBe(200);
  });

  it('answers an unknown e-mail exactly like a known one, and mails nothing', async () => {
    const known = await addUser(f.ctx, f.t);
    const unknown = `ghost-${known.id}@${f.t.tenant.code}.example.com`;
    const a = await retrieve({ email: known.email }, 'en-US');
    const b = await retrieve({ email: unknown }, 'en-US');
    expect(b.statusCode).toBe(a.statusCode);
    expect(b.json()).toEqual(a.json());
    expect(a.json().msg).toBe('If the e-mail is registered, a reset link has been sent to it');
    expect(await lastMailTo(f.ctx, f.t.tenant.id, unknown)).toBeUndefined();
  });

  it('answers a known e-mail like an unknown one even past the hourly limit', async () => {
    const known = await addUser(f.ctx, f.t);
    const unknown = `ghost-${known.id}@${f.t.tenant.code}.example.com`;
    for (let i = 0; i < 10; i++) {
      expect((await retrieve({ email: known.email })).json().code).toBe(200);
      await f.ctx.app.afterAnswerSettled();
    }
    const eleventh = await retrieve({ email: known.email });
    const stranger = await retrieve({ email: unknown });
    expect(eleventh.statusCode).toBe(stranger.statusCode);
    expect(eleventh.json()).toEqual(stranger.json());
    await f.ctx.app.afterAnswerSettled();
    const mails = await f.db
      .select()
      .from(outbox)
      .where(and(eq(outbox.tenantId, f.t.tenant.id), eq(outbox.to, known.email)));
    expect(mails).toHaveLength(10);
  });

  it('names a malformed e-mail and a malformed token', async () => {
    const email = await retrieve({ email: 'nope' }, 'en-US');
    expect(email.statusCode).toBe(400);
    expect(badFields(email)).toEqual(['email']);
    expect(fieldMessage(email, 'email')).toBe('Please enter a valid e-mail address');
    const token = await retrieve({ token: 'x', password: 'abcdef', confirmPassword: 'abcdef' });
    expect(badFields(token)).toEqual(['token']);
  });

  it('leaves the sessions of other users alone', async () => {
    const a = await addUser(f.ctx, f.t);
    const b = await addUser(f.ctx, f.t);
    const tokenB = await signIn(f.ctx, f.t, b.email);
    const resetToken = await resetLink(a.email);
    await retrieve({ token: resetToken, password: 'abcdef', confirmPassword: 'abcdef' });
    expect((await info(tokenB)).json().code).toBe(200);
    const live = await f.db
      .select()
      .from(sessions)
      .where(and(eq(sessions.tenantId, f.t.tenant.id), eq(sessions.userId, b.id)));
    expect(live[0]?.revokedAt).toBeNull();
  });
});

describe('profile', () => {
  it('saves name, phone and company', async () => {
    const { email, id } = await addUser(f.ctx, f.t);
    const token = await signIn(f.ctx, f.t, email);
    const res = await call(
      f.ctx,
      'POST',
      '/api/admin/admin/saveProfile',
      { name: 'Wang Wei', phone: '13800138000', company: 'Acme' },
      { host: f.t.host, token },
    );
    expect(res.json().code).toBe(200);
    const row = await userRow(id);
    expect(row).toMatchObject({ name: 'Wang Wei', phone: '13800138000', company: 'Acme' });
    const shown = await info(token);
    expect(shown.json().data.userInfo).toMatchObject({ name: 'Wang Wei', phone: '13800138000' });
  });

  it('names a bad phone and a missing name', async () => {
    const { email } = await addUser(f.ctx, f.t);
    const token = await signIn(f.ctx, f.t, email);
    const res = await call(
      f.ctx,
      'POST',
      '/api/admin/admin/saveProfile',
      { phone: '12345' },
      { host: f.t.host, token, language: 'en-US' },
    );
    expect(res.statusCode).toBe(400);
    expect(badFields(res).sort()).toEqual(['name', 'phone']);
    expect(fieldMessage(res, 'phone')).toBe(
      'Phone: enter a US or Canadian number, a Chinese mobile number, or + and the country code',
    );
    expect(fieldMessage(res, 'name')).toBe('Name is required');
    // With no dial code beside it, a number of the default +1, a Chinese mobile, or one written with
    // its own + and code is a phone number.
    for (const phone of ['(213) 555-0100', '13800138000', '+44 20 7946 0958']) {
      const saved = await call(
        f.ctx,
        'POST',
        '/api/admin/admin/saveProfile',
        { name: 'Pat', phone },
        { host: f.t.host, token, language: 'en-US' },
      );
      expect(saved.json().code, phone).toBe(200);
    }
  });
});
