import { and, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../test/helpers.ts';
import type { Database } from '../db/client.ts';
import { truckOrderCounts, truckOrders } from '../db/schema.ts';
import { insertRows, recordSet } from './bulk-insert.ts';

let database: Database;
const TENANT = 9_001;

/** An order row as the database takes it; `n` makes its numbers unique. */
function order(n: number, change: Partial<typeof truckOrders.$inferInsert> = {}) {
  return {
    tenantId: TENANT,
    orderNo: `BULK${String(n).padStart(6, '0')}`,
    queryCode: `Q${n}`,
    organisationId: 7,
    userId: 3,
    carrier: 'Carrier',
    mode: 'LTL' as const,
    status: 'unpaid' as const,
    shipment: { note: `O'Neil "Dock" \\ 北京 ${n}`, lines: [{ weight: 800 }] } as never,
    quote: { ok: true, cents: 12_345 } as never,
    levels: [],
    total: 9_007_199_254_740_993n,
    branchPrice: null,
    origin: 'Los Angeles, CA 90001',
    destination: 'Dallas, TX 75201',
    transitDaysMin: 2,
    transitDaysMax: 5,
    pickupCode: '000001',
    deliveryCode: '000002',
    createdAt: new Date('2026-03-04T05:06:07.089Z'),
    ...change,
  };
}

const bulkRows = () =>
  database.db
    .select()
    .from(truckOrders)
    .where(and(eq(truckOrders.tenantId, TENANT), like(truckOrders.orderNo, 'BULK%')))
    .orderBy(truckOrders.orderNo);

beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database.close();
});

describe('bulk insert', () => {
  it('writes every value exactly as a drizzle insert would, defaults included, a chunk a statement', async () => {
    await insertRows(
      database.db,
      truckOrders,
      Array.from({ length: 5 }, (_, i) => order(i)),
      2,
    );
    const rows = await bulkRows();
    expect(rows).toHaveLength(5);
    const [first] = rows;
    expect(first).toMatchObject({
      orderNo: 'BULK000000',
      shipment: { note: `O'Neil "Dock" \\ 北京 0`, lines: [{ weight: 800 }] },
      quote: { ok: true, cents: 12_345 },
      levels: [],
      // Cents beyond a float's exact integers stay exact; a missing level stays null.
      total: 9_007_199_254_740_993n,
      branchPrice: null,
      createdAt: new Date('2026-03-04T05:06:07.089Z'),
      // Columns the rows left out take their defaults.
      customerOrderNo: '',
      freight: 0n,
      paidAt: null,
    });
    // The kept counts follow a bulk write like any other.
    const [kept] = await database.db
      .select({ n: truckOrderCounts.n })
      .from(truckOrderCounts)
      .where(and(eq(truckOrderCounts.tenantId, TENANT), eq(truckOrderCounts.status, 'unpaid')));
    expect(kept?.n).toBe(5);
  });

  it('leaves generated columns to the database when a row read back whole is written again', async () => {
    await insertRows(database.db, truckOrders, [order(900, { customerOrderNo: 'po-9' })]);
    const [read] = (await bulkRows()).filter((r) => r.orderNo === 'BULK000900');
    expect(read?.customerOrderNoUpper).toBe('PO-9');
    const { id: _id, ...copy } = read as NonNullable<typeof read>;
    await insertRows(database.db, truckOrders, [
      { ...copy, orderNo: 'BULK000901', customerOrderNo: 'po-10' },
    ]);
    const [again] = (await bulkRows()).filter((r) => r.orderNo === 'BULK000901');
    expect(again?.customerOrderNoUpper).toBe('PO-10');
    await database.db
      .delete(truckOrders)
      .where(and(eq(truckOrders.tenantId, TENANT), like(truckOrders.orderNo, 'BULK0009%')));
  });

  it('refuses rows that give different columns, before writing any', async () => {
    expect(() => recordSet(truckOrders, [order(10), order(11, { customerOrderNo: 'PO-1' })])).toThrow(
      /same columns/,
    );
    expect(() => recordSet(truckOrders, [order(12, { customerOrderNo: 'PO-1' }), order(13)])).toThrow(
      /same columns/,
    );
    expect(await bulkRows()).toHaveLength(5);
  });

  it('ends at the first chunk that fails, and its transaction writes nothing', async () => {
    // The third chunk repeats an order number: the unique index refuses it.
    const rows = [order(20), order(21), order(22), order(23), order(0)];
    await expect(database.db.transaction((tx) => insertRows(tx, truckOrders, rows, 2))).rejects.toThrow();
    expect((await bulkRows()).map((r) => r.orderNo)).not.toContain('BULK000020');
    expect(await bulkRows()).toHaveLength(5);
  });
});
