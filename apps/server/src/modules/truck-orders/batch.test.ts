import { and, count, eq, like } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/fixture.ts';
import { call, postMultipart, type Who } from '../../../test/helpers.ts';
import { truckBatchRow } from '../../../test/truck-fixtures.ts';
import { truckOrders } from '../../db/schema.ts';
import { ensureAccount, ledgerMismatches, moveMoney } from '../accounts/service.ts';
import { findUserByEmail } from '../auth/service.ts';
import { findOrganisation } from '../customers/service.ts';
import { seedDemoTariffs } from '../truck-products/service.ts';
import { truckPricer } from '../truck-quotes/service.ts';
import { BATCH_COLUMNS, chooseResult } from './batch.ts';
import { listOrders } from './list.ts';

const f = useTestApp({ tenants: 2, signIn: [['customer', 'admin'], ['customer']] });
let customerOrg: number;
/** A demo identity's session; `otherCustomer` is the other tenant's customer. */
const tokenOf = (who: string) =>
  (who === 'otherCustomer' ? f.as('customer', f.tenant(1)) : f.as(who as Who)).token ?? '';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const headers = BATCH_COLUMNS.map((c) => c.en);

/** A good row: LA to Dallas, two pallets; `change` overrides columns by key. */
function row(n: number, change: Record<string, unknown> = {}) {
  return truckBatchRow({
    customerOrderNo: `PO-${n}`,
    totalWeight: 800 + (n % 7) * 100,
    accessorials: n % 2 ? 'liftgate_delivery' : '',
    ...change,
  });
}

async function file(rows: unknown[][], header = headers): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const s = wb.addWorksheet('Orders');
  s.addRow(header);
  for (const r of rows) s.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

const send = (
  url: string,
  content: Buffer,
  who = 'customer',
  extra: { name: string; value: string }[] = [],
) =>
  postMultipart(
    f.ctx,
    url,
    [
      { name: 'token', value: tokenOf(who) },
      ...extra,
      { name: 'file', filename: 'orders.xlsx', contentType: XLSX, content },
    ],
    { host: f.t.host, token: tokenOf(who), language: 'en-US' },
  );
const check = (content: Buffer, who?: string) => send('/api/admin/order/importDataCheck', content, who);
const importFile = (content: Buffer, who?: string, extra?: { name: string; value: string }[]) =>
  send('/api/admin/order/batchOrdering', content, who, extra);

async function orderCount() {
  const [row] = await f.db
    .select({ n: count() })
    .from(truckOrders)
    .where(and(eq(truckOrders.tenantId, f.t.tenant.id), eq(truckOrders.organisationId, customerOrg)));
  return row?.n ?? 0;
}

beforeAll(async () => {
  await seedDemoTariffs(f.db, f.t.tenant.id);
  customerOrg = await f.orgOf('customer');
});
// Runs before the fixture closes the app (after-hooks run in reverse order).
afterAll(async () => {
  expect(await ledgerMismatches(f.db, f.t.tenant.id)).toEqual([]);
});

describe('batch template', () => {
  it('has the headers in the caller’s language, dropdowns, an example row that import skips, and notes', async () => {
    const res = await f.ctx.app.inject({
      method: 'GET',
      url: '/api/admin/order/batchTemplate',
      headers: { host: f.t.host, accesstoken: tokenOf('customer'), 'accept-language': 'zh-CN' },
    });
    expect(res.headers['content-type']).toContain('spreadsheetml');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = wb.worksheets[0];
    expect(sheet?.getRow(1).getCell(1).value).toBe('客户单号');
    const modeColumn = BATCH_COLUMNS.findIndex((c) => c.key === 'mode') + 1;
    expect(sheet?.getCell(2, modeColumn).dataValidation?.formulae).toEqual(['"LTL,FTL"']);
    expect(sheet?.getCell(2, 2).dataValidation?.formulae?.[0]).toContain('LTL-STD');
    expect(wb.worksheets.map((s) => s.name)).toEqual(['订单', '说明']);
    // The untouched template has no order in it.
    const refused = await importFile(res.rawPayload);
    expect(refused.json()).toMatchObject({ code: 400, msg: 'The file has no rows' });
  });
});

describe('batch import', () => {
  it('reports each bad row as its spreadsheet row, imports nothing, then imports the fixed file whole', async () => {
    const before = await orderCount();
    const rows = [
      row(1),
      row(2, { pickupZip: '9000' }),
      row(3),
      row(4, { mode: 'SHIP', goodsName: '' }),
      row(5),
    ];
    const checked = await check(await file(rows));
    expect(checked.json().code).toBe(200);
    expect(checked.json().msg).toBe('2 rows have errors; nothing was imported');
    expect(checked.json().data).toEqual({
      '2': 'success',
      '3': 'Pickup ZIP: Please enter a five-digit ZIP code',
      '4': 'success',
      '5': 'Mode is not valid',
      '6': 'success',
    });
    const refused = await importFile(await file(rows));
    expect(refused.json().code).toBe(400);
    expect(refused.json().data['3']).toBe('Pickup ZIP: Please enter a five-digit ZIP code');
    expect(await orderCount()).toBe(before);

    const fixed = [row(1), row(2), row(3), row(4), row(5, { productCode: 'LTL-STD', insuredValue: '2500' })];
    const imported = await importFile(await file(fixed));
    expect(imported.json()).toMatchObject({ code: 200, msg: '5 orders imported, awaiting payment' });
    expect(Object.values(imported.json().data)).toEqual([
      'success',
      'success',
      'success',
      'success',
      'success',
    ]);
    expect(await orderCount()).toBe(before + 5);
    const list = await call(
      f.ctx,
      'POST',
      '/api/admin/order/list',
      { page: 1, limit: 10, keyword: 'PO-5' },
      { host: f.t.host, token: tokenOf('customer') },
    );
    expect(list.json().data.list[0]).toMatchObject({
      customerOrderNo: 'PO-5',
      status: 'unpaid',
      carrier: 'Pacific Linehaul',
    });
    expect(list.json().data.list[0].premium).not.toBe('0.00');
    // Imported orders wait for payment; paying them together charges each once.
    const account = await ensureAccount(f.db, f.t.tenant.id, customerOrg, 'truck');
    await moveMoney(f.db, {
      tenantId: f.t.tenant.id,
      accountId: account.id,
      type: 'manual_adjustment',
      amount: 1_000_000n,
      note: 'test funds',
    });
    const unpaid = await call(
      f.ctx,
      'POST',
      '/api/admin/order/list',
      { page: 1, limit: 10, status: 'unpaid' },
      { host: f.t.host, token: tokenOf('customer') },
    );
    const ids = unpaid
      .json()
      .data.list.slice(0, 2)
      .map((o: any) => o.id);
    const paid = await call(
      f.ctx,
      'POST',
      '/api/admin/order/bulkPay',
      { ids: [...ids, ids[0]] },
      { host: f.t.host, token: tokenOf('customer'), language: 'en-US' },
    );
    expect(Object.values(paid.json().data.results).filter((r) => r === 'success')).toHaveLength(2);
    const again = await call(
      f.ctx,
      'POST',
      '/api/admin/order/bulkPay',
      { ids },
      { host: f.t.host, token: tokenOf('customer'), language: 'en-US' },
    );
    expect(Object.values(again.json().data.results)).toEqual([
      'The order is already paid',
      'The order is already paid',
    ]);
  });

  it('names a product that cannot carry a row, and an unknown service', async () => {
    const res = await check(
      await file([
        row(1, { productCode: 'LTL-ECO' }),
        row(2, { productCode: 'NOPE' }),
        row(3, { accessorials: 'teleport' }),
      ]),
    );
    expect(res.json().data).toEqual({
      '2': 'No rates for this lane',
      '3': 'No enabled product has this code',
      '4': 'Extra services: Unknown extra service "teleport"',
    });
  });

  it('takes the chosen shipping address as every row’s pickup', async () => {
    const address = await call(
      f.ctx,
      'POST',
      '/api/admin/address/save',
      {
        name: 'Oakland Yard',
        address1: '1 Port Rd',
        zipcode: '94607',
        city: 'Oakland',
        state: 'CA',
        contact: 'Kim Wu',
        phone: '5105550100',
      },
      { host: f.t.host, token: tokenOf('customer') },
    );
    expect(address.json().code).toBe(200);
    const id = address.json().data.id;
    const res = await importFile(await file([row(1, { pickupZip: '', pickupName: '' })]), 'customer', [
      { name: 'address_id', value: String(id) },
    ]);
    expect(res.json().code).toBe(200);
    const list = await call(
      f.ctx,
      'POST',
      '/api/admin/order/list',
      { page: 1, limit: 10 },
      { host: f.t.host, token: tokenOf('customer') },
    );
    expect(list.json().data.list[0].origin).toBe('Oakland, CA 94607');
    const foreign = await importFile(await file([row(1)]), 'otherCustomer', [
      { name: 'address_id', value: String(id) },
    ]);
    expect(foreign.json().code).toBe(300);
  });

  it('refuses malformed files whole with a clear message', async () => {
    const before = await orderCount();
    const notXlsx = await importFile(Buffer.from('customer order no,mode\nPO-1,LTL\n'));
    expect(notXlsx.json()).toMatchObject({ code: 400, msg: 'Please upload an xlsx file' });
    const wrongColumns = await importFile(await file([row(1)], ['Order', 'Weight']));
    expect(wrongColumns.json().code).toBe(400);
    expect(wrongColumns.json().msg).toMatch(/^File: Missing columns: Mode, Pickup name/);
    const empty = await importFile(await file([]));
    expect(empty.json().msg).toBe('The file has no rows');
    const weightColumn = BATCH_COLUMNS.findIndex((c) => c.key === 'totalWeight');
    const formula = row(1);
    formula[weightColumn] = { formula: '400*2', result: 800 };
    const formulaRes = await importFile(await file([formula]));
    expect(formulaRes.json().data['2']).toMatch(/holds a formula; paste it as a value$/);
    const dated = row(1);
    dated[weightColumn] = new Date('2026-01-01');
    const dateRes = await importFile(await file([dated]));
    expect(dateRes.json().data['2']).toMatch(/cannot be read; enter text or a number$/);
    const tooMany = await importFile(await file(Array.from({ length: 10_001 }, (_, i) => row(i))));
    expect(tooMany.json()).toMatchObject({ code: 400, msg: 'At most 10000 rows per file' });
    expect(await orderCount()).toBe(before);
  });

  it('lets staff import for a customer they name, and nobody without a session', async () => {
    const staff = await send(
      `/api/admin/order/batchOrdering?organisationId=${customerOrg}`,
      await file([row(9)]),
      'admin',
    );
    expect(staff.json().code).toBe(200);
    const unnamed = await importFile(await file([row(9)]), 'admin');
    expect(unnamed.json().data.fields[0].field).toBe('organisationId');
    const anonymous = await postMultipart(
      f.ctx,
      '/api/admin/order/batchOrdering',
      [{ name: 'file', filename: 'orders.xlsx', contentType: XLSX, content: await file([row(1)]) }],
      { host: f.t.host },
    );
    expect(anonymous.json().code).toBe(300);
  });

  it('keeps the status counts exact across a refused file and an imported one', async () => {
    const customer = await findUserByEmail(f.db, f.t.tenant.id, f.t.email('customer'));
    if (!customer) throw new Error('no demo customer');
    // The kept counts (written by the database's triggers) against the orders counted one by one.
    const counts = async () => {
      const kept = await listOrders(f.db, customer, { page: 1, limit: 10 });
      const counted = await listOrders(f.db, customer, { page: 1, limit: 10, from: '2000-01-01' });
      expect(kept.counts).toEqual(counted.counts);
      expect(kept.total).toBe(counted.total);
      return kept.counts ?? {};
    };
    const before = await counts();
    const refused = await importFile(await file([row(1), row(2, { pickupZip: '9000' })]));
    expect(refused.json().code).toBe(400);
    expect(await counts()).toEqual(before);
    const imported = await importFile(await file(Array.from({ length: 2_500 }, (_, i) => row(i))));
    expect(imported.json().code).toBe(200);
    expect(await counts()).toEqual({ ...before, unpaid: (before.unpaid ?? 0) + 2_500 });
  });

  it('rolls back a file whose rows fail pricing after earlier chunks were written, naming every one', async () => {
    const before = await orderCount();
    // Rows 1,500 and 2,400 are in later chunks than the first ones, which were already written.
    const rows = Array.from({ length: 2_500 }, (_, i) =>
      i === 1_499 || i === 2_399 ? row(i, { productCode: 'NOPE' }) : row(i),
    );
    const res = await importFile(await file(rows));
    expect(res.json()).toMatchObject({ code: 400 });
    const failed = Object.entries(res.json().data as Record<string, string>).filter(
      ([, v]) => v !== 'success',
    );
    expect(failed).toEqual([
      ['1501', 'No enabled product has this code'],
      ['2401', 'No enabled product has this code'],
    ]);
    expect(await orderCount()).toBe(before);

    // Cells a row cannot be read from, found as its chunk is checked, roll the file back the same way.
    const unreadable = Array.from({ length: 2_500 }, (_, i) =>
      i === 1_799
        ? row(i, { totalWeight: 'heavy' })
        : i === 2_199
          ? row(i, { accessorials: 'teleport' })
          : row(i),
    );
    const refused = await importFile(await file(unreadable));
    expect(refused.json()).toMatchObject({ code: 400 });
    const messages = Object.entries(refused.json().data as Record<string, string>).filter(
      ([, v]) => v !== 'success',
    );
    expect(messages.map(([rowNumber]) => rowNumber)).toEqual(['1801', '2201']);
    expect(messages[0]?.[1]).toBe('Total weight (lb) is not valid');
    expect(messages[1]?.[1]).toContain('teleport');
    expect(await orderCount()).toBe(before);
  });

  it('prices each row as a quote of its shipment, to the cent, and repeated rows alike', async () => {
    const rows = [
      row(1, { customerOrderNo: 'PRICE-1' }),
      row(2, { customerOrderNo: 'PRICE-2' }),
      row(1, { customerOrderNo: 'PRICE-1-again' }),
      row(3, { customerOrderNo: 'PRICE-3', productCode: 'LTL-STD', insuredValue: '2500' }),
      row(4, { customerOrderNo: 'PRICE-4', deliveryZip: '77002', deliveryCity: 'Houston' }),
    ];
    const imported = await importFile(await file(rows));
    expect(imported.json().code).toBe(200);
    const orders = await f.db
      .select()
      .from(truckOrders)
      .where(and(eq(truckOrders.tenantId, f.t.tenant.id), like(truckOrders.customerOrderNo, 'PRICE-%')));
    expect(orders).toHaveLength(5);
    const organisation = await findOrganisation(f.db, f.t.tenant.id, customerOrg);
    if (!organisation) throw new Error('no customer organisation');
    const pricer = truckPricer(f.db, f.t.tenant.id, organisation);
    for (const order of orders) {
      const code = order.customerOrderNo === 'PRICE-3' ? 'LTL-STD' : '';
      const quoted = chooseResult(await pricer.priceAll(order.shipment), code);
      if ('reason' in quoted) throw new Error(`${order.customerOrderNo} is not priced: ${quoted.reason}`);
      expect(order.total, order.customerOrderNo).toBe(BigInt(quoted.levels.at(-1)?.total ?? -1));
      expect(order.productId, order.customerOrderNo).toBe(quoted.productId);
    }
    const total = (no: string) => orders.find((o) => o.customerOrderNo === no)?.total;
    expect(total('PRICE-1-again')).toBe(total('PRICE-1'));
    // Different goods cost differently, so a price handed to the wrong row would show.
    expect(new Set(['PRICE-1', 'PRICE-2', 'PRICE-3', 'PRICE-4'].map(total)).size).toBe(4);
  });

  it('checks and imports a file of 10,000 rows in one transaction', { timeout: 240_000 }, async () => {
    const before = await orderCount();
    const content = await file(Array.from({ length: 10_000 }, (_, i) => row(i)));
    const checked = await check(content);
    expect(checked.json().msg).toBe('All 10000 rows can be imported');
    const imported = await importFile(content);
    expect(imported.json().msg).toBe('10000 orders imported, awaiting payment');
    expect(await orderCount()).toBe(before + 10_000);
  });
});
