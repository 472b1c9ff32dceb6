import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from './fixture.ts';
import { badFields, call, fieldMessage } from './helpers.ts';

const f = useTestApp({
  signIn: ['customer'],
  app: {
    extend(app) {
      // A handler that fails the way a bug would, with details that must not reach the client.
      app.post('/api/test/boom', { config: { public: true } }, async () => {
        throw new Error('secret detail: connection string postgres://admin:hunter2@db');
      });
      app.get('/api/test/boom-sync', { config: { public: true } }, () => {
        throw new TypeError("Cannot read properties of undefined (reading 'id')");
      });
    },
  },
});
let token: string;
beforeAll(() => {
  token = f.as('customer').token as string;
});

const raw = (options: {
  method?: 'GET' | 'POST';
  url: string;
  payload?: string | Buffer;
  headers?: Record<string, string>;
}) =>
  f.ctx.app.inject({
    method: options.method ?? 'POST',
    url: options.url,
    headers: { host: f.t.host, 'content-type': 'application/json', ...options.headers },
    ...(options.payload !== undefined ? { payload: options.payload } : {}),
  });

describe('the envelope', () => {
  it('wraps a success as code 200 with the message in the language asked for', async () => {
    const zh = await call(f.ctx, 'POST', '/api/admin/auth/options', {}, { host: f.t.host });
    expect(zh.statusCode).toBe(200);
    expect(zh.headers['content-type']).toContain('application/json');
    expect(Object.keys(zh.json()).sort()).toEqual(['code', 'data', 'msg']);
    expect(zh.json().msg).toBe('操作成功');
    const en = await call(
      f.ctx,
      'POST',
      '/api/admin/auth/options',
      {},
      { host: f.t.host, language: 'en-US' },
    );
    expect(en.json().msg).toBe('Done');
  });

  it('answers an unknown API path with a 404 envelope', async () => {
    for (const method of ['GET', 'POST'] as const) {
      const res = await call(
        f.ctx,
        method,
        '/api/admin/nothing/here',
        {},
        { host: f.t.host, language: 'en-US' },
      );
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ code: 404, msg: 'No such API', data: null });
    }
    const zh = await call(f.ctx, 'POST', '/api/nope', {}, { host: f.t.host, token });
    expect(zh.json()).toEqual({ code: 404, msg: '接口不存在', data: null });
  });

  it('answers malformed JSON with a 400 envelope', async () => {
    const res = await raw({ url: '/api/admin/auth/getVerificationCode', payload: '{"email": "a@b.c",' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 400,
      msg: '请求内容不是有效的 JSON',
      data: { fields: [{ field: 'body', message: '请求内容不是有效的 JSON' }] },
    });
  });

  it('treats an empty JSON body as an empty object', async () => {
    const res = await raw({ url: '/api/admin/auth/getVerificationCode', payload: '' });
    expect(res.statusCode).toBe(400);
    expect(badFields(res)).toEqual(['email']);
  });

  it('answers a body of the wrong type with a 400-coded envelope', async () => {
    const res = await raw({
      url: '/api/admin/auth/getVerificationCode',
      payload: 'email=a@b.c',
      headers: { 'content-type': 'text/plain' },
    });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
    expect(res.json().code).toBe(400);
  });

  it('answers a body over the limit with a 413 envelope', async () => {
    const res = await raw({
      url: '/api/admin/auth/getVerificationCode',
      payload: JSON.stringify({ email: 'a@b.c', filler: 'x'.repeat(2 * 1024 * 1024 + 10) }),
      headers: { 'accept-language': 'en-US' },
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ code: 400, msg: 'The upload is too large' });
  });

  it('answers an unexpected error with a 500 envelope and no stack or detail', async () => {
    for (const request of [
      { method: 'POST' as const, url: '/api/test/boom', payload: '{}' },
      { method: 'GET' as const, url: '/api/test/boom-sync' },
    ]) {
      const res = await raw({ ...request, headers: { 'accept-language': 'en-US' } });
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({
        code: 500,
        msg: 'Internal server error, please try again later',
        data: null,
      });
      expect(res.body).not.toMatch(/hunter2|secret|stack|TypeError|\.ts:\d+|at /);
    }
    const zh = await raw({ url: '/api/test/boom', payload: '{}' });
    expect(zh.json().msg).toBe('服务器内部错误,请稍后再试');
  });
});

describe('status and common calls', () => {
  it('reports health: version, time and a working database', async () => {
    const res = await call(f.ctx, 'GET', '/api/health', undefined, { host: f.t.host });
    expect(res.json().code).toBe(200);
    const data = res.json().data;
    expect(data.version).toEqual(expect.any(String));
    expect(Math.abs(new Date(data.serverTime).getTime() - Date.now())).toBeLessThan(60_000);
    expect(data.database).toMatchObject({ kind: f.ctx.database.kind, ok: true });
    expect(data.database.latencyMs).toBeGreaterThanOrEqual(0);
  });

  it('tells the server time without a session', async () => {
    const before = Date.now();
    const res = await call(f.ctx, 'GET', '/api/common/params/getServerTime', undefined, { host: f.t.host });
    const { time, timestamp } = res.json().data;
    expect(timestamp).toBeGreaterThanOrEqual(before);
    expect(timestamp).toBeLessThanOrEqual(Date.now());
    expect(new Date(time).getTime()).toBe(timestamp);
  });

  it('checks the shape of an address', async () => {
    const address = { address1: '1 Main St', city: 'Austin', state: 'TX', zipcode: '73301', country: 'US' };
    const ok = await call(f.ctx, 'POST', '/api/common/params/checkAddress', address, {
      host: f.t.host,
      token,
    });
    expect(ok.json()).toMatchObject({ code: 200, data: { valid: true, normalized: address } });
    const bad = await call(
      f.ctx,
      'POST',
      '/api/common/params/checkAddress',
      { ...address, zipcode: '7330', city: '' },
      { host: f.t.host, token, language: 'en-US' },
    );
    expect(bad.statusCode).toBe(400);
    expect(badFields(bad).sort()).toEqual(['city', 'zipcode']);
    expect(fieldMessage(bad, 'zipcode')).toBe('Please enter a five-digit ZIP code');
    expect(fieldMessage(bad, 'city')).toBe('City is required');
    const anonymous = await call(f.ctx, 'POST', '/api/common/params/checkAddress', address, {
      host: f.t.host,
    });
    expect(anonymous.json().code).toBe(300);
  });

  it('answers the waiting counts as zeros', async () => {
    const res = await call(f.ctx, 'GET', '/api/admin/recharge/waitNum', undefined, { host: f.t.host, token });
    expect(res.json()).toMatchObject({ code: 200, data: { waitNum: 0, expressWaitNum: 0 } });
    const anonymous = await call(f.ctx, 'GET', '/api/admin/recharge/waitNum', undefined, { host: f.t.host });
    expect(anonymous.json().code).toBe(300);
  });

  it("answers the user's notices as an empty list", async () => {
    const res = await call(
      f.ctx,
      'POST',
      '/api/admin/notice/userNotices',
      { type: 0, token },
      { host: f.t.host, token },
    );
    expect(res.json()).toMatchObject({ code: 200, data: { list: [] } });
    const asText = await call(
      f.ctx,
      'POST',
      '/api/admin/notice/userNotices',
      { type: '0' },
      { host: f.t.host, token },
    );
    expect(asText.json().code).toBe(200);
    const bad = await call(
      f.ctx,
      'POST',
      '/api/admin/notice/userNotices',
      { type: 'all' },
      { host: f.t.host, token },
    );
    expect(badFields(bad)).toEqual(['type']);
    const anonymous = await call(
      f.ctx,
      'POST',
      '/api/admin/notice/userNotices',
      { type: 0 },
      { host: f.t.host },
    );
    expect(anonymous.json().code).toBe(300);
  });

  it('answers the ad list', async () => {
    const res = await call(f.ctx, 'GET', '/api/common/ads', undefined, { host: f.t.host, token });
    expect(res.json()).toMatchObject({ code: 200, data: { list: [] } });
  });

  it('describes the API at /api/docs without a session', async () => {
    const res = await f.ctx.app.inject({ method: 'GET', url: '/api/docs/json', headers: { host: f.t.host } });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/api/admin/auth/login', '/api/admin/role/save', '/api/admin/staff/list']),
    );
  });
});
