import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { roles, sessions, users } from '../src/db/schema.ts';
import { sha256Hex } from '../src/lib/crypto.ts';
import { useTestApp } from './fixture.ts';
import { addUser, call, codeIn, lastMailTo, signIn, signInAs, type TestTenant, userIdOf } from './helpers.ts';

/**
 * Two tenants side by side: A's administrator holds a token, B has rows of every kind. Nothing of B
 * may be read or changed with A's token, whatever the host and whatever the ids.
 */
const f = useTestApp({ tenants: 2, signIn: ['admin'] });
let a: TestTenant;
let b: TestTenant;
let adminA: string;
let adminB: string;
let customRoleB: number;
let editorB: number;

beforeAll(async () => {
  a = f.tenant(0);
  b = f.tenant(1);
  adminA = f.as('admin', a).token as string;
  adminB = f.as('admin', b).token as string;
  const role = await call(
    f.ctx,
    'POST',
    '/api/admin/role/save',
    { name: 'B only', nameEn: 'B only', menuIds: [20], buttonKeys: [] },
    { host: b.host, token: adminB },
  );
  customRoleB = role.json().data.id;
  editorB = await userIdOf(f.ctx, b.tenant.id, b.email('editor'));
});

const asA = (url: string, body: unknown, host = a.host) =>
  call(f.ctx, 'POST', url, body, { host, token: adminA });

describe("a token on another tenant's host", () => {
  it('is no session there: code 300 on every guarded call', async () => {
    for (const url of [
      '/api/admin/auth/getInfo',
      '/api/admin/admin/info',
      '/api/menu/navigate',
      '/api/admin/role/list',
      '/api/admin/staff/list',
      '/api/admin/operationLog/list',
      '/api/admin/site/info',
    ]) {
      const res = await asA(url, {}, b.host);
      expect(res.statusCode, url).toBe(401);
      expect(res.json().code, url).toBe(300);
    }
  });

  it('cannot log out a session of the other tenant, nor its own from there', async () => {
    expect((await asA('/api/logout', {}, b.host)).json().code).toBe(300);
    expect((await asA('/api/admin/auth/getInfo', {})).json().code).toBe(200);
  });
});

describe("ids of the other tenant's rows", () => {
  it('role info, save and delete answer 404 and change nothing', async () => {
    expect((await asA('/api/admin/role/info', { id: customRoleB })).json().code).toBe(404);
    const saved = await asA('/api/admin/role/save', {
      id: customRoleB,
      name: 'Taken over',
      nameEn: 'Taken over',
      menuIds: [20, 120],
      buttonKeys: ['role:save'],
    });
    expect(saved.json().code).toBe(404);
    const deleted = await asA('/api/admin/role/delete', { id: customRoleB });
    expect(deleted.json().code).toBe(404);
    const [row] = await f.db
      .select()
      .from(roles)
      .where(and(eq(roles.tenantId, b.tenant.id), eq(roles.id, customRoleB)));
    expect(row?.name).toBe('B only');
    const info = await call(
      f.ctx,
      'POST',
      '/api/admin/role/info',
      { id: customRoleB },
      { host: b.host, token: adminB },
    );
    expect(info.json().data.menuIds).toEqual([20]);
    expect(info.json().data.buttonKeys).toEqual([]);
  });

  it("lists only the tenant's own roles", async () => {
    const res = await asA('/api/admin/role/list', { limit: 200 });
    const ids = res.json().data.list.map((r: { id: number }) => r.id);
    expect(ids).not.toContain(customRoleB);
    for (const id of b.roleIds.values()) expect(ids).not.toContain(id);
  });

  it('staff save and setStatus answer 404 for the other tenant’s user and change nothing', async () => {
    const token = await signInAs(f.ctx, b, 'editor');
    const saved = await asA('/api/admin/staff/save', {
      id: editorB,
      email: `stolen@${a.tenant.code}.example.com`,
      name: 'Stolen',
      roleIds: [a.roleIds.get('admin')],
    });
    expect(saved.json().code).toBe(404);
    const status = await asA('/api/admin/staff/setStatus', { id: editorB, enabled: false });
    expect(status.json().code).toBe(404);
    const [row] = await f.db
      .select()
      .from(users)
      .where(and(eq(users.tenantId, b.tenant.id), eq(users.id, editorB)));
    expect(row).toMatchObject({ email: b.email('editor'), enabled: true });
    expect(row?.name).not.toBe('Stolen');
    const info = await call(f.ctx, 'POST', '/api/admin/auth/getInfo', {}, { host: b.host, token });
    expect(info.json().code).toBe(200);
  });

  it("refuses the other tenant's roles for a staff member", async () => {
    const res = await asA('/api/admin/staff/save', {
      email: `mixed-${Date.now()}@${a.tenant.code}.example.com`,
      name: 'Mixed',
      password: 'Mixed-123',
      roleIds: [b.roleIds.get('admin')],
    });
    expect(res.json().code).toBe(400);
    expect(res.json().data.fields[0].field).toBe('roleIds');
  });

  it("never lists the other tenant's staff, whatever the filter", async () => {
    for (const body of [{}, { keyword: b.tenant.name }, { roleId: b.roleIds.get('editor') }]) {
      const res = await asA('/api/admin/staff/list', { ...body, limit: 200 });
      const emails = res.json().data.list.map((s: { email: string }) => s.email);
      expect(emails.some((e: string) => e.endsWith(`@${b.tenant.name}.example.com`))).toBe(false);
    }
  });

  it("never lists the other tenant's operation log", async () => {
    const res = await asA('/api/admin/operationLog/list', { keyword: b.tenant.name, limit: 200 });
    expect(res.json().data.total).toBe(0);
  });
});

describe('the same e-mail in two tenants', () => {
  it('is two accounts: a code mailed by one tenant does not sign in to the other', async () => {
    const email = `both-${Date.now()}@example.com`;
    const inA = await addUser(f.ctx, a, { email });
    const inB = await addUser(f.ctx, b, { email, password: 'Other-pass-9' });
    expect(inA.id).toBeGreaterThan(0);

    await call(f.ctx, 'POST', '/api/admin/auth/getVerificationCode', { email }, { host: a.host });
    const codeFromA = codeIn((await lastMailTo(f.ctx, a.tenant.id, email))?.text);
    expect(await lastMailTo(f.ctx, b.tenant.id, email)).toBeUndefined();
    const crossed = await call(
      f.ctx,
      'POST',
      '/api/admin/auth/login',
      { email, password: sha256Hex('Other-pass-9'), code: codeFromA },
      { host: b.host },
    );
    expect(crossed.json().code).toBe(400);
    const sessionsInB = await f.db
      .select()
      .from(sessions)
      .where(and(eq(sessions.tenantId, b.tenant.id), eq(sessions.userId, inB.id)));
    expect(sessionsInB).toHaveLength(0);

    // Each signs in on its own host with its own password.
    const tokenB = await signIn(f.ctx, b, email, 'Other-pass-9');
    const info = await call(f.ctx, 'POST', '/api/admin/auth/getInfo', {}, { host: b.host, token: tokenB });
    expect(info.json().data.userInfo.id).toBe(inB.id);
  });

  it("shows the dev mailbox of the host's tenant only", async () => {
    const res = await call(
      f.ctx,
      'GET',
      `/api/dev/mailbox?to=${encodeURIComponent(b.email('admin'))}`,
      undefined,
      {
        host: a.host,
      },
    );
    expect(res.json().code).toBe(200);
    expect(res.json().data.list).toEqual([]);
    const own = await call(
      f.ctx,
      'GET',
      `/api/dev/mailbox?to=${encodeURIComponent(b.email('admin'))}`,
      undefined,
      {
        host: b.host,
      },
    );
    expect(own.json().data.list.length).toBeGreaterThan(0);
  });
});
