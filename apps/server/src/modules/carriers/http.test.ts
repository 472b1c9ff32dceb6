import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { CarrierConnection } from './connection.ts';
import { CarrierCallError } from './connection.ts';
import { callCarrier } from './http.ts';

let server: Server;
let port = 0;
let hits = 0;
beforeAll(async () => {
  server = createServer((request, response) => {
    hits++;
    if (request.url === '/huge') {
      // An answer that never ends within reason: 25 MB of JSON-looking text.
      response.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(1024 * 1024, 0x20);
      for (let i = 0; i < 25; i++) response.write(chunk);
      response.end('{}');
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end('{"ok":true}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const connection = (host: string, allowPrivate: boolean): CarrierConnection => ({
  accountId: 1,
  tenantId: 1,
  baseUrl: `http://${host}:${port}`,
  credentials: {},
  timeoutMs: 5_000,
  allowPrivate,
});

const call = (c: CarrierConnection, path = '/ok') =>
  callCarrier(c, {
    method: 'GET',
    path,
    headers: {},
    answer: z.object({ ok: z.boolean() }),
    errorText: () => undefined,
  });

const failureOf = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: unknown) => (error instanceof CarrierCallError ? error : Promise.reject(error)),
  );

describe('carrier calls reach only where the account may', () => {
  it('refuses a loopback address, by number or by name, unless private addresses are allowed', async () => {
    expect(await call(connection('127.0.0.1', true))).toEqual({ ok: true });
    const before = hits;
    for (const host of ['127.0.0.1', 'localhost']) {
      const error = await failureOf(call(connection(host, false)));
      expect(error?.failure).toBe('refused');
      expect(error?.detail).toContain('private or local');
      expect(error?.retryable).toBe(false);
    }
    // Refused before any socket connected.
    expect(hits).toBe(before);
  });

  it('stops reading an answer past its size limit and calls it malformed', async () => {
    const error = await failureOf(call(connection('127.0.0.1', true), '/huge'));
    expect(error?.failure).toBe('malformed');
    expect(error?.detail).toContain('larger than');
  });
});
