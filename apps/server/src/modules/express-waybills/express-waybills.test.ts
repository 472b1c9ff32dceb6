import { and, eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { extractText, getDocumentProxy } from 'unpdf';
import { describe, expect, it } from 'vitest';
import { selectedQuote, useExpressLine } from '../../../test/express-fixtures.ts';
import { useTestApp } from '../../../test/fixture.ts';
import { badFields as badFieldsOf, postMultipart, type Who } from '../../../test/helpers.ts';
import { expressTrackingEvents, ledgerEntries, notices } from '../../db/schema.ts';

const f = useTestApp({
  tenants: 2,
  signIn: [
    ['admin', 'editor', 'agent', 'customer', 'direct'],
    ['admin', 'customer'],
  ],
  language: 'en-US',
});
const { expressBalance: balance, fund } = useExpressLine(f);

/** A booked waybill of the customer's (21.25 on the standard channel), unpaid. */
async function bookedWaybill(who: Who = 'customer') {
  const quoteId = await selectedQuote(f.as(who));
  return f.as(who).ok('/api/express/order/create', { quoteId });
}

async function ledgerOf(waybillNo: string) {
  return f.db
    .select()
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.tenantId, f.t.tenant.id), eq(ledgerEntries.refId, waybillNo)));
}

describe('express waybills', () => {
  it('books from the selected channel once, with the quote’s price at every level', async () => {
    const quoteId = await selectedQuote(f.as('customer'));
    // Two bookings of one quote at once make one waybill.
    const [a, b] = await Promise.all([
      f.as('customer').ok('/api/express/order/create', { quoteId }),
      f.as('customer').ok('/api/express/order/create', { quoteId }),
    ]);
    expect(a.id).toBe(b.id);
    expect(a).toMatchObject({ status: 'unpaid', total: '21.25' });
    const staff = await f.as('admin').ok('/api/express/order/info', { id: a.id });
    expect(staff.waybill.levels.map((l: { total: string }) => l.total)).toEqual([
      '17.04',
      '17.89',
      '19.32',
      '21.25',
    ]);
    expect(staff.waybill.trackingNo).toMatch(/^FP/);
    const mine = await f.as('customer').ok('/api/express/order/info', { id: a.id });
    expect(mine.waybill.levels.map((l: { type: string }) => l.type)).toEqual(['customer']);
    expect(mine.waybill.actions).toEqual(['pay', 'cancel']);
  });

  it('pays once from the express account under any number of concurrent payments', async () => {
    const waybill = await bookedWaybill();
    await fund('customer', 10_000n);
    const pays = await Promise.all(
      Array.from({ length: 6 }, () => f.as('customer').post('/api/express/order/pay', { id: waybill.id })),
    );
    expect(pays.map((p) => p.json().code)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(pays.filter((p) => p.json().data.repeated === false)).toHaveLength(1);
    expect(await balance('customer')).toBe(10_000n - 2_125n);
    const rows = await ledgerOf(waybill.waybillNo);
    expect(rows.map((r) => [r.type, r.amount])).toEqual([['order_payment', -2_125n]]);
    const info = await f.as('customer').ok('/api/express/order/info', { id: waybill.id });
    expect(info.waybill).toMatchObject({ status: 'to_be_printed', paid: '21.25' });
    expect(info.ledger).toEqual([expect.objectContaining({ type: 'order_payment', amount: '-21.25' })]);
  });

  it('moves no money and stays unpaid when the funds are short, saying what is available', async () => {
    const waybill = await bookedWaybill();
    await fund('customer', 1_000n);
    const res = await f.as('customer').post('/api/express/order/pay', { id: waybill.id });
    expect(res.json()).toMatchObject({ code: 409 });
    expect(res.json().msg).toContain('10.00');
    expect(res.json().msg).toContain('21.25');
    expect(await balance('customer')).toBe(1_000n);
    expect(await ledgerOf(waybill.waybillNo)).toEqual([]);
    const zh = await f.as('customer').post('/api/express/order/pay', { id: waybill.id }, 'zh-CN');
    expect(zh.json().msg).toMatch(/[\u4e00-\u9fff]/);
    const info = await f.as('customer').ok('/api/express/order/info', { id: waybill.id });
    expect(info.waybill.status).toBe('unpaid');
  });

  it('refunds a voided unshipped waybill once under concurrent refunds, with the reason', async () => {
    const waybill = await bookedWaybill();
    await fund('customer', 5_000n);
    await f.as('customer').ok('/api/express/order/pay', { id: waybill.id });
    const missing = await f.as('customer').post('/api/express/order/refund', { id: waybill.id, reason: ' ' });
    expect(missing.json().code).toBe(400);
    const refunds = await Promise.all(
      Array.from({ length: 5 }, () =>
        f.as('customer').post('/api/express/order/refund', { id: waybill.id, reason: 'Booked twice' }),
      ),
    );
    expect(refunds.map((r) => r.json().code)).toEqual([200, 200, 200, 200, 200]);
    expect(refunds.filter((r) => r.json().data.repeated === false)).toHaveLength(1);
    expect(await balance('customer')).toBe(5_000n);
    const rows = await ledgerOf(waybill.waybillNo);
    expect(rows.map((r) => r.amount).sort()).toEqual([-2_125n, 2_125n]);
    const info = await f.as('customer').ok('/api/express/order/info', { id: waybill.id });
    expect(info.waybill).toMatchObject({
      status: 'refunded',
      paid: '0.00',
      refundReason: 'Booked twice',
      actions: [],
    });
  });

  it('prints a 4×6 label with the tracking number, moving the waybill to printed', async () => {
    const waybill = await bookedWaybill();
    const unpaid = await f.as('customer').post('/api/express/order/print', { ids: [waybill.id] });
    expect(unpaid.json()).toMatchObject({ code: 409 });
    expect(unpaid.json().msg).toContain(waybill.waybillNo);
    await fund('customer', 5_000n);
    await f.as('customer').ok('/api/express/order/pay', { id: waybill.id });
    const res = await f.as('customer').post('/api/express/order/print', { ids: [waybill.id] });
    expect(res.headers['content-type']).toContain('application/pdf');
    const pdf = await getDocumentProxy(new Uint8Array(res.rawPayload));
    const page = await pdf.getPage(1);
    const [width, height] = [page.view[2], page.view[3]];
    expect([width, height]).toEqual([288, 432]);
    const { text } = await extractText(pdf, { mergePages: true });
    const info = await f.as('customer').ok('/api/express/order/info', { id: waybill.id });
    expect(text).toContain(info.waybill.trackingNo);
    expect(text).toContain('Dallas');
    expect(text).toContain('PO-77');
    expect(text).toContain('Summit Parcel');
    expect(info.waybill).toMatchObject({ status: 'printed', printCount: 1 });
  });

  it('lets staff move a shipped waybill along, and refuses moves the machine lacks or the caller may not make', async () => {
    const waybill = await bookedWaybill();
    await fund('customer', 5_000n);
    await f.as('customer').ok('/api/express/order/pay', { id: waybill.id });
    // A customer cannot hand a parcel to the carrier.
    await f
      .as('customer')
      .fail('/api/express/order/transition', { id: waybill.id, action: 'hand_over' }, 409);
    await f.as('admin').fail('/api/express/order/transition', { id: waybill.id, action: 'deliver' }, 409);
    await f.as('customer').post('/api/express/order/print', { ids: [waybill.id] });
    for (const action of ['hand_over', 'ship', 'out_for_delivery', 'deliver'])
      await f.as('admin').ok('/api/express/order/transition', { id: waybill.id, action });
    const info = await f.as('customer').ok('/api/express/order/info', { id: waybill.id });
    expect(info.waybill.status).toBe('delivered');
    expect(info.timeline.map((e: { action: string }) => e.action)).toEqual([
      'create',
      'pay',
      'print',
      'hand_over',
      'ship',
      'out_for_delivery',
      'deliver',
    ]);
    // Delivered: voiding is over.
    await f.as('customer').fail('/api/express/order/refund', { id: waybill.id, reason: 'late' }, 409);
    // The customer hears of the delivery; the notice opens the waybill in the express order list.
    const heard = await f.db
      .select()
      .from(notices)
      .where(and(eq(notices.tenantId, f.t.tenant.id), eq(notices.orderSn, info.waybill.waybillNo)));
    expect(heard).toHaveLength(1);
    expect(heard[0]).toMatchObject({ orderType: 4, userId: await f.userOf('customer') });
    expect(heard[0]?.content).toContain(info.waybill.waybillNo);
  });

  it('keeps waybills inside their organisation’s tree and their tenant', async () => {
    const waybill = await bookedWaybill();
    await f.as('direct').fail('/api/express/order/info', { id: waybill.id }, 404);
    await f.as('direct').fail('/api/express/order/pay', { id: waybill.id }, 404);
    await f.as('customer', f.tenant(1)).fail('/api/express/order/info', { id: waybill.id }, 404);
    await f.as('admin', f.tenant(1)).fail('/api/express/order/refund', { id: waybill.id, reason: 'x' }, 404);
    const agent = await f.as('agent').ok('/api/express/order/list', { page: 1, limit: 50 });
    expect(agent.list.map((w: { id: number }) => w.id)).toContain(waybill.id);
    const direct = await f.as('direct').ok('/api/express/order/list', { page: 1, limit: 50 });
    expect(direct.list.map((w: { id: number }) => w.id)).not.toContain(waybill.id);
    const staff = await f
      .as('admin')
      .ok('/api/express/order/list', { page: 1, limit: 10, keyword: waybill.waybillNo });
    expect(staff.list).toHaveLength(1);
    expect(staff.counts.unpaid).toBeGreaterThanOrEqual(1);
  });
});

/** A tracking sheet as staff fill it: a header, then tracking number, time, scan, location, note. */
async function trackingSheet(rows: (string | Date)[][]) {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Tracking');
  sheet.addRow(['Tracking number', 'Time', 'Scan', 'Location', 'Note']);
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

const importSheet = (file: Buffer, who: Who = 'admin', language: 'zh-CN' | 'en-US' = 'en-US') =>
  postMultipart(
    f.ctx,
    '/api/express/tracking/import',
    [{ name: 'file', filename: 'tracking.xlsx', contentType: 'application/octet-stream', content: file }],
    { host: f.t.host, token: f.as(who).token, language },
  );

/** A paid, printed waybill of the customer's, as the carrier receives it. */
async function printedWaybill() {
  const waybill = await bookedWaybill();
  await fund('customer', 5_000n);
  await f.as('customer').ok('/api/express/order/pay', { id: waybill.id });
  await f.as('customer').post('/api/express/order/print', { ids: [waybill.id] });
  const info = await f.as('customer').ok('/api/express/order/info', { id: waybill.id });
  return info.waybill as { id: number; waybillNo: string; trackingNo: string };
}

describe('waybill export', () => {
  it('exports the list’s filters in the caller’s language, with the operator’s cost for staff only', async () => {
    const waybill = await bookedWaybill();
    const sheet = async (who: Who, language: 'zh-CN' | 'en-US') => {
      const res = await f.as(who).post('/api/express/order/export', { keyword: waybill.waybillNo }, language);
      expect(res.headers['content-type']).toContain('spreadsheetml');
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
      const rows = (workbook.worksheets[0] as ExcelJS.Worksheet)
        .getSheetValues()
        .filter(Boolean) as unknown[][];
      return rows.map((r) => r.slice(1));
    };
    const staff = await sheet('admin', 'en-US');
    expect(staff[0]).toContain('Operator cost');
    expect(staff).toHaveLength(2);
    const costAt = (staff[0] as string[]).indexOf('Operator cost');
    expect(staff[1]?.[costAt]).toBe(17.04);
    expect(staff[1]).toContain('Unpaid');
    const mine = await sheet('customer', 'zh-CN');
    expect(mine[0]).toContain('运单号');
    expect(mine[0]).not.toContain('平台成本');
    expect(mine[1]).toContain(21.25);
    const direct = await sheet('direct', 'en-US');
    expect(direct).toHaveLength(1);
  });
});

describe('waybill tracking', () => {
  it('moves the waybill along the scans staff add, each move on its timeline', async () => {
    const waybill = await printedWaybill();
    const at = (hoursAgo: number) => new Date(Date.now() - hoursAgo * 3_600_000).toISOString();
    const picked = await f.as('admin').ok('/api/express/tracking/add', {
      id: waybill.id,
      code: 'picked_up',
      at: at(5),
      location: 'Los Angeles, CA',
    });
    // From printed the parcel is handed over and shipped: two moves for one scan.
    expect(picked.status).toBe('in_transit');
    await f.as('admin').ok('/api/express/tracking/add', {
      id: waybill.id,
      code: 'arrived',
      at: at(3),
      location: 'Phoenix, AZ',
    });
    const out = await f
      .as('admin')
      .ok('/api/express/tracking/add', { id: waybill.id, code: 'out_for_delivery', at: at(1) });
    expect(out.status).toBe('out_for_delivery');
    // A scan of an earlier moment arriving late is kept, and does not turn the waybill back.
    const late = await f
      .as('admin')
      .ok('/api/express/tracking/add', { id: waybill.id, code: 'in_transit', at: at(4) });
    expect(late.status).toBe('out_for_delivery');
    const info = await f.as('customer').ok('/api/express/order/info', { id: waybill.id });
    expect(info.timeline.map((e: { action: string }) => e.action).slice(-3)).toEqual([
      'hand_over',
      'ship',
      'out_for_delivery',
    ]);
    const scans = await f
      .as('customer')
      .ok('/api/express/tracking/list', { page: 1, limit: 10, waybillId: waybill.id });
    expect(scans.list.map((e: { code: string }) => e.code)).toEqual([
      'out_for_delivery',
      'arrived',
      'in_transit',
      'picked_up',
    ]);
    expect(scans.list[3]).toMatchObject({
      location: 'Los Angeles, CA',
      source: 'staff',
      trackingNo: waybill.trackingNo,
    });
    // A customer reads the scans but records none.
    await f.as('customer').fail('/api/express/tracking/add', { id: waybill.id, code: 'delivered' }, 401);
    const direct = await f
      .as('direct')
      .ok('/api/express/tracking/list', { page: 1, limit: 10, keyword: waybill.trackingNo });
    expect(direct.total).toBe(0);
  });

  it('imports a sheet of scans all or none, naming each bad row, and once only', async () => {
    const a = await printedWaybill();
    const b = await printedWaybill();
    const unpaid = await bookedWaybill();
    const unpaidInfo = await f.as('customer').ok('/api/express/order/info', { id: unpaid.id });
    const bad = await importSheet(
      await trackingSheet([
        [a.trackingNo, '2026-01-05 08:00', 'picked_up', 'Los Angeles, CA', ''],
        [b.trackingNo, 'yesterday', 'picked_up', '', ''],
        ['FP0000', '2026-01-05 09:00', 'delivered', '', ''],
        [unpaidInfo.waybill.trackingNo, '2026-01-05 09:00', 'picked_up', '', ''],
        [a.trackingNo, '2026-01-05 10:00', 'teleported', '', ''],
      ]),
    );
    expect(bad.json().code).toBe(400);
    const rows = bad.json().data.errors.map((e: { row: number }) => e.row);
    expect(rows).toEqual([3, 4, 5, 6]);
    expect(bad.json().data.errors[0].message).toContain('Time');
    expect(bad.json().data.errors[1].message).toContain('FP0000');
    const none = await f.db
      .select()
      .from(expressTrackingEvents)
      .where(eq(expressTrackingEvents.waybillId, a.id));
    expect(none).toEqual([]);

    const zh = await importSheet(
      await trackingSheet([[a.trackingNo, 'x', 'picked_up', '', '']]),
      'admin',
      'zh-CN',
    );
    expect(zh.json().data.errors[0].message).toContain('时间');

    const good = await trackingSheet([
      [a.trackingNo, '2026-01-05 08:00', 'picked_up', 'Los Angeles, CA', ''],
      [b.trackingNo, '2026-01-05 08:30', '已揽收', 'Los Angeles, CA', ''],
      [a.trackingNo, '2026-01-06 17:45', 'Delivered', 'Dallas, TX', 'Front desk'],
    ]);
    const imported = await importSheet(good);
    expect(imported.json()).toMatchObject({ code: 200, data: { imported: 3, skipped: 0 } });
    expect(imported.json().msg).toContain('3');
    const again = await importSheet(good);
    expect(again.json().data).toEqual({ imported: 0, skipped: 3 });
    const infoA = await f.as('customer').ok('/api/express/order/info', { id: a.id });
    const infoB = await f.as('customer').ok('/api/express/order/info', { id: b.id });
    expect(infoA.waybill.status).toBe('delivered');
    expect(infoB.waybill.status).toBe('in_transit');
    // Only staff with the update button import.
    const refused = await importSheet(good, 'customer');
    expect(refused.json().code).toBe(401);
  });
});

describe('return waybills', () => {
  /** A return address of the customer's express book, where returns come back to. */
  async function returnAddress(who: Who = 'customer', kind = 'return') {
    const { id } = await f.as(who).ok('/api/express/address/save', {
      kind,
      name: 'Returns Desk',
      company: 'Acme Returns',
      address1: '200 Dock Rd',
      zipcode: '90001',
      city: 'Los Angeles',
      state: 'CA',
      phone: '2135550199',
    });
    return id as number;
  }

  async function deliveredWaybill() {
    const waybill = await printedWaybill();
    for (const action of ['hand_over', 'ship', 'deliver'])
      await f.as('admin').ok('/api/express/order/transition', { id: waybill.id, action });
    return waybill;
  }

  it('sends a delivered parcel back from its recipient to a return address, once however often asked', async () => {
    const original = await deliveredWaybill();
    const addressId = await returnAddress();
    const [a, b] = await Promise.all([
      f
        .as('customer')
        .post('/api/express/order/createReturn', { id: original.id, returnAddressId: addressId }),
      f
        .as('customer')
        .post('/api/express/order/createReturn', { id: original.id, returnAddressId: addressId }),
    ]);
    expect([a.json().code, b.json().code]).toEqual([200, 200]);
    expect(a.json().data.id).toBe(b.json().data.id);
    const info = await f.as('customer').ok('/api/express/order/info', { id: a.json().data.id });
    expect(info.waybill).toMatchObject({
      status: 'unpaid',
      returnOfNo: original.waybillNo,
      reference: `RTN ${original.waybillNo}`,
      // From Dallas (752) to Los Angeles (900) is zone 7 on the original's channel: 4 lb is 12.40 +
      // 3 × 1.90 = 18.10 and 2.26 fuel at cost; +5 %, +8 %, +10 % down the tree: 22.58 + 2.82 = 25.40.
      total: '25.40',
      channel: { code: 'USG-STD' },
    });
    expect(info.waybill.shipment.sender.city).toBe('Dallas');
    expect(info.waybill.shipment.recipient).toMatchObject({ city: 'Los Angeles', company: 'Acme Returns' });
    const returns = await f
      .as('customer')
      .ok('/api/express/order/list', { page: 1, limit: 50, type: 'return' });
    expect(returns.list.map((w: { id: number }) => w.id)).toEqual([a.json().data.id]);
    const regular = await f
      .as('customer')
      .ok('/api/express/order/list', { page: 1, limit: 50, type: 'regular' });
    expect(regular.list.map((w: { id: number }) => w.id)).not.toContain(a.json().data.id);
    // A return is not returned again.
    await f
      .as('customer')
      .fail('/api/express/order/createReturn', { id: a.json().data.id, returnAddressId: addressId }, 409);
  });

  it('refuses an undelivered waybill, an address that is no return address or is foreign, and another tree or tenant', async () => {
    const printed = await printedWaybill();
    const addressId = await returnAddress();
    const early = await f
      .as('customer')
      .post('/api/express/order/createReturn', { id: printed.id, returnAddressId: addressId });
    expect(early.json().code).toBe(409);
    expect(early.json().msg).toContain(printed.waybillNo);
    const original = await deliveredWaybill();
    // A sender of the book is where parcels leave from, not where returns come back to.
    const sender = await returnAddress('customer', 'sender');
    const notReturn = await f
      .as('customer')
      .post('/api/express/order/createReturn', { id: original.id, returnAddressId: sender });
    expect(notReturn.json().code).toBe(400);
    expect(badFieldsOf(notReturn)).toEqual(['returnAddressId']);
    const elsewhere = await returnAddress('direct');
    const foreign = await f
      .as('admin')
      .post('/api/express/order/createReturn', { id: original.id, returnAddressId: elsewhere });
    expect(badFieldsOf(foreign)).toEqual(['returnAddressId']);
    await f
      .as('direct')
      .fail('/api/express/order/createReturn', { id: original.id, returnAddressId: elsewhere }, 404);
    await f
      .as('customer', f.tenant(1))
      .fail('/api/express/order/createReturn', { id: original.id, returnAddressId: addressId }, 404);
  });
});
