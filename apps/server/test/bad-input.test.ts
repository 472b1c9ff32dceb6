import { fieldLabel } from '@freight/contracts/validation';
import { and, count, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { uploads } from '../src/db/schema.ts';
import { addressBook } from '../src/modules/addresses/schema.ts';
import { receivingAccounts } from '../src/modules/recharge/schema.ts';
import { useTestApp } from './fixture.ts';
import { badFields, call, fieldMessage, makePng, postMultipart } from './helpers.ts';

const f = useTestApp({ signIn: ['admin', 'customer'] });

/** Regressions of malformed input once answered 500, coerced into a real id, or named no field. */

let admin: string;
let customer: string;

beforeAll(async () => {
  admin = f.as('admin').token as string;
  customer = f.as('customer').token as string;
});

const post = (url: string, body: unknown, token = admin, language: 'zh-CN' | 'en-US' = 'en-US') =>
  call(f.ctx, 'POST', url, body, { host: f.t.host, token, language });
const raw = (url: string, payload: string, contentType: string, token?: string) =>
  f.ctx.app.inject({
    method: 'POST',
    url,
    payload,
    headers: {
      host: f.t.host,
      'content-type': contentType,
      'accept-language': 'en-US',
      ...(token ? { accesstoken: token } : {}),
    },
  });

async function rowsOf(table: typeof addressBook | typeof receivingAccounts) {
  const [row] = await f.db
    .select({ n: count() })
    .from(table)
    .where(and(eq(table.tenantId, f.t.tenant.id)));
  return row?.n ?? 0;
}

describe('ids are whole numbers, never coerced', () => {
  it('refuses {"id":true} on address/delete, naming id, and the address stays', async () => {
    const saved = await post(
      '/api/admin/address/save',
      {
        name: 'Dock A',
        address1: '100 Main St',
        zipcode: '90001',
        city: 'Los Angeles',
        state: 'CA',
        contact: 'Pat Lee',
        phone: '2135550100',
      },
      customer,
    );
    expect(saved.json().code).toBe(200);
    const before = await rowsOf(addressBook);
    for (const id of [true, [saved.json().data.id], String(saved.json().data.id), 1.5, 0, -1, 2 ** 60]) {
      const res = await post('/api/admin/address/delete', { id }, customer);
      expect(res.statusCode, JSON.stringify(id)).toBe(400);
      expect(badFields(res)).toEqual(['id']);
      expect(fieldMessage(res, 'id')).toContain('ID');
    }
    expect(await rowsOf(addressBook)).toBe(before);
  });

  it('refuses {"id":true} on receivingAccount/delete and the seeded account stays', async () => {
    const before = await rowsOf(receivingAccounts);
    expect(before).toBeGreaterThan(0);
    const res = await post('/api/admin/recharge/receivingAccount/delete', { id: true });
    expect(res.statusCode).toBe(400);
    expect(badFields(res)).toEqual(['id']);
    expect(await rowsOf(receivingAccounts)).toBe(before);
  });

  it('refuses a list or a string as the id of customer/info and the other id calls', async () => {
    for (const url of [
      '/api/admin/customer/info',
      '/api/admin/customer/users',
      '/api/admin/customer/invitations',
      '/api/admin/role/info',
      '/api/admin/role/delete',
      '/api/admin/recharge/info',
      '/api/admin/recharge/settle',
    ]) {
      for (const id of [[1], '12', true]) {
        const res = await post(url, { id, organisationId: id });
        expect(res.statusCode, `${url} ${JSON.stringify(id)}`).toBe(400);
        expect(res.json().data.fields.length).toBeGreaterThan(0);
      }
    }
  });

  it('refuses booleans, lists and strings for page and limit', async () => {
    for (const body of [{ page: true }, { page: [2] }, { page: '2' }, { limit: '10' }, { limit: 7 }]) {
      const res = await post('/api/admin/staff/list', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(badFields(res)).toEqual(Object.keys(body));
    }
  });

  it('reads a query-string id only as plain digits within range', async () => {
    for (const productId of ['true', '1e3', '01', '-1', '0x10', '%201', '99999999999999999999', '%00']) {
      const res = await f.ctx.app.inject({
        method: 'GET',
        url: `/api/admin/freightRule/export?productId=${productId}`,
        headers: { host: f.t.host, accesstoken: admin, 'accept-language': 'en-US' },
      });
      expect(res.statusCode, productId).toBe(400);
      expect(res.json().data.fields[0]).toMatchObject({ field: 'productId' });
    }
  });
});

describe('text fields refuse what PostgreSQL cannot store', () => {
  it('refuses a NUL in the staff keyword, naming the keyword in the language asked for', async () => {
    const en = await post('/api/admin/staff/list', { keyword: 'a\u0000b' });
    expect(en.statusCode).toBe(400);
    expect(badFields(en)).toEqual(['keyword']);
    expect(en.json().msg).toBe(
      'Keyword contains characters that are not allowed (control characters or broken text)',
    );
    const zh = await post('/api/admin/staff/list', { keyword: 'a\u0000b' }, admin, 'zh-CN');
    expect(fieldMessage(zh, 'keyword')).toBe('关键字含有不允许的字符(控制字符或残缺的文字)');
  });

  it('refuses other control characters and half a surrogate pair, but keeps tabs and line breaks', async () => {
    for (const keyword of ['a\u0007b', 'a\u001bb', 'a\u007fb', 'x\ud800', '\udc00x']) {
      const res = await post('/api/admin/staff/list', { keyword });
      expect(badFields(res), JSON.stringify(keyword)).toEqual(['keyword']);
    }
    expect((await post('/api/admin/staff/list', { keyword: 'a\tb' })).json().code).toBe(200);
    expect((await post('/api/admin/staff/list', { keyword: '运营 🚚' })).json().code).toBe(200);
  });

  it('refuses NUL in a query string and in the profile', async () => {
    const res = await f.ctx.app.inject({
      method: 'GET',
      url: '/api/admin/workOrder/info?sn=%00',
      headers: { host: f.t.host, accesstoken: admin, 'accept-language': 'en-US' },
    });
    expect(res.statusCode).toBe(400);
    expect(badFields(res)).toEqual(['sn']);
    const profile = await post(
      '/api/admin/admin/saveProfile',
      { name: 'A\u0000', company: 'B\u0000' },
      customer,
    );
    expect(badFields(profile).sort()).toEqual(['company', 'name']);
  });

  it('refuses an over-long keyword', async () => {
    const res = await post('/api/admin/staff/list', { keyword: 'x'.repeat(100_000) });
    expect(res.statusCode).toBe(400);
    expect(fieldMessage(res, 'keyword')).toBe('Keyword takes at most 100 characters');
  });

  it('refuses a date that is not a date', async () => {
    for (const from of [true, 0, '-100000-01-01', '2024-1-1', 'yesterday']) {
      const res = await post('/api/admin/operationLog/list', { from });
      expect(badFields(res), JSON.stringify(from)).toEqual(['from']);
    }
    expect((await post('/api/admin/operationLog/list', { from: '2024-01-01' })).json().code).toBe(200);
  });
});

describe('a body that is not a JSON object', () => {
  it('says so, naming the body, whatever the route', async () => {
    for (const payload of ['null', '[]', '"x"', '1', 'true']) {
      const res = await raw('/api/admin/order/pay', payload, 'application/json', customer);
      expect(res.statusCode, payload).toBe(400);
      expect(res.json()).toEqual({
        code: 400,
        msg: 'The request body must be a JSON object',
        data: { fields: [{ field: 'body', message: 'The request body must be a JSON object' }] },
      });
    }
  });

  it('says when the body is not valid JSON', async () => {
    const res = await raw('/api/admin/order/pay', '{"id":', 'application/json', customer);
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toBe('The request body is not valid JSON');
    expect(badFields(res)).toEqual(['body']);
  });

  it('says which content type is expected for text and form bodies', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded']) {
      const res = await raw('/api/admin/order/pay', 'id=1', type, customer);
      expect(res.statusCode, type).toBe(415);
      expect(res.json().code).toBe(400);
      expect(res.json().msg).toContain(type);
      expect(res.json().msg).toContain('application/json');
    }
  });

  it('drops a __proto__ key instead of letting it reach a copy of the body', async () => {
    const res = await raw(
      '/api/admin/staff/list',
      '{"__proto__":{"page":5},"limit":10}',
      'application/json',
      admin,
    );
    expect(res.json()).toMatchObject({ code: 200, data: { page: 1 } });
  });
});

describe('every 4xx names its field', () => {
  it('names the roles when a staff member is given a role that does not exist', async () => {
    const res = await post('/api/admin/staff/save', {
      email: 'new-staff@example.com',
      name: 'New staff',
      password: 'secret12',
      roleIds: [987_654],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toBe('Roles is not valid');
    expect(badFields(res)).toEqual(['roleIds']);
  });

  it('names the amount in the two-decimal rule, the lane in the ZIP3 rule and the colour', async () => {
    const credit = await post('/api/admin/account/setCreditLimit', {
      accountId: 1,
      reason: 'x',
      creditLimit: '1.234',
    });
    expect(fieldMessage(credit, 'creditLimit')).toBe(
      'Credit limit: Please enter an amount with at most two decimals',
    );
    const markup = await post('/api/admin/customer/priceLevelSave', {
      organisationId: 1,
      line: 'truck',
      markupPercent: '1',
      markupFixed: 'abc',
    });
    expect(fieldMessage(markup, 'markupFixed')).toContain('Fixed markup');
    const lane = await post('/api/admin/freightRule/lane/save', {
      productId: 1,
      origin: 'nowhere',
      destination: 'TX',
    });
    expect(fieldMessage(lane, 'origin')).toMatch(/^Origin: /);
    const colour = await post('/api/admin/site/save', { buttonColor: 'red' }, admin, 'zh-CN');
    expect(fieldMessage(colour, 'buttonColor')).toContain('按钮颜色');
  });

  it('names the first sign-in account a new organisation needs', async () => {
    const res = await post('/api/admin/customer/save', { type: 'customer', name: 'Acme' });
    expect(res.statusCode).toBe(400);
    expect(badFields(res)).toEqual(['user']);
    expect(res.json().msg).toBe('A new organisation needs its first sign-in account');
  });

  it('gives every field path a label, never an empty one', () => {
    expect(fieldLabel('', 'en-US')).toBe('Request body');
    expect(fieldLabel('lines.0.quantity', 'en-US')).toBe('Quantity');
    expect(fieldLabel('roleIds.3', 'zh-CN')).toBe('角色');
    expect(fieldLabel('somethingNew', 'en-US')).toBe('somethingNew');
  });
});

describe('answers outside any route', () => {
  it('answers an over-long path parameter with a 414 envelope', async () => {
    const res = await f.ctx.app.inject({
      method: 'GET',
      url: `/api/uploads/${'k'.repeat(3000)}.png`,
      headers: { host: f.t.host, 'accept-language': 'en-US' },
    });
    expect(res.statusCode).toBe(414);
    expect(res.json()).toEqual({ code: 400, msg: 'The request address is too long', data: null });
  });

  it('answers an unknown method or a GET of a POST call with a 404 envelope', async () => {
    for (const method of ['PUT', 'DELETE', 'PATCH', 'GET'] as const) {
      const res = await f.ctx.app.inject({
        method,
        url: '/api/admin/staff/list',
        headers: { host: f.t.host, accesstoken: admin, 'accept-language': 'en-US' },
      });
      expect(res.statusCode, method).toBe(404);
      expect(res.json(), method).toEqual({ code: 404, msg: 'No such API', data: null });
    }
  });

  it('answers a malformed URL with a 400 envelope', async () => {
    const res = await f.ctx.app.inject({
      method: 'GET',
      url: '/api/uploads/%E0%A4%A.png',
      headers: { host: f.t.host, 'accept-language': 'en-US' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe(400);
  });
});

describe('the session is checked before the body is read', () => {
  it('answers 300 to an upload without a session, whatever it sends', async () => {
    const boundary = 'x-boundary';
    const multipart = [
      `--${boundary}`,
      'Content-Disposition: form-data; name="file"; filename="a.pdf"',
      'Content-Type: application/pdf',
      '',
      '%PDF-1.4 not really',
      `--${boundary}--`,
      '',
    ].join('\r\n');
    for (const [payload, type] of [
      [multipart, `multipart/form-data; boundary=${boundary}`],
      ['--broken', `multipart/form-data; boundary=${boundary}`],
      ['hello', 'text/plain'],
    ] as const) {
      const res = await raw('/api/common/upload/documents', payload, type);
      expect(res.statusCode, type).toBe(401);
      expect(res.json().code).toBe(300);
    }
  });

  it('answers 401 (not allowed) before reading the body of a call the user may not make', async () => {
    const res = await raw('/api/admin/staff/save', 'not json', 'application/json', customer);
    expect(res.json().code).toBe(401);
  });
});

describe('numbers in a multipart form', () => {
  it('reads the pickup address and organisation of a batch import as plain digits only', async () => {
    for (const [name, value] of [
      ['address_id', '1e30'],
      ['address_id', 'true'],
      ['organisationId', '99999999999999999999'],
    ]) {
      const res = await postMultipart(
        f.ctx,
        '/api/admin/order/importDataCheck',
        [
          { name: name as string, value: value as string },
          {
            name: 'file',
            filename: 'orders.xlsx',
            contentType: 'application/octet-stream',
            content: Buffer.from('x'),
          },
        ],
        { host: f.t.host, token: customer, language: 'en-US' },
      );
      expect(res.statusCode, `${name}=${value}`).toBe(400);
      expect(badFields(res)).toEqual([name]);
    }
  });
});

describe('text outside any schema', () => {
  it('stores an upload whose file name holds control characters, with those characters replaced', async () => {
    const res = await postMultipart(
      f.ctx,
      '/api/common/upload/images',
      [
        {
          name: 'file',
          filename: `a\u0000b\u0007${'x'.repeat(300)}.png`,
          contentType: 'image/png',
          content: makePng(),
        },
      ],
      { host: f.t.host, token: customer },
    );
    expect(res.json().code).toBe(200);
    const key = (res.json().data[0] as string).split('/').pop() as string;
    const [row] = await f.db.select().from(uploads).where(eq(uploads.key, key));
    expect(row?.originalName.startsWith('a\uFFFDb\uFFFDxxx')).toBe(true);
    expect(row?.originalName).toHaveLength(200);
  });
});
