import { randomBytes } from 'node:crypto';
import { get } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { testConfig } from '../src/config.ts';
import { type Db, openDatabase } from '../src/db/client.ts';
import { roles, users } from '../src/db/schema.ts';
import { currentTenantId } from '../src/db/tenant-scope.ts';
import { useTestApp } from './fixture.ts';
import type { TestTenant } from './helpers.ts';

/**
 * Row-level security is the second guard under the application's own `tenant_id` filters. PGlite is
 * one superuser session, so there the policies are checked in the catalog and under `SET ROLE`; on
 * PostgreSQL an app connects as a role that is no superuser, and its requests run queries that name
 * no tenant at all.
 */
const onPostgres = process.env.TEST_DB === 'pg';
const role = `fp_rls_${process.pid}_${randomBytes(3).toString('hex')}`;
const f = useTestApp({ tenants: 2, app: { extend: registerProbes } });
let a: TestTenant;
let b: TestTenant;

/** Tables every seeded tenant has rows in. */
const seededTables = ['users', 'roles', 'role_grants', 'user_roles', 'organisations', 'receiving_accounts'];

/**
 * Test-only routes that forget their tenant on purpose: they read tables with no `where`, through the
 * pool and in a transaction, and say which tenant the request ran as.
 */
function registerProbes(app: FastifyInstance) {
  const look = async () => {
    const before = currentTenantId();
    const read = await app.db.selectDistinct({ tenantId: users.tenantId }).from(users);
    await new Promise((resolve) => setImmediate(resolve));
    const written = await app.db.transaction((tx) =>
      tx.selectDistinct({ tenantId: roles.tenantId }).from(roles),
    );
    const tenantIds = [...new Set([...read, ...written].map((r) => r.tenantId))].sort((x, y) => x - y);
    return { scope: [before, currentTenantId()], tenantIds };
  };
  app.get('/api/probe/unscoped', { config: { public: true, raw: true } }, look);
  app.post('/api/probe/unscoped', { config: { public: true, raw: true } }, look);
  // The way the quote rates stream: the answer is written line by line, the database read in between.
  app.post('/api/probe/unscoped/stream', { config: { public: true, raw: true } }, async (_request, reply) => {
    reply.hijack();
    reply.raw.writeHead(200, { 'content-type': 'application/x-ndjson' });
    reply.raw.write(`${JSON.stringify({ started: currentTenantId() })}\n`);
    await new Promise((resolve) => setTimeout(resolve, 5));
    reply.raw.write(`${JSON.stringify(await look())}\n`);
    reply.raw.end();
  });
  // A stream handed to Fastify: big lines, so a slow reader makes the socket push back and the stream
  // is read on from the socket's own events.
  app.get(
    '/api/probe/unscoped/readable',
    { config: { public: true, raw: true } },
    async (_request, reply) => {
      async function* lines() {
        for (let i = 0; i < 100; i++) {
          const line = i % 25 === 24 ? await look() : { scope: [currentTenantId()] };
          yield `${JSON.stringify(line)}${' '.repeat(20_000)}\n`;
        }
      }
      reply.header('content-type', 'application/x-ndjson');
      return reply.send(Readable.from(lines()));
    },
  );
}

/** Reads a GET answer over a real socket, a little at a time. */
async function slowlyRead(app: FastifyInstance, host: string, path: string): Promise<string> {
  const address = app.server.listening
    ? `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`
    : await app.listen({ port: 0, host: '127.0.0.1' });
  return new Promise((resolve, reject) => {
    get(`${address}${path}`, { headers: { host } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      const take = () => {
        for (let chunk = res.read(16_384); chunk !== null; chunk = res.read(16_384)) text += chunk;
      };
      const reading = setInterval(take, 2);
      res.on('end', () => {
        clearInterval(reading);
        take();
        resolve(text);
      });
      res.on('error', reject);
    }).on('error', reject);
  });
}

/**
 * Runs `fn` in a transaction as the role that is no superuser, with the settings the server sets: a
 * tenant, system work (`'system'`), or nothing declared at all (`null`: neither setting is touched).
 */
async function asRole<T>(db: Db, tenantId: number | 'system' | null, fn: (tx: Db) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.execute(sql.raw(`set local role ${role}`));
    if (tenantId === 'system') await tx.execute(sql`select set_config('app.system', 'on', true)`);
    else if (tenantId !== null)
      await tx.execute(sql`select set_config('app.tenant_id', ${String(tenantId)}, true)`);
    return fn(tx as unknown as Db);
  });
}

type Query = Parameters<Db['execute']>[0];

async function rowsOf<T>(db: Db, query: Query): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

/** How many rows a statement changed (node-postgres and PGlite name it differently). */
async function changed(db: Db, query: Query): Promise<number> {
  const result = (await db.execute(query)) as unknown as { rowCount?: number; affectedRows?: number };
  return result.rowCount ?? result.affectedRows ?? 0;
}

async function tenantIdsIn(db: Db, table: string): Promise<number[]> {
  const rows = await rowsOf<{ id: number }>(
    db,
    sql.raw(`select distinct tenant_id::int as id from ${table} order by 1`),
  );
  return rows.map((r) => r.id);
}

/** The database's own words for a refused statement (drizzle wraps them in its own error). */
async function refusal(work: Promise<unknown>): Promise<string> {
  try {
    await work;
  } catch (error) {
    const cause = (error as { cause?: { message?: string } }).cause;
    return cause?.message ?? (error as Error).message;
  }
  return 'not refused';
}

beforeAll(async () => {
  a = f.tenant(0);
  b = f.tenant(1);
  await f.db.execute(sql.raw(`create role ${role} login`));
  await f.db.execute(sql.raw(`grant usage on schema public to ${role}`));
  await f.db.execute(
    sql.raw(`grant select, insert, update, delete on all tables in schema public to ${role}`),
  );
  await f.db.execute(sql.raw(`grant usage, select on all sequences in schema public to ${role}`));
});

/** Hands the job queue's schema and everything in it to `owner` (an SQL expression naming a role). */
function pgbossOwnedBy(owner: string) {
  return `DO $$
    DECLARE r record;
    BEGIN
      IF to_regnamespace('pgboss') IS NULL THEN RETURN; END IF;
      EXECUTE format('ALTER SCHEMA pgboss OWNER TO %I', ${owner});
      FOR r IN SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'pgboss' AND c.relkind IN ('r', 'p', 'S', 'v') LOOP
        EXECUTE format('ALTER TABLE pgboss.%I OWNER TO %I', r.relname, ${owner});
      END LOOP;
      FOR r IN SELECT p.oid::regprocedure AS sig FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
        WHERE n.nspname = 'pgboss' LOOP
        EXECUTE format('ALTER FUNCTION %s OWNER TO %I', r.sig, ${owner});
      END LOOP;
      FOR r IN SELECT t.typname FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace
        WHERE n.nspname = 'pgboss' AND t.typtype = 'e' LOOP
        EXECUTE format('ALTER TYPE pgboss.%I OWNER TO %I', r.typname, ${owner});
      END LOOP;
    END $$`;
}

afterAll(async () => {
  // The queue's schema goes back to the superuser before the role's grants and objects are dropped.
  if (onPostgres) await f.db.execute(sql.raw(pgbossOwnedBy('current_user')));
  // Roles belong to the whole server, not to the test's database: leave none behind (`drop owned`
  // takes back its grants, on the database too).
  await f.db.execute(sql.raw(`drop owned by ${role}`));
  await f.db.execute(sql.raw(`drop role ${role}`));
});

/** A transaction that sets `app.tenant_id` to the empty string, as the server did for system work before. */
function emptyTenantIdsIn(table: string) {
  return f.db.transaction(async (tx) => {
    await tx.execute(sql.raw(`set local role ${role}`));
    await tx.execute(sql`select set_config('app.tenant_id', '', true)`);
    return tenantIdsIn(tx as unknown as Db, table);
  });
}

describe('row-level security by tenant', () => {
  it('guards every table that has a tenant_id with a forced policy', async () => {
    const tables = await rowsOf<{ table: string; enabled: boolean; forced: boolean; policies: number }>(
      f.db,
      sql`
      select c.relname as table, c.relrowsecurity as enabled, c.relforcerowsecurity as forced,
             (select count(*)::int from pg_policies p
               where p.schemaname = n.nspname and p.tablename = c.relname) as policies
        from pg_class c
        join pg_namespace n on n.oid = c.relnamespace
       where n.nspname = current_schema() and c.relkind = 'r'
         and exists (select 1 from pg_attribute a
                      where a.attrelid = c.oid and a.attname = 'tenant_id' and not a.attisdropped)
       order by 1`,
    );
    expect(tables.length).toBeGreaterThan(40);
    const unguarded = tables.filter((t) => !t.enabled || !t.forced || t.policies !== 1).map((t) => t.table);
    expect(unguarded).toEqual([]);
    // The tenants themselves are looked up by host before any tenant is known.
    expect(tables.map((t) => t.table)).not.toContain('tenants');
  });

  it("shows a connection set to one tenant only that tenant's rows, though the query names none", async () => {
    for (const table of seededTables) {
      expect(await tenantIdsIn(f.db, table), table).toEqual(
        expect.arrayContaining([a.tenant.id, b.tenant.id]),
      );
      expect(await asRole(f.db, a.tenant.id, (tx) => tenantIdsIn(tx, table)), table).toEqual([a.tenant.id]);
      expect(await asRole(f.db, b.tenant.id, (tx) => tenantIdsIn(tx, table)), table).toEqual([b.tenant.id]);
    }
    // System work, declared, sees everything: migrations, seeding, sweeps.
    const all = await asRole(f.db, 'system', (tx) => tenantIdsIn(tx, 'users'));
    expect(all).toEqual(expect.arrayContaining([a.tenant.id, b.tenant.id]));
  });

  it('fails closed: a connection that declared nothing, or an empty tenant, sees no row and writes none', async () => {
    for (const table of seededTables) {
      expect(await asRole(f.db, null, (tx) => tenantIdsIn(tx, table)), table).toEqual([]);
      expect(await emptyTenantIdsIn(table), table).toEqual([]);
    }
    const planted = refusal(
      asRole(f.db, null, (tx) =>
        tx.insert(roles).values({ tenantId: a.tenant.id, name: 'planted', nameEn: 'planted' }),
      ),
    );
    expect(await planted).toMatch(/row-level security/);
    // Only the exact word declares system work.
    const sloppy = await f.db.transaction(async (tx) => {
      await tx.execute(sql.raw(`set local role ${role}`));
      await tx.execute(sql`select set_config('app.system', 'true', true)`);
      return tenantIdsIn(tx as unknown as Db, 'users');
    });
    expect(sloppy).toEqual([]);
    // Every table's policy is the closed one, whichever migration made it.
    const open = await rowsOf<{ table: string }>(
      f.db,
      sql`select tablename as table from pg_policies
           where schemaname = current_schema() and qual not like '%app.system%'`,
    );
    expect(open).toEqual([]);
  });

  it("refuses to write a row of another tenant and cannot change or delete the other tenant's rows", async () => {
    const inserted = refusal(
      asRole(f.db, a.tenant.id, (tx) =>
        tx.insert(roles).values({ tenantId: b.tenant.id, name: 'planted', nameEn: 'planted' }),
      ),
    );
    expect(await inserted).toMatch(/row-level security/);
    const moved = refusal(
      asRole(f.db, a.tenant.id, (tx) =>
        tx.execute(sql`update roles set tenant_id = ${b.tenant.id} where tenant_id = ${a.tenant.id}`),
      ),
    );
    expect(await moved).toMatch(/row-level security/);
    const touched = await asRole(f.db, a.tenant.id, async (tx) => [
      await changed(tx, sql`update roles set name = 'renamed' where tenant_id = ${b.tenant.id}`),
      await changed(tx, sql`delete from user_roles where tenant_id = ${b.tenant.id}`),
    ]);
    expect(touched).toEqual([0, 0]);
    const [renamed] = await rowsOf<{ n: number }>(
      f.db,
      sql`select count(*)::int as n from roles where name = 'renamed'`,
    );
    expect(renamed?.n).toBe(0);
  });
});

describe("a request's own tenant, below the application's filters", () => {
  /** On PostgreSQL, an app whose connections log in as the role that is no superuser. */
  let guarded: { app: FastifyInstance; close(): Promise<void> } | undefined;

  beforeAll(async () => {
    if (!onPostgres) return;
    const [row] = await rowsOf<{ name: string }>(f.db, sql`select current_database() as name`);
    const url = new URL(process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
    url.username = role;
    url.password = '';
    url.pathname = `/${row?.name}`;
    // Opening the database checks the migrations, which reads their table.
    await f.db.execute(sql.raw(`grant usage, create on schema drizzle to ${role}`));
    await f.db.execute(sql.raw(`grant select on all tables in schema drizzle to ${role}`));
    await f.db.execute(sql.raw(`grant create on database "${row?.name}" to ${role}`));
    // In production the role owns the database, so the job queue's schema is its own: here the queue
    // was installed by the test's superuser app, and is handed over the same way.
    await f.db.execute(sql.raw(pgbossOwnedBy(`'${role}'`)));
    const database = await openDatabase({ url: url.toString() });
    const app = await buildApp({
      config: testConfig({ DATA_DIR: `/tmp/fp-test-${process.pid}` }),
      database,
      mailer: null,
      serveWeb: false,
    });
    registerProbes(app);
    await app.ready();
    guarded = {
      app,
      async close() {
        await app.close();
        await database.close();
      },
    };
  });
  afterAll(async () => {
    await guarded?.close();
  });

  /** The app under test: the guarded one on PostgreSQL, the fixture's (one superuser session) on PGlite. */
  const app = () => guarded?.app ?? f.ctx.app;
  const probe = async (tenant: TestTenant, how: 'get' | 'post' | 'stream') => {
    const res = await app().inject({
      method: how === 'get' ? 'GET' : 'POST',
      url: how === 'stream' ? '/api/probe/unscoped/stream' : '/api/probe/unscoped',
      headers: { host: tenant.host },
      ...(how === 'get' ? {} : { payload: { note: 'x'.repeat(20_000) } }),
    });
    expect(res.statusCode).toBe(200);
    const lines = res.body
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    if (how === 'stream') expect(lines[0]).toEqual({ started: tenant.tenant.id });
    return lines.at(-1) as { scope: number[]; tenantIds: number[] };
  };

  it("runs a request's work as its tenant, through the body's reading and a streamed answer", async () => {
    const read = await slowlyRead(app(), a.host, '/api/probe/unscoped/readable');
    const lines = read
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { scope: number[]; tenantIds?: number[] });
    expect(lines).toHaveLength(100);
    expect(new Set(lines.flatMap((line) => line.scope))).toEqual(new Set([a.tenant.id]));
    if (onPostgres)
      expect(new Set(lines.flatMap((line) => line.tenantIds ?? []))).toEqual(new Set([a.tenant.id]));
    for (const how of ['get', 'post', 'stream'] as const) {
      const seen = await probe(a, how);
      expect(seen.scope, how).toEqual([a.tenant.id, a.tenant.id]);
      // PGlite's one superuser session goes around the policies; PostgreSQL's role does not.
      if (onPostgres) expect(seen.tenantIds, how).toEqual([a.tenant.id]);
      else expect(seen.tenantIds, how).toEqual(expect.arrayContaining([a.tenant.id, b.tenant.id]));
    }
    // Outside a request the server works for no tenant.
    expect(currentTenantId()).toBeNull();
  });

  it("keeps concurrent requests of two tenants on one pool from seeing each other's rows", async () => {
    // More requests than the pool has connections, so each connection serves both tenants in turn.
    const callers = Array.from({ length: 40 }, (_, i) => {
      const tenant = i % 2 === 0 ? a : b;
      const how = (['get', 'post', 'stream'] as const)[i % 3] ?? 'get';
      return probe(tenant, how).then((seen) => ({ tenant: tenant.tenant.id, seen }));
    });
    for (const { tenant, seen } of await Promise.all(callers)) {
      expect(seen.scope).toEqual([tenant, tenant]);
      if (onPostgres) expect(seen.tenantIds).toEqual([tenant]);
    }
  });
});
