import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { expressTenant, selectedQuote, setExpressBalance } from '../../../test/express-fixtures.ts';
import { useTestApp } from '../../../test/fixture.ts';
import { uploadFor, type Who } from '../../../test/helpers.ts';
import { ledgerMismatches } from '../accounts/service.ts';

const f = useTestApp({
  tenants: 2,
  signIn: [
    ['admin', 'editor', 'branch', 'agent', 'customer', 'direct'],
    ['admin', 'customer'],
  ],
  language: 'en-US',
});
const orgs: Record<string, number> = {};

/** A waybill booked on the standard channel (customer 21.25, direct customer 19.59), paid or not. */
async function booked(who: Who, pay: boolean) {
  const quoteId = await selectedQuote(f.as(who));
  return f.as(who).ok('/api/express/order/create', { quoteId, pay }) as Promise<{
    id: number;
    total: string;
  }>;
}
const stats = (who: Who, tenant = f.t) => f.as(who, tenant).ok('/api/express/order/stats');
const today = () => new Date().toISOString().slice(0, 10);

beforeAll(async () => {
  for (const who of ['branch', 'agent', 'customer', 'direct'] as const) orgs[who] = await f.orgOf(who);
  await expressTenant(f.db, f.t.tenant.id, orgs);
  await setExpressBalance(f.db, f.t.tenant.id, orgs.customer as number, 100_00n);

  // The customer pays three waybills, voids one of them with its refund, and one goes astray.
  const [kept, astray, voided] = [
    await booked('customer', true),
    await booked('customer', true),
    await booked('customer', true),
  ];
  await f.as('customer').ok('/api/express/order/refund', { id: voided.id, reason: 'Booked twice' });
  await f.as('customer').post('/api/express/order/print', { ids: [astray.id] });
  for (const action of ['hand_over', 'ship', 'exception'])
    await f
      .as('admin')
      .ok('/api/express/order/transition', { id: astray.id, action, note: 'Lost at the depot' });
  expect(kept.total).toBe('21.25');
  // The direct customer books one and leaves it unpaid.
  expect((await booked('direct', false)).total).toBe('19.59');

  // One express recharge waits for review.
  const accounts = (await f.as('customer').ok('/api/admin/recharge/receivingAccounts', {})).list;
  await f.as('customer').ok('/api/admin/recharge/submit', {
    line: 'express',
    amount: '300.00',
    method: 'bank_transfer',
    receivingAccountId: accounts[0].id,
    payerName: 'Ann Lee',
    payerCardNumber: '6222 0000 1111 2345',
    screenshotUrl: await uploadFor(f.ctx, f.t.host, f.as('customer').token),
  });
});
afterEach(async () => {
  expect(await ledgerMismatches(f.db, f.t.tenant.id)).toEqual([]);
});

describe('express dashboards', () => {
  it('gives staff the tenant: waybills, revenue less refunds, statuses, exceptions, unpaid and reviews', async () => {
    const s = await stats('admin');
    // By hand: four waybills booked today; paid 3 × 21.25 = 63.75, less the 21.25 refunded = 42.50.
    expect(s.today).toEqual({ waybills: 4, revenue: '42.50' });
    expect(s.month).toEqual({ waybills: 4, revenue: '42.50' });
    expect(s.series).toHaveLength(30);
    expect(s.series.at(-1)).toEqual({ day: today(), waybills: 4, revenue: '42.50' });
    expect(s.series.slice(0, -1).every((d: { waybills: number }) => d.waybills === 0)).toBe(true);
    expect(s.statuses).toEqual({ to_be_printed: 1, exception: 1, refunded: 1, unpaid: 1 });
    expect(s).toMatchObject({
      exceptions: 1,
      unpaid: 1,
      unpaidAmount: '19.59',
      waitingRecharges: 1,
      balance: null,
    });
    // The editor reviews express recharges too.
    expect((await stats('editor')).waitingRecharges).toBe(1);
  });

  it('gives a branch and an agent their subtree, and a customer itself, with its own balance', async () => {
    const customer = await stats('customer');
    expect(customer).toMatchObject({
      today: { waybills: 3, revenue: '42.50' },
      statuses: { to_be_printed: 1, exception: 1, refunded: 1 },
      exceptions: 1,
      unpaid: 0,
      unpaidAmount: '0.00',
      // Only staff review recharges.
      waitingRecharges: null,
      // 100.00 less 42.50.
      balance: { balance: '57.50', available: '57.50' },
    });
    for (const who of ['branch', 'agent'] as const) {
      const s = await stats(who);
      // The direct customer is not under them.
      expect(s.today).toEqual(customer.today);
      expect(s.statuses).toEqual(customer.statuses);
      expect(s.unpaid).toBe(0);
      expect(s.balance).toEqual({ balance: '0.00', available: '0.00' });
    }
    const direct = await stats('direct');
    expect(direct).toMatchObject({
      today: { waybills: 1, revenue: '0.00' },
      statuses: { unpaid: 1 },
      unpaid: 1,
      unpaidAmount: '19.59',
      exceptions: 0,
    });
  });

  it('shows another tenant nothing of this one', async () => {
    const other = await stats('admin', f.tenant(1));
    expect(other).toMatchObject({
      today: { waybills: 0, revenue: '0.00' },
      statuses: {},
      exceptions: 0,
      unpaid: 0,
      waitingRecharges: 0,
    });
    expect((await stats('customer', f.tenant(1))).today).toEqual({ waybills: 0, revenue: '0.00' });
  });

  it('answers code 300 without a session', async () => {
    expect((await f.anonymous().post('/api/express/order/stats')).json().code).toBe(300);
  });
});
