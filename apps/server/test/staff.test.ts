import { and, eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { outbox, sessions, userRoles, users } from '../src/db/schema.ts';
import { useTestApp } from './fixture.ts';
import { allowNewCode, badFields, call, fieldMessage, signIn, userIdOf } from './helpers.ts';

const f = useTestApp({ tenants: 2, signIn: [['admin', 'editor', 'customer'], []] });

let admin: string;
let editor: string;
let customer: string;

beforeAll(async () => {
  admin = f.as('admin').token as string;
  editor = f.as('editor').token as string;
  customer = f.as('customer').token as string;
});

const post = (url: string, body: unknown, token = admin, language: 'zh-CN' | 'en-US' = 'zh-CN') =>
  call(f.ctx, 'POST', url, body, { host: f.t.host, token, language });

let seq = 0;
const newEmail = () => `staff${++seq}-${Date.now()}@${f.t.tenant.code}.example.com`;

async function createStaff(overrides: Record<string, unknown> = {}) {
  const email = newEmail();
  const res = await post('/api/admin/staff/save', {
    email,
    name: `Staff ${seq}`,
    phone: '13900000000',
    password: 'Staff-pass-1',
    roleIds: [f.t.roleIds.get('editor')],
    ...overrides,
  });
  expect(res.json().code).toBe(200);
  return { id: res.json().data.id as number, email: (overrides.email as string) ?? email };
}

const userRow = async (id: number) => {
  const [row] = await f.db
    .select()
    .from(users)
    .where(and(eq(users.tenantId, f.t.tenant.id), eq(users.id, id)));
  return row;
};

describe('staff list', () => {
  it('lists staff only, with their roles', async () => {
    const res = await post('/api/admin/staff/list', { limit: 200 });
    expect(res.json().code).toBe(200);
    const { list, total, page, limit } = res.json().data;
    expect(page).toBe(1);
    expect(limit).toBe(200);
    expect(total).toBe(list.length);
    const emails = list.map((s: any) => s.email);
    expect(emails).toContain(f.t.email('admin'));
    expect(emails).toContain(f.t.email('editor'));
    expect(emails).not.toContain(f.t.email('customer'));
    expect(emails).not.toContain(f.tenant(1).email('admin'));
    const adminRow = list.find((s: any) => s.email === f.t.email('admin'));
    expect(adminRow).toMatchObject({ enabled: true });
    expect(adminRow.roles).toEqual([
      { id: f.t.roleIds.get('admin'), name: '超级管理员', nameEn: 'Administrator' },
    ]);
    expect(adminRow).not.toHaveProperty('passwordHash');
  });

  it('filters by keyword, status and role, and pages', async () => {
    const tag = `kw${Date.now()}`;
    const a = await createStaff({ name: `${tag} Alpha` });
    const b = await createStaff({ name: `${tag} Beta`, roleIds: [f.t.roleIds.get('admin')] });
    await post('/api/admin/staff/setStatus', { id: b.id, enabled: false });

    const byKeyword = await post('/api/admin/staff/list', { keyword: tag });
    expect(byKeyword.json().data.list.map((s: any) => s.id)).toEqual([a.id, b.id]);
    const byEmail = await post('/api/admin/staff/list', { keyword: a.email.split('@')[0] });
    expect(byEmail.json().data.list.map((s: any) => s.id)).toEqual([a.id]);
    const disabled = await post('/api/admin/staff/list', { keyword: tag, enabled: false });
    expect(disabled.json().data.list.map((s: any) => s.id)).toEqual([b.id]);
    const enabled = await post('/api/admin/staff/list', { keyword: tag, enabled: true });
    expect(enabled.json().data.list.map((s: any) => s.id)).toEqual([a.id]);
    const admins = await post('/api/admin/staff/list', { roleId: f.t.roleIds.get('admin'), limit: 50 });
    const adminIds = admins.json().data.list.map((s: any) => s.id);
    expect(adminIds).toContain(b.id);
    expect(adminIds).not.toContain(a.id);

    const all = await post('/api/admin/staff/list', { limit: 10 });
    const total = all.json().data.total;
    const firstPage = await post('/api/admin/staff/list', { page: 1, limit: 10 });
    expect(firstPage.json().data.list).toHaveLength(Math.min(10, total));
  });

  it('finds nobody by a role of another tenant', async () => {
    const res = await post('/api/admin/staff/list', { roleId: f.tenant(1).roleIds.get('admin') });
    expect(res.json().data).toMatchObject({ list: [], total: 0 });
  });

  it('names malformed filters', async () => {
    const res = await post('/api/admin/staff/list', { enabled: 'yes', roleId: -1, limit: 7 });
    expect(badFields(res).sort()).toEqual(['enabled', 'limit', 'roleId']);
  });
});

describe('staff save', () => {
  it('creates a staff member who can sign in with the given password and holds the roles', async () => {
    const { id, email } = await createStaff({
      roleIds: [f.t.roleIds.get('editor'), f.t.roleIds.get('admin')],
    });
    const row = await userRow(id);
    expect(row).toMatchObject({
      identity: 'employee',
      organisationId: null,
      phone: '13900000000',
      enabled: true,
    });
    // No company of its own: the tenant's name is shown, in the reader's language.
    expect(row?.company).toBe('');
    const held = await f.db
      .select()
      .from(userRoles)
      .where(and(eq(userRoles.tenantId, f.t.tenant.id), eq(userRoles.userId, id)));
    expect(held.map((r) => r.roleId).sort()).toEqual(
      [f.t.roleIds.get('editor'), f.t.roleIds.get('admin')].sort() as number[],
    );
    const token = await signIn(f.ctx, f.t, email, 'Staff-pass-1');
    const info = await call(f.ctx, 'POST', '/api/admin/admin/info', {}, { host: f.t.host, token });
    expect(info.json().data.permissions.sort()).toEqual(['admin', 'editor']);
    expect(info.json().data.userInfo.company).toBe(f.t.tenant.branding.siteName);
    const english = await call(
      f.ctx,
      'POST',
      '/api/admin/admin/info',
      {},
      { host: f.t.host, token, language: 'en-US' },
    );
    const { siteName, siteNameEn } = f.t.tenant.branding;
    expect(english.json().data.userInfo.company).toBe(siteNameEn || siteName);
  });

  it('needs a password to create, naming it', async () => {
    const res = await post(
      '/api/admin/staff/save',
      { email: newEmail(), name: 'No password', roleIds: [f.t.roleIds.get('editor')] },
      admin,
      'en-US',
    );
    expect(res.statusCode).toBe(400);
    expect(badFields(res)).toEqual(['password']);
    expect(fieldMessage(res, 'password')).toBe('A new staff member needs an initial password');
  });

  it('updates name, phone, e-mail and roles, and leaves the password alone', async () => {
    const { id } = await createStaff();
    const before = await userRow(id);
    const email = newEmail();
    const res = await post('/api/admin/staff/save', {
      id,
      email: email.toUpperCase(),
      name: 'Renamed',
      phone: '',
      roleIds: [f.t.roleIds.get('admin')],
    });
    expect(res.json()).toMatchObject({ code: 200, data: { id } });
    const after = await userRow(id);
    expect(after).toMatchObject({ email, name: 'Renamed', phone: '' });
    expect(after?.passwordHash).toBe(before?.passwordHash);
    const list = await post('/api/admin/staff/list', { keyword: 'Renamed' });
    expect(
      list
        .json()
        .data.list.find((s: any) => s.id === id)
        .roles.map((r: any) => r.id),
    ).toEqual([f.t.roleIds.get('admin')]);
  });

  it('refuses an e-mail another user has, on create and on update', async () => {
    const dup = await post(
      '/api/admin/staff/save',
      {
        email: f.t.email('customer').toUpperCase(),
        name: 'Dup',
        password: 'Staff-pass-1',
        roleIds: [f.t.roleIds.get('editor')],
      },
      admin,
      'en-US',
    );
    expect(dup.statusCode).toBe(400);
    expect(badFields(dup)).toEqual(['email']);
    expect(fieldMessage(dup, 'email')).toBe('This e-mail is already registered');
    const { id } = await createStaff();
    const upd = await post('/api/admin/staff/save', {
      id,
      email: f.t.email('editor'),
      name: 'Dup',
      roleIds: [f.t.roleIds.get('editor')],
    });
    expect(badFields(upd)).toEqual(['email']);
    expect(fieldMessage(upd, 'email')).toBe('该邮箱已注册');
  });

  it('names malformed fields', async () => {
    const res = await post(
      '/api/admin/staff/save',
      { email: 'nope', name: '', phone: '123', password: '123', roleIds: [] },
      admin,
      'en-US',
    );
    expect(res.statusCode).toBe(400);
    expect(badFields(res).sort()).toEqual(['email', 'name', 'password', 'phone', 'roleIds']);
    expect(fieldMessage(res, 'password')).toBe('The password needs at least 6 characters');
    expect(fieldMessage(res, 'roleIds')).toBe('Roles is required');
  });

  it('refuses roles that do not exist or belong to another tenant', async () => {
    for (const roleId of [987654, f.tenant(1).roleIds.get('admin')]) {
      const res = await post('/api/admin/staff/save', {
        email: newEmail(),
        name: 'Wrong role',
        password: 'Staff-pass-1',
        roleIds: [roleId],
      });
      expect(res.statusCode).toBe(400);
      expect(badFields(res)).toEqual(['roleIds']);
    }
  });

  it('refuses to edit a customer as staff, and answers 404 for an unknown id', async () => {
    const customerId = await userIdOf(f.ctx, f.t.tenant.id, f.t.email('customer'));
    const res = await post('/api/admin/staff/save', {
      id: customerId,
      email: f.t.email('customer'),
      name: 'Hijack',
      roleIds: [f.t.roleIds.get('admin')],
    });
    expect(res.json()).toMatchObject({ code: 409, msg: '该账号不是员工账号' });
    expect((await userRow(customerId))?.name).not.toBe('Hijack');
    const missing = await post('/api/admin/staff/save', {
      id: 987654,
      email: newEmail(),
      name: 'Ghost',
      roleIds: [f.t.roleIds.get('editor')],
    });
    expect(missing.json().code).toBe(404);
  });
});

describe('staff status', () => {
  it('disabling ends the sessions and stops sign-in; enabling lets the user back', async () => {
    const { id, email } = await createStaff();
    const token = await signIn(f.ctx, f.t, email, 'Staff-pass-1');
    const off = await post('/api/admin/staff/setStatus', { id, enabled: false });
    expect(off.json().code).toBe(200);
    expect((await userRow(id))?.enabled).toBe(false);
    const info = await call(f.ctx, 'POST', '/api/admin/auth/getInfo', {}, { host: f.t.host, token });
    expect(info.json().code).toBe(300);
    const live = await f.db
      .select()
      .from(sessions)
      .where(and(eq(sessions.tenantId, f.t.tenant.id), eq(sessions.userId, id)));
    expect(live.every((s) => s.revokedAt !== null)).toBe(true);

    // No code reaches a disabled account, so it cannot sign in.
    await allowNewCode(f.ctx, f.t.tenant.id, email);
    const mailsBefore = await f.db
      .select()
      .from(outbox)
      .where(and(eq(outbox.tenantId, f.t.tenant.id), eq(outbox.to, email)));
    await call(f.ctx, 'POST', '/api/admin/auth/getVerificationCode', { email }, { host: f.t.host });
    const mailsAfter = await f.db
      .select()
      .from(outbox)
      .where(and(eq(outbox.tenantId, f.t.tenant.id), eq(outbox.to, email)));
    expect(mailsAfter).toHaveLength(mailsBefore.length);

    expect((await post('/api/admin/staff/setStatus', { id, enabled: true })).json().code).toBe(200);
    await allowNewCode(f.ctx, f.t.tenant.id, email);
    const again = await signIn(f.ctx, f.t, email, 'Staff-pass-1');
    expect(
      (await call(f.ctx, 'POST', '/api/admin/auth/getInfo', {}, { host: f.t.host, token: again })).json()
        .code,
    ).toBe(200);
  });

  it('refuses to disable oneself', async () => {
    const me = await userIdOf(f.ctx, f.t.tenant.id, f.t.email('admin'));
    const res = await post('/api/admin/staff/setStatus', { id: me, enabled: false }, admin, 'en-US');
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 409, msg: 'You cannot disable your own account' });
    expect((await userRow(me))?.enabled).toBe(true);
  });

  it('refuses a customer account and an unknown id', async () => {
    const customerId = await userIdOf(f.ctx, f.t.tenant.id, f.t.email('direct'));
    expect((await post('/api/admin/staff/setStatus', { id: customerId, enabled: false })).json().code).toBe(
      409,
    );
    expect((await userRow(customerId))?.enabled).toBe(true);
    expect((await post('/api/admin/staff/setStatus', { id: 987654, enabled: false })).json().code).toBe(404);
  });

  it('names malformed fields', async () => {
    const res = await post('/api/admin/staff/setStatus', { id: 'x', enabled: 'no' });
    expect(badFields(res).sort()).toEqual(['enabled', 'id']);
  });
});

async function readXlsx(body: Buffer) {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(body as unknown as ArrayBuffer);
  const sheet = workbook.worksheets[0];
  const rows: unknown[][] = [];
  sheet?.eachRow((row) => {
    rows.push((row.values as unknown[]).slice(1));
  });
  return rows;
}

describe('staff export', () => {
  it('answers a real xlsx with a header row and one row per matching staff member', async () => {
    const tag = `exp${Date.now()}`;
    const a = await createStaff({ name: `${tag} One` });
    const b = await createStaff({ name: `${tag} Two`, roleIds: [f.t.roleIds.get('admin')] });
    await post('/api/admin/staff/setStatus', { id: b.id, enabled: false });

    const res = await post('/api/admin/staff/export', { keyword: tag }, admin, 'en-US');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    expect(res.headers['content-disposition']).toContain('staff.xlsx');
    const rows = await readXlsx(res.rawPayload);
    expect(rows[0]).toEqual(['E-mail', 'Name', 'Phone', 'Roles', 'Status', 'Last sign-in', 'Created']);
    expect(rows).toHaveLength(3);
    expect(rows[1]?.slice(0, 5)).toEqual([
      a.email,
      `${tag} One`,
      '13900000000',
      'Operations editor',
      'Enabled',
    ]);
    expect(rows[2]?.slice(0, 5)).toEqual([b.email, `${tag} Two`, '13900000000', 'Administrator', 'Disabled']);
    expect(rows[1]?.[6]).toBeInstanceOf(Date);
  });

  it('exports in Chinese for a Chinese request, with the filters applied', async () => {
    const res = await post('/api/admin/staff/export', { enabled: true, roleId: f.t.roleIds.get('admin') });
    expect(res.statusCode).toBe(200);
    expect(decodeURIComponent(String(res.headers['content-disposition']))).toContain('员工.xlsx');
    const rows = await readXlsx(res.rawPayload);
    expect(rows[0]?.[0]).toBe('邮箱');
    const emails = rows.slice(1).map((r) => r[0]);
    expect(emails).toContain(f.t.email('admin'));
    expect(emails).not.toContain(f.t.email('editor'));
    expect(rows.slice(1).every((r) => r[4] === '启用')).toBe(true);
  });
});

describe('staff permissions', () => {
  const calls: [string, object][] = [
    ['/api/admin/staff/list', {}],
    ['/api/admin/staff/export', {}],
    ['/api/admin/staff/save', { email: 'x@y.com', name: 'x', password: '123456', roleIds: [1] }],
    ['/api/admin/staff/setStatus', { id: 1, enabled: false }],
  ];

  it('refuses the editor and the customer with code 401', async () => {
    for (const [url, body] of calls) {
      for (const token of [editor, customer]) {
        const res = await post(url, body, token);
        expect(res.statusCode, url).toBe(403);
        expect(res.json(), url).toMatchObject({ code: 401, msg: '没有权限执行此操作' });
      }
    }
    // Nothing was created or disabled on the way.
    const [created] = await f.db
      .select()
      .from(users)
      .where(and(eq(users.tenantId, f.t.tenant.id), eq(users.email, 'x@y.com')));
    expect(created).toBeUndefined();
  });

  it('answers code 300 without a session', async () => {
    for (const [url, body] of calls) {
      const res = await call(f.ctx, 'POST', url, body, { host: f.t.host });
      expect(res.json().code, url).toBe(300);
    }
  });
});
