import { beforeAll, describe, expect, it } from 'vitest';
import { expressChannelBody } from '../../../test/express-fixtures.ts';
import { useTestApp } from '../../../test/fixture.ts';
import { postMultipart, type Who } from '../../../test/helpers.ts';
import {
  type SheetCell as Cell,
  type SheetRow as Row,
  workbookSheets as sheets,
  workbookBytes,
} from '../../../test/workbooks.ts';
import { CHANNEL_COLUMNS } from './channel-sheet.ts';

const f = useTestApp({ tenants: 2, signIn: [['admin', 'customer'], ['admin']], language: 'en-US' });
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

type Language = 'en-US' | 'zh-CN';

const HEADER_EN = CHANNEL_COLUMNS.map((c) => c.en);

const importFile = (content: Buffer, who: Who = 'admin', language: Language = 'en-US', tenant = f.t) =>
  postMultipart(
    f.ctx,
    '/api/admin/expressChannel/import',
    [{ name: 'file', filename: 'channels.xlsx', contentType: XLSX, content }],
    { host: tenant.host, token: f.as(who, tenant).token, language },
  );

const template = (language: Language = 'en-US', who: Who = 'admin') =>
  f.ctx.app.inject({
    method: 'GET',
    url: '/api/admin/expressChannel/template',
    headers: { host: f.t.host, accesstoken: f.as(who).token ?? '', 'accept-language': language },
  });

const exportList = (filters: Record<string, unknown>, language: Language = 'en-US', who: Who = 'admin') =>
  f.as(who).post('/api/admin/expressChannel/export', filters, language);

const listChannels = async (tenant = f.t, extra: Record<string, unknown> = {}) =>
  (await f.as('admin', tenant).ok('/api/admin/expressChannel/list', { page: 1, limit: 100, ...extra }))
    .list as Record<string, unknown>[];

/** A full row of the sheet, in the columns' order, from the values by column key. */
const sheetRow = (values: Record<string, Cell>): Row => CHANNEL_COLUMNS.map((c) => values[c.key] ?? null);

const ECONOMY: Record<string, Cell> = {
  code: 'ECO-1',
  productCode: 'US-GROUND',
  name: '经济陆运',
  nameEn: 'Economy Ground',
  carrier: 'Summit Parcel',
  service: 'Economy',
  scope: 'domestic',
  unitSystem: 'lb_in',
  dimDivisor: 166,
  transitDaysMin: 3,
  transitDaysMax: 7,
  maxWeight: 70,
  maxLength: 108,
  maxLengthGirth: 130,
  enabled: 'yes',
  fuelPercent: 12.5,
  residential: 3.95,
  signature: 0,
  handlingFee: 15,
  handlingLongest: 48,
  handlingSecondLongest: 30,
  handlingWeight: 50,
  declaredFree: 100,
  declaredPer100: 1.1,
  declaredMinimum: 2.5,
};
const INTERNATIONAL: Record<string, Cell> = {
  code: 'INTL-1',
  productCode: 'INTL',
  name: '国际快递',
  nameEn: 'International express',
  carrier: 'Globe Air',
  service: 'Express',
  scope: 'international',
  unitSystem: 'kg_cm',
  dimDivisor: 5000,
  transitDaysMin: 4,
  transitDaysMax: 8,
  maxWeight: 30,
  maxLength: 120,
  maxLengthGirth: 300,
  enabled: 'no',
};

let groundId: number;
let intlId: number;
let existingId: number;
let orgId: number;
let otherTenantChannelId: number;

/** A channel the tenant has before any import; its surcharges are the fuel and residential fees only. */
const saved = expressChannelBody(0, {
  code: 'OLD-1',
  name: '旧渠道',
  nameEn: 'Old channel',
  surcharges: { fuelPercent: '10', residential: '4.50' },
});

beforeAll(async () => {
  const admin = f.as('admin');
  groundId = (
    await admin.ok('/api/admin/expressProduct/save', {
      code: 'US-GROUND',
      name: '美国陆运',
      nameEn: 'US Ground',
    })
  ).id;
  intlId = (
    await admin.ok('/api/admin/expressProduct/save', { code: 'INTL', name: '国际', nameEn: 'International' })
  ).id;
  orgId = await f.orgOf('customer');
  existingId = (
    await admin.ok('/api/admin/expressChannel/save', {
      ...saved,
      productId: groundId,
      organisationIds: [orgId],
    })
  ).id;
  // Its delivery areas and zone chart are kept on the price and zone pages; an import keeps them.
  await admin.ok('/api/admin/channelPrice/deliveryArea/save', {
    channelId: existingId,
    name: 'DAS',
    fee: '3.95',
    zips: ['59001', '82001'],
  });
  const zones = await workbookBytes({
    Zones: [
      [
        'Origin ZIP3 from',
        'Origin ZIP3 to',
        'Destination ZIP3 from',
        'Destination ZIP3 to',
        'Country',
        'Zone',
      ],
      ['900', '961', '900', '961', null, '2'],
    ],
  });
  const zoneImport = await postMultipart(
    f.ctx,
    `/api/admin/expressZone/import?channelId=${existingId}`,
    [{ name: 'file', filename: 'zones.xlsx', contentType: XLSX, content: zones }],
    { host: f.t.host, token: admin.token, language: 'en-US' },
  );
  expect(zoneImport.json().code).toBe(200);

  // Another tenant with a channel of the same code, which no import of this tenant may touch.
  const other = f.as('admin', f.tenant(1));
  const otherProduct = (
    await other.ok('/api/admin/expressProduct/save', { code: 'US-GROUND', name: '陆运', nameEn: 'Ground' })
  ).id;
  otherTenantChannelId = (
    await other.ok('/api/admin/expressChannel/save', { ...saved, productId: otherProduct })
  ).id;
});

describe('express channel workbook', () => {
  it('makes the template in the caller’s language, and its untouched example row imports nothing', async () => {
    const en = await template('en-US');
    expect(en.headers['content-type']).toContain('spreadsheetml');
    const enSheets = await sheets(en.rawPayload);
    expect([...enSheets.keys()]).toEqual(['Channels', 'Notes']);
    const [header, example, ...rest] = enSheets.get('Channels') ?? [];
    expect(header).toEqual(HEADER_EN);
    expect(rest).toEqual([]);
    // The example names the tenant's first product and reads yes/no in the caller's language.
    expect(example?.[1]).toBe('US-GROUND');
    expect(example?.[14]).toBe('yes');
    expect(enSheets.get('Notes')?.flat().join('\n')).toContain('US-GROUND, INTL');

    const zh = await sheets((await template('zh-CN')).rawPayload);
    expect([...zh.keys()]).toEqual(['渠道', '说明']);
    expect(zh.get('渠道')?.[0]).toEqual(CHANNEL_COLUMNS.map((c) => c.zh));
    expect(zh.get('渠道')?.[1]?.[14]).toBe('是');

    for (const [language, bytes] of [
      ['en-US', en.rawPayload],
      ['zh-CN', (await template('zh-CN')).rawPayload],
    ] as const) {
      const res = await importFile(bytes, 'admin', language);
      expect(res.json().code).toBe(400);
      expect(res.json().data.errors).toEqual([
        expect.objectContaining({
          row: 0,
          message: language === 'en-US' ? 'The file has no rows' : '文件中没有数据',
        }),
      ]);
    }
    expect((await listChannels()).map((c) => c.code)).toEqual(['OLD-1']);
  });

  it('refuses a file with one bad row whole, naming each row and column in the caller’s language', async () => {
    const file = [
      HEADER_EN,
      sheetRow(ECONOMY),
      sheetRow({ ...INTERNATIONAL, productCode: 'NOPE', scope: 'moon', maxWeight: 'heavy' }),
      sheetRow({ ...INTERNATIONAL, code: 'ECO-1', transitDaysMin: 9, handlingFee: 5 }),
    ];
    const en = await importFile(await workbookBytes({ Channels: file }));
    expect(en.json()).toMatchObject({
      code: 400,
      msg: 'Nothing was imported; fix the rows listed and try again',
    });
    expect(en.json().data.errors).toEqual([
      { sheet: 'Channels', row: 3, field: 'maxWeight', message: 'Max weight is not valid' },
      {
        sheet: 'Channels',
        row: 3,
        field: 'productCode',
        message: 'Product code: there is no express product with code "NOPE"',
      },
      { sheet: 'Channels', row: 4, field: 'code', message: 'Channel code: "ECO-1" already appears on row 2' },
    ]);

    // Rows that read as numbers and codes go on to the channel form's own rules.
    const rules = [
      HEADER_EN,
      sheetRow({ ...INTERNATIONAL, scope: 'moon', handlingFee: 5 }),
      sheetRow({ ...INTERNATIONAL, code: 'INTL-2', transitDaysMin: 9 }),
    ];
    const ruled = await importFile(await workbookBytes({ Channels: rules }));
    expect(ruled.json().data.errors).toEqual([
      expect.objectContaining({ row: 2, field: 'scope', message: expect.stringMatching(/^Scope/) }),
      expect.objectContaining({
        row: 2,
        field: 'handlingLongest',
        message: expect.stringMatching(/^Handling: longest over/),
      }),
      expect.objectContaining({ row: 2, field: 'handlingSecondLongest' }),
      expect.objectContaining({ row: 2, field: 'handlingWeight' }),
      expect.objectContaining({
        row: 3,
        field: 'transitDaysMax',
        message: expect.stringMatching(/^Transit days max/),
      }),
    ]);

    const zh = await importFile(await workbookBytes({ Channels: file }), 'admin', 'zh-CN');
    expect(zh.json().msg).toBe('导入失败,没有任何数据被导入,请按提示修改后重试');
    expect(zh.json().data.errors).toEqual([
      expect.objectContaining({
        row: 3,
        field: 'maxWeight',
        message: expect.stringContaining('单件最大重量'),
      }),
      expect.objectContaining({
        row: 3,
        field: 'productCode',
        message: '产品代码:没有代码为“NOPE”的快递产品',
      }),
      expect.objectContaining({ row: 4, field: 'code', message: '渠道代码:“ECO-1”已在第 2 行出现' }),
    ]);
    // Not even the good first row was written.
    expect((await listChannels()).map((c) => c.code)).toEqual(['OLD-1']);
  });

  it('adds new channels and updates an existing one by its code, keeping what the sheet does not carry', async () => {
    expect((await listChannels()).find((c) => c.code === 'OLD-1')).toMatchObject({
      organisationIds: [orgId],
    });
    const file = [
      HEADER_EN,
      sheetRow(ECONOMY),
      sheetRow(INTERNATIONAL),
      sheetRow({
        ...ECONOMY,
        code: 'OLD-1',
        name: '旧渠道(改)',
        nameEn: 'Old channel, renamed',
        productCode: 'INTL',
        scope: 'international',
        enabled: 'no',
        fuelPercent: 8,
        handlingFee: null,
        handlingLongest: null,
        handlingSecondLongest: null,
        handlingWeight: null,
        largeFee: 95,
        largeLongest: 96,
        largeLengthGirth: 130,
        largeMinBillable: 90,
      }),
    ];
    const res = await importFile(await workbookBytes({ Channels: file }));
    expect(res.json()).toMatchObject({
      code: 200,
      msg: '3 channels imported: 2 added, 1 updated',
      data: { imported: 3, created: 2, updated: 1 },
    });

    const list = await listChannels();
    expect(list.map((c) => c.code)).toEqual(['INTL-1', 'ECO-1', 'OLD-1']);
    const economy = list.find((c) => c.code === 'ECO-1');
    expect(economy).toMatchObject({
      productId: groundId,
      name: '经济陆运',
      nameEn: 'Economy Ground',
      carrier: 'Summit Parcel',
      service: 'Economy',
      scope: 'domestic',
      unitSystem: 'lb_in',
      dimDivisor: 166,
      transitDaysMin: 3,
      transitDaysMax: 7,
      maxWeight: 70,
      maxLength: 108,
      maxLengthGirth: 130,
      enabled: true,
      organisationIds: [],
      surcharges: {
        fuelPercent: '12.50',
        residential: '3.95',
        signature: '0.00',
        additionalHandling: { fee: '15.00', longest: 48, secondLongest: 30, weight: 50 },
        largePackage: null,
        declaredValue: { free: '100.00', per100: '1.10', minimum: '2.50' },
        deliveryAreas: [],
      },
    });
    expect(list.find((c) => c.code === 'INTL-1')).toMatchObject({
      productId: intlId,
      scope: 'international',
      unitSystem: 'kg_cm',
      enabled: false,
      surcharges: { fuelPercent: '0.00', additionalHandling: null, largePackage: null, declaredValue: null },
    });
    const updated = list.find((c) => c.code === 'OLD-1');
    expect(updated).toMatchObject({
      id: existingId,
      productId: intlId,
      name: '旧渠道(改)',
      nameEn: 'Old channel, renamed',
      scope: 'international',
      enabled: false,
      // What the sheet does not carry stays: the organisations, delivery areas and zone chart.
      organisationIds: [orgId],
      zoneRows: 1,
      surcharges: {
        fuelPercent: '8.00',
        additionalHandling: null,
        largePackage: { fee: '95.00', longest: 96, lengthGirth: 130, minBillable: 90 },
        deliveryAreas: [{ name: 'DAS', fee: '3.95', zips: 2 }],
      },
    });

    // The operation log names the import in the reader's language.
    const log = await f
      .as('admin')
      .in('zh-CN')
      .ok('/api/admin/operationLog/list', { action: 'express.channel.import', page: 1, limit: 10 });
    expect(log.list[0]).toMatchObject({ action: 'express.channel.import', actionLabel: '导入快递渠道' });
  });

  it('exports the list’s filters in the template’s columns, and the export imports back unchanged', async () => {
    const all = await exportList({});
    expect(all.headers['content-type']).toContain('spreadsheetml');
    const rows = (await sheets(all.rawPayload)).get('Channels') ?? [];
    expect(rows[0]).toEqual(HEADER_EN);
    expect(rows.slice(1).map((r) => r[0])).toEqual(['INTL-1', 'ECO-1', 'OLD-1']);
    // Typed cells: measures and money as numbers, the choices as the import reads them.
    expect(rows[2]).toEqual(
      sheetRow({ ...ECONOMY, fuelPercent: 12.5, residential: 3.95, signature: 0 }).slice(0, rows[2]?.length),
    );

    const filtered = await exportList({ scope: 'international', keyword: 'intl' }, 'zh-CN');
    const zhRows = (await sheets(filtered.rawPayload)).get('渠道') ?? [];
    expect(zhRows[0]).toEqual(CHANNEL_COLUMNS.map((c) => c.zh));
    expect(zhRows.slice(1).map((r) => [r[0], r[14]])).toEqual([['INTL-1', '否']]);

    const before = await listChannels();
    const again = await importFile(all.rawPayload);
    expect(again.json()).toMatchObject({ code: 200, data: { imported: 3, created: 0, updated: 3 } });
    const after = await listChannels();
    const stable = (list: Record<string, unknown>[]) => list.map(({ updatedAt: _u, ...c }) => c);
    expect(stable(after)).toEqual(stable(before));
  });

  it('refuses customers, and leaves another tenant’s channel of the same code alone', async () => {
    expect((await template('en-US', 'customer')).json().code).toBe(401);
    expect((await exportList({}, 'en-US', 'customer')).json().code).toBe(401);
    const file = await workbookBytes({ Channels: [HEADER_EN, sheetRow({ ...ECONOMY, code: 'CUST-1' })] });
    expect((await importFile(file, 'customer')).json().code).toBe(401);
    expect((await listChannels()).map((c) => c.code)).not.toContain('CUST-1');

    const otherBefore = await listChannels(f.tenant(1));
    // This tenant's file names OLD-1 (theirs too) and the other tenant's product code.
    const res = await importFile(
      await workbookBytes({
        Channels: [HEADER_EN, sheetRow({ ...ECONOMY, code: 'OLD-1', nameEn: 'Mine only' })],
      }),
    );
    expect(res.json()).toMatchObject({ code: 200, data: { created: 0, updated: 1 } });
    expect(await listChannels(f.tenant(1))).toEqual(otherBefore);
    expect(otherBefore).toEqual([
      expect.objectContaining({ id: otherTenantChannelId, nameEn: 'Old channel' }),
    ]);

    // And the other tenant's export holds its own channel only.
    const otherExport = await f.as('admin', f.tenant(1)).post('/api/admin/expressChannel/export', {});
    const rows = (await sheets(otherExport.rawPayload)).get('Channels') ?? [];
    expect(rows.slice(1).map((r) => [r[0], r[3]])).toEqual([['OLD-1', 'Old channel']]);
  });
});
