/**
 * A truck quote over HTTP, as a signed-in customer's quote form asks for it: `quotation/rates` for a
 * 3-line shipment against 20 products (tariffs, markups, rating of every product, the results stored
 * on the quote and streamed back), next to `route + select 1`, a bare Fastify route making one
 * `select 1` on the same pool, both measured here at the same concurrency. Two rows: the same quotes
 * priced again and again (as a requote is: the prices already worked out serve, and only the expiry
 * is written), and quotes whose shipment no call has priced before (pricing, 33 KB stored, in full).
 */

import type { AddressInfo } from 'node:net';
import { and, eq, sql } from 'drizzle-orm';
import { buildApp } from '../apps/server/src/app.ts';
import { testConfig } from '../apps/server/src/config.ts';
import type { Database } from '../apps/server/src/db/client.ts';
import { truckProducts, truckQuotes } from '../apps/server/src/db/schema.ts';
import { DEMO_PASSWORD, seedTenant } from '../apps/server/src/db/seed.ts';
import { CONNECTIONS, routeSelectOne, rps, sha256, storeSignInCode } from './http.ts';
import { addBenchProducts, shipment } from './truck.ts';

/** Quotes the calls go round. */
const QUOTES = 50;
/** Quotes of a shipment each, more than the new-shipment row gets through: none is priced twice. */
const NEW_SHIPMENTS = 12_000;

export async function benchQuoteHttp(kind: string, database: Database) {
  const db = database.db;
  const host = `benchq${process.pid}.test`;
  const domain = `benchq${process.pid}.example.com`;
  const { tenant } = await seedTenant(db, {
    code: host.replace(/\./g, '-'),
    name: 'Bench quotes',
    emailDomain: domain,
  });
  // Exactly the bench's 20 products: the demo tariffs are switched off.
  await db.update(truckProducts).set({ enabled: false }).where(eq(truckProducts.tenantId, tenant.id));
  await addBenchProducts(db, tenant.id);

  const app = await buildApp({
    config: testConfig(process.env.BENCH_LOG ? { LOG_LEVEL: 'error' } : {}),
    database,
    mailer: null,
    serveWeb: false,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const email = `customer@${domain}`;
  const code = '246810';
  await storeSignInCode(db, tenant.id, email, code);
  // Set-up calls go in-process (fetch would not send the tenant's host); the measured ones over HTTP.
  const post = async (path: string, body: unknown, token?: string) =>
    app.inject({
      method: 'POST',
      url: path,
      headers: { host, 'content-type': 'application/json', ...(token ? { accesstoken: token } : {}) },
      payload: JSON.stringify(body),
    });
  const login = (
    await post('/api/admin/auth/login', { email, password: sha256(DEMO_PASSWORD), code })
  ).json() as { data: { token: string } | null };
  if (!login.data?.token) throw new Error(`bench sign-in failed: ${JSON.stringify(login)}`);
  const token = login.data.token;
  const ids: number[] = [];
  for (let i = 0; i < QUOTES; i++) {
    const saved = (await post('/api/admin/quotation/save', shipment, token)).json() as {
      data: { id: number };
    };
    ids.push(saved.data.id);
  }
  // The stream's last line carries every result: the bench shipment must price with all 20.
  const first = (await post('/api/admin/quotation/rates', { id: ids[0] }, token)).body
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line))
    .at(-1);
  const priced = (first?.results ?? []).filter((r: { ok: boolean }) => r.ok).length;
  if (priced !== 20) throw new Error(`bench quote priced ${priced} of 20 products`);

  // Requests built once, each connection going round the quotes in turn: a request made again for
  // every call (`setupRequest`) cost the client, which shares this process, a tenth of the row.
  // Connections on one quote at once queue for its row for the length of a one-row update.
  const quotes = await rps(`${base}/api/admin/quotation/rates`, {
    method: 'POST',
    headers: { host, accesstoken: token, 'content-type': 'application/json' },
    requests: ids.map((id) => ({ body: JSON.stringify({ id }) })),
  });
  // Each shipment weighs a pound more than the last: every call prices one no call has priced.
  const [owner] = await db
    .select({ organisationId: truckQuotes.organisationId, userId: truckQuotes.userId })
    .from(truckQuotes)
    .where(and(eq(truckQuotes.tenantId, tenant.id), eq(truckQuotes.id, ids[0] as number)));
  if (!owner) throw new Error('the bench lost its quotes');
  const fresh: number[] = [];
  for (let from = 0; from < NEW_SHIPMENTS; from += 1_000) {
    const rows = await db
      .insert(truckQuotes)
      .values(
        Array.from({ length: 1_000 }, (_, i) => ({
          tenantId: tenant.id,
          quoteNo: `BENCH-${from + i}`,
          ...owner,
          shipment: {
            ...shipment,
            lines: shipment.lines.map((l, n) =>
              n === 0 ? { ...l, totalWeight: l.totalWeight + from + i } : l,
            ),
          },
        })),
      )
      .returning({ id: truckQuotes.id });
    fresh.push(...rows.map((r) => r.id));
  }
  let nextNew = 0;
  const newQuotes = await rps(`${base}/api/admin/quotation/rates`, {
    method: 'POST',
    headers: { host, accesstoken: token, 'content-type': 'application/json' },
    requests: [
      {
        setupRequest: (request) => {
          if (nextNew >= fresh.length) throw new Error('the bench ran out of new shipments');
          return { ...request, body: JSON.stringify({ id: fresh[nextNew++] }) };
        },
      },
    ],
  });
  const pricedQuotes = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(truckQuotes)
    .where(and(eq(truckQuotes.tenantId, tenant.id), sql`${truckQuotes.resultsDigest} is not null`));
  if ((pricedQuotes[0]?.n ?? 0) < QUOTES + nextNew - 2 * CONNECTIONS)
    throw new Error(`the new-shipment calls stored ${pricedQuotes[0]?.n} prices for ${nextNew} calls`);
  await app.close();
  const baseline = await routeSelectOne(database);
  const stored = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(truckProducts)
    .where(and(eq(truckProducts.tenantId, tenant.id), eq(truckProducts.enabled, true)));
  if (stored[0]?.n !== 20) throw new Error('bench tenant lost its products');

  const row = (name: string, value: number) =>
    console.log(
      `${kind.padEnd(9)} ${name.padEnd(34)} ${value.toFixed(0).padStart(8)} req/s   ${(value / baseline).toFixed(3)} × route + select 1`,
    );
  // The `route + select 1` row itself is printed once, by the hot paths (bench/hotpaths.ts); this
  // ratio uses the same route measured again right after the quotes, under the same load.
  row('quote, 3 lines × 20 products', quotes);
  row('quote, new shipment each call', newQuotes);
}
