import { beforeAll, describe, expect, it } from 'vitest';
import { assignRoles } from '../src/modules/roles/service.ts';
import { isoDay, useTestApp } from './fixture.ts';
import { addUser, signIn, uploadFor } from './helpers.ts';
import { dockAddress } from './truck-fixtures.ts';

/**
 * Every record with a status machine answers `actions`: what THIS caller may do with it now, from the
 * machine of its side (staff or owner) less what needs a button the caller lacks. Pages show these and
 * nothing else, so each answer is checked for the customer, full staff and staff without the button,
 * in lists and in detail answers alike.
 */
const f = useTestApp({ signIn: ['admin', 'editor', 'branch', 'customer'], truck: true });

const sorted = (actions: string[]) => [...actions].sort();

/** A staff member whose only role shows these pages and holds these buttons, signed in as `name`. */
async function staffWith(name: string, menuIds: number[], buttonKeys: string[]) {
  const role = await f.truck.ok(
    '/api/admin/role/save',
    { name: `Role ${name}`, nameEn: `Role ${name}`, menuIds, buttonKeys },
    'admin',
  );
  const user = await addUser(f.ctx, f.t, { role: 'none' });
  await assignRoles(f.db, f.t.tenant.id, user.id, [role.id]);
  f.truck.tokens[name] = await signIn(f.ctx, f.t, user.email);
}

const address = dockAddress;

/** A quote of the customer's for this goods line, not yet priced. */
const quote = (line: Record<string, unknown>) =>
  f.truck.ok(
    '/api/admin/quotation/save',
    {
      mode: 'LTL',
      pickup: address('90001', 'CA', 'Los Angeles'),
      delivery: address('75201', 'TX', 'Dallas'),
      quoteDate: isoDay(),
      lines: [{ name: 'Parts', quantity: 1, palletCount: 1, length: 40, width: 40, height: 40, ...line }],
    },
    'customer',
  ) as Promise<{ id: number }>;

beforeAll(async () => {
  // Pages: 20 order list, 21 order page, 40 quotation tasks, 60/61 work orders, 80 recharges, 84 bills.
  await staffWith('viewer', [20, 21, 40, 60, 61, 80, 84], []);
});

describe('truck order actions', () => {
  it('offer the customer pay and cancel on its unpaid order, never approve; staff may pay it too', async () => {
    await f.truck.setBalance('customer', 0n);
    const order = await f.truck.order('customer', []);
    expect(order.status).toBe('unpaid');
    const info = async (who: string) =>
      (await f.truck.ok('/api/admin/order/info', { id: order.id }, who)).order.actions as string[];
    expect(sorted(await info('customer'))).toEqual(['cancel', 'edit_address', 'open_work_order', 'pay']);
    // Staff may pay it for the customer; they answer work orders but never open one.
    expect(sorted(await info('admin'))).toEqual(['cancel', 'edit_address', 'pay']);
    // Cancelling needs the cancel button, for staff and owners alike.
    expect(sorted(await info('viewer'))).toEqual(['edit_address', 'pay']);

    // The list answers the same actions as the order page.
    const row = (await f.truck.ok('/api/admin/order/list', { page: 1, limit: 50 }, 'customer')).list.find(
      (o: { id: number }) => o.id === order.id,
    );
    expect(sorted(row.actions)).toEqual(['cancel', 'edit_address', 'open_work_order', 'pay']);

    // What the actions lack the server refuses: the customer cannot approve.
    const approve = await f.truck.post(
      '/api/admin/order/transition',
      { id: order.id, action: 'approve' },
      'customer',
    );
    expect(approve.json().code).toBe(409);
  });

  it('offer staff with the review button approve and reject on a paid order; others not', async () => {
    await f.truck.setBalance('customer', 100_000n);
    const order = await f.truck.order('customer', []);
    expect(order.status).toBe('pending_review');
    const info = async (who: string) =>
      (await f.truck.ok('/api/admin/order/info', { id: order.id }, who)).order.actions as string[];
    expect(sorted(await info('admin'))).toEqual(['approve', 'cancel', 'edit_address', 'reject']);
    expect(sorted(await info('editor'))).toEqual(['approve', 'cancel', 'edit_address', 'reject']);
    expect(await info('viewer')).toEqual(['edit_address']);
    expect(sorted(await info('customer'))).toEqual(['cancel', 'edit_address', 'open_work_order']);
    const denied = await f.truck.post(
      '/api/admin/order/transition',
      { id: order.id, action: 'approve' },
      'viewer',
    );
    expect(denied.json().code).toBe(401);

    // Once the truck has the goods, the addresses are fixed and only staff moves remain.
    await f.truck.ok('/api/admin/order/transition', { id: order.id, action: 'approve' }, 'admin');
    await f.truck.ok('/api/admin/order/transition', { id: order.id, action: 'pickup' }, 'admin');
    expect(await info('admin')).toEqual(['depart']);
    expect(await info('viewer')).toEqual([]);
    expect(await info('customer')).toEqual(['open_work_order']);
    const opened = await f.truck.post(
      '/api/admin/workOrder/save',
      {
        orderNo: order.orderNo,
        category: 'delay',
        transactionItem: 'freight',
        description: 'Late',
      },
      'admin',
    );
    expect(opened.json().code).toBe(409);
  });
});

describe('quote and quotation task actions', () => {
  it('offer requote until priced, book while a price lives, nothing once booked', async () => {
    await f.truck.setBalance('customer', 100_000n);
    const { id } = await quote({ totalWeight: 400, freightClass: '70' });
    const actionsOf = async () =>
      (await f.truck.ok('/api/admin/quotation/getQuotationInfo', { id }, 'customer')).actions;
    expect(await actionsOf()).toEqual(['requote']);
    await f.truck.post('/api/admin/quotation/rates', { id }, 'customer');
    expect(await actionsOf()).toEqual(['book', 'requote']);
    const listed = (
      await f.truck.ok('/api/admin/quotation/list', { page: 1, limit: 50 }, 'customer')
    ).list.find((q: { id: number }) => q.id === id);
    expect(listed.actions).toEqual(['book', 'requote']);
    const { results } = await f.truck.ok('/api/admin/quotation/getQuotationInfo', { id }, 'customer');
    const productId = results.find((r: { ok: boolean }) => r.ok).productId;
    await f.truck.ok('/api/admin/order/save', { quoteId: id, productId }, 'customer');
    expect(await actionsOf()).toEqual([]);
  });

  it('offer pricing only to staff with the pricing button, and accepting and booking to the customer', async () => {
    const { id: quoteId } = await quote({ totalWeight: 6000, length: 300, width: 90, height: 100 });
    await f.truck.post('/api/admin/quotation/rates', { id: quoteId }, 'customer');
    const task = await f.truck.ok('/api/admin/quotation/task/request', { quoteId }, 'customer');
    const info = async (who: string) =>
      sorted((await f.truck.ok('/api/admin/quotation/task/info', { id: task.id }, who)).task.actions);
    expect(await info('customer')).toEqual(['cancel']);
    expect(await info('admin')).toEqual(['cancel', 'price', 'refuse']);
    expect(await info('viewer')).toEqual(['cancel', 'refuse']);

    await f.truck.ok(
      '/api/admin/quotation/saveQuotation',
      { id: task.id, carrier: 'Heavy Haul', linehaul: '1000.00', transitDaysMin: 3, transitDaysMax: 6 },
      'admin',
    );
    expect(await info('customer')).toEqual(['accept', 'decline']);
    expect(await info('admin')).toEqual(['price']);
    expect(await info('viewer')).toEqual([]);
    const row = (
      await f.truck.ok('/api/admin/quotation/task/list', { page: 1, limit: 50 }, 'customer')
    ).list.find((r: { id: number }) => r.id === task.id);
    expect(sorted(row.actions)).toEqual(['accept', 'decline']);

    await f.truck.ok('/api/admin/quotation/task/action', { id: task.id, action: 'accept' }, 'customer');
    expect(await info('customer')).toEqual(['book']);
    expect(await info('admin')).toEqual([]);
  });
});

describe('recharge actions', () => {
  it('offer the review steps to staff with the review button only, and settling once approved pending', async () => {
    const accounts = (await f.truck.ok('/api/admin/recharge/receivingAccounts', {}, 'customer')).list;
    const recharge = await f.truck.ok(
      '/api/admin/recharge/submit',
      {
        line: 'truck',
        amount: '300.00',
        method: 'bank_transfer',
        receivingAccountId: accounts[0].id,
        payerName: 'Ann Lee',
        payerCardNumber: '6222 0000 1111 2345',
        screenshotUrl: await uploadFor(f.ctx, f.t.host, f.as('customer').token),
      },
      'customer',
    );
    const info = async (who: string) =>
      sorted((await f.truck.ok('/api/admin/recharge/info', { id: recharge.id }, who)).actions);
    const review = ['approve_pending', 'approve_received', 'await_funds', 'reject'];
    expect(await info('admin')).toEqual(review);
    expect(await info('customer')).toEqual([]);
    expect(await info('viewer')).toEqual([]);
    const listed = (await f.truck.ok('/api/admin/recharge/list', { page: 1, limit: 50 }, 'admin')).list.find(
      (r: { id: number }) => r.id === recharge.id,
    );
    expect(sorted(listed.actions)).toEqual(review);

    await f.truck.ok('/api/admin/recharge/review', { id: recharge.id, action: 'await_funds' }, 'admin');
    expect(await info('admin')).toEqual(['approve_pending', 'approve_received', 'reject']);
    await f.truck.ok('/api/admin/recharge/review', { id: recharge.id, action: 'approve_pending' }, 'admin');
    expect(await info('admin')).toEqual(['settle']);
    expect(await info('viewer')).toEqual([]);
  });
});

describe('bounce bill and work order actions', () => {
  it('offer paying an unpaid bill to both sides, cancelling to staff with the bill button, disputing to the owner', async () => {
    await f.truck.setBalance('customer', 100_000n);
    const order = await f.truck.order('customer', ['approve', 'pickup', 'depart']);
    await f.truck.setBalance('customer', 0n);
    const bill = await f.truck.ok(
      '/api/admin/bounceBill/save',
      {
        orderNo: order.orderNo,
        type: 'reweigh',
        amount: '45.50',
        declared: '400 lb',
        actual: '520 lb',
        description: 'Reweighed at the terminal',
      },
      'admin',
    );
    expect(bill.status).toBe('unpaid');
    const listed = async (who: string) =>
      sorted(
        (await f.truck.ok('/api/admin/bounceBill/list', { page: 1, limit: 50 }, who)).list.find(
          (b: { id: number }) => b.id === bill.id,
        ).actions,
      );
    expect(await listed('customer')).toEqual(['pay']);
    expect(await listed('admin')).toEqual(['cancel', 'pay']);
    expect(await listed('viewer')).toEqual(['pay']);

    await f.truck.setBalance('customer', 100_000n);
    await f.truck.ok('/api/admin/bounceBill/pay', { id: bill.id }, 'customer');
    expect(await listed('customer')).toEqual(['dispute']);
    expect(await listed('admin')).toEqual([]);
  });

  it('offer the owner withdrawing and staff with the resolve button accepting, resolving, rejecting', async () => {
    await f.truck.setBalance('customer', 100_000n);
    const order = await f.truck.order('customer');
    const wo = await f.truck.ok(
      '/api/admin/workOrder/save',
      {
        orderNo: order.orderNo,
        category: 'damage',
        transactionItem: 'freight',
        amount: '20.00',
        description: 'A pallet arrived broken',
      },
      'customer',
    );
    const info = async (who: string) =>
      sorted(
        (await f.truck.get(`/api/admin/workOrder/info?sn=${wo.workOrderNo}`, who)).json().data
          .actions as string[],
      );
    expect(await info('customer')).toEqual(['withdraw']);
    expect(await info('admin')).toEqual(['accept', 'reject', 'resolve']);
    expect(await info('viewer')).toEqual([]);
    await f.truck.ok('/api/admin/workOrder/action', { sn: wo.workOrderNo, action: 'accept' }, 'admin');
    expect(await info('admin')).toEqual(['reject', 'resolve']);
  });
});

describe('account actions', () => {
  it('offer freezing or unfreezing by status, the credit limit and adjustments, each by its button', async () => {
    await f.truck.setBalance('customer', 100_000n);
    const account = async (who: string) =>
      (
        await f.truck.ok(
          '/api/admin/customer/list',
          { kind: 'allCustomer', line: 'truck', page: 1, limit: 100 },
          who,
        )
      ).list.find((o: { id: number }) => o.id === f.truck.orgs.customer).account;
    const { id: accountId } = await account('admin');
    expect((await account('admin')).actions).toEqual(['freeze', 'credit', 'adjust']);
    // The editor role holds no manual adjustment; a branch holds no account buttons at all.
    expect((await account('editor')).actions).toEqual(['freeze', 'credit']);
    expect((await account('branch')).actions).toEqual([]);

    const frozen = await f.truck.ok('/api/admin/account/freeze', { accountId, reason: 'Audit' }, 'admin');
    expect(frozen.actions).toEqual(['unfreeze', 'credit', 'adjust']);
    const total = (
      await f.truck.ok('/api/admin/account/balanceTotal', { line: 'truck' }, 'editor')
    ).list.find((a: { id: number }) => a.id === accountId);
    expect(total.actions).toEqual(['unfreeze', 'credit']);
    const thawed = await f.truck.ok('/api/admin/account/unfreeze', { accountId, reason: 'Done' }, 'admin');
    expect(thawed.actions).toEqual(['freeze', 'credit', 'adjust']);
  });
});
