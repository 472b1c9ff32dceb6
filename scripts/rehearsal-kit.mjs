// What the rehearsals share (npm run rehearse, npm run rehearse:citus): the PostgreSQL binaries, free
// ports, waiting for a server to be ready, the portal's calls as a customer makes them (sign in, a
// truck round, an express round), and the money rules checked in the database afterwards.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, openSync, readdirSync, readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { createServer } from 'node:net';
import { join } from 'node:path';

/** The path HAProxy checks and the scripts wait on. */
export const READY_PATH = '/api/health/ready';
export const DEMO_PASSWORD = 'Demo@123456';
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
export const sha256 = (s) => createHash('sha256').update(s).digest('hex');

/** A command run to its end; it throws on a non-zero exit unless `allowFail`. */
export function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', ...opts });
  if (r.status !== 0 && !opts.allowFail) {
    throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}: ${r.stderr || r.stdout}`);
  }
  return r;
}

export async function freePort() {
  return new Promise((res, rej) => {
    const s = createServer();
    s.unref();
    s.on('error', rej);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => res(port));
    });
  });
}

export function pgBin() {
  if (!existsSync('/usr/lib/postgresql')) return null;
  const versions = readdirSync('/usr/lib/postgresql')
    .filter((v) => existsSync(`/usr/lib/postgresql/${v}/bin/initdb`))
    .sort((a, b) => Number(a) - Number(b));
  return versions.length ? `/usr/lib/postgresql/${versions.at(-1)}/bin` : null;
}

export async function waitReady(url, seconds = 120, child = null) {
  const until = Date.now() + seconds * 1000;
  while (Date.now() < until) {
    if (child && child.exitCode !== null) throw new Error(`${url}: the process exited ${child.exitCode}`);
    try {
      const res = await fetch(`${url}${READY_PATH}`, { signal: AbortSignal.timeout(2000) });
      if (res.status === 200) return;
    } catch {}
    await sleep(200);
  }
  throw new Error(`${url}${READY_PATH} not ready after ${seconds}s`);
}

export const requests = [];

/**
 * One request on a connection of its own (no keep-alive towards the balancer), so a failure is this
 * request's own and never a race with a connection the balancer closed between two requests.
 */
export function call(base, path, body, token, extraHeaders = {}) {
  const rec = {
    path,
    start: Date.now(),
    end: 0,
    status: 0,
    code: null,
    msg: null,
    backend: null,
    answeredBy: null,
    error: null,
  };
  requests.push(rec);
  const payload = body === undefined ? null : Buffer.from(JSON.stringify(body));
  const headers = { 'accept-language': 'en-US', connection: 'close', ...extraHeaders };
  if (payload) {
    headers['content-type'] = 'application/json';
    headers['content-length'] = String(payload.length);
  }
  if (token) headers.accesstoken = token;
  return new Promise((resolve) => {
    const fail = (error) => {
      rec.end = Date.now();
      rec.error = String(error?.code ?? error?.message ?? error);
      resolve({ code: null, error: rec.error });
    };
    const req = httpRequest(
      `${base}${path}`,
      { method: payload ? 'POST' : 'GET', headers, agent: false, timeout: 30_000 },
      (res) => {
        rec.status = res.statusCode ?? 0;
        rec.backend = res.headers['x-backend'] || null;
        rec.answeredBy = res.headers['x-answered-by'] ?? null;
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('error', fail);
        res.on('aborted', () => fail(new Error('response aborted')));
        res.on('end', () => {
          rec.end = Date.now();
          const buf = Buffer.concat(chunks);
          const type = String(res.headers['content-type'] ?? '');
          try {
            if (type.includes('application/json')) {
              const json = JSON.parse(buf.toString('utf8'));
              rec.code = json.code;
              rec.msg = json.msg ?? null;
              resolve(json);
            } else if (type.includes('ndjson')) {
              const lines = buf
                .toString('utf8')
                .trim()
                .split('\n')
                .map((l) => JSON.parse(l));
              // A stream that ends in an error line did not price the quote; the line carries the
              // envelope's code (503 when the database went away after the first line).
              const last = lines.at(-1);
              rec.code = rec.status === 200 && last?.type === 'done' ? 200 : (last?.code ?? 500);
              rec.msg = last?.msg ?? null;
              resolve({ code: rec.code, data: lines });
            } else {
              rec.code = rec.status === 200 ? 200 : rec.status;
              resolve({ code: rec.code, data: buf, type });
            }
          } catch (error) {
            rec.code = 500;
            fail(error);
          }
        });
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', fail);
    req.end(payload ?? undefined);
  });
}

/** Signs in with the password and the e-mailed code read from the dev mailbox. */
export async function signIn(base, email) {
  const sent = await call(base, '/api/admin/auth/getVerificationCode', { email });
  if (sent.code !== 200) throw new Error(`code for ${email}: ${JSON.stringify(sent)}`);
  // The mail may leave after the answer: look for it a few times.
  let code = null;
  for (let i = 0; i < 50 && !code; i++) {
    if (i > 0) await sleep(100);
    const mail = await call(base, `/api/dev/mailbox?to=${encodeURIComponent(email)}`);
    code = /\b(\d{6})\b/.exec(mail.data?.list?.[0]?.text ?? '')?.[1];
  }
  if (!code) throw new Error(`no code mailed to ${email}`);
  const res = await call(base, '/api/admin/auth/login', { email, password: sha256(DEMO_PASSWORD), code });
  if (!res.data?.token) throw new Error(`login ${email}: ${JSON.stringify(res)}`);
  return res.data.token;
}

export const usAddress = (zipcode, state, city) => ({
  name: 'Dock',
  company: 'Acme Parts',
  address1: '1 Main St',
  zipcode,
  city,
  state,
  country: 'US',
  contact: 'Pat Lee',
  phone: '2135550100',
  email: 'dock@example.com',
});

/** A truck quote of one pallet from Los Angeles to Dallas, as a customer asks it. */
export const truckQuoteBody = () => ({
  mode: 'LTL',
  pickup: usAddress('90001', 'CA', 'Los Angeles'),
  delivery: usAddress('75201', 'TX', 'Dallas'),
  quoteDate: new Date().toISOString().slice(0, 10),
  lines: [
    { name: 'Parts', quantity: 1, palletCount: 1, length: 40, width: 40, height: 40, totalWeight: 150 },
  ],
});

/** What one client achieved; pays are counted only when the answer says this call paid. */
export function newTally() {
  return { truckPaid: [], expressPaid: [], booked: 0, quotes: 0, refused: 0 };
}

/**
 * Quote a truck line, book it unpaid, pay it: one round of a customer's work. Answers the code of the
 * call it stopped at (200 when it paid).
 */
export async function truckRound(base, token, tally) {
  const quote = await call(base, '/api/admin/quotation/save', truckQuoteBody(), token);
  if (quote.code !== 200) return quote.code;
  const rates = await call(base, '/api/admin/quotation/rates', { id: quote.data.id }, token);
  if (rates.code !== 200) return rates.code;
  tally.quotes++;
  const info = await call(base, '/api/admin/quotation/getQuotationInfo', { id: quote.data.id }, token);
  const product = info.data?.results?.find((r) => r.ok);
  if (!product) return;
  const order = await call(
    base,
    '/api/admin/order/save',
    { quoteId: quote.data.id, productId: product.productId, pay: false },
    token,
  );
  if (order.code !== 200) return order.code;
  tally.booked++;
  const paid = await call(base, '/api/admin/order/pay', { id: order.data.id }, token);
  if (paid.code === 200 && paid.data.repeated === false) tally.truckPaid.push(order.data.orderNo);
  else if (paid.code === 409) tally.refused++;
  return paid.code;
}

/** Quote a parcel, select a channel, create the waybill and pay it. */
export async function expressRound(base, token, tally) {
  const quote = await call(
    base,
    '/api/express/quotation/getQuotas',
    {
      sender: usAddress('90001', 'CA', 'Los Angeles'),
      recipient: usAddress('75201', 'TX', 'Dallas'),
      unitSystem: 'lb_in',
      parcels: [{ quantity: 1, length: 10, width: 8, height: 6, weight: 4 }],
      reference: 'REHEARSAL',
    },
    token,
  );
  if (quote.code !== 200) return quote.code;
  const rates = await call(base, '/api/express/quotation/rates', { id: quote.data.id }, token);
  if (rates.code !== 200) return rates.code;
  tally.quotes++;
  const done = rates.data.at?.(-1);
  const channel = done?.results?.find((r) => r.ok);
  if (!channel) return;
  const selected = await call(
    base,
    '/api/express/quotation/select',
    { id: quote.data.id, channelId: channel.channelId },
    token,
  );
  if (selected.code !== 200) return selected.code;
  const waybill = await call(base, '/api/express/order/create', { quoteId: quote.data.id }, token);
  if (waybill.code !== 200) return waybill.code;
  tally.booked++;
  const paid = await call(base, '/api/express/order/pay', { id: waybill.data.id }, token);
  if (paid.code === 200 && paid.data.repeated !== true) tally.expressPaid.push(waybill.data.waybillNo);
  else if (paid.code === 409) tally.refused++;
  return paid.code;
}

/**
 * A request failed when it got no answer, a 5xx, a missing session (the envelope's 300), or a stream
 * that ended in an error line (its code, 500 or 503).
 */
export const failed = (r) =>
  r.error !== null || r.status >= 500 || r.code === 300 || (typeof r.code === 'number' && r.code >= 500);

/** The money rules every rehearsal checks, each with how many rows break it; `count` runs a count query. */
export function moneyInvariants(count) {
  const q = (sql) => Number(count(sql));
  return [
    [
      'every balance equals the sum of its ledger rows',
      q(
        `select count(*) from accounts a where a.balance_cents <> coalesce((select sum(l.amount_cents) from ledger_entries l where l.tenant_id = a.tenant_id and l.account_id = a.id), 0)`,
      ),
    ],
    [
      'every paid truck order has exactly one payment row',
      q(
        `select count(*) from truck_orders o where o.paid_at is not null and o.total_cents > 0 and (select count(*) from ledger_entries l where l.tenant_id = o.tenant_id and l.ref_type = 'truck_order' and l.ref_id = o.order_no and l.type = 'order_payment') <> 1`,
      ),
    ],
    [
      'every truck payment row belongs to a paid order',
      q(
        `select count(*) from ledger_entries l where l.type = 'order_payment' and l.ref_type = 'truck_order' and not exists (select 1 from truck_orders o where o.tenant_id = l.tenant_id and o.order_no = l.ref_id and o.paid_at is not null)`,
      ),
    ],
    [
      'every paid express waybill has exactly one payment row',
      q(
        `select count(*) from express_waybills w where w.paid_at is not null and w.total_cents > 0 and (select count(*) from ledger_entries l where l.tenant_id = w.tenant_id and l.ref_type = 'express_waybill' and l.ref_id = w.waybill_no and l.type = 'order_payment') <> 1`,
      ),
    ],
    [
      'every express payment row belongs to a paid waybill',
      q(
        `select count(*) from ledger_entries l where l.type = 'order_payment' and l.ref_type = 'express_waybill' and not exists (select 1 from express_waybills w where w.tenant_id = l.tenant_id and w.waybill_no = l.ref_id and w.paid_at is not null)`,
      ),
    ],
  ];
}

/**
 * The compiled server, as `npm start` runs it, in a process group of its own (so SIGKILL really kills
 * it), logging to `<dir>/<name>.log`; recorded in `servers` for the clean-up.
 */
export function startServer({ root, dir, servers, name, port, env }) {
  const out = openSync(join(dir, `${name}.log`), 'a');
  const child = spawn(process.execPath, ['--enable-source-maps', 'apps/server/dist/server.js'], {
    cwd: root,
    detached: true,
    stdio: ['ignore', out, out],
    env: { ...process.env, ...env, PORT: String(port) },
  });
  servers.set(name, child);
  return child;
}

/** The last lines of each named log under `dir`, printed after an aborted rehearsal. */
export function printLogTails(dir, names, lines = 25) {
  for (const name of names) {
    const file = join(dir, `${name}.log`);
    if (existsSync(file))
      console.log(
        `--- ${name}.log (tail)\n${readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n')}`,
      );
  }
}

/**
 * What the servers logged as failing (errors, and warnings of a failed sweep or job), one line each
 * with its cause: a rehearsal whose calls all answered may still hide a background failure.
 */
export function loggedFailures(dir, names) {
  const found = [];
  for (const name of names) {
    const file = join(dir, `${name}.log`);
    if (!existsSync(file)) continue;
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (!line.startsWith('{')) continue;
      let entry;
      try {
        entry = JSON.parse(line);
      } catch {
        continue;
      }
      if (entry.level >= 50 || (entry.level >= 40 && /failed/.test(entry.msg ?? '')))
        found.push(`${name}: ${entry.msg} ${(entry.err?.message ?? '').split('\n').at(-1).slice(0, 200)}`);
    }
  }
  return found;
}

/**
 * A rehearsal's log and its checks: each line stamped with the seconds since it began (`t0`), each check
 * logged as ok or FAIL and a failed one kept in `failures` for the closing summary.
 */
export function reporter(label) {
  const t0 = Date.now();
  const since = () => `${((Date.now() - t0) / 1000).toFixed(1)}s`;
  const log = (...args) => console.log(`[${label} ${since()}]`, ...args);
  const failures = [];
  function check(ok, what, detail = '') {
    log(`${ok ? 'ok  ' : 'FAIL'}  ${what}${detail ? ` (${detail})` : ''}`);
    if (!ok) failures.push(`${what}${detail ? `: ${detail}` : ''}`);
    return ok;
  }
  return { log, check, failures, since, t0 };
}

/** A command run as the `postgres` user (the clusters' owner). */
export const asPostgres = (cmd, args, opts) => run('runuser', ['-u', 'postgres', '--', cmd, ...args], opts);

/** psql's flags for one value, or rows of `|`-separated values, from a loopback port. */
export const psqlFlags = (port) => [
  '-X',
  '-A',
  '-t',
  '-q',
  '-v',
  'ON_ERROR_STOP=1',
  '-h',
  '127.0.0.1',
  '-p',
  String(port),
];
