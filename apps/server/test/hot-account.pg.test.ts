import { and, eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ledgerEntries } from '../src/db/schema.ts';
import { useTestApp } from './fixture.ts';
import { partsShipment } from './truck-fixtures.ts';

/**
 * The pool (DATABASE_POOL_MAX connections) is smaller than the burst: payments wait in line for a
 * connection (up to DATABASE_ACQUIRE_TIMEOUT_MS) and for the account's row lock, and none is refused.
 * PostgreSQL only: the embedded database has no pool.
 */
const f = useTestApp({ truck: true, signIn: ['customer'] });

const ORDERS = 200;

/** Books one unpaid order of the customer and answers its id, number and total in cents. */
async function bookUnpaid() {
  const { id: quoteId } = await f.truck.ok('/api/admin/quotation/save', partsShipment(), 'customer');
  const rates = await f.truck.post('/api/admin/quotation/rates', { id: quoteId }, 'customer');
  const done = rates.body
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line))
    .at(-1);
  const productId = done.results.find((r: { ok: boolean }) => r.ok).productId;
  const order = await f.truck.ok('/api/admin/order/save', { quoteId, productId, pay: false }, 'customer');
  return order as { id: number; orderNo: string };
}

describe('a burst of payments on one account', () => {
  it(`queues ${ORDERS} payments at once on one account for a connection: every one paid, none 503, money exact`, async () => {
    await f.truck.setBalance('customer', 100_000_000n);
    const orders = [];
    for (let i = 0; i < ORDERS; i++) orders.push(await bookUnpaid());
    const before = await f.truck.balanceOf('customer');

    const answers = await Promise.all(
      orders.map((o) => f.truck.post('/api/admin/order/pay', { id: o.id }, 'customer')),
    );
    const codes = answers.map((res) => `${res.statusCode}/${res.json().code}`);
    expect(codes.filter((c) => c !== '200/200')).toEqual([]);

    const rows = await f.db
      .select({ ref: ledgerEntries.refId, cents: ledgerEntries.amount })
      .from(ledgerEntries)
      .where(
        and(
          eq(ledgerEntries.type, 'order_payment'),
          inArray(
            ledgerEntries.refId,
            orders.map((o) => o.orderNo),
          ),
        ),
      );
    expect(rows).toHaveLength(ORDERS);
    expect(new Set(rows.map((r) => r.ref)).size).toBe(ORDERS);
    const paid = rows.reduce((sum, r) => sum + r.cents, 0n);
    expect(await f.truck.balanceOf('customer')).toBe(before + paid);
  }, 180_000);
});
