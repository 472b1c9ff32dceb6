import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/fixture.ts';
import { badFields, postMultipart, type Who } from '../../../test/helpers.ts';
import { findLane, parseLaneEnd } from './service.ts';

let ltlId: number;
let ftlId: number;
const f = useTestApp({ tenants: 2, signIn: [['admin', 'customer'], ['admin']], language: 'en-US' });
const post = (url: string, body: unknown, who: Who, tenant = f.t) => f.as(who, tenant).post(url, body);

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

async function workbookBytes(build: (wb: ExcelJS.Workbook) => void): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  build(wb);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

const importFile = (productId: number, content: Buffer, who: Who = 'admin') =>
  postMultipart(
    f.ctx,
    `/api/admin/freightRule/import?productId=${productId}`,
    [{ name: 'file', filename: 'tariff.xlsx', contentType: XLSX, content }],
    { host: f.t.host, token: f.as(who).token, language: 'en-US' },
  );

const exportFile = (productId: number, who: Who = 'admin', tenant = f.t) =>
  f.ctx.app.inject({
    method: 'GET',
    url: `/api/admin/freightRule/export?productId=${productId}`,
    headers: { host: tenant.host, accesstoken: f.as(who, tenant).token ?? '', 'accept-language': 'en-US' },
  });

const lanes = async (productId: number) =>
  (await post('/api/admin/freightRule/lanes', { productId, page: 1, limit: 100 }, 'admin')).json().data;

beforeAll(async () => {
  const save = async (body: Record<string, unknown>) =>
    (await post('/api/admin/product/save', body, 'admin')).json().data.id as number;
  ltlId = await save({
    code: 'LTL-T',
    name: '零担',
    nameEn: 'LTL',
    carrier: 'Carrier A',
    mode: 'LTL',
    transitDaysMin: 2,
    transitDaysMax: 4,
  });
  ftlId = await save({
    code: 'FTL-T',
    name: '整车',
    nameEn: 'FTL',
    carrier: 'Carrier B',
    mode: 'FTL',
    transitDaysMin: 3,
    transitDaysMax: 5,
  });
});

const ltlLane = (extra: Record<string, unknown> = {}) => ({
  productId: ltlId,
  origin: '900-935',
  destination: 'TX',
  ltl: {
    breaks: [0, 500, 1000],
    rates: { '50': ['40.00', '35.20', '30.00'], '100': ['70.00', '61.60', '52.00'] },
    minimumCharge: '95.00',
    discountPercent: '65',
    fuelPercent: '28.5',
  },
  ...extra,
});

describe('lane ends', () => {
  it('reads ZIP3 ranges, single ZIP3s, states and anywhere, and refuses the rest', () => {
    expect(parseLaneEnd('900-935')).toEqual({ kind: 'zip3', from: 900, to: 935 });
    expect(parseLaneEnd('070')).toEqual({ kind: 'zip3', from: 70, to: 70 });
    expect(parseLaneEnd('ca')).toEqual({ kind: 'state', state: 'CA' });
    expect(parseLaneEnd('*')).toEqual({ kind: 'any' });
    expect(parseLaneEnd('935-900')).toBeNull();
    expect(parseLaneEnd('9000')).toBeNull();
  });

  it('picks the narrowest lane that covers both ends', () => {
    const lane = (id: number, origin: string, destination: string) =>
      ({ id, origin, destination }) as Parameters<typeof findLane>[0][number];
    const all = [lane(1, '*', '*'), lane(2, 'CA', 'TX'), lane(3, '900-935', 'TX'), lane(4, '900', '750-759')];
    const la = { zipcode: '90001', state: 'CA' };
    const sf = { zipcode: '94105', state: 'CA' };
    const dallas = { zipcode: '75201', state: 'TX' };
    const houston = { zipcode: '77002', state: 'TX' };
    expect(findLane(all, la, dallas)?.id).toBe(4);
    expect(findLane(all, la, houston)?.id).toBe(3);
    expect(findLane(all, sf, houston)?.id).toBe(2);
    expect(findLane(all, { zipcode: '10001', state: 'NY' }, houston)?.id).toBe(1);
    expect(findLane(all.slice(1), { zipcode: '10001', state: 'NY' }, houston)).toBeNull();
  });
});

describe('lanes of a product', () => {
  it('saves, lists, edits and deletes a lane, in cents inside and decimals outside', async () => {
    const saved = await post('/api/admin/freightRule/lane/save', ltlLane(), 'admin');
    expect(saved.json().code).toBe(200);
    const id = saved.json().data.id;
    const list = await lanes(ltlId);
    expect(list.total).toBe(1);
    expect(list.list[0]).toMatchObject({
      origin: '900-935',
      destination: 'TX',
      ltl: { breaks: [0, 500, 1000], minimumCharge: '95.00', discountPercent: '65.00', fuelPercent: '28.50' },
      ftl: null,
    });
    expect(list.list[0].ltl.rates['100']).toEqual(['70.00', '61.60', '52.00']);
    const clash = await post('/api/admin/freightRule/lane/save', ltlLane(), 'admin');
    expect(badFields(clash)).toEqual(['destination']);
    const edited = await post(
      '/api/admin/freightRule/lane/save',
      ltlLane({ id, destination: '750-799' }),
      'admin',
    );
    expect(edited.json().code).toBe(200);
    expect((await lanes(ltlId)).list[0].destination).toBe('750-799');
    const removed = await post(
      '/api/admin/freightRule/lane/delete',
      { productId: ltlId, ids: [id] },
      'admin',
    );
    expect(removed.json().data).toEqual({ removed: 1 });
    expect((await lanes(ltlId)).total).toBe(0);
  });

  it('names each bad field of a lane and writes nothing', async () => {
    const bad = await post(
      '/api/admin/freightRule/lane/save',
      ltlLane({
        origin: 'California',
        ltl: { breaks: [100, 50], rates: { '50': ['40'] }, minimumCharge: 'x' },
      }),
      'admin',
    );
    expect(bad.json().code).toBe(400);
    expect(badFields(bad)).toEqual(
      expect.arrayContaining(['origin', 'ltl.breaks', 'ltl.minimumCharge', 'ltl.rates.50']),
    );
    const noRates = await post(
      '/api/admin/freightRule/lane/save',
      { productId: ftlId, origin: 'CA', destination: 'NJ', ftl: {} },
      'admin',
    );
    expect(badFields(noRates)).toEqual(['ftl.flatRate']);
    const wrongMode = await post('/api/admin/freightRule/lane/save', ltlLane({ productId: ftlId }), 'admin');
    expect(badFields(wrongMode)).toEqual(['ftl']);
    expect((await lanes(ltlId)).total).toBe(0);
  });

  it("keeps lanes to staff and to the product's own tenant", async () => {
    expect((await post('/api/admin/freightRule/lane/save', ltlLane(), 'customer')).json().code).toBe(401);
    expect(
      (
        await post(
          '/api/admin/freightRule/lanes',
          { productId: ltlId, page: 1, limit: 10 },
          'admin',
          f.tenant(1),
        )
      ).json().code,
    ).toBe(404);
    expect((await exportFile(ltlId, 'admin', f.tenant(1))).json().code).toBe(404);
  });
});

describe('tariff workbooks', () => {
  it('ships its example lanes where they cannot be imported; copied in, they round-trip through a product', async () => {
    const template = await f.ctx.app.inject({
      method: 'GET',
      url: '/api/admin/freightRule/template',
      headers: { host: f.t.host, accesstoken: f.as('admin').token ?? '', 'accept-language': 'zh-CN' },
    });
    expect(template.headers['content-type']).toContain('spreadsheetml');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(template.rawPayload as unknown as ArrayBuffer);
    expect(wb.worksheets.map((s) => s.name)).toEqual([
      '零担',
      '整车',
      '零担示例(不导入)',
      '整车示例(不导入)',
    ]);
    // The data sheets have headers only: the template as it comes imports nothing.
    expect(wb.getWorksheet('零担')?.rowCount).toBe(1);
    const untouched = await importFile(ltlId, template.rawPayload);
    expect(untouched.json().code).toBe(400);
    expect((await lanes(ltlId)).total).toBe(0);

    // An operator who copies the example onto the data sheets imports it as the product's own: its
    // FTL lane is refused for an LTL product.
    for (const name of ['零担', '整车']) wb.removeWorksheet(wb.getWorksheet(name)?.id ?? 0);
    for (const [example, data] of [
      ['零担示例(不导入)', '零担'],
      ['整车示例(不导入)', '整车'],
    ] as const) {
      const sheet = wb.getWorksheet(example);
      if (sheet) sheet.name = data;
    }
    const copied = Buffer.from(await wb.xlsx.writeBuffer());
    const refused = await importFile(ltlId, copied);
    expect(refused.json().code).toBe(400);
    expect(refused.json().data.errors[0].message).toContain('CA → NJ');
    expect((await lanes(ltlId)).total).toBe(0);

    wb.removeWorksheet(wb.getWorksheet('整车')?.id ?? 0);
    const ltlOnly = Buffer.from(await wb.xlsx.writeBuffer());
    const imported = await importFile(ltlId, ltlOnly);
    expect(imported.json()).toMatchObject({ code: 200, msg: '1 lanes imported', data: { imported: 1 } });
    const [lane] = (await lanes(ltlId)).list;
    expect(lane).toMatchObject({
      origin: '900-935',
      destination: 'TX',
      ltl: { breaks: [0, 500, 1000, 2000] },
    });
    expect(lane.ltl.rates['70']).toEqual(['52.00', '45.76', '39.52', '33.28']);

    const exported = await exportFile(ltlId);
    const again = new ExcelJS.Workbook();
    await again.xlsx.load(exported.rawPayload as unknown as ArrayBuffer);
    const sheet = again.getWorksheet('LTL');
    expect(sheet?.getRow(1).values).toEqual([
      undefined,
      'Origin',
      'Destination',
      'Minimum charge',
      'Discount %',
      'Fuel %',
      'Class',
      '0',
      '500',
      '1000',
      '2000',
    ]);
    expect(sheet?.rowCount).toBe(4);
    // Importing the export changes nothing.
    expect((await importFile(ltlId, exported.rawPayload)).json().code).toBe(200);
    expect((await lanes(ltlId)).list[0].ltl).toEqual(lane.ltl);
  });

  it('refuses a file with bad rows whole, naming each row, and keeps the old lanes', async () => {
    const before = await lanes(ltlId);
    const bytes = await workbookBytes((wb) => {
      const s = wb.addWorksheet('LTL');
      s.addRow(['Origin', 'Destination', 'Minimum charge', 'Discount %', 'Fuel %', 'Class', '0', '1000']);
      s.addRow(['100-199', 'NY', 80, 60, 20, '50', 30, 25]);
      s.addRow(['100-199', 'NY', 80, 60, 20, '45', 30, 25]);
      s.addRow(['Texas', 'NY', 80, 60, 20, '70', 30, 25]);
      s.addRow(['200', 'NY', { formula: '40+40' }, 60, 20, '50', 30, 25]);
      s.addRow(['300', 'NY', 80, 60, 20, '50', 'abc', 25]);
    });
    const res = await importFile(ltlId, bytes);
    expect(res.json().code).toBe(400);
    expect(res.json().msg).toBe('Nothing was imported; fix the rows listed and try again');
    const errors = res.json().data.errors as { row: number; message: string }[];
    expect(errors.map((e) => e.row)).toEqual([3, 4, 5, 6]);
    expect(errors[0]?.message).toBe('The value of "Class" is not valid');
    expect(errors[1]?.message).toBe('The value of "Origin" is not valid');
    expect(errors[2]?.message).toBe('Cell C5 holds a formula; paste it as a value');
    expect(errors[3]?.message).toBe('The value of "0" is not valid');
    expect(await lanes(ltlId)).toEqual(before);
  });

  it('refuses files that are not tariff workbooks', async () => {
    const notXlsx = await importFile(ltlId, Buffer.from('origin,destination\n900,TX\n'));
    expect(badFields(notXlsx)).toEqual(['file']);
    expect(notXlsx.json().msg).toBe('Please upload an xlsx file');
    const noSheet = await importFile(
      ltlId,
      await workbookBytes((wb) => wb.addWorksheet('Prices').addRow(['a'])),
    );
    expect(noSheet.json().data.errors[0].message).toBe(
      'The file has no LTL or FTL sheet; please use the template',
    );
    const noColumns = await importFile(
      ltlId,
      await workbookBytes((wb) => wb.addWorksheet('LTL').addRow(['Origin', 'Destination'])),
    );
    expect(noColumns.json().data.errors[0].message).toBe(
      'Missing columns: Minimum charge, Discount %, Fuel %, Class',
    );
    const empty = await importFile(
      ltlId,
      await workbookBytes((wb) =>
        wb
          .addWorksheet('LTL')
          .addRow(['Origin', 'Destination', 'Minimum charge', 'Discount %', 'Fuel %', 'Class', '0']),
      ),
    );
    expect(empty.json().data.errors[0].message).toBe('The file has no rows');
    expect((await importFile(ltlId, Buffer.from('x'), 'customer')).json().code).toBe(401);
  });

  it('imports FTL lanes by flat rate and by mileage', async () => {
    const bytes = await workbookBytes((wb) => {
      const s = wb.addWorksheet('FTL');
      s.addRow([
        'Origin',
        'Destination',
        'Flat rate',
        'Rate per mile',
        'Miles',
        'Minimum charge',
        'Fuel %',
        'Max weight (lb)',
      ]);
      s.addRow(['CA', 'NJ', null, 2.85, 2800, 1500, 20, 45000]);
      s.addRow(['900-935', '070-089', 6200, null, null, 0, 18, null]);
    });
    expect((await importFile(ftlId, bytes)).json().code).toBe(200);
    const list = (await lanes(ftlId)).list;
    expect(list.map((l: any) => l.ftl)).toEqual([
      { flatRate: '6200.00', minimumCharge: '0.00', fuelPercent: '18.00', maxWeight: 45000 },
      { ratePerMile: '2.85', miles: 2800, minimumCharge: '1500.00', fuelPercent: '20.00', maxWeight: 45000 },
    ]);
  });
});
