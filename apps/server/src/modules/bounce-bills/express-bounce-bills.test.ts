import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { expressAccount, useExpressLine } from '../../../test/express-fixtures.ts';
import { useTestApp } from '../../../test/fixture.ts';
import { badFields, fieldMessage } from '../../../test/helpers.ts';
import { ledgerEntries, notices } from '../../db/schema.ts';

// Express bounce bills: the SPEC's "abnormal billing" (`/abnormalBilling`, `/expressBounceBill`).
const f = useTestApp({
  tenants: 2,
  signIn: [['admin', 'agent', 'customer', 'direct'], ['admin']],
  language: 'en-US',
});
const { orgs, expressBalance, truckBalance, fund, paidWaybill } = useExpressLine(f);

const reweigh = (waybillNo: string, amount = '6.40') => ({
  line: 'express',
  waybillNo,
  type: 'reweigh',
  amount,
  declared: '4 lb',
  actual: '7 lb',
  description: 'Reweighed at the hub',
});

describe('express bounce bills (abnormal billing)', () => {
  it('charges a shipped waybill’s bill to the express account with one ledger row and a notice of order type 5', async () => {
    const waybill = await paidWaybill();
    const before = await expressBalance('customer');
    const truckBefore = await truckBalance('customer');
    const bill = await f.as('admin').ok('/api/admin/bounceBill/save', reweigh(waybill.waybillNo));
    expect(bill).toMatchObject({
      line: 'express',
      orderId: waybill.id,
      orderNo: waybill.waybillNo,
      status: 'charged',
      amount: '6.40',
      actions: [],
    });
    expect(bill.billNo).toMatch(/^EBB\d{14}$/);
    expect(await expressBalance('customer')).toBe(before - 640n);
    expect(await truckBalance('customer')).toBe(truckBefore);

    const rows = await f.db
      .select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.tenantId, f.t.tenant.id), eq(ledgerEntries.note, bill.billNo)));
    const account = await expressAccount(f.db, f.t.tenant.id, orgs.customer as number);
    expect(rows.map((r) => [r.accountId, r.type, r.amount, r.refId])).toEqual([
      [account.id, 'surcharge', -640n, waybill.waybillNo],
    ]);
    // The waybill's own page lists it beside its payment.
    const info = await f.as('customer').ok('/api/express/order/info', { id: waybill.id });
    expect(info.ledger.map((e: { type: string; amount: string }) => [e.type, e.amount])).toContainEqual([
      'surcharge',
      '-6.40',
    ]);

    const customer = await f.userOf('customer');
    const [notice] = await f.db
      .select()
      .from(notices)
      .where(and(eq(notices.tenantId, f.t.tenant.id), eq(notices.orderSn, bill.billNo)));
    expect(notice).toMatchObject({ userId: customer, orderType: 5 });
    expect(notice?.content).toContain(waybill.waybillNo);
    expect(notice?.content).toContain('6.40');

    // The express pages list it; the truck pages never do.
    const mine = await f
      .as('customer')
      .ok('/api/admin/bounceBill/list', { line: 'express', keyword: bill.billNo });
    expect(mine.list.map((b: any) => [b.billNo, b.actions])).toEqual([[bill.billNo, ['dispute']]]);
    const truckList = await f.as('admin').ok('/api/admin/bounceBill/list', { page: 1, limit: 200 });
    expect(truckList.list.filter((b: any) => b.line !== 'truck')).toEqual([]);
    const byWaybill = await f
      .as('agent')
      .ok('/api/admin/bounceBill/list', { line: 'express', orderId: waybill.id });
    expect(byWaybill.list.map((b: any) => b.billNo)).toEqual([bill.billNo]);
    const sibling = await f.as('direct').ok('/api/admin/bounceBill/list', { line: 'express' });
    expect(sibling.list).toEqual([]);
    await f.as('direct').fail('/api/admin/bounceBill/pay', { id: bill.id }, 404);
    const foreign = await f.as('admin', f.tenant(1)).ok('/api/admin/bounceBill/list', { line: 'express' });
    expect(foreign.list).toEqual([]);
    await f.as('admin', f.tenant(1)).fail('/api/admin/bounceBill/cancel', { id: bill.id, reason: 'x' }, 404);
  });

  it('waits unpaid when the express balance is short, and is paid once by concurrent payers', async () => {
    const waybill = await paidWaybill(['hand_over', 'ship', 'deliver']);
    await fund('customer', 100n);
    const res = await f.as('admin').post('/api/admin/bounceBill/save', {
      ...reweigh(waybill.waybillNo, '8.00'),
      type: 'address_correction',
      declared: '',
      actual: '',
    });
    expect(res.json()).toMatchObject({ code: 200, data: { status: 'unpaid', type: 'address_correction' } });
    expect(res.json().msg).toContain('waits to be paid');
    const bill = res.json().data;
    expect(await expressBalance('customer')).toBe(100n);
    const [notice] = await f.db
      .select()
      .from(notices)
      .where(and(eq(notices.tenantId, f.t.tenant.id), eq(notices.orderSn, bill.billNo)));
    expect(notice?.orderType).toBe(5);

    const short = await f.as('customer').post('/api/admin/bounceBill/pay', { id: bill.id });
    expect(short.json().code).toBe(409);
    expect(short.json().msg).toContain('express account');
    expect(short.json().msg).toContain('1.00 available, bill 8.00');

    await fund('customer', 2_000n);
    const pays = await Promise.all(
      Array.from({ length: 4 }, () => f.as('customer').post('/api/admin/bounceBill/pay', { id: bill.id })),
    );
    expect(pays.map((p) => p.json().code)).toEqual([200, 200, 200, 200]);
    expect(await expressBalance('customer')).toBe(1_200n);
  });

  it('refuses unshipped, unknown and foreign waybills, truck types, and anyone but staff', async () => {
    const unshipped = await paidWaybill([]);
    const early = await f.as('admin').post('/api/admin/bounceBill/save', reweigh(unshipped.waybillNo));
    expect(badFields(early)).toEqual(['waybillNo']);
    expect(fieldMessage(early, 'waybillNo')).toContain('has not shipped');
    const unknown = await f.as('admin').post('/api/admin/bounceBill/save', reweigh('EW00000000000000'));
    expect(badFields(unknown)).toEqual(['waybillNo']);

    const shipped = await paidWaybill();
    const noNumber = await f.as('admin').post('/api/admin/bounceBill/save', {
      ...reweigh(''),
      orderNo: shipped.waybillNo,
    });
    expect(badFields(noNumber)).toEqual(['waybillNo']);
    const truckType = await f.as('admin').post('/api/admin/bounceBill/save', {
      ...reweigh(shipped.waybillNo),
      type: 'reclass',
    });
    expect(badFields(truckType)).toEqual(['type']);
    const expressTypeOnTruck = await f.as('admin').post('/api/admin/bounceBill/save', {
      ...reweigh(''),
      line: 'truck',
      orderNo: 'TK00000000000000',
      type: 'dimension_correction',
    });
    expect(badFields(expressTypeOnTruck)).toEqual(['type']);
    const noFindings = await f.as('admin').post('/api/admin/bounceBill/save', {
      ...reweigh(shipped.waybillNo),
      type: 'dimension_correction',
      declared: '',
      actual: '',
    });
    expect(badFields(noFindings).sort()).toEqual(['actual', 'declared']);

    await f.as('customer').fail('/api/admin/bounceBill/save', reweigh(shipped.waybillNo), 401);
    const elsewhere = await f
      .as('admin', f.tenant(1))
      .post('/api/admin/bounceBill/save', reweigh(shipped.waybillNo));
    expect(badFields(elsewhere)).toEqual(['waybillNo']);

    // Short of funds, staff may pay for the customer or cancel; the customer may not cancel.
    await fund('customer', 0n);
    const unpaid = await f.as('admin').ok('/api/admin/bounceBill/save', reweigh(shipped.waybillNo));
    expect(unpaid).toMatchObject({ status: 'unpaid', actions: ['pay', 'cancel'] });
    await f.as('customer').fail('/api/admin/bounceBill/cancel', { id: unpaid.id, reason: 'x' }, 401);
    const cancelled = await f
      .as('admin')
      .ok('/api/admin/bounceBill/cancel', { id: unpaid.id, reason: 'raised in error' });
    expect(cancelled).toMatchObject({ status: 'cancelled', line: 'express' });
  });
});
