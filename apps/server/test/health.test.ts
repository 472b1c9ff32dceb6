import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from '../src/lib/errors.ts';
import { useTestApp } from './fixture.ts';

/** Errors as node-postgres, Node and Drizzle throw them when the database is away. */
const connectionErrors: Record<string, () => Error> = {
  refused: () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
  reset: () => Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }),
  terminated: () => new Error('Connection terminated unexpectedly'),
  'pool timeout': () => new Error('timeout exceeded when trying to connect'),
  'connect timeout': () => new Error('Connection terminated due to connection timeout'),
  'admin shutdown': () =>
    Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
  'starting up': () => Object.assign(new Error('the database system is starting up'), { code: '57P03' }),
  'too many clients': () => Object.assign(new Error('sorry, too many clients already'), { code: '53300' }),
  'connection failure': () => Object.assign(new Error('connection failure'), { code: '08006' }),
  // Drizzle wraps the driver's error: the cause decides.
  'wrapped by drizzle': () =>
    new Error('Failed query: select 1', {
      cause: Object.assign(new Error('connect ECONNREFUSED ::1:5432'), { code: 'ECONNREFUSED' }),
    }),
  // Node tries every address of `localhost` and reports them together.
  'every address refused': () =>
    new AggregateError([Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })], ''),
};

const f = useTestApp({
  app: {
    extend(app) {
      app.get<{ Params: { kind: string } }>(
        '/api/test/database-away/:kind',
        { config: { public: true } },
        async (request) => {
          throw (connectionErrors[request.params.kind] as () => Error)();
        },
      );
      app.get('/api/test/duplicate', { config: { public: true } }, async () => {
        throw Object.assign(new Error('duplicate key value violates unique constraint'), { code: '23505' });
      });
    },
  },
});

const get = (url: string, language = 'zh-CN') =>
  f.ctx.app.inject({ method: 'GET', url, headers: { host: f.t.host, 'accept-language': language } });

describe('health and readiness', () => {
  it('answers /api/health with the status page fields and the database state', async () => {
    const res = await get('/api/health');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      code: 200,
      data: {
        version: expect.any(String),
        serverTime: expect.any(String),
        uptimeSeconds: expect.any(Number),
        database: { kind: f.ctx.database.kind, ok: true, latencyMs: expect.any(Number) },
      },
    });
  });

  it('is ready when the database answers and every migration of the release is applied', async () => {
    const res = await get('/api/health/ready');
    expect(res.statusCode).toBe(200);
    const { data } = res.json();
    expect(data).toMatchObject({ ready: true, shuttingDown: false, database: { ok: true } });
    expect(data.migrations.expected).toBeGreaterThan(0);
    expect(data.migrations.applied).toBe(data.migrations.expected);
  });

  it('is not ready, with 503 in the envelope, when a migration of the release is missing', async () => {
    const [last] = (
      (await f.db.execute(
        sql`delete from drizzle.__drizzle_migrations where id = (select max(id) from drizzle.__drizzle_migrations) returning hash, created_at`,
      )) as unknown as { rows: { hash: string; created_at: string }[] }
    ).rows;
    try {
      const res = await get('/api/health/ready', 'en-US');
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({
        code: 503,
        msg: 'The service is not ready',
        data: { ready: false },
      });
      expect(res.json().data.migrations.applied).toBe(res.json().data.migrations.expected - 1);
      // Alive all the same: the status page still answers.
      expect((await get('/api/health')).statusCode).toBe(200);
    } finally {
      await f.db.execute(
        sql`insert into drizzle.__drizzle_migrations (hash, created_at) values (${last?.hash}, ${last?.created_at})`,
      );
    }
    expect((await get('/api/health/ready')).statusCode).toBe(200);
  });
});

describe('a database that is away', () => {
  it.each(Object.keys(connectionErrors))(
    'answers %s with 503 in the envelope, in both languages',
    async (kind) => {
      const zh = await get(`/api/test/database-away/${encodeURIComponent(kind)}`);
      expect(zh.statusCode).toBe(503);
      expect(zh.json()).toEqual({ code: 503, msg: '数据库暂时无法访问,请稍后再试', data: null });
      expect(zh.headers['retry-after']).toBe('5');
      const en = await get(`/api/test/database-away/${encodeURIComponent(kind)}`, 'en-US');
      expect(en.json()).toEqual({
        code: 503,
        msg: 'The database is unavailable at the moment, please try again shortly',
        data: null,
      });
    },
  );

  it('keeps other database errors a 500 without their detail', async () => {
    const res = await get('/api/test/duplicate', 'en-US');
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({
      code: 500,
      msg: 'Internal server error, please try again later',
      data: null,
    });
    expect(
      isDatabaseUnavailable(Object.assign(new Error('relation does not exist'), { code: '42P01' })),
    ).toBe(false);
  });
});
