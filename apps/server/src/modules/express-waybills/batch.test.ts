import { expressShipmentBody } from '@freight/contracts/express-quotes';
import { and, count, eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { expressTenant, parcelShipment, streamedExpressRates } from '../../../test/express-fixtures.ts';
import { useTestApp } from '../../../test/fixture.ts';
import { postMultipart, type TestTenant, type Who } from '../../../test/helpers.ts';
import { expressQuotes, expressWaybills } from '../../db/schema.ts';
import { findOrganisation } from '../customers/service.ts';
import { expressPricer } from '../express-quotes/service.ts';
import { EXPRESS_BATCH_COLUMNS } from './batch.ts';

const f = useTestApp({
  tenants: 2,
  signIn: [['admin', 'customer', 'agent', 'direct'], ['customer']],
  language: 'en-US',
});
const orgs: Record<string, number> = {};
/** The customer's shipping address: the sender of `parcelShipment()` (Los Angeles 90001). */
let shipFrom: number;

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const headers = EXPRESS_BATCH_COLUMNS.map((c) => c.en);

/** A good row: Los Angeles to Dallas, one 10 × 8 × 6 in parcel of 4 lb, as `parcelShipment()`. */
function row(n: number, change: Record<string, unknown> = {}) {
  const base: Record<string, unknown> = {
    reference: `PO-${n}`,
    channelCode: '',
    recipientName: 'Pat Lee',
    recipientCompany: 'Acme Parts',
    recipientAddress1: '100 Main St',
    recipientCity: 'Dallas',
    recipientState: 'TX',
    recipientZip: '75201',
    recipientCountry: 'US',
    recipientPhone: '2135550100',
    recipientEmail: 'dock@example.com',
    residential: 'no',
    quantity: 1,
    length: 10,
    width: 8,
    height: 6,
    weight: 4,
    unitSystem: 'lb_in',
    signature: 'no',
    ...change,
  };
  return EXPRESS_BATCH_COLUMNS.map((c) => base[c.key] ?? '');
}

async function file(rows: unknown[][], header = headers): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const s = wb.addWorksheet('Parcels');
  s.addRow(header);
  for (const r of rows) s.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

interface Send {
  who?: Who;
  tenant?: TestTenant;
  addressId?: number | null;
  language?: 'zh-CN' | 'en-US';
  query?: string;
}

function send(action: 'importDataCheck' | 'batchOrdering', content: Buffer, options: Send = {}) {
  const tenant = options.tenant ?? f.t;
  const token = f.as(options.who ?? 'customer', tenant).token;
  const addressId = options.addressId === undefined ? shipFrom : options.addressId;
  return postMultipart(
    f.ctx,
    `/api/express/order/${action}${options.query ?? ''}`,
    [
      { name: 'token', value: token ?? '' },
      ...(addressId === null ? [] : [{ name: 'address_id', value: String(addressId) }]),
      { name: 'file', filename: 'parcels.xlsx', contentType: XLSX, content },
    ],
    { host: tenant.host, token, language: options.language ?? 'en-US' },
  );
}
const check = (content: Buffer, options?: Send) => send('importDataCheck', content, options);
const importFile = (content: Buffer, options?: Send) => send('batchOrdering', content, options);

async function waybillCount(organisationId = orgs.customer as number, tenantId = f.t.tenant.id) {
  const [row] = await f.db
    .select({ n: count() })
    .from(expressWaybills)
    .where(and(eq(expressWaybills.tenantId, tenantId), eq(expressWaybills.organisationId, organisationId)));
  return row?.n ?? 0;
}

/** Every level's price of each channel in a single quote of the same shipment for the customer. */
async function singleQuotePrices() {
  const caller = f.as('admin');
  const { id } = await caller.ok(
    '/api/express/quotation/getQuotas',
    parcelShipment({ organisationId: orgs.customer }),
  );
  const done = (await streamedExpressRates(caller, id)).at(-1);
  const prices = new Map<string, string[]>();
  for (const r of done.results)
    if (r.ok)
      prices.set(
        r.code,
        r.levels.map((l: { total: string }) => l.total),
      );
  return prices;
}

beforeAll(async () => {
  for (const who of ['branch', 'agent', 'customer', 'direct'] as const) orgs[who] = await f.orgOf(who);
  await expressTenant(f.db, f.t.tenant.id, orgs);
  const saved = await f.as('customer').ok('/api/express/address/save', {
    kind: 'sender',
    name: 'Pat Lee',
    company: 'Acme Parts',
    address1: '100 Main St',
    zipcode: '90001',
    city: 'Los Angeles',
    state: 'CA',
    phone: '2135550100',
    email: 'dock@example.com',
  });
  shipFrom = saved.id;
});

describe('express batch template', () => {
  it('has the headers in the caller’s language, the channels it may book, and an example row that import skips', async () => {
    const res = await f.ctx.app.inject({
      method: 'GET',
      url: '/api/express/order/batchTemplate',
      headers: { host: f.t.host, accesstoken: f.as('customer').token ?? '', 'accept-language': 'zh-CN' },
    });
    expect(res.headers['content-type']).toContain('spreadsheetml');
    expect(res.headers['content-disposition']).toContain(encodeURIComponent('快递批量下单模板.xlsx'));
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = wb.worksheets[0];
    expect(sheet?.getRow(1).getCell(1).value).toBe('参考号');
    const channelColumn = EXPRESS_BATCH_COLUMNS.findIndex((c) => c.key === 'channelCode') + 1;
    expect(sheet?.getCell(2, channelColumn).dataValidation?.formulae?.[0]).toContain('USG-STD');
    const residential = EXPRESS_BATCH_COLUMNS.findIndex((c) => c.key === 'residential') + 1;
    expect(sheet?.getCell(2, residential).dataValidation?.formulae).toEqual(['"是,否"']);
    expect(wb.worksheets.map((s) => s.name)).toEqual(['快递订单', '说明']);
    // The untouched template has no parcel in it.
    const refused = await importFile(res.rawPayload);
    expect(refused.json()).toMatchObject({ code: 400, msg: 'The file has no rows' });
  });
});

describe('express batch order', () => {
  it('checks every row and books nothing', async () => {
    const before = await waybillCount();
    const res = await check(
      await file([
        row(1),
        row(2, { channelCode: 'usg-eco' }),
        row(3, { recipientZip: 2134, recipientCity: 'Boston', recipientState: 'MA' }),
      ]),
    );
    expect(res.json()).toMatchObject({
      code: 200,
      msg: 'All 3 rows can be imported',
      data: { '2': 'success', '3': 'success', '4': 'success' },
    });
    expect(await waybillCount()).toBe(before);
  });

  it('names each bad row and its column in either language, and books none of the file', async () => {
    const before = await waybillCount();
    const rows = [
      row(1),
      row(2, { recipientZip: '7520' }),
      row(3, { weight: '' }),
      row(4, { channelCode: 'NOPE' }),
      row(5, { channelCode: 'USG-ECO', weight: 100 }),
      row(6, { residential: 'maybe' }),
    ];
    const en = await check(await file(rows));
    expect(en.json().msg).toBe('5 rows have errors; nothing was imported');
    expect(en.json().data).toEqual({
      '2': 'success',
      '3': 'Recipient ZIP: Please enter a five-digit ZIP code',
      '4': 'Weight per piece (lb or kg) is required',
      '5': 'No channel open to you has the code "NOPE"',
      '6': 'Channel code USG-ECO: A parcel is heavier than this channel takes',
      '7': 'Residential must be yes or no',
    });
    const zh = await check(await file(rows), { language: 'zh-CN' });
    expect(zh.json().data).toEqual({
      '2': 'success',
      '3': expect.stringMatching(/^收件邮编/),
      '4': expect.stringMatching(/^单件重量\(磅\/千克\)/),
      '5': '渠道代码“NOPE”不存在或您不能使用',
      '6': '渠道代码 USG-ECO:包裹超过该渠道的重量上限',
      '7': '住宅地址请填写“是”或“否”',
    });
    const refused = await importFile(await file(rows));
    expect(refused.json()).toMatchObject({ code: 400, data: en.json().data });
    expect(await waybillCount()).toBe(before);
  });

  it('asks a parcel going abroad for its customs, naming the column, and books it with them', async () => {
    const toronto = {
      recipientCity: 'Toronto',
      recipientState: 'ON',
      recipientZip: 'M5H 1A1',
      recipientCountry: 'CA',
      channelCode: 'INTL-EXP',
      description: 'Cotton T-shirt',
      declaredValue: '12.50',
      quantity: 2,
      weight: 1,
    };
    const rows = [
      row(1, toronto),
      row(2, { ...toronto, customsContents: 'merchandise', hsCode: '6109.10', originCountry: 'US' }),
      row(3, { ...toronto, customsContents: 'merchandise', hsCode: '61', originCountry: 'US' }),
      row(4, { ...toronto, customsContents: 'documents', description: 'Contracts' }),
      // A parcel at home needs none.
      row(5),
    ];
    const en = await check(await file(rows));
    expect(en.json().data).toEqual({
      '2': expect.stringMatching(/^Customs contents/),
      '3': 'success',
      '4': expect.stringMatching(/^HS code/),
      '5': 'success',
      '6': 'success',
    });
    const zh = await check(await file(rows), { language: 'zh-CN' });
    expect(zh.json().data['2']).toMatch(/^报关内容类型/);
    const before = await waybillCount();
    const booked = await importFile(await file([rows[1] as unknown[], rows[3] as unknown[]]));
    expect(booked.json().code).toBe(200);
    expect(await waybillCount()).toBe(before + 2);
    // The newest first: the two just booked.
    const { list } = await f.as('customer').ok('/api/express/order/list', { page: 1, limit: 10 });
    const customs = list.slice(0, 2).map((w: { shipment: { customs?: unknown } }) => w.shipment.customs);
    expect(customs).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          contentsType: 'merchandise',
          items: [
            expect.objectContaining({
              description: 'Cotton T-shirt',
              hsCode: '610910',
              quantity: 2,
              unitValue: '12.50',
            }),
          ],
        }),
        expect.objectContaining({ contentsType: 'documents', items: [] }),
      ]),
    );
  });

  it('books a good file whole as unpaid waybills priced as a single quote prices the same shipment', async () => {
    const customer = f.as('customer');
    const before = await waybillCount();
    const prices = await singleQuotePrices();
    const cheapest = [...prices.entries()].reduce((a, b) =>
      Number(b[1].at(-1)) < Number(a[1].at(-1)) ? b : a,
    );
    const res = await importFile(
      await file([row(11, { channelCode: 'USG-STD' }), row(12), row(13, { channelCode: 'USG-ECO' })]),
    );
    expect(res.json()).toMatchObject({
      code: 200,
      msg: '3 waybills imported, awaiting payment',
      data: { '2': 'success', '3': 'success', '4': 'success' },
    });
    expect(await waybillCount()).toBe(before + 3);
    const expected: Record<string, string> = { 'PO-11': 'USG-STD', 'PO-12': cheapest[0], 'PO-13': 'USG-ECO' };
    for (const [reference, code] of Object.entries(expected)) {
      const { list } = await customer.ok('/api/express/order/list', {
        page: 1,
        limit: 10,
        keyword: reference,
      });
      expect(list).toHaveLength(1);
      expect(list[0]).toMatchObject({ status: 'unpaid', reference, channel: { code } });
      expect(list[0].total).toBe(prices.get(code)?.at(-1));
      const staff = await f.as('admin').ok('/api/express/order/info', { id: list[0].id });
      expect(staff.waybill.levels.map((l: { total: string }) => l.total)).toEqual(prices.get(code));
      expect(staff.waybill.shipment.sender).toMatchObject({
        name: 'Pat Lee',
        company: 'Acme Parts',
        zipcode: '90001',
      });
      expect(staff.timeline.map((e: { action: string }) => e.action)).toEqual(['create']);
      expect(list[0].actions).toContain('pay');
    }
    expect(prices.get('USG-STD')?.at(-1)).toBe('21.25');
    // Each waybill comes with its quote, booked on the chosen channel.
    const [quotes] = await f.db
      .select({ n: count() })
      .from(expressQuotes)
      .where(and(eq(expressQuotes.tenantId, f.t.tenant.id), eq(expressQuotes.status, 'booked')));
    expect(quotes?.n).toBeGreaterThanOrEqual(3);
    // A file's quote keeps the one channel its waybill was booked on, not every channel's price.
    for (const reference of Object.keys(expected)) {
      const [waybill] = await f.db
        .select({ quoteId: expressWaybills.quoteId, channelId: expressWaybills.channelId })
        .from(expressWaybills)
        .where(and(eq(expressWaybills.tenantId, f.t.tenant.id), eq(expressWaybills.reference, reference)));
      const [quote] = await f.db
        .select()
        .from(expressQuotes)
        .where(and(eq(expressQuotes.tenantId, f.t.tenant.id), eq(expressQuotes.id, waybill?.quoteId ?? 0)));
      expect(quote?.selectedChannelId).toBe(waybill?.channelId);
      expect(quote?.results.map((r) => r.channelId)).toEqual([waybill?.channelId]);
      // Marked among what the quote holds: the quote list shows its price as the quote's cheapest.
      expect(quote?.results[0]).toMatchObject({ ok: true, code: expected[reference], cheapest: true });
    }
  });

  it('prices each shipment a file repeats once, by what the tables read of it: not by names or phones', async () => {
    const organisation = await findOrganisation(f.db, f.t.tenant.id, orgs.customer as number);
    if (!organisation) throw new Error('no customer organisation');
    const pricer = expressPricer(f.db, f.t.tenant.id, organisation, { tablesOnly: true });
    const shipment = expressShipmentBody.parse(parcelShipment({ organisationId: orgs.customer }));
    const first = await pricer.priceAll(shipment);
    expect(first.filter((r) => r.ok).length).toBeGreaterThan(1);
    // Another recipient at the same ZIP, another reference: the same prices, worked out once.
    const renamed = {
      ...shipment,
      reference: 'PO-other',
      recipient: { ...shipment.recipient, name: 'Sam Ray', phone: '2145550100', address1: '500 Elm St' },
    };
    expect(await pricer.priceAll(renamed)).toBe(first);
    // What a table reads priced anew: another zone, another weight.
    const farther = {
      ...shipment,
      recipient: { ...shipment.recipient, zipcode: '10001', state: 'NY', city: 'New York' },
    };
    const heavier = { ...shipment, parcels: shipment.parcels.map((p) => ({ ...p, weight: p.weight + 20 })) };
    for (const other of [farther, heavier]) {
      const results = await pricer.priceAll(other);
      expect(results).not.toBe(first);
      // Each priced as a pricer that never saw the first would price it.
      const fresh = expressPricer(f.db, f.t.tenant.id, organisation, { tablesOnly: true });
      expect(results).toEqual(await fresh.priceAll(other));
      const total = (rs: typeof first) => rs.map((r) => (r.ok ? r.levels.at(-1)?.total : r.reason));
      expect(total(results)).not.toEqual(total(first));
    }
  });

  it('takes each parcel’s packaging and the ship date, typed or as a date cell, and names either when wrong', async () => {
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    // A date typed into a spreadsheet becomes a date cell: that day at midnight UTC.
    const dateCell = new Date(`${day(3)}T00:00:00Z`);
    const res = await importFile(
      await file([
        row(21, { packaging: 'Cylinder', shipDate: dateCell }),
        row(22, { packaging: '', shipDate: day(2) }),
      ]),
    );
    expect(res.json()).toMatchObject({ code: 200 });
    for (const [reference, packaging, shipDate] of [
      ['PO-21', 'cylinder', day(3)],
      ['PO-22', 'box', day(2)],
    ]) {
      const { list } = await f
        .as('customer')
        .ok('/api/express/order/list', { page: 1, limit: 10, keyword: reference });
      expect(list[0].shipment.parcels[0].packaging, reference).toBe(packaging);
      expect(list[0].shipment.shipDate, reference).toBe(shipDate);
    }

    const wrong = await check(
      await file([row(23, { packaging: 'crate' }), row(24, { shipDate: '12/31/2026' })]),
    );
    const rows = wrong.json().data;
    expect(rows['2']).toContain('Packaging');
    expect(rows['3']).toContain('Ship date');
    const inChinese = await check(await file([row(25, { packaging: 'crate' })]), { language: 'zh-CN' });
    expect(inChinese.json().data['2']).toContain('包装');
  });

  it('requires a shipping address the caller may see, naming the field', async () => {
    const before = await waybillCount();
    const missing = await importFile(await file([row(1)]), { addressId: null });
    expect(missing.json()).toMatchObject({ code: 400, msg: 'Please choose a shipping address' });
    expect(missing.json().data.fields[0].field).toBe('address_id');
    const zh = await check(await file([row(1)]), { addressId: null, language: 'zh-CN' });
    expect(zh.json().msg).toBe('请选择发货地址');
    const notId = await importFile(await file([row(1)]), { addressId: -3 });
    expect(notId.json().data.fields[0].field).toBe('address_id');
    // Another organisation's address is not the direct customer's to ship from.
    const foreign = await importFile(await file([row(1)]), { who: 'direct' });
    expect(foreign.json()).toMatchObject({ code: 400, msg: 'The chosen shipping address does not exist' });
    expect(foreign.json().data.fields[0].field).toBe('address_id');
    expect(await waybillCount()).toBe(before);
    expect(await waybillCount(orgs.direct)).toBe(0);
  });

  it('keeps another tenant out: its customer can use no address of this one and sees none of its waybills', async () => {
    const other = f.tenant(1);
    const refused = await importFile(await file([row(1)]), { tenant: other });
    expect(refused.json()).toMatchObject({ code: 400 });
    expect(refused.json().data.fields[0].field).toBe('address_id');
    const { list } = await f.as('customer', other).ok('/api/express/order/list', { page: 1, limit: 50 });
    expect(list).toEqual([]);
  });

  it('lets staff book for a customer they name, and asks them to name one', async () => {
    const unnamed = await check(await file([row(1)]), { who: 'admin' });
    expect(unnamed.json().data.fields[0].field).toBe('organisationId');
    const named = await check(await file([row(1)]), {
      who: 'admin',
      query: `?organisationId=${orgs.customer}`,
    });
    expect(named.json()).toMatchObject({ code: 200, data: { '2': 'success' } });
  });

  it('refuses a file of more than 10,000 rows whole', { timeout: 120_000 }, async () => {
    const before = await waybillCount();
    const tooMany = await importFile(await file(Array.from({ length: 10_001 }, (_, i) => row(i))));
    expect(tooMany.json()).toMatchObject({ code: 400, msg: 'At most 10000 rows per file' });
    expect(await waybillCount()).toBe(before);
  });
});

describe('a full file', () => {
  it('checks and books 10,000 rows in one transaction', { timeout: 300_000 }, async () => {
    const before = await waybillCount();
    const content = await file(Array.from({ length: 10_000 }, (_, i) => row(i, { weight: 1 + (i % 20) })));
    const checked = await check(content);
    expect(checked.json().msg).toBe('All 10000 rows can be imported');
    const imported = await importFile(content);
    expect(imported.json().msg).toBe('10000 waybills imported, awaiting payment');
    expect(await waybillCount()).toBe(before + 10_000);
  });
});
