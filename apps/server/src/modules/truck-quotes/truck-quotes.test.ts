import { deflateSync } from 'node:zlib';
import { and, eq, sql } from 'drizzle-orm';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/fixture.ts';
import { badFields, type Who } from '../../../test/helpers.ts';
import {
  dockAddress as address,
  creditTruck,
  ratedLtlProducts,
  savedQuoteId,
  ltlShipment as shipment,
  streamedRates,
} from '../../../test/truck-fixtures.ts';
import { truckQuotes } from '../../db/schema.ts';
import { ledgerMismatches } from '../accounts/service.ts';
import { replaceShipment } from './service.ts';

const f = useTestApp({
  tenants: 2,
  signIn: [['admin', 'agent', 'customer', 'direct'], ['admin']],
  language: 'en-US',
});
const orgs: Record<string, number> = {};
let productA: number;
let productB: number;

const post = (url: string, body: unknown, who: Who, tenant = f.t) => f.as(who, tenant).post(url, body);
const ok = (url: string, body: unknown, who: Who) => f.as(who).ok(url, body);

const rate = (quoteId: number, who: Who) => streamedRates(f.as(who), quoteId);
const quoteFor = (who: Who, body: Record<string, unknown> = shipment()) => savedQuoteId(f.as(who), body);

const credit = async (who: Who, cents: bigint) => creditTruck(f.db, f.t.tenant.id, await f.orgOf(who), cents);

beforeAll(async () => {
  ({ productA, productB } = await ratedLtlProducts(f.ctx, f.t, f.as('admin').token as string));
  for (const who of ['customer', 'direct'] as const) orgs[who] = await f.orgOf(who);
});
afterEach(async () => {
  expect(await ledgerMismatches(f.db, f.t.tenant.id)).toEqual([]);
});

describe('quoting', () => {
  it('streams each product as it is priced, then the whole answer, with the cheapest and fastest marked', async () => {
    const id = await quoteFor('customer');
    const lines = await rate(id, 'customer');
    expect(lines.map((l) => l.type)).toEqual(['result', 'result', 'done']);
    // Money on the wire is a decimal string, in the streamed lines as in every other answer.
    const streamed = lines.find((l) => l.result.productId === productA).result;
    expect(streamed.levels.at(-1).total).toBe('301.10');
    const done = lines[2];
    const a = done.results.find((r: any) => r.productId === productA);
    const b = done.results.find((r: any) => r.productId === productB);
    expect(a).toMatchObject({ ok: true, cheapest: true, fastest: false });
    expect(b).toMatchObject({ ok: true, cheapest: false, fastest: true });
    // The closing line carries the streamed results themselves, only the two marks set.
    const unmarked = ({ cheapest: _c, fastest: _f, ...rest }: any) => rest;
    expect(done.results.map(unmarked)).toEqual(lines.slice(0, 2).map((l) => unmarked(l.result)));
    // Priced by hand: 800 lb of class 70 at 45.76/cwt = 366.08; 65 % off = 128.13; fuel 28.5 % = 36.52;
    // liftgate 75.00. Cost 239.65; branch +10 %, agent +5 % and 2.00, customer +8 %, each part rounded.
    expect(a.levels).toEqual([
      {
        organisationId: orgs.customer,
        type: 'customer',
        linehaul: '161.99',
        fuel: '45.55',
        accessorials: [{ code: 'liftgate_delivery', fee: '93.56' }],
        insurance: '0.00',
        total: '301.10',
      },
    ]);
    // The customer sees weights and classes, never the operator's rates.
    expect(a.breakdown.lines[0]).not.toHaveProperty('rate');
    expect(a.breakdown).not.toHaveProperty('linehaul');
  });

  it('shows staff every level, and an agent its own and its customer’s', async () => {
    const id = await quoteFor('customer');
    await rate(id, 'customer');
    const staff = await ok('/api/admin/quotation/getQuotationInfo', { id }, 'admin');
    const a = staff.results.find((r: any) => r.productId === productA);
    expect(a.levels.map((l: any) => [l.type, l.total])).toEqual([
      ['platform', '239.65'],
      ['branch', '263.61'],
      ['agent', '278.80'],
      ['customer', '301.10'],
    ]);
    expect(a.breakdown.lines[0]).toMatchObject({ rate: '45.76', charge: '366.08' });
    expect(a.breakdown).toMatchObject({
      grossCharge: '366.08',
      discount: '237.95',
      linehaul: '128.13',
      fuel: '36.52',
    });
    const agent = await ok('/api/admin/quotation/getQuotationInfo', { id }, 'agent');
    expect(agent.results[0].levels.map((l: any) => l.type)).toEqual(['agent', 'customer']);
    expect((await post('/api/admin/quotation/getQuotationInfo', { id }, 'direct')).json().code).toBe(404);
    expect(
      (await post('/api/admin/quotation/getQuotationInfo', { id }, 'admin', f.tenant(1))).json().code,
    ).toBe(404);
  });

  it('needs a new quote once the shipment changes, and refuses an expired one', async () => {
    const id = await quoteFor('customer');
    await rate(id, 'customer');
    await ok(
      '/api/admin/quotation/saveQuotationDetail',
      { id, ...shipment({ accessorials: [] }) },
      'customer',
    );
    const info = await ok('/api/admin/quotation/getQuotationInfo', { id }, 'customer');
    expect(info.results).toEqual([]);
    const stale = await post('/api/admin/order/save', { quoteId: id, productId: productA }, 'customer');
    expect(stale.json()).toMatchObject({ code: 409, msg: 'The shipment changed; please quote again' });

    await rate(id, 'customer');
    await f.db
      .update(truckQuotes)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(and(eq(truckQuotes.tenantId, f.t.tenant.id), eq(truckQuotes.id, id)));
    const expired = await post('/api/admin/order/save', { quoteId: id, productId: productA }, 'customer');
    expect(expired.json()).toMatchObject({ code: 409, msg: 'The quote has expired; please quote again' });
  });

  it('stores the prices as JSON text the database compresses, reads deflated ones alike, and books from either', async () => {
    const id = await quoteFor('customer');
    const streamed = (await rate(id, 'customer')).at(-1).results;
    const where = sql`tenant_id = ${f.t.tenant.id} and id = ${id}`;
    const stored = async () => {
      const result = await f.db.execute(
        sql`select get_byte(results, 0) as first, octet_length(results) as bytes,
                   pg_column_size(results) as kept from truck_quotes where ${where}`,
      );
      return (result as unknown as { rows: { first: number; bytes: number; kept: number }[] }).rows[0];
    };
    const [row] = await f.db.select().from(truckQuotes).where(eq(truckQuotes.id, id));
    const text = JSON.stringify(row?.results);
    // JSON text, kept by the database in far less room than it takes.
    const plain = await stored();
    expect(plain?.first).toBe('['.charCodeAt(0));
    expect(Number(plain?.bytes)).toBe(Buffer.byteLength(text));
    expect(Number(plain?.kept)).toBeLessThan(text.length / 2);

    // As an earlier version left a quote: the same prices deflated.
    const deflated = deflateSync(text);
    await f.db.execute(sql`update truck_quotes set results = ${deflated} where ${where}`);
    expect((await stored())?.first).toBe(0x78);
    const info = await ok('/api/admin/quotation/getQuotationInfo', { id }, 'customer');
    expect(info.results).toEqual(streamed);
    await credit('customer', 50_000n);
    const booked = await ok('/api/admin/order/save', { quoteId: id, productId: productA }, 'customer');
    expect(booked.payment.ok).toBe(true);
    const order = await ok('/api/admin/order/info', { id: booked.id }, 'customer');
    expect(order.order.total).toBe(streamed.find((r: any) => r.productId === productA).levels.at(-1).total);
  });

  it('writes only the new expiry when a quote is priced again to the prices it stores', async () => {
    const id = await quoteFor('customer');
    const where = sql`tenant_id = ${f.t.tenant.id} and id = ${id}`;
    const stored = async () => {
      const result = await f.db.execute(
        sql`select get_byte(results, 0) as first, results_digest as digest, expires_at as "expiresAt"
              from truck_quotes where ${where}`,
      );
      return (result as unknown as { rows: { first: number; digest: string; expiresAt: string }[] }).rows[0];
    };
    const first = (await rate(id, 'customer')).at(-1);
    const priced = await stored();
    expect(priced?.digest).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    // The same prices in other bytes, under the same digest: a pricing that wrote them again would show.
    const [row] = await f.db.select().from(truckQuotes).where(eq(truckQuotes.id, id));
    await f.db.execute(
      sql`update truck_quotes set results = ${deflateSync(JSON.stringify(row?.results))} where ${where}`,
    );
    await new Promise((resolve) => setTimeout(resolve, 20));
    const again = (await rate(id, 'customer')).at(-1);
    expect(again.results).toEqual(first.results);
    const refreshed = await stored();
    expect(refreshed?.first).toBe(0x78);
    expect(refreshed?.digest).toBe(priced?.digest);
    expect(new Date(again.expiresAt).getTime()).toBeGreaterThan(new Date(first.expiresAt).getTime());
    expect(new Date(refreshed?.expiresAt as string).toISOString()).toBe(again.expiresAt);

    // Prices another pricing stored meanwhile (another digest) are replaced by these whole.
    await f.db.execute(sql`update truck_quotes set results_digest = 'other' where ${where}`);
    expect((await rate(id, 'customer')).at(-1).results).toEqual(first.results);
    expect(await stored()).toMatchObject({ first: '['.charCodeAt(0), digest: priced?.digest });

    // Another quote of the same shipment is priced alike and stores its own prices; staff see every level.
    const other = await quoteFor('customer');
    expect((await rate(other, 'customer')).at(-1).results).toEqual(first.results);
    const staff = (await rate(other, 'admin')).at(-1).results;
    expect(staff.find((r: any) => r.productId === productA).levels).toHaveLength(4);
    const info = await ok('/api/admin/quotation/getQuotationInfo', { id: other }, 'customer');
    expect(info.results).toEqual(first.results);
    expect(info).not.toHaveProperty('resultsDigest');

    // An answer the route writes itself (the framework hands it over), whether its prices stream as
    // they are made (a shipment not priced before) or leave at once, carries the security headers.
    const newGoods = shipment().lines.map((line) => ({ ...line, name: 'Headers test goods' }));
    const fresh = await quoteFor('customer', shipment({ lines: newGoods }));
    for (const streamedAnswer of [
      await post('/api/admin/quotation/rates', { id: fresh }, 'customer'),
      await post('/api/admin/quotation/rates', { id: other }, 'customer'),
    ]) {
      expect(streamedAnswer.headers['content-type']).toContain('application/x-ndjson');
      expect(streamedAnswer.headers).toMatchObject({
        'x-frame-options': 'SAMEORIGIN',
        'referrer-policy': 'no-referrer',
      });
      expect(streamedAnswer.headers['content-security-policy']).toContain("script-src 'self'");
    }

    // Once booked, pricing it again is refused and writes nothing: the quote stays booked.
    await credit('customer', 50_000n);
    await ok('/api/admin/order/save', { quoteId: other, productId: productA }, 'customer');
    const refused = await post('/api/admin/quotation/rates', { id: other }, 'customer');
    expect(refused.json()).toMatchObject({ code: 409 });
    const [booked] = await f.db.select().from(truckQuotes).where(eq(truckQuotes.id, other));
    expect(booked?.status).toBe('booked');
    // A change read before the booking (the quote still open as it was read) cannot reopen it.
    const readBefore = { ...(booked as NonNullable<typeof booked>), status: 'open' as const };
    await expect(replaceShipment(f.db, readBefore, readBefore.shipment)).rejects.toMatchObject({ code: 409 });
    const [still] = await f.db.select().from(truckQuotes).where(eq(truckQuotes.id, other));
    expect(still).toMatchObject({ status: 'booked', results: booked?.results });
    // Nor may another organisation's user price it, the same shipment held or not.
    expect((await post('/api/admin/quotation/rates', { id }, 'direct')).json().code).toBe(404);
  });

  it('names each bad field of a quote and saves nothing', async () => {
    const bad = await post(
      '/api/admin/quotation/save',
      shipment({ pickup: { ...address('9000', 'California', 'LA'), phone: 'x' }, lines: [] }),
      'customer',
    );
    expect(bad.json().code).toBe(400);
    expect(badFields(bad)).toEqual(
      expect.arrayContaining(['pickup.zipcode', 'pickup.state', 'pickup.phone', 'lines']),
    );
    expect(bad.json().data.fields.find((f: any) => f.field === 'pickup.zipcode').message).toBe(
      'Please enter a five-digit ZIP code',
    );
    // Staff quote for a customer and must say which.
    const staff = await post('/api/admin/quotation/save', shipment(), 'admin');
    expect(badFields(staff)).toEqual(['organisationId']);
    const foreign = await post(
      '/api/admin/quotation/save',
      { ...shipment(), organisationId: orgs.direct },
      'agent',
    );
    expect(badFields(foreign)).toEqual(['organisationId']);
  });
});

describe('the address book from the quote form', () => {
  it('saves the ends ticked "save to address book" into the customer’s book', async () => {
    const ticked = { ...address('90001', 'CA', 'Los Angeles'), name: 'Booked Dock', saveToBook: true };
    await quoteFor('customer', shipment({ pickup: ticked }));
    const book = await ok(
      '/api/admin/address/list',
      { page: 1, limit: 10, keyword: 'Booked Dock' },
      'customer',
    );
    expect(book.list.map((a: any) => [a.name, a.zipcode])).toEqual([['Booked Dock', '90001']]);
  });
});

describe('manual quotation tasks', () => {
  it('turns an oversize shipment into a task that staff price and the customer accepts and books', async () => {
    // Enough for the 1,499.04 the task comes to, whatever else the customer holds.
    await credit('customer', 200_000n);
    const big = shipment({
      lines: [
        {
          name: 'Machine',
          quantity: 1,
          palletCount: 1,
          length: 300,
          width: 90,
          height: 100,
          totalWeight: 6000,
        },
      ],
    });
    const id = await quoteFor('customer', big);
    const lines = await rate(id, 'customer');
    expect(lines.at(-1).results.map((r: any) => r.reason)).toEqual(['oversize', 'oversize']);
    const task = await ok(
      '/api/admin/quotation/task/request',
      { quoteId: id, note: 'Crane needed' },
      'customer',
    );
    const twice = await post('/api/admin/quotation/task/request', { quoteId: id }, 'customer');
    expect(twice.json().msg).toBe('This quote already has a manual quotation task');
    expect(
      (await post('/api/admin/quotation/task/action', { id: task.id, action: 'accept' }, 'customer')).json()
        .code,
    ).toBe(409);
    expect(
      (
        await post(
          '/api/admin/quotation/saveQuotation',
          { id: task.id, carrier: 'Heavy Haul', linehaul: '1000.00', transitDaysMin: 3, transitDaysMax: 6 },
          'customer',
        )
      ).json().code,
    ).toBe(401);
    await ok(
      '/api/admin/quotation/saveQuotation',
      {
        id: task.id,
        carrier: 'Heavy Haul',
        linehaul: '1000.00',
        fuel: '200.00',
        transitDaysMin: 3,
        transitDaysMax: 6,
      },
      'admin',
    );
    const seen = await ok('/api/admin/quotation/task/info', { id: task.id }, 'customer');
    // 1,000 and 200 marked up +10 %, +5 % and 2.00, +8 %: 1,249.56 and 249.48.
    expect(seen.task.result.levels).toEqual([
      expect.objectContaining({ type: 'customer', linehaul: '1249.56', fuel: '249.48', total: '1499.04' }),
    ]);
    await ok('/api/admin/quotation/task/action', { id: task.id, action: 'accept' }, 'customer');
    const booked = await ok('/api/admin/order/save', { quoteId: id, taskId: task.id }, 'customer');
    expect(booked.status).toBe('pending_review');
    const info = await ok('/api/admin/quotation/task/info', { id: task.id }, 'admin');
    expect(info.task.status).toBe('booked');
    expect(info.history.map((h: any) => h.toStatus)).toEqual(['pending', 'priced', 'accepted', 'booked']);
  });

  it('refuses to open a task for a shipment the tables price', async () => {
    const id = await quoteFor('customer');
    await rate(id, 'customer');
    const res = await post('/api/admin/quotation/task/request', { quoteId: id }, 'customer');
    expect(res.json()).toMatchObject({ code: 409 });
  });
});
