import type { OrderStatus } from '@freight/contracts/truck-orders';
import { and, desc, eq, sql } from 'drizzle-orm';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { isoDay, useTestApp } from '../../../test/fixture.ts';
import { badFields, postMultipart, type Who } from '../../../test/helpers.ts';
import {
  dockAddress as address,
  creditTruck,
  ratedLtlProducts,
  savedQuoteId,
  ltlShipment as shipment,
  streamedRates,
} from '../../../test/truck-fixtures.ts';
import { ledgerEntries, notices, truckOrders } from '../../db/schema.ts';
import { ensureAccount, findAccount, ledgerMismatches } from '../accounts/service.ts';
import { findUserByEmail } from '../auth/service.ts';
import { organisations } from '../customers/schema.ts';
import { organisationScope } from '../customers/service.ts';
import { listOrders } from './list.ts';

const f = useTestApp({
  tenants: 2,
  signIn: [['admin', 'branch', 'agent', 'customer', 'direct'], ['admin']],
  language: 'en-US',
});
const orgs: Record<string, number> = {};
let productA: number;
let productB: number;

const post = (url: string, body: unknown, who: Who, tenant = f.t) => f.as(who, tenant).post(url, body);
const ok = (url: string, body: unknown, who: Who) => f.as(who).ok(url, body);

const rate = (quoteId: number, who: Who) => streamedRates(f.as(who), quoteId);
const quoteFor = (who: Who, body: Record<string, unknown> = shipment()) => savedQuoteId(f.as(who), body);

async function balanceOf(org: string) {
  const account = await ensureAccount(f.db, f.t.tenant.id, orgs[org] as number, 'truck');
  return (await findAccount(f.db, f.t.tenant.id, account.id))?.balance;
}

const credit = (org: string, cents: bigint) => creditTruck(f.db, f.t.tenant.id, orgs[org] as number, cents);

beforeAll(async () => {
  ({ productA, productB } = await ratedLtlProducts(f.ctx, f.t, f.as('admin').token as string));
  for (const who of ['branch', 'agent', 'customer', 'direct'] as const) orgs[who] = await f.orgOf(who);
});
afterEach(async () => {
  expect(await ledgerMismatches(f.db, f.t.tenant.id)).toEqual([]);
});

describe('booking and paying', () => {
  it('books unpaid when the funds are short, then pays once however often it is paid', async () => {
    const id = await quoteFor('customer');
    await rate(id, 'customer');
    const before = await balanceOf('customer');
    const booked = await ok(
      '/api/admin/order/save',
      { quoteId: id, productId: productA, customerOrderNo: 'PO-1' },
      'customer',
    );
    expect(booked.status).toBe('unpaid');
    expect(booked.payment.ok).toBe(false);
    expect(booked.payment.message).toContain('due 301.10');
    expect(await balanceOf('customer')).toBe(before);
    // The quote is taken: booking it again is refused.
    const again = await post('/api/admin/order/save', { quoteId: id, productId: productA }, 'customer');
    expect(again.json()).toMatchObject({ code: 409, msg: 'This quote has already been booked' });

    await credit('customer', 50_000n);
    const pays = await Promise.all(
      Array.from({ length: 5 }, () => post('/api/admin/order/pay', { id: booked.id }, 'customer')),
    );
    expect(pays.map((p) => p.json().code)).toEqual([200, 200, 200, 200, 200]);
    expect(pays.filter((p) => p.json().data.repeated === false)).toHaveLength(1);
    expect(await balanceOf('customer')).toBe((before ?? 0n) + 50_000n - 30_110n);

    const info = await ok('/api/admin/order/info', { id: booked.id }, 'customer');
    expect(info.order).toMatchObject({
      status: 'pending_review',
      customerOrderNo: 'PO-1',
      total: '301.10',
      freight: '161.99',
      fuel: '45.55',
      surcharge: '93.56',
      paid: '301.10',
      costPrice: null,
      agentPrice: null,
      branchPrice: null,
      origin: 'Los Angeles, CA 90001',
      destination: 'Dallas, TX 75201',
    });
    expect(info.order.orderNo).toMatch(/^TK\d{14}$/);
    expect(info.order.pickupCode).toMatch(/^\d{6}$/);
    expect(info.ledger.map((e: any) => [e.type, e.amount])).toEqual([['order_payment', '-301.10']]);
    // Paid and waiting for review: the customer may still cancel it, change its addresses, or claim.
    expect(info.order.actions).toEqual(['cancel', 'edit_address', 'open_work_order']);
    const staff = await ok('/api/admin/order/info', { id: booked.id }, 'admin');
    expect(staff.order).toMatchObject({ costPrice: '239.65', branchPrice: '263.61', agentPrice: '278.80' });
    const agent = await ok('/api/admin/order/info', { id: booked.id }, 'agent');
    expect(agent.order).toMatchObject({ costPrice: null, branchPrice: null, agentPrice: '278.80' });
  });

  it('moves an order from review to delivery by the machine, with its timeline', async () => {
    await credit('customer', 50_000n);
    const id = await quoteFor('customer');
    await rate(id, 'customer');
    const { id: orderId, status } = await ok(
      '/api/admin/order/save',
      { quoteId: id, productId: productB },
      'customer',
    );
    expect(status).toBe('pending_review');
    const move = (action: string, who: Who = 'admin', extra: Record<string, unknown> = {}) =>
      post('/api/admin/order/transition', { id: orderId, action, ...extra }, who);
    expect((await move('approve', 'customer')).json()).toMatchObject({
      code: 409,
      msg: "The order's status does not allow this action",
    });
    expect((await move('deliver')).json().code).toBe(409);
    expect((await move('approve')).json().data.status).toBe('to_be_picked_up');

    // Addresses may change until pickup, but not the ZIP codes that were priced.
    const newDock = { ...address('90001', 'CA', 'Los Angeles'), address1: '200 Dock Rd' };
    expect(
      (await post('/api/admin/order/editAddress', { id: orderId, pickup: newDock }, 'customer')).json().code,
    ).toBe(200);
    const moved = await post(
      '/api/admin/order/editAddress',
      { id: orderId, delivery: address('77002', 'TX', 'Houston') },
      'customer',
    );
    expect(badFields(moved)).toEqual(['delivery.zipcode']);

    expect((await move('pickup', 'admin', { carrierInfo: 'Truck 42' })).json().data.status).toBe('picked_up');
    const locked = await post('/api/admin/order/editAddress', { id: orderId, pickup: newDock }, 'customer');
    expect(locked.json()).toMatchObject({ code: 409 });
    expect((await move('depart')).json().data.status).toBe('in_transit');
    expect(badFields(await move('track_exception'))).toEqual(['reason']);
    expect((await move('track_exception', 'admin', { reason: 'GPS lost' })).json().data.status).toBe(
      'track_abnormal',
    );
    expect((await move('resume')).json().data.status).toBe('in_transit');
    expect((await move('deliver')).json().data.status).toBe('delivered');
    expect((await move('cancel', 'customer')).json().code).toBe(409);

    const info = await ok('/api/admin/order/info', { id: orderId }, 'customer');
    expect(info.order).toMatchObject({ status: 'delivered', carrierInfo: 'Truck 42' });
    expect(info.order.shipment.pickup.address1).toBe('200 Dock Rd');
    expect(info.timeline.map((e: any) => e.action)).toEqual([
      'book',
      'pay',
      'approve',
      'edit_address',
      'pickup',
      'depart',
      'track_exception',
      'resume',
      'deliver',
    ]);
  });

  it('refunds a rejected order in full, with a ledger row and a notice to the customer', async () => {
    await credit('customer', 50_000n);
    const id = await quoteFor('customer');
    await rate(id, 'customer');
    const { id: orderId } = await ok(
      '/api/admin/order/save',
      { quoteId: id, productId: productA },
      'customer',
    );
    const before = await balanceOf('customer');
    const rejected = await post(
      '/api/admin/order/bulkReview',
      { ids: [orderId], action: 'reject', reason: 'No truck' },
      'admin',
    );
    expect(rejected.json().data.results).toEqual({ [orderId]: 'success' });
    expect(await balanceOf('customer')).toBe((before ?? 0n) + 30_110n);
    const info = await ok('/api/admin/order/info', { id: orderId }, 'customer');
    expect(info.order).toMatchObject({ status: 'review_rejected', rejectReason: 'No truck', paid: '0.00' });
    expect(info.ledger.map((e: any) => [e.type, e.amount])).toEqual([
      ['refund', '301.10'],
      ['order_payment', '-301.10'],
    ]);
    const customer = await findUserByEmail(f.db, f.t.tenant.id, f.t.email('customer'));
    const [notice] = await f.db
      .select()
      .from(notices)
      .where(
        and(
          eq(notices.tenantId, f.t.tenant.id),
          eq(notices.userId, customer?.id ?? 0),
          eq(notices.orderSn, info.order.orderNo),
        ),
      );
    expect(notice?.content).toContain('301.10');
    // Rejecting again changes nothing.
    const twice = await post(
      '/api/admin/order/bulkReview',
      { ids: [orderId], action: 'reject', reason: 'x' },
      'admin',
    );
    expect(twice.json().data.results[orderId]).toBe("The order's status does not allow this action");
    expect(await balanceOf('customer')).toBe((before ?? 0n) + 30_110n);
  });

  it('lets the owner cancel before review, refunding, and keeps orders within each subtree', async () => {
    await credit('customer', 50_000n);
    const id = await quoteFor('customer');
    await rate(id, 'customer');
    const { id: orderId } = await ok(
      '/api/admin/order/save',
      { quoteId: id, productId: productA, customerOrderNo: 'PO-SEARCH-7' },
      'customer',
    );
    const before = await balanceOf('customer');
    expect(
      badFields(await post('/api/admin/order/transition', { id: orderId, action: 'cancel' }, 'customer')),
    ).toEqual(['reason']);
    const cancelled = await post(
      '/api/admin/order/transition',
      { id: orderId, action: 'cancel', reason: 'Plans changed' },
      'customer',
    );
    expect(cancelled.json().data.status).toBe('cancelled');
    expect(await balanceOf('customer')).toBe((before ?? 0n) + 30_110n);

    const list = (who: Who, body: Record<string, unknown> = {}) =>
      post('/api/admin/order/list', { page: 1, limit: 50, ...body }, who);
    const agentList = (await list('agent')).json().data;
    expect(agentList.total).toBeGreaterThan(0);
    expect(agentList.list.every((o: any) => o.organisationId === orgs.customer)).toBe(true);
    expect((await list('direct')).json().data.total).toBe(0);
    // Another tenant's session is no session here.
    const otherAdmin = f.withToken(f.as('admin', f.tenant(1)).token);
    expect((await otherAdmin.post('/api/admin/order/list', { page: 1, limit: 50 })).json().code).toBe(300);
    expect(
      (await post('/api/admin/order/list', { page: 1, limit: 50 }, 'admin', f.tenant(1))).json().data.total,
    ).toBe(0);
    expect((await post('/api/admin/order/info', { id: orderId }, 'direct')).json().code).toBe(404);
    const cancelledOnly = (await list('admin', { status: 'cancelled' })).json().data;
    expect(cancelledOnly.list.map((o: any) => o.id)).toContain(orderId);
    expect(cancelledOnly.counts.cancelled).toBeGreaterThan(0);
    expect((await list('customer', { status: 'nope' })).json().code).toBe(400);
    // The search matches the start of the numbers, in any case.
    const byCustomerNo = (await list('customer', { keyword: 'po-search' })).json().data;
    expect(byCustomerNo.list.map((o: any) => o.customerOrderNo)).toEqual(['PO-SEARCH-7']);
    const orderNo = cancelledOnly.list.find((o: any) => o.id === orderId).orderNo as string;
    expect(
      (await list('customer', { keyword: orderNo.slice(0, 12) })).json().data.list.map((o: any) => o.id),
    ).toContain(orderId);
    expect((await list('customer', { keyword: orderNo.slice(3) })).json().data.total).toBe(0);
    // Staff need the review button to review; a customer never may.
    expect(
      (await post('/api/admin/order/bulkReview', { ids: [orderId], action: 'approve' }, 'customer')).json()
        .code,
    ).toBe(401);
  });

  it('counts exactly up to the cap and says "more" beyond it', async () => {
    // Three orders of the customer's at least, whatever other tests booked.
    await credit('customer', 100_000n);
    for (let i = 0; i < 3; i++) {
      const quoteId = await quoteFor('customer');
      await rate(quoteId, 'customer');
      await ok('/api/admin/order/save', { quoteId, productId: productA }, 'customer');
    }
    const customer = await findUserByEmail(f.db, f.t.tenant.id, f.t.email('customer'));
    if (!customer) throw new Error('no demo customer');
    const exact = await listOrders(f.db, customer, { page: 1, limit: 10 });
    expect(exact.totalCapped).toBe(false);
    expect(exact.total).toBeGreaterThan(2);
    const sum = Object.values(exact.counts ?? {}).reduce((a, n) => a + n, 0);
    expect(sum).toBe(exact.total);
    const capped = await listOrders(f.db, customer, { page: 1, limit: 10 }, 2);
    expect(capped).toMatchObject({ total: 2, totalCapped: true, countCap: 2 });
    // The page itself is the same; only the counting stops.
    expect(capped.rows.map((o) => o.id)).toEqual(exact.rows.map((o) => o.id));
    for (const [status, n] of Object.entries(capped.counts ?? {}))
      expect(n).toBe(Math.min(exact.counts?.[status] ?? 0, 3));
    // Under a filter (a day range matching all of them) the figures are counted: grouped at once when
    // they fit the cap, each on its own when they do not.
    const filter = { page: 1, limit: 10, from: '2000-01-01' };
    const counted = await listOrders(f.db, customer, filter);
    expect(counted).toMatchObject({ total: exact.total, totalCapped: false, counts: exact.counts });
    const status = Object.keys(exact.counts ?? {})[0] as OrderStatus;
    const oneTab = await listOrders(f.db, customer, { ...filter, status, page: 2 });
    expect(oneTab).toMatchObject({ total: exact.counts?.[status], counts: null });
    const countedCapped = await listOrders(f.db, customer, filter, 2);
    expect(countedCapped).toMatchObject({ total: 2, totalCapped: true, countCap: 2 });
    for (const [status, n] of Object.entries(countedCapped.counts ?? {}))
      expect(n).toBe(Math.min(exact.counts?.[status] ?? 0, 3));
  });

  it("pages a branch's and an agent's orders by merging each organisation's, as through the subtree", async () => {
    // Orders of the agent and of the customer under it, interleaved in time, several at one instant.
    for (const [org, prefix] of [
      [orgs.agent, 'MA'],
      [orgs.customer, 'MC'],
    ] as const)
      await f.db.execute(sql`
        insert into truck_orders (tenant_id, order_no, query_code, organisation_id, user_id, carrier, mode, status,
          shipment, quote, levels, origin, destination, transit_days_min, transit_days_max, pickup_code, delivery_code,
          created_at)
        select ${f.t.tenant.id}, ${prefix} || g, ${prefix} || 'Q' || g, ${org}, 1, 'C', 'LTL',
          (array['unpaid','in_transit'])[1 + g % 2], '{}'::jsonb, '{}'::jsonb, '[]'::jsonb, 'A', 'B', 1, 2,
          '000000', '000000', timestamptz '2030-01-01 00:00:00Z' - ((g / 3) || ' minutes')::interval
        from generate_series(1, 23) as g`);
    for (const who of ['branch', 'agent'] as const) {
      const user = await findUserByEmail(f.db, f.t.tenant.id, f.t.email(who));
      if (!user) throw new Error(`no demo ${who}`);
      const path = (await organisationScope(f.db, user)) as { path: string };
      for (const status of [undefined, 'in_transit'] as const) {
        const all = await f.db
          .select({ id: truckOrders.id })
          .from(truckOrders)
          .innerJoin(
            organisations,
            and(
              eq(organisations.tenantId, truckOrders.tenantId),
              eq(organisations.id, truckOrders.organisationId),
            ),
          )
          .where(
            and(
              eq(truckOrders.tenantId, f.t.tenant.id),
              sql`${organisations.path} like ${`${path.path}%`}`,
              status ? eq(truckOrders.status, status) : undefined,
            ),
          )
          .orderBy(desc(truckOrders.createdAt), desc(truckOrders.id));
        expect(all.length).toBeGreaterThan(20);
        const paged: number[] = [];
        for (let page = 1; page <= Math.ceil(all.length / 10); page++) {
          const { rows } = await listOrders(f.db, user, { page, limit: 10, ...(status ? { status } : {}) });
          paged.push(...rows.map((o) => o.id));
        }
        expect(paged, `${who}, ${status ?? 'all'}`).toEqual(all.map((o) => o.id));
      }
    }
  });

  it('keeps the status counts equal to the orders themselves, however they were written', async () => {
    // Booked, paid, moved along and cancelled through the API, then moved behind the servers' backs.
    await credit('customer', 100_000n);
    const quoteId = await quoteFor('customer');
    await rate(quoteId, 'customer');
    const booked = await ok('/api/admin/order/save', { quoteId, productId: productA }, 'customer');
    await ok(
      '/api/admin/order/transition',
      { id: booked.id, action: 'cancel', reason: 'Changed plans' },
      'customer',
    );
    await f.db
      .update(truckOrders)
      .set({ status: 'delivered' })
      .where(and(eq(truckOrders.tenantId, f.t.tenant.id), eq(truckOrders.status, 'in_transit')));
    for (const who of ['admin', 'agent', 'customer', 'direct'] as const) {
      const user = await findUserByEmail(f.db, f.t.tenant.id, f.t.email(who));
      if (!user) throw new Error(`no demo ${who}`);
      const kept = await listOrders(f.db, user, { page: 1, limit: 10 });
      // A date filter that leaves nothing out takes the counted path.
      const counted = await listOrders(f.db, user, { page: 1, limit: 10, from: '2000-01-01' });
      expect(kept.counts, who).toEqual(counted.counts);
      expect(kept.total, who).toBe(counted.total);
      expect(kept.rows.map((o) => o.id)).toEqual(counted.rows.map((o) => o.id));
      const tab = await listOrders(f.db, user, { page: 1, limit: 10, status: 'cancelled' });
      expect(tab.total, who).toBe(counted.counts?.cancelled ?? 0);
    }
  });

  it('exports the orders of a filter as xlsx', async () => {
    const res = await f.ctx.app.inject({
      method: 'POST',
      url: '/api/admin/order/export',
      headers: { host: f.t.host, accesstoken: f.as('customer').token ?? '', 'accept-language': 'en-US' },
      payload: { page: 1, limit: 10 },
    });
    expect(res.headers['content-type']).toContain('spreadsheetml');
  });
});

describe('dashboards', () => {
  it("counts today's orders and money for the caller's subtree only", async () => {
    // One order of the customer's, booked, paid and delivered today, whatever other tests did.
    await credit('customer', 50_000n);
    const quoteId = await quoteFor('customer');
    await rate(quoteId, 'customer');
    const { id } = await ok('/api/admin/order/save', { quoteId, productId: productA }, 'customer');
    for (const action of ['approve', 'pickup', 'depart', 'deliver'])
      await ok('/api/admin/order/transition', { id, action, reason: 'test' }, 'admin');
    const dayBefore = isoDay();
    const staff = await ok('/api/admin/order/stats', {}, 'admin');
    const customer = await ok('/api/admin/order/stats', {}, 'customer');
    const direct = await ok('/api/admin/order/stats', {}, 'direct');
    expect(customer.today.orders).toBeGreaterThan(0);
    expect(staff.today.orders).toBe(customer.today.orders);
    expect(direct.today).toEqual({ orders: 0, paid: '0.00' });
    expect(customer.series).toHaveLength(30);
    // The day is the server's today: the one before or after the calls, should midnight fall between.
    expect([dayBefore, isoDay()]).toContain(customer.series.at(-1).day);
    expect(customer.series.at(-1)).toEqual({ day: customer.series.at(-1).day, ...customer.today });
    expect(customer.statuses.delivered).toBeGreaterThan(0);
    expect(customer.balance.available).toMatch(/^\d+\.\d\d$/);
    expect(staff.balance).toBeNull();
    expect((await post('/api/admin/order/stats', {}, 'admin', f.tenant(1))).json().data.today.orders).toBe(0);
  });
});

describe('every truck call', () => {
  it('answers 300 without a session, names a bad field with 400, and keeps its records to its tenant', async () => {
    const id = await quoteFor('customer');
    await rate(id, 'customer');
    await credit('customer', 50_000n);
    const order = await ok('/api/admin/order/save', { quoteId: id, productId: productA }, 'customer');
    const calls: [string, Record<string, unknown>][] = [
      ['/api/admin/quotation/getQuotationBaseInfo', {}],
      ['/api/admin/quotation/customerOptions', {}],
      ['/api/admin/quotation/getQuotationInfo', { id }],
      [
        '/api/admin/quotation/saveQuotationLocation',
        { id, pickup: address('90001', 'CA', 'LA'), delivery: address('75201', 'TX', 'Dallas') },
      ],
      ['/api/admin/quotation/saveQuotationDetail', { id, ...shipment() }],
      ['/api/admin/quotation/list', { page: 1, limit: 10 }],
      ['/api/admin/quotation/task/list', { page: 1, limit: 10 }],
      ['/api/admin/order/info', { id: order.id }],
      ['/api/admin/order/payInfo', { id: order.id }],
      ['/api/admin/order/list', { page: 1, limit: 10 }],
      ['/api/admin/order/pay', { id: order.id }],
      ['/api/admin/order/file', { id: order.id, url: '/api/uploads/x.pdf' }],
      ['/api/admin/order/editAddress', { id: order.id }],
      ['/api/admin/order/stats', {}],
    ];
    for (const [url, body] of calls) {
      const anonymous = await f.anonymous().post(url, body);
      expect(anonymous.json().code, url).toBe(300);
    }
    // Another tenant's staff never reach this tenant's quotes and orders.
    for (const [url, body] of calls.filter(([, b]) => 'id' in b)) {
      const foreign = await post(url, body, 'admin', f.tenant(1));
      expect(foreign.json().code, url).toBe(404);
    }
    // Bad input names the field.
    expect(badFields(await post('/api/admin/quotation/getQuotationInfo', { id: 'x' }, 'customer'))).toEqual([
      'id',
    ]);
    expect(badFields(await post('/api/admin/order/file', { id: order.id, url: '' }, 'customer'))).toEqual([
      'url',
    ]);
    expect(
      badFields(await post('/api/admin/order/transition', { id: order.id, action: 'fly' }, 'admin')),
    ).toEqual(['action']);
    expect(badFields(await post('/api/admin/order/save', { quoteId: id }, 'customer'))).toEqual([
      'productId',
    ]);
    // Only a document uploaded here may be attached; it is kept and shows in the timeline.
    expect(
      badFields(
        await post(
          '/api/admin/order/file',
          { id: order.id, url: 'https://elsewhere.example/x.pdf' },
          'customer',
        ),
      ),
    ).toEqual(['url']);
    const uploaded = await postMultipart(
      f.ctx,
      '/api/common/upload/documents',
      [
        {
          name: 'file',
          filename: 'bol.pdf',
          contentType: 'application/pdf',
          content: Buffer.from('%PDF-1.4\n%%EOF\n'),
        },
      ],
      { host: f.t.host, token: f.as('customer').token },
    );
    const [url] = uploaded.json().data;
    await ok('/api/admin/order/file', { id: order.id, url }, 'customer');
    const info = await ok('/api/admin/order/info', { id: order.id }, 'customer');
    expect(info.order.orderFileUrl).toBe(url);
    expect(info.timeline.at(-1).action).toBe('upload_file');
    // Whoever sees the order loads its file; a customer who does not gets 404, nobody signed out gets it.
    const load = (token?: string) =>
      f.ctx.app.inject({
        method: 'GET',
        url,
        headers: { host: f.t.host, ...(token ? { accesstoken: token } : {}) },
      });
    expect((await load(f.as('admin').token)).statusCode).toBe(200);
    expect((await load(f.as('direct').token)).statusCode).toBe(404);
    expect((await load()).json().code).toBe(300);
  });
});

describe('one payment function behind every way to pay', () => {
  /** A fresh unpaid order of the customer's, booked without paying. */
  async function unpaidOrder() {
    const id = await quoteFor('customer');
    await rate(id, 'customer');
    const booked = await ok(
      '/api/admin/order/save',
      { quoteId: id, productId: productA, pay: false },
      'customer',
    );
    expect(booked).toMatchObject({ status: 'unpaid', payment: null });
    return booked as { id: number; orderNo: string };
  }
  /** The ledger rows that name the order: only the payment function writes its key. */
  const paymentRows = (order: { id: number; orderNo: string }) =>
    f.db
      .select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.tenantId, f.t.tenant.id), eq(ledgerEntries.refId, order.orderNo)));
  const entryPoints: Record<string, (id: number) => Promise<{ json(): any }>> = {
    pay: (id) => post('/api/admin/order/pay', { id }, 'customer'),
    transition: (id) => post('/api/admin/order/transition', { id, action: 'pay' }, 'customer'),
    bulkPay: (id) => post('/api/admin/order/bulkPay', { ids: [id] }, 'customer'),
  };

  it('charges one ledger row under the same key whichever entry point pays, booking with pay included', async () => {
    await credit('customer', 200_000n);
    const id = await quoteFor('customer');
    await rate(id, 'customer');
    const saved = await ok('/api/admin/order/save', { quoteId: id, productId: productA }, 'customer');
    const paidBy: Record<string, { id: number; orderNo: string }> = { save: saved };
    for (const [name, pay] of Object.entries(entryPoints)) {
      const order = await unpaidOrder();
      expect((await pay(order.id)).json().code, name).toBe(200);
      paidBy[name] = order;
    }
    for (const [name, order] of Object.entries(paidBy)) {
      const rows = await paymentRows(order);
      expect(
        rows.map((r) => [r.type, r.amount, r.idempotencyKey]),
        name,
      ).toEqual([['order_payment', -30_110n, `truck-order-pay:${order.id}`]]);
      const info = await ok('/api/admin/order/info', { id: order.id }, 'customer');
      expect(info.order.status, name).toBe('pending_review');
      expect(
        info.timeline.filter((e: any) => e.action === 'pay'),
        name,
      ).toHaveLength(1);
    }
  });

  it('charges once when two different entry points pay the same order at the same moment', async () => {
    await credit('customer', 200_000n);
    for (const [first, second] of [
      ['pay', 'transition'],
      ['transition', 'bulkPay'],
      ['bulkPay', 'pay'],
    ] as const) {
      const order = await unpaidOrder();
      const before = await balanceOf('customer');
      const answers = await Promise.all([entryPoints[first]?.(order.id), entryPoints[second]?.(order.id)]);
      expect(answers.map((a) => a?.json().code)).toEqual([200, 200]);
      expect(await paymentRows(order)).toHaveLength(1);
      expect(await balanceOf('customer')).toBe((before ?? 0n) - 30_110n);
    }
    // Paid already: each entry point says so and charges nothing more.
    const order = await unpaidOrder();
    await entryPoints.pay?.(order.id);
    expect((await entryPoints.pay?.(order.id))?.json()).toMatchObject({
      code: 200,
      msg: 'The order is already paid',
      data: { repeated: true },
    });
    expect((await entryPoints.bulkPay?.(order.id))?.json().data.results).toEqual({
      [order.id]: 'The order is already paid',
    });
    expect(await paymentRows(order)).toHaveLength(1);
  });
});
