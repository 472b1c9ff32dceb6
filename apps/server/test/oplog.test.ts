import { constants, publicEncrypt } from 'node:crypto';
import { and, desc, eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { operationLogs } from '../src/db/schema.ts';
import { sha256Hex } from '../src/lib/crypto.ts';
import { useTestApp } from './fixture.ts';
import { allowNewCode, badFields, call, codeIn, lastMailTo, userIdOf } from './helpers.ts';

const f = useTestApp({ tenants: 2, signIn: [['admin', 'editor', 'customer'], ['admin']] });

let admin: string;
let editor: string;
let customer: string;
let adminId: number;

beforeAll(async () => {
  admin = f.as('admin').token as string;
  editor = f.as('editor').token as string;
  customer = f.as('customer').token as string;
  adminId = await userIdOf(f.ctx, f.t.tenant.id, f.t.email('admin'));
});

const post = (url: string, body: unknown, token = admin, language: 'zh-CN' | 'en-US' = 'zh-CN') =>
  call(f.ctx, 'POST', url, body, { host: f.t.host, token, language });

/** The newest log rows of the tenant for an action. */
async function logged(action: string, tenantId = f.t.tenant.id) {
  return f.db
    .select()
    .from(operationLogs)
    .where(and(eq(operationLogs.tenantId, tenantId), eq(operationLogs.action, action)))
    .orderBy(desc(operationLogs.id));
}

/** The request body the log kept for a row. */
const bodyOf = (row: { detail: unknown } | undefined): any =>
  (row?.detail as { body?: unknown } | null)?.body;

const siteBody = (overrides: Record<string, unknown> = {}) => ({
  siteName: 'Logged site',
  buttonColor: '#123456',
  logoUrl: null,
  logoCollapsedUrl: null,
  faviconUrl: null,
  copyright: '',
  filingNumber: '',
  filingHosts: [],
  ...overrides,
});

describe('what the operation log records', () => {
  it('records a successful sign-in with the user, the target, code 200 and the IP', async () => {
    const [row] = (await logged('auth.login')).filter((r) => r.userEmail === f.t.email('admin'));
    expect(row).toMatchObject({
      userId: adminId,
      method: 'POST',
      path: '/api/admin/auth/login',
      target: `user:${adminId}`,
      resultCode: 200,
      ip: '127.0.0.1',
    });
    expect(row?.requestId).not.toBe('');
    expect(JSON.stringify(row?.detail)).not.toContain(sha256Hex(f.t.password));
    expect(bodyOf(row).password).toBe('***');
    expect(bodyOf(row).code).toBe('***');
  });

  it('records a failed sign-in with the address tried and code 400', async () => {
    const email = f.t.email('direct');
    await call(
      f.ctx,
      'POST',
      '/api/admin/auth/login',
      { email, password: sha256Hex('wrong'), code: '123456' },
      { host: f.t.host },
    );
    const [row] = (await logged('auth.login')).filter((r) => r.userEmail === email);
    expect(row).toMatchObject({ userId: null, resultCode: 400, target: '' });
  });

  it('names the user of an encrypted sign-in', async () => {
    const email = f.t.email('agent');
    await allowNewCode(f.ctx, f.t.tenant.id, email);
    await call(f.ctx, 'POST', '/api/admin/auth/getVerificationCode', { email }, { host: f.t.host });
    const code = codeIn((await lastMailTo(f.ctx, f.t.tenant.id, email))?.text);
    const key = (await call(f.ctx, 'POST', '/api/publicKey', {}, { host: f.t.host })).json().data.publicKey;
    const param = publicEncrypt(
      { key, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
      Buffer.from(JSON.stringify({ email, password: sha256Hex(f.t.password), code })),
    ).toString('base64');
    expect((await call(f.ctx, 'POST', '/api/login', { param }, { host: f.t.host })).json().code).toBe(200);
    const [row] = await logged('auth.login');
    expect(row?.userEmail).toBe(email);
    expect(row?.userId).toBe(await userIdOf(f.ctx, f.t.tenant.id, email));
    expect(bodyOf(row).param).toBe('***');
  });

  it('records role saves, successful and failed, with the role as target', async () => {
    const name = `Logged role ${Date.now()}`;
    const ok = await post('/api/admin/role/save', { name, nameEn: 'Logged', menuIds: [20], buttonKeys: [] });
    const id = ok.json().data.id;
    const dup = await post('/api/admin/role/save', { name, nameEn: 'Again', menuIds: [20], buttonKeys: [] });
    expect(dup.json().code).toBe(400);
    const rows = await logged('role.save');
    expect(rows[1]).toMatchObject({ userId: adminId, target: `role:${id}`, resultCode: 200 });
    expect(rows[0]).toMatchObject({ userId: adminId, resultCode: 400 });
    expect(bodyOf(rows[1]).name).toBe(name);
  });

  it('records a refused call with code 401 and the caller', async () => {
    const editorId = await userIdOf(f.ctx, f.t.tenant.id, f.t.email('editor'));
    await post('/api/admin/role/delete', { id: f.t.roleIds.get('customer') }, editor);
    const [row] = await logged('role.delete');
    expect(row).toMatchObject({ userId: editorId, userEmail: f.t.email('editor'), resultCode: 401 });
  });

  it('records a call without a session with code 300', async () => {
    await call(f.ctx, 'POST', '/api/admin/site/save', siteBody(), { host: f.t.host });
    const [row] = await logged('site.save');
    expect(row).toMatchObject({ userId: null, resultCode: 300 });
  });

  it('records staff saves with the password masked', async () => {
    const email = `logged-${Date.now()}@${f.t.tenant.code}.example.com`;
    const res = await post('/api/admin/staff/save', {
      email,
      name: 'Logged staff',
      password: 'Secret-123',
      roleIds: [f.t.roleIds.get('editor')],
    });
    const id = res.json().data.id;
    const [row] = await logged('staff.save');
    expect(row).toMatchObject({ userId: adminId, target: `user:${id}`, resultCode: 200 });
    expect(bodyOf(row)).toMatchObject({ email, password: '***' });
    expect(JSON.stringify(row?.detail)).not.toContain('Secret-123');
  });

  it('records site saves, and a refused one with code 400', async () => {
    expect((await post('/api/admin/site/save', siteBody())).json().code).toBe(200);
    expect((await post('/api/admin/site/save', siteBody({ buttonColor: 'red' }))).json().code).toBe(400);
    const [bad, good] = await logged('site.save');
    expect(good).toMatchObject({ userId: adminId, target: `tenant:${f.t.tenant.code}`, resultCode: 200 });
    expect(bad).toMatchObject({ userId: adminId, resultCode: 400 });
  });

  it('records the address the connection came from, not one a client claims', async () => {
    await f.ctx.app.inject({
      method: 'POST',
      url: '/api/admin/auth/getVerificationCode',
      remoteAddress: '203.0.113.7',
      headers: { host: f.t.host, 'x-forwarded-for': '10.1.2.3', 'content-type': 'application/json' },
      payload: { email: `spoof-${Date.now()}@example.com` },
    });
    const [row] = await logged('auth.code');
    expect(row?.ip).toBe('203.0.113.7');
  });

  it('trusts the address a local proxy passes on', async () => {
    await f.ctx.app.inject({
      method: 'POST',
      url: '/api/admin/auth/getVerificationCode',
      remoteAddress: '127.0.0.1',
      headers: { host: f.t.host, 'x-forwarded-for': '198.51.100.4', 'content-type': 'application/json' },
      payload: { email: `proxied-${Date.now()}@example.com` },
    });
    const [row] = await logged('auth.code');
    expect(row?.ip).toBe('198.51.100.4');
  });

  it('writes nothing for calls that only read', async () => {
    const before = await f.db.select().from(operationLogs).where(eq(operationLogs.tenantId, f.t.tenant.id));
    await post('/api/admin/role/list', {});
    await post('/api/admin/staff/list', {});
    await post('/api/menu/navigate', {});
    const after = await f.db.select().from(operationLogs).where(eq(operationLogs.tenantId, f.t.tenant.id));
    expect(after).toHaveLength(before.length);
  });
});

describe('operation log list', () => {
  it("lists the tenant's rows newest first, without the request detail", async () => {
    const res = await post('/api/admin/operationLog/list', { limit: 200 });
    expect(res.json().code).toBe(200);
    const { list, total } = res.json().data;
    expect(total).toBeGreaterThan(0);
    expect(list[0]).not.toHaveProperty('detail');
    expect(list[0]).not.toHaveProperty('tenantId');
    const times = list.map((r: any) => new Date(r.createdAt).getTime());
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    // The other tenant's admin signed in too, but that row is not here.
    expect(list.some((r: any) => r.userEmail === f.tenant(1).email('admin'))).toBe(false);
    expect((await logged('auth.login', f.tenant(1).tenant.id)).length).toBeGreaterThan(0);
  });

  it('filters by keyword, action, result and time', async () => {
    const byAction = await post('/api/admin/operationLog/list', { action: 'role.save', limit: 50 });
    expect(byAction.json().data.list.length).toBeGreaterThan(0);
    expect(byAction.json().data.list.every((r: any) => r.action === 'role.save')).toBe(true);

    const failures = await post('/api/admin/operationLog/list', { result: 'failure', limit: 200 });
    expect(failures.json().data.list.every((r: any) => r.resultCode !== 200)).toBe(true);
    const successes = await post('/api/admin/operationLog/list', { result: 'success', limit: 200 });
    expect(successes.json().data.list.every((r: any) => r.resultCode === 200)).toBe(true);
    const all = await post('/api/admin/operationLog/list', { limit: 200 });
    expect(failures.json().data.total + successes.json().data.total).toBe(all.json().data.total);

    const byKeyword = await post('/api/admin/operationLog/list', { keyword: f.t.email('editor'), limit: 50 });
    expect(byKeyword.json().data.total).toBeGreaterThan(0);
    expect(byKeyword.json().data.list.every((r: any) => r.userEmail === f.t.email('editor'))).toBe(true);

    const future = await post('/api/admin/operationLog/list', {
      from: new Date(Date.now() + 3_600_000).toISOString(),
    });
    expect(future.json().data).toMatchObject({ list: [], total: 0 });
    const past = await post('/api/admin/operationLog/list', { to: '2000-01-01T00:00:00Z' });
    expect(past.json().data.total).toBe(0);
  });

  it('pages through the rows', async () => {
    const total = (await post('/api/admin/operationLog/list', {})).json().data.total;
    expect(total).toBeGreaterThan(10);
    const first = await post('/api/admin/operationLog/list', { page: 1, limit: 10 });
    const second = await post('/api/admin/operationLog/list', { page: 2, limit: 10 });
    expect(first.json().data.list).toHaveLength(10);
    const ids = [...first.json().data.list, ...second.json().data.list].map((r: any) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('names malformed filters', async () => {
    const res = await post('/api/admin/operationLog/list', { result: 'maybe', from: 'yesterday', limit: 3 });
    expect(res.statusCode).toBe(400);
    expect(badFields(res).sort()).toEqual(['from', 'limit', 'result']);
  });
});

describe('operation log export', () => {
  it('answers a real xlsx of the filtered rows', async () => {
    const res = await post('/api/admin/operationLog/export', { action: 'role.save' }, admin, 'en-US');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toContain('operation-log.xlsx');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const rows: unknown[][] = [];
    workbook.worksheets[0]?.eachRow((row) => {
      rows.push((row.values as unknown[]).slice(1));
    });
    expect(rows[0]).toEqual(['Time', 'User', 'Action', 'Target', 'Result code', 'IP', 'Path', 'Request id']);
    const expected = await logged('role.save');
    expect(rows.length - 1).toBe(expected.length);
    // The action in the reader's words, not its key.
    expect(rows.slice(1).every((r) => r[2] === 'Save role' && r[6] === '/api/admin/role/save')).toBe(true);
    expect(
      rows
        .slice(1)
        .map((r) => r[4])
        .sort(),
    ).toEqual(expected.map((r) => r.resultCode).sort());
  });
});

describe('operation log permissions', () => {
  it('refuses the editor and the customer with code 401', async () => {
    for (const url of ['/api/admin/operationLog/list', '/api/admin/operationLog/export']) {
      for (const token of [editor, customer]) {
        const res = await post(url, {}, token);
        expect(res.statusCode, url).toBe(403);
        expect(res.json().code, url).toBe(401);
      }
    }
  });

  it('answers code 300 without a session', async () => {
    for (const url of ['/api/admin/operationLog/list', '/api/admin/operationLog/export']) {
      expect((await call(f.ctx, 'POST', url, {}, { host: f.t.host })).json().code, url).toBe(300);
    }
  });
});
