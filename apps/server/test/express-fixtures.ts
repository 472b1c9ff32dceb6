import { afterEach, beforeAll, expect } from 'vitest';
import type { Database } from '../src/db/client.ts';
import { ensureAccount, findAccount, ledgerMismatches, moveMoney } from '../src/modules/accounts/service.ts';
import { savePriceLevel } from '../src/modules/customers/price-levels.ts';
import { seedDemoExpress } from '../src/modules/express-channels/demo.ts';
import type { Caller, Fixture } from './fixture.ts';
import type { Who } from './helpers.ts';

/**
 * The express line of a test tenant as the demo has it: two products over three channels with their
 * zone charts and prices, and markups of 5 %, 8 % and 10 % down branch, agent and customer.
 */
export async function expressTenant(db: Database['db'], tenantId: number, orgs: Record<string, number>) {
  await seedDemoExpress(db, tenantId);
  const markups: [string, number][] = [
    ['branch', 500],
    ['agent', 800],
    ['customer', 1_000],
    ['direct', 1_500],
  ];
  for (const [who, markupPercentBp] of markups) {
    const organisationId = orgs[who];
    if (!organisationId) continue;
    await savePriceLevel(db, {
      tenantId,
      organisationId,
      line: 'express',
      productKey: '',
      markupPercentBp,
      markupFixedCents: 0n,
      updatedBy: 0,
    });
  }
}

/** A channel's save body as the channel form sends it: a US ground service with its surcharges. */
export const expressChannelBody = (productId: number, extra: Record<string, unknown> = {}) => ({
  productId,
  code: 'USG-STD',
  name: '陆运标准',
  nameEn: 'Ground Standard',
  carrier: 'Summit Parcel',
  service: 'Ground',
  scope: 'domestic',
  unitSystem: 'lb_in',
  dimDivisor: 139,
  transitDaysMin: 2,
  transitDaysMax: 5,
  maxWeight: 150,
  maxLength: 108,
  maxLengthGirth: 165,
  surcharges: {
    fuelPercent: '10',
    residential: '4.50',
    additionalHandling: { fee: '18.00', longest: 48, secondLongest: 30, weight: 50 },
    declaredValue: { free: '100.00', per100: '1.00', minimum: '3.00' },
  },
  ...extra,
});

const address = (zipcode: string, state: string, city: string) => ({
  name: 'Pat Lee',
  company: 'Acme Parts',
  address1: '100 Main St',
  city,
  state,
  zipcode,
  country: 'US',
  phone: '2135550100',
  email: 'dock@example.com',
});

/** Los Angeles to Dallas, one 10 × 8 × 6 in parcel of 4 lb: zone 5 on the ground channels. */
export function parcelShipment(overrides: Record<string, unknown> = {}) {
  return {
    sender: address('90001', 'CA', 'Los Angeles'),
    recipient: address('75201', 'TX', 'Dallas'),
    unitSystem: 'lb_in',
    parcels: [{ quantity: 1, length: 10, width: 8, height: 6, weight: 4 }],
    reference: 'PO-77',
    ...overrides,
  };
}

/** Reads the rates stream of an express quote: one JSON object a line. */
export async function streamedExpressRates(caller: Caller, quoteId: number) {
  const res = await caller.post('/api/express/quotation/rates', { id: quoteId });
  expect(res.headers['content-type']).toContain('application/x-ndjson');
  return res.body
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
}

/** A quote priced and its channel selected; answers the quote id. */
export async function selectedQuote(caller: Caller, channelCode = 'USG-STD', body = parcelShipment()) {
  const { id } = await caller.ok('/api/express/quotation/getQuotas', body);
  const lines = await streamedExpressRates(caller, id);
  const done = lines.at(-1);
  const result = done.results.find((r: { code: string }) => r.code === channelCode);
  expect(result?.ok, channelCode).toBe(true);
  await caller.ok('/api/express/quotation/select', { id, channelId: result.channelId });
  return id as number;
}

/** The express account of an organisation, created when missing. */
export async function expressAccount(db: Database['db'], tenantId: number, organisationId: number) {
  const account = await ensureAccount(db, tenantId, organisationId, 'express');
  return (await findAccount(db, tenantId, account.id)) ?? account;
}

/** Sets an organisation's express balance to exactly `cents`, through the ledger like any money. */
export async function setExpressBalance(
  db: Database['db'],
  tenantId: number,
  organisationId: number,
  cents: bigint,
) {
  const account = await expressAccount(db, tenantId, organisationId);
  if (account.balance === cents) return;
  await moveMoney(db, {
    tenantId,
    accountId: account.id,
    type: 'manual_adjustment',
    amount: cents - account.balance,
    note: 'test funds',
  });
}

/**
 * The express line of a test file's first tenant, registered with vitest: the demo channels and
 * markups before the first test, the ledger checked against every balance after each, and helpers
 * for the accounts and waybills the tests stand on.
 */
export function useExpressLine(f: Fixture) {
  const orgs: Record<string, number> = {};
  beforeAll(async () => {
    for (const who of ['branch', 'agent', 'customer', 'direct'] as const) orgs[who] = await f.orgOf(who);
    await expressTenant(f.db, f.t.tenant.id, orgs);
  });
  afterEach(async () => {
    expect(await ledgerMismatches(f.db, f.t.tenant.id)).toEqual([]);
  });
  const expressBalance = async (who: string) =>
    (await expressAccount(f.db, f.t.tenant.id, orgs[who] as number)).balance;
  const truckBalance = async (who: string) =>
    (await ensureAccount(f.db, f.t.tenant.id, orgs[who] as number, 'truck')).balance;
  const fund = (who: string, cents: bigint) =>
    setExpressBalance(f.db, f.t.tenant.id, orgs[who] as number, cents);

  /** A waybill of 21.25 booked and paid from the express account, then moved by staff as far as asked. */
  async function paidWaybill(moves: string[] = ['hand_over', 'ship'], who: Who = 'customer') {
    await fund(who, 100_000n);
    const quoteId = await selectedQuote(f.as(who));
    const waybill = await f.as(who).ok('/api/express/order/create', { quoteId });
    await f.as(who).ok('/api/express/order/pay', { id: waybill.id });
    if (moves.length > 0) await f.as(who).post('/api/express/order/print', { ids: [waybill.id] });
    for (const action of moves)
      await f.as('admin').ok('/api/express/order/transition', { id: waybill.id, action });
    return waybill as { id: number; waybillNo: string };
  }

  return { orgs, expressBalance, truckBalance, fund, paidWaybill };
}
