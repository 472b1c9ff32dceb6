import { describe, expect, it } from 'vitest';
import type { Db } from '../src/db/client.ts';
import { useTestApp } from './fixture.ts';

/** Every query started on the reader, by the builder method that started it. */
const started: string[] = [];
const QUERY_STARTS = new Set(['select', 'selectDistinct', 'selectDistinctOn', 'execute', '$count', 'with']);

/** The primary itself, counting what is asked of it as the reader (a replica in production). */
function countingReader(db: Db): Db {
  return new Proxy(db, {
    get(target, prop, receiver) {
      if (typeof prop === 'string' && QUERY_STARTS.has(prop)) started.push(prop);
      return Reflect.get(target, prop, receiver);
    },
  });
}

const f = useTestApp({
  signIn: ['admin', 'customer'],
  app: { database: (database) => ({ ...database, reader: countingReader(database.db) }) },
});

/** How many queries the reader started during a call, and the call's answer. */
async function readerQueries(call: () => Promise<{ statusCode: number }>) {
  const before = started.length;
  const res = await call();
  expect(res.statusCode).toBe(200);
  return started.length - before;
}

describe('reports read the replica (DATABASE_REPLICA_URL), the rest reads the primary', () => {
  it('exports of orders, waybills and the ledger read the reader', async () => {
    const admin = f.as('admin');
    expect(await readerQueries(() => admin.post('/api/admin/order/export', {}))).toBeGreaterThan(0);
    expect(await readerQueries(() => admin.post('/api/express/order/export', {}))).toBeGreaterThan(0);
    for (const path of ['detailsExport', 'logExport', 'deductionsExport']) {
      expect(
        await readerQueries(() => admin.post(`/api/admin/account/${path}`, { line: 'truck' })),
        path,
      ).toBeGreaterThan(0);
    }
  });

  it("the dashboards' figures read the reader", async () => {
    for (const who of ['admin', 'customer'] as const) {
      expect(await readerQueries(() => f.as(who).post('/api/admin/order/stats', {}))).toBeGreaterThan(0);
      expect(await readerQueries(() => f.as(who).post('/api/express/order/stats', {}))).toBeGreaterThan(0);
    }
  });

  it('pages that must see the caller’s own writes read the primary', async () => {
    const customer = f.as('customer');
    expect(await readerQueries(() => customer.post('/api/admin/order/list', { page: 1, limit: 10 }))).toBe(0);
    expect(await readerQueries(() => customer.post('/api/express/order/list', { page: 1, limit: 10 }))).toBe(
      0,
    );
    expect(
      await readerQueries(() =>
        f.as('admin').post('/api/admin/account/details', { page: 1, limit: 10, line: 'truck' }),
      ),
    ).toBe(0);
  });
});
