import { and, eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/fixture.ts';
import { badFields, postMultipart, uploadFor } from '../../../test/helpers.ts';
import { notices } from '../../db/schema.ts';
import { ledgerMismatches } from '../accounts/service.ts';

const f = useTestApp({
  tenants: 2,
  signIn: [['admin', 'editor', 'agent', 'customer', 'direct'], ['admin']],
  truck: true,
});

const claim = (orderNo: string, extra: Record<string, unknown> = {}) => ({
  orderNo,
  category: 'damage',
  transactionItem: 'freight',
  amount: '50.00',
  description: 'Two cartons crushed',
  ...extra,
});
const info = async (sn: string, who: string) =>
  (await f.truck.get(`/api/admin/workOrder/info?sn=${sn}`, who)).json();
const act = (sn: string, action: string, who: string, extra: Record<string, unknown> = {}) =>
  f.truck.post('/api/admin/workOrder/action', { sn, action, ...extra }, who);

/** A delivered order with a charged 40.00 surcharge, and the customer's dispute of it. */
async function disputedBill() {
  await f.truck.setBalance('customer', 100_000n);
  const order = await f.truck.order('customer');
  const bill = await f.truck.ok(
    '/api/admin/bounceBill/save',
    { orderNo: order.orderNo, type: 'storage', amount: '40.00', description: 'Three days at the terminal' },
    'admin',
  );
  const wo = await f.truck.ok(
    '/api/admin/workOrder/save',
    claim(order.orderNo, {
      category: 'bill_dispute',
      transactionItem: 'surcharge',
      amount: '40.00',
      billId: bill.id,
    }),
    'customer',
  );
  return { order, bill, wo };
}

afterEach(async () => {
  expect(await ledgerMismatches(f.db, f.t.tenant.id)).toEqual([]);
});

describe('work orders', () => {
  it('disputes a bounce bill and refunds part of it through the ledger, under the order', async () => {
    const { order, bill, wo } = await disputedBill();
    expect(wo).toMatchObject({
      status: 'pending',
      billNo: bill.billNo,
      amount: '40.00',
      actions: ['withdraw'],
    });
    expect(wo.workOrderNo).toMatch(/^WO\d{14}$/);
    const bills = await f.truck.ok('/api/admin/bounceBill/list', { orderId: order.id }, 'customer');
    expect(bills.list[0]).toMatchObject({ status: 'disputed', workOrderNo: wo.workOrderNo, actions: [] });
    const again = await f.truck.post(
      '/api/admin/workOrder/save',
      claim(order.orderNo, { category: 'bill_dispute', billId: bill.id }),
      'customer',
    );
    expect(again.json().code).toBe(409);

    expect((await act(wo.workOrderNo, 'accept', 'customer')).json().code).toBe(401);
    const accepted = await act(wo.workOrderNo, 'accept', 'admin');
    expect(accepted.json().data).toMatchObject({ status: 'processing', actions: ['resolve', 'reject'] });

    const before = await f.truck.balanceOf('customer');
    const tooMuch = await act(wo.workOrderNo, 'resolve', 'admin', {
      consumptionType: 'refund',
      resultAmount: '500.00',
      remark: 'Storage waived',
    });
    expect(badFields(tooMuch)).toEqual(['resultAmount']);
    expect(tooMuch.json().data.fields[0].message).toContain(`(${(Number(order.total) + 40).toFixed(2)})`);
    const noRemark = await act(wo.workOrderNo, 'resolve', 'admin', {
      consumptionType: 'refund',
      resultAmount: '0',
    });
    expect(badFields(noRemark).sort()).toEqual(['remark', 'resultAmount']);

    const resolved = await act(wo.workOrderNo, 'resolve', 'admin', {
      consumptionType: 'refund',
      resultAmount: '25.00',
      remark: 'Two days waived',
    });
    expect(resolved.json().data).toMatchObject({
      status: 'resolved',
      consumptionType: 'refund',
      resultAmount: '25.00',
      remark: 'Two days waived',
      operator: f.t.email('admin'),
      actions: [],
      canMessage: false,
    });
    expect(resolved.json().data.processedAt).toBeTruthy();
    expect(await f.truck.balanceOf('customer')).toBe((before ?? 0n) + 2_500n);
    expect(
      (
        await act(wo.workOrderNo, 'resolve', 'admin', {
          consumptionType: 'refund',
          resultAmount: '25.00',
          remark: 'x',
        })
      ).json().code,
    ).toBe(409);
    expect(await f.truck.balanceOf('customer')).toBe((before ?? 0n) + 2_500n);

    const orderInfo = await f.truck.ok('/api/admin/order/info', { id: order.id }, 'customer');
    // Newest first: the refund, the surcharge, the payment.
    expect(orderInfo.ledger.map((e: any) => [e.type, e.amount])).toEqual([
      ['work_order_refund', '25.00'],
      ['surcharge', '-40.00'],
      ['order_payment', `-${order.total}`],
    ]);
    const settled = await f.truck.ok('/api/admin/bounceBill/list', { orderId: order.id }, 'customer');
    expect(settled.list[0].status).toBe('settled');

    const seen = await info(wo.workOrderNo, 'customer');
    expect(seen.data.events.map((e: any) => [e.action, e.toStatus])).toEqual([
      ['open', 'pending'],
      ['accept', 'processing'],
      ['resolve', 'resolved'],
    ]);
    // The customer hears of each step, by a notice that opens the work order.
    const heard = await f.db
      .select()
      .from(notices)
      .where(and(eq(notices.tenantId, f.t.tenant.id), eq(notices.orderSn, wo.workOrderNo)));
    expect(heard.map((n) => n.orderType)).toEqual([2, 2]);
    expect(heard[1]?.content).toContain('25.00');
  });

  it('keeps a thread both sides write in, with uploaded files only, until it ends', async () => {
    const order = await f.truck.order('customer');
    const wo = await f.truck.ok('/api/admin/workOrder/save', claim(order.orderNo), 'customer');
    const uploaded = await postMultipart(
      f.ctx,
      '/api/common/upload/documents',
      [
        {
          name: 'file',
          filename: 'photo.pdf',
          contentType: 'application/pdf',
          content: Buffer.from('%PDF-1.4\n%%EOF\n'),
        },
      ],
      { host: f.t.host, token: f.truck.tokens.customer },
    );
    const [url] = uploaded.json().data;
    const withProof = await f.truck.ok(
      '/api/admin/workOrder/save',
      claim(order.orderNo, { proofUrls: [url] }),
      'customer',
    );
    expect(withProof.proofUrls).toEqual([url]);
    const foreignProof = await f.truck.post(
      '/api/admin/workOrder/save',
      claim(order.orderNo, { proofUrls: ['https://example.com/photo.jpg'] }),
      'customer',
    );
    expect(badFields(foreignProof)).toEqual(['proofUrls']);
    const outside = await f.truck.post(
      '/api/admin/workOrder/message',
      { sn: wo.workOrderNo, body: 'See photo', attachments: ['https://example.com/a.pdf'] },
      'customer',
    );
    expect(badFields(outside)).toEqual(['attachments']);
    // A file belongs to one work order: the other one's proof is not this thread's to show.
    const elsewhere = await f.truck.post(
      '/api/admin/workOrder/message',
      { sn: wo.workOrderNo, body: 'See photo', attachments: [url] },
      'customer',
    );
    expect(badFields(elsewhere)).toEqual(['attachments']);
    const photo = await uploadFor(f.ctx, f.t.host, f.truck.tokens.customer, 'pdf');
    await f.truck.ok(
      '/api/admin/workOrder/message',
      { sn: wo.workOrderNo, body: 'See photo', attachments: [photo] },
      'customer',
    );
    // Whoever sees the work order loads its files; a customer who does not gets 404.
    const load = (file: string, who: 'admin' | 'direct') =>
      f.ctx.app.inject({
        method: 'GET',
        url: file,
        headers: { host: f.t.host, accesstoken: f.truck.tokens[who] as string },
      });
    for (const file of [url, photo]) {
      expect((await load(file, 'admin')).statusCode).toBe(200);
      expect((await load(file, 'direct')).statusCode).toBe(404);
    }
    await f.truck.ok(
      '/api/admin/workOrder/message',
      { sn: wo.workOrderNo, body: 'We are checking', attachments: [] },
      'admin',
    );
    const empty = await f.truck.post(
      '/api/admin/workOrder/message',
      { sn: wo.workOrderNo, body: ' ' },
      'customer',
    );
    expect(badFields(empty)).toEqual(['body']);

    const customerView = await info(wo.workOrderNo, 'customer');
    expect(customerView.data.messages.map((m: any) => [m.side, m.author, m.body, m.attachments])).toEqual([
      ['owner', f.t.email('customer'), 'See photo', [photo]],
      ['staff', 'Customer service', 'We are checking', []],
    ]);
    const staffView = await info(wo.workOrderNo, 'admin');
    expect(staffView.data.messages[1].author).toBe(f.t.email('admin'));
    const reply = await f.db
      .select()
      .from(notices)
      .where(and(eq(notices.tenantId, f.t.tenant.id), eq(notices.orderSn, wo.workOrderNo)));
    expect(reply).toHaveLength(1);

    const withdrawn = await act(wo.workOrderNo, 'withdraw', 'customer');
    expect(withdrawn.json().data).toMatchObject({ status: 'withdrawn', canMessage: false });
    const late = await f.truck.post(
      '/api/admin/workOrder/message',
      { sn: wo.workOrderNo, body: 'Hello?' },
      'customer',
    );
    expect(late.json()).toMatchObject({ code: 409, msg: 'This work order is closed; no more messages' });
  });

  it('names bad fields and keeps staff, siblings and other tenants to their side', async () => {
    const order = await f.truck.order('customer');
    const bad = await f.truck.post(
      '/api/admin/workOrder/save',
      { orderNo: order.orderNo, category: 'bill_dispute', transactionItem: 'fuel', description: '' },
      'customer',
    );
    expect(badFields(bad).sort()).toEqual(['description', 'transactionItem']);
    const noBill = await f.truck.post(
      '/api/admin/workOrder/save',
      claim(order.orderNo, { category: 'bill_dispute' }),
      'customer',
    );
    expect(badFields(noBill)).toEqual(['billId']);
    const staff = await f.truck.post('/api/admin/workOrder/save', claim(order.orderNo), 'admin');
    expect(staff.json()).toMatchObject({ code: 409 });
    const sibling = await f.truck.post('/api/admin/workOrder/save', claim(order.orderNo), 'direct');
    expect(badFields(sibling)).toEqual(['orderNo']);
    const { bill } = await disputedBill();
    const wrongBill = await f.truck.post(
      '/api/admin/workOrder/save',
      claim(order.orderNo, { category: 'bill_dispute', billId: bill.id }),
      'customer',
    );
    expect(badFields(wrongBill)).toEqual(['billId']);

    const openCount = async (who: string) =>
      (await f.truck.ok('/api/admin/order/stats', {}, who)).openWorkOrders as number;
    const before = await openCount('customer');
    const wo = await f.truck.ok('/api/admin/workOrder/save', claim(order.orderNo), 'customer');
    // The dashboards count open work orders in the caller's scope.
    expect(await openCount('customer')).toBe(before + 1);
    expect(await openCount('direct')).toBe(0);
    expect((await info(wo.workOrderNo, 'direct')).code).toBe(404);
    expect((await info(wo.workOrderNo, 'agent')).code).toBe(200);
    const foreign = await f.ctx.app.inject({
      method: 'GET',
      url: `/api/admin/workOrder/info?sn=${wo.workOrderNo}`,
      headers: { host: f.tenant(1).host, accesstoken: f.as('admin', f.tenant(1)).token ?? '' },
    });
    expect(foreign.json().code).toBe(404);
    const siblingList = await f.truck.ok('/api/admin/workOrder/list', { keyword: wo.workOrderNo }, 'direct');
    expect(siblingList.list).toEqual([]);
    const agentList = await f.truck.ok(
      '/api/admin/workOrder/list',
      { keyword: wo.workOrderNo, status: 'pending' },
      'agent',
    );
    // The agent above the customer acts for it, as it does on its orders.
    expect(agentList.list.map((w: any) => [w.workOrderNo, w.actions])).toEqual([
      [wo.workOrderNo, ['withdraw']],
    ]);
    const byCategory = await f.truck.ok(
      '/api/admin/workOrder/list',
      { category: 'damage', orderId: order.id },
      'admin',
    );
    expect(byCategory.list.map((w: any) => w.workOrderNo)).toEqual([wo.workOrderNo]);
  });

  it('refuses a refund while the order can still be cancelled, and a deduction without funds', async () => {
    await f.truck.setBalance('customer', 100_000n);
    const waiting = await f.truck.order('customer', []);
    const wo = await f.truck.ok(
      '/api/admin/workOrder/save',
      claim(waiting.orderNo, { category: 'refund' }),
      'customer',
    );
    const refund = await act(wo.workOrderNo, 'resolve', 'admin', {
      consumptionType: 'refund',
      resultAmount: '10.00',
      remark: 'Partial refund',
    });
    expect(badFields(refund)).toEqual(['consumptionType']);

    const delivered = await f.truck.order('customer');
    const claimWo = await f.truck.ok(
      '/api/admin/workOrder/save',
      claim(delivered.orderNo, { category: 'delay' }),
      'customer',
    );
    await f.truck.setBalance('customer', 500n);
    const deduct = await act(claimWo.workOrderNo, 'resolve', 'admin', {
      consumptionType: 'deduct',
      resultAmount: '30.00',
      remark: 'Redelivery fee',
    });
    expect(deduct.json()).toMatchObject({ code: 409 });
    expect(deduct.json().msg).toContain('5.00 available, deduction 30.00');
    expect((await info(claimWo.workOrderNo, 'admin')).data.status).toBe('pending');
    expect(await f.truck.balanceOf('customer')).toBe(500n);

    const credited = await act(claimWo.workOrderNo, 'resolve', 'admin', {
      consumptionType: 'add',
      resultAmount: '12.00',
      remark: 'Goodwill for the delay',
    });
    expect(credited.json().data).toMatchObject({ consumptionType: 'add', resultAmount: '12.00' });
    expect(await f.truck.balanceOf('customer')).toBe(1_700n);
  });

  it('rejecting a dispute puts the bill back to charged; two staff resolving at once refund once', async () => {
    const first = await disputedBill();
    const rejected = await act(first.wo.workOrderNo, 'reject', 'admin', {
      remark: 'Weight confirmed by the scale ticket',
    });
    expect(rejected.json().data).toMatchObject({
      status: 'rejected',
      remark: 'Weight confirmed by the scale ticket',
    });
    const bills = await f.truck.ok('/api/admin/bounceBill/list', { orderId: first.order.id }, 'customer');
    expect(bills.list[0]).toMatchObject({ status: 'charged', actions: ['dispute'] });

    const second = await disputedBill();
    const before = await f.truck.balanceOf('customer');
    const answers = await Promise.all(
      ['admin', 'editor'].map((who) =>
        act(second.wo.workOrderNo, 'resolve', who, {
          consumptionType: 'refund',
          resultAmount: '40.00',
          remark: 'Waived',
        }),
      ),
    );
    expect(answers.map((a) => a.json().code).sort()).toEqual([200, 409]);
    expect(await f.truck.balanceOf('customer')).toBe((before ?? 0n) + 4_000n);
  });

  it('exports the list', async () => {
    const res = await f.truck.post('/api/admin/workOrder/export', {}, 'customer');
    expect(res.headers['content-type']).toContain('spreadsheetml');
    expect(res.rawPayload.length).toBeGreaterThan(1000);
  });
});
