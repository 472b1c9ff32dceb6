import { beforeAll, describe, expect, it } from 'vitest';
import { expressTenant, parcelShipment, streamedExpressRates } from '../../../test/express-fixtures.ts';
import { useTestApp } from '../../../test/fixture.ts';
import { badFields, fieldMessage, postMultipart, type Who } from '../../../test/helpers.ts';
import { sheetRows, workbookBytes, workbookSheets } from '../../../test/workbooks.ts';

/**
 * A channel's rating rules, scheduled price tables and ZIP5 zone exceptions through the API, priced
 * on the quotes customers and staff make. The engine's figures are golden-tested in the contracts
 * (express-rating.golden.test.ts); here the rules travel: saved, read back, refused by field, and
 * applied to a quote.
 */

const f = useTestApp({ tenants: 2, signIn: [['admin', 'customer'], ['admin']], language: 'en-US' });
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
let channelId: number;
let customerOrg: number;

beforeAll(async () => {
  customerOrg = await f.orgOf('customer');
  await expressTenant(f.db, f.t.tenant.id, { customer: customerOrg });
  const options = (await f.as('customer').get('/api/express/quotation/options')).json().data;
  channelId = (options.channels as { code: string; channelId: number }[]).find((c) => c.code === 'USG-STD')
    ?.channelId as number;
});

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

interface PricedChannel {
  code: string;
  ok: boolean;
  breakdown: {
    zone: string;
    fuelPercent?: string;
    pricesFrom?: string;
    parcels: {
      billableWeight: number;
      freight?: string;
      sides?: number[];
      surcharges?: { name?: string; fee: string }[];
    }[];
  };
  levels: { type: string; surcharges: { code: string; name?: string; fee: string }[] }[];
}

/** Quotes a shipment as someone and answers the USG-STD channel's result. */
async function quoteStandard(who: Who, overrides: Record<string, unknown> = {}): Promise<PricedChannel> {
  const caller = f.as(who);
  // Staff quote for a customer, and see the operator's cost beside the customer's price.
  const body = { ...parcelShipment(overrides), ...(who === 'admin' ? { organisationId: customerOrg } : {}) };
  const saved = (await caller.post('/api/express/quotation/getQuotas', body)).json();
  expect(saved, JSON.stringify(saved.data)).toMatchObject({ code: 200 });
  const { id } = saved.data;
  const done = (await streamedExpressRates(caller, id)).at(-1);
  return done.results.find((r: { code: string }) => r.code === 'USG-STD');
}

const box = (length: number, width = 10, height = 8, weight = 10, more: Record<string, unknown> = {}) => ({
  parcels: [{ quantity: 1, length, width, height, weight, ...more }],
});

const rulesOf = async (who: Who = 'admin', tenant = f.t) =>
  f.as(who, tenant).post('/api/admin/channelPrice/rules/info', { channelId });

describe('rating rules of a channel', () => {
  it('reads as the defaults until staff set any, with the fuel in force today', async () => {
    const rules = (await rulesOf()).json().data;
    expect(rules).toEqual({
      channelId,
      dimRounding: 'none',
      dimThreshold: 0,
      underOneUnit: null,
      beyondLastWeight: 'additional',
      cubic: null,
      surchargeRules: [],
      fuel: [],
      fuelToday: expect.stringMatching(/^\d+\.\d{2}$/),
    });
  });

  it('refuses bad rules, naming each field in the caller’s language, and keeps the old ones', async () => {
    const bad = {
      channelId,
      dimRounding: 'sideways',
      surchargeRules: [
        { name: '', trigger: 'longest', over: 0, fee: '1.234' },
        { name: 'Remote', trigger: 'zip5', values: ['9950'] },
        { name: 'Tube', trigger: 'packaging', values: ['crate'] },
      ],
      fuel: [
        { from: '2026-02-30x', percent: '12' },
        { from: '2026-03-02', percent: 'twelve' },
        { from: '2026-03-02', percent: '13' },
      ],
    };
    const en = await f.as('admin').post('/api/admin/channelPrice/rules/save', bad);
    expect(en.json().code).toBe(400);
    expect(badFields(en).sort()).toEqual(
      [
        'dimRounding',
        'surchargeRules.0.name',
        'surchargeRules.0.over',
        'surchargeRules.0.fee',
        'surchargeRules.1.values.0',
        'surchargeRules.2.values.0',
        'fuel.0.from',
        'fuel.1.percent',
      ].sort(),
    );
    expect(fieldMessage(en, 'surchargeRules.2.values.0')).toContain('Packaging must be one of');
    const twice = {
      channelId,
      fuel: [
        { from: '2026-03-02', percent: '12' },
        { from: '2026-03-02', percent: '13' },
      ],
    };
    const en2 = await f.as('admin').post('/api/admin/channelPrice/rules/save', twice);
    expect(fieldMessage(en2, 'fuel.1.from')).toContain('A date appears twice');
    const zh = await f.as('admin').post('/api/admin/channelPrice/rules/save', twice, 'zh-CN');
    expect(fieldMessage(zh, 'fuel.1.from')).toContain('同一日期不能出现两次');
    expect((await rulesOf()).json().data.surchargeRules).toEqual([]);
  });

  it('keeps another tenant’s staff and customers out of a channel’s rules', async () => {
    expect((await rulesOf('admin', f.tenants[1])).json().code).toBe(404);
    const saved = await f.as('admin', f.tenants[1]).post('/api/admin/channelPrice/rules/save', { channelId });
    expect(saved.json().code).toBe(404);
    // The rules page is staff's: a customer's session has no such page.
    expect((await rulesOf('customer')).json().code).toBe(401);
  });

  it('rounds sides, charges a rule by zone with fuel from its date, and names the charge on the quote', async () => {
    const saved = await f.as('admin').ok('/api/admin/channelPrice/rules/save', {
      channelId,
      dimRounding: 'nearest',
      surchargeRules: [
        {
          name: 'Additional Handling - Length',
          trigger: 'longest',
          over: 48,
          fee: '28.00',
          feeByZone: [{ zone: '5', fee: '31.00' }],
          group: 'ahs',
          minBillable: 40,
        },
      ],
      fuel: [
        { from: day(-7), percent: '17.25' },
        { from: day(-1), percent: '18.5' },
        { from: day(6), percent: '19' },
      ],
    });
    expect(saved.fuelToday).toBe('18.50');
    expect(saved.fuel.map((r: { percent: string }) => r.percent)).toEqual(['17.25', '18.50', '19.00']);
    expect(await f.as('admin').ok('/api/admin/channelPrice/rules/info', { channelId })).toEqual(saved);

    // 48.4 in is measured 48: not over 48.
    const under = await quoteStandard('admin', box(48.4));
    expect(under.breakdown.parcels[0]?.sides).toEqual([48, 10, 8]);
    expect(under.breakdown.parcels[0]?.surcharges?.some((s) => s.name)).toBe(false);
    expect(under.breakdown.fuelPercent).toBe('18.50');

    // 48.5 in is measured 49: the rule, at its zone's fee, billing at least 40 lb.
    const over = await quoteStandard('admin', box(48.5));
    const fee = over.breakdown.zone === '5' ? '31.00' : '28.00';
    expect(over.breakdown.parcels[0]?.surcharges).toContainEqual({
      code: 'rule',
      name: 'Additional Handling - Length',
      fee,
    });
    expect(over.breakdown.parcels[0]?.billableWeight).toBe(40);
    // The customer sees the charge by its name at the customer's price, not the operator's cost.
    const customer = await quoteStandard('customer', box(48.5));
    const own = customer.levels.at(-1);
    const named = own?.surcharges.find((s) => s.name === 'Additional Handling - Length');
    expect(Number(named?.fee)).toBeGreaterThan(Number(fee));
    expect(customer.breakdown.fuelPercent).toBeUndefined();
    expect(customer.breakdown.parcels[0]?.freight).toBeUndefined();
  });

  it('takes the fuel of the ship date a quote names', async () => {
    const later = await quoteStandard('admin', { ...box(20), shipDate: day(6) });
    expect(later.breakdown.fuelPercent).toBe('19.00');
  });

  it('charges a packaging rule on the piece declared in it', async () => {
    await f.as('admin').ok('/api/admin/channelPrice/rules/save', {
      channelId,
      surchargeRules: [
        { name: 'Non-carton packaging', trigger: 'packaging', values: ['cylinder', 'bag'], fee: '25.00' },
      ],
    });
    const tube = await quoteStandard('admin', box(30, 6, 6, 5, { packaging: 'cylinder' }));
    expect(tube.breakdown.parcels[0]?.surcharges).toContainEqual({
      code: 'rule',
      name: 'Non-carton packaging',
      fee: '25.00',
    });
    const carton = await quoteStandard('admin', box(30, 6, 6, 5));
    expect(carton.breakdown.parcels[0]?.surcharges?.some((s) => s.name)).toBe(false);
    await f.as('admin').ok('/api/admin/channelPrice/rules/save', { channelId });
  });
});

describe('a sample price worked out step by step', () => {
  it('prices one parcel at cost as the staff quote does, with what each step read', async () => {
    await f.as('admin').ok('/api/admin/channelPrice/rules/save', {
      channelId,
      dimRounding: 'nearest',
      dimThreshold: 1728,
      fuel: [{ from: day(-3), percent: '12.5' }],
    });
    const parcel = { length: 12.4, width: 10.6, height: 8, weight: 4.2, packaging: 'box' };
    const sample = await f.as('admin').ok('/api/admin/channelPrice/sample', {
      channelId,
      originZip: '90001',
      destinationZip: '75201',
      parcel,
    });
    // 12.4 and 10.6 measure 12 and 11: 1,056 cubic inches, not above 1,728, bill the actual weight.
    expect(sample).toMatchObject({
      ok: true,
      unitSystem: 'lb_in',
      dimThreshold: 1728,
      dimRounding: 'nearest',
      volume: 1056,
      breakdown: { parcels: [{ sides: [12, 11, 8], dimWeight: 0, billableWeight: 5 }], fuelPercent: '12.50' },
    });
    const parts =
      Number(sample.freight) +
      sample.surcharges.reduce((t: number, s: { fee: string }) => t + Number(s.fee), 0);
    expect(Number(sample.breakdown.fuelBase)).toBeCloseTo(parts, 2);
    expect(Number(sample.total)).toBeCloseTo(parts + Number(sample.fuel), 2);
    // The same parcel quoted by staff costs the operator exactly the sample's total.
    const quoted = await quoteStandard('admin', { parcels: [{ quantity: 1, ...parcel }] });
    expect((quoted.levels[0] as unknown as { total: string }).total).toBe(sample.total);

    // Abroad on a domestic channel: refused with the reason a quote would give.
    const abroad = await f.as('admin').ok('/api/admin/channelPrice/sample', {
      channelId,
      originZip: '90001',
      destinationCountry: 'CA',
      destinationZip: 'M5H 1A1',
      parcel,
    });
    expect(abroad).toEqual({ ok: false, reason: 'wrong_scope' });
    // A bad origin is named; a customer and another tenant's staff reach no channel.
    const bad = await f.as('admin').post('/api/admin/channelPrice/sample', {
      channelId,
      originZip: '9001',
      destinationZip: '75201',
      parcel,
    });
    expect(badFields(bad)).toEqual(['originZip']);
    const body = { channelId, originZip: '90001', destinationZip: '75201', parcel };
    expect((await f.as('customer').post('/api/admin/channelPrice/sample', body)).json().code).not.toBe(200);
    await f.as('admin', f.tenant(1)).fail('/api/admin/channelPrice/sample', body, 404);
    await f.as('admin').ok('/api/admin/channelPrice/rules/save', { channelId });
  });
});

describe('price tables loaded ahead of their date', () => {
  const priceInfo = () => f.as('admin').ok('/api/admin/channelPrice/info', { channelId });
  type Table = { zones: string[]; brackets: { weight: number; prices: (string | null)[] }[] };
  const raised = (table: Table) => ({
    zones: table.zones,
    brackets: table.brackets.map((b) => ({
      weight: b.weight,
      prices: b.prices.map((p) => (p === null ? '' : (Number(p) + 1).toFixed(2))),
    })),
  });

  it('keeps a card dated after today beside the table in force, and quotes switch to it on its date', async () => {
    const before = await priceInfo();
    const next = day(3);
    const saved = await f.as('admin').ok('/api/admin/channelPrice/save', {
      channelId,
      ...raised(before),
      additional: before.additional
        ? {
            unit: before.additional.unit,
            prices: before.additional.prices.map((p: string | null) => p ?? ''),
          }
        : null,
      minimums: before.minimums.map((p: string | null) => p ?? ''),
      effectiveFrom: next,
    });
    // The table in force is untouched; the new one waits for its date.
    expect(saved.brackets).toEqual(before.brackets);
    expect(saved.scheduled).toEqual([
      { effectiveFrom: next, brackets: before.brackets.length, zones: before.zones },
    ]);

    const today = await quoteStandard('admin', box(10, 8, 6, 4));
    const onTheDay = await quoteStandard('admin', { ...box(10, 8, 6, 4), shipDate: next });
    expect(onTheDay.breakdown.pricesFrom).toBe(next);
    expect(today.breakdown.pricesFrom).toBeUndefined();
    expect(Number(onTheDay.breakdown.parcels[0]?.freight)).toBe(
      Number(today.breakdown.parcels[0]?.freight) + 1,
    );
  });

  it('removes a waiting card; one that is not there is not found', async () => {
    const next = day(3);
    const removed = await f.as('admin').ok('/api/admin/channelPrice/scheduled/delete', {
      channelId,
      effectiveFrom: next,
    });
    expect(removed.scheduled).toEqual([]);
    const again = await f
      .as('admin')
      .post('/api/admin/channelPrice/scheduled/delete', { channelId, effectiveFrom: next });
    expect(again.json()).toMatchObject({ code: 404, msg: 'No price table is waiting for that date' });
    const later = await quoteStandard('admin', { ...box(10, 8, 6, 4), shipDate: next });
    expect(later.breakdown.pricesFrom).toBeUndefined();
  });

  it('makes a card dated today the table in force at once', async () => {
    const before = await priceInfo();
    const saved = await f.as('admin').ok('/api/admin/channelPrice/save', {
      channelId,
      ...raised(before),
      additional: null,
      minimums: [],
      effectiveFrom: day(0),
    });
    expect(saved.scheduled).toEqual([]);
    expect(saved.brackets[0].prices[0]).toBe((Number(before.brackets[0].prices[0]) + 1).toFixed(2));
  });

  it('imports a workbook for a later date, and refuses one that would change the delivery areas early', async () => {
    const exported = await f.ctx.app.inject({
      method: 'GET',
      url: `/api/admin/channelPrice/export?channelId=${channelId}`,
      headers: { host: f.t.host, accesstoken: f.as('admin').token ?? '', 'accept-language': 'en-US' },
    });
    const upload = (content: Buffer, effectiveFrom: string) =>
      postMultipart(
        f.ctx,
        `/api/admin/channelPrice/import?channelId=${channelId}&effectiveFrom=${effectiveFrom}`,
        [{ name: 'file', filename: 'prices.xlsx', contentType: XLSX, content }],
        { host: f.t.host, token: f.as('admin').token, language: 'en-US' },
      );
    const next = day(10);
    const ok = await upload(exported.rawPayload, next);
    expect(ok.json(), JSON.stringify(ok.json().data)).toMatchObject({
      code: 200,
      msg: expect.stringContaining(`in force from ${next}`),
    });
    expect((await priceInfo()).scheduled.map((s: { effectiveFrom: string }) => s.effectiveFrom)).toEqual([
      next,
    ]);

    const prices = await sheetRows(exported.rawPayload, 'Prices');
    const areas = await sheetRows(exported.rawPayload, 'Delivery areas');
    const changed = await workbookBytes({
      Prices: prices,
      'Delivery areas': [...areas, ['Remote', 9.5, '99501']],
    });
    const refused = await upload(changed, day(11));
    expect(refused.json().code).toBe(400);
    expect(JSON.stringify(refused.json().data.errors)).toContain('Delivery-area lists have no date');
    expect((await priceInfo()).scheduled.map((s: { effectiveFrom: string }) => s.effectiveFrom)).toEqual([
      next,
    ]);
    await f.as('admin').ok('/api/admin/channelPrice/scheduled/delete', { channelId, effectiveFrom: next });
  });
});

describe('billing rules and cubic tiers in the price workbook', () => {
  const exportPrices = async () =>
    (
      await f.ctx.app.inject({
        method: 'GET',
        url: `/api/admin/channelPrice/export?channelId=${channelId}`,
        headers: { host: f.t.host, accesstoken: f.as('admin').token ?? '', 'accept-language': 'en-US' },
      })
    ).rawPayload;
  const importPrices = (content: Buffer, effectiveFrom = '') =>
    postMultipart(
      f.ctx,
      `/api/admin/channelPrice/import?channelId=${channelId}${effectiveFrom ? `&effectiveFrom=${effectiveFrom}` : ''}`,
      [{ name: 'file', filename: 'prices.xlsx', contentType: XLSX, content }],
      { host: f.t.host, token: f.as('admin').token, language: 'en-US' },
    );
  type Info = {
    zones: string[];
    brackets: { weight: number; prices: (string | null)[] }[];
    additional: { unit: number; prices: (string | null)[] } | null;
    minimums: (string | null)[];
  };
  /** Saves the channel's table as `before` had it, with these cubic tiers. */
  const saveTable = (before: Info, cubic: { tier: number; prices: string[] }[] = []) =>
    f.as('admin').ok('/api/admin/channelPrice/save', {
      channelId,
      zones: before.zones,
      brackets: before.brackets.map((b) => ({ weight: b.weight, prices: b.prices.map((p) => p ?? '') })),
      additional: before.additional
        ? { unit: before.additional.unit, prices: before.additional.prices.map((p) => p ?? '') }
        : null,
      minimums: before.minimums.map((p) => p ?? ''),
      cubic,
    });
  const rules = {
    dimRounding: 'nearest',
    dimThreshold: 1728,
    underOneUnit: { step: 0.0625 },
    beyondLastWeight: 'prorate',
    cubic: { roundDown: 0.25, maxWeight: 20, maxLongest: 18 },
    surchargeRules: [
      {
        name: 'Additional Handling - Length',
        trigger: 'longest',
        over: 48,
        fee: '28.00',
        feeByZone: [{ zone: '5', fee: '31.00' }],
        group: 'ahs',
        minBillable: 40,
      },
      { name: 'Remote ZIPs', trigger: 'zip5', values: ['99501', '96701'], fee: '15.50', fuel: false },
    ],
    fuel: [
      { from: '2026-01-05', percent: '18.25' },
      { from: '2026-01-12', percent: '18.5' },
    ],
  };

  it('exports a channel’s rules and cubic tiers and imports them back exactly; a bad cell is named by sheet and row', async () => {
    const before = await f.as('admin').ok('/api/admin/channelPrice/info', { channelId });
    const zones = before.zones as string[];
    const cubic = [0.1, 0.2].map((tier, i) => ({
      tier,
      prices: zones.map((_, z) => (8 + i + z / 10).toFixed(2)),
    }));
    await saveTable(before, cubic);
    const saved = await f.as('admin').ok('/api/admin/channelPrice/rules/save', { channelId, ...rules });
    const file = await exportPrices();

    const prices = await sheetRows(file, 'Prices');
    expect(prices.find((r) => r[0] === 'Cubic 0.1')).toEqual([
      'Cubic 0.1',
      ...(cubic[0]?.prices.map(Number) ?? []),
    ]);
    const settings = await sheetRows(file, 'Billing rules');
    expect(settings).toContainEqual(['Side rounding', 'nearest']);
    expect(settings).toContainEqual(['Cubic tiers: Longest side up to', 18]);
    const surcharges = await sheetRows(file, 'Surcharge rules');
    expect(surcharges[0]).toContain('Zone 5');
    expect(surcharges[1]?.[0]).toBe('Additional Handling - Length');
    expect(surcharges[2]).toContain('99501, 96701');
    expect(await sheetRows(file, 'Fuel')).toContainEqual(['2026-01-12', 18.5]);

    // Rules reset, then the file brings them back as they were.
    await f.as('admin').ok('/api/admin/channelPrice/rules/save', { channelId });
    const imported = await importPrices(file);
    expect(imported.json(), JSON.stringify(imported.json().data)).toMatchObject({ code: 200 });
    expect(await rulesOf().then((r) => r.json().data)).toEqual(saved);
    expect((await f.as('admin').ok('/api/admin/channelPrice/info', { channelId })).cubic).toEqual(cubic);

    // A trigger no rule has and a setting that is no number: named on their sheets' rows; nothing changes.
    const sheets = {
      Prices: prices,
      'Delivery areas': await sheetRows(file, 'Delivery areas'),
      'Billing rules': settings.map((r) => (r[0] === 'Dimensional weight above' ? [r[0], 'lots'] : r)),
      'Surcharge rules': surcharges.map((r, i) => (i === 2 ? ['Remote ZIPs', 'island', ...r.slice(2)] : r)),
      Fuel: await sheetRows(file, 'Fuel'),
    };
    const refused = await importPrices(await workbookBytes(sheets));
    expect(refused.json().code).toBe(400);
    const errors = refused.json().data.errors as { sheet: string; row: number; message: string }[];
    expect(errors).toContainEqual(
      expect.objectContaining({
        sheet: 'Billing rules',
        row: 3,
        message: expect.stringContaining('Dimensional weight above'),
      }),
    );
    await f.as('admin').ok('/api/admin/channelPrice/rules/save', { channelId });
    const second = await importPrices(await workbookBytes({ ...sheets, 'Billing rules': settings }));
    expect(second.json().data.errors).toContainEqual(
      expect.objectContaining({ sheet: 'Surcharge rules', row: 3 }),
    );
    expect(await rulesOf().then((r) => r.json().data.surchargeRules)).toEqual([]);

    // Rules have no date: a card loaded ahead may not change them, and says so.
    const ahead = await importPrices(file, day(9));
    expect(ahead.json().code).toBe(400);
    expect(JSON.stringify(ahead.json().data.errors)).toContain('Billing rules (fuel aside) have no date');
    await saveTable(before);
  });

  it('shows example rules in the template on sheets the import never reads', async () => {
    const res = await f.ctx.app.inject({
      method: 'GET',
      url: '/api/admin/channelPrice/template',
      headers: { host: f.t.host, accesstoken: f.as('admin').token ?? '', 'accept-language': 'en-US' },
    });
    const sheets = await workbookSheets(res.rawPayload);
    expect([...sheets.keys()]).toEqual(
      expect.arrayContaining(['Example Billing rules', 'Example Surcharge rules', 'Example Fuel']),
    );
    expect([...sheets.keys()]).not.toContain('Billing rules');
  });
});

describe('zone charts with five-digit exceptions', () => {
  const importZoneFile = async (file: (string | number | null)[][]) =>
    postMultipart(
      f.ctx,
      `/api/admin/expressZone/import?channelId=${channelId}`,
      [
        {
          name: 'file',
          filename: 'zones.xlsx',
          contentType: XLSX,
          content: await workbookBytes({ Zones: file }),
        },
      ],
      { host: f.t.host, token: f.as('admin').token, language: 'en-US' },
    );

  it('imports a ZIP5 row that wins over its ZIP3 range, finds it by either, and quotes by it', async () => {
    const exported = await f.ctx.app.inject({
      method: 'GET',
      url: `/api/admin/expressZone/export?channelId=${channelId}`,
      headers: { host: f.t.host, accesstoken: f.as('admin').token ?? '', 'accept-language': 'en-US' },
    });
    const rows = await sheetRows(exported.rawPayload, 'Zones');
    const header = rows[0] ?? [];
    const before = await quoteStandard('admin', box(10, 8, 6, 4));
    const other = before.breakdown.zone === '8' ? '2' : '8';
    // Numbers as a spreadsheet keeps them: 75201 read back as the ZIP5 it is.
    const file = [header, ...rows.slice(1), ['900', '961', 75201, 75201, null, other]];
    const imported = await importZoneFile(file);
    expect(imported.json().code).toBe(200);
    const found = (keyword: string) =>
      f.as('admin').ok('/api/admin/expressZone/list', { channelId, page: 1, limit: 100, keyword });
    expect((await found('75201')).list.map((r: { destFrom: string }) => r.destFrom)).toContain('75201');
    expect((await found('752')).list.map((r: { destFrom: string }) => r.destFrom)).toContain('75201');

    expect((await quoteStandard('admin', box(10, 8, 6, 4))).breakdown.zone).toBe(other);
    const neighbour = await quoteStandard('admin', {
      ...box(10, 8, 6, 4),
      recipient: { ...parcelShipment().recipient, zipcode: '75202' },
    });
    expect(neighbour.breakdown.zone).toBe(before.breakdown.zone);
  });

  it('refuses a range whose ends differ in length, naming the field', async () => {
    const file = [
      [
        'Origin ZIP3 from',
        'Origin ZIP3 to',
        'Destination ZIP3 from',
        'Destination ZIP3 to',
        'Country',
        'Zone',
      ],
      ['900', '961', '752', '75299', null, '5'],
    ];
    const res = await importZoneFile(file);
    expect(res.json().data.errors).toEqual([
      {
        sheet: 'Zones',
        row: 2,
        field: 'destTo',
        message: 'Destination ZIP3 to: Both ends of the range need the same number of digits',
      },
    ]);
  });
});
