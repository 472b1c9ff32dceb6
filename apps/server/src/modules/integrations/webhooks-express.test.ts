import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useExpressLine } from '../../../test/express-fixtures.ts';
import { useTestApp } from '../../../test/fixture.ts';

const f = useTestApp({ signIn: ['admin', 'customer'], language: 'en-US' });
const { paidWaybill } = useExpressLine(f);

const bodies: { event: string; data: { sn: string; from: string; status: string } }[] = [];
let server: Server;
let base = '';

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      bodies.push(JSON.parse(body));
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

describe('waybill webhooks', () => {
  it('delivers each status change of a waybill to an endpoint subscribed to waybills', async () => {
    await f.as('customer').ok('/api/admin/webhook/create', { url: `${base}/w`, events: ['waybill.status'] });
    const waybill = await paidWaybill(['hand_over', 'ship']);
    const end = Date.now() + 20_000;
    while (bodies.filter((b) => b.data.sn === waybill.waybillNo).length < 4 && Date.now() < end)
      await new Promise((r) => setTimeout(r, 100));
    const moves = bodies
      .filter((b) => b.event === 'waybill.status' && b.data.sn === waybill.waybillNo)
      .map((b) => `${b.data.from}>${b.data.status}`);
    // Paid, printed (ready), handed over, shipped: every move of its timeline, whichever path made it.
    expect(moves).toHaveLength(4);
    // Deliveries run two at a time, so they may arrive out of order; each carries where it moved from.
    expect(moves.some((m) => m.startsWith('unpaid>'))).toBe(true);
    const staff = await f
      .as('admin')
      .ok('/api/admin/webhook/deliveries', { page: 1, limit: 10, status: 'delivered' });
    expect(staff.total).toBe(4);
  });
});
