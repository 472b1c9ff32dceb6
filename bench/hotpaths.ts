/**
 * The calls every signed-in page makes, over HTTP against the real app, next to the floor they are
 * measured against in the same run with the same client: a bare Fastify route on the same pool making
 * one `select 1` (`route + select 1`).
 * - `waitNum poll`: the waiting counts the web polls every 10 s (apps/web/src/context/wait-counts.ts), as
 *   the staff administrator (who may review both lines, so both are counted);
 * - `menu fetch`: the administrator's menu (every page and button);
 * - `order list, first page`: a signed-in customer's first page with its status tabs, in a tenant of
 *   1,000,000 orders (PostgreSQL; a smaller tenant on PGlite), half of them the customer's.
 */

import type { AddressInfo } from 'node:net';
import type { Shipment } from '@freight/contracts/truck-shipment';
import { sql } from 'drizzle-orm';
import { buildApp } from '../apps/server/src/app.ts';
import { testConfig } from '../apps/server/src/config.ts';
import type { Database } from '../apps/server/src/db/client.ts';
import { seedTenant } from '../apps/server/src/db/seed.ts';
import { findUserByEmail } from '../apps/server/src/modules/auth/service.ts';
import { findOrganisation } from '../apps/server/src/modules/customers/service.ts';
import { chooseResult } from '../apps/server/src/modules/truck-orders/batch.ts';
import { bookAtCarrier, recordOrder } from '../apps/server/src/modules/truck-orders/service.ts';
import { seedDemoTariffs } from '../apps/server/src/modules/truck-products/service.ts';
import { truckPricer } from '../apps/server/src/modules/truck-quotes/service.ts';
import { routeSelectOne, rps, sha256, storeSignInCode } from './http.ts';

const ORDERS = {
  postgres: Number(process.env.BENCH_ORDERS ?? 1_000_000),
  pglite: Number(process.env.BENCH_PGLITE_ORDERS ?? 100_000),
};

/** Every answer must be the envelope with code 200: a refused call is fast and would flatter the row. */
async function checked(url: string, init: RequestInit) {
  const res = await fetch(url, init);
  const body = (await res.json()) as { code: number; msg: string; data: unknown };
  if (body.code !== 200) throw new Error(`${url}: ${body.code} ${body.msg}`);
  return body.data;
}

const address = (zipcode: string, state: string, city: string) => ({
  name: 'Dock',
  address1: '1 Main St',
  address2: '',
  zipcode,
  city,
  state,
  country: 'US',
  contact: 'Pat Lee',
  dialCode: '1',
  phone: '2135550100',
  email: '',
  windowStart: '09:00',
  windowEnd: '17:00',
  addressType: 'business' as const,
  fbaCode: '',
  saveToBook: false,
});

const shipment: Shipment = {
  mode: 'LTL',
  pickup: address('90001', 'CA', 'Los Angeles'),
  delivery: address('75201', 'TX', 'Dallas'),
  quoteDate: '2026-11-23',
  deliveryDate: '',
  lines: [
    {
      sku: '',
      name: 'Parts',
      quantity: 10,
      unit: 'pcs',
      palletCount: 2,
      palletType: 'pallet',
      goodsValue: '0',
      length: 48,
      width: 40,
      height: 48,
      totalWeight: 800,
      nmfc: '',
      stackable: true,
      dangerous: null,
      freightClass: '70',
    },
  ],
  accessorials: [],
  insurance: { included: false, insuredValue: '0' },
};

/**
 * The tenant's orders: one booked as the product books it, then copied in SQL with its shipment, quote
 * and price levels, spread over the statuses and the last year, every other one the customer's.
 */
async function generateOrders(
  kind: string,
  database: Database,
  tenantId: number,
  customer: { id: number; organisationId: number },
  other: { id: number; organisationId: number },
  count: number,
) {
  const db = database.db;
  const [have] = (
    (await db.execute(
      sql`select count(*)::int as n from truck_orders where tenant_id = ${tenantId}`,
    )) as unknown as {
      rows: { n: number }[];
    }
  ).rows;
  if ((have?.n ?? 0) >= count) return;
  const organisation = await findOrganisation(db, tenantId, customer.organisationId);
  if (!organisation) throw new Error('the demo customer has no organisation');
  // The demo tariffs (a no-op when the tenant has products) price the model order.
  await seedDemoTariffs(db, tenantId);
  const chosen = chooseResult(await truckPricer(db, tenantId, organisation).priceAll(shipment), '');
  if ('reason' in chosen)
    throw new Error(`the demo tariffs did not price the bench shipment: ${chosen.reason}`);
  const modelInput = {
    tenantId,
    organisationId: organisation.id,
    userId: customer.id,
    quoteId: null,
    taskId: null,
    shipment,
    result: chosen,
    customerOrderNo: 'PO-MODEL',
    orderType: 'regular',
    shippingNote: '',
    receivingNote: '',
    extraNote: '',
  } as const;
  const model = await recordOrder(db, modelInput, await bookAtCarrier(db, modelInput));
  const started = performance.now();
  await db.execute(sql`
    insert into truck_orders (tenant_id, order_no, query_code, organisation_id, user_id, product_id, carrier, mode,
      status, shipment, quote, levels, total_cents, freight_cents, fuel_cents, surcharge_cents, premium_cents,
      cost_price_cents, branch_price_cents, agent_price_cents, origin, destination, transit_days_min,
      transit_days_max, pickup_code, delivery_code, customer_order_no, created_at)
    select m.tenant_id, 'B' || g, 'Q' || g,
      case when g % 2 = 0 then ${customer.organisationId}::bigint else ${other.organisationId}::bigint end,
      case when g % 2 = 0 then ${customer.id}::bigint else ${other.id}::bigint end,
      m.product_id, m.carrier, m.mode,
      (array['unpaid','pending_review','to_be_picked_up','picked_up','in_transit','delivered','cancelled',
        'delivered','delivered','delivered'])[1 + g % 10],
      m.shipment, m.quote, m.levels, m.total_cents, m.freight_cents, m.fuel_cents, m.surcharge_cents,
      m.premium_cents, m.cost_price_cents, m.branch_price_cents, m.agent_price_cents, m.origin, m.destination,
      m.transit_days_min, m.transit_days_max, m.pickup_code, m.delivery_code, 'PO-B' || g,
      now() - ((g * 31) || ' seconds')::interval
    from truck_orders m, generate_series(1, ${count - 1}) as g
    where m.tenant_id = ${tenantId} and m.id = ${model.id}`);
  // A live table is vacuumed by autovacuum; measure that steady state, not a just-loaded heap.
  await db.execute(sql`vacuum analyze truck_orders`);
  // Nor while the database writes the generated rows out to disk behind the calls being measured.
  if (kind === 'postgres') await db.execute(sql`checkpoint`);
  console.log(
    `${kind.padEnd(9)} order list tenant: ${count} orders generated in ${((performance.now() - started) / 1000).toFixed(1)} s, ${Math.ceil(count / 2)} of them the signed-in customer's`,
  );
}

export async function benchHotPaths(kind: 'pglite' | 'postgres', database: Database): Promise<void> {
  const db = database.db;
  const { tenant } = await seedTenant(db, { code: 'default', name: 'Bench' });
  const customer = await findUserByEmail(db, tenant.id, 'customer@example.com');
  const direct = await findUserByEmail(db, tenant.id, 'direct@example.com');
  if (!customer?.organisationId || !direct?.organisationId) throw new Error('the demo customers are missing');
  const orders = ORDERS[kind];
  await generateOrders(
    kind,
    database,
    tenant.id,
    { id: customer.id, organisationId: customer.organisationId },
    { id: direct.id, organisationId: direct.organisationId },
    orders,
  );

  // The production setting: an answer off its schema is logged, not refused.
  const app = await buildApp({
    config: testConfig({ RESPONSE_CHECK: 'log' }),
    database,
    mailer: null,
    serveWeb: false,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const signIn = async (email: string) => {
    const code = '424242';
    await storeSignInCode(db, tenant.id, email, code);
    const data = (await checked(`${base}/api/admin/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: sha256('Demo@123456'), code }),
    })) as { token: string };
    // As a browser asks: it takes brotli and gzip.
    return {
      accesstoken: data.token,
      'content-type': 'application/json',
      'accept-encoding': 'gzip, deflate, br',
    };
  };
  const admin = await signIn('admin@example.com');
  const shipper = await signIn('customer@example.com');
  const firstPage = JSON.stringify({ page: 1, limit: 20 });
  // Each call answers what it should before it is timed.
  const counts = (await checked(`${base}/api/admin/recharge/waitNum`, { headers: admin })) as object;
  if (!('waitNum' in counts)) throw new Error('waitNum answered without its counts');
  const menu = (await checked(`${base}/api/menu/navigate`, {
    method: 'POST',
    headers: admin,
    body: '{}',
  })) as unknown[];

  if (menu.length === 0) throw new Error('the administrator was given no menu');
  const page = (await checked(`${base}/api/admin/order/list`, {
    method: 'POST',
    headers: shipper,
    body: firstPage,
  })) as { list: unknown[]; total: number };
  if (page.list.length !== 20) throw new Error(`the first page held ${page.list.length} orders`);

  const floor = await routeSelectOne(database);
  const waitNum = await rps(`${base}/api/admin/recharge/waitNum`, { headers: admin });
  const menuRate = await rps(`${base}/api/menu/navigate`, { method: 'POST', headers: admin, body: '{}' });
  const list = await rps(`${base}/api/admin/order/list`, {
    method: 'POST',
    headers: shipper,
    body: firstPage,
  });
  await app.close();

  const row = (name: string, value: number) =>
    console.log(
      `${kind.padEnd(9)} ${name.padEnd(34)} ${value.toFixed(0).padStart(10)} req/s   ${(value / floor).toFixed(3)} × route + select 1`,
    );
  row('route + select 1', floor);
  row('waitNum poll', waitNum);
  row('menu fetch', menuRate);
  row('order list, first page', list);
}
