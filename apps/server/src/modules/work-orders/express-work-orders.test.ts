import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { expressAccount, useExpressLine } from '../../../test/express-fixtures.ts';
import { useTestApp } from '../../../test/fixture.ts';
import { badFields, fieldMessage, type Who } from '../../../test/helpers.ts';
import { ledgerEntries, notices } from '../../db/schema.ts';

// Express work orders (`/expressWorkOrderList`, `/expressWorkorderoperate`): the truck engine on waybills.
const f = useTestApp({
  tenants: 2,
  signIn: [['admin', 'editor', 'agent', 'customer', 'direct'], ['admin']],
  language: 'en-US',
});
const { orgs, expressBalance, truckBalance, fund, paidWaybill } = useExpressLine(f);

const claim = (waybillNo: string, extra: Record<string, unknown> = {}) => ({
  line: 'express',
  waybillNo,
  category: 'damage',
  transactionItem: 'freight',
  amount: '10.00',
  description: 'Parcel arrived crushed',
  ...extra,
});
const act = (sn: string, action: string, who: Who, extra: Record<string, unknown> = {}) =>
  f.as(who).post('/api/admin/workOrder/action', { sn, action, ...extra });

describe('express work orders', () => {
  it('disputes an abnormal billing and refunds on the express account, capped by what the waybill paid', async () => {
    const waybill = await paidWaybill();
    const bill = await f.as('admin').ok('/api/admin/bounceBill/save', {
      line: 'express',
      waybillNo: waybill.waybillNo,
      type: 'address_correction',
      amount: '5.00',
      description: 'Recipient address corrected by the carrier',
    });
    const wo = await f.as('customer').ok(
      '/api/admin/workOrder/save',
      claim(waybill.waybillNo, {
        category: 'bill_dispute',
        transactionItem: 'surcharge',
        amount: '5.00',
        billId: bill.id,
      }),
    );
    expect(wo).toMatchObject({
      line: 'express',
      orderId: waybill.id,
      orderNo: waybill.waybillNo,
      billNo: bill.billNo,
      status: 'pending',
      actions: ['withdraw'],
    });
    expect(wo.workOrderNo).toMatch(/^EWO\d{14}$/);
    const disputed = await f
      .as('customer')
      .ok('/api/admin/bounceBill/list', { line: 'express', orderId: waybill.id });
    expect(disputed.list[0]).toMatchObject({ status: 'disputed', workOrderNo: wo.workOrderNo });

    const before = await expressBalance('customer');
    const truckBefore = await truckBalance('customer');
    // Paid 21.25 for the waybill and 5.00 for its bill: 26.25 is the most it can have back.
    const tooMuch = await act(wo.workOrderNo, 'resolve', 'admin', {
      consumptionType: 'refund',
      resultAmount: '26.26',
      remark: 'Waived',
    });
    expect(badFields(tooMuch)).toEqual(['resultAmount']);
    expect(fieldMessage(tooMuch, 'resultAmount')).toContain('waybill');
    expect(fieldMessage(tooMuch, 'resultAmount')).toContain('(26.25)');
    const resolved = await act(wo.workOrderNo, 'resolve', 'admin', {
      consumptionType: 'refund',
      resultAmount: '5.00',
      remark: 'Address charge waived',
    });
    expect(resolved.json().data).toMatchObject({ status: 'resolved', resultAmount: '5.00', line: 'express' });
    expect(await expressBalance('customer')).toBe(before + 500n);
    expect(await truckBalance('customer')).toBe(truckBefore);
    const refunds = await f.db
      .select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.tenantId, f.t.tenant.id), eq(ledgerEntries.type, 'work_order_refund')));
    const account = await expressAccount(f.db, f.t.tenant.id, orgs.customer as number);
    expect(
      refunds.filter((r) => r.refId === waybill.waybillNo).map((r) => [r.accountId, r.amount, r.refType]),
    ).toEqual([[account.id, 500n, 'work_order']]);
    const settled = await f
      .as('customer')
      .ok('/api/admin/bounceBill/list', { line: 'express', orderId: waybill.id });
    expect(settled.list[0].status).toBe('settled');
    const heard = await f.db
      .select()
      .from(notices)
      .where(and(eq(notices.tenantId, f.t.tenant.id), eq(notices.orderSn, wo.workOrderNo)));
    expect(heard.map((n) => n.orderType)).toEqual([2]);
    expect(heard[0]?.content).toContain(waybill.waybillNo);

    // Express pages list it; truck pages, siblings and other tenants never see it.
    const express = await f
      .as('agent')
      .ok('/api/admin/workOrder/list', { line: 'express', keyword: wo.workOrderNo });
    expect(express.list.map((w: any) => w.workOrderNo)).toEqual([wo.workOrderNo]);
    const truck = await f.as('customer').ok('/api/admin/workOrder/list', { keyword: wo.workOrderNo });
    expect(truck.list).toEqual([]);
    const staffTruck = await f.as('admin').ok('/api/admin/workOrder/list', { page: 1, limit: 200 });
    expect(staffTruck.list.filter((w: any) => w.line !== 'truck')).toEqual([]);
    const sibling = await f.as('direct').ok('/api/admin/workOrder/list', { line: 'express' });
    expect(sibling.list).toEqual([]);
    expect((await f.as('direct').get(`/api/admin/workOrder/info?sn=${wo.workOrderNo}`)).json().code).toBe(
      404,
    );
    expect((await f.as('agent').get(`/api/admin/workOrder/info?sn=${wo.workOrderNo}`)).json().code).toBe(200);
    const foreign = await f.as('admin', f.tenant(1)).get(`/api/admin/workOrder/info?sn=${wo.workOrderNo}`);
    expect(foreign.json().code).toBe(404);
    const outsider = await f.as('direct').post('/api/admin/workOrder/save', claim(waybill.waybillNo));
    expect(badFields(outsider)).toEqual(['waybillNo']);
  });

  it('refuses a refund while the waybill is unshipped, and two resolutions at once refund once', async () => {
    const unshipped = await paidWaybill([]);
    const early = await f
      .as('customer')
      .ok('/api/admin/workOrder/save', claim(unshipped.waybillNo, { category: 'refund' }));
    const refused = await act(early.workOrderNo, 'resolve', 'admin', {
      consumptionType: 'refund',
      resultAmount: '5.00',
      remark: 'Partial refund',
    });
    expect(badFields(refused)).toEqual(['consumptionType']);
    expect(fieldMessage(refused, 'consumptionType')).toContain('void');

    const shipped = await paidWaybill(['hand_over', 'ship', 'out_for_delivery', 'deliver']);
    const first = await f.as('customer').ok('/api/admin/workOrder/save', claim(shipped.waybillNo));
    const second = await f
      .as('customer')
      .ok('/api/admin/workOrder/save', claim(shipped.waybillNo, { category: 'delay' }));
    const before = await expressBalance('customer');
    // The same work order resolved by two staff at once: one wins.
    const same = await Promise.all(
      ['admin', 'editor'].map((who) =>
        act(first.workOrderNo, 'resolve', who as Who, {
          consumptionType: 'refund',
          resultAmount: '15.00',
          remark: 'Damaged in transit',
        }),
      ),
    );
    expect(same.map((a) => a.json().code).sort()).toEqual([200, 409]);
    expect(await expressBalance('customer')).toBe(before + 1_500n);
    // Two work orders on one waybill cannot both fit under its cap (6.25 is left of 21.25).
    const tooMuch = await act(second.workOrderNo, 'resolve', 'editor', {
      consumptionType: 'refund',
      resultAmount: '6.26',
      remark: 'Late',
    });
    expect(badFields(tooMuch)).toEqual(['resultAmount']);
    const rest = await act(second.workOrderNo, 'resolve', 'editor', {
      consumptionType: 'refund',
      resultAmount: '6.25',
      remark: 'Late',
    });
    expect(rest.json().code).toBe(200);
    expect(await expressBalance('customer')).toBe(before + 2_125n);
  });

  it('deducts only with funds, and keeps staff steps to staff', async () => {
    const waybill = await paidWaybill();
    const wo = await f
      .as('customer')
      .ok('/api/admin/workOrder/save', claim(waybill.waybillNo, { category: 'other' }));
    expect((await act(wo.workOrderNo, 'accept', 'customer')).json().code).toBe(401);
    await f.as('admin').fail('/api/admin/workOrder/save', claim(waybill.waybillNo), 409);
    await fund('customer', 300n);
    const deduct = await act(wo.workOrderNo, 'resolve', 'admin', {
      consumptionType: 'deduct',
      resultAmount: '9.00',
      remark: 'Re-delivery fee',
    });
    expect(deduct.json().code).toBe(409);
    expect(deduct.json().msg).toContain('express account');
    expect(deduct.json().msg).toContain('3.00 available, deduction 9.00');
    expect(await expressBalance('customer')).toBe(300n);
    const credited = await act(wo.workOrderNo, 'resolve', 'admin', {
      consumptionType: 'add',
      resultAmount: '2.00',
      remark: 'Goodwill',
    });
    expect(credited.json().data).toMatchObject({ status: 'resolved', consumptionType: 'add' });
    expect(await expressBalance('customer')).toBe(500n);
  });
});
