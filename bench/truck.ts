/**
 * Truck benchmarks, each next to a baseline measured in the same run:
 * - quotes per second for a 3-line shipment against 20 products, next to reading the tariffs alone;
 * - batch import rows per second (check, price, book), next to a plain insert of the same rows;
 * - the order list over 1,000,000 orders of one tenant (PostgreSQL only), filtered and paginated,
 *   next to a `select 1` round trip.
 */

import { ORDER_COUNT_CAP } from '@freight/contracts/truck-orders';
import { FREIGHT_CLASSES } from '@freight/contracts/truck-rating';
import type { Shipment } from '@freight/contracts/truck-shipment';
import { and, eq, sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import type { Database } from '../apps/server/src/db/client.ts';
import { priceLevels, truckLanes, truckOrders, truckProducts } from '../apps/server/src/db/schema.ts';
import { readSheetRecords } from '../apps/server/src/lib/batch-sheet.ts';
import { insertRows } from '../apps/server/src/lib/bulk-insert.ts';
import {
  createOrganisation,
  findOrganisation,
  type OrganisationRow,
} from '../apps/server/src/modules/customers/service.ts';
import { createTenant } from '../apps/server/src/modules/site/service.ts';
import {
  BATCH_COLUMNS,
  batchRecordOptions,
  bookSheet,
} from '../apps/server/src/modules/truck-orders/batch.ts';
import { listOrders } from '../apps/server/src/modules/truck-orders/list.ts';
import { lanesByProduct } from '../apps/server/src/modules/truck-products/service.ts';
import { truckPricer } from '../apps/server/src/modules/truck-quotes/service.ts';
import { WARM_UP } from './http.ts';
import { perSecond } from './timing.ts';

const BATCH_ROWS = Number(process.env.BENCH_BATCH_ROWS ?? 10_000);
const ORDERS = Number(process.env.BENCH_ORDERS ?? 1_000_000);

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

const line = (weight: number, cls?: '70' | '100') => ({
  sku: '',
  name: 'Parts',
  quantity: 10,
  unit: 'pcs',
  palletCount: 2,
  palletType: 'pallet' as const,
  goodsValue: '0',
  length: 48,
  width: 40,
  height: 48,
  totalWeight: weight,
  nmfc: '',
  stackable: true,
  dangerous: null,
  ...(cls ? { freightClass: cls } : {}),
});

export const shipment: Shipment = {
  mode: 'LTL',
  pickup: address('90001', 'CA', 'Los Angeles'),
  delivery: address('75201', 'TX', 'Dallas'),
  quoteDate: '2026-11-23',
  deliveryDate: '',
  lines: [line(800, '70'), line(450), line(1200, '100')],
  accessorials: ['liftgate_delivery', 'appointment'],
  insurance: { included: true, insuredValue: '5000' },
};

/** Twenty LTL products of the tenant, each with a national lane and a few regional ones. */
export async function addBenchProducts(db: Database['db'], tenantId: number) {
  const breaks = [0, 500, 1_000, 2_000, 5_000, 10_000].map((minWeight) => ({ minWeight }));
  for (let p = 0; p < 20; p++) {
    const [product] = await db
      .insert(truckProducts)
      .values({
        tenantId,
        code: `P${p}`,
        name: `P${p}`,
        nameEn: `P${p}`,
        carrier: `Carrier ${p}`,
        mode: 'LTL',
        transitDaysMin: 2,
        transitDaysMax: 3 + (p % 5),
        accessorialFees: { liftgate_delivery: 7_500, appointment: 2_500 },
      })
      .returning({ id: truckProducts.id });
    // Each product has a national lane and a few regional ones, as real tariffs do.
    const lanes = ['*:*', '900-961:750-799', 'CA:TX', '100-149:*'].map((pair) => pair.split(':'));
    await db.insert(truckLanes).values(
      lanes.map(([origin, destination], i) => ({
        tenantId,
        productId: product?.id as number,
        origin: origin as string,
        destination: destination as string,
        ltl: {
          breaks,
          rates: Object.fromEntries(
            FREIGHT_CLASSES.map((c) => [
              c,
              breaks.map((_, b) => Math.round(Number(c) * (55 + p + i) * (1 - 0.1 * b))),
            ]),
          ),
          minimumCharge: 9_500,
          discountBp: 6_000 + p * 50,
          fuelBp: 2_800,
        },
      })),
    );
  }
}

async function setUp(database: Database) {
  const db = database.db;
  const tenant = await createTenant(db, { code: `bench-truck-${Date.now()}`, name: 'Bench truck' });
  const org = await createOrganisation(db, tenant.id, { type: 'customer', name: 'Bench shipper' });
  await addBenchProducts(db, tenant.id);
  const organisation = (await findOrganisation(db, tenant.id, org.id)) as OrganisationRow;
  return { tenant, organisation };
}

async function batchFile(rows: number): Promise<ExcelJS.Workbook> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Orders');
  sheet.addRow(BATCH_COLUMNS.map((c) => c.en));
  const values: Record<string, unknown> = {
    mode: 'LTL',
    pickupName: 'Acme Dock',
    pickupAddress1: '100 Main St',
    pickupZip: '90001',
    pickupCity: 'Los Angeles',
    pickupState: 'CA',
    pickupContact: 'Pat Lee',
    pickupPhone: '2135550100',
    deliveryName: 'Dallas DC',
    deliveryAddress1: '500 Commerce St',
    deliveryZip: '75201',
    deliveryCity: 'Dallas',
    deliveryState: 'TX',
    deliveryContact: 'Sam Ray',
    deliveryPhone: '2145550100',
    goodsName: 'Parts',
    quantity: 10,
    palletCount: 2,
    length: 48,
    width: 40,
    height: 48,
  };
  for (let i = 0; i < rows; i++)
    sheet.addRow(
      BATCH_COLUMNS.map((c) =>
        c.key === 'customerOrderNo'
          ? `PO-${i}`
          : c.key === 'totalWeight'
            ? // Nearly every row its own shipment, as a shipper's file is: a file of repeats would be
              // priced once per distinct shipment and flatter the row.
              300 + (i % 3_000)
            : c.key === 'palletCount'
              ? 1 + (i % 3)
              : (values[c.key] ?? ''),
      ),
    );
  // Round-trip through bytes, as an upload arrives.
  const loaded = new ExcelJS.Workbook();
  await loaded.xlsx.load((await workbook.xlsx.writeBuffer()) as ArrayBuffer);
  return loaded;
}

/** Runs the truck benchmarks; answers the tariff read rate, the baseline express rates are set beside. */
export async function benchTruck(kind: string, database: Database): Promise<number> {
  const db = database.db;
  const { tenant, organisation } = await setUp(database);
  const row = (name: string, value: number, unit: string, baseline: number, baselineName: string) =>
    console.log(
      `${kind.padEnd(9)} ${name.padEnd(34)} ${value.toFixed(1).padStart(10)} ${unit.padEnd(7)} ${(value / baseline).toFixed(3)} × ${baselineName}`,
    );

  // Quotes: the whole of pricing (tariffs and markups read, 20 products rated) against the read alone.
  // The tables a quote reads, read from the database each time (what every quote did before the
  // tenant's tariffs and markups were held in memory).
  const readOnly = await perSecond(async () => {
    const products = await db
      .select()
      .from(truckProducts)
      .where(
        and(
          eq(truckProducts.tenantId, tenant.id),
          eq(truckProducts.enabled, true),
          eq(truckProducts.mode, shipment.mode),
        ),
      )
      .orderBy(truckProducts.id);
    await Promise.all([
      lanesByProduct(
        db,
        tenant.id,
        products.map((p) => p.id),
      ),
      findOrganisation(db, tenant.id, organisation.id),
      db
        .select()
        .from(priceLevels)
        .where(and(eq(priceLevels.tenantId, tenant.id), eq(priceLevels.line, 'truck'))),
    ]);
  });
  const quotes = await perSecond(async () => {
    const results = await truckPricer(db, tenant.id, organisation).priceAll(shipment);
    if (!results.some((r) => r.ok)) throw new Error('bench shipment was not priced');
  });
  row('tariff read (20 products)', readOnly, '/s', readOnly, 'tariff read');
  row('quote, 3 lines × 20 products', quotes, '/s', readOnly, 'tariff read');

  // Batch import: the product's own path from the read file on (check every row against the data
  // loaded once for the file, price, book all in one transaction), against inserting the same rows.
  const workbook = await batchFile(BATCH_ROWS);
  const customer = {
    id: 1,
    tenantId: tenant.id,
    identity: 'customer' as const,
    organisationId: organisation.id,
  };
  const importFile = async (file: ExcelJS.Workbook, rows: number) => {
    const outcome = await bookSheet(db, {
      caller: customer,
      language: 'en-US',
      organisation: organisation as OrganisationRow,
      pickup: null,
      sheet: readSheetRecords(file, BATCH_COLUMNS, batchRecordOptions('en-US', null)),
      commit: true,
    });
    if (outcome.ok !== rows) throw new Error(`bench batch booked ${outcome.ok} of ${rows} rows`);
  };
  // The steady state, as for the HTTP rows: a first, smaller file compiles the path before the timed one.
  if (WARM_UP > 0) await importFile(await batchFile(1_000), 1_000);
  const started = performance.now();
  await importFile(workbook, BATCH_ROWS);
  const importRate = BATCH_ROWS / ((performance.now() - started) / 1000);
  // The baseline writes the very rows the import wrote, the way the import writes them (one statement
  // per 1,000 rows, into the same table with its indexes and count triggers), with nothing else.
  const written = await db
    .select()
    .from(truckOrders)
    .where(sql`${truckOrders.tenantId} = ${tenant.id}`)
    .limit(BATCH_ROWS);
  const copies = written.map(({ id: _id, ...o }) => ({ ...o, orderNo: `X${o.orderNo}` }));
  const plainStarted = performance.now();
  await db.transaction((tx) => insertRows(tx, truckOrders, copies));
  const plainRate = copies.length / ((performance.now() - plainStarted) / 1000);
  row('plain insert', plainRate, 'rows/s', plainRate, 'plain insert');
  row('batch import', importRate, 'rows/s', plainRate, 'plain insert');
  console.log(`${kind.padEnd(9)}   (${BATCH_ROWS} rows: check, price, book and write, one transaction)`);

  if (kind !== 'postgres') return readOnly;
  // The order list over a big tenant: generated in SQL, then queried as the list page does.
  const have = written.length + copies.length;
  if (ORDERS > have) {
    const generated = performance.now();
    await db.execute(sql`
      insert into truck_orders (tenant_id, order_no, query_code, organisation_id, user_id, carrier, mode, status,
        shipment, quote, levels, total_cents, origin, destination, transit_days_min, transit_days_max,
        pickup_code, delivery_code, customer_order_no, created_at)
      select ${tenant.id}, 'G' || g, 'Q' || g, ${organisation.id}, 1, 'Carrier ' || (g % 20), 'LTL',
        (array['unpaid','pending_review','to_be_picked_up','picked_up','in_transit','delivered','cancelled'])[1 + g % 7],
        '{}'::jsonb, '{}'::jsonb, '[]'::jsonb, 10000 + g % 50000, 'Los Angeles, CA 90001', 'Dallas, TX 75201', 2, 5,
        '000000', '000000', 'PO-G' || g, now() - (g || ' seconds')::interval
      from generate_series(1, ${ORDERS - have}) as g`);
    // A live table is vacuumed by autovacuum; measure that steady state, not a just-loaded heap.
    await db.execute(sql`vacuum analyze truck_orders`);
    console.log(
      `${kind.padEnd(9)} generated ${ORDERS - have} orders in ${((performance.now() - generated) / 1000).toFixed(1)} s`,
    );
  }
  const caller = { id: 1, tenantId: tenant.id, identity: 'employee' as const, organisationId: null };
  const ping = await perSecond(() => db.execute(sql`select 1`));
  const firstPage = await perSecond(() => listOrders(db, caller, { page: 1, limit: 20 }));
  const filtered = await perSecond(() =>
    listOrders(db, caller, { page: 1, limit: 20, status: 'in_transit' }),
  );
  const deep = await perSecond(() => listOrders(db, caller, { page: 500, limit: 20, status: 'delivered' }));
  const keyword = await perSecond(() => listOrders(db, caller, { page: 1, limit: 20, keyword: 'PO-G99999' }));
  const ms = (rate: number) => `${(1000 / rate).toFixed(1)} ms`;
  console.log(
    `${kind.padEnd(9)} order list over ${ORDERS} orders (ms per call, counts exact up to ${ORDER_COUNT_CAP}):`,
  );
  row(`  select 1 (${ms(ping)})`, ping, '/s', ping, 'select 1');
  row(`  first page (${ms(firstPage)})`, firstPage, '/s', ping, 'select 1');
  row(`  status filter (${ms(filtered)})`, filtered, '/s', ping, 'select 1');
  row(`  status, page 500 (${ms(deep)})`, deep, '/s', ping, 'select 1');
  row(`  keyword search (${ms(keyword)})`, keyword, '/s', ping, 'select 1');
  return readOnly;
}
