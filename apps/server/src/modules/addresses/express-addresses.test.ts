import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/fixture.ts';
import { addUser, badFields, call, makePng, postMultipart, signIn } from '../../../test/helpers.ts';
import { workbookBytes } from '../../../test/workbooks.ts';
import { createUser } from '../auth/service.ts';
import { roles } from '../roles/schema.ts';
import { assignRoles, setRoleGrants } from '../roles/service.ts';

const f = useTestApp({
  tenants: 2,
  signIn: [
    ['admin', 'customer', 'agent', 'direct'],
    ['admin', 'customer'],
  ],
  language: 'en-US',
});

const address = (extra: Record<string, unknown> = {}) => ({
  kind: 'sender',
  name: 'Jane Doe',
  company: 'Acme Warehouse',
  address1: '100 Main St',
  address2: 'Dock 4',
  zipcode: '92551',
  city: 'Moreno Valley',
  state: 'CA',
  phone: '9095551234',
  ...extra,
});
const abroad = (extra: Record<string, unknown> = {}) => ({
  kind: 'recipient',
  name: 'Lee Chan',
  address1: '1 King St W',
  zipcode: 'M5H 1A1',
  city: 'Toronto',
  state: 'ON',
  country: 'CA',
  phone: '4165550100',
  ...extra,
});

/** Sessions of users made here, beside the demo ones. */
const made: Record<string, string> = {};
const listOf = async (who: 'admin' | 'customer' | 'agent' | 'direct', body: Record<string, unknown> = {}) =>
  (await f.as(who).post('/api/express/address/list', { page: 1, limit: 100, ...body })).json().data;

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const importFile = (token: string | undefined, content: Buffer, query = '', tenant = f.t) =>
  postMultipart(
    f.ctx,
    `/api/express/address/import${query}`,
    [{ name: 'file', filename: 'addresses.xlsx', contentType: XLSX, content }],
    { host: tenant.host, token, language: 'en-US' },
  );

async function sheetOf(body: Buffer, index = 0) {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(body as unknown as ArrayBuffer);
  return book.worksheets[index] as ExcelJS.Worksheet;
}
const rowValues = (sheet: ExcelJS.Worksheet, n: number) =>
  (sheet.getRow(n).values as unknown[]).slice(1).map((v) => (v === undefined || v === null ? '' : String(v)));

/** An xlsx file with a header row and rows, as a person fills the template in. */
const workbook = (header: string[], rows: (string | number)[][]) =>
  workbookBytes({ Addresses: [header, ...rows] });
const HEADER = [
  'Type',
  'Name',
  'Company',
  'Address 1',
  'City',
  'State',
  'ZIP code',
  'Country',
  'Phone',
  'Residential',
];
const goodRow = (n: number, kind = 'Sender'): (string | number)[] => [
  kind,
  `Sam Lee ${n}`,
  `Store ${n}`,
  `${n} Oak Ave`,
  'Florence',
  'NJ',
  // A ZIP typed into a number cell: its leading zero comes back.
  8518,
  'US',
  '6095550100',
  'no',
];

beforeAll(async () => {
  // A user with no roles, and one who may open the page but press none of its buttons.
  const nobody = await addUser(f.ctx, f.t, { role: 'none', identity: 'customer' });
  made.nobody = await signIn(f.ctx, f.t, nobody.email);
  const [viewer] = await f.db
    .insert(roles)
    .values({ tenantId: f.t.tenant.id, name: 'Address viewer', nameEn: 'Address viewer' })
    .returning({ id: roles.id });
  await setRoleGrants(f.db, f.t.tenant.id, viewer?.id as number, [51], []);
  const email = `viewer@${f.t.tenant.code}.example.com`;
  const user = await createUser(f.db, f.t.tenant.id, {
    email,
    password: f.t.password,
    identity: 'customer',
    organisationId: await f.orgOf('customer'),
    name: 'Viewer',
  });
  await assignRoles(f.db, f.t.tenant.id, user.id, [viewer?.id as number]);
  made.viewer = await signIn(f.ctx, f.t, email);
});

describe('the express address book', () => {
  it('saves senders, recipients and return addresses, and finds them by kind, country, state and keyword, a page at a time', async () => {
    const customer = f.as('customer');
    const { id: sender } = await customer.ok('/api/express/address/save', address({ isDefault: true }));
    const { id: recipient } = await customer.ok('/api/express/address/save', abroad());
    const { id: back } = await customer.ok(
      '/api/express/address/save',
      address({ kind: 'return', name: 'Returns Desk', company: 'Acme Returns' }),
    );
    const all = await listOf('customer');
    expect(all.total).toBe(3);
    expect(all.list.find((a: { id: number }) => a.id === sender)).toMatchObject({
      kind: 'sender',
      name: 'Jane Doe',
      company: 'Acme Warehouse',
      country: 'US',
      dialCode: '1',
      residential: false,
      isDefault: true,
      organisationName: 'Acme Imports',
    });
    // The recipient abroad keeps its postcode and province as written.
    expect(all.list.find((a: { id: number }) => a.id === recipient)).toMatchObject({
      zipcode: 'M5H 1A1',
      state: 'ON',
      country: 'CA',
    });
    const ids = async (body: Record<string, unknown>) =>
      (await listOf('customer', body)).list.map((a: { id: number }) => a.id);
    expect(await ids({ kind: 'recipient' })).toEqual([recipient]);
    expect(await ids({ kind: 'return' })).toEqual([back]);
    expect(await ids({ country: 'ca' })).toEqual([recipient]);
    expect((await ids({ state: 'CA' })).sort()).toEqual([sender, back].sort());
    expect(await ids({ keyword: 'returns' })).toEqual([back]);
    expect(await ids({ keyword: 'toronto' })).toEqual([recipient]);
    // Pages of ten: the default first, then the newest; eleven recipients more make a second page.
    const extra: number[] = [];
    for (let n = 0; n < 11; n++)
      extra.push((await customer.ok('/api/express/address/save', abroad({ name: `Paged ${n}` }))).id);
    const first = await listOf('customer', { limit: 10, page: 1 });
    const second = await listOf('customer', { limit: 10, page: 2 });
    expect(first.total).toBe(14);
    expect(first.list).toHaveLength(10);
    expect([...first.list, ...second.list].map((a: { id: number }) => a.id)).toEqual([
      sender,
      ...[...extra].reverse(),
      back,
      recipient,
    ]);
    for (const id of extra) await customer.ok('/api/express/address/delete', { id });

    await customer.ok(
      '/api/express/address/save',
      abroad({ id: recipient, city: 'Ottawa', zipcode: 'K1A 0B1' }),
    );
    expect((await listOf('customer', { kind: 'recipient' })).list[0]).toMatchObject({ city: 'Ottawa' });
    expect((await customer.post('/api/express/address/delete', { id: recipient })).json().code).toBe(200);
    expect(await ids({ kind: 'recipient' })).toEqual([]);
  });

  it('keeps one default per kind and organisation', async () => {
    const customer = f.as('customer');
    const { id: other } = await customer.ok('/api/express/address/save', address({ name: 'Second Sender' }));
    await customer.ok('/api/express/address/setDefault', { id: other });
    const senders = (await listOf('customer', { kind: 'sender' })).list;
    expect(
      senders.filter((a: { isDefault: boolean }) => a.isDefault).map((a: { id: number }) => a.id),
    ).toEqual([other]);
    // A default return address is another kind's mark: the sender keeps its own.
    const { id: back } = await customer.ok(
      '/api/express/address/save',
      address({ kind: 'return', name: 'Default Returns', isDefault: true }),
    );
    const defaults = (await listOf('customer')).list.filter((a: { isDefault: boolean }) => a.isDefault);
    expect(defaults.map((a: { id: number }) => a.id).sort()).toEqual([other, back].sort());
    await customer.ok('/api/express/address/setDefault', { id: other, isDefault: false });
    expect(
      (await listOf('customer', { kind: 'sender' })).list.some((a: { isDefault: boolean }) => a.isDefault),
    ).toBe(false);
  });

  it('checks a US address’s ZIP, state and city on save, and keeps the lookup’s spelling', async () => {
    const customer = f.as('customer');
    const state = await customer.post('/api/express/address/save', address({ state: 'NV' }));
    expect(badFields(state)).toEqual(['state']);
    expect(state.json().msg).toContain('CA');
    const city = await customer.post('/api/express/address/save', address({ city: 'Boston' }));
    expect(badFields(city)).toEqual(['city']);
    expect(city.json().msg).toContain('Moreno Valley');
    expect(
      badFields(await customer.post('/api/express/address/save', address({ zipcode: '00000' }))),
    ).toEqual(['zipcode']);
    const zh = await customer.in('zh-CN').post('/api/express/address/save', address({ state: 'NV' }));
    expect(zh.json().msg).toContain('邮编 92551');
    const { id } = await customer.ok(
      '/api/express/address/save',
      address({ name: 'Spelled', city: 'moreno valley', state: 'ca' }),
    );
    expect((await listOf('customer', { keyword: 'Spelled' })).list[0]).toMatchObject({
      id,
      city: 'Moreno Valley',
      state: 'CA',
    });
  });

  it.each([
    ['kind', { kind: 'pickup' }],
    ['name', { name: '' }],
    ['address1', { address1: '仓库' }],
    ['phone', { phone: '555-1234' }],
    ['email', { email: 'not-an-email' }],
    ['country', { country: 'Canada' }],
    ['zipcode', { zipcode: '9255' }],
  ])('refuses a bad %s with 400 naming it', async (field, extra) => {
    const res = await f.as('customer').post('/api/express/address/save', address(extra));
    expect(res.json().code).toBe(400);
    expect(badFields(res)).toEqual([field]);
  });

  it('says 300 without a session, 401 without the page, and 401 for a button the role does not grant', async () => {
    const anonymous = await call(f.ctx, 'POST', '/api/express/address/list', {}, { host: f.t.host });
    expect(anonymous.json().code).toBe(300);
    const nobody = f.withToken(made.nobody);
    expect((await nobody.post('/api/express/address/list', {})).json().code).toBe(401);
    expect((await nobody.post('/api/express/address/save', address())).json().code).toBe(401);
    const viewer = f.withToken(made.viewer);
    const seen = (await viewer.post('/api/express/address/list', { page: 1, limit: 10 })).json();
    expect(seen.code).toBe(200);
    expect(seen.data.total).toBeGreaterThan(0);
    const id = seen.data.list[0].id;
    const before = seen.data.total;
    expect((await viewer.post('/api/express/address/save', address())).json().code).toBe(401);
    expect((await viewer.post('/api/express/address/delete', { id })).json().code).toBe(401);
    expect((await viewer.post('/api/express/address/setDefault', { id })).json().code).toBe(401);
    const file = await workbook(HEADER, [goodRow(1)]);
    expect((await importFile(made.viewer, file)).json().code).toBe(401);
    expect((await listOf('customer')).total).toBe(before);
  });

  it('keeps each organisation to its own book, a parent to those below it, and tenants apart', async () => {
    const mine = (await listOf('customer')).list[0].id as number;
    // The direct customer sees none of the customer's book and may not touch it.
    expect((await listOf('direct')).total).toBe(0);
    for (const url of ['/api/express/address/delete', '/api/express/address/setDefault'])
      expect((await f.as('direct').post(url, { id: mine })).json().code).toBe(404);
    expect((await f.as('direct').post('/api/express/address/save', address({ id: mine }))).json().code).toBe(
      404,
    );
    // Its agent sees it; staff see the whole tenant and must say whose book a new entry goes to.
    expect((await listOf('agent')).list.map((a: { id: number }) => a.id)).toContain(mine);
    expect((await listOf('admin')).list.map((a: { id: number }) => a.id)).toContain(mine);
    expect(badFields(await f.as('admin').post('/api/express/address/save', address()))).toEqual([
      'organisationId',
    ]);
    const direct = await f.orgOf('direct');
    await f
      .as('admin')
      .ok('/api/express/address/save', address({ organisationId: direct, name: 'For Direct' }));
    expect((await listOf('direct')).list.map((a: { name: string }) => a.name)).toEqual(['For Direct']);
    // A customer may not write into another organisation's book by naming it.
    const customerOrg = await f.orgOf('customer');
    expect(
      badFields(
        await f.as('direct').post('/api/express/address/save', address({ organisationId: customerOrg })),
      ),
    ).toEqual(['organisationId']);
    // Another tenant's staff and customers see and touch nothing of this tenant.
    const other = f.tenant(1);
    const theirs = (
      await f.as('admin', other).post('/api/express/address/list', { page: 1, limit: 10 })
    ).json();
    expect(theirs.data.total).toBe(0);
    for (const url of ['/api/express/address/delete', '/api/express/address/setDefault'])
      expect((await f.as('admin', other).post(url, { id: mine })).json().code).toBe(404);
    expect(
      (await f.as('customer', other).post('/api/express/address/save', address({ id: mine }))).json().code,
    ).toBe(404);
    expect((await listOf('customer')).list.map((a: { id: number }) => a.id)).toContain(mine);
  });
});

describe('the express pages pick from the book', () => {
  it('offers the senders as ship-from options with the SPEC’s fields, the recipients on request, and the return addresses', async () => {
    const customer = f.as('customer');
    const senders = (await listOf('customer', { kind: 'sender' })).list;
    const options = (await customer.get('/api/express/address/listOptions')).json();
    expect(options.code).toBe(200);
    expect(options.data.list.map((o: { id: number }) => o.id)).toEqual(
      senders.map((a: { id: number }) => a.id),
    );
    const { id } = await customer.ok(
      '/api/express/address/save',
      address({ name: 'Pat Lee', company: 'Option Co', isDefault: true }),
    );
    const [first] = (await customer.get('/api/express/address/listOptions')).json().data.list;
    expect(first).toEqual({
      id,
      address_code: `A${id}`,
      name: 'Option Co',
      detail: '100 Main St, Dock 4',
      country: 'US',
      province_code: 'CA',
      city: 'Moreno Valley',
      zipcode: '92551',
      contact: 'Pat Lee',
      company: 'Option Co',
      dialCode: '1',
      phone: '9095551234',
      email: '',
      address1: '100 Main St',
      address2: 'Dock 4',
      residential: false,
      isDefault: true,
    });
    const { id: recipient } = await customer.ok(
      '/api/express/address/save',
      abroad({ name: 'Picked Recipient' }),
    );
    const recipients = (await customer.get('/api/express/address/listOptions?kind=recipient')).json().data
      .list;
    expect(recipients.map((o: { id: number }) => o.id)).toEqual([recipient]);
    const returns = (await customer.get('/api/express/address/returns')).json().data.list;
    const returnIds = (await listOf('customer', { kind: 'return' })).list.map((a: { id: number }) => a.id);
    expect(returns.map((o: { id: number }) => o.id)).toEqual(returnIds);
    expect(returns.length).toBeGreaterThan(0);

    // A parent names the customer whose book it reads; staff without a customer get none; another
    // tenant may not name this one's customer.
    const customerOrg = await f.orgOf('customer');
    const agentView = (
      await f.as('agent').get(`/api/express/address/listOptions?organisationId=${customerOrg}`)
    ).json();
    expect(agentView.data.list[0].id).toBe(id);
    expect((await f.as('admin').get('/api/express/address/listOptions')).json().data.list).toEqual([]);
    const stranger = (
      await f
        .as('customer', f.tenant(1))
        .get(`/api/express/address/listOptions?organisationId=${customerOrg}`)
    ).json();
    expect(stranger).toMatchObject({ code: 400, data: { fields: [{ field: 'organisationId' }] } });
    // The truck book is its own: its entries are no express options.
    await customer.ok('/api/admin/address/save', {
      name: 'Truck Only Dock',
      address1: '9 Truck Rd',
      zipcode: '92551',
      city: 'Moreno Valley',
      state: 'CA',
      contact: 'Dock Hand',
      phone: '9095550000',
    });
    const names = (await customer.get('/api/express/address/listOptions'))
      .json()
      .data.list.map((o: { name: string }) => o.name);
    expect(names).not.toContain('Truck Only Dock');
  });

  it('finds FBA warehouses by keyword', async () => {
    const res = (await f.as('customer').get('/api/express/address/getFba?keyword=ONT8')).json();
    expect(res.data).toEqual([expect.objectContaining({ code: 'ONT8', zipcode: '92551', state: 'CA' })]);
  });

  it('checks that a US ZIP, state and city agree, naming the field that does not', async () => {
    const customer = f.as('customer');
    const check = (body: Record<string, unknown>) => customer.post('/api/express/address/check', body);
    expect((await check({ zipcode: '92551', city: 'moreno valley', state: 'ca' })).json()).toMatchObject({
      code: 200,
      data: { zipcode: '92551', city: 'Moreno Valley', state: 'CA', country: 'US', confirmed: true },
    });
    const state = (await check({ zipcode: '92551', city: 'Moreno Valley', state: 'NV' })).json();
    expect(state).toMatchObject({ code: 400, data: { fields: [{ field: 'state' }] } });
    expect(state.msg).toContain('CA');
    const city = (await check({ zipcode: '10001', city: 'Boston', state: 'NY' })).json();
    expect(city).toMatchObject({ code: 400, data: { fields: [{ field: 'city' }] } });
    expect(city.msg).toContain('New York');
    expect((await check({ zipcode: '00000', city: 'Nowhere', state: 'CA' })).json()).toMatchObject({
      code: 400,
      data: { fields: [{ field: 'zipcode' }] },
    });
    const zh = (
      await customer
        .in('zh-CN')
        .post('/api/express/address/check', { zipcode: '92551', city: 'Moreno Valley', state: 'NV' })
    ).json();
    expect(zh.msg).toContain('邮编');
    // Abroad the address is taken as written, not confirmed.
    expect(
      (await check({ zipcode: 'M5V 2T6', city: 'Toronto', state: 'ON', country: 'CA' })).json().data,
    ).toMatchObject({ confirmed: false, country: 'CA' });
    expect(
      (await f.anonymous().post('/api/express/address/check', { zipcode: '92551', city: 'x' })).json().code,
    ).toBe(300);
  });
});

describe('import and export', () => {
  it('hands out the template in the caller’s language, with an example row the import skips', async () => {
    const en = await f.as('direct').post('/api/express/address/template', {});
    expect(en.headers['content-type']).toContain('spreadsheetml');
    const enSheet = await sheetOf(en.rawPayload);
    expect(rowValues(enSheet, 1).slice(0, 3)).toEqual(['Type', 'Name', 'Company']);
    expect(rowValues(enSheet, 2)[0]).toBe('Sender');
    const zh = await f.as('direct').in('zh-CN').post('/api/express/address/template', {});
    const zhSheet = await sheetOf(zh.rawPayload);
    expect(rowValues(zhSheet, 1).slice(0, 3)).toEqual(['地址类型', '姓名', '公司']);
    expect(rowValues(zhSheet, 2)[0]).toBe('发件地址');
    expect((await sheetOf(zh.rawPayload, 1)).name).toBe('填写说明');
    // The untouched template has no address to import.
    const empty = await importFile(f.as('direct').token, zh.rawPayload);
    expect(badFields(empty)).toEqual(['file']);
    // Filled in below its example row, in Chinese, it imports the new row only.
    // Type, name, company, address 1 and 2, city, state, ZIP, country, dial code, phone, e-mail, residential.
    zhSheet.getRow(3).values = [
      '收件地址',
      'Kim Park',
      '',
      '5 Elm St',
      '',
      'New York',
      'NY',
      '10001',
      'US',
      '1',
      '2125550100',
      '',
      '是',
    ];
    const filled = Buffer.from(await (zhSheet.workbook as ExcelJS.Workbook).xlsx.writeBuffer());
    const before = (await listOf('direct')).total;
    expect((await importFile(f.as('direct').token, filled)).json()).toMatchObject({
      code: 200,
      data: { imported: 1 },
    });
    expect((await listOf('direct', { keyword: 'Kim Park' })).list[0]).toMatchObject({
      kind: 'recipient',
      residential: true,
      zipcode: '10001',
    });
    expect((await listOf('direct')).total).toBe(before + 1);
  });

  it('imports every row of a good file, in either language’s type names', async () => {
    const before = (await listOf('direct')).total;
    const res = await importFile(
      f.as('direct').token,
      await workbook(HEADER, [goodRow(1), goodRow(2, '收件地址'), goodRow(3, 'return address')]),
    );
    expect(res.json()).toMatchObject({ code: 200, data: { imported: 3 }, msg: '3 addresses imported' });
    const page = await listOf('direct', { keyword: 'Store' });
    expect(page.total).toBe(3);
    expect((await listOf('direct')).total).toBe(before + 3);
    expect(page.list.map((a: { kind: string }) => a.kind).sort()).toEqual(['recipient', 'return', 'sender']);
    expect(page.list[0]).toMatchObject({ zipcode: '08518', state: 'NJ', city: 'Florence', country: 'US' });
  });

  it('imports nothing from a file with bad rows, naming each row and its column', async () => {
    const before = (await listOf('direct')).total;
    const change = (row: (string | number)[], column: number, value: string) =>
      row.map((v, i) => (i === column ? value : v));
    const rows = [
      goodRow(4),
      change(goodRow(5), 5, 'CA'),
      goodRow(6),
      change(goodRow(7), 0, 'Pickup'),
      change(goodRow(8), 8, '12'),
      change(goodRow(9), 4, 'Trenton'),
    ];
    const res = await importFile(f.as('direct').token, await workbook(HEADER, rows));
    expect(res.statusCode).toBe(400);
    const rowErrors = res.json().data.rows;
    expect(Object.keys(rowErrors)).toEqual(['3', '5', '6', '7']);
    expect(rowErrors['3']).toContain('State');
    expect(rowErrors['3']).toContain('NJ');
    expect(rowErrors['5']).toContain('Type');
    expect(rowErrors['6']).toContain('Phone');
    expect(rowErrors['7']).toContain('City');
    expect(rowErrors['7']).toContain('Florence');
    expect((await listOf('direct')).total).toBe(before);
    // In Chinese, the columns as the Chinese template names them.
    const zh = await postMultipart(
      f.ctx,
      '/api/express/address/import',
      [{ name: 'file', filename: 'a.xlsx', contentType: XLSX, content: await workbook(HEADER, rows) }],
      { host: f.t.host, token: f.as('direct').token, language: 'zh-CN' },
    );
    expect(zh.json().data.rows['3']).toContain('州/省');
    expect(zh.json().data.rows['6']).toContain('电话');
  });

  it('refuses a file that is not xlsx, lacks the template’s columns, and asks staff whose book', async () => {
    const token = f.as('direct').token;
    expect(badFields(await importFile(token, makePng()))).toEqual(['file']);
    expect(badFields(await importFile(token, Buffer.from('kind,name\nSender,A\n')))).toEqual(['file']);
    const wrong = await importFile(token, await workbook(['Foo', 'Bar'], [['a', 'b']]));
    expect(badFields(wrong)).toEqual(['file']);
    expect(wrong.json().msg).toContain('template');
    const file = await workbook(HEADER, [goodRow(10)]);
    expect(badFields(await importFile(f.as('admin').token, file))).toEqual(['organisationId']);
    const direct = await f.orgOf('direct');
    expect((await importFile(f.as('admin').token, file, `?organisationId=${direct}`)).json().data).toEqual({
      imported: 1,
    });
    // Another tenant's staff may not name this tenant's organisation.
    const other = f.tenant(1);
    expect(
      badFields(await importFile(f.as('admin', other).token, file, `?organisationId=${direct}`, other)),
    ).toEqual(['organisationId']);
  });

  it('exports the book of the list’s filters in the caller’s language, as a file the import takes again', async () => {
    const exported = await f.as('direct').post('/api/express/address/export', { keyword: 'Store' });
    expect(exported.headers['content-type']).toContain('spreadsheetml');
    const sheet = await sheetOf(exported.rawPayload);
    const stores = (await listOf('direct', { keyword: 'Store' })).total;
    expect(sheet.actualRowCount).toBe(stores + 1);
    expect(rowValues(sheet, 1).slice(0, 2)).toEqual(['Type', 'Name']);
    const zh = await sheetOf(
      (await f.as('direct').in('zh-CN').post('/api/express/address/export', { kind: 'recipient' }))
        .rawPayload,
    );
    expect(rowValues(zh, 1)[0]).toBe('地址类型');
    expect(rowValues(zh, 2)[0]).toBe('收件地址');
    // Another organisation's entries are not in it.
    expect(
      Array.from({ length: sheet.actualRowCount }, (_, i) => rowValues(sheet, i + 1).join('|')).join('\n'),
    ).not.toContain('Acme Warehouse');
    const before = (await listOf('direct')).total;
    expect((await importFile(f.as('direct').token, exported.rawPayload)).json().data).toEqual({
      imported: stores,
    });
    expect((await listOf('direct')).total).toBe(before + stores);
  });
});
