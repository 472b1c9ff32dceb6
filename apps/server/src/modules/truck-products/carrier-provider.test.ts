import type { RatingBreakdown } from '@freight/contracts/truck-rating';
import { and, eq } from 'drizzle-orm';
import { PgTransaction } from 'drizzle-orm/pg-core';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/fixture.ts';
import { postMultipart } from '../../../test/helpers.ts';
import {
  creditTruck,
  ratedLtlProducts,
  savedQuoteId,
  streamedRates,
  truckBatchRow,
} from '../../../test/truck-fixtures.ts';
import { BATCH_COLUMNS } from '../truck-orders/batch.ts';
import { runHandoffJob } from '../truck-orders/carrier-handoff.ts';
import { HANDOFF_RETRIES } from '../truck-orders/handoff-queue.ts';
import { truckOrders } from '../truck-orders/schema.ts';
import { type TruckCarrierProvider, truckCarriers } from './carriers.ts';
import { truckProducts } from './schema.ts';

/**
 * A truck product served by a carrier's API rather than the tenant's lanes: a provider registered with
 * the line (as a carrier's folder would register its own) prices, books and cancels it, and quoting,
 * markups, booking and the order machine take it with no change of their own.
 */
const f = useTestApp({ signIn: ['admin', 'customer'], language: 'en-US' });

const booked: string[] = [];
const cancelled: string[] = [];

/** An LTL carrier that quotes every shipment 400.00 linehaul and 50.00 fuel, and answers its own reference. */
const testLtl: TruckCarrierProvider = {
  name: 'test-ltl',
  async rater() {
    return {
      async rate(_product, shipment) {
        const cost: RatingBreakdown = {
          lines: [],
          totalWeight: shipment.lines.length * 100,
          breakIndex: 0,
          deficitWeight: 0,
          deficitCharge: 0,
          grossCharge: 40_000,
          discount: 0,
          linehaul: 40_000,
          minimumApplied: false,
          fuel: 5_000,
          accessorials: [],
          insurance: null,
          total: 45_000,
        };
        return { ok: true, cost };
      },
    };
  },
  async book(db, booking) {
    // A carrier's call never runs while a transaction is open.
    if (db instanceof PgTransaction) throw new Error('booked inside a transaction');
    if (refusing.has(booking.orderNo)) throw new Error('the carrier is down');
    booked.push(booking.orderNo);
    const meanwhile = whileBooking;
    whileBooking = null;
    await meanwhile?.();
    return { reference: `TL-${booking.orderNo}` };
  },
  track: async () => [],
  async cancel(_db, booking) {
    cancelled.push(booking.orderNo);
  },
};

/** Orders the carrier fails to take, as a carrier that is down. */
const refusing = new Set<string>();

/** Runs once while the carrier answers the next booking: what another click does in the meantime. */
let whileBooking: (() => Promise<void>) | null = null;

let unregister: () => void = () => {};
let carrierProduct = 0;

beforeAll(async () => {
  unregister = truckCarriers.register(testLtl);
  const { productB } = await ratedLtlProducts(f.ctx, f.t, f.as('admin').token as string);
  carrierProduct = productB;
  // No page names a carrier for a truck product yet: the column is set as a carrier's set-up would.
  await f.db
    .update(truckProducts)
    .set({ provider: 'test-ltl' })
    .where(and(eq(truckProducts.tenantId, f.t.tenant.id), eq(truckProducts.id, productB)));
  await creditTruck(f.db, f.t.tenant.id, await f.orgOf('customer'), 1_000_000n);
});
afterAll(() => unregister());

describe('a truck product served by a carrier provider', () => {
  it('refuses a second provider of a name the line has', () => {
    expect(() => truckCarriers.register({ ...testLtl })).toThrow(
      'two truck carrier providers named "test-ltl"',
    );
    expect(() => truckCarriers.register({ ...testLtl, name: 'builtin' })).toThrow('named "builtin"');
  });

  it('is priced by its carrier with the markups down the tree, booked and cancelled through it', async () => {
    const quoteId = await savedQuoteId(f.as('customer'));
    const lines = await streamedRates(f.as('customer'), quoteId);
    const results = lines.at(-1).results as { productId: number; ok: boolean; total?: string }[];
    const carrier = results.find((r) => r.productId === carrierProduct);
    // 450.00 at cost, then the branch's 10 %, the agent's 5 % + 2.00 and the customer's 8 %.
    const expected = Math.round(Math.round(Math.round(45_000 * 1.1) * 1.05 + 200) * 1.08);
    expect(carrier).toMatchObject({ ok: true });
    expect(JSON.stringify(carrier)).toContain((expected / 100).toFixed(2));

    const order = await f
      .as('customer')
      .ok('/api/admin/order/save', { quoteId, productId: carrierProduct, customerOrderNo: 'PO-LTL-1' });
    expect(booked).toEqual([order.orderNo]);
    const { order: info } = await f.as('customer').ok('/api/admin/order/info', { id: order.id });
    expect(info.carrierInfo).toBe(`TL-${order.orderNo}`);

    await f
      .as('customer')
      .ok('/api/admin/order/transition', { id: order.id, action: 'cancel', reason: 'Plans changed' });
    expect(cancelled).toEqual([order.orderNo]);
  });

  it('calls the carrier booking off when another click took the quote while the carrier answered', async () => {
    booked.length = 0;
    cancelled.length = 0;
    const quoteId = await savedQuoteId(f.as('customer'));
    await streamedRates(f.as('customer'), quoteId);
    const body = { quoteId, productId: carrierProduct, customerOrderNo: 'PO-LTL-3' };
    let second = '';
    whileBooking = async () => {
      second = (await f.as('customer').ok('/api/admin/order/save', body)).orderNo;
    };
    const first = await f.as('customer').fail('/api/admin/order/save', body, 409);
    expect(first.msg).toBeTruthy();
    expect(booked).toHaveLength(2);
    // The first click's booking reached the carrier but its order was never written: called off there.
    expect(cancelled).toEqual(booked.filter((orderNo) => orderNo !== second));
    expect(cancelled).toHaveLength(1);
    const { list } = await f
      .as('customer')
      .ok('/api/admin/order/list', { page: 1, limit: 10, keyword: 'PO-LTL-3' });
    expect(list.map((o: { orderNo: string }) => o.orderNo)).toEqual([second]);
  });

  it('leaves the carrier no booking but the written order’s when two clicks book one quote at once', async () => {
    booked.length = 0;
    cancelled.length = 0;
    const quoteId = await savedQuoteId(f.as('customer'));
    await streamedRates(f.as('customer'), quoteId);
    const body = { quoteId, productId: carrierProduct, customerOrderNo: 'PO-LTL-2' };
    const answers = await Promise.all([1, 2].map(() => f.as('customer').post('/api/admin/order/save', body)));
    const codes = answers.map((res) => res.json().code).sort();
    expect(codes).toEqual([200, 409]);
    const kept = answers.map((res) => res.json()).find((json) => json.code === 200)?.data.orderNo;
    // A click that reached the carrier before losing the quote is called off there: the carrier keeps
    // exactly the booking of the order written.
    expect(booked).toContain(kept);
    expect(cancelled).toEqual(booked.filter((orderNo) => orderNo !== kept));
  });

  it('takes a batch’s carrier orders pending and hands them over after the batch commits, paid only then', async () => {
    booked.length = 0;
    const [product] = await f.db
      .select({ code: truckProducts.code })
      .from(truckProducts)
      .where(and(eq(truckProducts.tenantId, f.t.tenant.id), eq(truckProducts.id, carrierProduct)));
    const wb = new ExcelJS.Workbook();
    const sheet = wb.addWorksheet('Orders');
    sheet.addRow(BATCH_COLUMNS.map((c) => c.en));
    sheet.addRow(truckBatchRow({ customerOrderNo: 'PO-LTL-BATCH', productCode: product?.code }));
    // While the carrier answers, the customer tries to pay the order.
    let refusal = '';
    whileBooking = async () => {
      const { list } = await f
        .as('customer')
        .ok('/api/admin/order/list', { page: 1, limit: 10, keyword: 'PO-LTL-BATCH' });
      refusal = (await f.as('customer').fail('/api/admin/order/pay', { id: list[0].id }, 409)).msg;
    };
    const token = f.as('customer').token ?? '';
    const imported = await postMultipart(
      f.ctx,
      '/api/admin/order/batchOrdering',
      [
        { name: 'token', value: token },
        {
          name: 'file',
          filename: 'orders.xlsx',
          contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
          content: Buffer.from(await wb.xlsx.writeBuffer()),
        },
      ],
      { host: f.t.host, token, language: 'en-US' },
    );
    // Had the carrier been called inside the batch's transaction, it would have refused.
    expect(imported.json()).toMatchObject({ code: 200 });
    const { list } = await f
      .as('customer')
      .ok('/api/admin/order/list', { page: 1, limit: 10, keyword: 'PO-LTL-BATCH' });
    const order = list[0] as { id: number; orderNo: string };

    // Until the carrier takes it, it cannot be paid; then it carries the carrier's reference.
    const read = async () =>
      (
        await f.db
          .select()
          .from(truckOrders)
          .where(and(eq(truckOrders.tenantId, f.t.tenant.id), eq(truckOrders.id, order.id)))
      )[0];
    await expect.poll(async () => (await read())?.carrierPending, { timeout: 15_000 }).toBe(false);
    expect(refusal).toBe(
      `Order ${order.orderNo} is being handed to its carrier; it can be paid once the carrier accepts it`,
    );
    expect(await read()).toMatchObject({ carrierInfo: `TL-${order.orderNo}`, status: 'unpaid' });
    expect(booked).toEqual([order.orderNo]);
    await f.as('customer').ok('/api/admin/order/pay', { id: order.id });
  });

  it('cancels a batch order its carrier never takes after the last try, and tells its booker', async () => {
    const [row] = await f.db
      .select()
      .from(truckOrders)
      .where(and(eq(truckOrders.tenantId, f.t.tenant.id), eq(truckOrders.customerOrderNo, 'PO-LTL-BATCH')));
    if (!row) throw new Error('the batch order is missing');
    // The same order as it stood before its handoff, asked for a second time by a carrier that is down.
    const pendingNo = `${row.orderNo}-R`;
    const [pending] = await f.db
      .insert(truckOrders)
      .values({
        ...row,
        id: undefined,
        orderNo: pendingNo,
        status: 'unpaid',
        paid: 0n,
        paidAt: null,
        carrierInfo: '',
        carrierPending: true,
      } as typeof truckOrders.$inferInsert)
      .returning();
    if (!pending) throw new Error('no pending order');
    refusing.add(pendingNo);
    const job = (retryCount: number) => ({
      id: `handoff-${retryCount}`,
      name: 'truck-order-handoff',
      data: { orderId: pending.id },
      tenantId: f.t.tenant.id,
      retryCount,
    });
    const log = { error: () => {}, warn: () => {}, info: () => {} } as never;
    // A try before the last fails for the queue to try again; the order waits.
    await expect(runHandoffJob(f.db, job(0), log)).rejects.toThrow('the carrier is down');
    const waiting = await f.as('customer').ok('/api/admin/order/info', { id: pending.id });
    expect(waiting.order).toMatchObject({ status: 'unpaid', carrierPending: true });
    await runHandoffJob(f.db, job(HANDOFF_RETRIES), log);
    const { order } = await f.as('customer').ok('/api/admin/order/info', { id: pending.id });
    expect(order).toMatchObject({ status: 'cancelled', carrierPending: false, paid: '0.00' });
    const told = await f.as('customer').ok('/api/admin/notice/list', { page: 1, limit: 50 });
    expect(JSON.stringify(told.list)).toContain(
      `The carrier did not accept order ${pendingNo}: the order was cancelled`,
    );
    refusing.delete(pendingNo);
  });
});
