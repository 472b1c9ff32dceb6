import { readdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { dayField, idField, instantField, isSafeText, queryId, str } from './fields.ts';

/**
 * Every input schema the contracts export (bodies, queries, form parts and field rules) is walked to
 * its fields: each text field refuses control characters and has a maximum length, and each number
 * refuses booleans, strings and lists, so a new field written with a bare `z.string()` or
 * `z.coerce` fails here before it reaches a form or a route.
 */

const here = dirname(fileURLToPath(import.meta.url));
const FORM_PARTS = new Set([
  'classLine',
  'dangerousGoods',
  'registrationProfile',
  'shipmentAddress',
  'shipmentLine',
]);
const isInputName = (name: string) => /(Body|Query|Field|Fields)$/.test(name) || FORM_PARTS.has(name);

type Def = { type: string; [key: string]: unknown };
const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** The schema under optional, nullable and default wrappers. */
function unwrap(schema: z.ZodType): z.ZodType {
  let current = schema;
  for (;;) {
    const def = defOf(current);
    if (['optional', 'nullable', 'default', 'prefault', 'readonly', 'catch'].includes(def.type))
      current = def.innerType as z.ZodType;
    else return current;
  }
}

/** What kind of leaf a field is: text, a number, or something to walk into. */
function kindOf(schema: z.ZodType): 'text' | 'number' | 'other' {
  const def = defOf(unwrap(schema));
  if (def.type === 'string') return 'text';
  if (def.type === 'number') return 'number';
  if (def.type === 'pipe') return kindOf(def.in as z.ZodType);
  if (def.type === 'union') {
    const kinds = (def.options as z.ZodType[]).map(kindOf);
    if (kinds.includes('text')) return 'text';
    if (kinds.includes('number')) return 'number';
  }
  return 'other';
}

/** Every leaf field of a schema, with its path. */
function leaves(schema: z.ZodType, path: string, out: [string, z.ZodType][]) {
  const kind = kindOf(schema);
  if (kind !== 'other') {
    out.push([path, schema]);
    return;
  }
  const def = defOf(unwrap(schema));
  if (def.type === 'object')
    for (const [key, inner] of Object.entries(def.shape as Record<string, z.ZodType>))
      leaves(inner, path ? `${path}.${key}` : key, out);
  else if (def.type === 'array') leaves(def.element as z.ZodType, `${path}.0`, out);
  else if (def.type === 'union') for (const option of def.options as z.ZodType[]) leaves(option, path, out);
  else if (def.type === 'intersection') {
    leaves(def.left as z.ZodType, path, out);
    leaves(def.right as z.ZodType, path, out);
  } else if (def.type === 'pipe') leaves(def.in as z.ZodType, path, out);
  else if (def.type === 'record') leaves(def.valueType as z.ZodType, `${path}.*`, out);
}

async function inputSchemas(): Promise<[string, z.ZodType][]> {
  const out: [string, z.ZodType][] = [];
  for (const file of readdirSync(here)) {
    if (!file.endsWith('.ts') || file.endsWith('.test.ts') || file === 'responses.ts') continue;
    const module = (await import(`./${file}`)) as Record<string, unknown>;
    for (const [name, value] of Object.entries(module))
      if (value instanceof z.ZodType && isInputName(name)) out.push([`${file} ${name}`, value]);
  }
  return out;
}

describe('the base field schemas', () => {
  it('take what people type and refuse control characters and broken text', () => {
    expect(isSafeText('Pat Lee, 100 Main St.\r\n\tSuite 5 · 北京 🚚')).toBe(true);
    for (const bad of ['\u0000', 'a\u0001', '\u001f', '\u007f', '\ud800', 'x\udfff', '\udc00\ud800'])
      expect(isSafeText(bad), JSON.stringify(bad)).toBe(false);
    expect(str().safeParse('a\u0000b').error?.issues[0]?.message).toBe('validation.controlCharacters');
  });

  it('read ids strictly', () => {
    for (const bad of [true, [1], '1', 1.5, 0, -1, 2 ** 53, Number.NaN])
      expect(idField().safeParse(bad).success).toBe(false);
    expect(idField().parse(12)).toBe(12);
    expect(idField(2_147_483_647).safeParse(2_147_483_648).success).toBe(false);
    for (const bad of ['01', '1e3', ' 1', '0x1', '-1', '0', '99999999999999999', 'true', '']) {
      expect(queryId().safeParse(bad).success, bad).toBe(false);
    }
    expect(queryId().parse('9007199254740991')).toBe(9_007_199_254_740_991);
  });

  it('read dates strictly', () => {
    expect(dayField().safeParse('2024-02-29').success).toBe(true);
    for (const bad of ['2023-02-29', '2024-13-01', '0999-01-01', '2024-1-1'])
      expect(dayField().safeParse(bad).success, bad).toBe(false);
    expect(instantField().parse('2024-03-01T08:00:00.000Z')).toEqual(new Date('2024-03-01T08:00:00.000Z'));
    for (const bad of [true, 0, null, '-100000-01-01', '+275760-09-13', 'yesterday', '2024-02-30T10:00:00Z'])
      expect(instantField().safeParse(bad).success, String(bad)).toBe(false);
  });
});

describe('every input schema of the contracts', () => {
  it('refuses control characters and over-long text in every text field', async () => {
    const problems: string[] = [];
    const schemas = await inputSchemas();
    expect(schemas.length).toBeGreaterThan(40);
    for (const [name, schema] of schemas) {
      const fields: [string, z.ZodType][] = [];
      leaves(schema, '', fields);
      for (const [path, field] of fields) {
        const where = `${name} ${path || '(itself)'}`;
        if (kindOf(field) === 'text') {
          if (field.safeParse('a\u0000b').success) problems.push(`${where} takes a NUL`);
          if (field.safeParse('x'.repeat(100_000)).success) problems.push(`${where} has no maximum length`);
        } else {
          for (const bad of [true, '1', [1]])
            if (field.safeParse(bad).success) problems.push(`${where} takes ${JSON.stringify(bad)}`);
        }
      }
    }
    expect(problems).toEqual([]);
  }, 30_000); // Loads every contract module: seconds on a busy machine.
});
