import { brotliDecompressSync } from 'node:zlib';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/fixture.ts';
import type { Who } from '../../../test/helpers.ts';
import { creditTruck, ratedLtlProducts, savedQuoteId, streamedRates } from '../../../test/truck-fixtures.ts';
import { truckOrders } from '../../db/schema.ts';
import { findUserByEmail } from '../auth/service.ts';
import { grantsForUser } from '../roles/service.ts';
import { listOrdersFor } from './list.ts';

/**
 * The list as it opens is kept between calls (listOrdersFor) and served again only while the database
 * gives the same rows, versions and counts. Each test changes what a kept page shows behind the
 * server's back, with no announcement, and the next call must show it.
 */
const f = useTestApp({ signIn: ['admin', 'agent', 'customer'], language: 'en-US' });
let productA: number;

const firstPage = { page: 1, limit: 10 };

async function viewer(who: Who) {
  const user = await findUserByEmail(f.db, f.t.tenant.id, f.t.email(who));
  if (!user) throw new Error(`no demo ${who}`);
  const grants = await grantsForUser(f.db, f.t.tenant.id, user.id, false);
  return { ...user, grants: grants.keys };
}

async function bookFor(who: Who, customerOrderNo: string) {
  const quoteId = await savedQuoteId(f.as(who));
  await streamedRates(f.as(who), quoteId);
  return (await f.as(who).ok('/api/admin/order/save', { quoteId, productId: productA, customerOrderNo }))
    .id as number;
}

beforeAll(async () => {
  ({ productA } = await ratedLtlProducts(f.ctx, f.t, f.as('admin').token as string));
  await creditTruck(f.db, f.t.tenant.id, await f.orgOf('customer'), 1_000_000n);
  await bookFor('customer', 'PO-KEPT-1');
});

describe('the order list kept between calls', () => {
  it('serves the kept page while nothing changed, and the orders as they are once anything did', async () => {
    const customer = await viewer('customer');
    const first = await listOrdersFor(f.db, customer, firstPage);
    expect(await listOrdersFor(f.db, customer, firstPage)).toBe(first);

    // Any column of a listed order, written by another process: the next call shows it.
    const listed = first.list[0];
    if (!listed) throw new Error('the customer has no order');
    await f.db
      .update(truckOrders)
      .set({ customerOrderNo: 'PO-CHANGED-BEHIND' })
      .where(and(eq(truckOrders.tenantId, f.t.tenant.id), eq(truckOrders.id, listed.id)));
    const changed = await listOrdersFor(f.db, customer, firstPage);
    expect(changed).not.toBe(first);
    expect(changed.list.find((o) => o.id === listed.id)?.customerOrderNo).toBe('PO-CHANGED-BEHIND');
    expect(await listOrdersFor(f.db, customer, firstPage)).toBe(changed);

    // A status change moves the counts as well as the row.
    await f.db
      .update(truckOrders)
      .set({ status: 'cancelled' })
      .where(and(eq(truckOrders.tenantId, f.t.tenant.id), eq(truckOrders.id, listed.id)));
    const cancelled = await listOrdersFor(f.db, customer, firstPage);
    expect(cancelled.list.find((o) => o.id === listed.id)?.status).toBe('cancelled');
    expect(cancelled.counts?.cancelled).toBe((changed.counts?.cancelled ?? 0) + 1);

    // A new order heads the list and the total.
    const added = await bookFor('customer', 'PO-KEPT-2');
    const after = await listOrdersFor(f.db, customer, firstPage);
    expect(after.list[0]?.id).toBe(added);
    expect(after.total).toBe(cancelled.total + 1);

    // And a removed one leaves it.
    await f.db
      .delete(truckOrders)
      .where(and(eq(truckOrders.tenantId, f.t.tenant.id), eq(truckOrders.id, added)));
    const removed = await listOrdersFor(f.db, customer, firstPage);
    expect(removed.list.map((o) => o.id)).not.toContain(added);
    expect(removed.total).toBe(cancelled.total);
  });

  it('keeps a page per viewer: an agent sees its price and a customer does not', async () => {
    const [agent, customer] = [await viewer('agent'), await viewer('customer')];
    const byAgent = await listOrdersFor(f.db, agent, firstPage);
    const byCustomer = await listOrdersFor(f.db, customer, firstPage);
    expect(byAgent.list.length).toBeGreaterThan(0);
    expect(byAgent.list.every((o) => o.agentPrice !== null)).toBe(true);
    expect(byCustomer.list.every((o) => o.agentPrice === null)).toBe(true);
    // The staff's page shows the cost price; no customer's does.
    const staff = await listOrdersFor(f.db, await viewer('admin'), firstPage);
    expect(staff.list.every((o) => o.costPrice !== null)).toBe(true);
  });

  it('keeps a page per set of grants: a button taken away leaves the actions of the next call', async () => {
    const customer = await viewer('customer');
    await bookFor('customer', 'PO-KEPT-3');
    const withAll = await listOrdersFor(f.db, customer, firstPage);
    // A freshly booked order may still be cancelled by its customer.
    const cancellable = withAll.list.find((o) => o.actions.includes('cancel'));
    expect(cancellable).toBeDefined();
    const fewer = new Set([...customer.grants].filter((key) => key !== 'order:cancel'));
    const without = await listOrdersFor(f.db, { ...customer, grants: fewer }, firstPage);
    expect(without.list.find((o) => o.id === cancellable?.id)?.actions).not.toContain('cancel');
  });

  it('answers a browser the same page compressed as it answers a client that takes no compression', async () => {
    const ask = (encoding: string | null) =>
      f.ctx.app.inject({
        method: 'POST',
        url: '/api/admin/order/list',
        headers: {
          host: f.t.host,
          accesstoken: f.as('customer').token as string,
          'accept-language': 'en-US',
          ...(encoding ? { 'accept-encoding': encoding } : {}),
        },
        payload: firstPage,
      });
    const plain = await ask(null);
    for (const round of [1, 2]) {
      const packed = await ask('gzip, deflate, br');
      expect(packed.headers['content-encoding'], `call ${round}`).toBe('br');
      expect(JSON.parse(brotliDecompressSync(packed.rawPayload).toString('utf8'))).toEqual(plain.json());
    }
    expect(plain.json().data.list.length).toBeGreaterThan(0);
  });
});
