import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import ExcelJS from 'exceljs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '../src/db/seed.ts';
import { sha256Hex } from '../src/lib/crypto.ts';
import { BATCH_COLUMNS } from '../src/modules/truck-orders/batch.ts';
import { codeIn, makePng } from './helpers.ts';
import { mailedTo, type ServerProcess, scratchDatabase, scratchDir, startServer } from './server-process.ts';
import { truckBatchRow } from './truck-fixtures.ts';

/**
 * The real server, killed with SIGKILL in the middle of concurrent payments, refunds and recharge
 * approvals and a batch import, three times. After each kill the books must balance (every balance the sum of its
 * ledger rows), every paid order and waybill must have exactly one payment row and every payment row a
 * paid order, every refund and approved recharge exactly one row, a batch import all its rows or none,
 * and paying the rest must work.
 * On PostgreSQL the server dies with transactions open on a database server that outlives it; on the
 * embedded database (the default of `npm start`) PGlite dies with the process, in the middle of
 * writing its files, and opening them again must recover them.
 */

type Envelope = { code: number; msg: string; data: any };
type Session = { email: string; token: string };

let scratch: Awaited<ReturnType<typeof scratchDatabase>>;
let dir: ReturnType<typeof scratchDir>;
let pool: pg.Pool | undefined;
const onPostgres = process.env.TEST_DB === 'pg';
/** Smaller rounds on the embedded database, which serves one transaction at a time. */
const scale = onPostgres ? 1 : 0.4;

/**
 * Reads the books with SQL. On PostgreSQL beside the running server; the embedded database belongs to
 * the one process that opened it, so only while no server runs on it.
 */
async function query(text: string, params: unknown[] = []): Promise<Record<string, unknown>[]> {
  if (pool) return (await pool.query(text, params)).rows;
  if (server && server.child.exitCode === null && server.child.signalCode === null)
    throw new Error('the embedded database is read only while no server runs on it');
  const db = new PGlite(join(dir.dir, 'db'));
  try {
    return (await db.query<Record<string, unknown>>(text, params)).rows;
  } finally {
    await db.close();
  }
}
let server: ServerProcess | undefined;
let base = '';
const sessions: Record<string, Session> = {};

async function post(url: string, body: unknown, as?: Session): Promise<{ status: number; body: Envelope }> {
  const res = await fetch(`${base}${url}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'accept-language': 'en-US',
      ...(as ? { accesstoken: as.token } : {}),
    },
    body: JSON.stringify(body ?? {}),
  });
  const text = await res.text();
  return {
    status: res.status,
    body: text.startsWith('{"code"') ? JSON.parse(text) : { code: 0, msg: text, data: null },
  };
}

async function ok(url: string, body: unknown, as?: Session) {
  const res = await post(url, body, as);
  expect(res.body, `${url}: ${res.body.msg}`).toMatchObject({ code: 200 });
  return res.body.data;
}

/** The price stream of a quote, read to its end (which prices the quote); its lines as objects. */
async function streamed(url: string, body: unknown, as: Session) {
  const res = await fetch(`${base}${url}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accesstoken: as.token },
    body: JSON.stringify(body),
  });
  return (await res.text())
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
}

async function signIn(email: string): Promise<Session> {
  await ok('/api/admin/auth/getVerificationCode', { email });
  const code = codeIn((await mailedTo(base, email))[0]?.text);
  const { token } = await ok('/api/admin/auth/login', { email, password: sha256Hex(DEMO_PASSWORD), code });
  return { email, token };
}

const dock = (zipcode: string, state: string, city: string) => ({
  name: 'Dock',
  address1: '1 Main St',
  zipcode,
  city,
  state,
  contact: 'Pat Lee',
  phone: '2135550100',
});
const parcelAddress = (zipcode: string, state: string, city: string) => ({
  name: 'Pat Lee',
  company: 'Acme Parts',
  address1: '100 Main St',
  city,
  state,
  zipcode,
  country: 'US',
  phone: '2135550100',
  email: 'dock@example.com',
});

/** A truck order booked unpaid: quote, price, book. */
async function bookTruckOrder(as: Session): Promise<number> {
  const quote = await ok(
    '/api/admin/quotation/save',
    {
      mode: 'LTL',
      pickup: dock('90001', 'CA', 'Los Angeles'),
      delivery: dock('75201', 'TX', 'Dallas'),
      quoteDate: new Date().toISOString().slice(0, 10),
      lines: [
        { name: 'Parts', quantity: 1, palletCount: 1, length: 40, width: 40, height: 40, totalWeight: 300 },
      ],
    },
    as,
  );
  await streamed('/api/admin/quotation/rates', { id: quote.id }, as);
  const quoted = await ok('/api/admin/quotation/getQuotationInfo', { id: quote.id }, as);
  const product = quoted.results.find((r: { ok: boolean }) => r.ok);
  const order = await ok(
    '/api/admin/order/save',
    { quoteId: quote.id, productId: product.productId, pay: false },
    as,
  );
  return order.id;
}

/** An express waybill booked unpaid: quote, price, select a channel, create. */
async function bookWaybill(as: Session): Promise<number> {
  const { id } = await ok(
    '/api/express/quotation/getQuotas',
    {
      sender: parcelAddress('90001', 'CA', 'Los Angeles'),
      recipient: parcelAddress('75201', 'TX', 'Dallas'),
      unitSystem: 'lb_in',
      parcels: [{ quantity: 1, length: 10, width: 8, height: 6, weight: 4 }],
    },
    as,
  );
  const lines = await streamed('/api/express/quotation/rates', { id }, as);
  const channel = lines.at(-1).results.find((r: { ok: boolean }) => r.ok);
  await ok('/api/express/quotation/select', { id, channelId: channel.channelId }, as);
  const waybill = await ok('/api/express/order/create', { quoteId: id, pay: false }, as);
  return waybill.id;
}

/** Runs `count` bookings, a few at a time. */
async function several<T>(count: number, book: () => Promise<T>, parallel = 4): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < count; i += parallel)
    out.push(...(await Promise.all(Array.from({ length: Math.min(parallel, count - i) }, book))));
  return out;
}

/** How many rows each round's batch import carries: all of them are booked, or none. */
const IMPORT_ROWS = onPostgres ? 150 : 40;

/** A truck order spreadsheet of good rows, each with a customer order number `<prefix>-<n>`. */
async function importFile(prefix: string): Promise<Blob> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Orders');
  sheet.addRow(BATCH_COLUMNS.map((c) => c.en));
  for (let n = 1; n <= IMPORT_ROWS; n++) {
    sheet.addRow(truckBatchRow({ customerOrderNo: `${prefix}-${n}` }));
  }
  const bytes = await workbook.xlsx.writeBuffer();
  return new Blob([bytes], { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' });
}

/** Imports the file as the customer would from the batch page. */
async function importOrders(as: Session, file: Blob) {
  const form = new FormData();
  form.append('token', as.token);
  form.append('file', file, 'orders.xlsx');
  const res = await fetch(`${base}/api/admin/order/batchOrdering`, {
    method: 'POST',
    headers: { accesstoken: as.token, 'accept-language': 'en-US' },
    body: form,
  });
  return (await res.json()) as Envelope;
}

/** How many orders of an import are booked. */
async function importedCount(prefix: string): Promise<number> {
  const rows = await query('select count(*)::int as n from truck_orders where customer_order_no like $1', [
    `${prefix}-%`,
  ]);
  return Number(rows[0]?.n);
}

let receivingAccountId = 0;
/** A recharge of the truck line submitted by the customer, waiting for staff. */
async function submitRecharge(as: Session, amount: string): Promise<number> {
  // A recharge attaches a screenshot its submitter uploaded; nothing else is accepted.
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(makePng())], { type: 'image/png' }), 'receipt.png');
  const upload = await fetch(`${base}/api/common/upload/images`, {
    method: 'POST',
    headers: { accesstoken: as.token },
    body: form,
  });
  const uploaded = (await upload.json()) as Envelope;
  expect(uploaded, `upload: ${uploaded.msg}`).toMatchObject({ code: 200 });
  const { id } = await ok(
    '/api/admin/recharge/submit',
    {
      line: 'truck',
      amount,
      method: 'bank_transfer',
      receivingAccountId,
      payerName: 'Pat Lee',
      payerCardNumber: '6222 0000 1111',
      screenshotUrl: uploaded.data[0],
    },
    as,
  );
  return id;
}

async function restart() {
  server = await startServer({
    ...(onPostgres ? { DATABASE_URL: scratch.url } : {}),
    DATA_DIR: dir.dir,
    SEED_DEMO: 'true',
    LOG_LEVEL: 'error',
  });
  base = server.base;
}

/** What breaks the money rules right now, described row by row; empty when the books are sound. */
async function brokenRules(): Promise<string[]> {
  const checks: [string, string][] = [
    [
      'balance differs from its ledger',
      `select a.id, a.balance_cents, coalesce(sum(l.amount_cents), 0) as ledger
       from accounts a left join ledger_entries l on l.tenant_id = a.tenant_id and l.account_id = a.id
       group by a.tenant_id, a.id, a.balance_cents having a.balance_cents <> coalesce(sum(l.amount_cents), 0)`,
    ],
    [
      'truck order paid without exactly one payment row, or a payment row on an unpaid order',
      `select o.order_no, o.status, o.paid_at, count(l.id) as rows, sum(l.amount_cents) as amount, o.total_cents
       from truck_orders o left join ledger_entries l on l.tenant_id = o.tenant_id
         and l.type = 'order_payment' and l.ref_type = 'truck_order' and l.ref_id = o.order_no
       group by o.tenant_id, o.id, o.order_no, o.status, o.paid_at, o.total_cents
       having (o.paid_at is not null) <> (count(l.id) = 1) or count(l.id) > 1
         or (count(l.id) = 1 and sum(l.amount_cents) <> -o.total_cents)
         or (o.status = 'unpaid' and o.paid_at is not null)
         or (o.status not in ('unpaid', 'cancelled') and o.paid_at is null)`,
    ],
    [
      'express waybill paid without exactly one payment row, or a payment row on an unpaid waybill',
      `select w.waybill_no, w.status, w.paid_at, count(l.id) as rows
       from express_waybills w left join ledger_entries l on l.tenant_id = w.tenant_id
         and l.type = 'order_payment' and l.ref_type = 'express_waybill' and l.ref_id = w.waybill_no
       group by w.tenant_id, w.id, w.waybill_no, w.status, w.paid_at, w.total_cents
       having (w.paid_at is not null) <> (count(l.id) = 1) or count(l.id) > 1
         or (count(l.id) = 1 and sum(l.amount_cents) <> -w.total_cents)
         or (w.status = 'unpaid' and w.paid_at is not null)
         or (w.status not in ('unpaid', 'cancelled', 'refunded') and w.paid_at is null)`,
    ],
    [
      'payment or refund row naming no order or waybill of that state',
      `select l.id, l.type, l.ref_type, l.ref_id from ledger_entries l
       where (l.ref_type = 'truck_order' and not exists (select 1 from truck_orders o
                where o.tenant_id = l.tenant_id and o.order_no = l.ref_id and o.paid_at is not null
                  and (l.type <> 'refund' or o.status = 'cancelled')))
          or (l.ref_type = 'express_waybill' and not exists (select 1 from express_waybills w
                where w.tenant_id = l.tenant_id and w.waybill_no = l.ref_id and w.paid_at is not null
                  and (l.type <> 'refund' or w.status = 'refunded')))`,
    ],
    [
      'refunded order or waybill without exactly one refund row of what was paid',
      `select o.order_no as ref, count(l.id) as rows from truck_orders o
         left join ledger_entries l on l.tenant_id = o.tenant_id and l.type = 'refund'
           and l.ref_type = 'truck_order' and l.ref_id = o.order_no
       where o.status = 'cancelled' and o.paid_at is not null
       group by o.tenant_id, o.id, o.order_no, o.total_cents, o.paid_cents having count(l.id) <> 1 or sum(l.amount_cents) <> o.total_cents or o.paid_cents <> 0
       union all
       select w.waybill_no, count(l.id) from express_waybills w
         left join ledger_entries l on l.tenant_id = w.tenant_id and l.type = 'refund'
           and l.ref_type = 'express_waybill' and l.ref_id = w.waybill_no
       where w.status = 'refunded' and w.paid_at is not null
       group by w.tenant_id, w.id, w.waybill_no, w.total_cents, w.paid_cents having count(l.id) <> 1 or sum(l.amount_cents) <> w.total_cents or w.paid_cents <> 0`,
    ],
    [
      'recharge approved without exactly one credit, or credited without approval',
      `select r.serial, r.status, count(l.id) as rows from recharges r
         left join ledger_entries l on l.tenant_id = r.tenant_id and l.type = 'recharge'
           and l.ref_type = 'recharge' and l.ref_id = r.serial
       group by r.tenant_id, r.id, r.serial, r.status
       having (r.status in ('approved_received', 'approved_pending')) <> (count(l.id) = 1) or count(l.id) > 1`,
    ],
  ];
  const broken: string[] = [];
  for (const [rule, sql] of checks) {
    for (const row of await query(sql))
      broken.push(`${rule}: ${JSON.stringify(row, (_, v) => (typeof v === 'bigint' ? String(v) : v))}`);
  }
  return broken;
}

beforeAll(async () => {
  dir = scratchDir('fp-crash-');
  if (onPostgres) {
    scratch = await scratchDatabase('fp_crash');
    pool = new pg.Pool({ connectionString: scratch.url, max: 2 });
  }
  await restart();
  for (const who of ['admin', 'customer', 'direct']) sessions[who] = await signIn(`${who}@example.com`);
  const saved = await ok(
    '/api/admin/recharge/receivingAccount/save',
    { currency: 'USD', bankName: 'First Bank', accountName: 'Freight Portal', accountNumber: '000123456' },
    sessions.admin,
  );
  receivingAccountId = saved.id;
}, 120_000);

afterAll(async () => {
  if (server && server.child.exitCode === null && server.child.signalCode === null) {
    server.child.kill('SIGTERM');
    await server.exited;
  }
  await pool?.end();
  await scratch?.drop();
  dir?.remove();
});

describe('a server killed in the middle of moving money', () => {
  it('leaves no half payment, refund or recharge behind, three times over, and the rest can be paid', async () => {
    const customer = sessions.customer as Session;
    const direct = sessions.direct as Session;
    const admin = sessions.admin as Session;
    const allTrucks: number[] = [];
    const batches: string[] = [];
    const truckEach = Math.round(5 * scale);
    const waybillEach = Math.round(8 * scale);
    for (let round = 0; round < 3; round++) {
      const trucks = [
        ...(await several(truckEach, () => bookTruckOrder(customer))),
        ...(await several(truckEach, () => bookTruckOrder(direct))),
      ];
      const owners = new Map<number, Session>(trucks.map((id, i) => [id, i < truckEach ? customer : direct]));
      const waybills = [
        ...(await several(waybillEach, () => bookWaybill(customer))),
        ...(await several(waybillEach, () => bookWaybill(direct))),
      ];
      const waybillOwners = new Map<number, Session>(
        waybills.map((id, i) => [id, i < waybillEach ? customer : direct]),
      );
      const recharges = [await submitRecharge(customer, '1500.00'), await submitRecharge(direct, '1500.00')];

      // The load: every order and waybill paid, some twice at once; some paid then refunded; the
      // recharges approved; all shuffled over eight clients.
      const tasks: (() => Promise<unknown>)[] = [];
      for (const id of trucks) tasks.push(() => post('/api/admin/order/pay', { id }, owners.get(id)));
      for (const id of trucks.slice(0, 2))
        tasks.push(() => post('/api/admin/order/pay', { id }, owners.get(id)));
      for (const id of trucks.slice(2, 4))
        tasks.push(async () => {
          await post('/api/admin/order/pay', { id }, owners.get(id));
          return post(
            '/api/admin/order/transition',
            { id, action: 'cancel', reason: 'booked twice' },
            owners.get(id),
          );
        });
      for (const id of waybills)
        tasks.push(() => post('/api/express/order/pay', { id }, waybillOwners.get(id)));
      for (const id of waybills.slice(0, 3))
        tasks.push(() => post('/api/express/order/pay', { id }, waybillOwners.get(id)));
      for (const id of waybills.slice(3, 6))
        tasks.push(async () => {
          await post('/api/express/order/pay', { id }, waybillOwners.get(id));
          return post('/api/express/order/refund', { id, reason: 'booked twice' }, waybillOwners.get(id));
        });
      for (const id of recharges)
        tasks.push(() => post('/api/admin/recharge/review', { id, action: 'approve_received' }, admin));
      tasks.sort(() => Math.random() - 0.5);

      // Killed once a share of the answers is back: early, midway, late.
      const killAfter = Math.floor(tasks.length * ([0.2, 0.5, 0.8][round] ?? 0.5));
      let answered = 0;
      let cut = 0;
      let killed = false;
      const running = server as ServerProcess;
      const worker = async () => {
        while (!killed && tasks.length > 0) {
          const task = tasks.pop();
          if (!task) break;
          try {
            await task();
          } catch {
            // The connection died with the server: the call's fate is whatever the database kept.
            cut++;
          }
          if (++answered >= killAfter && !killed) {
            killed = true;
            running.child.kill('SIGKILL');
          }
        }
      };
      // A batch import runs beside the payments: the kill finds it done or not begun, never half.
      const batch = `R${round + 1}-${Date.now()}`;
      const importing = importOrders(customer, await importFile(batch)).catch(() => null);
      await Promise.all(Array.from({ length: 8 }, worker));
      const imported = await importing;
      expect(await running.exited).toEqual({ code: null, signal: 'SIGKILL' });
      // The kill caught calls in the middle: their clients lost the connection without an answer.
      expect(cut, `calls in flight at kill ${round + 1}`).toBeGreaterThan(0);

      expect(await brokenRules(), `after kill ${round + 1}`).toEqual([]);
      const booked = await importedCount(batch);
      expect([0, IMPORT_ROWS], `orders of import ${round + 1}`).toContain(booked);
      if (imported?.code === 200) expect(booked).toBe(IMPORT_ROWS);
      await restart();
      if (onPostgres) expect(await brokenRules(), `after restart ${round + 1}`).toEqual([]);

      // The rest: recharges still waiting approved, then every unpaid order and waybill paid once.
      for (const id of recharges) {
        const res = await post('/api/admin/recharge/review', { id, action: 'approve_received' }, admin);
        expect([200, 409], res.body.msg).toContain(res.body.code);
      }
      for (const id of trucks) {
        const paid = await ok('/api/admin/order/pay', { id }, owners.get(id));
        expect(['pending_review', 'cancelled']).toContain(paid.status);
      }
      for (const id of waybills) {
        const res = await post('/api/express/order/pay', { id }, waybillOwners.get(id));
        // A waybill refunded under the load stays refunded; every other one is paid now.
        if (res.body.code !== 200)
          expect((await ok('/api/express/order/info', { id }, waybillOwners.get(id))).status).toBe(
            'refunded',
          );
      }
      // An import the kill cut short left nothing, so the same file goes in whole now.
      if (booked === 0) expect((await importOrders(customer, await importFile(batch))).code).toBe(200);
      allTrucks.push(...trucks);
      batches.push(batch);
      // PostgreSQL is read beside the server. The embedded database is read at the next kill, and
      // after the last round once its server has stopped.
      if (onPostgres || round === 2) await checkAfterPayingTheRest(round);
    }

    async function checkAfterPayingTheRest(round: number) {
      if (!onPostgres) {
        const stopping = server as ServerProcess;
        stopping.child.kill('SIGTERM');
        expect(await stopping.exited).toEqual({ code: 0, signal: null });
      }
      for (const batch of batches) expect(await importedCount(batch)).toBe(IMPORT_ROWS);
      expect(await brokenRules(), `after paying the rest ${round + 1}`).toEqual([]);
      const unpaid = await query(
        `select count(*)::int as n from truck_orders where id = any($1) and paid_at is null and status <> 'cancelled'`,
        [allTrucks],
      );
      expect(Number(unpaid[0]?.n)).toBe(0);
    }
  }, 240_000);
});
