import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { assignRoles, roleIdsByCode } from '../src/modules/roles/service.ts';
import { useTestApp } from './fixture.ts';
import { addUser, call, signIn, type Who } from './helpers.ts';

interface Node {
  id: number;
  paths: string;
  name: string;
  name_en: string;
  is_show: 0 | 1;
  haveChildMenu: 0 | 1;
  component: string;
  meta: { title: string; title_en: string; keepAlive: boolean; permissions: string[] };
  subList: Node[] | { name: string; name_en: string; component: string }[];
}

const f = useTestApp({ signIn: ['admin', 'editor', 'branch', 'agent', 'customer'] });
const menus = new Map<Who, Node[]>();

beforeAll(async () => {
  for (const who of ['admin', 'editor', 'branch', 'agent', 'customer'] as const)
    menus.set(who, await f.as(who).ok('/api/menu/navigate', {}));
});

function allNodes(nodes: Node[]): Node[] {
  return nodes.flatMap((n) => [n, ...(n.haveChildMenu ? allNodes(n.subList as Node[]) : [])]);
}
const pathsOf = (who: Who) => allNodes(menus.get(who) ?? []).map((n) => n.paths);
const pageOf = (who: Who, path: string) => allNodes(menus.get(who) ?? []).find((n) => n.paths === path);
const buttonsOf = (who: Who, path: string) =>
  ((pageOf(who, path)?.subList ?? []) as { component: string }[]).map((b) => b.component);

describe('menu by identity', () => {
  it('gives the administrator rights management, staff and the operation log', () => {
    const paths = pathsOf('admin');
    for (const path of [
      '/basicSettings',
      '/staff-management',
      '/operationLog',
      '/site-configuration',
      '/home',
    ])
      expect(paths).toContain(path);
    expect(buttonsOf('admin', '/basicSettings').sort()).toEqual(['role:delete', 'role:save']);
    expect(buttonsOf('admin', '/staff-management').sort()).toEqual(['staff:save', 'staff:status']);
  });

  it('gives the editor site configuration but no rights management, staff or operation log', () => {
    const paths = pathsOf('editor');
    expect(paths).toContain('/site-configuration');
    expect(paths).toContain('/orderList');
    for (const path of ['/basicSettings', '/operationLog', '/staff-management', '/area-rights'])
      expect(paths).not.toContain(path);
    expect(buttonsOf('editor', '/site-configuration')).toEqual(['site:save']);
  });

  it('gives the customer quoting, orders and recharge but no review or branch pages', () => {
    const paths = pathsOf('customer');
    for (const path of ['/mail', '/orderList', '/recharge', '/home', '/downloadCenter'])
      expect(paths).toContain(path);
    for (const path of [
      '/rechargeReview',
      '/branchManagement',
      '/basicSettings',
      '/staff-management',
      '/site-configuration',
      '/operationLog',
    ])
      expect(paths).not.toContain(path);
  });

  it('shows a group only when one of its pages is visible', () => {
    for (const who of ['admin', 'editor', 'branch', 'agent', 'customer'] as const) {
      for (const node of allNodes(menus.get(who) ?? [])) {
        if (node.haveChildMenu) expect((node.subList as Node[]).length).toBeGreaterThan(0);
      }
    }
    const customerGroups = (menus.get('customer') ?? []).filter((n) => n.haveChildMenu).map((n) => n.paths);
    expect(customerGroups).not.toContain('/area-rights');
    expect(customerGroups).not.toContain('/area-site');
    expect(customerGroups).toContain('/area-orders');
  });

  it('lists only the granted buttons of a page', () => {
    expect(buttonsOf('customer', '/orderList').sort()).toEqual(['order:cancel', 'order:export']);
    expect(buttonsOf('admin', '/orderList').sort()).toEqual([
      'order:cancel',
      'order:export',
      'order:review',
      'order:update',
    ]);
  });

  it('gives an agent its customers and a branch its direct customers', () => {
    expect(pathsOf('agent')).toContain('/general-customer-management');
    expect(pathsOf('agent')).not.toContain('/directCustomerManagement');
    expect(pathsOf('branch')).toContain('/directCustomerManagement');
  });

  it('describes each item the way the client builds its routes from', () => {
    const page = pageOf('admin', '/orderList');
    expect(page).toMatchObject({
      name: '卡车订单',
      name_en: 'Truck orders',
      is_show: 1,
      haveChildMenu: 0,
      component: 'TruckOrderList',
      meta: { title: '卡车订单', title_en: 'Truck orders', keepAlive: true },
    });
    expect(pageOf('admin', '/orderInfo')?.is_show).toBe(0);
    expect(pageOf('admin', '/queryQuotation')?.meta.keepAlive).toBe(false);
    expect(pageOf('admin', '/basicSettings')?.meta.permissions).toEqual(['admin', 'editor']);
    const group = (menus.get('admin') ?? []).find((n) => n.paths === '/area-orders');
    expect(group).toMatchObject({ haveChildMenu: 1, component: 'Layout' });
  });

  it('gives a user without roles only the pages everyone has', async () => {
    const { email, id } = await addUser(f.ctx, f.t);
    await assignRoles(f.db, f.t.tenant.id, id, []);
    const token = await signIn(f.ctx, f.t, email);
    const res = await call(f.ctx, 'POST', '/api/menu/navigate', {}, { host: f.t.host, token });
    expect(
      allNodes(res.json().data)
        .map((n: Node) => n.paths)
        .sort(),
    ).toEqual(
      ['/downloadCenter', '/home', '/notification', '/personalCenter/personalCenter', '/profile'].sort(),
    );
  });

  it('answers code 300 without a session', async () => {
    const res = await call(f.ctx, 'POST', '/api/menu/navigate', {}, { host: f.t.host });
    expect(res.json().code).toBe(300);
  });

  it('answers a browser that takes brotli or gzip the same menu compressed, and follows a role change', async () => {
    const { email, id } = await addUser(f.ctx, f.t);
    const roleIds = await roleIdsByCode(f.db, f.t.tenant.id, ['customer', 'agent']);
    await assignRoles(f.db, f.t.tenant.id, id, [roleIds.get('customer') as number]);
    const token = await signIn(f.ctx, f.t, email);
    const ask = (encoding: string | null, language = 'en-US') =>
      f.ctx.app.inject({
        method: 'POST',
        url: '/api/menu/navigate',
        headers: {
          host: f.t.host,
          accesstoken: token,
          'accept-language': language,
          ...(encoding ? { 'accept-encoding': encoding } : {}),
        },
        payload: {},
      });
    const plain = await ask(null);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const expected = plain.json();
    expect(expected.data.length).toBeGreaterThan(0);
    for (const [encoding, unpack] of [
      ['gzip, deflate, br', brotliDecompressSync],
      ['gzip', gunzipSync],
    ] as const) {
      // Twice: the second answer is the kept one.
      for (let i = 0; i < 2; i++) {
        const res = await ask(encoding);
        expect(res.headers['content-encoding']).toBe(encoding === 'gzip' ? 'gzip' : 'br');
        expect(res.headers.vary).toContain('accept-encoding');
        expect(JSON.parse(unpack(res.rawPayload).toString('utf8'))).toEqual(expected);
      }
    }
    // The message in the caller's language.
    const zh = JSON.parse(brotliDecompressSync((await ask('br', 'zh-CN')).rawPayload).toString('utf8'));
    expect(zh.msg).toBe((await ask(null, 'zh-CN')).json().msg);
    // A new role is a new grant set, and so a new tree and a new compressed answer.
    await assignRoles(f.db, f.t.tenant.id, id, [roleIds.get('agent') as number]);
    const after = JSON.parse(brotliDecompressSync((await ask('br')).rawPayload).toString('utf8'));
    expect(after).toEqual((await ask(null)).json());
    expect(JSON.stringify(after)).not.toBe(JSON.stringify(expected));
  });
});

describe('getUserRole', () => {
  it('answers the role codes and the same menu as navigate', async () => {
    for (const who of ['admin', 'customer'] as const) {
      const res = await call(
        f.ctx,
        'POST',
        '/api/admin/role/getUserRole',
        {},
        { host: f.t.host, token: f.as(who).token },
      );
      expect(res.json().code).toBe(200);
      expect(res.json().data.roles).toEqual([who]);
      expect(res.json().data.menus).toEqual(menus.get(who));
    }
  });

  it('answers code 300 without a session', async () => {
    const res = await call(f.ctx, 'POST', '/api/admin/role/getUserRole', {}, { host: f.t.host });
    expect(res.json().code).toBe(300);
  });
});

describe('menu tree for the role editor', () => {
  it('gives the administrator every item with every button', async () => {
    const res = await call(
      f.ctx,
      'POST',
      '/api/admin/role/menuTree',
      {},
      { host: f.t.host, token: f.as('admin').token },
    );
    expect(res.json().code).toBe(200);
    const nodes = allNodes(res.json().data);
    expect(nodes.map((n) => n.paths)).toEqual(expect.arrayContaining(['/basicSettings', '/rechargeReview']));
    const review = nodes.find((n) => n.paths === '/rechargeReview');
    expect(review?.subList).toEqual([{ name: '审核', name_en: 'Review', component: 'recharge:review' }]);
  });

  it('refuses the editor and the customer with code 401', async () => {
    for (const who of ['editor', 'customer'] as const) {
      const res = await call(
        f.ctx,
        'POST',
        '/api/admin/role/menuTree',
        {},
        { host: f.t.host, token: f.as(who).token },
      );
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ code: 401, msg: '没有权限执行此操作', data: null });
    }
  });
});
