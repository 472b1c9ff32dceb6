import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { roleGrants, roles } from '../src/db/schema.ts';
import { useTestApp } from './fixture.ts';
import { addUser, badFields, call, fieldMessage, signIn } from './helpers.ts';

const f = useTestApp({ signIn: ['admin', 'editor', 'customer'] });

let admin: string;
let editor: string;
let customer: string;

beforeAll(async () => {
  admin = f.as('admin').token as string;
  editor = f.as('editor').token as string;
  customer = f.as('customer').token as string;
});

const as = (token: string, language: 'zh-CN' | 'en-US' = 'zh-CN') => ({ host: f.t.host, token, language });
const post = (url: string, body: unknown, token = admin, language: 'zh-CN' | 'en-US' = 'zh-CN') =>
  call(f.ctx, 'POST', url, body, as(token, language));

let seq = 0;
async function createRole(overrides: Record<string, unknown> = {}) {
  seq += 1;
  const res = await post('/api/admin/role/save', {
    name: `角色${seq}-${Date.now()}`,
    nameEn: `Role ${seq}`,
    description: 'made by a test',
    menuIds: [20],
    buttonKeys: [],
    ...overrides,
  });
  expect(res.json().code).toBe(200);
  return res.json().data.id as number;
}

const menuPaths = async (token: string) => {
  const res = await call(f.ctx, 'POST', '/api/menu/navigate', {}, { host: f.t.host, token });
  const walk = (nodes: any[]): string[] =>
    nodes.flatMap((n) => [n.paths, ...(n.haveChildMenu ? walk(n.subList) : [])]);
  return walk(res.json().data);
};

describe('role list', () => {
  it('lists the built-in roles with their user counts', async () => {
    const res = await post('/api/admin/role/list', {});
    expect(res.json().code).toBe(200);
    const { list, page, limit, total } = res.json().data;
    expect(page).toBe(1);
    expect(limit).toBe(10);
    expect(total).toBeGreaterThanOrEqual(5);
    const byCode = Object.fromEntries(list.map((r: any) => [r.code, r]));
    expect(byCode.admin).toMatchObject({
      name: '超级管理员',
      nameEn: 'Administrator',
      builtin: true,
      userCount: 1,
    });
    expect(byCode.customer.userCount).toBe(2);
  });

  it('filters by keyword in either language', async () => {
    const zh = await post('/api/admin/role/list', { keyword: '运营' });
    expect(zh.json().data.list.map((r: any) => r.code)).toEqual(['editor']);
    const en = await post('/api/admin/role/list', { keyword: 'agent' });
    expect(en.json().data.list.map((r: any) => r.code)).toEqual(['agent']);
    expect(en.json().data.total).toBe(1);
  });

  it('pages through the roles', async () => {
    for (let i = 0; i < 6; i++) await createRole();
    const first = await post('/api/admin/role/list', { page: 1, limit: 10 });
    const second = await post('/api/admin/role/list', { page: 2, limit: 10 });
    const total = first.json().data.total;
    expect(total).toBeGreaterThanOrEqual(11);
    expect(first.json().data.list).toHaveLength(10);
    expect(second.json().data.list).toHaveLength(Math.min(10, total - 10));
    const ids = [...first.json().data.list, ...second.json().data.list].map((r: any) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('names a page size that is not offered, and a page below one', async () => {
    const res = await post('/api/admin/role/list', { page: 0, limit: 15 }, admin, 'en-US');
    expect(res.statusCode).toBe(400);
    expect(badFields(res).sort()).toEqual(['limit', 'page']);
    expect(fieldMessage(res, 'limit')).toBe('Page size must be 10, 20, 50, 100 or 200');
  });
});

describe('role info and save', () => {
  it('creates a role whose grants come back as saved, a button bringing its page', async () => {
    const id = await createRole({ menuIds: [30, 31], buttonKeys: ['order:export'] });
    const res = await post('/api/admin/role/info', { id });
    expect(res.json().code).toBe(200);
    expect(res.json().data.role).toMatchObject({ id, nameEn: `Role ${seq}`, builtin: false, code: null });
    expect(res.json().data.menuIds.sort()).toEqual([20, 30, 31]);
    expect(res.json().data.buttonKeys).toEqual(['order:export']);
  });

  it('updates a role and replaces its grants', async () => {
    const id = await createRole({ menuIds: [30], buttonKeys: ['order:export'] });
    const res = await post('/api/admin/role/save', {
      id,
      name: `Renamed ${id}`,
      nameEn: 'Renamed',
      menuIds: [24],
      buttonKeys: ['express-order:refund'],
    });
    expect(res.json()).toMatchObject({ code: 200, data: { id } });
    const info = await post('/api/admin/role/info', { id });
    expect(info.json().data.role.name).toBe(`Renamed ${id}`);
    expect(info.json().data.menuIds).toEqual([24]);
    expect(info.json().data.buttonKeys).toEqual(['express-order:refund']);
  });

  it('refuses an unknown menu id and leaves no role behind', async () => {
    const name = `Ghost role ${Date.now()}`;
    const res = await post('/api/admin/role/save', {
      name,
      nameEn: 'Ghost',
      menuIds: [20, 9999],
      buttonKeys: [],
    });
    expect(res.statusCode).toBe(400);
    expect(badFields(res)).toEqual(['menuIds']);
    expect(fieldMessage(res, 'menuIds')).toBe('菜单权限:包含不存在的菜单项');
    const left = await f.db
      .select()
      .from(roles)
      .where(and(eq(roles.tenantId, f.t.tenant.id), eq(roles.name, name)));
    expect(left).toHaveLength(0);
  });

  it('refuses an unknown button key, naming buttonKeys', async () => {
    const res = await post(
      '/api/admin/role/save',
      { name: `Bad button ${Date.now()}`, nameEn: 'Bad', menuIds: [20], buttonKeys: ['order:launch-rocket'] },
      admin,
      'en-US',
    );
    expect(res.statusCode).toBe(400);
    expect(badFields(res)).toEqual(['buttonKeys']);
    expect(fieldMessage(res, 'buttonKeys')).toBe('Button permissions: Some menu items do not exist');
  });

  it('refuses a name another role has, but lets a role keep its own', async () => {
    const id = await createRole();
    const info = await post('/api/admin/role/info', { id });
    const name = info.json().data.role.name;
    const clash = await post(
      '/api/admin/role/save',
      { name, nameEn: 'Copy', menuIds: [], buttonKeys: [] },
      admin,
      'en-US',
    );
    expect(clash.statusCode).toBe(400);
    expect(badFields(clash)).toEqual(['name']);
    expect(fieldMessage(clash, 'name')).toBe('A role with this name already exists');
    const same = await post('/api/admin/role/save', {
      id,
      name,
      nameEn: 'Kept',
      menuIds: [20],
      buttonKeys: [],
    });
    expect(same.json().code).toBe(200);
  });

  it('names missing fields', async () => {
    const res = await post('/api/admin/role/save', { name: ' ', menuIds: 'all' }, admin, 'en-US');
    expect(res.statusCode).toBe(400);
    expect(badFields(res).sort()).toEqual(['buttonKeys', 'menuIds', 'name', 'nameEn']);
  });

  it('answers 404 for a role that does not exist, and names a malformed id', async () => {
    expect((await post('/api/admin/role/info', { id: 987654 })).json().code).toBe(404);
    const save = await post('/api/admin/role/save', {
      id: 987654,
      name: 'Nobody',
      nameEn: 'Nobody',
      menuIds: [],
      buttonKeys: [],
    });
    expect(save.json().code).toBe(404);
    const bad = await post('/api/admin/role/info', { id: 'abc' });
    expect(badFields(bad)).toEqual(['id']);
  });
});

describe('role delete', () => {
  it('refuses to delete a built-in role', async () => {
    const res = await post('/api/admin/role/delete', { id: f.t.roleIds.get('customer') }, admin, 'en-US');
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 409, msg: 'Built-in roles cannot be deleted' });
  });

  it('refuses to delete a role someone holds', async () => {
    const id = await createRole();
    await addUserWithRole(id);
    const res = await post('/api/admin/role/delete', { id });
    expect(res.json()).toMatchObject({ code: 409, msg: '该角色仍有 1 个用户,请先移除后再删除' });
    expect((await post('/api/admin/role/info', { id })).json().code).toBe(200);
  });

  it('deletes an unused custom role with its grants', async () => {
    const id = await createRole({ menuIds: [20, 30], buttonKeys: ['order:export'] });
    const res = await post('/api/admin/role/delete', { id });
    expect(res.json().code).toBe(200);
    expect((await post('/api/admin/role/info', { id })).json().code).toBe(404);
    const grants = await f.db
      .select()
      .from(roleGrants)
      .where(and(eq(roleGrants.tenantId, f.t.tenant.id), eq(roleGrants.roleId, id)));
    expect(grants).toHaveLength(0);
    expect((await post('/api/admin/role/delete', { id })).json().code).toBe(404);
  });
});

async function addUserWithRole(roleId: number) {
  const user = await addUser(f.ctx, f.t);
  const res = await post('/api/admin/staff/save', {
    id: user.id,
    email: user.email,
    name: 'Holder',
    roleIds: [roleId],
  });
  expect(res.json().code).toBe(200);
  return user;
}

describe('grants take effect', () => {
  it('changes a staff member’s menu on the next call after a new role is granted', async () => {
    const roleId = await createRole({ menuIds: [121], buttonKeys: [] });
    const user = await addUser(f.ctx, f.t, { role: 'editor' });
    const token = await signIn(f.ctx, f.t, user.email);
    expect(await menuPaths(token)).not.toContain('/operationLog');
    expect((await post('/api/admin/operationLog/list', {}, token)).json().code).toBe(401);

    const save = await post('/api/admin/staff/save', {
      id: user.id,
      email: user.email,
      name: 'Now an auditor',
      roleIds: [f.t.roleIds.get('editor'), roleId],
    });
    expect(save.json().code).toBe(200);
    expect(await menuPaths(token)).toContain('/operationLog');
    expect((await post('/api/admin/operationLog/list', {}, token)).json().code).toBe(200);
  });

  it('changes the menu of every holder on the next call after the role is edited', async () => {
    const roleId = await createRole({ menuIds: [20], buttonKeys: [] });
    const user = await addUserWithRole(roleId);
    const token = await signIn(f.ctx, f.t, user.email);
    expect(await menuPaths(token)).not.toContain('/mail');
    await post('/api/admin/role/save', {
      id: roleId,
      name: `Quoting ${roleId}`,
      nameEn: 'Quoting',
      menuIds: [20, 30],
      buttonKeys: [],
    });
    expect(await menuPaths(token)).toContain('/mail');
  });
});

describe('role permissions', () => {
  const calls: [string, object][] = [
    ['/api/admin/role/list', {}],
    ['/api/admin/role/info', { id: 1 }],
    ['/api/admin/role/save', { name: 'x', nameEn: 'x', menuIds: [], buttonKeys: [] }],
    ['/api/admin/role/delete', { id: 1 }],
    ['/api/admin/role/menuTree', {}],
  ];

  it('refuses the editor and the customer with code 401', async () => {
    for (const [url, body] of calls) {
      for (const token of [editor, customer]) {
        const res = await post(url, body, token, 'en-US');
        expect(res.statusCode, url).toBe(403);
        expect(res.json(), url).toMatchObject({ code: 401, msg: 'You are not allowed to do this' });
      }
    }
  });

  it('answers code 300 without a session', async () => {
    for (const [url, body] of calls) {
      const res = await call(f.ctx, 'POST', url, body, { host: f.t.host });
      expect(res.json().code, url).toBe(300);
    }
  });
});

describe('role names under concurrency', () => {
  it('creates one role when two saves of the same new name arrive at once, and names the field for the other', async () => {
    const name = `Concurrent ${Date.now()}`;
    const body = { name, nameEn: name, description: '', menuIds: [1], buttonKeys: [] };
    const [a, b] = await Promise.all([
      post('/api/admin/role/save', body),
      post('/api/admin/role/save', body),
    ]);
    const codes = [a.json().code, b.json().code].sort();
    expect(codes).toEqual([200, 400]);
    const loser = a.json().code === 400 ? a : b;
    expect(badFields(loser)).toEqual(['name']);
    const rows = await f.db
      .select()
      .from(roles)
      .where(and(eq(roles.tenantId, f.t.tenant.id), eq(roles.name, name)));
    expect(rows).toHaveLength(1);
  });
});
