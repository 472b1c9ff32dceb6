import { moneyString, okResponse, timestamp } from '@freight/contracts/responses';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTenant, createTestApp, type TestContext, type TestTenant } from './helpers.ts';

const shape = okResponse(z.object({ amount: moneyString, at: timestamp }));

/** Routes that answer their shape right, wrong, or with a field the contract does not name. */
function shapeRoutes(app: FastifyInstance) {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const options = { config: { public: true }, schema: { response: { 200: shape } } };
  typed.get('/api/test/shape/right', options, async () => ({
    amount: '12.50',
    at: new Date('2026-05-31T08:00:00.000Z'),
  }));
  // Integer cents where the contract says a decimal string.
  typed.get('/api/test/shape/wrong', options, async () => ({ amount: 1250, at: new Date() }) as never);
  typed.get('/api/test/shape/extra', options, async () => ({
    amount: '1.00',
    at: '2026-05-31',
    secret: 'x',
  }));
}

type Operation = { responses?: Record<string, { content?: Record<string, { schema?: JsonSchema }> }> };
type JsonSchema = Record<string, unknown> & { properties?: Record<string, JsonSchema> };

/** A schema that says something: not `{}` (anything) and not an object with no known field. */
function saysSomething(schema: JsonSchema | undefined): boolean {
  if (!schema || Object.keys(schema).length === 0) return false;
  if (schema.type === 'object' && !schema.properties && !schema.additionalProperties) return false;
  return true;
}

describe('response contracts', () => {
  let ctx: TestContext;
  let t: TestTenant;
  beforeAll(async () => {
    ctx = await createTestApp({ extend: shapeRoutes });
    t = await createTenant(ctx);
  });
  afterAll(() => ctx.close());

  it('every operation in the API description declares what its success answers', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/docs/json', headers: { host: t.host } });
    const doc = res.json() as { paths: Record<string, Record<string, Operation>> };
    const missing: string[] = [];
    let operations = 0;
    for (const [path, methods] of Object.entries(doc.paths)) {
      if (path.startsWith('/api/test/')) continue;
      for (const [method, operation] of Object.entries(methods)) {
        operations++;
        const name = `${method.toUpperCase()} ${path}`;
        const success = Object.entries(operation.responses ?? {}).filter(([status]) => /^[23]/.test(status));
        if (success.length === 0) {
          missing.push(`${name}: no success response`);
          continue;
        }
        for (const [status, response] of success) {
          const contents = Object.entries(response.content ?? {});
          if (contents.length === 0 && status.startsWith('2')) missing.push(`${name} ${status}: no content`);
          for (const [type, { schema }] of contents) {
            if (type.startsWith('application/json')) {
              // The envelope around the data: the data itself must be described too.
              const data = schema?.properties?.data;
              if (!schema?.properties?.code || !saysSomething(data))
                missing.push(`${name} ${status}: envelope or data not described`);
            } else if (!saysSomething(schema)) missing.push(`${name} ${status} ${type}: no schema`);
          }
        }
      }
    }
    expect(operations).toBeGreaterThan(140);
    expect(missing).toEqual([]);
  });

  it('encodes dates as ISO strings and money as it is declared', async () => {
    const res = await ctx.app.inject({
      method: 'GET',
      url: '/api/test/shape/right',
      headers: { host: t.host },
    });
    expect(res.json()).toMatchObject({
      code: 200,
      data: { amount: '12.50', at: '2026-05-31T08:00:00.000Z' },
    });
  });

  it('fails an answer outside its contract in tests, without details for the client', async () => {
    for (const url of ['/api/test/shape/wrong', '/api/test/shape/extra']) {
      const res = await ctx.app.inject({ method: 'GET', url, headers: { host: t.host } });
      expect(res.statusCode).toBe(500);
      expect(res.json()).toMatchObject({ code: 500, data: null });
      expect(res.body).not.toContain('secret');
    }
  });
});

describe('response contracts in production', () => {
  let ctx: TestContext;
  let t: TestTenant;
  beforeAll(async () => {
    ctx = await createTestApp({ config: { RESPONSE_CHECK: 'log' }, extend: shapeRoutes });
    t = await createTenant(ctx);
  });
  afterAll(() => ctx.close());

  it('still sends an answer that does not match, as the handler made it, less undeclared fields', async () => {
    const wrong = await ctx.app.inject({
      method: 'GET',
      url: '/api/test/shape/wrong',
      headers: { host: t.host },
    });
    expect(wrong.statusCode).toBe(200);
    expect(wrong.json()).toMatchObject({ code: 200, data: { amount: 1250 } });
    const extra = await ctx.app.inject({
      method: 'GET',
      url: '/api/test/shape/extra',
      headers: { host: t.host },
    });
    // Undeclared fields never go out, checked or not.
    expect(extra.json()).toEqual({
      code: 200,
      msg: expect.any(String),
      data: { amount: '1.00', at: '2026-05-31' },
    });
    for (let i = 0; i < 150; i++) {
      const again = await ctx.app.inject({
        method: 'GET',
        url: '/api/test/shape/extra',
        headers: { host: t.host },
      });
      expect(again.body).not.toContain('secret');
    }
  });
});
