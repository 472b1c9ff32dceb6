import type { ExpressShipment } from '@freight/contracts/express-rating';
import { beforeAll, describe, expect, it } from 'vitest';
import { expressChannelBody as channel } from '../../../test/express-fixtures.ts';
import { useTestApp } from '../../../test/fixture.ts';
import { badFields, fieldMessage, postMultipart, type Who } from '../../../test/helpers.ts';
import { type SheetRow as Row, sheetRows, trimmed, workbookBytes } from '../../../test/workbooks.ts';
import { tenantTablesProvider } from './carriers.ts';
import { findChannel } from './service.ts';

const f = useTestApp({ tenants: 2, signIn: [['admin', 'customer'], ['admin']], language: 'en-US' });
const post = (url: string, body: unknown, who: Who = 'admin', tenant = f.t) =>
  f.as(who, tenant).post(url, body);
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

const upload = (url: string, content: Buffer, who: Who = 'admin', language: 'en-US' | 'zh-CN' = 'en-US') =>
  postMultipart(f.ctx, url, [{ name: 'file', filename: 'table.xlsx', contentType: XLSX, content }], {
    host: f.t.host,
    token: f.as(who).token,
    language,
  });

const download = async (url: string, language: 'en-US' | 'zh-CN' = 'en-US', tenant = f.t) =>
  f.ctx.app.inject({
    method: 'GET',
    url,
    headers: {
      host: tenant.host,
      accesstoken: f.as('admin', tenant).token ?? '',
      'accept-language': language,
    },
  });

const product = (extra: Record<string, unknown> = {}) => ({
  code: 'US-GROUND',
  name: '美国陆运',
  nameEn: 'US Ground',
  description: '本土小包',
  descriptionEn: 'Parcels within the US',
  ...extra,
});

let productId: number;
let channelId: number;

beforeAll(async () => {
  productId = (await f.as('admin').ok('/api/admin/expressProduct/save', product())).id;
  channelId = (await f.as('admin').ok('/api/admin/expressChannel/save', channel(productId))).id;
});

const channelInfo = async (id = channelId) => f.as('admin').ok('/api/admin/expressChannel/info', { id });
const zoneRows = async (extra: Record<string, unknown> = {}) =>
  f.as('admin').ok('/api/admin/expressZone/list', { channelId, page: 1, limit: 100, ...extra });
const priceInfo = async () => f.as('admin').ok('/api/admin/channelPrice/info', { channelId });

describe('express products', () => {
  it('lists a product with its channel counts, exactly as the contract says', async () => {
    const list = await f
      .as('admin')
      .ok('/api/admin/expressProduct/list', { page: 1, limit: 10, keyword: 'ground' });
    expect(list).toEqual({
      list: [
        {
          id: productId,
          code: 'US-GROUND',
          name: '美国陆运',
          nameEn: 'US Ground',
          description: '本土小包',
          descriptionEn: 'Parcels within the US',
          enabled: true,
          organisationIds: [],
          channels: 1,
          enabledChannels: 1,
          createdAt: expect.any(String),
          updatedAt: expect.any(String),
        },
      ],
      total: 1,
      page: 1,
      limit: 10,
    });
  });

  it('names a taken code and bad fields in both languages, and writes nothing', async () => {
    const taken = await post('/api/admin/expressProduct/save', product());
    expect(taken.json().code).toBe(400);
    expect(badFields(taken)).toEqual(['code']);
    expect(fieldMessage(taken, 'code')).toBe('This express product code is already used');
    const takenZh = await f.as('admin').post('/api/admin/expressProduct/save', product(), 'zh-CN');
    expect(fieldMessage(takenZh, 'code')).toContain('快递产品代码已存在');
    // A product's code, not the sign-in code that shares the field's name.
    expect(fieldMessage(takenZh, 'code')).not.toContain('验证码');

    const bad = product({ code: 'no spaces!', name: ' ', organisationIds: [0] });
    const en = await post('/api/admin/expressProduct/save', bad);
    expect(badFields(en).sort()).toEqual(['code', 'name', 'organisationIds.0']);
    expect(fieldMessage(en, 'name')).toBe('Name is required');
    const zh = await f.as('admin').post('/api/admin/expressProduct/save', bad, 'zh-CN');
    expect(fieldMessage(zh, 'name')).toBe('名称不能为空');
    expect(fieldMessage(zh, 'code')).toBe('代码只能填写英文和数字');

    // An organisation of another tenant is no organisation of this one.
    const foreignOrg = await f.orgOf('customer', f.tenant(1));
    const foreign = await post(
      '/api/admin/expressProduct/save',
      product({ code: 'X1', organisationIds: [foreignOrg] }),
    );
    expect(badFields(foreign)).toEqual(['organisationIds']);
    expect(fieldMessage(foreign, 'organisationIds')).toBe('One of the organisations does not exist');
    const list = await f.as('admin').ok('/api/admin/expressProduct/list', { page: 1, limit: 10 });
    expect(list.list.map((p: { code: string }) => p.code)).toEqual(['US-GROUND']);
  });

  it('keeps a product open to the organisations listed, switches it off, and deletes it only without channels', async () => {
    const agent = await f.orgOf('agent');
    const { id } = await f
      .as('admin')
      .ok('/api/admin/expressProduct/save', product({ code: 'CA-EXPRESS', organisationIds: [agent, agent] }));
    const { id: otherChannel } = await f
      .as('admin')
      .ok('/api/admin/expressChannel/save', channel(id, { code: 'CA-1', scope: 'international' }));
    await f.as('admin').ok('/api/admin/expressProduct/enable', { id, enabled: false });
    const off = await f
      .as('admin')
      .ok('/api/admin/expressProduct/list', { page: 1, limit: 10, enabled: false });
    expect(off.list).toEqual([
      expect.objectContaining({ id, enabled: false, organisationIds: [agent], channels: 1 }),
    ]);

    const refused = await f.as('admin').fail('/api/admin/expressProduct/delete', { id }, 409);
    expect(refused.msg).toBe('The product still has 1 channels; delete them first');
    const refusedZh = await f.as('admin').in('zh-CN').fail('/api/admin/expressProduct/delete', { id }, 409);
    expect(refusedZh.msg).toBe('该产品下还有 1 个渠道,请先删除这些渠道');

    await f.as('admin').ok('/api/admin/expressChannel/delete', { id: otherChannel });
    expect(await f.as('admin').ok('/api/admin/expressProduct/delete', { id })).toEqual({ id });
    await f.as('admin').fail('/api/admin/expressProduct/delete', { id }, 404);
  });

  it('refuses customers on every call, and hides and guards products from another tenant', async () => {
    for (const [url, body] of [
      ['/api/admin/expressProduct/list', { page: 1, limit: 10 }],
      ['/api/admin/expressProduct/save', product({ code: 'C1' })],
      ['/api/admin/expressChannel/list', { page: 1, limit: 10 }],
      ['/api/admin/expressChannel/save', channel(productId, { code: 'C1' })],
      ['/api/admin/expressZone/list', { channelId, page: 1, limit: 10 }],
      ['/api/admin/channelPrice/info', { channelId }],
    ] as const)
      expect((await post(url, body, 'customer')).json().code, url).toBe(401);
    expect(
      (
        await upload(`/api/admin/expressZone/import?channelId=${channelId}`, Buffer.from('x'), 'customer')
      ).json().code,
    ).toBe(401);

    const other = f.as('admin', f.tenant(1));
    expect((await other.ok('/api/admin/expressProduct/list', { page: 1, limit: 10 })).list).toEqual([]);
    await other.fail('/api/admin/expressProduct/enable', { id: productId, enabled: false }, 404);
    await other.fail('/api/admin/expressProduct/delete', { id: productId }, 404);
    await other.fail('/api/admin/expressProduct/save', { ...product({ code: 'T2' }), id: productId }, 404);
    expect(
      (await f.as('admin').ok('/api/admin/expressProduct/list', { page: 1, limit: 10 })).list[0],
    ).toMatchObject({
      id: productId,
      code: 'US-GROUND',
      enabled: true,
    });
  });
});

describe('express channels', () => {
  it('answers a channel with its terms in decimals and its product names', async () => {
    expect(await channelInfo()).toEqual({
      id: channelId,
      productId,
      productName: '美国陆运',
      productNameEn: 'US Ground',
      code: 'USG-STD',
      name: '陆运标准',
      nameEn: 'Ground Standard',
      carrier: 'Summit Parcel',
      service: 'Ground',
      provider: 'builtin',
      carrierAccountId: null,
      carrierService: '',
      carrierLabelFormat: 'pdf',
      scope: 'domestic',
      unitSystem: 'lb_in',
      currency: 'USD',
      dimDivisor: 139,
      transitDaysMin: 2,
      transitDaysMax: 5,
      maxWeight: 150,
      maxLength: 108,
      maxLengthGirth: 165,
      enabled: true,
      organisationIds: [],
      surcharges: {
        fuelPercent: '10.00',
        residential: '4.50',
        signature: '0.00',
        additionalHandling: { fee: '18.00', longest: 48, secondLongest: 30, weight: 50 },
        largePackage: null,
        declaredValue: { free: '100.00', per100: '1.00', minimum: '3.00' },
        deliveryAreas: [],
      },
      zoneRows: expect.any(Number),
      priceZones: expect.any(Number),
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const list = await f.as('admin').ok('/api/admin/expressChannel/list', {
      page: 1,
      limit: 10,
      productId,
      scope: 'domestic',
      keyword: 'summit',
    });
    expect(list.list.map((c: { id: number }) => c.id)).toEqual([channelId]);
    expect(list.list[0]).toEqual(await channelInfo());
  });

  it('names each bad field of a channel in both languages', async () => {
    const badTerms = channel(productId, {
      code: 'USG-2',
      surcharges: { fuelPercent: '12.345', residential: 'x' },
    });
    const en = await post('/api/admin/expressChannel/save', badTerms);
    expect(badFields(en).sort()).toEqual(['surcharges.fuelPercent', 'surcharges.residential']);
    expect(fieldMessage(en, 'surcharges.fuelPercent')).toBe(
      'Fuel surcharge %: Enter a percentage from 0 to 999.99 with at most two decimals',
    );
    const zh = await f.as('admin').post('/api/admin/expressChannel/save', badTerms, 'zh-CN');
    expect(fieldMessage(zh, 'surcharges.residential')).toBe('住宅地址附加费:请输入正确的金额,最多两位小数');

    const badRules = channel(productId, {
      code: 'USG-2',
      transitDaysMin: 5,
      transitDaysMax: 2,
      maxLengthGirth: 100,
    });
    const rules = await post('/api/admin/expressChannel/save', badRules);
    expect(badFields(rules).sort()).toEqual(['maxLengthGirth', 'transitDaysMax']);
    expect(fieldMessage(rules, 'transitDaysMax')).toBe(
      'Transit days (max): The longest transit time cannot be shorter than the shortest',
    );
    const rulesZh = await f.as('admin').post('/api/admin/expressChannel/save', badRules, 'zh-CN');
    expect(fieldMessage(rulesZh, 'maxLengthGirth')).toBe('最大长度加围长不能小于最大长度');

    const taken = await post('/api/admin/expressChannel/save', channel(productId));
    expect(badFields(taken)).toEqual(['code']);
    expect(fieldMessage(taken, 'code')).toBe('This channel code is already used');
    const noProduct = await post('/api/admin/expressChannel/save', channel(999_999, { code: 'USG-3' }));
    expect(badFields(noProduct)).toEqual(['productId']);
    expect(fieldMessage(noProduct, 'productId')).toBe('The selected product does not exist');
    expect(
      (await f.as('admin').ok('/api/admin/expressChannel/list', { page: 1, limit: 10, productId })).total,
    ).toBe(1);
  });

  it("keeps another tenant's admin away from a channel and its tables", async () => {
    const before = { info: await channelInfo(), zones: await zoneRows(), prices: await priceInfo() };
    const other = f.as('admin', f.tenant(1));
    const { id: ownProduct } = await other.ok('/api/admin/expressProduct/save', product());
    expect((await other.ok('/api/admin/expressChannel/list', { page: 1, limit: 10 })).list).toEqual([]);
    await other.fail('/api/admin/expressChannel/info', { id: channelId }, 404);
    await other.fail('/api/admin/expressChannel/save', { ...channel(ownProduct), id: channelId }, 404);
    await other.fail('/api/admin/expressChannel/enable', { id: channelId, enabled: false }, 404);
    await other.fail('/api/admin/expressChannel/delete', { id: channelId }, 404);
    await other.fail('/api/admin/expressZone/list', { channelId, page: 1, limit: 10 }, 404);
    await other.fail('/api/admin/channelPrice/info', { channelId }, 404);
    await other.fail(
      '/api/admin/channelPrice/save',
      { channelId, zones: ['2'], brackets: [{ weight: 1, prices: ['1.00'] }] },
      404,
    );
    await other.fail(
      '/api/admin/channelPrice/deliveryArea/save',
      { channelId, name: 'X', fee: '1.00', zips: ['10001'] },
      404,
    );
    await other.fail('/api/admin/channelPrice/deliveryArea/delete', { channelId, name: 'X' }, 404);
    expect(
      (await download(`/api/admin/expressZone/export?channelId=${channelId}`, 'en-US', f.tenant(1))).json()
        .code,
    ).toBe(404);
    expect(
      (await download(`/api/admin/channelPrice/export?channelId=${channelId}`, 'en-US', f.tenant(1))).json()
        .code,
    ).toBe(404);
    const imported = await postMultipart(
      f.ctx,
      `/api/admin/expressZone/import?channelId=${channelId}`,
      [{ name: 'file', filename: 'z.xlsx', contentType: XLSX, content: await workbookBytes({ Zones: [] }) }],
      { host: f.tenant(1).host, token: other.token, language: 'en-US' },
    );
    expect(imported.json().code).toBe(404);
    // The channel a code clash with the other tenant is no clash: codes are per tenant.
    expect((await other.post('/api/admin/expressChannel/save', channel(ownProduct))).json().code).toBe(200);
    expect({ info: await channelInfo(), zones: await zoneRows(), prices: await priceInfo() }).toEqual(before);
  });

  it('keeps the delivery areas when staff edit the channel, and switches it off and on', async () => {
    const terms = await f.as('admin').ok('/api/admin/channelPrice/deliveryArea/save', {
      channelId,
      name: 'Remote',
      fee: '7.00',
      zips: ['99701', '99701', '99703'],
    });
    expect(terms.deliveryAreas).toEqual([{ name: 'Remote', fee: '7.00', zips: 2 }]);
    await f.as('admin').ok(
      '/api/admin/expressChannel/save',
      channel(productId, {
        id: channelId,
        surcharges: { ...channel(productId).surcharges, fuelPercent: '12.5' },
      }),
    );
    const edited = await channelInfo();
    expect(edited.surcharges).toMatchObject({
      fuelPercent: '12.50',
      deliveryAreas: [{ name: 'Remote', zips: 2 }],
    });
    await f.as('admin').ok('/api/admin/expressChannel/enable', { id: channelId, enabled: false });
    expect((await channelInfo()).enabled).toBe(false);
    await f.as('admin').ok('/api/admin/expressChannel/enable', { id: channelId, enabled: true });
    await f.as('admin').ok('/api/admin/expressChannel/save', channel(productId, { id: channelId }));

    const removed = await f
      .as('admin')
      .ok('/api/admin/channelPrice/deliveryArea/delete', { channelId, name: 'Remote' });
    expect(removed.deliveryAreas).toEqual([]);
    const missing = await f
      .as('admin')
      .fail('/api/admin/channelPrice/deliveryArea/delete', { channelId, name: 'Remote' }, 404);
    expect(missing.msg).toBe('There is no delivery area named "Remote"');
  });
});

/** The zone chart the tests import, as the file holds it: ZIP3s as text, one as a number. */
const ZONE_FILE: Row[] = [
  ['Origin ZIP3 from', 'Origin ZIP3 to', 'Destination ZIP3 from', 'Destination ZIP3 to', 'Country', 'Zone'],
  ['900', '961', '900', '961', null, '2'],
  ['900', '961', '000', '299', null, '8'],
  [1, '899', '000', '999', null, '5'],
  ['000', '999', null, null, 'ca', 'A'],
];
/** The same chart as stored and exported: "001" gets its zeros back, the country is upper-cased. */
const ZONE_ROWS = [
  { originFrom: '900', originTo: '961', destFrom: '900', destTo: '961', country: '', zone: '2' },
  { originFrom: '900', originTo: '961', destFrom: '000', destTo: '299', country: '', zone: '8' },
  { originFrom: '001', originTo: '899', destFrom: '000', destTo: '999', country: '', zone: '5' },
  { originFrom: '000', originTo: '999', destFrom: '', destTo: '', country: 'CA', zone: 'A' },
];
const importZones = (content: Buffer, language: 'en-US' | 'zh-CN' = 'en-US') =>
  upload(`/api/admin/expressZone/import?channelId=${channelId}`, content, 'admin', language);

describe('zone charts', () => {
  it('imports a workbook in the file order and exports exactly what it imported', async () => {
    const res = await importZones(await workbookBytes({ Zones: ZONE_FILE }));
    expect(res.json()).toMatchObject({ code: 200, msg: '4 zone rows imported', data: { imported: 4 } });
    const list = await zoneRows();
    expect(list.total).toBe(4);
    expect(list.list.map(({ id: _id, ...row }: { id: number }) => row)).toEqual(ZONE_ROWS);
    expect((await channelInfo()).zoneRows).toBe(4);

    const exported = await download(`/api/admin/expressZone/export?channelId=${channelId}`);
    expect(exported.headers['content-type']).toContain('spreadsheetml');
    const rows = await sheetRows(exported.rawPayload, 'Zones');
    expect(rows[0]).toEqual(ZONE_FILE[0]);
    expect(rows.slice(1)).toEqual(
      ZONE_ROWS.map((r) => [
        r.originFrom,
        r.originTo,
        r.destFrom || null,
        r.destTo || null,
        r.country || null,
        r.zone,
      ]),
    );
    // Importing the export changes nothing but the row ids.
    expect((await importZones(exported.rawPayload)).json().code).toBe(200);
    expect((await zoneRows()).list.map(({ id: _id, ...row }: { id: number }) => row)).toEqual(ZONE_ROWS);
  });

  it('finds rows by a ZIP3 inside their ranges or by zone', async () => {
    const byZip = await zoneRows({ keyword: '250' });
    expect(byZip.list.map((r: { zone: string }) => r.zone)).toEqual(['8', '5', 'A']);
    expect((await zoneRows({ keyword: '950' })).list.map((r: { zone: string }) => r.zone)).toEqual([
      '2',
      '8',
      '5',
      'A',
    ]);
    expect((await zoneRows({ keyword: 'ca' })).list.map((r: { zone: string }) => r.zone)).toEqual(['A']);
  });

  it('refuses a file with one bad row whole, naming the row and field in the caller’s language', async () => {
    const before = await zoneRows();
    const file = [...ZONE_FILE.slice(0, 3), ['900', '961', '12', '299', null, '7'], ZONE_FILE[4] as Row];
    const en = await importZones(await workbookBytes({ Zones: file }));
    expect(en.json()).toMatchObject({
      code: 400,
      msg: 'Nothing was imported; fix the rows listed and try again',
    });
    expect(en.json().data.errors).toEqual([
      {
        sheet: 'Zones',
        row: 4,
        field: 'destFrom',
        message:
          'Destination ZIP3 from: Enter a three-digit ZIP prefix such as 900, or a five-digit ZIP for an exception such as 99501',
      },
    ]);
    const zh = await importZones(await workbookBytes({ Zones: file }), 'zh-CN');
    expect(zh.json().data.errors[0]).toMatchObject({
      row: 4,
      field: 'destFrom',
      message: '目的邮编前三位(起):请填写三位邮编(如 900)或五位邮编(例外区间,如 99501)',
    });
    const both = [...ZONE_FILE.slice(0, 2), ['900', '961', '300', '399', 'CA', '7']];
    const rule = await importZones(await workbookBytes({ Zones: both }));
    expect(rule.json().data.errors).toEqual([
      expect.objectContaining({ row: 3, field: 'country', message: expect.stringContaining('not both') }),
    ]);
    expect(await zoneRows()).toEqual(before);
  });

  it('reads the Chinese template, and refuses files that are no zone chart', async () => {
    const template = await download('/api/admin/expressZone/template', 'zh-CN');
    const rows = await sheetRows(template.rawPayload, '分区表');
    expect(rows[0]).toEqual([
      '起始邮编前三位(起)',
      '起始邮编前三位(止)',
      '目的邮编前三位(起)',
      '目的邮编前三位(止)',
      '国家',
      '分区',
    ]);
    const before = await zoneRows();
    const noColumns = await importZones(await workbookBytes({ Zones: [['Origin ZIP3 from', 'Zone']] }));
    expect(noColumns.json().data.errors[0].message).toBe(
      'Missing columns: Origin ZIP3 to, Destination ZIP3 from, Destination ZIP3 to, Country; please use the import template',
    );
    const notXlsx = await importZones(Buffer.from('origin,zone\n900,2\n'));
    expect(badFields(notXlsx)).toEqual(['file']);
    expect(notXlsx.json().msg).toBe('Please upload an xlsx file');
    const noFile = await postMultipart(
      f.ctx,
      `/api/admin/expressZone/import?channelId=${channelId}`,
      [{ name: 'x', value: '1' }],
      {
        host: f.t.host,
        token: f.as('admin').token,
        language: 'en-US',
      },
    );
    expect(badFields(noFile)).toEqual(['file']);
    expect(await zoneRows()).toEqual(before);

    // The examples are on a sheet the import never reads: the template as it comes imports nothing,
    // and the chart stays as it was.
    expect(rows).toHaveLength(1);
    const examples = await sheetRows(template.rawPayload, '分区表示例(不导入)');
    expect(examples.slice(1).map((r) => r.at(-1))).toEqual(['2', '8', '9', 'A']);
    const untouched = await importZones(template.rawPayload, 'zh-CN');
    expect(untouched.json()).toMatchObject({ code: 400, data: { errors: [{ message: '文件中没有数据' }] } });
    expect(await zoneRows()).toEqual(before);
    // Rows an operator copies from the example onto the data sheet are the operator's own.
    const copied = await importZones(
      await workbookBytes({ 分区表: [rows[0] ?? [], ...examples.slice(1)] }),
      'zh-CN',
    );
    expect(copied.json().data).toEqual({ imported: 4 });
    // Put the chart the rest of the file relies on back.
    expect((await importZones(await workbookBytes({ Zones: ZONE_FILE }))).json().code).toBe(200);
  });
});

/** The price workbook the tests import, in English. */
const PRICE_FILE: Row[] = [
  ['Weight up to (lb)', '2', '5', '8'],
  [1, 8.95, 10.95, 13.2],
  [2, 9.8, 12.35, 15.35],
  [5, 12.4, 16.5, 21.8],
  ['Additional unit (lb)', 1],
  ['Additional', 0.85, 1.4, 2.15],
  ['Minimum', 9, null, null],
];
const AREA_FILE: Row[] = [
  ['Name', 'Fee', 'ZIP'],
  ['DAS', 3.95, '10001'],
  ['DAS', 3.95, 82001],
  ['Extended DAS', 5.25, '99701'],
];
const PRICE_VIEW = {
  channelId: 0,
  zones: ['2', '5', '8'],
  brackets: [
    { weight: 1, prices: ['8.95', '10.95', '13.20'] },
    { weight: 2, prices: ['9.80', '12.35', '15.35'] },
    { weight: 5, prices: ['12.40', '16.50', '21.80'] },
  ],
  additional: { unit: 1, prices: ['0.85', '1.40', '2.15'] },
  minimums: ['9.00', null, null],
  cubic: [],
  unpricedZones: ['A'],
  updatedAt: expect.any(String),
  scheduled: [],
};
const importPrices = (content: Buffer, language: 'en-US' | 'zh-CN' = 'en-US') =>
  upload(`/api/admin/channelPrice/import?channelId=${channelId}`, content, 'admin', language);

describe('price tables', () => {
  it('saves a table from the page, names a bracket out of order, and leaves unpriced zones visible', async () => {
    const saved = await f.as('admin').ok('/api/admin/channelPrice/save', {
      channelId,
      zones: ['2', '8'],
      brackets: [
        { weight: 1, prices: ['8.95', ''] },
        { weight: 10, prices: ['20.00', '31.50'] },
      ],
      minimums: ['', ''],
    });
    expect(saved).toEqual({
      channelId,
      zones: ['2', '8'],
      brackets: [
        { weight: 1, prices: ['8.95', null] },
        { weight: 10, prices: ['20.00', '31.50'] },
      ],
      additional: null,
      minimums: [],
      cubic: [],
      unpricedZones: ['5', 'A'],
      updatedAt: expect.any(String),
      scheduled: [],
    });
    expect(await priceInfo()).toEqual(saved);

    const bad = await post('/api/admin/channelPrice/save', {
      channelId,
      zones: ['2', '2'],
      brackets: [
        { weight: 5, prices: ['1.00', '2.00'] },
        { weight: 5, prices: ['1.00'] },
      ],
    });
    expect(badFields(bad).sort()).toEqual(['brackets.1.prices', 'brackets.1.weight', 'zones']);
    expect(fieldMessage(bad, 'brackets.1.weight')).toBe(
      'Weight up to: Weight brackets must rise and not repeat',
    );
    expect(fieldMessage(bad, 'zones')).toBe('Zones: A zone appears twice');
    expect(await priceInfo()).toEqual(saved);
  });

  it('imports prices and delivery areas from a workbook, and exports exactly what it imported', async () => {
    const res = await importPrices(await workbookBytes({ Prices: PRICE_FILE, 'Delivery areas': AREA_FILE }));
    expect(res.json()).toMatchObject({
      code: 200,
      msg: '3 weight brackets and 2 delivery-area lists imported',
      data: { imported: 3 },
    });
    const imported = await priceInfo();
    expect(imported).toEqual({ ...PRICE_VIEW, channelId });
    expect((await channelInfo()).surcharges.deliveryAreas).toEqual([
      { name: 'DAS', fee: '3.95', zips: 2 },
      { name: 'Extended DAS', fee: '5.25', zips: 1 },
    ]);
    expect((await channelInfo()).priceZones).toBe(3);

    const exported = await download(`/api/admin/channelPrice/export?channelId=${channelId}`);
    expect(await sheetRows(exported.rawPayload, 'Prices')).toEqual(PRICE_FILE.map(trimmed));
    expect(await sheetRows(exported.rawPayload, 'Delivery areas')).toEqual([
      ['Name', 'Fee', 'ZIP'],
      ['DAS', 3.95, '10001'],
      ['DAS', 3.95, '82001'],
      ['Extended DAS', 5.25, '99701'],
    ]);
    expect((await importPrices(exported.rawPayload)).json().code).toBe(200);
    expect({ ...(await priceInfo()), updatedAt: null }).toEqual({ ...imported, updatedAt: null });

    // Without a delivery-area sheet the channel keeps its lists.
    expect((await importPrices(await workbookBytes({ Prices: PRICE_FILE }))).json().code).toBe(200);
    expect((await channelInfo()).surcharges.deliveryAreas).toHaveLength(2);
  });

  it('refuses a workbook with bad cells whole, naming each row, and keeps the old table', async () => {
    const before = await priceInfo();
    const areasBefore = (await channelInfo()).surcharges.deliveryAreas;
    const prices = [...PRICE_FILE];
    prices[2] = [2, 9.8, 'abc', 15.35];
    prices[3] = [1.5, 12.4, 16.5, 21.8];
    const areas = [...AREA_FILE, ['DAS', 4.5, '82002'], ['Remote', 6, '9970']];
    const res = await importPrices(await workbookBytes({ Prices: prices, 'Delivery areas': areas }));
    expect(res.json().code).toBe(400);
    expect(res.json().data.errors).toEqual([
      {
        sheet: 'Delivery areas',
        row: 5,
        field: 'fee',
        message: 'Every row of one delivery area needs the same fee',
      },
      { sheet: 'Delivery areas', row: 6, field: 'zips', message: 'Please enter a five-digit ZIP code' },
      {
        sheet: 'Prices',
        row: 3,
        field: 'zones',
        message: 'Zone 5: Please enter an amount with at most two decimals',
      },
    ]);
    // Brackets out of order are found once every cell reads.
    prices[2] = PRICE_FILE[2] as Row;
    const order = await importPrices(await workbookBytes({ Prices: prices }));
    expect(order.json().data.errors).toEqual([
      {
        sheet: 'Prices',
        row: 4,
        field: 'brackets.2.weight',
        message: 'Weight up to: Weight brackets must rise and not repeat',
      },
    ]);
    const zh = await importPrices(await workbookBytes({ 价格: prices }), 'zh-CN');
    expect(zh.json().data.errors[0]).toMatchObject({
      row: 4,
      message: '重量上限:重量段须从小到大排列且不重复',
    });
    const unpaired = await importPrices(await workbookBytes({ Prices: PRICE_FILE.slice(0, 5) }));
    expect(unpaired.json().data.errors[0]).toMatchObject({
      row: 5,
      message: 'The "Additional" and "Additional unit" rows go together',
    });
    const noSheet = await importPrices(await workbookBytes({ Sheet1: PRICE_FILE }));
    expect(noSheet.json().data.errors[0].message).toBe(
      'The file has no "Prices" sheet; please use the template',
    );
    expect(await priceInfo()).toEqual(before);
    expect((await channelInfo()).surcharges.deliveryAreas).toEqual(areasBefore);
  });

  it('offers a template in the caller’s language whose examples cannot be imported', async () => {
    const template = await download('/api/admin/channelPrice/template', 'zh-CN');
    const rows = await sheetRows(template.rawPayload, '价格');
    expect(rows).toEqual([['重量上限(lb)', '2', '3', '4']]);
    expect(await sheetRows(template.rawPayload, '偏远地区')).toHaveLength(1);
    const example = await sheetRows(template.rawPayload, '价格示例(不导入)');
    expect(example.slice(-3).map((r) => r[0])).toEqual(['续重单位(lb)', '续重', '最低收费']);
    // The example's delivery areas are real ZIPs: left in, they would charge those addresses.
    expect(await sheetRows(template.rawPayload, '偏远地区示例(不导入)')).toHaveLength(4);
    const en = await download('/api/admin/channelPrice/template', 'en-US');
    expect((await sheetRows(en.rawPayload, 'Prices'))[0]?.[0]).toBe('Weight up to (lb)');
    expect((await sheetRows(en.rawPayload, 'Example Prices')).length).toBeGreaterThan(5);
    const before = await priceInfo();
    const areasBefore = (await channelInfo()).surcharges.deliveryAreas;
    const untouched = await importPrices(template.rawPayload, 'zh-CN');
    expect(untouched.json().code).toBe(400);
    expect(await priceInfo()).toEqual(before);
    expect((await channelInfo()).surcharges.deliveryAreas).toEqual(areasBefore);
    // The example copied onto the data sheets is the operator's own table.
    const copied = await importPrices(await workbookBytes({ 价格: example }), 'zh-CN');
    expect(copied.json().data).toEqual({ imported: 5 });
    expect((await priceInfo()).zones).toEqual(['2', '3', '4']);
    // Put the tested table back for the quote below.
    const restored = await importPrices(
      await workbookBytes({ Prices: PRICE_FILE, 'Delivery areas': AREA_FILE }),
    );
    expect(restored.json().code).toBe(200);
    expect({ ...(await priceInfo()), updatedAt: null }).toEqual({ ...before, updatedAt: null });
  });
});

describe('rating from the imported tables', () => {
  const shipment = (extra: Partial<ExpressShipment>): ExpressShipment => ({
    unitSystem: 'lb_in',
    originZip: '90001',
    destinationCountry: 'US',
    destinationZip: '10001',
    residential: false,
    signature: false,
    parcels: [],
    ...extra,
  });

  it('prices parcels to the cent from the zone chart, price table and surcharges staff imported', async () => {
    const row = await findChannel(f.db, f.t.tenant.id, channelId);
    if (!row) throw new Error('channel missing');
    const rater = await tenantTablesProvider.rater(f.db, f.t.tenant.id, [row]);

    // 90001 to 10001 is zone 8. Each 12x10x8 in piece: dimensional 960 / 139 = 6.91 lb beats the
    // actual 3.2 lb, billed 7 lb: past the 5 lb bracket (21.80) by 2 additional pounds at 2.15 = 26.10.
    // Per piece: residential 4.50, DAS 3.95 (10001 is listed), declared 250.00 = 2 hundreds over the
    // free 100.00 at 1.00, raised to the 3.00 minimum. Two pieces: freight 52.20, residential 9.00,
    // DAS 7.90, declared value 6.00; fuel 10 % of 52.20 + 9.00 + 7.90 = 6.91; total 82.01.
    const rated = await rater.rate(
      row,
      shipment({
        residential: true,
        parcels: [{ quantity: 2, length: 12, width: 10, height: 8, weight: 3.2, declaredValue: 25_000 }],
      }),
    );
    expect(rated.ok).toBe(true);
    if (!rated.ok) return;
    expect(rated.cost).toMatchObject({
      zone: '8',
      freight: 5_220,
      surcharges: [
        { code: 'residential', fee: 900 },
        { code: 'delivery_area', fee: 790 },
        { code: 'declared_value', fee: 600 },
      ],
      fuel: 691,
      total: 8_201,
      billableWeight: 14,
    });
    expect(rated.cost.parcels[0]).toMatchObject({ billableWeight: 7, freight: 2_610, minimumApplied: false });

    // 90001 to 90210 is zone 2: a 1 lb box costs 8.95, under the zone's 9.00 minimum; fuel 0.90.
    const small = await rater.rate(
      row,
      shipment({
        destinationZip: '90210',
        parcels: [{ quantity: 1, length: 4, width: 4, height: 4, weight: 1, declaredValue: 0 }],
      }),
    );
    expect(small).toMatchObject({
      ok: true,
      cost: {
        zone: '2',
        freight: 900,
        surcharges: [],
        fuel: 90,
        total: 990,
        parcels: [{ minimumApplied: true }],
      },
    });

    // A domestic channel does not carry abroad, whatever its chart says of Canada.
    expect(await rater.rate(row, shipment({ destinationCountry: 'CA', destinationZip: 'M5V 2T6' }))).toEqual({
      ok: false,
      reason: 'wrong_scope',
    });
  });
});
