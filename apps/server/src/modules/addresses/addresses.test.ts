import { MAX_IMPORT_ROWS } from '@freight/contracts/addresses';
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/fixture.ts';
import { addUser, badFields, call, makePng, postMultipart, signIn, type Who } from '../../../test/helpers.ts';
import { workbookBytes } from '../../../test/workbooks.ts';
import { createUser } from '../auth/service.ts';
import { createOrganisation } from '../customers/service.ts';
import { assignRoles } from '../roles/service.ts';

const f = useTestApp({
  tenants: 2,
  signIn: [['admin', 'agent', 'customer', 'direct'], ['admin']],
  language: 'en-US',
});
/** Sessions of users made here, beside the demo ones. */
const made: Record<string, string> = {};
const caller = (who: string, tenant = f.t) =>
  who in made ? f.withToken(made[who], tenant) : f.as(who as Who, tenant);
const post = (url: string, body: unknown, who: string, tenant = f.t) => caller(who, tenant).post(url, body);

const address = (extra: Record<string, unknown> = {}) => ({
  name: 'Acme Warehouse',
  address1: '100 Main St',
  zipcode: '92551',
  city: 'Moreno Valley',
  state: 'CA',
  contact: 'Jane Doe',
  phone: '9095551234',
  email: 'jane@acme.example.com',
  ...extra,
});

const listOf = async (who: string, body: Record<string, unknown> = {}, tenant = f.t) =>
  (await post('/api/admin/address/list', { page: 1, limit: 100, ...body }, who, tenant)).json().data;

/** An xlsx file with a header row and rows, as a person fills the template in. */
const workbook = (header: string[], rows: (string | number)[][]) =>
  workbookBytes({ Addresses: [header, ...rows] });

const HEADER = ['Address name', 'Address 1', 'ZIP code', 'City', 'State', 'Contact', 'Phone', 'Address type'];
const goodRow = (n: number): string[] => [
  `Store ${n}`,
  `${n} Oak Ave`,
  '08518',
  'Florence',
  'NJ',
  'Sam Lee',
  '6095550100',
  'Warehouse',
];

const importFile = (who: string, content: Buffer, filename = 'addresses.xlsx', query = '') =>
  postMultipart(
    f.ctx,
    `/api/admin/address/import${query}`,
    [
      {
        name: 'file',
        filename,
        contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        content,
      },
    ],
    { host: f.t.host, token: caller(who).token, language: 'en-US' },
  );

/** A second agent with one customer, to prove agents never see each other's books. */
async function secondAgent() {
  const db = f.db;
  const branch = await createOrganisation(db, f.t.tenant.id, { type: 'branch', name: 'West Branch' });
  const agent = await createOrganisation(db, f.t.tenant.id, {
    type: 'agent',
    name: 'Bay Agency',
    parentId: branch.id,
  });
  const customer = await createOrganisation(db, f.t.tenant.id, {
    type: 'customer',
    name: 'Bay Customer',
    parentId: agent.id,
  });
  for (const [org, role] of [
    [agent, 'agent'],
    [customer, 'customer'],
  ] as const) {
    const email = `${role}2@${f.t.tenant.code}.example.com`;
    const user = await createUser(db, f.t.tenant.id, {
      email,
      password: f.t.password,
      identity: role,
      organisationId: org.id,
      name: `${role} two`,
    });
    await assignRoles(db, f.t.tenant.id, user.id, [f.t.roleIds.get(role) as number]);
    made[`${role}2`] = await signIn(f.ctx, f.t, email);
  }
  return { agent, customer };
}

beforeAll(async () => {
  const nobody = await addUser(f.ctx, f.t, { role: 'none', identity: 'customer' });
  made.nobody = await signIn(f.ctx, f.t, nobody.email);
});

describe('the address book', () => {
  it("saves a customer's address to its own book and lists it, found by keyword and type", async () => {
    const before = (await listOf('customer')).total;
    const res = await post('/api/admin/address/save', address({ addressType: 'warehouse' }), 'customer');
    expect(res.json().code).toBe(200);
    const id = res.json().data.id;
    const page = await listOf('customer');
    expect(page.total).toBe(before + 1);
    expect(page.list.find((a: any) => a.id === id)).toMatchObject({
      id,
      name: 'Acme Warehouse',
      country: 'US',
      dialCode: '1',
      windowStart: '09:00',
      windowEnd: '17:00',
      addressType: 'warehouse',
      organisationName: 'Acme Imports',
      isDefaultPickup: false,
    });
    expect((await listOf('customer', { keyword: 'moreno' })).total).toBe(1);
    expect((await listOf('customer', { keyword: 'Jane' })).total).toBe(1);
    expect((await listOf('customer', { addressType: 'fba' })).total).toBe(0);

    const edited = await post('/api/admin/address/save', address({ id, city: 'Riverside' }), 'customer');
    expect(edited.json().code).toBe(200);
    expect((await listOf('customer')).list[0].city).toBe('Riverside');
  });

  it.each([
    ['zipcode', { zipcode: '9255' }],
    ['zipcode', { zipcode: 'ABCDE' }],
    ['state', { state: 'California' }],
    ['phone', { phone: '555-1234' }],
    ['dialCode', { dialCode: '+86' }],
    ['email', { email: 'not-an-email' }],
    ['name', { name: '仓库' }],
    ['address1', { address1: '' }],
    ['city', { city: undefined }],
    ['contact', { contact: '' }],
    ['windowEnd', { windowStart: '10:00', windowEnd: '08:00' }],
    ['windowStart', { windowStart: '0900' }],
    ['addressType', { addressType: 'moon' }],
  ])('refuses a bad %s with 400 naming it', async (field, extra) => {
    const res = await post('/api/admin/address/save', address(extra), 'customer');
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe(400);
    expect(badFields(res)).toEqual([field]);
  });

  it('says 300 without a session and 401 without the page', async () => {
    const anonymous = await call(f.ctx, 'POST', '/api/admin/address/list', {}, { host: f.t.host });
    expect(anonymous.json().code).toBe(300);
    expect((await post('/api/admin/address/list', {}, 'nobody')).json().code).toBe(401);
    expect((await post('/api/admin/address/save', address(), 'nobody')).json().code).toBe(401);
    expect(
      (await post('/api/admin/address/getListByZipcode', { zipcode: '92551' }, 'nobody')).json().code,
    ).toBe(401);
  });

  it('keeps one default pickup address per organisation and gives it to the quote form', async () => {
    const first = (await post('/api/admin/address/save', address({ name: 'Dock A' }), 'customer')).json().data
      .id;
    const second = (
      await post('/api/admin/address/save', address({ name: 'Dock B', isDefaultPickup: true }), 'customer')
    ).json().data.id;
    expect((await post('/api/admin/address/default', {}, 'customer')).json().data.id).toBe(second);
    expect((await post('/api/admin/address/setDefault', { id: first }, 'customer')).json().code).toBe(200);
    const defaults = (await listOf('customer')).list.filter((a: any) => a.isDefaultPickup);
    expect(defaults.map((a: any) => a.id)).toEqual([first]);
    expect((await post('/api/admin/address/default', {}, 'customer')).json().data.name).toBe('Dock A');
    // Another organisation's default is its own business.
    expect((await post('/api/admin/address/default', {}, 'direct')).json().data).toBeNull();
    expect((await post('/api/admin/address/delete', { id: second }, 'customer')).json().code).toBe(200);
    expect((await listOf('customer')).list.some((a: any) => a.id === second)).toBe(false);
  });

  it("never shows another tenant's or another organisation's address", async () => {
    const id = (await listOf('customer')).list[0].id;
    expect((await listOf('admin', {}, f.tenant(1))).total).toBe(0);
    for (const url of ['/api/admin/address/delete', '/api/admin/address/setDefault']) {
      expect((await post(url, { id }, 'admin', f.tenant(1))).json().code).toBe(404);
      expect((await post(url, { id }, 'direct')).json().code).toBe(404);
    }
    expect((await post('/api/admin/address/save', address({ id }), 'direct')).json().code).toBe(404);
    expect((await listOf('direct')).total).toBe(0);
  });

  it("lets an agent see its customers' addresses but never another agent's", async () => {
    const { customer } = await secondAgent();
    const theirs = (await post('/api/admin/address/save', address({ name: 'Bay Dock' }), 'customer2')).json()
      .data.id;
    const agentView = (await listOf('agent')).list.map((a: any) => a.name);
    expect(agentView).toContain('Dock A');
    expect(agentView).not.toContain('Bay Dock');
    expect((await listOf('agent2')).list.map((a: any) => a.name)).toEqual(['Bay Dock']);
    expect((await post('/api/admin/address/setDefault', { id: theirs }, 'agent')).json().code).toBe(404);
    expect(
      (await post('/api/admin/address/default', { organisationId: customer.id }, 'agent')).json().code,
    ).toBe(404);
    // Staff see the whole tenant and must say whose book a new address goes to.
    const all = (await listOf('admin')).list.map((a: any) => a.name);
    expect(all).toEqual(expect.arrayContaining(['Dock A', 'Bay Dock']));
    expect(badFields(await post('/api/admin/address/save', address(), 'admin'))).toEqual(['organisationId']);
    const forBay = await post('/api/admin/address/save', address({ organisationId: customer.id }), 'admin');
    expect(forBay.json().code).toBe(200);
    expect((await listOf('customer2')).total).toBe(2);
  });
});

describe('import and export', () => {
  it('imports every row of a good file', async () => {
    const before = (await listOf('direct')).total;
    const res = await importFile('direct', await workbook(HEADER, [goodRow(1), goodRow(2), goodRow(3)]));
    expect(res.json()).toMatchObject({ code: 200, data: { imported: 3 }, msg: '3 addresses imported' });
    const page = await listOf('direct', { keyword: 'Store' });
    expect(page.total).toBe(before + 3);
    expect(page.list[0]).toMatchObject({ zipcode: '08518', addressType: 'warehouse', state: 'NJ' });
  });

  it('lets staff import into a book they name, from the organisations they may choose', async () => {
    const owners = (await post('/api/admin/address/owners', {}, 'admin')).json().data.list;
    const direct = owners.find((o: any) => o.name === 'Northwind Traders');
    expect(direct).toBeDefined();
    const file = await workbook(HEADER, [goodRow(9)]);
    expect(badFields(await importFile('admin', file))).toEqual(['organisationId']);
    const res = await importFile('admin', file, 'addresses.xlsx', `?organisationId=${direct.id}`);
    expect(res.json().data).toEqual({ imported: 1 });
    expect((await listOf('direct', { keyword: 'Store 9' })).total).toBe(1);
    // A customer's choice is its own organisation only.
    expect(
      (await post('/api/admin/address/owners', {}, 'direct')).json().data.list.map((o: any) => o.name),
    ).toEqual(['Northwind Traders']);
  });

  it('imports nothing from a file with two bad rows, and names both rows', async () => {
    const before = (await listOf('direct')).total;
    const change = (row: string[], column: number, value: string) =>
      row.map((v, i) => (i === column ? value : v));
    const rows = [goodRow(4), change(goodRow(5), 2, '123'), goodRow(6), change(goodRow(7), 4, 'New Jersey')];
    const res = await importFile('direct', await workbook(HEADER, rows));
    expect(res.statusCode).toBe(400);
    const rowErrors = res.json().data.rows;
    expect(Object.keys(rowErrors)).toEqual(['3', '5']);
    expect(rowErrors['3']).toContain('ZIP');
    expect(rowErrors['5']).toContain('State');
    expect((await listOf('direct')).total).toBe(before);
  });

  it('refuses a file that is not xlsx, whatever its name, and a header that is not the template', async () => {
    const png = await importFile('direct', makePng());
    expect(badFields(png)).toEqual(['file']);
    const text = await importFile('direct', Buffer.from('name,address1\nA,B\n'), 'addresses.xlsx');
    expect(badFields(text)).toEqual(['file']);
    const wrong = await importFile('direct', await workbook(['Foo', 'Bar'], [['a', 'b']]));
    expect(badFields(wrong)).toEqual(['file']);
    expect(wrong.json().msg).toContain('template');
  });

  it('refuses, naming the file, a sheet past the row limit, one without rows, and one whose header is not in row 1', async () => {
    const before = (await listOf('direct')).total;
    // One filled row past the limit, after an empty one the count skips.
    const rows = Array.from({ length: MAX_IMPORT_ROWS + 1 }, (_, i) => goodRow(i + 100));
    const tooMany = await importFile('direct', await workbook(HEADER, [[], ...rows]));
    expect(badFields(tooMany)).toEqual(['file']);
    expect(tooMany.json().msg).toBe(`At most ${MAX_IMPORT_ROWS} rows per file`);
    // Exactly the limit is read to its end: its last row is judged (and, bad, keeps the file out).
    const atLimit = rows.slice(1);
    atLimit[atLimit.length - 1] = goodRow(1).map((v, i) => (i === 2 ? '123' : v));
    const lastBad = await importFile('direct', await workbook(HEADER, atLimit));
    expect(Object.keys(lastBad.json().data.rows)).toEqual([String(MAX_IMPORT_ROWS + 1)]);
    expect((await listOf('direct')).total).toBe(before);

    const headerOnly = await importFile('direct', await workbook(HEADER, []));
    expect(headerOnly.json().msg).toBe('The file has no rows');
    const lowered = await importFile('direct', await workbookBytes({ Addresses: [[], HEADER, goodRow(1)] }));
    expect(lowered.json().msg).toContain('template');
    expect(badFields(lowered)).toEqual(['file']);
    const formula = await importFile(
      'direct',
      await workbook(HEADER, [
        [...goodRow(1).slice(0, 6), { formula: '6095550100+0' } as never, 'Warehouse'],
      ]),
    );
    expect(formula.json().data.rows['2']).toMatch(/^Cell G2 holds a formula; paste it as a value/);
  });

  it("hands out the template in the caller's language and the book as xlsx", async () => {
    const read = async (body: Buffer) => {
      const book = new ExcelJS.Workbook();
      await book.xlsx.load(body as unknown as ArrayBuffer);
      return book.worksheets[0] as ExcelJS.Worksheet;
    };
    const en = await post('/api/admin/address/template', {}, 'direct');
    expect(en.headers['content-type']).toContain('spreadsheetml');
    expect((await read(en.rawPayload)).getRow(1).getCell(1).value).toBe('Address name');
    const zh = await call(
      f.ctx,
      'POST',
      '/api/admin/address/template',
      {},
      { host: f.t.host, token: f.as('direct').token },
    );
    expect((await read(zh.rawPayload)).getRow(1).getCell(1).value).toBe('地址名称');
    const file = (await post('/api/admin/address/export', { keyword: 'Store' }, 'direct')).rawPayload;
    expect((await read(file)).actualRowCount).toBe(5);
    // The export is itself a file the import takes.
    const again = await importFile('direct', file);
    expect(again.json().data).toEqual({ imported: 4 });
  });
});

describe('lookups', () => {
  it('gives the city and state of a five-digit ZIP code', async () => {
    const res = await post('/api/admin/address/getListByZipcode', { zipcode: '92551' }, 'customer');
    expect(res.json().data).toEqual([
      { zipcode: '92551', city: 'Moreno Valley', state: 'CA', country: 'US' },
    ]);
    expect(
      (await post('/api/admin/address/getListByZipcode', { zipcode: '00000' }, 'customer')).json().data,
    ).toEqual([]);
    expect(
      badFields(await post('/api/admin/address/getListByZipcode', { zipcode: '9255' }, 'customer')),
    ).toEqual(['zipcode']);
  });

  it('lists the Amazon FBA warehouses, narrowed by a keyword', async () => {
    const all = (await post('/api/admin/address/getAmazonAddress', {}, 'customer')).json().data;
    expect(all.length).toBeGreaterThanOrEqual(20);
    expect(all[0]).toEqual(
      expect.objectContaining({ code: expect.any(String), address1: expect.any(String), country: 'US' }),
    );
    const ont8 = (await post('/api/admin/address/getAmazonAddress', { keyword: 'ont8' }, 'customer')).json()
      .data;
    expect(ont8).toEqual([
      {
        code: 'ONT8',
        name: 'Amazon ONT8',
        address1: '24300 Nandina Ave',
        city: 'Moreno Valley',
        state: 'CA',
        zipcode: '92551',
        country: 'US',
      },
    ]);
  });
});
