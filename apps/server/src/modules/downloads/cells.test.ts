import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { useExpressLine } from '../../../test/express-fixtures.ts';
import { type Caller, isoDay, useTestApp } from '../../../test/fixture.ts';
import { call } from '../../../test/helpers.ts';
import { insertDailyReport, insertTruckRecords } from '../../../test/truck-fixtures.ts';
import { workOrders } from '../work-orders/schema.ts';
import { EXPORT_QUEUE } from './runner.ts';
import { findExportFile } from './service.ts';

const f = useTestApp({ truck: true, signIn: ['admin', 'branch', 'agent', 'customer'] });
const express = useExpressLine(f);

/** China has kept UTC+8 all year since 1991: the wall clock of an instant there is 8 hours on. */
const ZONE = 'Asia/Shanghai';
const inZone = (iso: string) => new Date(new Date(iso).getTime() + 8 * 60 * 60 * 1000);

interface Sheet {
  header: string[];
  rows: ExcelJS.Cell[][];
  column(name: string): ExcelJS.Cell[];
}

/** Asks for an export in English with the browser's time zone header; the file, whether answered at once or queued. */
async function exported(
  as: Caller,
  url: string,
  body: object,
  timeZone: string | null = ZONE,
): Promise<Sheet> {
  const res = await f.ctx.app.inject({
    method: 'POST',
    url,
    headers: {
      host: as.tenant.host,
      accesstoken: as.token ?? '',
      'accept-language': 'en-US',
      ...(timeZone ? { 'x-time-zone': timeZone } : {}),
    },
    payload: body,
  });
  let file = res.rawPayload;
  if (!String(res.headers['content-type']).includes('spreadsheetml')) {
    const json = res.json();
    expect(json, url).toMatchObject({ code: 200, data: { queued: true } });
    const row = await findExportFile(f.db, as.tenant.tenant.id, json.data.id);
    await f.ctx.app.jobs.settled(EXPORT_QUEUE, row?.jobId ?? '');
    const download = await call(
      f.ctx,
      'POST',
      '/api/admin/download/file',
      { id: json.data.id },
      { host: as.tenant.host, token: as.token },
    );
    expect(download.statusCode, url).toBe(200);
    file = download.rawPayload;
  }
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(file as unknown as ArrayBuffer);
  const sheet = workbook.worksheets[0] as ExcelJS.Worksheet;
  const header = (sheet.getRow(1).values as unknown[]).slice(1).map(String);
  const rows: ExcelJS.Cell[][] = [];
  sheet.eachRow((row, n) => {
    if (n > 1) rows.push(header.map((_, i) => row.getCell(i + 1)));
  });
  return {
    header,
    rows,
    column(name) {
      const at = header.indexOf(name);
      expect(at, `column ${name} of ${url}`).toBeGreaterThanOrEqual(0);
      return rows.map((r) => r[at] as ExcelJS.Cell);
    },
  };
}

/** Every money column: number cells of two places; every time column: date-time cells; nothing as text. */
function expectTyped(sheet: Sheet, money: string[], times: string[], what: string) {
  expect(sheet.rows.length, what).toBeGreaterThan(0);
  for (const name of money)
    for (const cell of sheet.column(name)) {
      if (cell.value === null) continue;
      expect(typeof cell.value, `${what}: ${name}`).toBe('number');
      expect(cell.numFmt, `${what}: ${name}`).toBe('0.00');
    }
  for (const name of times)
    for (const cell of sheet.column(name)) {
      if (cell.value === null) continue;
      expect(cell.value, `${what}: ${name}`).toBeInstanceOf(Date);
      expect(cell.numFmt, `${what}: ${name}`).toMatch(/^yyyy-mm-dd( hh:mm(:ss)?)?$/);
    }
  // No amount or instant anywhere in the file is left as text (a decimal string, a UTC ISO time).
  for (const row of sheet.rows)
    for (const cell of row)
      if (typeof cell.value === 'string') {
        expect(cell.value, what).not.toMatch(/^-?\d+\.\d\d$/);
        expect(cell.value, what).not.toMatch(/^\d{4}-\d\d-\d\dT\d\d:/);
      }
}

const near = (cell: ExcelJS.Cell, expected: Date) =>
  expect(Math.abs((cell.value as Date).getTime() - expected.getTime())).toBeLessThan(1000);

describe('truck order exports', () => {
  it('writes money as numbers, times on the caller’s clock, and only the price columns the caller’s list shows', async () => {
    await f.truck.setBalance('customer', 100_000n);
    const order = await f.truck.order('customer', ['approve']);
    const body = { page: 1, limit: 10, keyword: order.orderNo };

    const customer = await exported(f.as('customer'), '/api/admin/order/export', body);
    expectTyped(customer, ['Freight', 'Total'], ['Booked at'], 'customer');
    // A customer's file has no agent, branch or cost column at all, not an empty one.
    for (const name of ['Agent price', 'Branch price', 'Cost price'])
      expect(customer.header, name).not.toContain(name);
    const shown = (await f.as('customer').ok('/api/admin/order/list', body)).list[0];
    expect(customer.column('Total')[0]?.value).toBe(Number(shown.total));
    expect(customer.column('Total')[0]?.value).toBe(200);
    near(customer.column('Booked at')[0] as ExcelJS.Cell, inZone(shown.createdAt));

    const agent = await exported(f.as('agent'), '/api/admin/order/export', body);
    expect(agent.header).toContain('Agent price');
    expect(agent.header).not.toContain('Branch price');
    expect(agent.header).not.toContain('Cost price');
    const branch = await exported(f.as('branch'), '/api/admin/order/export', body);
    expect(branch.header).toEqual(expect.arrayContaining(['Agent price', 'Branch price']));
    expect(branch.header).not.toContain('Cost price');
    const staff = await exported(f.as('admin'), '/api/admin/order/export', body);
    expect(staff.header).toEqual(expect.arrayContaining(['Agent price', 'Branch price', 'Cost price']));
    expectTyped(staff, ['Agent price', 'Branch price', 'Cost price', 'Total'], ['Booked at'], 'staff');
    const staffShown = (await f.as('admin').ok('/api/admin/order/list', body)).list[0];
    expect(staff.column('Branch price')[0]?.value).toBe(Number(staffShown.branchPrice));
    expect(staff.column('Cost price')[0]?.value).toBe(Number(staffShown.costPrice));
  });

  it('keeps the caller’s time zone for a queued export, and writes UTC without one', async () => {
    await f.truck.setBalance('customer', 100_000n);
    const order = await f.truck.order('customer', []);
    const body = { page: 1, limit: 10, keyword: order.orderNo };
    const shown = (await f.as('customer').ok('/api/admin/order/list', body)).list[0];
    const config = f.ctx.app.config as { EXPORT_AT_ONCE_ROWS: number };
    const atOnce = config.EXPORT_AT_ONCE_ROWS;
    config.EXPORT_AT_ONCE_ROWS = 0;
    try {
      const queued = await exported(f.as('customer'), '/api/admin/order/export', body, 'America/New_York');
      const at = new Date(shown.createdAt);
      const hour = Number(
        new Intl.DateTimeFormat('en-US', { timeZone: 'America/New_York', hour: 'numeric', hourCycle: 'h23' })
          .format(at)
          .slice(0, 2),
      );
      expect(((queued.column('Booked at')[0] as ExcelJS.Cell).value as Date).getUTCHours()).toBe(hour);
      expect(queued.column('Total')[0]?.value).toBe(Number(shown.total));
    } finally {
      config.EXPORT_AT_ONCE_ROWS = atOnce;
    }
    const utc = await exported(f.as('customer'), '/api/admin/order/export', body, null);
    near(utc.column('Booked at')[0] as ExcelJS.Cell, new Date(shown.createdAt));
    const nonsense = await exported(f.as('customer'), '/api/admin/order/export', body, 'Mars/Olympus');
    near(nonsense.column('Booked at')[0] as ExcelJS.Cell, new Date(shown.createdAt));
  });
});

describe('every other export', () => {
  it('writes the express waybills’ money as numbers and leaves the cost out of a customer’s file', async () => {
    const waybill = await express.paidWaybill([]);
    const body = { keyword: waybill.waybillNo };
    const customer = await exported(f.as('customer'), '/api/express/order/export', body);
    expectTyped(
      customer,
      ['Freight', 'Fuel surcharge', 'Surcharges', 'Total', 'Paid'],
      ['Created'],
      'waybills',
    );
    expect(customer.header).not.toContain('Operator cost');
    expect(customer.column('Total')[0]?.value).toBe(21.25);
    const staff = await exported(f.as('admin'), '/api/express/order/export', body);
    expectTyped(staff, ['Operator cost', 'Total'], ['Created'], 'staff waybills');
  });

  it('writes the ledger, organisation, recharge, invoice, bill, work-order, report, staff and log exports with typed cells', async () => {
    const tenantId = f.t.tenant.id;
    const organisationId = await f.orgOf('customer');
    const userId = await f.userOf('customer');
    await f.truck.setBalance('customer', 12_345n);
    await insertTruckRecords(f.db, {
      tenantId,
      organisationId,
      userId,
      tag: 'CELLS1',
      recharge: 10_050n,
      invoice: 5_001n,
      bounceBill: 2_507n,
    });
    await f.db.insert(workOrders).values({
      tenantId,
      workOrderNo: 'WCELLS1',
      line: 'truck',
      orderId: 1,
      orderNo: 'OCELLS1',
      organisationId,
      userId,
      category: 'bill_dispute',
      transactionItem: 'freight',
      amount: 1_999n,
      description: 'Too much',
    });
    await insertDailyReport(f.db, tenantId, organisationId, 40_001n);

    const customer = f.as('customer');
    const admin = f.as('admin');
    const ledger = await exported(customer, '/api/admin/account/detailsExport', { line: 'truck' });
    expectTyped(ledger, ['Amount', 'Balance after'], ['Time'], 'account details');
    const details = await customer.ok('/api/admin/account/details', { line: 'truck', page: 1, limit: 10 });
    expect(ledger.column('Balance after')[0]?.value).toBe(Number(details.list[0].balanceAfter));
    near(ledger.column('Time')[0] as ExcelJS.Cell, inZone(details.list[0].createdAt));
    expectTyped(
      await exported(admin, '/api/admin/account/logExport', { line: 'truck' }),
      ['Amount', 'Balance after'],
      ['Time'],
      'account log',
    );

    const organisations = await exported(admin, '/api/admin/customer/export', {
      kind: 'allCustomer',
      line: 'truck',
    });
    expectTyped(organisations, ['Balance', 'Credit limit', 'Available'], ['Created'], 'organisations');
    const mine = organisations.rows.find((r) => r[0]?.value === organisationId);
    expect(mine?.[organisations.header.indexOf('Balance')]?.value).toBe(123.45);

    const recharge = await exported(customer, '/api/admin/recharge/export', { serial: 'RCELLS1' });
    expectTyped(
      recharge,
      ['Submitted amount', 'Credited amount', 'Fee'],
      ['Submitted at', 'Reviewed at'],
      'recharges',
    );
    expect(recharge.column('Submitted amount')[0]?.value).toBe(100.5);

    const invoice = await exported(customer, '/api/admin/invoice/export', {});
    expectTyped(invoice, ['Amount'], ['Period from', 'Period to', 'Requested at'], 'invoices');
    expect(invoice.column('Amount')[0]?.value).toBe(50.01);
    // Midnight UTC is 08:00 in Shanghai: the same day there.
    expect(((invoice.column('Period from')[0] as ExcelJS.Cell).value as Date).toISOString()).toBe(
      '2026-01-01T08:00:00.000Z',
    );

    const bill = await exported(customer, '/api/admin/bounceBill/export', { line: 'truck' });
    expectTyped(bill, ['Amount'], ['Charged at', 'Created at'], 'bounce bills');
    expect(bill.column('Amount')[0]?.value).toBe(25.07);

    const workOrder = await exported(customer, '/api/admin/workOrder/export', { line: 'truck' });
    expectTyped(
      workOrder,
      ['Transaction amount', 'Add/deduct/refund amount'],
      ['Processing time', 'Created at'],
      'work orders',
    );
    expect(workOrder.column('Transaction amount')[0]?.value).toBe(19.99);

    const report = await exported(admin, '/api/admin/reports/export', {
      from: isoDay(-3),
      to: isoDay(0),
      dimension: 'customer',
    });
    expectTyped(report, ['Revenue', 'Cost', 'Margin'], [], 'report');

    expectTyped(
      await exported(admin, '/api/admin/staff/export', {}),
      [],
      ['Last sign-in', 'Created'],
      'staff',
    );
    expectTyped(await exported(admin, '/api/admin/operationLog/export', {}), [], ['Time'], 'operation log');
  });
});
