import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import type { LightMyRequestResponse } from 'fastify';
import { extractText, getDocumentProxy } from 'unpdf';
import { beforeAll, describe, expect, it } from 'vitest';
import { createNotice } from '../src/modules/notices/service.ts';
import { BATCH_COLUMNS } from '../src/modules/truck-orders/batch.ts';
import { apiOperations, type JsonSchema, type Operation } from './api-operations.ts';
import { expressTenant, selectedQuote, setExpressBalance } from './express-fixtures.ts';
import { useTestApp } from './fixture.ts';
import {
  call,
  createTenant,
  isoDay,
  type MultipartPart,
  makePng,
  multipartBody,
  type TestTenant,
  uploadFor,
  type Who,
} from './helpers.ts';
import { truckBatchRow, truckTenant } from './truck-fixtures.ts';

/**
 * Issue 13: two tenants with rows of every kind on both lines. A's administrator calls every operation
 * the API describes with B's ids in every id-like field (first of the matching kind, then any of B's
 * ids), and B's administrator calls every operation on A's host. No answer fails, no answer of A's
 * shows anything of B, and not one of B's rows changes.
 */

/** Operations not swept, with the reason. Public calls that take no id, and calls that end A's session. */
const SKIPPED: Record<string, string> = {
  'GET /api/health': 'public, takes no id',
  'GET /api/health/ready': 'public, takes no id',
  'POST /api/publicKey': 'public, takes no id',
  'POST /api/admin/auth/getHostConfig': 'public, takes no id',
  'GET /api/common/params/getServerTime': 'public, takes no id',
  'POST /api/common/params/getInfoByDomain': 'public, takes no id',
  'GET /api/common/ads': 'public, takes no id',
  'POST /api/common/params/checkAddress': 'public, takes no id',
  'POST /api/admin/auth/getVerificationCode': 'public, takes an e-mail, no id (and is rate limited)',
  'POST /api/admin/auth/login': 'public, takes no id; a success would open a session, not read one',
  'POST /api/login': 'public, takes no id; a success would open a session, not read one',
  'POST /api/admin/auth/retrievePassword': 'public, takes no id',
  'POST /api/logout': "ends A's own session",
  'POST /api/admin/auth/logout': "ends A's own session",
  'POST /api/admin/admin/changePassword': "takes no id; a success ends A's other sessions",
};

const f = useTestApp({ tenants: 1 });
const hex = randomBytes(3).toString('hex');
/** Every text of B's rows carries this, and so do its e-mails and host. */
const MARK_B = `zebrab${hex}`;
const MARK_A = `yakka${hex}`;

interface Seeded {
  t: TestTenant;
  tokens: Record<string, string>;
  orgs: Record<string, number>;
}
let A: Seeded;
let B: Seeded;
let operations: Operation[];
/** B's ids by table. */
let idsOfB: Map<string, number[]>;
/** B's document numbers (orders, waybills, recharges, work orders, bills, quotes, tasks) and upload keys. */
let numbersOfB: string[];
let uploadKeysOfB: string[];
let uploadUrlsOfB: string[];
let invitationCodesOfB: string[];

async function rows<T>(query: ReturnType<typeof sql.raw>): Promise<T[]> {
  const result = await f.db.execute(query);
  return ((result as unknown as { rows?: T[] }).rows ?? (result as unknown as T[])) as T[];
}

async function tenantTables(): Promise<{ name: string; hasId: boolean }[]> {
  const list = await rows<{ table_name: string; has_id: boolean }>(
    sql.raw(`select c.table_name, bool_or(i.column_name is not null) as has_id
      from information_schema.columns c
      join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
        and t.table_type = 'BASE TABLE'
      left join information_schema.columns i on i.table_schema = c.table_schema and i.table_name = c.table_name
        and i.column_name = 'id'
      where c.table_schema = 'public' and c.column_name = 'tenant_id'
      group by c.table_name order by c.table_name`),
  );
  return list.map((r) => ({ name: r.table_name, hasId: r.has_id }));
}

/** A count and a digest of every row of the tenant, per table with a tenant_id, and its own tenant row. */
async function snapshotOf(tenantId: number): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const { name } of await tenantTables()) {
    const [row] = await rows<{ n: number; digest: string }>(
      sql.raw(
        `select count(*)::int as n, md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as digest from "${name}" t where tenant_id = ${tenantId}`,
      ),
    );
    out[name] = `${row?.n}:${row?.digest}`;
  }
  // The tenant's own row: its branding and settings.
  const [own] = await rows<{ digest: string }>(
    sql.raw(`select md5(t::text) as digest from tenants t where id = ${tenantId}`),
  );
  out.tenants = own?.digest ?? 'missing';
  return out;
}

/** Lifts the tenant's document counters, so its numbers differ from the other tenant's. */
async function liftCounters(tenantId: number, from: number) {
  const day = new Date().toISOString().slice(0, 10).replace(/-/g, '');
  for (const kind of ['TK', 'EW', 'FP', 'Q', 'MQ', 'EQ', 'BB', 'EBB', 'WO', 'EWO'])
    await f.db.execute(
      sql`insert into serial_counters (tenant_id, kind, day, last) values (${tenantId}, ${kind}, ${day}, ${from})
          on conflict do nothing`,
    );
  await f.db.execute(
    sql`insert into recharge_serials (tenant_id, day, last) values (${tenantId}, ${day}, ${from}) on conflict do nothing`,
  );
}

/**
 * Rows of every kind a tenant has, each text carrying the tenant's mark: truck orders paid and
 * unpaid, a delivered one with a bounce bill and a work order, a manual quotation task, express
 * waybills paid and unpaid, a recharge with its screenshot, an invoice request, a role, a staff
 * member, a customer organisation with an invitation, addresses, an express product, a notice.
 */
async function seedTenant(t: TestTenant, mark: string): Promise<Seeded> {
  const who: Who[] = ['admin', 'editor', 'branch', 'agent', 'customer', 'direct'];
  const truck = await truckTenant(f.ctx, t, who);
  const { tokens, orgs, ok, post } = truck;
  await truck.setBalance('customer', 10_000_000n);
  await truck.setBalance('direct', 10_000_000n);
  const dock = (zipcode: string, state: string, city: string) => ({
    name: `${mark} dock`,
    address1: `1 ${mark} Way`,
    zipcode,
    city,
    state,
    contact: `${mark} contact`,
    phone: '2135550100',
    email: `dock@${mark}.example.com`,
  });
  const quote = async (as: string, size = { length: 40, width: 40, height: 40, totalWeight: 400 }) =>
    (
      await ok(
        '/api/admin/quotation/save',
        {
          mode: 'LTL',
          pickup: dock('90001', 'CA', 'Los Angeles'),
          delivery: dock('75201', 'TX', 'Dallas'),
          quoteDate: isoDay(),
          lines: [
            {
              name: `${mark} parts`,
              quantity: 1,
              palletCount: 1,
              ...size,
              freightClass: '70',
            },
          ],
        },
        as,
      )
    ).id as number;
  await ok(
    '/api/admin/address/save',
    { ...dock('90001', 'CA', 'Los Angeles'), saveToBook: true },
    'customer',
  );
  const productId = (await ok('/api/admin/product/list', { limit: 10 }, 'admin')).list[0].id;
  // An unpaid order, a paid one, a delivered one with a bounce bill and a work order.
  for (const pay of [false, true]) {
    const quoteId = await quote('customer');
    await post('/api/admin/quotation/rates', { id: quoteId }, 'customer');
    await ok(
      '/api/admin/order/save',
      { quoteId, productId, pay, customerOrderNo: `${mark}-${pay}`, shippingNote: `${mark} note` },
      'customer',
    );
  }
  const delivered = await truck.order('customer');
  await ok(
    '/api/admin/bounceBill/save',
    {
      orderNo: delivered.orderNo,
      type: 'reweigh',
      amount: '45.50',
      declared: '400 lb',
      actual: '520 lb',
      description: `${mark} reweighed`,
    },
    'admin',
  );
  await ok(
    '/api/admin/workOrder/save',
    {
      orderNo: delivered.orderNo,
      category: 'damage',
      transactionItem: 'freight',
      amount: '50.00',
      description: `${mark} crushed`,
    },
    'customer',
  );
  // A machine too big for any product: it needs a manual quotation.
  const taskQuote = await quote('customer', { length: 300, width: 90, height: 100, totalWeight: 6000 });
  await post('/api/admin/quotation/rates', { id: taskQuote }, 'customer');
  await ok('/api/admin/quotation/task/request', { quoteId: taskQuote, note: `${mark} crane` }, 'customer');

  // Express: an unpaid waybill, a paid one waiting for its label, and one handed over and tracked.
  await expressTenant(f.db, t.tenant.id, orgs);
  await setExpressBalance(f.db, t.tenant.id, orgs.customer as number, 10_000_000n);
  const customer = f.withToken(tokens.customer, t);
  const admin = f.withToken(tokens.admin, t);
  const parcel = (zipcode: string, state: string, city: string) => ({
    name: `${mark} sender`,
    company: `${mark} parts`,
    address1: `2 ${mark} Ave`,
    city,
    state,
    zipcode,
    country: 'US',
    phone: '2135550100',
    email: `parcel@${mark}.example.com`,
  });
  const shipment = {
    sender: parcel('90001', 'CA', 'Los Angeles'),
    recipient: parcel('75201', 'TX', 'Dallas'),
    unitSystem: 'lb_in',
    parcels: [{ quantity: 1, length: 10, width: 8, height: 6, weight: 4 }],
    reference: `${mark}-ref`,
  };
  // The express book: a sender (the batch's shipping address) and a return address.
  for (const kind of ['sender', 'return'])
    await customer.ok('/api/express/address/save', { ...parcel('90001', 'CA', 'Los Angeles'), kind });
  for (const stage of ['unpaid', 'paid', 'handed over'] as const) {
    const quoteId = await selectedQuote(customer, 'USG-STD', shipment);
    const waybill = await customer.ok('/api/express/order/create', { quoteId, pay: stage !== 'unpaid' });
    if (stage !== 'handed over') continue;
    await customer.post('/api/express/order/print', { ids: [waybill.id] });
    await admin.ok('/api/express/order/transition', { id: waybill.id, action: 'hand_over' });
    await admin.ok('/api/express/tracking/add', {
      id: waybill.id,
      code: 'in_transit',
      location: `${mark} hub`,
      note: `${mark} scan`,
    });
  }

  // Money in: a receiving account and a recharge with its screenshot.
  const receiving = await admin.ok('/api/admin/recharge/receivingAccount/save', {
    currency: 'USD',
    bankName: `${mark} bank`,
    accountName: `${mark} account`,
    accountNumber: '000123456',
  });
  await customer.ok('/api/admin/recharge/submit', {
    line: 'truck',
    amount: '150.00',
    method: 'bank_transfer',
    receivingAccountId: receiving.id,
    payerName: `${mark} payer`,
    payerCardNumber: '6222 0000 1111',
    screenshotUrl: await uploadFor(f.ctx, t.host, tokens.customer, 'image'),
    note: `${mark} recharge`,
  });
  const month = new Date().toISOString().slice(0, 7);
  await customer.ok('/api/admin/invoice/request', {
    line: 'truck',
    periodFrom: `${month}-01`,
    periodTo: isoDay(1),
    title: `${mark} invoice`,
    taxNumber: '91310000X',
    email: `ap@${mark}.example.com`,
  });
  await uploadFor(f.ctx, t.host, tokens.customer, 'pdf');

  // People: a role, a staff member, a customer organisation with its user and an invitation.
  const role = await admin.ok('/api/admin/role/save', {
    name: `${mark} role`,
    nameEn: `${mark} role`,
    menuIds: [20],
    buttonKeys: [],
  });
  await admin.ok('/api/admin/staff/save', {
    email: `staff@${mark}.example.com`,
    name: `${mark} staff`,
    password: 'Staff-123',
    roleIds: [role.id],
  });
  await admin.ok('/api/admin/customer/save', {
    type: 'customer',
    parentId: orgs.agent,
    name: `${mark} customer`,
    contactName: `${mark} contact`,
    user: { email: `owner@${mark}.example.com`, name: `${mark} owner`, password: 'Owner-123' },
  });
  await admin.ok('/api/admin/customer/invitationCreate', { organisationId: orgs.agent, expiresInDays: 30 });
  await admin.ok('/api/admin/expressProduct/save', {
    code: `P${mark}`,
    name: `${mark} product`,
    nameEn: `${mark} product`,
  });
  // A carrier account whose label and credentials carry the mark: neither may show in another's answer.
  await admin.ok('/api/admin/carrierAccount/create', {
    kind: 'karrio',
    label: `${mark} carrier`,
    environment: 'custom',
    baseUrl: 'http://127.0.0.1:9/',
    timeoutMs: 1_000,
    credentials: { apiKey: `${mark}-carrier-key` },
  });
  const customerUser = await rows<{ id: number }>(
    sql.raw(`select id from users where tenant_id = ${t.tenant.id} and email = '${t.email('customer')}'`),
  );
  await createNotice(f.db, {
    tenantId: t.tenant.id,
    userId: customerUser[0]?.id as number,
    title: `${mark} notice`,
    content: `<p>${mark} notice</p>`,
  });
  return { t, tokens, orgs };
}

beforeAll(async () => {
  const a = f.t;
  // B's host and e-mail domain carry B's mark too.
  const b = await createTenant(f.ctx, MARK_B);
  await liftCounters(b.tenant.id, 700_000);
  A = await seedTenant(a, MARK_A);
  B = await seedTenant(b, MARK_B);

  idsOfB = new Map();
  const idsOfA = new Set<number>();
  for (const { name, hasId } of await tenantTables()) {
    if (!hasId) continue;
    const ids = await rows<{ id: number; tenant_id: number }>(
      sql.raw(
        `select id::int as id, tenant_id::int as tenant_id from "${name}" where tenant_id in (${a.tenant.id}, ${b.tenant.id})`,
      ),
    );
    const own = ids.filter((r) => r.tenant_id === b.tenant.id).map((r) => r.id);
    for (const r of ids) if (r.tenant_id === a.tenant.id) idsOfA.add(r.id);
    if (own.length > 0) idsOfB.set(name, own);
  }
  // An id of B's in one table may be an id of A's in another: the second pass, which puts any of
  // B's ids anywhere, leaves those out so it cannot touch A's own rows (and end A's session).
  anyIdsOfB = [...new Set([...idsOfB.values()].flat())].filter((id) => !idsOfA.has(id)).sort((x, y) => x - y);

  const texts = async (query: string) => (await rows<{ v: string }>(sql.raw(query))).map((r) => r.v);
  const numberColumns = await rows<{ table_name: string; column_name: string }>(
    sql.raw(`select table_name, column_name from information_schema.columns where table_schema = 'public'
      and column_name in ('order_no', 'waybill_no', 'work_order_no', 'bill_no', 'quote_no', 'task_no', 'serial', 'tracking_no')`),
  );
  numbersOfB = [];
  for (const { table_name: table, column_name: column } of numberColumns)
    numbersOfB.push(
      ...(await texts(
        `select distinct "${column}"::text as v from "${table}" where tenant_id = ${b.tenant.id} and coalesce("${column}", '') <> ''`,
      )),
    );
  const numbersOfA = new Set<string>();
  for (const { table_name: table, column_name: column } of numberColumns)
    for (const v of await texts(
      `select distinct "${column}"::text as v from "${table}" where tenant_id = ${a.tenant.id}`,
    ))
      numbersOfA.add(v);
  numbersOfB = [...new Set(numbersOfB)].filter((n) => !numbersOfA.has(n));
  uploadKeysOfB = await texts(`select key as v from uploads where tenant_id = ${b.tenant.id}`);
  uploadUrlsOfB = uploadKeysOfB.map((key) => `/api/uploads/${key}`);
  invitationCodesOfB = await texts(
    `select code as v from invitation_codes where tenant_id = ${b.tenant.id}`,
  ).catch(() => []);

  operations = await apiOperations(f.ctx.app, a.host);
}, 240_000);
let anyIdsOfB: number[];

// --- Bodies built from the schema ------------------------------------------------------------------

const isIdField = (name: string) => name === 'id' || name === 'ids' || /Ids?$/.test(name);
/** String fields that name a record by its number, or a file by its address. */
const isNumberField = (name: string) =>
  ['orderNo', 'waybillNo', 'sn', 'serial', 'reference', 'customerOrderNo'].includes(name);
const isUrlField = (name: string) => /Urls?$/.test(name) || name === 'url' || name === 'attachments';

/** The tables an id field of an operation points into (all of B's tables when unknown). */
function kindsOf(op: Operation, field: string): string[] {
  const p = op.path;
  const express = p.startsWith('/api/express/') || /express|channel/i.test(p);
  switch (field.replace(/s$/, '')) {
    case 'organisationId':
    case 'parentId':
      return ['organisations'];
    case 'roleId':
      return ['roles'];
    case 'userId':
      return ['users'];
    case 'accountId':
      return ['accounts'];
    case 'receivingAccountId':
      return ['receiving_accounts'];
    case 'productId':
      return [express ? 'express_products' : 'truck_products'];
    case 'channelId':
    case 'hiddenChannelId':
      return ['express_channels'];
    case 'quoteId':
      return [express ? 'express_quotes' : 'truck_quotes'];
    case 'taskId':
      return ['quotation_tasks'];
    case 'billId':
      return ['bounce_bills'];
    case 'orderId':
      return ['truck_orders', 'express_waybills'];
    case 'waybillId':
      return ['express_waybills'];
    case 'returnAddressId':
      return ['express_addresses'];
    case 'defaultPickupAddressId':
      return ['address_book'];
  }
  // `id` and `ids`: by the operation's area.
  const areas: [RegExp, string[]][] = [
    [/\/role\//, ['roles']],
    [/\/staff\//, ['users']],
    [/\/customer\/(userSave|userStatus)/, ['users']],
    [/\/customer\/invitationRevoke/, ['invitation_codes']],
    [/\/customer\//, ['organisations']],
    [/receivingAccount/, ['receiving_accounts']],
    [/\/recharge\//, ['recharges']],
    [/\/invoice\//, ['invoices']],
    [/\/freightRule\//, ['truck_lanes']],
    [/\/product\//, ['truck_products']],
    [/\/quotation\/(task|saveQuotation)/, ['quotation_tasks']],
    [/\/express\/quotation\//, ['express_quotes']],
    [/\/admin\/quotation\//, ['truck_quotes']],
    [/\/express\/(order|tracking)\//, ['express_waybills']],
    [/\/admin\/order\//, ['truck_orders']],
    [/\/notice\//, ['notices']],
    [/\/express\/address\//, ['express_addresses']],
    [/\/address\//, ['address_book']],
    [/\/expressProduct\//, ['express_products']],
    [/\/expressChannel\//, ['express_channels']],
    [/\/carrierAccount\//, ['carrier_accounts']],
    [/\/bounceBill\//, ['bounce_bills']],
    [/\/workOrder\//, ['work_orders']],
  ];
  const found = areas.find(([pattern]) => pattern.test(p));
  return found ? found[1] : [...idsOfB.keys()];
}

const STRING_SAMPLES = [
  '1.00',
  '1',
  '90001',
  '123456',
  '#336699',
  isoDay(),
  'TX',
  'US',
  'A1',
  '12345678',
  '10:00',
  'UN1203',
  '1234',
  '900',
  'Sweep test',
];

/** A value the schema accepts, as far as a generic walk can tell. */
function sample(schema: JsonSchema | undefined, name: string): unknown {
  if (!schema) return 'x';
  if (schema.enum) return schema.enum[0];
  if (schema.const !== undefined) return schema.const;
  if (schema.anyOf ?? schema.oneOf) return sample((schema.anyOf ?? schema.oneOf)?.[0], name);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'integer':
    case 'number':
      return Math.max(1, schema.minimum ?? 1);
    case 'boolean':
      return false;
    case 'array':
      return Array.from({ length: Math.max(1, schema.minItems ?? 0) }, () => sample(schema.items, name));
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [key, inner] of Object.entries(schema.properties ?? {}))
        if (schema.required?.includes(key)) out[key] = sample(inner, key);
      return out;
    }
    default: {
      if (/email/i.test(name)) return 'sweep@example.com';
      if (schema.pattern) {
        const pattern = new RegExp(schema.pattern);
        const match = STRING_SAMPLES.find(
          (s) =>
            pattern.test(s) && s.length <= (schema.maxLength ?? 1e9) && s.length >= (schema.minLength ?? 0),
        );
        if (match) return match;
      }
      const text = 'Sweep test';
      return text.slice(0, schema.maxLength ?? text.length).padEnd(schema.minLength ?? 0, 'x');
    }
  }
}

type IdChoice = (field: string, many: boolean) => unknown;

/** The body with every id-like field, at any depth, set by `choose`, and number and file fields set to B's. */
function bodyFor(schema: JsonSchema, choose: IdChoice, variant: number): Record<string, unknown> {
  const out = sample(schema, '') as Record<string, unknown>;
  for (const [key, inner] of Object.entries(schema.properties ?? {})) {
    const type = Array.isArray(inner.type) ? inner.type[0] : inner.type;
    if (isIdField(key)) out[key] = choose(key, type === 'array');
    else if (isNumberField(key) && numbersOfB.length > 0)
      out[key] = numbersOfB[variant % numbersOfB.length]?.slice(0, inner.maxLength ?? 100);
    else if (isUrlField(key) && uploadUrlsOfB.length > 0)
      out[key] = type === 'array' ? uploadUrlsOfB.slice(0, 5) : uploadUrlsOfB[variant % uploadUrlsOfB.length];
    else if (key === 'keyword')
      out[key] = variant % 2 === 0 ? MARK_B : (numbersOfB[variant % numbersOfB.length] ?? MARK_B);
    else if (key === 'invitationCode' && invitationCodesOfB.length > 0) out[key] = invitationCodesOfB[0];
    else if (key === 'token') out[key] = B.tokens.admin;
    else if (type === 'object' && inner.properties) {
      // One level down (a user of a new organisation, an address): ids there too.
      const nested = out[key] as Record<string, unknown> | undefined;
      if (nested && typeof nested === 'object')
        for (const inKey of Object.keys(inner.properties))
          if (isIdField(inKey)) nested[inKey] = choose(inKey, inner.properties[inKey]?.type === 'array');
    }
  }
  return out;
}

function urlFor(op: Operation, choose: IdChoice, variant: number): string {
  const url = op.path.replace(/\{([^}]+)\}/g, (_m, name: string) =>
    name === 'key' ? (uploadKeysOfB[variant % uploadKeysOfB.length] ?? 'none') : String(choose(name, false)),
  );
  const query: string[] = [];
  for (const param of op.parameters.filter((p) => p.in === 'query')) {
    let value: unknown;
    if (isIdField(param.name)) value = choose(param.name, false);
    else if (param.name === 'sn') value = numbersOfB.filter((n) => /^E?WO/.test(n))[variant] ?? numbersOfB[0];
    else if (param.name === 'keyword') value = MARK_B;
    else if (param.name === 'to') value = B.t.email('admin');
    else value = sample(param.schema, param.name);
    query.push(`${param.name}=${encodeURIComponent(String(value))}`);
  }
  return query.length > 0 ? `${url}?${query.join('&')}` : url;
}

function send(op: Operation, host: string, token: string | undefined, choose: IdChoice, variant: number) {
  const headers: Record<string, string> = { host, 'accept-language': 'en-US' };
  if (token) headers.accesstoken = token;
  const url = urlFor(op, choose, variant);
  if (op.method === 'GET') return f.ctx.app.inject({ method: 'GET', url, headers });
  headers['content-type'] = 'application/json';
  const body = op.body ? bodyFor(op.body, choose, variant) : {};
  return f.ctx.app.inject({ method: 'POST', url, headers, payload: JSON.stringify(body) });
}

/** Everything readable of an answer: its text, a spreadsheet's cells, a PDF's words, its headers. */
async function readable(res: LightMyRequestResponse): Promise<string> {
  const type = String(res.headers['content-type'] ?? '');
  const parts = [JSON.stringify(res.headers), res.body];
  if (type.includes('spreadsheetml')) {
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    workbook.eachSheet((sheet) =>
      sheet.eachRow((row) => {
        parts.push(JSON.stringify(row.values));
      }),
    );
  } else if (type.includes('pdf')) {
    const pdf = await getDocumentProxy(new Uint8Array(res.rawPayload));
    const { text } = await extractText(pdf, { mergePages: true });
    parts.push(text);
  }
  return parts.join('\n').toLowerCase();
}

/** What of B an answer shows, if anything. */
async function leakIn(res: LightMyRequestResponse): Promise<string | null> {
  const text = await readable(res);
  if (text.includes(MARK_B)) return `shows ${MARK_B}`;
  const number = numbersOfB.find((n) => text.includes(n.toLowerCase()));
  if (number) return `shows B's number ${number}`;
  const key = uploadKeysOfB.find((k) => text.includes(k.toLowerCase()));
  if (key) return `shows B's upload ${key}`;
  return null;
}

/** Calls that take a file: imports, batch bookings and uploads. */
const takesFile = (op: Operation) =>
  op.method === 'POST' && !op.body && /\/(import|importDataCheck|batchOrdering|upload\/\w+)$/.test(op.path);

/** A truck batch file of one good row, booked for whoever the form names. */
async function truckBatchFile(): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Orders');
  sheet.addRow(BATCH_COLUMNS.map((c) => c.en));
  sheet.addRow(truckBatchRow({ customerOrderNo: `${MARK_A}-batch` }));
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** The file an import takes: its own template as A downloads it (empty of rows), or a batch of one row. */
async function fileFor(op: Operation): Promise<MultipartPart> {
  if (op.path.includes('/upload/'))
    return op.path.endsWith('/documents')
      ? {
          name: 'file',
          filename: 'proof.pdf',
          contentType: 'application/pdf',
          content: Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n'),
        }
      : { name: 'file', filename: 'proof.png', contentType: 'image/png', content: makePng() };
  const xlsx = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
  if (op.path === '/api/admin/order/importDataCheck' || op.path === '/api/admin/order/batchOrdering')
    return { name: 'file', filename: 'orders.xlsx', contentType: xlsx, content: await truckBatchFile() };
  const base = op.path.replace(/\/[^/]+$/, '');
  const template = operations.find(
    (o) => o.path === `${base}/template` || o.path === `${base}/batchTemplate`,
  );
  let content: Buffer = Buffer.alloc(0);
  if (template) {
    const res = await f.ctx.app.inject({
      method: template.method,
      url: template.path,
      headers: { host: A.t.host, accesstoken: A.tokens.admin as string, 'content-type': 'application/json' },
      ...(template.method === 'POST' ? { payload: '{}' } : {}),
    });
    content = res.rawPayload;
  }
  if (op.path === '/api/express/tracking/import') {
    // Events for B's parcels, by B's tracking numbers.
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(content as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0] as ExcelJS.Worksheet;
    const tracking = numbersOfB.filter((n) => n.startsWith('FP'));
    for (const [i, number] of tracking.entries())
      sheet.getRow(i + 2).values = [number, '2026-11-25 09:30', 'delivered', `${MARK_A} hub`, ''];
    content = Buffer.from(await workbook.xlsx.writeBuffer());
  }
  return { name: 'file', filename: 'import.xlsx', contentType: xlsx, content };
}

const label = (op: Operation) => `${op.method} ${op.path}`;
const swept = () => operations.filter((op) => !SKIPPED[label(op)]);
const takesIds = (op: Operation) =>
  op.parameters.some((p) => p.in === 'path' || isIdField(p.name) || p.name === 'sn') ||
  Object.keys(op.body?.properties ?? {}).some((k) => isIdField(k) || isNumberField(k) || isUrlField(k));

describe("A's administrator with B's ids in every call", () => {
  it("sees B's rows when B itself asks: the search finds marks in lists, spreadsheets and labels", async () => {
    const asB = f.withToken(B.tokens.admin, B.t);
    const paid = (
      await rows<{ id: number }>(
        sql.raw(
          `select id::int as id from express_waybills where tenant_id = ${B.t.tenant.id} and status = 'to_be_printed'`,
        ),
      )
    ).map((r) => r.id);
    const customerOfB = f.withToken(B.tokens.customer, B.t);
    for (const [url, body, caller] of [
      ['/api/admin/order/list', {}, asB],
      ['/api/admin/order/export', {}, asB],
      ['/api/express/order/list', {}, asB],
      ['/api/express/order/print', { ids: paid }, customerOfB],
      ['/api/admin/address/list', {}, asB],
      ['/api/express/address/list', {}, asB],
      ['/api/admin/workOrder/list', {}, asB],
      ['/api/admin/recharge/export', {}, asB],
    ] as const) {
      const res = await caller.post(url, body);
      expect(res.statusCode, `${url} ${res.body.slice(0, 200)}`).toBe(200);
      expect(await leakIn(res), url).not.toBeNull();
    }
  });

  it('lists the operations it sweeps, and every skip is a known operation', () => {
    expect(operations.length).toBeGreaterThan(150);
    const known = new Set(operations.map(label));
    expect(Object.keys(SKIPPED).filter((k) => !known.has(k))).toEqual([]);
    // B has rows of every kind the sweep aims at.
    for (const table of [
      'truck_orders',
      'truck_quotes',
      'quotation_tasks',
      'bounce_bills',
      'work_orders',
      'express_waybills',
      'express_quotes',
      'express_products',
      'express_channels',
      'recharges',
      'receiving_accounts',
      'invoices',
      'roles',
      'users',
      'organisations',
      'invitation_codes',
      'address_book',
      'accounts',
      'notices',
      'uploads',
    ])
      expect(idsOfB.get(table)?.length ?? 0, table).toBeGreaterThan(0);
    expect(numbersOfB.length).toBeGreaterThan(8);
  });

  it("never fails, shows nothing of B and changes none of B's rows", async () => {
    const before = await snapshotOf(B.t.tenant.id);
    const problems: string[] = [];
    let calls = 0;
    const answers = new Map<string, number>();
    const check = async (op: Operation, res: LightMyRequestResponse, what: string) => {
      calls++;
      let code: unknown = res.statusCode;
      try {
        code = res.json().code;
      } catch {}
      const key = `${res.statusCode}/${code}`;
      answers.set(key, (answers.get(key) ?? 0) + 1);
      if (res.statusCode >= 500)
        problems.push(`${label(op)} ${what}: answered ${res.statusCode} ${res.body.slice(0, 200)}`);
      if (res.statusCode !== 200) return;
      const leak = await leakIn(res);
      if (leak) problems.push(`${label(op)} ${what}: ${leak}`);
    };
    const token = A.tokens.admin;
    // First pass: B's ids of the matching kind, a few calls an operation so each id of the kind comes up.
    for (const op of swept()) {
      const fields = [
        ...Object.keys(op.body?.properties ?? {}).filter(isIdField),
        ...op.parameters.filter((p) => isIdField(p.name) || p.in === 'path').map((p) => p.name),
      ];
      const width = Math.min(
        6,
        Math.max(1, ...fields.map((field) => kindsOf(op, field).flatMap((k) => idsOfB.get(k) ?? []).length)),
      );
      for (let variant = 0; variant < width; variant++) {
        const choose: IdChoice = (field, many) => {
          const ids = kindsOf(op, field).flatMap((k) => idsOfB.get(k) ?? []);
          if (ids.length === 0) return many ? [] : 1;
          return many ? ids.slice(0, 20) : ids[variant % ids.length];
        };
        const res = await send(op, A.t.host, token, choose, variant);
        await check(op, res, `kind pass ${variant}`);
      }
    }
    // Second pass: every one of B's ids (not also an id of A's) in every id field, whatever its kind.
    for (const op of swept().filter(takesIds)) {
      for (const [variant, id] of anyIdsOfB.entries()) {
        const res = await send(op, A.t.host, token, (_field, many) => (many ? [id] : id), variant);
        await check(op, res, `id ${id}`);
      }
    }
    // Third: the calls that take a file, with B's ids in the query and in the form beside the file.
    for (const op of swept().filter(takesFile)) {
      const file = await fileFor(op);
      for (const [variant, table] of [
        'organisations',
        'address_book',
        'express_addresses',
        'express_channels',
        'truck_products',
      ].entries()) {
        const id = idsOfB.get(table)?.[0] ?? 1;
        const choose: IdChoice = (field) => kindsOf(op, field).flatMap((k) => idsOfB.get(k) ?? [])[0] ?? id;
        const { payload, contentType } = multipartBody([
          ...['organisationId', 'address_id', 'addressId', 'channelId', 'productId', 'id'].map((name) => ({
            name,
            value: String(
              name.startsWith('address')
                ? (idsOfB.get(
                    op.path.startsWith('/api/express/') ? 'express_addresses' : 'address_book',
                  )?.[0] ?? id)
                : id,
            ),
          })),
          { name: 'token', value: B.tokens.admin as string },
          file,
        ]);
        const res = await f.ctx.app.inject({
          method: 'POST',
          url: urlFor(op, choose, variant),
          headers: {
            host: A.t.host,
            accesstoken: token,
            'accept-language': 'en-US',
            'content-type': contentType,
          },
          payload,
        });
        await check(op, res, `file with ${table} ${id}`);
      }
    }
    console.info(
      `${calls} calls, ${anyIdsOfB.length} ids of B in the second pass; answers (HTTP/code):`,
      Object.fromEntries(answers),
    );
    expect(problems.slice(0, 40)).toEqual([]);
    expect(calls).toBeGreaterThan(operations.length);
    // A is still signed in: no call of the sweep ended its session.
    const me = await call(f.ctx, 'POST', '/api/admin/auth/getInfo', {}, { host: A.t.host, token });
    expect(me.json().code).toBe(200);
    expect(await snapshotOf(B.t.tenant.id)).toEqual(before);
  }, 400_000);
});

describe("B's ids in A's own records", () => {
  it('are refused as a default pickup address and left out of hidden channels', async () => {
    const asA = f.withToken(A.tokens.admin, A.t);
    const channelOfA = (
      await rows<{ id: number }>(
        sql.raw(`select id::int as id from express_channels where tenant_id = ${A.t.tenant.id} limit 1`),
      )
    )[0]?.id as number;
    const refused = await asA.fail(
      '/api/express/customer/setQuotationConfig',
      { defaultPickupAddressId: idsOfB.get('address_book')?.[0] },
      400,
    );
    expect(refused.data.fields[0].field).toBe('defaultPickupAddressId');
    const saved = await asA.ok('/api/express/customer/setQuotationConfig', {
      hiddenChannelIds: [...(idsOfB.get('express_channels') ?? []), channelOfA],
    });
    expect(saved.hiddenChannelIds).toEqual([channelOfA]);
    expect((await asA.ok('/api/admin/admin/quotationConfig')).quotation.hiddenChannelIds).toEqual([
      channelOfA,
    ]);
  });
});

describe("B's administrator on A's host", () => {
  it("is no session there: every guarded call answers 300, none fails, none shows B's rows", async () => {
    const before = await snapshotOf(B.t.tenant.id);
    const problems: string[] = [];
    const ownIds: IdChoice = (_field, many) => (many ? anyIdsOfB.slice(0, 5) : anyIdsOfB[0]);
    for (const op of swept()) {
      const anonymous = await send(op, A.t.host, undefined, ownIds, 0);
      const res = await send(op, A.t.host, B.tokens.admin, ownIds, 0);
      if (res.statusCode >= 500) problems.push(`${label(op)}: answered ${res.statusCode}`);
      const guarded = anonymous.statusCode === 401;
      if (guarded && (res.statusCode !== 401 || res.json().code !== 300))
        problems.push(`${label(op)}: answered ${res.statusCode} ${res.body.slice(0, 120)} to B's token`);
      if (res.statusCode === 200) {
        const leak = await leakIn(res);
        if (leak) problems.push(`${label(op)}: ${leak}`);
      }
    }
    expect(problems).toEqual([]);
    expect(await snapshotOf(B.t.tenant.id)).toEqual(before);
    // B's token still works on B's own host.
    const me = await call(
      f.ctx,
      'POST',
      '/api/admin/auth/getInfo',
      {},
      { host: B.t.host, token: B.tokens.admin },
    );
    expect(me.json().code).toBe(200);
  }, 120_000);
});
