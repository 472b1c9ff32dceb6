import type { Language } from '@freight/contracts/api';
import { messages } from '@freight/contracts/messages';
import { fieldLabel, fieldLabels } from '@freight/contracts/validation';
import { sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiOperations, type JsonSchema, type Operation } from './api-operations.ts';
import { useTestApp } from './fixture.ts';

/**
 * Every operation the API describes, called with malformed input the way a careless or hostile client
 * would: wrong types for each property, control characters, huge and nested values, bodies that are not
 * objects or not JSON, and malformed query strings and path parameters. None may fail on the server,
 * every answer is an envelope, every 400 says which field (or what is wrong with the body), and no row
 * changes.
 */

/** The answers that describe the body as a whole rather than one field. */
const BODY_MESSAGES = new Set(
  (['validation.bodyNotObject', 'error.invalidJson'] as const).flatMap((key) =>
    (['zh-CN', 'en-US'] as const).map((language) => messages[language][key]),
  ),
);
const UNSUPPORTED_TYPE = (['zh-CN', 'en-US'] as const).map(
  (language) => messages[language]['error.unsupportedMediaType'].split('{{type}}')[0] as string,
);

/**
 * Tables that refused calls write to by design: the operation log records every audited call, and the
 * request limits count every public call, refused or not.
 */
const LOGGED_TABLES = new Set(['operation_logs', 'rate_limit_hits']);

const f = useTestApp({ signIn: ['admin', 'customer'], truck: true });
let tokens: Record<'admin' | 'customer', string>;
let operations: Operation[];

beforeAll(async () => {
  // Rows for wrongly typed ids to hit: a product with a lane, an address, accounts with money, the
  // seeded receiving accounts and roles.
  const truck = f.truck;
  await truck.ok(
    '/api/admin/address/save',
    {
      name: 'Dock A',
      address1: '100 Main St',
      zipcode: '90001',
      city: 'Los Angeles',
      state: 'CA',
      contact: 'Pat Lee',
      phone: '2135550100',
      email: 'dock@example.com',
    },
    'customer',
  );
  await truck.setBalance('customer', 1_000_000n);
  tokens = { admin: truck.tokens.admin as string, customer: (await f.signIn('customer')).token as string };
  operations = await apiOperations(f.ctx.app, f.t.host);
}, 180_000);

/** Row count and a digest of every row, per table: any insert, update or delete shows. */
async function snapshot(): Promise<Record<string, string>> {
  const rows = async <T>(query: ReturnType<typeof sql.raw>) => {
    const result = await f.db.execute(query);
    return ((result as unknown as { rows?: T[] }).rows ?? (result as unknown as T[])) as T[];
  };
  const tables = await rows<{ table_name: string }>(
    sql.raw(
      "select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name",
    ),
  );
  const out: Record<string, string> = {};
  for (const { table_name: name } of tables) {
    if (LOGGED_TABLES.has(name)) continue;
    const [row] = await rows<{ n: number; digest: string }>(
      sql.raw(
        `select count(*)::int as n, md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as digest from "${name}" t`,
      ),
    );
    out[name] = `${row?.n}:${row?.digest}`;
  }
  return out;
}

type Input =
  | { kind: 'json'; body: unknown; property?: string }
  | { kind: 'raw'; payload: string; contentType: string }
  | { kind: 'query'; query: string; param?: string }
  | { kind: 'path'; value: string };

const deep = (depth: number): unknown => {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = [value];
  return value;
};
const HUGE = 'x'.repeat(100_000);

/** Wrong values for a property of this schema: never one the property could accept. */
function wrongValues(schema: JsonSchema): unknown[] {
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (schema.enum || schema.const !== undefined) return ['no-such-value\u0000', 7, true];
  switch (type) {
    case 'integer':
      return [true, [1], '12', 1.5, -1, 0, 2 ** 63, 'NaN'];
    case 'number':
      return [true, '1', [1], 1e300, { n: 1 }];
    case 'boolean':
      return ['true', 1, [true]];
    case 'string':
      return ['a\u0000b', 'a\u001bb', 'x\ud800', HUGE, 12, true, ['a'], { a: 'b' }];
    case 'array':
      return ['x', { a: 1 }, [true, 'a\u0000'], deep(2_000)];
    case 'object':
      return ['x', [1], 1];
    default:
      return [[true, { a: '\u0000' }], 'a\u0000b', deep(2_000)];
  }
}

/** About thirty malformed inputs for one operation, spread over its properties and parameters. */
function inputsFor(op: Operation): Input[] {
  const inputs: Input[] = [];
  const query = op.parameters.filter((p) => p.in === 'query');
  const path = op.parameters.filter((p) => p.in === 'path');
  if (op.body) {
    inputs.push(
      { kind: 'json', body: null },
      { kind: 'json', body: [] },
      { kind: 'json', body: 'x' },
      { kind: 'json', body: 1 },
      { kind: 'json', body: true },
      { kind: 'raw', payload: '{"a":', contentType: 'application/json' },
      { kind: 'raw', payload: 'hello', contentType: 'text/plain' },
      { kind: 'raw', payload: 'a=1&b=2', contentType: 'application/x-www-form-urlencoded' },
    );
    const properties = Object.entries(op.body.properties ?? {});
    // Prototype keys beside a wrongly typed property: refused for the property, and no prototype set.
    const [first] = properties;
    if (first) {
      const wrong = JSON.stringify({ [first[0]]: wrongValues(first[1])[0] }).slice(1);
      inputs.push({
        kind: 'raw',
        payload: `{"__proto__":{"id":1,"admin":true},"constructor":{"prototype":{"admin":true}},${wrong}`,
        contentType: 'application/json',
      });
    }
    const perProperty = properties.map(([name, schema]) =>
      wrongValues(schema).map((v) => [name, v] as const),
    );
    // Round robin, so every property gets its first wrong values before any gets its last.
    for (let round = 0; inputs.length < 32 && perProperty.some((list) => list.length > round); round++) {
      for (const list of perProperty) {
        const entry = list[round];
        if (!entry || inputs.length >= 32) continue;
        inputs.push({ kind: 'json', body: { [entry[0]]: entry[1] }, property: entry[0] });
      }
    }
  } else if (op.method === 'POST') {
    // Calls that take no input: only what is refused before the handler runs.
    inputs.push(
      { kind: 'raw', payload: '{"a":', contentType: 'application/json' },
      { kind: 'raw', payload: 'hello', contentType: 'text/plain' },
    );
  }
  for (const param of query) {
    const isNumber = param.schema?.type === 'integer' || param.schema?.type === 'number';
    const values = [
      '%00',
      'a%00b',
      'a%1Bb',
      'x'.repeat(5_000),
      `1&${param.name}=2`,
      ...(isNumber ? ['true', '-1', '0', '1e3', '%201', '0x10', '99999999999999999999', '%5B1%5D'] : []),
    ];
    for (const value of values)
      inputs.push({ kind: 'query', query: `${param.name}=${value}`, param: param.name });
  }
  if (path.length > 0) {
    for (const value of ['%00.png', 'a%00b', 'x'.repeat(3_000), '..%2F..%2Fetc.png', 'true']) {
      inputs.push({ kind: 'path', value });
    }
  }
  return inputs;
}

function send(op: Operation, input: Input, token: string | undefined, language: Language) {
  const headers: Record<string, string> = { host: f.t.host, 'accept-language': language };
  if (token) headers.accesstoken = token;
  let url = op.path.replace(/\{[^}]+\}/g, 'abc.png');
  let payload: string | undefined;
  if (input.kind === 'json') {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(input.body);
  } else if (input.kind === 'raw') {
    headers['content-type'] = input.contentType;
    payload = input.payload;
  } else if (input.kind === 'query') {
    url = `${url}?${input.query}`;
  } else {
    url = op.path.replace(/\{[^}]+\}/g, input.value);
  }
  if (op.method === 'POST' && payload === undefined) {
    headers['content-type'] = 'application/json';
    payload = '{}';
  }
  return f.ctx.app.inject({ method: op.method, url, headers, ...(payload !== undefined ? { payload } : {}) });
}

/** What is wrong with one answer, or null when it is as it should be. */
/** The scopes routes may word their fields in (`scope:field` keys of the labels). */
const LABEL_SCOPES = [
  ...new Set(
    Object.keys(fieldLabels)
      .filter((key) => key.includes(':'))
      .map((key) => key.split(':')[0] as string),
  ),
];

function problemWith(res: LightMyRequestResponse, input: Input, language: Language): string | null {
  if (res.statusCode >= 500) return `answered ${res.statusCode}`;
  let body: { code?: unknown; msg?: unknown; data?: any };
  try {
    body = res.json();
  } catch {
    return `answered outside the envelope: ${res.statusCode} ${res.body.slice(0, 120)}`;
  }
  if (typeof body.code !== 'number' || typeof body.msg !== 'string' || !('data' in body))
    return `answered outside the envelope: ${res.body.slice(0, 120)}`;
  if (body.msg.trim() === '') return 'answered with an empty message';
  if (body.code === 200) {
    // A query parameter of the right form may still be accepted; a malformed body never is.
    return input.kind === 'json' || input.kind === 'raw'
      ? `accepted malformed input: ${res.body.slice(0, 120)}`
      : null;
  }
  if (res.statusCode === 415) {
    return UNSUPPORTED_TYPE.some((start) => (body.msg as string).startsWith(start))
      ? null
      : `415 without saying which content type: ${body.msg}`;
  }
  if (body.code !== 400 || res.statusCode === 413 || res.statusCode === 414) return null;
  const fields = body.data?.fields as { field: string; message: string }[] | undefined;
  if (!Array.isArray(fields) || fields.length === 0) return `400 naming no field: ${body.msg}`;
  for (const { field, message } of fields) {
    if (!field || !message) return `400 with an empty field or message: ${JSON.stringify(fields)}`;
    if (field === 'body' && BODY_MESSAGES.has(message)) continue;
    // A route may word its fields in its own scope (`catalogue:code`): any of the field's labels names it.
    const labels = [undefined, ...LABEL_SCOPES].map((scope) => fieldLabel(field, language, scope));
    if (!labels.some((label) => message.toLowerCase().includes(label.toLowerCase())))
      return `message for ${field} does not name it (${labels[0]}): ${message}`;
  }
  if (input.kind === 'query' && input.param) {
    const named = fields.some((f) => f.field === input.param);
    if (!named) return `the wrong ${input.param} is not among the fields: ${JSON.stringify(fields)}`;
  }
  if (input.kind === 'json' && input.property) {
    const named = fields.some((f) => f.field === input.property || f.field.startsWith(`${input.property}.`));
    if (!named) return `the wrong ${input.property} is not among the fields: ${JSON.stringify(fields)}`;
  }
  return null;
}

const describeInput = (input: Input) =>
  JSON.stringify(input, (_k, v) =>
    typeof v === 'string' && v.length > 60 ? `${v.slice(0, 20)}…(${v.length})` : v,
  ).slice(0, 200);

/** Every field path a body, query string or path of the operation can name, lists flattened. */
function fieldPaths(op: Operation): string[] {
  const out = new Set<string>();
  const walk = (schema: JsonSchema | undefined, path: string) => {
    if (!schema) return;
    if (path) out.add(path);
    for (const [name, inner] of Object.entries(schema.properties ?? {}))
      walk(inner, path ? `${path}.${name}` : name);
    walk(schema.items, path);
    for (const option of [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])]) walk(option, path);
  };
  walk(op.body ?? undefined, '');
  for (const param of op.parameters) if (param.in !== 'header') out.add(param.name);
  return [...out];
}

describe('field labels', () => {
  it('has a label in both languages for every field any operation takes', () => {
    const missing = new Set<string>();
    for (const op of operations)
      for (const path of fieldPaths(op))
        for (const language of ['zh-CN', 'en-US'] as const) {
          const label = fieldLabel(path, language);
          if (!label || label === path || label === path.split('.').pop())
            missing.add(`${path} (${op.path})`);
        }
    expect([...missing].sort()).toEqual([]);
  });
});

describe('every operation of the API under malformed input', () => {
  it('lists the operations it fuzzes', () => {
    expect(operations.length).toBeGreaterThan(100);
  });

  it('never fails, always answers in the envelope naming the field, and changes no row', async () => {
    const before = await snapshot();
    const problems: string[] = [];
    let calls = 0;
    for (const op of operations) {
      const inputs = inputsFor(op);
      for (const [i, input] of inputs.entries()) {
        const language: Language = i % 2 === 0 ? 'en-US' : 'zh-CN';
        const as = i % 5 === 4 ? 'customer' : 'admin';
        const res = await send(op, input, tokens[as], language);
        calls++;
        const problem = problemWith(res, input, language);
        if (problem) problems.push(`${op.method} ${op.path} as ${as} ${describeInput(input)}: ${problem}`);
      }
    }
    expect(problems.slice(0, 40)).toEqual([]);
    // The callers' sessions survived (a refused call never ran, so none signed anybody out).
    for (const as of ['admin', 'customer'] as const) {
      const me = await send(
        { method: 'POST', path: '/api/admin/auth/getInfo', parameters: [], body: null },
        { kind: 'json', body: {} },
        tokens[as],
        'en-US',
      );
      expect(me.json().code, as).toBe(200);
    }
    expect(calls).toBeGreaterThan(2_000);
    const after = await snapshot();
    expect(after).toEqual(before);
  }, 240_000);

  it('checks the session before reading the body: without one every guarded call answers 300', async () => {
    const problems: string[] = [];
    for (const op of operations) {
      const probe = await send(op, { kind: 'json', body: {} }, undefined, 'en-US');
      if (probe.json().code !== 300) continue; // a public call
      for (const input of [
        { kind: 'raw', payload: 'hello', contentType: 'text/plain' },
        { kind: 'raw', payload: '{"a":', contentType: 'application/json' },
        { kind: 'raw', payload: '--x\r\n', contentType: 'multipart/form-data; boundary=x' },
      ] as const) {
        const res = await send(op, input, undefined, 'en-US');
        if (res.statusCode >= 500 || res.json().code !== 300)
          problems.push(
            `${op.method} ${op.path} ${input.contentType}: ${res.statusCode} ${res.body.slice(0, 100)}`,
          );
      }
    }
    expect(problems).toEqual([]);
  }, 120_000);
});
