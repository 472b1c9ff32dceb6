import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  badFields,
  call,
  createTenant,
  createTestApp,
  signInAs,
  type TestContext,
  type TestTenant,
} from '../../../test/helpers.ts';
import { ledgerMismatches } from '../accounts/service.ts';

let ctx: TestContext;
let t: TestTenant;
let other: TestTenant;
const tokens: Record<string, string> = {};
let cnyAccountId: number;

const post = (url: string, body: unknown, who: string, tenant = t, language: 'zh-CN' | 'en-US' = 'en-US') =>
  call(ctx, 'POST', url, body, { host: tenant.host, token: tokens[who], language });

beforeAll(async () => {
  ctx = await createTestApp();
  t = await createTenant(ctx);
  other = await createTenant(ctx);
  for (const who of ['admin', 'editor', 'branch', 'agent', 'customer', 'direct'] as const)
    tokens[who] = await signInAs(ctx, t, who);
  tokens.otherAdmin = await signInAs(ctx, other, 'admin');
  const accounts = await post('/api/admin/recharge/receivingAccounts', {}, 'customer');
  cnyAccountId = accounts.json().data.list.find((a: any) => a.currency === 'CNY').id;
});
afterEach(async () => {
  expect(await ledgerMismatches(ctx.database.db)).toEqual([]);
});
afterAll(() => ctx.close());

const submission = (extra: Record<string, unknown> = {}) => ({
  line: 'truck',
  amount: '500.00',
  method: 'bank_transfer',
  receivingAccountId: cnyAccountId,
  payerName: 'Ann Lee',
  payerCardNumber: '6222 0000 1111 2345',
  screenshotUrl: '/api/uploads/proof.png',
  ...extra,
});

async function submit(who = 'customer', extra: Record<string, unknown> = {}) {
  const res = await post('/api/admin/recharge/submit', submission(extra), who);
  expect(res.json().code).toBe(200);
  return res.json().data as { id: number; serial: string };
}

async function balance(who: string, line = 'truck') {
  const res = await post('/api/admin/account/details', { line, page: 1, limit: 50 }, who);
  return res.json().data;
}

describe('submitting a recharge', () => {
  it('records the recharge for the caller organisation and hides the card number in lists', async () => {
    const r = await submit();
    const list = await post('/api/admin/recharge/list', { page: 1, limit: 10 }, 'customer');
    const row = list.json().data.list.find((x: any) => x.id === r.id);
    expect(row).toMatchObject({
      status: 'submitted',
      amount: '500.00',
      currency: 'CNY',
      organisationName: 'Acme Imports',
    });
    expect(row.payerCardNumber).toBe('***************2345');
  });

  it('names each bad field and writes nothing', async () => {
    const before = (await post('/api/admin/recharge/list', { page: 1, limit: 10 }, 'customer')).json().data
      .total;
    const res = await post(
      '/api/admin/recharge/submit',
      submission({ amount: '12.345', payerName: '', payerCardNumber: 'abc', method: 'cash' }),
      'customer',
    );
    expect(res.statusCode).toBe(400);
    expect(badFields(res)).toEqual(
      expect.arrayContaining(['amount', 'payerName', 'payerCardNumber', 'method']),
    );
    const zero = await post('/api/admin/recharge/submit', submission({ amount: '0' }), 'customer');
    expect(zero.json().data.fields).toEqual([
      { field: 'amount', message: 'The amount must be greater than 0' },
    ]);
    const after = (await post('/api/admin/recharge/list', { page: 1, limit: 10 }, 'customer')).json().data
      .total;
    expect(after).toBe(before);
  });

  it('refuses staff, who have no organisation to credit', async () => {
    const res = await post('/api/admin/recharge/submit', submission(), 'admin');
    expect([401, 409]).toContain(res.json().code);
  });
});

describe('who sees which recharges', () => {
  it("shows a customer its own, an agent its customers', staff all, and another tenant none", async () => {
    const mine = await submit('customer');
    const direct = await submit('direct');
    const customerIds = (await post('/api/admin/recharge/list', { page: 1, limit: 100 }, 'customer'))
      .json()
      .data.list.map((r: any) => r.id);
    expect(customerIds).toContain(mine.id);
    expect(customerIds).not.toContain(direct.id);
    const staffIds = (await post('/api/admin/recharge/list', { page: 1, limit: 100 }, 'admin'))
      .json()
      .data.list.map((r: any) => r.id);
    expect(staffIds).toEqual(expect.arrayContaining([mine.id, direct.id]));
    expect((await post('/api/admin/recharge/info', { id: direct.id }, 'customer')).json().code).toBe(404);
    expect((await post('/api/admin/recharge/info', { id: mine.id }, 'otherAdmin', other)).json().code).toBe(
      404,
    );
    const foreignReview = await post(
      '/api/admin/recharge/review',
      { id: mine.id, action: 'approve_received' },
      'otherAdmin',
      other,
    );
    expect(foreignReview.json().code).toBe(404);
  });
});

describe('reviewing', () => {
  it('credits the credited amount less the fee once, with an audit record and a notice', async () => {
    const r = await submit('direct', { amount: '300.00' });
    const before = await balance('direct');
    const res = await post(
      '/api/admin/recharge/review',
      { id: r.id, action: 'approve_received', creditedAmount: '299.50', fee: '2.00' },
      'admin',
    );
    expect(res.json().data).toMatchObject({
      status: 'approved_received',
      creditedAmount: '299.50',
      fee: '2.00',
    });
    const after = await balance('direct');
    expect(after.total).toBe(before.total + 1);
    expect(after.list[0]).toMatchObject({ type: 'recharge', amount: '297.50', refId: r.serial });

    const again = await post('/api/admin/recharge/review', { id: r.id, action: 'approve_received' }, 'admin');
    expect(again.json().code).toBe(409);
    expect((await balance('direct')).total).toBe(after.total);

    const info = await post('/api/admin/recharge/info', { id: r.id }, 'direct');
    expect(info.json().data.reviews).toEqual([
      expect.objectContaining({
        auditor: t.email('admin'),
        result: 'approved_received',
        amount: '299.50',
        fee: '2.00',
      }),
    ]);
    const notices = await post('/api/admin/notice/userNotices', { type: 0 }, 'direct');
    expect(notices.json().data.list.map((n: any) => n.order_sn)).toContain(r.serial);
    // Handed out once.
    const second = await post('/api/admin/notice/userNotices', { type: 0 }, 'direct');
    expect(second.json().data.list.map((n: any) => n.order_sn)).not.toContain(r.serial);
  });

  it('credits once when two reviewers approve at the same moment', async () => {
    const r = await submit('direct', { amount: '40.00' });
    const before = (await balance('direct')).total;
    const results = await Promise.all([
      post('/api/admin/recharge/review', { id: r.id, action: 'approve_received' }, 'admin'),
      post('/api/admin/recharge/review', { id: r.id, action: 'approve_pending' }, 'editor'),
      post('/api/admin/recharge/review', { id: r.id, action: 'approve_received' }, 'admin'),
    ]);
    expect(results.map((x) => x.json().code).sort()).toEqual([200, 409, 409]);
    expect((await balance('direct')).total).toBe(before + 1);
  });

  it('credits an approval before the money arrived now, and settling it moves nothing', async () => {
    const r = await submit('direct', { amount: '10.00' });
    await post('/api/admin/recharge/review', { id: r.id, action: 'approve_pending' }, 'admin');
    const credited = (await balance('direct')).total;
    const settled = await post('/api/admin/recharge/settle', { id: r.id }, 'admin');
    expect(settled.json().data.status).toBe('approved_received');
    expect((await balance('direct')).total).toBe(credited);
  });

  it('waits for funds, then approves; a rejection needs a reason and credits nothing', async () => {
    const r = await submit('direct', { amount: '20.00' });
    const before = (await balance('direct')).total;
    expect(
      (await post('/api/admin/recharge/review', { id: r.id, action: 'await_funds' }, 'admin')).json().data
        .status,
    ).toBe('awaiting_funds');
    expect((await balance('direct')).total).toBe(before);
    const noReason = await post('/api/admin/recharge/review', { id: r.id, action: 'reject' }, 'admin');
    expect(badFields(noReason)).toEqual(['note']);
    const rejected = await post(
      '/api/admin/recharge/review',
      { id: r.id, action: 'reject', note: 'no transfer found' },
      'admin',
    );
    expect(rejected.json().data.status).toBe('rejected');
    expect((await balance('direct')).total).toBe(before);
    expect((await post('/api/admin/recharge/settle', { id: r.id }, 'admin')).json().code).toBe(409);
  });

  it('lets only staff with the review key review', async () => {
    const r = await submit('customer');
    expect(
      (await post('/api/admin/recharge/review', { id: r.id, action: 'approve_received' }, 'agent')).json()
        .code,
    ).toBe(401);
    expect(
      (await post('/api/admin/recharge/review', { id: r.id, action: 'approve_received' }, 'customer')).json()
        .code,
    ).toBe(401);
  });
});

describe('waiting counts', () => {
  it('counts recharges waiting for review per line for reviewers, drops after a review, and shows others zero', async () => {
    const start = (
      await call(ctx, 'GET', '/api/admin/recharge/waitNum', null, { host: t.host, token: tokens.admin })
    ).json().data;
    const truck = await submit('customer');
    await submit('customer', { line: 'express' });
    const now = (
      await call(ctx, 'GET', '/api/admin/recharge/waitNum', null, { host: t.host, token: tokens.admin })
    ).json().data;
    expect(now).toEqual({ waitNum: start.waitNum + 1, expressWaitNum: start.expressWaitNum + 1 });
    await post('/api/admin/recharge/review', { id: truck.id, action: 'reject', note: 'duplicate' }, 'admin');
    const after = (
      await call(ctx, 'GET', '/api/admin/recharge/waitNum', null, { host: t.host, token: tokens.admin })
    ).json().data;
    expect(after.waitNum).toBe(start.waitNum);
    const customer = (
      await call(ctx, 'GET', '/api/admin/recharge/waitNum', null, { host: t.host, token: tokens.customer })
    ).json().data;
    expect(customer).toEqual({ waitNum: 0, expressWaitNum: 0 });
  });
});

describe('statements', () => {
  it('totals credits and debits over the filter and sums balances for the line', async () => {
    const details = await post(
      '/api/admin/account/details',
      { line: 'truck', type: 'recharge', page: 1, limit: 10 },
      'admin',
    );
    const sum = details.json().data.list.reduce((s: number, r: any) => s + Number(r.amount), 0);
    expect(details.json().data.totals.debits).toBe('0.00');
    expect(Number(details.json().data.totals.credits)).toBeCloseTo(sum, 2);
    const totals = await post('/api/admin/account/balanceTotal', { line: 'truck' }, 'admin');
    const rows = totals.json().data.list;
    expect(Number(totals.json().data.totals.balance)).toBeCloseTo(
      rows.reduce((s: number, r: any) => s + Number(r.balance), 0),
      2,
    );
    const agentView = await post('/api/admin/account/balanceTotal', { line: 'truck' }, 'agent');
    expect(agentView.json().data.list.map((r: any) => r.organisationName)).not.toContain('Northwind Traders');
  });
});
