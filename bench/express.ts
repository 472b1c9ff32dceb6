/**
 * Express benchmarks, each next to a baseline measured in the same run:
 * - rates per second for 3 parcels over 20 channels (zone charts, price tables, surcharges, markups
 *   down the tree), next to reading those tables alone and next to the truck tariff read;
 * - batch import rows per second (read, check, price over the 20 channels, book quotes and waybills in
 *   one transaction) for a file whose every row is its own shipment, next to writing the same waybills
 *   with the import's own writer and nothing else.
 */

import type { ExpressShipmentInput } from '@freight/contracts/express-quotes';
import type { PriceTable, ZoneRow } from '@freight/contracts/express-rating';
import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import type { Database } from '../apps/server/src/db/client.ts';
import {
  expressAddresses,
  expressChannels,
  expressProducts,
  expressWaybills,
  expressZoneRows,
} from '../apps/server/src/db/schema.ts';
import { insertRows } from '../apps/server/src/lib/bulk-insert.ts';
import { markupChains, savePriceLevel } from '../apps/server/src/modules/customers/price-levels.ts';
import { createOrganisation, findOrganisation } from '../apps/server/src/modules/customers/service.ts';
import {
  channelsForOrganisation,
  zoneChartsOf,
} from '../apps/server/src/modules/express-channels/service.ts';
import { expressPricer } from '../apps/server/src/modules/express-quotes/service.ts';
import {
  bookExpressBatch,
  EXPRESS_BATCH_COLUMNS,
} from '../apps/server/src/modules/express-waybills/batch.ts';
import { createTenant } from '../apps/server/src/modules/site/service.ts';
import { perSecond } from './timing.ts';

const CHANNELS = 20;
const BATCH_ROWS = Number(process.env.BENCH_BATCH_ROWS ?? 10_000);
const ZONES = ['2', '3', '4', '5', '6', '7', '8'];

/** A national chart: origin ZIP3 bands to destination bands, 40 rows, as carriers publish them. */
function chart(channel: number): ZoneRow[] {
  const rows: ZoneRow[] = [];
  for (let o = 0; o < 5; o++)
    for (let d = 0; d < 8; d++)
      rows.push({
        originFrom: String(o * 200).padStart(3, '0'),
        originTo: String(o * 200 + 199).padStart(3, '0'),
        destFrom: String(d * 125).padStart(3, '0'),
        destTo: String(d * 125 + 124).padStart(3, '0'),
        country: '',
        zone: ZONES[(o + d + channel) % ZONES.length] as string,
      });
  return rows;
}

/** 150 one-pound brackets per zone and an additional pound past them. */
function prices(channel: number): PriceTable {
  return {
    zones: ZONES,
    brackets: Array.from({ length: 150 }, (_, w) => ({
      weight: w + 1,
      prices: ZONES.map((_, z) => 800 + channel * 10 + z * 90 + w * (60 + z * 12)),
    })),
    additional: { unit: 1, prices: ZONES.map((_, z) => 70 + z * 12) },
    minimums: ZONES.map(() => 800),
  };
}

const address = (city: string, state: string, zipcode: string) => ({
  name: 'Pat Lee',
  company: '',
  address1: '100 Main St',
  address2: '',
  city,
  state,
  zipcode,
  country: 'US',
  dialCode: '1',
  phone: '2135550100',
  email: '',
  residential: true,
});

const shipment: ExpressShipmentInput = {
  sender: address('Los Angeles', 'CA', '90001'),
  recipient: address('Dallas', 'TX', '75201'),
  unitSystem: 'lb_in',
  parcels: [
    {
      quantity: 1,
      length: 12,
      width: 10,
      height: 8,
      weight: 6,
      declaredValue: '0',
      description: '',
      packaging: 'box',
    },
    {
      quantity: 2,
      length: 20,
      width: 16,
      height: 12,
      weight: 18,
      declaredValue: '300.00',
      description: '',
      packaging: 'box',
    },
    {
      quantity: 1,
      length: 50,
      width: 14,
      height: 10,
      weight: 40,
      declaredValue: '0',
      description: '',
      packaging: 'box',
    },
  ],
  signature: true,
  reference: '',
  shipDate: '',
};

async function setUp(database: Database) {
  const db = database.db;
  const tenant = await createTenant(db, { code: `bench-express-${Date.now()}`, name: 'Bench express' });
  const agent = await createOrganisation(db, tenant.id, { type: 'agent', name: 'Bench agent' });
  const org = await createOrganisation(db, tenant.id, {
    type: 'customer',
    name: 'Bench shipper',
    parentId: agent.id,
  });
  for (const [organisationId, markupPercentBp] of [
    [agent.id, 800],
    [org.id, 1_000],
  ] as const)
    await savePriceLevel(db, {
      tenantId: tenant.id,
      organisationId,
      line: 'express',
      productKey: '',
      markupPercentBp,
      markupFixedCents: 0n,
      updatedBy: 0,
    });
  const [product] = await db
    .insert(expressProducts)
    .values({ tenantId: tenant.id, code: 'GROUND', name: 'Ground', nameEn: 'Ground' })
    .returning({ id: expressProducts.id });
  for (let c = 0; c < CHANNELS; c++) {
    const [channel] = await db
      .insert(expressChannels)
      .values({
        tenantId: tenant.id,
        productId: product?.id as number,
        code: `CH${c}`,
        name: `CH${c}`,
        nameEn: `CH${c}`,
        carrier: `Carrier ${c}`,
        service: 'Ground',
        scope: 'domestic',
        unitSystem: 'lb_in',
        dimDivisor: 139 + c,
        transitDaysMin: 1 + (c % 3),
        transitDaysMax: 3 + (c % 5),
        maxWeight: 150,
        maxLength: 108,
        maxLengthGirth: 165,
        surcharges: {
          fuelBp: 1_200 + c * 10,
          residential: 450,
          signature: 600,
          deliveryAreas: [
            { name: 'DAS', fee: 395, zips: Array.from({ length: 2_000 }, (_, i) => String(10_000 + i * 7)) },
          ],
          additionalHandling: { fee: 1_800, longest: 48, secondLongest: 30, weight: 50 },
          largePackage: { fee: 9_500, longest: 96, lengthGirth: 130, minBillable: 90 },
          declaredValue: { freeCents: 10_000, per100: 100, minimum: 300 },
        },
        priceTable: prices(c),
      })
      .returning({ id: expressChannels.id });
    await db
      .insert(expressZoneRows)
      .values(chart(c).map((row) => ({ tenantId: tenant.id, channelId: channel?.id as number, ...row })));
  }
  const organisation = (await findOrganisation(db, tenant.id, org.id)) as { id: number; path: string };
  const [dock] = await db
    .insert(expressAddresses)
    .values({
      tenantId: tenant.id,
      organisationId: org.id,
      kind: 'sender',
      name: 'Pat Lee',
      company: 'Bench Dock',
      address1: '100 Main St',
      zipcode: '90001',
      city: 'Los Angeles',
      state: 'CA',
      phone: '2135550100',
    })
    .returning({ id: expressAddresses.id });
  return { tenant, organisation, dockId: dock?.id as number };
}

/** Where a shipper's parcels go: one city in each of the zone chart's destination bands. */
const DESTINATIONS = [
  ['Boston', 'MA', '02108'],
  ['New York', 'NY', '10001'],
  ['Atlanta', 'GA', '30301'],
  ['Chicago', 'IL', '60601'],
  ['Dallas', 'TX', '75201'],
  ['Denver', 'CO', '80202'],
  ['San Francisco', 'CA', '94105'],
  ['Seattle', 'WA', '98101'],
] as const;

/**
 * A batch file of `rows` waybills as a shipper's file is: nearly every row its own shipment (eight
 * destinations across the zones, weights in tenths of a pound up to 150 lb, three carton sizes), so
 * that pricing each shipment once for the file does not flatter the import.
 */
async function batchFile(rows: number): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Waybills');
  sheet.addRow(EXPRESS_BATCH_COLUMNS.map((c) => c.en));
  for (let i = 0; i < rows; i++) {
    const [city, state, zip] = DESTINATIONS[i % DESTINATIONS.length] as (typeof DESTINATIONS)[number];
    const size = Math.floor(i / DESTINATIONS.length) % 3;
    const values: Record<string, unknown> = {
      reference: `PO-${i}`,
      recipientName: 'Sam Ray',
      recipientAddress1: '500 Commerce St',
      recipientCity: city,
      recipientState: state,
      recipientZip: zip,
      recipientCountry: 'US',
      recipientPhone: '2145550100',
      quantity: 1,
      length: 12 + size * 4,
      width: 10 + size * 2,
      height: 8 + size,
      weight: 1 + (Math.floor(i / (DESTINATIONS.length * 3)) % 1_490) / 10,
    };
    sheet.addRow(EXPRESS_BATCH_COLUMNS.map((c) => values[c.key] ?? ''));
  }
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** Express rates next to reading their tables alone, and next to the truck quote's baseline. */
export async function benchExpress(kind: string, database: Database, truckTariffRead: number) {
  const db = database.db;
  const { tenant, organisation, dockId } = await setUp(database);
  const pathIds = organisation.path.split('/').filter(Boolean).map(Number);
  const row = (name: string, value: number, baseline: number, baselineName: string) =>
    console.log(
      `${kind.padEnd(9)} ${name.padEnd(34)} ${value.toFixed(1).padStart(10)} /s      ${(value / baseline).toFixed(3)} × ${baselineName}`,
    );
  // The tables rates read, from the database each time: in a transaction, which the tenant's pricing
  // caches never serve (what every rate did before they were held in memory).
  const readOnly = await perSecond(() =>
    db.transaction(async (tx) => {
      const channels = await channelsForOrganisation(tx, tenant.id, pathIds);
      await zoneChartsOf(
        tx,
        tenant.id,
        channels.map((c) => c.id),
      );
      await markupChains(
        tx,
        tenant.id,
        organisation.id,
        'express',
        channels.map((c) => c.code),
      );
    }),
  );
  const rates = await perSecond(async () => {
    const results = await expressPricer(db, tenant.id, organisation).priceAll(shipment);
    if (results.filter((r) => r.ok).length !== CHANNELS) throw new Error('bench parcels were not priced');
  });
  row(`express table read (${CHANNELS} ch.)`, readOnly, readOnly, 'express table read');
  row(`rates, 3 parcels × ${CHANNELS} channels`, rates, readOnly, 'express table read');
  row(`rates, 3 parcels × ${CHANNELS} channels`, rates, truckTariffRead, 'truck tariff read');

  // Batch import: read, check, price and book N rows in one transaction, against inserting the same rows.
  const bytes = await batchFile(BATCH_ROWS);
  const caller = {
    id: 1,
    tenantId: tenant.id,
    identity: 'customer' as const,
    organisationId: organisation.id,
  };
  const started = performance.now();
  const outcome = await bookExpressBatch(db, {
    caller,
    language: 'en-US',
    addressId: dockId,
    bytes,
    commit: true,
  });
  if (outcome.ok !== BATCH_ROWS) throw new Error(`bench batch booked ${outcome.ok} of ${BATCH_ROWS} rows`);
  const importRate = BATCH_ROWS / ((performance.now() - started) / 1000);
  // The baseline writes the very waybills the import wrote, with nothing else.
  const written = await db
    .select()
    .from(expressWaybills)
    .where(sql`${expressWaybills.tenantId} = ${tenant.id}`)
    .limit(BATCH_ROWS);
  const copies = written.map(({ id: _id, ...w }) => ({
    ...w,
    waybillNo: `X${w.waybillNo}`,
    trackingNo: `X${w.trackingNo}`,
    quoteId: null,
  }));
  // The import's own writer (one JSON parameter per 1,000 rows), so the ratio measures what reading,
  // checking, pricing, numbering, the quotes and the timeline add, not a difference in how rows travel.
  const plainStarted = performance.now();
  await db.transaction((tx) => insertRows(tx, expressWaybills, copies));
  const plainRate = copies.length / ((performance.now() - plainStarted) / 1000);
  const rowsRow = (name: string, value: number) =>
    console.log(
      `${kind.padEnd(9)} ${name.padEnd(34)} ${value.toFixed(1).padStart(10)} rows/s  ${(value / plainRate).toFixed(3)} × plain insert`,
    );
  rowsRow(`express plain insert (${copies.length})`, plainRate);
  rowsRow(`express batch import (${BATCH_ROWS})`, importRate);
}
