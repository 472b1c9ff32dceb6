import { and, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  badFields,
  call,
  createTenant,
  createTestApp,
  postMultipart,
  signInAs,
  type TestContext,
  type TestTenant,
} from '../../../test/helpers.ts';
import { ledgerEntries, notices, truckQuotes } from '../../db/schema.ts';
import { ensureAccount, findAccount, ledgerMismatches, moveMoney } from '../accounts/service.ts';
import { findUserByEmail } from '../auth/service.ts';
import { savePriceLevel } from '../customers/service.ts';
import { listOrders } from './service.ts';

let ctx: TestContext;
let t: TestTenant;
let other: TestTenant;
const tokens: Record<string, string> = {};
const orgs: Record<string, number> = {};
let productA: number;
let productB: number;

const post = (url: string, body: unknown, who: string, tenant = t) =>
  call(ctx, 'POST', url, body, { host: tenant.host, token: tokens[who], language: 'en-US' });
const ok = async (url: string, body: unknown, who: string) => {
  const res = await post(url, body, who);
  expect(res.json(), url).toMatchObject({ code: 200 });
  return res.json().data;
};

const address = (zipcode: string, state: string, city: string) => ({
  name: 'Warehouse',
  address1: '100 Main St',
  zipcode,
  city,
  state,
  contact: 'Pat Lee',
  phone: '2135550100',
  email: 'dock@example.com',
});

const shipment = (extra: Record<string, unknown> = {}) => ({
  mode: 'LTL',
  pickup: address('90001', 'CA', 'Los Angeles'),
  delivery: address('75201', 'TX', 'Dallas'),
  quoteDate: '2026-11-23',
  lines: [
    {
      name: 'Auto parts',
      quantity: 40,
      palletCount: 2,
      length: 48,
      width: 40,
      height: 48,
      totalWeight: 800,
      freightClass: '70',
    },
  ],
  accessorials: ['liftgate_delivery'],
  ...extra,
});

/** Reads the NDJSON stream of a quote's prices. */
async function rate(quoteId: number, who: string) {
  const res = await post('/api/admin/quotation/rates', { id: quoteId }, who);
  expect(res.headers['content-type']).toContain('application/x-ndjson');
  return res.body
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
}

async function quoteFor(who: string, body: Record<string, unknown> = shipment()) {
  const { id } = await ok('/api/admin/quotation/save', body, who);
  return id as number;
}

async function balanceOf(org: string) {
  const account = await ensureAccount(ctx.database.db, t.tenant.id, orgs[org] as number, 'truck');
  return (await findAccount(ctx.database.db, t.tenant.id, account.id))?.balance;
}

async function credit(org: string, cents: bigint) {
  const account = await ensureAccount(ctx.database.db, t.tenant.id, orgs[org] as number, 'truck');
  await moveMoney(ctx.database.db, {
    tenantId: t.tenant.id,
    accountId: account.id,
    type: 'manual_adjustment',
    amount: cents,
    note: 'test funds',
  });
}

beforeAll(async () => {
  ctx = await createTestApp();
  t = await createTenant(ctx);
  other = await createTenant(ctx);
  for (const who of ['admin', 'branch', 'agent', 'customer', 'direct'] as const) {
    tokens[who] = await signInAs(ctx, t, who);
    const user = await findUserByEmail(ctx.database.db, t.tenant.id, t.email(who));
    if (user?.organisationId) orgs[who] = user.organisationId;
  }
  tokens.otherAdmin = await signInAs(ctx, other, 'admin');

  const product = async (code: string, transitDaysMax: number) =>
    (
      await ok(
        '/api/admin/product/save',
        {
          code,
          name: code,
          nameEn: code,
          carrier: `${code} Lines`,
          mode: 'LTL',
          transitDaysMin: 1,
          transitDaysMax,
        },
        'admin',
      )
    ).id as number;
  productA = await product('LTL-A', 5);
  productB = await product('LTL-B', 3);
  for (const [productId, base] of [
    [productA, 1],
    [productB, 2],
  ] as const) {
    await ok(
      '/api/admin/product/saveTerms',
      {
        id: productId,
        accessorialFees: { liftgate_delivery: '75.00', residential_delivery: '60.00' },
        insuranceRatePercent: '0.30',
        minimumPremium: '25.00',
        deductible: '100.00',
      },
      'admin',
    );
    await ok(
      '/api/admin/freightRule/lane/save',
      {
        productId,
        origin: '900-935',
        destination: 'TX',
        ltl: {
          breaks: [0, 500, 1000],
          rates: {
            '70': ['52.00', '45.76', '39.52'].map((r) => (Number(r) * base).toFixed(2)),
            '125': ['70.00', '61.60', '53.20'],
          },
          minimumCharge: '95.00',
          discountPercent: '65',
          fuelPercent: '28.5',
        },
      },
      'admin',
    );
  }
  // Markups down the tree: the platform sets the branch's, the branch the agent's, the agent the customer's.
  const level = (org: string, percentBp: number, fixedCents: bigint) =>
    savePriceLevel(ctx.database.db, {
      tenantId: t.tenant.id,
      organisationId: orgs[org] as number,
      line: 'truck',
      productKey: '',
      markupPercentBp: percentBp,
      markupFixedCents: fixedCents,
      updatedBy: 1,
    });
  await level('branch', 1_000, 0n);
  await level('agent', 500, 200n);
  await level('customer', 800, 0n);
});
afterEach(async () => {
  expect(await ledgerMismatches(ctx.database.db, t.tenant.id)).toEqual([]);
});
afterAll(() => ctx.close());

describe('quoting', () => {
  it('streams each product as it is priced, then the whole answer, with the cheapest and fastest marked', async () => {
    const id = await quoteFor('customer');
    const lines = await rate(id, 'customer');
    expect(lines.map((l) => l.type)).toEqual(['result', 'result', 'done']);
    // Money on the wire is a decimal string, in the streamed lines as in every other answer.
    const streamed = lines.find((l) => l.result.productId === productA).result;
    expect(streamed.levels.at(-1).total).toBe('301.10');
    const done = lines[2];
    const a = done.results.find((r: any) => r.productId === productA);
    const b = done.results.find((r: any) => r.productId === productB);
    expect(a).toMatchObject({ ok: true, cheapest: true, fastest: false });
    expect(b).toMatchObject({ ok: true, cheapest: false, fastest: true });
    // Priced by hand: 800 lb of class 70 at 45.76/cwt = 366.08; 65 % off = 128.13; fuel 28.5 % = 36.52;
    // liftgate 75.00. Cost 239.65; branch +10 %, agent +5 % and 2.00, customer +8 %, each part rounded.
    expect(a.levels).toEqual([
      {
        organisationId: orgs.customer,
        type: 'customer',
        linehaul: '161.99',
        fuel: '45.55',
        accessorials: [{ code: 'liftgate_delivery', fee: '93.56' }],
        insurance: '0.00',
        total: '301.10',
      },
    ]);
    // The customer sees weights and classes, never the operator's rates.
    expect(a.breakdown.lines[0]).not.toHaveProperty('rate');
    expect(a.breakdown).not.toHaveProperty('linehaul');
  });

  it('shows staff every level, and an agent its own and its customer’s', async () => {
    const id = await quoteFor('customer');
    await rate(id, 'customer');
    const staff = await ok('/api/admin/quotation/getQuotationInfo', { id }, 'admin');
    const a = staff.results.find((r: any) => r.productId === productA);
    expect(a.levels.map((l: any) => [l.type, l.total])).toEqual([
      ['platform', '239.65'],
      ['branch', '263.61'],
      ['agent', '278.80'],
      ['customer', '301.10'],
    ]);
    expect(a.breakdown.lines[0]).toMatchObject({ rate: '45.76', charge: '366.08' });
    expect(a.breakdown).toMatchObject({
      grossCharge: '366.08',
      discount: '237.95',
      linehaul: '128.13',
      fuel: '36.52',
    });
    const agent = await ok('/api/admin/quotation/getQuotationInfo', { id }, 'agent');
    expect(agent.results[0].levels.map((l: any) => l.type)).toEqual(['agent', 'customer']);
    expect((await post('/api/admin/quotation/getQuotationInfo', { id }, 'direct')).json().code).toBe(404);
    expect(
      (await post('/api/admin/quotation/getQuotationInfo', { id }, 'otherAdmin', other)).json().code,
    ).toBe(404);
  });

  it('needs a new quote once the shipment changes, and refuses an expired one', async () => {
    const id = await quoteFor('customer');
    await rate(id, 'customer');
    await ok(
      '/api/admin/quotation/saveQuotationDetail',
      { id, ...shipment({ accessorials: [] }) },
      'customer',
    );
    const info = await ok('/api/admin/quotation/getQuotationInfo', { id }, 'customer');
    expect(info.results).toEqual([]);
    const stale = await post('/api/admin/order/save', { quoteId: id, productId: productA }, 'customer');
    expect(stale.json()).toMatchObject({ code: 409, msg: 'The shipment changed; please quote again' });

    await rate(id, 'customer');
    await ctx.database.db
      .update(truckQuotes)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(and(eq(truckQuotes.tenantId, t.tenant.id), eq(truckQuotes.id, id)));
    const expired = await post('/api/admin/order/save', { quoteId: id, productId: productA }, 'customer');
    expect(expired.json()).toMatchObject({ code: 409, msg: 'The quote has expired; please quote again' });
  });

  it('names each bad field of a quote and saves nothing', async () => {
    const bad = await post(
      '/api/admin/quotation/save',
      shipment({ pickup: { ...address('9000', 'California', 'LA'), phone: 'x' }, lines: [] }),
      'customer',
    );
    expect(bad.json().code).toBe(400);
    expect(badFields(bad)).toEqual(
      expect.arrayContaining(['pickup.zipcode', 'pickup.state', 'pickup.phone', 'lines']),
    );
    expect(bad.json().data.fields.find((f: any) => f.field === 'pickup.zipcode').message).toBe(
      'Please enter a five-digit ZIP code',
    );
    // Staff quote for a customer and must say which.
    const staff = await post('/api/admin/quotation/save', shipment(), 'admin');
    expect(badFields(staff)).toEqual(['organisationId']);
    const foreign = await post(
      '/api/admin/quotation/save',
      { ...shipment(), organisationId: orgs.direct },
      'agent',
    );
    expect(badFields(foreign)).toEqual(['organisationId']);
  });
});

describe('the address book from the quote form', () => {
  it('saves the ends ticked "save to address book" into the customer’s book', async () => {
    const ticked = { ...address('90001', 'CA', 'Los Angeles'), name: 'Booked Dock', saveToBook: true };
    await quoteFor('customer', shipment({ pickup: ticked }));
    const book = await ok(
      '/api/admin/address/list',
      { page: 1, limit: 10, keyword: 'Booked Dock' },
      'customer',
    );
    expect(book.list.map((a: any) => [a.name, a.zipcode])).toEqual([['Booked Dock', '90001']]);
  });
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
    const move = (action: string, who = 'admin', extra: Record<string, unknown> = {}) =>
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
    const customer = await findUserByEmail(ctx.database.db, t.tenant.id, t.email('customer'));
    const [notice] = await ctx.database.db
      .select()
      .from(notices)
      .where(
        and(
          eq(notices.tenantId, t.tenant.id),
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
      { quoteId: id, productId: productA },
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

    const list = (who: string, body: Record<string, unknown> = {}) =>
      post('/api/admin/order/list', { page: 1, limit: 50, ...body }, who);
    const agentList = (await list('agent')).json().data;
    expect(agentList.total).toBeGreaterThan(0);
    expect(agentList.list.every((o: any) => o.organisationId === orgs.customer)).toBe(true);
    expect((await list('direct')).json().data.total).toBe(0);
    expect((await list('otherAdmin')).json().code).toBe(300);
    expect(
      (await post('/api/admin/order/list', { page: 1, limit: 50 }, 'otherAdmin', other)).json().data.total,
    ).toBe(0);
    expect((await post('/api/admin/order/info', { id: orderId }, 'direct')).json().code).toBe(404);
    const cancelledOnly = (await list('admin', { status: 'cancelled' })).json().data;
    expect(cancelledOnly.list.map((o: any) => o.id)).toContain(orderId);
    expect(cancelledOnly.counts.cancelled).toBeGreaterThan(0);
    expect((await list('customer', { status: 'nope' })).json().code).toBe(400);
    // The search matches the start of the numbers, in any case.
    const byCustomerNo = (await list('customer', { keyword: 'po-' })).json().data;
    expect(byCustomerNo.list.map((o: any) => o.customerOrderNo)).toEqual(['PO-1']);
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
    const customer = await findUserByEmail(ctx.database.db, t.tenant.id, t.email('customer'));
    if (!customer) throw new Error('no demo customer');
    const exact = await listOrders(ctx.database.db, customer, { page: 1, limit: 10 });
    expect(exact.totalCapped).toBe(false);
    expect(exact.total).toBeGreaterThan(2);
    const sum = Object.values(exact.counts ?? {}).reduce((a, n) => a + n, 0);
    expect(sum).toBe(exact.total);
    const capped = await listOrders(ctx.database.db, customer, { page: 1, limit: 10 }, 2);
    expect(capped).toMatchObject({ total: 2, totalCapped: true, countCap: 2 });
    // The page itself is the same; only the counting stops.
    expect(capped.rows.map((o) => o.id)).toEqual(exact.rows.map((o) => o.id));
    for (const [status, n] of Object.entries(capped.counts ?? {}))
      expect(n).toBe(Math.min(exact.counts?.[status] ?? 0, 3));
  });

  it('exports the orders of a filter as xlsx', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/admin/order/export',
      headers: { host: t.host, accesstoken: tokens.customer ?? '', 'accept-language': 'en-US' },
      payload: { page: 1, limit: 10 },
    });
    expect(res.headers['content-type']).toContain('spreadsheetml');
  });
});

describe('dashboards', () => {
  it("counts today's orders and money for the caller's subtree only", async () => {
    const staff = await ok('/api/admin/order/stats', {}, 'admin');
    const customer = await ok('/api/admin/order/stats', {}, 'customer');
    const direct = await ok('/api/admin/order/stats', {}, 'direct');
    expect(customer.today.orders).toBeGreaterThan(0);
    expect(staff.today.orders).toBe(customer.today.orders);
    expect(direct.today).toEqual({ orders: 0, paid: '0.00' });
    expect(customer.series).toHaveLength(30);
    expect(customer.series.at(-1)).toEqual({ day: new Date().toISOString().slice(0, 10), ...customer.today });
    expect(customer.statuses.delivered).toBeGreaterThan(0);
    expect(customer.balance.available).toMatch(/^\d+\.\d\d$/);
    expect(staff.balance).toBeNull();
    expect((await post('/api/admin/order/stats', {}, 'otherAdmin', other)).json().data.today.orders).toBe(0);
  });
});

describe('manual quotation tasks', () => {
  it('turns an oversize shipment into a task that staff price and the customer accepts and books', async () => {
    await credit('customer', 100_000n);
    const big = shipment({
      lines: [
        {
          name: 'Machine',
          quantity: 1,
          palletCount: 1,
          length: 300,
          width: 90,
          height: 100,
          totalWeight: 6000,
        },
      ],
    });
    const id = await quoteFor('customer', big);
    const lines = await rate(id, 'customer');
    expect(lines.at(-1).results.map((r: any) => r.reason)).toEqual(['oversize', 'oversize']);
    const task = await ok(
      '/api/admin/quotation/task/request',
      { quoteId: id, note: 'Crane needed' },
      'customer',
    );
    const twice = await post('/api/admin/quotation/task/request', { quoteId: id }, 'customer');
    expect(twice.json().msg).toBe('This quote already has a manual quotation task');
    expect(
      (await post('/api/admin/quotation/task/action', { id: task.id, action: 'accept' }, 'customer')).json()
        .code,
    ).toBe(409);
    expect(
      (
        await post(
          '/api/admin/quotation/saveQuotation',
          { id: task.id, carrier: 'Heavy Haul', linehaul: '1000.00', transitDaysMin: 3, transitDaysMax: 6 },
          'customer',
        )
      ).json().code,
    ).toBe(401);
    await ok(
      '/api/admin/quotation/saveQuotation',
      {
        id: task.id,
        carrier: 'Heavy Haul',
        linehaul: '1000.00',
        fuel: '200.00',
        transitDaysMin: 3,
        transitDaysMax: 6,
      },
      'admin',
    );
    const seen = await ok('/api/admin/quotation/task/info', { id: task.id }, 'customer');
    // 1,000 and 200 marked up +10 %, +5 % and 2.00, +8 %: 1,249.56 and 249.48.
    expect(seen.task.result.levels).toEqual([
      expect.objectContaining({ type: 'customer', linehaul: '1249.56', fuel: '249.48', total: '1499.04' }),
    ]);
    await ok('/api/admin/quotation/task/action', { id: task.id, action: 'accept' }, 'customer');
    const booked = await ok('/api/admin/order/save', { quoteId: id, taskId: task.id }, 'customer');
    expect(booked.status).toBe('pending_review');
    const info = await ok('/api/admin/quotation/task/info', { id: task.id }, 'admin');
    expect(info.task.status).toBe('booked');
    expect(info.history.map((h: any) => h.toStatus)).toEqual(['pending', 'priced', 'accepted', 'booked']);
  });

  it('refuses to open a task for a shipment the tables price', async () => {
    const id = await quoteFor('customer');
    await rate(id, 'customer');
    const res = await post('/api/admin/quotation/task/request', { quoteId: id }, 'customer');
    expect(res.json()).toMatchObject({ code: 409 });
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
      const anonymous = await call(ctx, 'POST', url, body, { host: t.host });
      expect(anonymous.json().code, url).toBe(300);
    }
    // Another tenant's staff never reach this tenant's quotes and orders.
    for (const [url, body] of calls.filter(([, b]) => 'id' in b)) {
      const foreign = await post(url, body, 'otherAdmin', other);
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
      ctx,
      '/api/common/upload/documents',
      [
        {
          name: 'file',
          filename: 'bol.pdf',
          contentType: 'application/pdf',
          content: Buffer.from('%PDF-1.4\n%%EOF\n'),
        },
      ],
      { host: t.host, token: tokens.customer },
    );
    const [url] = uploaded.json().data;
    await ok('/api/admin/order/file', { id: order.id, url }, 'customer');
    const info = await ok('/api/admin/order/info', { id: order.id }, 'customer');
    expect(info.order.orderFileUrl).toBe(url);
    expect(info.timeline.at(-1).action).toBe('upload_file');
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
    ctx.database.db
      .select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.tenantId, t.tenant.id), eq(ledgerEntries.refId, order.orderNo)));
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
