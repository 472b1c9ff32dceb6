import { and, count, eq, sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/fixture.ts';
import { postMultipart, type TestTenant } from '../../../test/helpers.ts';
import { partsShipment, truckBatchRow } from '../../../test/truck-fixtures.ts';
import { apiKeys, rateLimitHits, truckOrders } from '../../db/schema.ts';
import { sha256Hex } from '../../lib/crypto.ts';
import { BATCH_COLUMNS } from '../truck-orders/batch.ts';
import { seedDemoTariffs } from '../truck-products/service.ts';
import { API_KEY_LIMIT } from './key-auth.ts';

const f = useTestApp({
  tenants: 2,
  truck: true,
  signIn: [['admin', 'customer', 'direct'], ['customer']],
  language: 'en-US',
});

interface Made {
  id: number;
  key: string;
  prefix: string;
}
type Language = 'zh-CN' | 'en-US';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** A call the way an external system makes it: the key's two headers, no session. */
function withKey(
  key: Pick<Made, 'key' | 'prefix'> | null,
  url: string,
  body: unknown = {},
  opts: { tenant?: TestTenant; language?: Language; method?: 'GET' | 'POST' } = {},
) {
  const headers: Record<string, string> = {
    host: (opts.tenant ?? f.t).host,
    'accept-language': opts.language ?? 'en-US',
  };
  if (key) {
    headers.apiid = key.prefix;
    headers.userkey = key.key;
  }
  const method = opts.method ?? 'POST';
  return f.ctx.app.inject({
    method,
    url,
    headers,
    ...(method === 'POST' ? { payload: body as object } : {}),
  });
}

async function makeKey(scopes: string[], who: 'customer' | 'admin' | 'direct' = 'customer', name = 'ERP') {
  return (await f.as(who).ok('/api/admin/apiKey/create', { name, scopes })) as Made & Record<string, unknown>;
}

async function sheet(rows: unknown[][]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const s = wb.addWorksheet('Orders');
  s.addRow(BATCH_COLUMNS.map((c) => c.en));
  for (const r of rows) s.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

/** The batch upload with a session and no key, as the portal's own import sends it. */
function uploadWithSession(content: Buffer) {
  return postMultipart(
    f.ctx,
    '/shipment/uploadapi',
    [{ name: 'file', filename: 'orders.xlsx', contentType: XLSX, content }],
    { host: f.t.host, token: f.as('customer').token, language: 'en-US' },
  );
}

/** Multipart with the key headers (postMultipart sends only a session). */
async function uploadWithKey(
  key: Pick<Made, 'key' | 'prefix'> | null,
  content: Buffer,
  language: Language = 'en-US',
) {
  const boundary = '----keytest';
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="orders.xlsx"\r\nContent-Type: ${XLSX}\r\n\r\n`,
    ),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const headers: Record<string, string> = {
    host: f.t.host,
    'accept-language': language,
    'content-type': `multipart/form-data; boundary=${boundary}`,
  };
  if (key) Object.assign(headers, { apiid: key.prefix, userkey: key.key });
  return f.ctx.app.inject({ method: 'POST', url: '/shipment/uploadapi', headers, payload });
}

async function customerOrders() {
  const [row] = await f.db
    .select({ n: count() })
    .from(truckOrders)
    .where(
      and(
        eq(truckOrders.tenantId, f.t.tenant.id),
        eq(truckOrders.organisationId, f.truck.orgs.customer as number),
      ),
    );
  return row?.n ?? 0;
}

beforeAll(async () => {
  // The batch template's demo products (the batch import's own test does the same).
  await seedDemoTariffs(f.db, f.t.tenant.id);
});

describe('API keys', () => {
  it('shows a key once at creation and keeps only its hash', async () => {
    const made = await makeKey(['quote', 'track'], 'customer', 'Warehouse system');
    expect(made.key).toMatch(/^fpk_[A-Za-z0-9_-]{43}$/);
    expect(made.prefix).toBe(made.key.slice(0, 12));
    expect(made).toMatchObject({ name: 'Warehouse system', scopes: ['quote', 'track'], status: 'active' });

    const list = await f.as('customer').ok('/api/admin/apiKey/list', { page: 1, limit: 10 });
    const shown = list.list.find((k: { id: number }) => k.id === made.id);
    expect(shown).toMatchObject({ prefix: made.prefix, name: 'Warehouse system', lastUsedAt: null });
    expect(JSON.stringify(list)).not.toContain(made.key);

    // At rest: the SHA-256 and the prefix, never the key.
    const rows = await f.db.select().from(apiKeys).where(eq(apiKeys.tenantId, f.t.tenant.id));
    const row = rows.find((r) => r.id === made.id);
    expect(row?.keyHash).toBe(sha256Hex(made.key));
    expect(JSON.stringify(rows)).not.toContain(made.key);
    const text = await f.db.execute(sql`select api_keys::text as t from api_keys`);
    expect(JSON.stringify(text)).not.toContain(made.key.slice(12));
  });

  it('refuses bad input naming the field, in both languages', async () => {
    const none = await f.as('customer').fail('/api/admin/apiKey/create', { name: 'x', scopes: [] }, 400);
    expect(none.msg).toBe('Allowed calls is required');
    const zh = await f
      .as('customer')
      .in('zh-CN')
      .fail('/api/admin/apiKey/create', { name: 'x', scopes: ['fly'] }, 400);
    expect(zh.data.fields[0].field).toBe('scopes.0');
    const blank = await f
      .as('customer')
      .fail('/api/admin/apiKey/create', { name: ' ', scopes: ['quote'] }, 400);
    expect(blank.data.fields[0].field).toBe('name');
  });

  it('quotes, books, pays and tracks a truck order with a key of those scopes', async () => {
    const made = await makeKey(['quote', 'book', 'pay', 'track']);
    await f.truck.setBalance('customer', 0n);

    const base = await withKey(made, '/api/admin/quotation/getQuotationBaseInfo');
    expect(base.json().code).toBe(200);
    const saved = await withKey(made, '/api/admin/quotation/save', partsShipment());
    expect(saved.json()).toMatchObject({ code: 200 });
    const quoteId = saved.json().data.id;
    const rates = await withKey(made, '/api/admin/quotation/rates', { id: quoteId });
    expect(rates.headers['content-type']).toContain('application/x-ndjson');
    const done = rates.body
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
      .find((l) => l.type === 'done');
    const productId = done.results.find((r: { productId: number; total?: string }) => r.productId).productId;

    const booked = await withKey(made, '/api/admin/order/save', { quoteId, productId, pay: false });
    expect(booked.json()).toMatchObject({ code: 200, data: { status: 'unpaid' } });
    const orderId = booked.json().data.id;

    await f.truck.setBalance('customer', 1_000_000n);
    const info = await withKey(made, '/api/admin/order/payInfo', { id: orderId });
    expect(info.json().code).toBe(200);
    const paid = await withKey(made, '/api/admin/order/pay', { id: orderId });
    expect(paid.json()).toMatchObject({ code: 200, data: { repeated: false } });

    const tracked = await withKey(made, '/api/admin/order/info', { id: orderId });
    expect(tracked.json()).toMatchObject({ code: 200, data: { order: { id: orderId } } });
    const listed = await withKey(made, '/api/admin/order/list', { page: 1, limit: 10 });
    expect(listed.json().data.list.some((o: { id: number }) => o.id === orderId)).toBe(true);

    // The order is the customer's, booked by the key's user; the log names that user.
    const order = await f.as('customer').ok('/api/admin/order/info', { id: orderId });
    expect(order.order.status).not.toBe('unpaid');

    // Express too: the quoting choices answer with a quote key.
    const options = await withKey(made, '/api/express/quotation/options', undefined, { method: 'GET' });
    expect(options.json().code).toBe(200);

    const after = await f.as('customer').ok('/api/admin/apiKey/list', { page: 1, limit: 10 });
    expect(after.list.find((k: { id: number }) => k.id === made.id).lastUsedAt).not.toBeNull();
  });

  it('refuses a call outside the key’s scopes, and every route that takes no key, with 401', async () => {
    const made = await makeKey(['quote']);
    const saved = await withKey(made, '/api/admin/quotation/save', partsShipment());
    expect(saved.json().code).toBe(200);
    const book = await withKey(made, '/api/admin/order/save', {
      quoteId: saved.json().data.id,
      productId: 1,
    });
    expect(book.json()).toMatchObject({
      code: 401,
      msg: 'This API key is not allowed to make this call (it needs the book scope)',
    });
    const zh = await withKey(made, '/api/admin/order/list', { page: 1, limit: 10 }, { language: 'zh-CN' });
    expect(zh.json()).toMatchObject({ code: 401, msg: '此 API 密钥没有该接口的权限(需要范围 track)' });
    // Routes without the flag: keys are refused outright, even for the key calls themselves.
    for (const url of ['/api/admin/apiKey/list', '/api/admin/address/list', '/api/admin/order/bulkPay']) {
      const res = await withKey(made, url, { page: 1, limit: 10 });
      expect(res.json(), url).toMatchObject({
        code: 401,
        msg: 'This call does not accept an API key; sign in to use it',
      });
    }
    const up = await uploadWithKey(made, await sheet([truckBatchRow()]));
    expect(up.json().code).toBe(401);
  });

  it('refuses a revoked key at once, a bad key, and a call without a key, with 300 in both languages', async () => {
    const made = await makeKey(['quote']);
    expect((await withKey(made, '/api/admin/quotation/getQuotationBaseInfo')).json().code).toBe(200);
    const revoked = await f.as('customer').ok('/api/admin/apiKey/revoke', { id: made.id });
    expect(revoked).toMatchObject({ status: 'revoked' });
    expect(revoked.revokedAt).not.toBeNull();
    const en = await withKey(made, '/api/admin/quotation/getQuotationBaseInfo');
    expect(en.json()).toMatchObject({
      code: 300,
      msg: 'The API key is not valid or has been revoked (check the apiId and userKey headers)',
    });
    const zh = await withKey(made, '/api/admin/quotation/getQuotationBaseInfo', {}, { language: 'zh-CN' });
    expect(zh.json()).toMatchObject({
      code: 300,
      msg: 'API 密钥无效或已吊销(请检查请求头 apiId 和 userKey)',
    });
    // Revoking again changes nothing.
    const again = await f.as('customer').ok('/api/admin/apiKey/revoke', { id: made.id });
    expect(again.revokedAt).toBe(revoked.revokedAt);

    const live = await makeKey(['quote']);
    const wrongId = await withKey(
      { key: live.key, prefix: 'fpk_AAAAAAAA' },
      '/api/admin/quotation/getQuotationBaseInfo',
    );
    expect(wrongId.json().code).toBe(300);
    const forged = await withKey(
      { key: `${live.key.slice(0, -1)}${live.key.endsWith('A') ? 'B' : 'A'}`, prefix: live.prefix },
      '/api/admin/quotation/getQuotationBaseInfo',
    );
    expect(forged.json().code).toBe(300);
    const halfOnly = await f.ctx.app.inject({
      method: 'POST',
      url: '/api/admin/quotation/getQuotationBaseInfo',
      headers: { host: f.t.host, userkey: live.key, accesstoken: f.as('customer').token as string },
      payload: {},
    });
    expect(halfOnly.json().code).toBe(300);

    const noKey = await uploadWithKey(null, await sheet([truckBatchRow()]));
    expect(noKey.json()).toMatchObject({
      code: 300,
      msg: 'This call needs an API key in the apiId and userKey headers',
    });
    const noKeyZh = await uploadWithKey(null, await sheet([truckBatchRow()]), 'zh-CN');
    expect(noKeyZh.json()).toMatchObject({
      code: 300,
      msg: '此接口需要 API 密钥:请在请求头 apiId 和 userKey 中提供',
    });
    // A session is no key there either.
    const withSession = await uploadWithSession(await sheet([truckBatchRow()]));
    expect(withSession.json().code).toBe(300);
  });

  it('keeps keys to their tenant and organisation: other tenants and organisations get 404 or 300', async () => {
    const made = await makeKey(['quote']);
    const other = f.tenant(1);
    const elsewhere = await withKey(made, '/api/admin/quotation/getQuotationBaseInfo', {}, { tenant: other });
    expect(elsewhere.json().code).toBe(300);

    const theirs = await f.as('customer', other).ok('/api/admin/apiKey/list', { page: 1, limit: 200 });
    expect(theirs.list).toEqual([]);
    const revokeThere = await f.as('customer', other).fail('/api/admin/apiKey/revoke', { id: made.id }, 404);
    expect(revokeThere.code).toBe(404);

    // Another organisation of the same tenant neither sees nor revokes it.
    const direct = await f.as('direct').ok('/api/admin/apiKey/list', { page: 1, limit: 200 });
    expect(direct.list.some((k: { id: number }) => k.id === made.id)).toBe(false);
    await f.as('direct').fail('/api/admin/apiKey/revoke', { id: made.id }, 404);
    expect((await withKey(made, '/api/admin/quotation/getQuotationBaseInfo')).json().code).toBe(200);

    // Staff see every key of the tenant with whose it is, and may revoke it.
    const staff = await f
      .as('admin')
      .ok('/api/admin/apiKey/list', { page: 1, limit: 200, keyword: made.prefix });
    expect(staff.list).toHaveLength(1);
    expect(staff.list[0]).toMatchObject({ id: made.id, userEmail: f.t.email('customer') });
    expect(staff.list[0].organisationName).not.toBe('');
    await f.as('admin').ok('/api/admin/apiKey/revoke', { id: made.id });
    expect((await withKey(made, '/api/admin/quotation/getQuotationBaseInfo')).json().code).toBe(300);
    const revokedOnly = await f
      .as('customer')
      .ok('/api/admin/apiKey/list', { page: 1, limit: 200, status: 'revoked' });
    expect(revokedOnly.list.every((k: { status: string }) => k.status === 'revoked')).toBe(true);
  });

  it('counts calls per key and answers 429 past the limit', async () => {
    const made = await makeKey(['quote']);
    const other = await makeKey(['quote']);
    expect((await withKey(made, '/api/admin/quotation/getQuotationBaseInfo')).json().code).toBe(200);
    // Fill this key's window to its limit (the suite scales limits up a thousandfold).
    await f.db
      .update(rateLimitHits)
      .set({ count: API_KEY_LIMIT.max * f.ctx.app.config.RATE_LIMIT_SCALE })
      .where(eq(rateLimitHits.key, `apikey:${made.id}`));
    const limited = await withKey(made, '/api/admin/quotation/getQuotationBaseInfo');
    expect(limited.statusCode).toBe(429);
    expect(limited.json().code).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
    // Another key of the same user has its own count.
    expect((await withKey(other, '/api/admin/quotation/getQuotationBaseInfo')).json().code).toBe(200);
  });
});

describe('/shipment/uploadapi', () => {
  it('imports a good file whole and answers each row and the orders booked', async () => {
    const made = await makeKey(['upload']);
    const before = await customerOrders();
    const res = await uploadWithKey(
      made,
      await sheet([
        truckBatchRow({ customerOrderNo: 'API-1', freightClass: '70' }),
        truckBatchRow({ customerOrderNo: 'API-2', freightClass: '70' }),
      ]),
    );
    expect(res.json()).toMatchObject({
      code: 200,
      msg: '2 orders imported, awaiting payment',
      data: { rows: { '2': 'success', '3': 'success' } },
    });
    expect(res.json().data.orders).toHaveLength(2);
    expect(await customerOrders()).toBe(before + 2);
  });

  it('imports nothing when a row is wrong, naming the row and the field', async () => {
    const made = await makeKey(['upload']);
    const before = await customerOrders();
    const en = await uploadWithKey(
      made,
      await sheet([
        truckBatchRow({ customerOrderNo: 'API-3', freightClass: '70' }),
        truckBatchRow({ pickupZip: '9000' }),
      ]),
    );
    expect(en.statusCode).toBe(400);
    expect(en.json()).toMatchObject({
      code: 400,
      msg: '1 rows have errors; nothing was imported',
      data: { rows: { '2': 'success', '3': 'Pickup ZIP: Please enter a five-digit ZIP code' }, orders: [] },
    });
    const zh = await uploadWithKey(made, await sheet([truckBatchRow({ pickupZip: '9000' })]), 'zh-CN');
    expect(zh.json().data.rows['2']).toBe('提货邮编:请输入 5 位数字邮编');
    expect(await customerOrders()).toBe(before);

    const notXlsx = await uploadWithKey(made, Buffer.from('order,mode\n1,LTL\n'));
    expect(notXlsx.json()).toMatchObject({ code: 400, msg: 'Please upload an xlsx file' });
  });
});
