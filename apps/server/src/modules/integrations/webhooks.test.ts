import { createHmac } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { WEBHOOK_VERIFY_SNIPPET } from '@freight/contracts/integrations';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/fixture.ts';
import { isPublicAddress } from '../../lib/public-address.ts';
import { moduleSweeps } from '../../plugins/housekeeping.ts';
import { localUploadStore } from '../uploads/service.ts';
import { webhookDeliveries, webhookEndpoints } from './schema.ts';
import { postWebhook } from './webhook-transport.ts';
import { sweepOldDeliveries } from './webhooks.ts';

// One-second retries (doubling): a delivery that fails twice lands within a few seconds.
const f = useTestApp({
  tenants: 2,
  truck: true,
  signIn: [['admin', 'customer', 'direct'], ['customer']],
  language: 'en-US',
  app: { config: { WEBHOOK_RETRY_SECONDS: 1 } },
});

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A receiver on loopback: `/flaky` answers 500 twice and then 200, every other path 200 at once. */
const received: Received[] = [];
let flakyCalls = 0;
let server: Server;
let base = '';

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      const path = req.url ?? '';
      received.push({ path, headers: req.headers, body });
      // A receiver that never answers: the try ends at the delivery's own time limit.
      if (path === '/never') return;
      if (path === '/flaky' && ++flakyCalls <= 2) {
        res.writeHead(500).end('try later');
        return;
      }
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

async function until<T>(probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 20_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Books an order as the customer and pays it: the status change every endpoint here listens for. */
async function paidOrder() {
  await f.truck.setBalance('customer', 1_000_000n);
  // With the funds there, booking pays at once (unpaid, then paid: one status change).
  const booked = await f.truck.order('customer', []);
  expect(booked.status).not.toBe('unpaid');
  return booked;
}

const deliveries = (endpointId: number, who: 'customer' | 'admin' = 'customer') =>
  f.as(who).ok('/api/admin/webhook/deliveries', { page: 1, limit: 50, endpointId });

describe('webhooks', () => {
  it('posts a signed event when an order is paid', async () => {
    const made = await f.as('customer').ok('/api/admin/webhook/create', {
      url: `${base}/paid`,
      events: ['order.status'],
    });
    expect(made.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(made).toMatchObject({
      enabled: true,
      events: ['order.status'],
      secretPrefix: made.secret.slice(0, 12),
    });
    const listed = await f.as('customer').ok('/api/admin/webhook/list', { page: 1, limit: 10 });
    expect(JSON.stringify(listed)).not.toContain(made.secret);

    const order = await paidOrder();
    const hit = await until(() => received.find((r) => r.path === '/paid'));
    const body = JSON.parse(hit.body);
    expect(hit.headers['content-type']).toBe('application/json');
    expect(body).toMatchObject({ event: 'order.status', data: { sn: order.orderNo, from: 'unpaid' } });
    expect(body.data.status).toBe(order.status);
    expect(hit.headers['x-webhook-id']).toBe(String(body.id));
    const timestamp = hit.headers['x-webhook-timestamp'] as string;
    expect(Math.abs(Number(timestamp) - Date.now() / 1000)).toBeLessThan(60);
    const expected = createHmac('sha256', made.secret).update(`${timestamp}.${hit.body}`).digest('hex');
    expect(hit.headers['x-webhook-signature']).toBe(`sha256=${expected}`);

    const log = await until(async () => {
      const page = await deliveries(made.id);
      return page.list[0]?.status === 'delivered' ? page : undefined;
    });
    expect(log.list[0]).toMatchObject({
      attempts: 1,
      lastStatusCode: 200,
      lastError: null,
      event: 'order.status',
    });
    await f.as('customer').ok('/api/admin/webhook/update', { id: made.id, enabled: false });
  });

  it('retries a failing endpoint with backoff and logs each attempt; other tenants hear nothing', async () => {
    const flaky = await f.as('customer').ok('/api/admin/webhook/create', {
      url: `${base}/flaky`,
      events: ['order.status', 'waybill.status'],
    });
    const theirs = await f.as('customer', f.tenant(1)).ok('/api/admin/webhook/create', {
      url: `${base}/other-tenant`,
      events: ['order.status'],
    });
    // Another organisation of the same tenant hears nothing of this customer's orders either.
    const direct = await f.as('direct').ok('/api/admin/webhook/create', {
      url: `${base}/other-org`,
      events: ['order.status'],
    });

    await paidOrder();
    const failing = await until(async () => {
      const page = await deliveries(flaky.id);
      return page.list[0]?.attempts >= 1 ? page.list[0] : undefined;
    });
    expect(failing).toMatchObject({
      status: 'pending',
      lastStatusCode: 500,
      lastError: 'HTTP 500: try later',
    });
    expect(failing.nextAttemptAt).not.toBeNull();

    const done = await until(async () => {
      const page = await deliveries(flaky.id);
      return page.list[0]?.status === 'delivered' ? page.list[0] : undefined;
    }, 30_000);
    expect(done).toMatchObject({ attempts: 3, lastStatusCode: 200, lastError: null, nextAttemptAt: null });
    expect(done.deliveredAt).not.toBeNull();
    expect(received.filter((r) => r.path === '/flaky')).toHaveLength(3);
    // Every try of one delivery carries the same id.
    expect(
      new Set(received.filter((r) => r.path === '/flaky').map((r) => r.headers['x-webhook-id'])).size,
    ).toBe(1);

    expect(received.some((r) => r.path === '/other-tenant' || r.path === '/other-org')).toBe(false);
    const otherLog = await f
      .as('customer', f.tenant(1))
      .ok('/api/admin/webhook/deliveries', { page: 1, limit: 10, endpointId: theirs.id });
    expect(otherLog.list).toEqual([]);
    expect((await deliveries(direct.id, 'customer')).list).toEqual([]);

    // Staff see the customer's log too, and filter it by status.
    const staff = await f
      .as('admin')
      .ok('/api/admin/webhook/deliveries', { page: 1, limit: 10, status: 'delivered', endpointId: flaky.id });
    expect(staff.list.map((d: { id: number }) => d.id)).toContain(done.id);

    // Redeliver sends the same delivery again and counts the attempt.
    await f.as('customer').ok('/api/admin/webhook/redeliver', { id: done.id });
    await until(async () => {
      const page = await deliveries(flaky.id);
      return page.list[0]?.attempts === 4 && page.list[0]?.status === 'delivered' ? true : undefined;
    });
    await f.as('customer').ok('/api/admin/webhook/update', { id: flaky.id, enabled: false });
  });

  it('keeps endpoints to their organisation and tenant: others get 404', async () => {
    const mine = await f.as('customer').ok('/api/admin/webhook/create', {
      url: 'https://example.com/hooks',
      events: ['waybill.status'],
      enabled: false,
    });
    await f.as('direct').fail('/api/admin/webhook/update', { id: mine.id, enabled: true }, 404);
    await f.as('direct').fail('/api/admin/webhook/delete', { id: mine.id }, 404);
    await f.as('customer', f.tenant(1)).fail('/api/admin/webhook/test', { id: mine.id }, 404);
    const theirs = await f.as('customer', f.tenant(1)).ok('/api/admin/webhook/list', { page: 1, limit: 50 });
    expect(theirs.list.some((w: { id: number }) => w.id === mine.id)).toBe(false);
    const staff = await f.as('admin').ok('/api/admin/webhook/list', { page: 1, limit: 50 });
    expect(staff.list.find((w: { id: number }) => w.id === mine.id)?.organisationName).not.toBe('');
    await f.as('customer').ok('/api/admin/webhook/delete', { id: mine.id });
    await f.as('customer').fail('/api/admin/webhook/update', { id: mine.id, enabled: true }, 404);
  });

  it('sends a ping from the test button', async () => {
    const made = await f.as('customer').ok('/api/admin/webhook/create', {
      url: `${base}/ping`,
      events: ['order.status'],
    });
    await f.as('customer').ok('/api/admin/webhook/test', { id: made.id });
    const hit = await until(() => received.find((r) => r.path === '/ping'));
    expect(JSON.parse(hit.body)).toMatchObject({ event: 'ping', data: { message: 'ping' } });
    await f.as('customer').ok('/api/admin/webhook/delete', { id: made.id });
  });

  it('refuses a bad URL naming the field, in both languages', async () => {
    const en = await f
      .as('customer')
      .fail('/api/admin/webhook/create', { url: 'ftp://example.com/x', events: ['order.status'] }, 400);
    expect(en.msg).toBe('Webhook URL must be a full address starting with http:// or https://');
    expect(en.data.fields[0].field).toBe('url');
    const zh = await f
      .as('customer')
      .in('zh-CN')
      .fail('/api/admin/webhook/create', { url: 'not a url', events: ['order.status'] }, 400);
    expect(zh.msg).toBe('Webhook 地址须为以 http:// 或 https:// 开头的完整网址');
    const none = await f
      .as('customer')
      .fail('/api/admin/webhook/create', { url: 'https://example.com', events: [] }, 400);
    expect(none.data.fields[0].field).toBe('events');
  });

  it('rotates the secret: shown once, the old one signs beside it for a day, then the new alone', async () => {
    const made = await f.as('customer').ok('/api/admin/webhook/create', {
      url: `${base}/rotated`,
      events: ['order.status'],
    });
    await f.as('direct').fail('/api/admin/webhook/rotateSecret', { id: made.id }, 404);
    await f.as('customer', f.tenant(1)).fail('/api/admin/webhook/rotateSecret', { id: made.id }, 404);
    const res = await f.as('customer').post('/api/admin/webhook/rotateSecret', { id: made.id });
    expect(res.headers['cache-control']).toBe('no-store');
    const rotated = res.json().data;
    expect(rotated.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(rotated.secret).not.toBe(made.secret);
    expect(rotated.secretPrefix).toBe(rotated.secret.slice(0, 12));
    const overlapEnd = new Date(rotated.previousSecretUntil).getTime();
    expect(Math.abs(overlapEnd - (Date.now() + 24 * 3_600_000))).toBeLessThan(60_000);
    const listed = await f.as('customer').ok('/api/admin/webhook/list', { page: 1, limit: 50 });
    expect(JSON.stringify(listed)).not.toContain(rotated.secret);

    const sign = (secret: string, hit: Received) =>
      `sha256=${createHmac('sha256', secret)
        .update(`${hit.headers['x-webhook-timestamp']}.${hit.body}`)
        .digest('hex')}`;
    await paidOrder();
    const first = await until(() => received.find((r) => r.path === '/rotated'));
    expect(first.headers['x-webhook-signature']).toBe(
      `${sign(rotated.secret, first)},${sign(made.secret, first)}`,
    );

    // A day later the old secret signs nothing.
    await f.db
      .update(webhookEndpoints)
      .set({ previousSecretUntil: new Date(Date.now() - 1000) })
      .where(eq(webhookEndpoints.id, made.id));
    await paidOrder();
    const second = await until(() => received.filter((r) => r.path === '/rotated')[1]);
    expect(second.headers['x-webhook-signature']).toBe(sign(rotated.secret, second));
    const after = await f.as('customer').ok('/api/admin/webhook/list', { page: 1, limit: 50 });
    expect(after.list.find((w: { id: number }) => w.id === made.id)?.previousSecretUntil).toBeNull();
    await f.as('customer').ok('/api/admin/webhook/delete', { id: made.id });
  });

  it('sweeps deliveries past their keeping time with the housekeeping pass, and keeps newer ones', async () => {
    expect(moduleSweeps(localUploadStore(f.ctx.app.config.DATA_DIR)).map((s) => s.name)).toContain(
      'webhook deliveries',
    );
    const made = await f.as('customer').ok('/api/admin/webhook/create', {
      url: 'https://example.com/kept',
      events: ['order.status'],
      enabled: false,
    });
    const day = 86_400_000;
    const rows = await f.db
      .insert(webhookDeliveries)
      .values(
        [31, 29, 0].map((days) => ({
          tenantId: f.t.tenant.id,
          endpointId: made.id,
          event: 'order.status' as const,
          payload: { days },
          status: 'delivered' as const,
          createdAt: new Date(Date.now() - days * day),
        })),
      )
      .returning({ id: webhookDeliveries.id });
    expect(await sweepOldDeliveries(f.db)).toBeGreaterThanOrEqual(1);
    const left = await f.db
      .select({ payload: webhookDeliveries.payload })
      .from(webhookDeliveries)
      .where(
        and(
          eq(webhookDeliveries.endpointId, made.id),
          inArray(
            webhookDeliveries.id,
            rows.map((r) => r.id),
          ),
        ),
      );
    expect(left.map((r) => r.payload.days).sort()).toEqual([0, 29]);
    await f.as('customer').ok('/api/admin/webhook/delete', { id: made.id });
  });

  it("the page's verifying example accepts a real delivery once, and refuses a replay, a stale one and a forged one", async () => {
    const made = await f.as('customer').ok('/api/admin/webhook/create', {
      url: `${base}/verified`,
      events: ['order.status'],
    });
    await f.as('customer').ok('/api/admin/webhook/test', { id: made.id });
    const delivery = await until(() => received.find((r) => r.path === '/verified'));
    const file = join(tmpdir(), `verify-${process.pid}-${Date.now()}.mjs`);
    writeFileSync(file, WEBHOOK_VERIFY_SNIPPET);
    const { checkDelivery } = (await import(pathToFileURL(file).href)) as {
      checkDelivery(secret: string, headers: object, body: string, nowMs?: number): string;
    };
    rmSync(file);
    const sentAt = Number(delivery.headers['x-webhook-timestamp']) * 1000;
    expect(checkDelivery(made.secret, delivery.headers, delivery.body.replace('ping', 'pong'), sentAt)).toBe(
      'bad signature',
    );
    expect(checkDelivery(made.secret, delivery.headers, delivery.body, sentAt + 6 * 60_000)).toBe('stale');
    expect(checkDelivery('whsec_not-the-secret', delivery.headers, delivery.body, sentAt)).toBe(
      'bad signature',
    );
    expect(checkDelivery(made.secret, delivery.headers, delivery.body, sentAt + 1_000)).toBe('ok');
    expect(checkDelivery(made.secret, delivery.headers, delivery.body, sentAt + 2_000)).toBe('repeat');
    await f.as('customer').ok('/api/admin/webhook/delete', { id: made.id });
  });

  it('knows private and loopback addresses (refused in production)', () => {
    for (const a of [
      '127.0.0.1',
      '10.1.2.3',
      '192.168.0.1',
      '172.20.0.1',
      '169.254.169.254',
      '::1',
      'fd00::1',
      '::ffff:10.0.0.1',
    ])
      expect(isPublicAddress(a), a).toBe(false);
    for (const a of ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946', '8.8.8.8'])
      expect(isPublicAddress(a), a).toBe(true);
  });

  it('refuses every address that is not global unicast: documentation, benchmarking, IPv4 in IPv6, NAT64', () => {
    for (const a of [
      '192.0.2.10',
      '198.18.0.1',
      '198.19.255.254',
      '198.51.100.7',
      '203.0.113.9',
      '100.64.0.1',
      '0.0.0.0',
      '255.255.255.255',
      '240.0.0.1',
      '::7f00:1',
      '::127.0.0.1',
      '64:ff9b::7f00:1',
      '64:ff9b::a00:1',
      '2002:7f00:1::1',
      '2001:db8::1',
      '2001::1',
      '::',
      'not an address',
    ])
      expect(isPublicAddress(a), a).toBe(false);
  });

  it('refuses a loopback receiver by name or address before connecting, where private addresses are not allowed', async () => {
    const before = received.length;
    const port = new URL(base).port;
    for (const url of [
      `http://localhost:${port}/refused`,
      `http://127.0.0.1:${port}/refused`,
      `http://[::ffff:127.0.0.1]:${port}/refused`,
    ])
      await expect(
        postWebhook(url, { headers: {}, body: '{}', timeoutMs: 2_000, allowPrivate: false, keepBytes: 100 }),
        url,
      ).rejects.toThrow('the address is private or local');
    expect(received.length).toBe(before);
    // Allowed (as outside production here), the same receiver answers.
    const answer = await postWebhook(`http://localhost:${port}/allowed`, {
      headers: {},
      body: '{}',
      timeoutMs: 2_000,
      allowPrivate: true,
      keepBytes: 100,
    });
    expect(answer).toEqual({ status: 200, text: 'ok' });
  });

  it('keeps one test ping waiting per endpoint, and a receiver that never answers delays only itself', async () => {
    const never = await f.as('customer').ok('/api/admin/webhook/create', {
      url: `${base}/never`,
      events: ['order.status'],
    });
    const quick = await f.as('customer', f.tenant(1)).ok('/api/admin/webhook/create', {
      url: `${base}/quick`,
      events: ['order.status'],
    });
    await f.as('customer').ok('/api/admin/webhook/test', { id: never.id });
    const again = await f.as('customer').fail('/api/admin/webhook/test', { id: never.id }, 429);
    expect(again.msg).toBe(
      'A test ping to this endpoint is still waiting to be sent; try again once it is done',
    );
    // The slow endpoint's status events pile up behind its one try in flight...
    for (let i = 0; i < 4; i++) await paidOrder();
    await until(() => (received.some((r) => r.path === '/never') ? true : undefined));
    // ...and another tenant's ping goes out while they wait.
    const ping = await f.as('customer', f.tenant(1)).ok('/api/admin/webhook/test', { id: quick.id });
    const delivered = await until(async () => {
      const theirs = await f.as('customer', f.tenant(1)).ok('/api/admin/webhook/deliveries', {
        page: 1,
        limit: 50,
        endpointId: quick.id,
      });
      return theirs.list.find(
        (d: { id: number; status: string }) => d.id === ping.id && d.status === 'delivered',
      );
    });
    expect(delivered).toBeTruthy();
    const slow = await deliveries(never.id);
    // Never more than one try in flight to the slow receiver: most of its deliveries still wait.
    expect(slow.list.filter((d: { status: string }) => d.status === 'pending').length).toBeGreaterThanOrEqual(
      3,
    );
    expect(received.filter((r) => r.path === '/never').length).toBeLessThanOrEqual(2);
    await f.as('customer').ok('/api/admin/webhook/delete', { id: never.id });
    await f.as('customer', f.tenant(1)).ok('/api/admin/webhook/delete', { id: quick.id });
  });
});
