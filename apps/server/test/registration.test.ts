import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { organisations, uploads, userRoles, users, verificationCodes } from '../src/db/schema.ts';
import { sha256Hex } from '../src/lib/crypto.ts';
import { createInvitationCode } from '../src/modules/customers/service.ts';
import { useTestApp } from './fixture.ts';
import {
  allowNewCode,
  badFields,
  call,
  codeIn,
  fieldMessage,
  lastMailTo,
  signIn,
  uploadFor,
} from './helpers.ts';

const f = useTestApp({ tenants: 2 });

const PLACEHOLDER_LICENCE = '/api/uploads/licence.png';
let counter = 0;
const freshEmail = () => `shipper${++counter}-${Date.now()}@${f.t.tenant.code}.example.com`;

function form(overrides: Record<string, unknown> = {}) {
  return {
    name: 'Lei',
    surname: 'Li',
    dialCode: '86',
    phone: '13800138000',
    wechat: 'lilei',
    company: `Shipper Co ${counter}`,
    address1: '100 Main Street',
    address2: 'Suite 5',
    zipcode: '90001',
    city: 'Los Angeles',
    state: 'CA',
    country: 'US',
    licenseUrl: PLACEHOLDER_LICENCE,
    business: ['truck', 'express'],
    monthlyVolume: '50-200',
    goodsTypes: ['general', 'electronics'],
    transportMethods: ['LTL'],
    preferredLocations: ['Los Angeles', 'Chicago', 'New York'],
    password: 'Shipper-1',
    confirmPassword: 'Shipper-1',
    ...overrides,
  };
}

async function registerCode(email: string, tenant = f.t): Promise<string> {
  await allowNewCode(f.ctx, tenant.tenant.id, email);
  const res = await call(
    f.ctx,
    'POST',
    '/api/admin/auth/getVerificationCode',
    { email, purpose: 'register' },
    { host: tenant.host },
  );
  expect(res.json().code).toBe(200);
  return codeIn((await lastMailTo(f.ctx, tenant.tenant.id, email))?.text);
}

/** Registers; the form's placeholder licence is replaced by one uploaded before sign-in, as the page does. */
const register = async (
  body: Record<string, unknown>,
  url = '/api/admin/auth/register',
  language: 'zh-CN' | 'en-US' = 'zh-CN',
  host = f.t.host,
) =>
  call(
    f.ctx,
    'POST',
    url,
    body.licenseUrl === PLACEHOLDER_LICENCE
      ? { ...body, licenseUrl: await uploadFor(f.ctx, host, undefined) }
      : body,
    { host, language },
  );

async function organisationOfUser(tenantId: number, email: string) {
  const [row] = await f.db
    .select({ user: users, organisation: organisations })
    .from(users)
    .innerJoin(
      organisations,
      and(eq(organisations.tenantId, users.tenantId), eq(organisations.id, users.organisationId)),
    )
    .where(and(eq(users.tenantId, tenantId), eq(users.email, email)));
  return row;
}

async function organisationByName(tenantId: number, name: string) {
  const [row] = await f.db
    .select()
    .from(organisations)
    .where(and(eq(organisations.tenantId, tenantId), eq(organisations.name, name)));
  return row;
}

describe('registration', () => {
  for (const url of ['/api/admin/auth/register', '/api/register']) {
    it(`places a shipper with the agent's invitation code under that agent (${url})`, async () => {
      const email = freshEmail();
      const code = await registerCode(email);
      const res = await register({ ...form(), email, code, invitationCode: 'AGENT001' }, url, 'en-US');
      expect(res.json()).toMatchObject({ code: 200, msg: 'Registration complete, please sign in' });

      const agent = await organisationByName(f.t.tenant.id, 'Harbor Freight Agency');
      const row = await organisationOfUser(f.t.tenant.id, email);
      expect(row?.user.identity).toBe('customer');
      expect(row?.user.id).toBe(res.json().data.id);
      expect(row?.organisation.type).toBe('customer');
      expect(row?.organisation.parentId).toBe(agent?.id);
      expect(row?.organisation.path).toBe(`${agent?.path}${row?.organisation.id}/`);
      expect(row?.organisation.name).toBe(form().company);
      expect(row?.user.profile).toMatchObject({ city: 'Los Angeles', business: ['truck', 'express'] });
      expect(row?.user.profile).not.toHaveProperty('password');
      expect(row?.user.passwordHash).not.toContain('Shipper-1');

      const granted = await f.db
        .select()
        .from(userRoles)
        .where(and(eq(userRoles.tenantId, f.t.tenant.id), eq(userRoles.userId, row?.user.id ?? 0)));
      expect(granted.map((g) => g.roleId)).toEqual([f.t.roleIds.get('customer')]);
    });
  }

  it('gives the new organisation the licence uploaded before sign-in: its shipper and staff load it, nobody else', async () => {
    const licence = await uploadFor(f.ctx, f.t.host, undefined);
    const email = freshEmail();
    const res = await register({ ...form(), email, code: await registerCode(email), licenseUrl: licence });
    expect(res.json().code).toBe(200);
    const row = await organisationOfUser(f.t.tenant.id, email);
    const [file] = await f.db
      .select()
      .from(uploads)
      .where(eq(uploads.key, licence.split('/').pop() as string));
    expect(file).toMatchObject({ record: `organisation:${row?.organisation.id}`, public: false });
    expect(file?.claimedAt).toBeInstanceOf(Date);

    const load = (token?: string) =>
      f.ctx.app.inject({
        method: 'GET',
        url: licence,
        headers: { host: f.t.host, ...(token ? { accesstoken: token } : {}) },
      });
    expect((await load(await signIn(f.ctx, f.t, email, 'Shipper-1'))).statusCode).toBe(200);
    const admin = (await f.signIn('admin')).token;
    expect((await load(admin)).statusCode).toBe(200);
    // Staff reviewing the customer find the licence beside its user.
    const listed = await call(
      f.ctx,
      'POST',
      '/api/admin/customer/users',
      { id: row?.organisation.id },
      { host: f.t.host, token: admin },
    );
    expect(listed.json().data.list).toEqual([expect.objectContaining({ email, licenseUrl: licence })]);
    expect((await load((await f.signIn('customer')).token)).statusCode).toBe(404);
    expect((await load()).json().code).toBe(300);
  });

  it('refuses a licence that is not a pending upload of this site, naming licenseUrl', async () => {
    const used = await uploadFor(f.ctx, f.t.host, undefined);
    const first = freshEmail();
    await register({ ...form(), email: first, code: await registerCode(first), licenseUrl: used });
    for (const licenseUrl of [
      'https://probe.invalid/licence.png',
      used,
      await uploadFor(f.ctx, f.tenant(1).host, undefined),
      await uploadFor(f.ctx, f.t.host, (await f.signIn('customer')).token),
    ]) {
      const email = freshEmail();
      const res = await register(
        { ...form(), email, code: await registerCode(email), licenseUrl },
        undefined,
        'en-US',
      );
      expect(res.statusCode, licenseUrl).toBe(400);
      expect(badFields(res)).toEqual(['licenseUrl']);
      expect(fieldMessage(res, 'licenseUrl')).toBe(
        'Licence: Only files uploaded to the portal can be attached',
      );
      expect(await organisationOfUser(f.t.tenant.id, email)).toBeUndefined();
    }
  });

  it('lets the new shipper sign in right away and see the customer menu', async () => {
    const email = freshEmail();
    const code = await registerCode(email);
    expect((await register({ ...form(), email, code, invitationCode: 'agent001' })).json().code).toBe(200);
    const token = await signIn(f.ctx, f.t, email, 'Shipper-1');
    const menu = await call(f.ctx, 'POST', '/api/menu/navigate', {}, { host: f.t.host, token });
    const paths = JSON.stringify(menu.json().data);
    expect(paths).toContain('"/mail"');
    expect(paths).not.toContain('"/staff-management"');
  });

  it('makes a direct customer without an invitation code', async () => {
    const email = freshEmail();
    const code = await registerCode(email);
    const res = await register({ ...form(), email, code });
    expect(res.json().code).toBe(200);
    const row = await organisationOfUser(f.t.tenant.id, email);
    expect(row?.organisation.parentId).toBeNull();
    expect(row?.organisation.path).toBe(`/${row?.organisation.id}/`);
  });

  it('refuses an unknown invitation code, naming it, and keeps the code for another try', async () => {
    const email = freshEmail();
    const code = await registerCode(email);
    const res = await register({ ...form(), email, code, invitationCode: 'NOPE0000' }, undefined, 'en-US');
    expect(res.statusCode).toBe(400);
    expect(badFields(res)).toEqual(['invitationCode']);
    expect(fieldMessage(res, 'invitationCode')).toBe('The invitation code is not valid');
    const zh = await register({ ...form(), email, code, invitationCode: 'NOPE0000' });
    expect(fieldMessage(zh, 'invitationCode')).toBe('邀请码无效');
    expect((await register({ ...form(), email, code, invitationCode: 'AGENT001' })).json().code).toBe(200);
  });

  it("refuses another tenant's invitation code", async () => {
    const email = `x${Date.now()}@${f.tenant(1).tenant.code}.example.com`;
    const code = await registerCode(email, f.tenant(1));
    const agentOfT = await organisationByName(f.t.tenant.id, 'Harbor Freight Agency');
    const onlyInT = await createInvitationCode(f.db, f.t.tenant.id, agentOfT?.id ?? 0, {
      code: `ONLYT${counter}`,
    });
    const res = await register(
      { ...form(), email, code, invitationCode: onlyInT },
      undefined,
      'zh-CN',
      f.tenant(1).host,
    );
    expect(badFields(res)).toEqual(['invitationCode']);
  });

  it('checks a phone number by the dial code beside it: a US number under the default +1, the 11-digit rule under +86 only', async () => {
    const email = freshEmail();
    const code = await registerCode(email);
    const { dialCode: _cn, ...withoutDialCode } = form();
    const wrong = await register(
      { ...withoutDialCode, phone: '13800138000', email, code },
      undefined,
      'en-US',
    );
    expect(badFields(wrong)).toEqual(['phone']);
    expect(fieldMessage(wrong, 'phone')).toBe('Phone is not a valid number for the chosen dial code');
    const tooShortForChina = await register({ ...form(), phone: '2135550100', email, code });
    expect(fieldMessage(tooShortForChina, 'phone')).toContain('请输入 11 位以 1 开头的手机号');
    const us = await register(
      { ...withoutDialCode, phone: '(213) 555-0100', email, code },
      undefined,
      'en-US',
    );
    expect(us.json().code).toBe(200);
    const [row] = await f.db
      .select({ phone: users.phone })
      .from(users)
      .where(and(eq(users.tenantId, f.t.tenant.id), eq(users.email, email)));
    expect(row?.phone).toBe('(213) 555-0100');
  });

  it('answers whether an invitation code is valid on its own, without naming its owner', async () => {
    const check = (invitationCode: unknown, language: 'zh-CN' | 'en-US' = 'en-US', host = f.t.host) =>
      call(f.ctx, 'POST', '/api/admin/auth/checkInvitation', { invitationCode }, { host, language });
    const good = await check('agent001');
    expect(good.json()).toMatchObject({ code: 200, data: { valid: true } });
    expect(JSON.stringify(good.json())).not.toContain('Harbor');
    const bad = await check('NOPE0000', 'zh-CN');
    expect(bad.json()).toEqual({ code: 200, msg: '邀请码无效', data: { valid: false } });
    // A code of one tenant is no code on another tenant's site.
    const foreign = await createInvitationCode(
      f.db,
      f.t.tenant.id,
      (await organisationByName(f.t.tenant.id, 'Harbor Freight Agency'))?.id ?? 0,
      { code: `TONLY${Date.now() % 100000}` },
    );
    expect((await check(foreign, 'en-US', f.tenant(1).host)).json().data).toEqual({ valid: false });
    expect(badFields(await check(''))).toEqual(['invitationCode']);
    expect(badFields(await check(7))).toEqual(['invitationCode']);
  });

  it('names every missing required field', async () => {
    const res = await register({}, '/api/register', 'en-US');
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe(400);
    const fields = badFields(res);
    for (const field of [
      'email',
      'code',
      'name',
      'surname',
      'phone',
      'company',
      'address1',
      'zipcode',
      'city',
      'state',
      'country',
      'licenseUrl',
      'business',
      'monthlyVolume',
      'goodsTypes',
      'transportMethods',
      'preferredLocations',
      'password',
    ])
      expect(fields).toContain(field);
    expect(fieldMessage(res, 'company')).toBe('Corporate name is required');
  });

  it('names malformed fields in the language of the request', async () => {
    const res = await register({
      ...form(),
      email: 'bad',
      code: '12',
      phone: '2345',
      zipcode: 'ABCDE',
      address1: '北京路 1 号',
      preferredLocations: ['one'],
    });
    expect(badFields(res).sort()).toEqual(
      ['address1', 'code', 'email', 'phone', 'preferredLocations', 'zipcode'].sort(),
    );
    expect(fieldMessage(res, 'phone')).toBe('电话:请输入 11 位以 1 开头的手机号');
    expect(fieldMessage(res, 'zipcode')).toBe('请输入 5 位数字邮编');
    expect(fieldMessage(res, 'address1')).toBe('地址 1只能填写英文和数字');
  });

  it('names confirmPassword when the two passwords differ, and a short password', async () => {
    const email = freshEmail();
    const mismatch = await register({ ...form({ confirmPassword: 'Shipper-2' }), email, code: '123456' });
    expect(badFields(mismatch)).toEqual(['confirmPassword']);
    expect(fieldMessage(mismatch, 'confirmPassword')).toBe('确认密码:两次输入密码不一致');
    const short = await register(
      { ...form({ password: '123', confirmPassword: '123' }), email, code: '123456' },
      undefined,
      'en-US',
    );
    expect(badFields(short)).toEqual(['password']);
    expect(fieldMessage(short, 'password')).toBe('The password needs at least 6 characters');
  });

  it('needs a code requested for registration, not one for sign-in', async () => {
    const email = freshEmail();
    await f.db.insert(verificationCodes).values({
      tenantId: f.t.tenant.id,
      email,
      purpose: 'login',
      codeHash: sha256Hex(`${email}:135790`),
      expiresAt: new Date(Date.now() + 600_000),
    });
    const res = await register({ ...form(), email, code: '135790' }, undefined, 'en-US');
    expect(res.statusCode).toBe(400);
    expect(badFields(res)).toEqual(['code']);
    expect(fieldMessage(res, 'code')).toBe('The code is wrong or has expired');
    const [user] = await f.db
      .select()
      .from(users)
      .where(and(eq(users.tenantId, f.t.tenant.id), eq(users.email, email)));
    expect(user).toBeUndefined();
  });

  it('kills a registration code after five wrong tries', async () => {
    const email = freshEmail();
    const code = await registerCode(email);
    const wrong = code === '111111' ? '222222' : '111111';
    for (let i = 0; i < 5; i++) {
      const res = await register({ ...form(), email, code: wrong });
      expect(badFields(res)).toEqual(['code']);
    }
    const right = await register({ ...form(), email, code });
    expect(badFields(right)).toEqual(['code']);
  });

  it('answers a registered e-mail like a new one when asking for a code, and mails its owner that the account exists', async () => {
    const taken = f.t.email('customer');
    const fresh = freshEmail();
    const ask = (email: string) =>
      call(
        f.ctx,
        'POST',
        '/api/admin/auth/getVerificationCode',
        { email, purpose: 'register' },
        { host: f.t.host, language: 'en-US' },
      );
    const known = await ask(taken);
    const unknown = await ask(fresh);
    expect(known.statusCode).toBe(200);
    expect(known.json()).toEqual(unknown.json());
    expect(known.json().msg).toBe('The code has been sent, please check your e-mail');
    const mail = await lastMailTo(f.ctx, f.t.tenant.id, taken);
    expect(mail?.subject).toContain('registration');
    expect(mail?.text).toContain('already has an account');
    expect(mail?.text).not.toMatch(/\b\d{6}\b/);
    expect(codeIn((await lastMailTo(f.ctx, f.t.tenant.id, fresh))?.text)).toMatch(/^\d{6}$/);
  });

  it('checks the code before saying an address is registered: a wrong code reads the same for both', async () => {
    const taken = f.t.email('customer');
    const known = await register({ ...form(), email: taken.toUpperCase(), code: '000000' });
    const unknown = await register({ ...form(), email: freshEmail(), code: '000000' });
    expect(known.statusCode).toBe(400);
    expect(badFields(known)).toEqual(['code']);
    expect(known.json()).toEqual(unknown.json());
  });

  it('refuses registering the same address twice: the spent code first, and a proven owner is told it is taken', async () => {
    const email = freshEmail();
    const code = await registerCode(email);
    expect((await register({ ...form(), email, code })).json().code).toBe(200);
    const again = await register({ ...form(), email, code });
    expect(badFields(again)).toEqual(['code']);
    // Whoever holds a live code for the mailbox (sent before the account existed) has proved it.
    await f.db.insert(verificationCodes).values({
      tenantId: f.t.tenant.id,
      email,
      purpose: 'register',
      codeHash: sha256Hex(`${email}:135790`),
      expiresAt: new Date(Date.now() + 600_000),
    });
    const proven = await register({ ...form(), email, code: '135790' });
    expect(badFields(proven)).toEqual(['email']);
    expect(fieldMessage(proven, 'email')).toBe('该邮箱已注册');
  });
});
