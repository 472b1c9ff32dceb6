import { messages } from '@freight/contracts/messages';
import { sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { selectedQuote, useExpressLine } from './express-fixtures.ts';
import { type Caller, useTestApp } from './fixture.ts';
import { partsShipment } from './truck-fixtures.ts';

/**
 * Issue 13: two hundred payments at once over both lines, through every entry point that pays an
 * existing order or waybill (`order/pay`, `order/transition` with `pay`, `order/bulkPay`,
 * `express/order/pay`, `express/order/bulkPay`), as the owner and as staff, many of them twice. One
 * customer's balance covers only some of its orders. Every order is paid once or not at all, a
 * refusal names the shortage, the books balance and no account goes below zero. Then payments race
 * cancellations and refunds of the same order.
 */

const f = useTestApp({ signIn: ['admin', 'customer', 'direct'], truck: true, language: 'en-US' });
const express = useExpressLine(f);

type Owner = 'customer' | 'direct';
type Line = 'truck' | 'express';
interface Item {
  line: Line;
  id: number;
  no: string;
  total: bigint;
  owner: Owner;
}

/** The refusal for want of funds, as a pattern over its message with the amounts left open. */
const shortageMessage = (key: 'order.insufficientFunds' | 'expressWaybill.insufficientFunds') =>
  new RegExp(
    `^${messages['en-US'][key]
      .replace(/[.*+?^$()|[\]\\]/g, '\\$&')
      .replace(/\{\{(\w+)\}\}/g, '(?<$1>[\\d.,]+)')}$`,
  );
const shortage = {
  truck: shortageMessage('order.insufficientFunds'),
  express: shortageMessage('expressWaybill.insufficientFunds'),
};
const money = (cents: bigint) => `${cents / 100n}.${String(cents % 100n).padStart(2, '0')}`;
/** How many orders of each line the poorer customer can pay. */
const COVERED = 8;

let productId: number;

async function rows<T>(query: ReturnType<typeof sql>): Promise<T[]> {
  const result = await f.db.execute(query);
  return ((result as unknown as { rows?: T[] }).rows ?? (result as unknown as T[])) as T[];
}

/** A truck order of 400 lb class 70, booked unpaid by its owner. */
async function bookTruck(owner: Owner): Promise<number> {
  const as = f.as(owner);
  const { id: quoteId } = await as.ok('/api/admin/quotation/save', partsShipment());
  await as.post('/api/admin/quotation/rates', { id: quoteId });
  const order = await as.ok('/api/admin/order/save', { quoteId, productId, pay: false });
  expect(order.status).toBe('unpaid');
  return order.id;
}

/** An express waybill booked unpaid by its owner. */
async function bookWaybill(owner: Owner): Promise<number> {
  const quoteId = await selectedQuote(f.as(owner));
  const waybill = await f.as(owner).ok('/api/express/order/create', { quoteId, pay: false });
  expect(waybill.status).toBe('unpaid');
  return waybill.id;
}

/** Runs `count` bookings a few at a time. */
async function several(count: number, book: () => Promise<number>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < count; i += 4)
    out.push(...(await Promise.all(Array.from({ length: Math.min(4, count - i) }, book))));
  return out;
}

async function itemsOf(line: Line, ids: number[], owner: Owner): Promise<Item[]> {
  const table = line === 'truck' ? sql.raw('truck_orders') : sql.raw('express_waybills');
  const number = line === 'truck' ? sql.raw('order_no') : sql.raw('waybill_no');
  const found = await rows<{ id: number; no: string; total: string }>(
    sql`select id::int as id, ${number} as no, total_cents::text as total from ${table}
        where tenant_id = ${f.t.tenant.id} and id in (${sql.join(
          ids.map((id) => sql`${id}`),
          sql`, `,
        )}) order by id`,
  );
  return found.map((r) => ({ line, id: r.id, no: r.no, total: BigInt(r.total), owner }));
}

/** Payment and refund rows of an order or waybill, and its state now. */
async function booksOf(item: Item) {
  const refType = item.line === 'truck' ? 'truck_order' : 'express_waybill';
  const entries = await rows<{ type: string; amount: string }>(
    sql`select type, amount_cents::text as amount from ledger_entries
        where tenant_id = ${f.t.tenant.id} and ref_type = ${refType} and ref_id = ${item.no} order by id`,
  );
  const table = item.line === 'truck' ? sql.raw('truck_orders') : sql.raw('express_waybills');
  const [state] = await rows<{ status: string; paid_at: unknown; paid: string }>(
    sql`select status, paid_at, paid_cents::text as paid from ${table}
        where tenant_id = ${f.t.tenant.id} and id = ${item.id}`,
  );
  return {
    payments: entries.filter((e) => e.type === 'order_payment').map((e) => BigInt(e.amount)),
    refunds: entries.filter((e) => e.type === 'refund').map((e) => BigInt(e.amount)),
    status: state?.status as string,
    paidAt: state?.paid_at ?? null,
    paid: BigInt(state?.paid ?? '0'),
  };
}

/** The lowest balance any of the tenant's accounts reached, by its ledger, and the lowest available now. */
async function lowestFunds() {
  const [row] = await rows<{ lowest: string | null; available: string | null }>(
    sql`select (select min(balance_after_cents)::text from ledger_entries where tenant_id = ${f.t.tenant.id}) as lowest,
               (select min(balance_cents + credit_limit_cents - frozen_cents)::text from accounts
                 where tenant_id = ${f.t.tenant.id}) as available`,
  );
  return { lowest: BigInt(row?.lowest ?? '0'), available: BigInt(row?.available ?? '0') };
}

interface PayCall {
  url: string;
  body: Record<string, unknown>;
  as: Caller;
  items: Item[];
}

/** Each entry point that pays an existing order (truck) or waybill (express), as owner or staff. */
function payCalls(item: Item, way: number): PayCall {
  const owner = f.as(item.owner);
  const admin = f.as('admin');
  const ways: PayCall[] =
    item.line === 'truck'
      ? [
          { url: '/api/admin/order/pay', body: { id: item.id }, as: owner, items: [item] },
          { url: '/api/admin/order/pay', body: { id: item.id }, as: admin, items: [item] },
          {
            url: '/api/admin/order/transition',
            body: { id: item.id, action: 'pay' },
            as: owner,
            items: [item],
          },
          {
            url: '/api/admin/order/transition',
            body: { id: item.id, action: 'pay' },
            as: admin,
            items: [item],
          },
          { url: '/api/admin/order/bulkPay', body: { ids: [item.id, item.id] }, as: owner, items: [item] },
          { url: '/api/admin/order/bulkPay', body: { ids: [item.id] }, as: admin, items: [item] },
        ]
      : [
          { url: '/api/express/order/pay', body: { id: item.id }, as: owner, items: [item] },
          { url: '/api/express/order/pay', body: { id: item.id }, as: admin, items: [item] },
          { url: '/api/express/order/bulkPay', body: { ids: [item.id, item.id] }, as: owner, items: [item] },
          { url: '/api/express/order/bulkPay', body: { ids: [item.id] }, as: admin, items: [item] },
        ];
  return ways[way % ways.length] as PayCall;
}

/** What an answer said of one item: paid (or a repeat), or the refusal's message. */
function outcomeFor(res: LightMyRequestResponse, item: Item): { ok: boolean; message: string } {
  const json = res.json();
  if (json.data?.results) {
    const message = json.data.results[item.id] as string;
    return { ok: message === 'success' || /already paid/i.test(message), message };
  }
  return { ok: json.code === 200, message: json.msg };
}

/** Starts a call a few milliseconds on, at random, so a race meets the other call at any of its steps. */
const later = <T>(start: () => Promise<T>) =>
  new Promise<T>((resolve, reject) => setTimeout(() => start().then(resolve, reject), Math.random() * 40));

const shuffle = <T>(list: T[]) => {
  for (let i = list.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [list[i], list[j]] = [list[j] as T, list[i] as T];
  }
  return list;
};

beforeAll(async () => {
  productId = (await f.as('admin').ok('/api/admin/product/list', { limit: 10 })).list[0].id;
}, 60_000);

describe('two hundred payments at once over both lines', () => {
  it('pays every order once, refuses what the balance cannot cover, and keeps the books', async () => {
    const truck = [
      ...(await itemsOf('truck', await several(40, () => bookTruck('customer')), 'customer')),
      ...(await itemsOf('truck', await several(20, () => bookTruck('direct')), 'direct')),
    ];
    const waybills = [
      ...(await itemsOf('express', await several(40, () => bookWaybill('customer')), 'customer')),
      ...(await itemsOf('express', await several(20, () => bookWaybill('direct')), 'direct')),
    ];
    expect(truck).toHaveLength(60);
    expect(waybills).toHaveLength(60);
    // The poorer customer's orders cost the same each: its balance covers COVERED and a half of them.
    const truckPrice = truck.find((i) => i.owner === 'direct')?.total as bigint;
    const waybillPrice = waybills.find((i) => i.owner === 'direct')?.total as bigint;
    expect(truck.filter((i) => i.owner === 'direct').every((i) => i.total === truckPrice)).toBe(true);
    expect(waybills.filter((i) => i.owner === 'direct').every((i) => i.total === waybillPrice)).toBe(true);
    await f.truck.setBalance('customer', 100_000_000n);
    await f.truck.setBalance('direct', truckPrice * BigInt(COVERED) + truckPrice / 2n);
    await express.fund('customer', 100_000_000n);
    await express.fund('direct', waybillPrice * BigInt(COVERED) + waybillPrice / 2n);

    // One call for each of the 120, rotating the entry points, then 80 more for the same orders
    // through another entry point: 200 calls in flight at once.
    const items = [...truck, ...waybills];
    const calls: PayCall[] = items.map((item, i) => payCalls(item, i));
    const twice = shuffle([...items]).slice(0, 80);
    for (const [i, item] of twice.entries()) calls.push(payCalls(item, i + 1 + items.indexOf(item)));
    expect(calls).toHaveLength(200);
    shuffle(calls);
    const started = Date.now();
    const answers = await Promise.all(calls.map((c) => c.as.post(c.url, c.body)));
    const took = Date.now() - started;

    const statuses = new Map<number, number>();
    for (const res of answers) statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
    console.info(
      `${calls.length} payments in ${took} ms on ${process.env.TEST_DB === 'pg' ? 'PostgreSQL' : 'PGlite'}; HTTP statuses:`,
      Object.fromEntries(statuses),
    );
    const failed = answers.filter((res) => res.statusCode >= 500);
    expect(
      failed.map((res) => `${res.statusCode} ${res.body.slice(0, 200)}`),
      'answers of 5xx (503: no pool connection in time)',
    ).toEqual([]);

    // What each answer said of each order.
    const said = new Map<Item, { ok: boolean; message: string }[]>();
    for (const [i, call] of calls.entries())
      for (const item of call.items)
        said.set(item, [...(said.get(item) ?? []), outcomeFor(answers[i] as LightMyRequestResponse, item)]);

    const paidOf = { truck: 0, express: 0 };
    for (const item of items) {
      const books = await booksOf(item);
      const where = `${item.line} ${item.no} of ${item.owner}`;
      expect(books.refunds, where).toEqual([]);
      if (books.paidAt) {
        // Paid exactly once, with one payment row of its total.
        expect(books.payments, where).toEqual([-item.total]);
        expect(books.paid, where).toBe(item.total);
        expect(books.status, where).not.toBe('unpaid');
        expect(
          said.get(item)?.some((s) => s.ok),
          where,
        ).toBe(true);
        if (item.owner === 'direct') paidOf[item.line]++;
      } else {
        // Refused: unpaid, no row, and every answer about it named the shortage.
        expect(item.owner, `${where} is unpaid`).toBe('direct');
        expect(books.payments, where).toEqual([]);
        expect(books.status, where).toBe('unpaid');
        for (const s of said.get(item) ?? []) {
          expect(s.ok, where).toBe(false);
          const named = shortage[item.line].exec(s.message);
          expect(named, `${where}: ${s.message}`).not.toBeNull();
          expect(named?.groups?.total, where).toBe(money(item.total));
        }
      }
    }
    // The poorer customer's money went exactly as far as it reaches.
    expect(paidOf).toEqual({ truck: COVERED, express: COVERED });
    const funds = await lowestFunds();
    expect(funds.lowest >= 0n, `lowest balance ${funds.lowest}`).toBe(true);
    expect(funds.available >= 0n, `lowest available ${funds.available}`).toBe(true);
    expect(await f.truck.balanceOf('direct')).toBe(truckPrice / 2n);
    expect(await express.expressBalance('direct')).toBe(waybillPrice / 2n);
    // Every balance is the sum of its ledger rows: checked after each test by the express line.
  }, 240_000);
});

describe('a payment racing a cancellation or refund of the same order', () => {
  it('ends paid then refunded, or with one of the two refused; never a refund without a payment', async () => {
    await f.truck.setBalance('customer', 100_000_000n);
    await express.fund('customer', 100_000_000n);
    const truck = await itemsOf('truck', await several(18, () => bookTruck('customer')), 'customer');
    const waybills = await itemsOf('express', await several(18, () => bookWaybill('customer')), 'customer');
    const owner = f.as('customer');
    const admin = f.as('admin');
    // One pair at a time, so the two calls of a pair meet each other rather than queue behind the
    // other pairs on the same account; the second starts up to 40 ms after the first, at random.
    const races: (() => Promise<LightMyRequestResponse[]>)[] = [];
    for (const [i, item] of truck.entries()) {
      const payer = i % 2 === 0 ? owner : admin;
      const canceller = i % 3 === 0 ? admin : owner;
      const pay = () => payer.post('/api/admin/order/pay', { id: item.id });
      const cancel = () =>
        canceller.post('/api/admin/order/transition', {
          id: item.id,
          action: 'cancel',
          reason: 'booked twice',
        });
      races.push(() => Promise.all(i % 2 === 0 ? [pay(), later(cancel)] : [cancel(), later(pay)]));
    }
    for (const [i, item] of waybills.entries()) {
      const payer = i % 2 === 0 ? owner : admin;
      const pay = () => payer.post('/api/express/order/pay', { id: item.id });
      // A refund gives back a payment; a cancellation voids a waybill not yet paid.
      const undo = () =>
        i % 3 === 2
          ? owner.post('/api/express/order/transition', {
              id: item.id,
              action: 'cancel',
              note: 'booked twice',
            })
          : (i % 2 === 0 ? admin : owner).post('/api/express/order/refund', {
              id: item.id,
              reason: 'booked twice',
            });
      races.push(() => Promise.all(i % 2 === 0 ? [pay(), later(undo)] : [undo(), later(pay)]));
    }
    const raced: LightMyRequestResponse[][] = [];
    for (const race of races) raced.push(await race());
    const answers = raced.flat();
    expect(answers.filter((res) => res.statusCode >= 500).map((res) => res.body.slice(0, 200))).toEqual([]);

    const outcomes = new Map<string, number>();
    for (const item of [...truck, ...waybills]) {
      const books = await booksOf(item);
      const where = `${item.line} ${item.no}: ${books.status}`;
      expect(books.payments.length, where).toBeLessThanOrEqual(1);
      expect(books.refunds.length, where).toBeLessThanOrEqual(books.payments.length);
      if (books.payments.length === 1) expect(books.payments[0], where).toBe(-item.total);
      if (books.refunds.length === 1) {
        // Paid, then refunded: two rows that cancel out, and nothing paid now.
        expect(books.refunds[0], where).toBe(item.total);
        expect(books.paid, where).toBe(0n);
        expect(['cancelled', 'refunded'], where).toContain(books.status);
        outcomes.set('paid then refunded', (outcomes.get('paid then refunded') ?? 0) + 1);
      } else if (books.payments.length === 1) {
        // Paid; the cancellation or refund was refused (it came first and found the order unpaid).
        expect(books.paid, where).toBe(item.total);
        expect(['unpaid', 'cancelled', 'refunded'], where).not.toContain(books.status);
        outcomes.set('paid, undo refused', (outcomes.get('paid, undo refused') ?? 0) + 1);
      } else {
        // Cancelled first: the payment was refused and nothing moved.
        expect(books.paidAt, where).toBeNull();
        expect(books.status, where).toBe('cancelled');
        outcomes.set('cancelled, payment refused', (outcomes.get('cancelled, payment refused') ?? 0) + 1);
      }
    }
    console.info('race outcomes:', Object.fromEntries(outcomes));
    const funds = await lowestFunds();
    expect(funds.lowest >= 0n).toBe(true);
  }, 120_000);
});
