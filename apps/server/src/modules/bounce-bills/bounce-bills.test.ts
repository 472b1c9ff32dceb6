import { translate } from '@freight/contracts/messages';
import { parseMoney } from '@freight/contracts/money';
import { and, eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterEach, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/fixture.ts';
import { badFields, fieldMessage, uploadFor } from '../../../test/helpers.ts';
import { ledgerEntries, notices } from '../../db/schema.ts';
import { ledgerMismatches } from '../accounts/service.ts';
import { findUserByEmail } from '../auth/service.ts';
import { renderNotice } from '../notices/service.ts';

const f = useTestApp({
  tenants: 2,
  signIn: [['admin', 'agent', 'customer', 'direct'], ['admin']],
  truck: true,
});

const reweigh = (orderNo: string, amount = '45.50') => ({
  orderNo,
  type: 'reweigh',
  amount,
  declared: '400 lb',
  actual: '520 lb',
  description: 'Reweighed at the Dallas terminal',
});

afterEach(async () => {
  expect(await ledgerMismatches(f.db, f.t.tenant.id)).toEqual([]);
});

describe('bounce bills', () => {
  it('charges a surcharge to the truck balance with a ledger row under the order and a notice', async () => {
    await f.truck.setBalance('customer', 100_000n);
    const order = await f.truck.order('customer');
    const before = await f.truck.balanceOf('customer');
    const bill = await f.truck.ok('/api/admin/bounceBill/save', reweigh(order.orderNo), 'admin');
    expect(bill).toMatchObject({
      orderNo: order.orderNo,
      status: 'charged',
      amount: '45.50',
      declared: '400 lb',
      actual: '520 lb',
      actions: [],
    });
    expect(bill.billNo).toMatch(/^BB\d{14}$/);
    expect(await f.truck.balanceOf('customer')).toBe((before ?? 0n) - 4_550n);

    const info = await f.truck.ok('/api/admin/order/info', { id: order.id }, 'customer');
    expect(info.ledger.map((e: any) => [e.type, e.amount, e.note])).toContainEqual([
      'surcharge',
      '-45.50',
      bill.billNo,
    ]);
    const customer = await findUserByEmail(f.db, f.t.tenant.id, f.t.email('customer'));
    const sent = await f.db
      .select()
      .from(notices)
      .where(and(eq(notices.tenantId, f.t.tenant.id), eq(notices.orderSn, order.orderNo)));
    const notice = sent.find((n) => n.content.includes(bill.billNo));
    expect(notice).toMatchObject({ userId: customer?.id, orderType: 1 });
    // Stored as keys, read in the reader's language: the bill's type is put into words too.
    const zh = renderNotice(notice as NonNullable<typeof notice>, 'zh-CN');
    expect(zh.title).toBe('异常账单');
    expect(zh.content).toContain('45.50');
    expect(zh.content).toContain(translate('zh-CN', 'bounceBill.type.reweigh'));
    expect(renderNotice(notice as NonNullable<typeof notice>, 'en-US').content).toContain(
      translate('en-US', 'bounceBill.type.reweigh'),
    );

    // The customer sees it and may dispute it; the agent above sees it; a sibling customer does not.
    const mine = await f.truck.ok(
      '/api/admin/bounceBill/list',
      { keyword: bill.billNo.slice(0, 12) },
      'customer',
    );
    expect(mine.list.map((b: any) => [b.billNo, b.actions])).toContainEqual([bill.billNo, ['dispute']]);
    const agents = await f.truck.ok('/api/admin/bounceBill/list', { orderId: order.id }, 'agent');
    expect(agents.list.map((b: any) => b.billNo)).toEqual([bill.billNo]);
    const sibling = await f.truck.ok('/api/admin/bounceBill/list', {}, 'direct');
    expect(sibling.list).toEqual([]);
    const siblingPays = await f.truck.post('/api/admin/bounceBill/pay', { id: bill.id }, 'direct');
    expect(siblingPays.json().code).toBe(404);
    const foreign = await f.ctx.app.inject({
      method: 'POST',
      url: '/api/admin/bounceBill/list',
      headers: { host: f.tenant(1).host, accesstoken: f.as('admin', f.tenant(1)).token ?? '' },
      payload: {},
    });
    expect(foreign.json().data.list).toEqual([]);
  });

  it('names each bad field, and refuses orders not yet picked up, unknown or of another tenant', async () => {
    const delivered = await f.truck.order('customer');
    const missing = await f.truck.post(
      '/api/admin/bounceBill/save',
      { orderNo: delivered.orderNo, type: 'reclass', amount: '0', description: '' },
      'admin',
    );
    expect(missing.json().code).toBe(400);
    expect(badFields(missing).sort()).toEqual(['actual', 'amount', 'declared', 'description']);
    const zh = await f.truck.post(
      '/api/admin/bounceBill/save',
      { ...reweigh(delivered.orderNo), amount: '12.345' },
      'admin',
      'zh-CN',
    );
    expect(fieldMessage(zh, 'amount')).toMatch(/金额/);

    const waiting = await f.truck.order('customer', []);
    const early = await f.truck.post('/api/admin/bounceBill/save', reweigh(waiting.orderNo), 'admin');
    expect(badFields(early)).toEqual(['orderNo']);
    expect(fieldMessage(early, 'orderNo')).toContain('has not been picked up');
    const unknown = await f.truck.post('/api/admin/bounceBill/save', reweigh('TK00000000000000'), 'admin');
    expect(badFields(unknown)).toEqual(['orderNo']);
    const foreign = await f.truck.post('/api/admin/bounceBill/save', reweigh(delivered.orderNo), 'admin');
    expect(foreign.json().code).toBe(200);
    const elsewhere = await f.ctx.app.inject({
      method: 'POST',
      url: '/api/admin/bounceBill/save',
      headers: {
        host: f.tenant(1).host,
        accesstoken: f.as('admin', f.tenant(1)).token ?? '',
        'accept-language': 'en-US',
      },
      payload: reweigh(delivered.orderNo),
    });
    expect(badFields({ json: () => elsewhere.json() })).toEqual(['orderNo']);
    const outside = await f.truck.post(
      '/api/admin/bounceBill/save',
      { ...reweigh(delivered.orderNo), proofUrl: 'https://example.com/x.pdf' },
      'admin',
    );
    expect(badFields(outside)).toEqual(['proofUrl']);
  });

  it("keeps a bill's proof for who sees the bill: its customer and the agent above load it, a sibling gets 404", async () => {
    const order = await f.truck.order('customer');
    const proofUrl = await uploadFor(f.ctx, f.t.host, f.truck.tokens.admin, 'pdf');
    const bill = await f.truck.ok(
      '/api/admin/bounceBill/save',
      { ...reweigh(order.orderNo), proofUrl },
      'admin',
    );
    expect(bill.proofUrl).toBe(proofUrl);
    const load = (who: 'admin' | 'agent' | 'customer' | 'direct') =>
      f.ctx.app.inject({
        method: 'GET',
        url: proofUrl,
        headers: { host: f.t.host, accesstoken: f.truck.tokens[who] as string },
      });
    for (const who of ['admin', 'agent', 'customer'] as const) {
      const res = await load(who);
      expect(res.statusCode, who).toBe(200);
      expect(res.headers['content-disposition'], who).toMatch(/^attachment;/);
    }
    expect((await load('direct')).statusCode).toBe(404);
    // A proof belongs to one bill.
    const again = await f.truck.post(
      '/api/admin/bounceBill/save',
      { ...reweigh(order.orderNo), proofUrl },
      'admin',
    );
    expect(badFields(again)).toEqual(['proofUrl']);
    // The bill took its amount from the customer: later tests book orders from a full balance.
    await f.truck.setBalance('customer', 1_000_000n);
  });

  it('is raised and cancelled by staff only', async () => {
    const order = await f.truck.order('customer');
    const bycustomer = await f.truck.post('/api/admin/bounceBill/save', reweigh(order.orderNo), 'customer');
    expect(bycustomer.json().code).toBe(401);
    const bill = await f.truck.ok('/api/admin/bounceBill/save', reweigh(order.orderNo), 'admin');
    const cancel = await f.truck.post(
      '/api/admin/bounceBill/cancel',
      { id: bill.id, reason: 'x' },
      'customer',
    );
    expect(cancel.json().code).toBe(401);
  });

  it('waits unpaid when funds are short, is paid once by many payers, and cancels only while unpaid', async () => {
    await f.truck.setBalance('customer', 100_000n);
    const order = await f.truck.order('customer');
    await f.truck.setBalance('customer', 1_000n);
    const res = await f.truck.post('/api/admin/bounceBill/save', reweigh(order.orderNo, '80.00'), 'admin');
    expect(res.json()).toMatchObject({ code: 200, data: { status: 'unpaid' } });
    const unpaidBills = async () =>
      (await f.truck.ok('/api/admin/order/stats', {}, 'customer')).unpaidBills as number;
    expect(await unpaidBills()).toBe(1);
    expect(res.json().msg).toContain('waits to be paid');
    const bill = res.json().data;
    expect(await f.truck.balanceOf('customer')).toBe(1_000n);
    const rows = await f.db
      .select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.tenantId, f.t.tenant.id), eq(ledgerEntries.note, bill.billNo)));
    expect(rows).toEqual([]);

    const short = await f.truck.post('/api/admin/bounceBill/pay', { id: bill.id }, 'customer');
    expect(short.json()).toMatchObject({ code: 409 });
    expect(short.json().msg).toContain('10.00 available, bill 80.00');

    await f.truck.setBalance('customer', 10_000n);
    const pays = await Promise.all(
      Array.from({ length: 5 }, () => f.truck.post('/api/admin/bounceBill/pay', { id: bill.id }, 'customer')),
    );
    expect(pays.map((p) => p.json().code)).toEqual([200, 200, 200, 200, 200]);
    expect(await f.truck.balanceOf('customer')).toBe(2_000n);
    expect(await unpaidBills()).toBe(0);
    const late = await f.truck.post(
      '/api/admin/bounceBill/cancel',
      { id: bill.id, reason: 'raised in error' },
      'admin',
    );
    expect(late.json().code).toBe(409);

    await f.truck.setBalance('customer', 0n);
    const second = await f.truck.ok('/api/admin/bounceBill/save', reweigh(order.orderNo, '15.00'), 'admin');
    // Staff may pay it for the customer from the same balance, or cancel it.
    expect(second.actions).toEqual(['pay', 'cancel']);
    const noReason = await f.truck.post(
      '/api/admin/bounceBill/cancel',
      { id: second.id, reason: '' },
      'admin',
    );
    expect(badFields(noReason)).toEqual(['reason']);
    const cancelled = await f.truck.ok(
      '/api/admin/bounceBill/cancel',
      { id: second.id, reason: 'raised in error' },
      'admin',
    );
    expect(cancelled).toMatchObject({ status: 'cancelled', cancelReason: 'raised in error' });
    await f.truck.setBalance('customer', 10_000n);
    const payCancelled = await f.truck.post('/api/admin/bounceBill/pay', { id: second.id }, 'customer');
    expect(payCancelled.json().code).toBe(409);
    expect(await f.truck.balanceOf('customer')).toBe(10_000n);
  });

  it('exports the list as xlsx in the caller’s language', async () => {
    const res = await f.truck.post('/api/admin/bounceBill/export', { status: 'charged' }, 'admin', 'zh-CN');
    expect(res.headers['content-type']).toContain('spreadsheetml');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0];
    expect(sheet?.getRow(1).getCell(1).value).toBe('账单号');
    const statuses = new Set<unknown>();
    sheet?.eachRow((row, n) => {
      if (n > 1) statuses.add(row.getCell(9).value);
    });
    expect([...statuses]).toEqual(['已扣款']);
    expect(parseMoney(String(sheet?.getRow(2).getCell(5).value))).toBeGreaterThan(0n);
  });
});
