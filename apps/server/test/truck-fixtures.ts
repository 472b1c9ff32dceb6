import { expect } from 'vitest';
import type { Database } from '../src/db/client.ts';
import { ensureAccount, findAccount, moveMoney } from '../src/modules/accounts/service.ts';
import { findUserByEmail } from '../src/modules/auth/service.ts';
import { bounceBills } from '../src/modules/bounce-bills/schema.ts';
import { savePriceLevel } from '../src/modules/customers/price-levels.ts';
import { findOrganisation } from '../src/modules/customers/service.ts';
import { invoices } from '../src/modules/invoices/schema.ts';
import { recharges } from '../src/modules/recharge/schema.ts';
import { upsertDaily } from '../src/modules/reports/service.ts';
import { BATCH_COLUMNS } from '../src/modules/truck-orders/batch.ts';
import type { Caller } from './fixture.ts';
import { call, isoDay, signInAs, type TestContext, type TestTenant, type Who } from './helpers.ts';

/**
 * A tenant ready to ship by truck: signed-in users, one LTL product with a lane from Los Angeles to
 * Texas, and helpers to book orders and move them along, all through the API.
 */
export async function truckTenant(ctx: TestContext, t: TestTenant, who: Who[]) {
  const tokens: Record<string, string> = {};
  const orgs: Record<string, number> = {};
  for (const w of who) {
    tokens[w] = await signInAs(ctx, t, w);
    const user = await findUserByEmail(ctx.database.db, t.tenant.id, t.email(w));
    if (user?.organisationId) orgs[w] = user.organisationId;
  }
  const post = (url: string, body: unknown, as: string, language: 'zh-CN' | 'en-US' = 'en-US') =>
    call(ctx, 'POST', url, body, { host: t.host, token: tokens[as], language });
  const get = (url: string, as: string, language: 'zh-CN' | 'en-US' = 'en-US') =>
    call(ctx, 'GET', url, null, { host: t.host, token: tokens[as], language });
  const ok = async (url: string, body: unknown, as: string) => {
    const res = await post(url, body, as);
    expect(res.json(), url).toMatchObject({ code: 200 });
    return res.json().data;
  };

  const { id: productId } = await ok(
    '/api/admin/product/save',
    {
      code: 'LTL-T',
      name: 'LTL-T',
      nameEn: 'LTL-T',
      carrier: 'T Lines',
      mode: 'LTL',
      transitDaysMin: 1,
      transitDaysMax: 4,
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
        breaks: [0],
        rates: { '70': ['50.00'] },
        minimumCharge: '95.00',
        discountPercent: '0',
        fuelPercent: '0',
      },
    },
    'admin',
  );

  async function accountOf(org: string) {
    const account = await ensureAccount(ctx.database.db, t.tenant.id, orgs[org] as number, 'truck');
    return (await findAccount(ctx.database.db, t.tenant.id, account.id)) ?? account;
  }

  return {
    tokens,
    orgs,
    post,
    get,
    ok,
    async balanceOf(org: string) {
      return (await accountOf(org)).balance;
    },
    /** Sets the organisation's truck balance to exactly `cents`, through the ledger. */
    async setBalance(org: string, cents: bigint) {
      const account = await accountOf(org);
      if (account.balance === cents) return;
      await moveMoney(ctx.database.db, {
        tenantId: t.tenant.id,
        accountId: account.id,
        type: 'manual_adjustment',
        amount: cents - account.balance,
        note: 'test funds',
      });
    },
    /** Books and pays an order of 400 lb class 70 (200.00) and moves it by staff through `actions`. */
    async order(as: string, actions: string[] = ['approve', 'pickup', 'depart', 'deliver']) {
      const { id: quoteId } = await ok('/api/admin/quotation/save', partsShipment(), as);
      await post('/api/admin/quotation/rates', { id: quoteId }, as);
      const order = await ok('/api/admin/order/save', { quoteId, productId }, as);
      for (const action of actions)
        await ok('/api/admin/order/transition', { id: order.id, action, reason: 'test' }, 'admin');
      return (await ok('/api/admin/order/info', { id: order.id }, as)).order as {
        id: number;
        orderNo: string;
        total: string;
        status: string;
      };
    },
  };
}

/** A shipper's dock at the given ZIP code, as the quote form fills it. */
export const dockAddress = (zipcode: string, state: string, city: string) => ({
  name: 'Warehouse',
  address1: '100 Main St',
  zipcode,
  city,
  state,
  contact: 'Pat Lee',
  phone: '2135550100',
  email: 'dock@example.com',
});

/** One pallet of 400 lb, class 70, from Los Angeles to Dallas, quoted today: 200.00 on the test lane. */
export const partsShipment = () => ({
  mode: 'LTL',
  pickup: dockAddress('90001', 'CA', 'Los Angeles'),
  delivery: dockAddress('75201', 'TX', 'Dallas'),
  quoteDate: isoDay(),
  lines: [
    {
      name: 'Parts',
      quantity: 1,
      palletCount: 1,
      length: 40,
      width: 40,
      height: 40,
      totalWeight: 400,
      freightClass: '70',
    },
  ],
});

/** 800 lb of class 70 from Los Angeles to Dallas with a liftgate at delivery, quoted today. */
export const ltlShipment = (extra: Record<string, unknown> = {}) => ({
  mode: 'LTL',
  pickup: dockAddress('90001', 'CA', 'Los Angeles'),
  delivery: dockAddress('75201', 'TX', 'Dallas'),
  quoteDate: isoDay(),
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

/**
 * Two LTL products priced from Los Angeles to Texas (LTL-B twice LTL-A's class 70 rates but faster),
 * with accessorial and insurance terms, and markups down the demo tree: branch +10 %, agent +5 % and
 * 2.00, customer +8 %. Made by the admin through the API, the markups through the service.
 */
export async function ratedLtlProducts(ctx: TestContext, t: TestTenant, adminToken: string) {
  const ok = async (url: string, body: unknown) => {
    const res = await call(ctx, 'POST', url, body, { host: t.host, token: adminToken, language: 'en-US' });
    expect(res.json(), url).toMatchObject({ code: 200 });
    return res.json().data;
  };
  const product = async (code: string, transitDaysMax: number) =>
    (
      await ok('/api/admin/product/save', {
        code,
        name: code,
        nameEn: code,
        carrier: `${code} Lines`,
        mode: 'LTL',
        transitDaysMin: 1,
        transitDaysMax,
      })
    ).id as number;
  const productA = await product('LTL-A', 5);
  const productB = await product('LTL-B', 3);
  for (const [productId, base] of [
    [productA, 1],
    [productB, 2],
  ] as const) {
    await ok('/api/admin/product/saveTerms', {
      id: productId,
      accessorialFees: { liftgate_delivery: '75.00', residential_delivery: '60.00' },
      insuranceRatePercent: '0.30',
      minimumPremium: '25.00',
      deductible: '100.00',
    });
    await ok('/api/admin/freightRule/lane/save', {
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
    });
  }
  // Markups down the tree: the platform sets the branch's, the branch the agent's, the agent the customer's.
  for (const [who, percentBp, fixedCents] of [
    ['branch', 1_000, 0n],
    ['agent', 500, 200n],
    ['customer', 800, 0n],
  ] as const) {
    const user = await findUserByEmail(ctx.database.db, t.tenant.id, t.email(who));
    await savePriceLevel(ctx.database.db, {
      tenantId: t.tenant.id,
      organisationId: user?.organisationId as number,
      line: 'truck',
      productKey: '',
      markupPercentBp: percentBp,
      markupFixedCents: fixedCents,
      updatedBy: 1,
    });
  }
  return { productA, productB };
}

/** A quote's prices as the rates call streams them, one JSON object a line. */
export async function streamedRates(caller: Caller, quoteId: number) {
  const res = await caller.post('/api/admin/quotation/rates', { id: quoteId });
  expect(res.headers['content-type']).toContain('application/x-ndjson');
  return res.body
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
}

/** Saves a quote for the caller and answers its id. */
export async function savedQuoteId(caller: Caller, body: Record<string, unknown> = ltlShipment()) {
  const { id } = await caller.ok('/api/admin/quotation/save', body);
  return id as number;
}

/** Credits an organisation's truck account with test funds, through the ledger like any money. */
export async function creditTruck(
  db: Database['db'],
  tenantId: number,
  organisationId: number,
  cents: bigint,
) {
  const account = await ensureAccount(db, tenantId, organisationId, 'truck');
  await moveMoney(db, {
    tenantId,
    accountId: account.id,
    type: 'manual_adjustment',
    amount: cents,
    note: 'test funds',
  });
}

/** A good row of the truck batch file, LA to Dallas, two pallets of 800 lb, in the template's column order. */
export function truckBatchRow(change: Record<string, unknown> = {}): unknown[] {
  const row: Record<string, unknown> = {
    customerOrderNo: 'PO-1',
    productCode: '',
    mode: 'LTL',
    pickupName: 'Acme Dock',
    pickupAddress1: '100 Main St',
    pickupZip: '90001',
    pickupCity: 'Los Angeles',
    pickupState: 'CA',
    pickupContact: 'Pat Lee',
    pickupPhone: '2135550100',
    pickupType: 'business',
    deliveryName: 'Dallas DC',
    deliveryAddress1: '500 Commerce St',
    deliveryZip: '75201',
    deliveryCity: 'Dallas',
    deliveryState: 'TX',
    deliveryContact: 'Sam Ray',
    deliveryPhone: '2145550100',
    deliveryType: 'business',
    goodsName: 'Auto parts',
    quantity: 10,
    palletCount: 2,
    length: 48,
    width: 40,
    height: 48,
    totalWeight: 800,
    freightClass: '',
    accessorials: '',
    insuredValue: '',
    note: '',
    ...change,
  };
  return BATCH_COLUMNS.map((c) => row[c.key] ?? '');
}

/**
 * A truck recharge, invoice and bounce bill of an organisation, written as their modules store them, for
 * the list and export tests: `tag` makes their serials, titles and numbers unique; amounts in cents.
 */
export async function insertTruckRecords(
  db: Database['db'],
  r: {
    tenantId: number;
    organisationId: number;
    userId: number;
    tag: string;
    recharge: bigint;
    invoice: bigint;
    bounceBill: bigint;
  },
) {
  const { tenantId, organisationId, userId, tag } = r;
  await db.insert(recharges).values({
    tenantId,
    serial: `R${tag}`,
    organisationId,
    line: 'truck',
    amount: r.recharge,
    currency: 'USD',
    method: 'bank_transfer',
    receivingAccountId: 1,
    payerName: `Payer ${tag}`,
    payerCardNumber: '6222000011112345',
    screenshotUrl: '/api/uploads/none.png',
    submittedBy: userId,
  });
  await db.insert(invoices).values({
    tenantId,
    organisationId,
    line: 'truck',
    periodFrom: new Date('2026-01-01T00:00:00Z'),
    periodTo: new Date('2026-01-31T00:00:00Z'),
    amount: r.invoice,
    title: `Title ${tag}`,
    taxNumber: `TAX${tag}`,
    email: 'billing@example.com',
    requestedBy: userId,
  });
  await db.insert(bounceBills).values({
    tenantId,
    billNo: `B${tag}`,
    line: 'truck',
    orderId: 1,
    orderNo: `O${tag}`,
    organisationId,
    userId,
    type: 'reweigh',
    amount: r.bounceBill,
    description: `Found heavier ${tag}`,
    status: 'unpaid',
    createdBy: userId,
  });
}

/** Yesterday's truck report of an organisation: two orders of `revenue` cents against fixed costs. */
export async function insertDailyReport(
  db: Database['db'],
  tenantId: number,
  organisationId: number,
  revenue: bigint,
) {
  const org = await findOrganisation(db, tenantId, organisationId);
  await upsertDaily(db, [
    {
      tenantId,
      day: isoDay(-1),
      line: 'truck',
      organisationId,
      productId: 0,
      orgPath: org?.path ?? '',
      orders: 2,
      revenue,
      cost: 30_000n,
      branchPrice: 33_000n,
      agentPrice: 36_000n,
    },
  ]);
}
