import { parseMoney } from '@freight/contracts/money';
import type { QuoteProduct } from '@freight/contracts/truck-quotes';
import {
  FREIGHT_CLASSES,
  type RatingInput,
  type RatingResult,
  type RatingTariff,
  rateShipment,
} from '@freight/contracts/truck-rating';
import { impliedAccessorials, ratingLine, type Shipment } from '@freight/contracts/truck-shipment';
import { and, eq, inArray } from 'drizzle-orm';
import type { Generations } from '../../db/cache-generations.ts';
import type { DbOrTx } from '../../db/client.ts';
import { zipcodes } from '../../lib/lazy-packages.ts';
import { tenantCache } from '../../lib/tenant-cache.ts';
import { type LaneFtl, truckLanes, truckProducts } from './schema.ts';

export type ProductRow = typeof truckProducts.$inferSelect;
export type LaneRow = typeof truckLanes.$inferSelect;

/* ---------- lane ends ---------- */

/** A lane end: a ZIP3 range, a state, or anywhere. */
export type LaneEnd =
  | { kind: 'zip3'; from: number; to: number }
  | { kind: 'state'; state: string }
  | { kind: 'any' };

/** Reads `900-935`, `900`, `CA` or `*`; null for anything else. */
export function parseLaneEnd(text: string): LaneEnd | null {
  const value = text.trim().toUpperCase();
  if (value === '*') return { kind: 'any' };
  if (/^[A-Z]{2}$/.test(value)) return { kind: 'state', state: value };
  const range = /^(\d{3})(?:\s*-\s*(\d{3}))?$/.exec(value);
  if (!range) return null;
  const from = Number(range[1]);
  const to = Number(range[2] ?? range[1]);
  return from <= to ? { kind: 'zip3', from, to } : null;
}

/** How many ZIP3 areas an end covers: a state counts as wider than any range, anywhere wider still. */
function endWidth(end: LaneEnd): number {
  if (end.kind === 'zip3') return end.to - end.from + 1;
  return end.kind === 'state' ? 1_000 : 100_000;
}

function endMatches(end: LaneEnd, zipcode: string, state: string): boolean {
  if (end.kind === 'any') return true;
  if (end.kind === 'state') return end.state === state.toUpperCase();
  const zip3 = Number(zipcode.slice(0, 3));
  return zip3 >= end.from && zip3 <= end.to;
}

/** Each lane's ends, read once: lanes are held in memory across quotes (`tenantTariffs`). */
const laneEnds = new WeakMap<LaneRow, { origin: LaneEnd | null; destination: LaneEnd | null }>();
function endsOf(lane: LaneRow) {
  let ends = laneEnds.get(lane);
  if (!ends) {
    ends = { origin: parseLaneEnd(lane.origin), destination: parseLaneEnd(lane.destination) };
    laneEnds.set(lane, ends);
  }
  return ends;
}

/** The narrowest lane of a product that covers both ends of the shipment. */
export function findLane(
  lanes: readonly LaneRow[],
  pickup: { zipcode: string; state: string },
  delivery: { zipcode: string; state: string },
): LaneRow | null {
  let best: { lane: LaneRow; width: number } | null = null;
  for (const lane of lanes) {
    const { origin, destination } = endsOf(lane);
    if (!origin || !destination) continue;
    if (!endMatches(origin, pickup.zipcode, pickup.state)) continue;
    if (!endMatches(destination, delivery.zipcode, delivery.state)) continue;
    const width = endWidth(origin) + endWidth(destination);
    if (!best || width < best.width || (width === best.width && lane.id < best.lane.id))
      best = { lane, width };
  }
  return best?.lane ?? null;
}

/* ---------- products a customer may use ---------- */

/**
 * Enabled products open to an organisation: a product with no organisations listed is open to all;
 * otherwise to the listed organisations and everything under them.
 */
export function productOpenTo(product: Pick<ProductRow, 'organisationIds'>, organisationPath: string | null) {
  if (product.organisationIds.length === 0) return true;
  if (!organisationPath) return false;
  const ancestors = new Set(organisationPath.split('/').filter(Boolean).map(Number));
  return product.organisationIds.some((id) => ancestors.has(id));
}

/** A tenant's enabled products (in id order) and their lanes: everything a truck quote reads. */
export interface TenantTariffs {
  products: ProductRow[];
  lanes: Map<number, LaneRow[]>;
}

/** Held per tenant until a write to its products or lanes is announced (migration 0028). */
const tariffCache = tenantCache<'all', TenantTariffs>(
  async (db, tenantId) => {
    const products = await db
      .select()
      .from(truckProducts)
      .where(and(eq(truckProducts.tenantId, tenantId), eq(truckProducts.enabled, true)))
      .orderBy(truckProducts.id);
    const lanes = await lanesByProduct(
      db,
      tenantId,
      products.map((p) => p.id),
    );
    return { products, lanes };
  },
  { generation: 'tariffs' },
);

/**
 * The tenant's tariffs, from this process's memory when held (and, given the generations a statement
 * of the caller's read, no older than they say).
 */
export const tenantTariffs = (db: DbOrTx, tenantId: number, seen?: Generations) =>
  tariffCache.get(db, tenantId, 'all', seen);

/** Drops the tariffs held for a tenant (or all): a change was announced. */
export const forgetTariffs = (tenantId?: number) => tariffCache.forget(tenantId);

export async function enabledProducts(db: DbOrTx, tenantId: number, mode: 'LTL' | 'FTL', seen?: Generations) {
  return (await tenantTariffs(db, tenantId, seen)).products.filter((p) => p.mode === mode);
}

export async function lanesOfProducts(db: DbOrTx, tenantId: number, productIds: number[]) {
  if (productIds.length === 0) return [];
  return db
    .select()
    .from(truckLanes)
    .where(and(eq(truckLanes.tenantId, tenantId), inArray(truckLanes.productId, productIds)));
}

export async function findProduct(db: DbOrTx, tenantId: number, id: number) {
  const [row] = await db
    .select()
    .from(truckProducts)
    .where(and(eq(truckProducts.tenantId, tenantId), eq(truckProducts.id, id)))
    .limit(1);
  return row ?? null;
}

/* ---------- rating from the tenant's tables ---------- */

export const productOfQuote = (p: ProductRow): QuoteProduct => ({
  productId: p.id,
  code: p.code,
  name: p.name,
  nameEn: p.nameEn,
  carrier: p.carrier,
  serviceLevel: p.serviceLevel,
  mode: p.mode,
  transitDaysMin: p.transitDaysMin,
  transitDaysMax: p.transitDaysMax,
  provider: p.provider,
});

/** The declared value to insure: the amount given, or the goods' value when none was. */
export function insuredValueOf(shipment: Shipment): number {
  if (!shipment.insurance.included) return 0;
  const given = parseMoney(shipment.insurance.insuredValue);
  const goods = shipment.lines.reduce((sum, l) => sum + parseMoney(l.goodsValue), 0n);
  return Number(given > 0n ? given : goods);
}

/** The lanes of these products, by product: read once for a quote or a whole batch file. */
export async function lanesByProduct(db: DbOrTx, tenantId: number, productIds: number[]) {
  const lanes = new Map<number, LaneRow[]>();
  for (const lane of await lanesOfProducts(db, tenantId, productIds))
    lanes.set(lane.productId, [...(lanes.get(lane.productId) ?? []), lane]);
  return lanes;
}

/** FTL lanes priced by the mile without miles of their own take the road miles between the ZIP codes. */
function ftlTariff(ftl: LaneFtl, shipment: Shipment) {
  if (ftl.miles !== undefined) return ftl;
  const miles = roadMiles(shipment.pickup.zipcode, shipment.delivery.zipcode);
  return miles === null ? ftl : { ...ftl, miles };
}

/** What the rating engine reads of a shipment, worked out once however many products price it. */
const ratingInputs = new WeakMap<Shipment, RatingInput>();
function ratingInputOf(shipment: Shipment): RatingInput {
  let input = ratingInputs.get(shipment);
  if (!input) {
    input = {
      mode: shipment.mode,
      lines: shipment.lines.map(ratingLine),
      accessorials: impliedAccessorials(shipment),
      insuredValue: insuredValueOf(shipment),
    };
    ratingInputs.set(shipment, input);
  }
  return input;
}

/** The operator's cost of a shipment with one product from its lanes and terms. Pure but for the ZIP lookup. */
export function rateFromTables(
  product: ProductRow,
  lanes: readonly LaneRow[],
  shipment: Shipment,
): RatingResult | { ok: false; reason: 'no_lane' } {
  const lane = findLane(lanes, shipment.pickup, shipment.delivery);
  if (!lane) return { ok: false, reason: 'no_lane' };
  // Set one by one rather than spread in: V8 builds an object from spreads slowly, and this runs for
  // every product of every quote.
  const tariff: RatingTariff = { accessorialFees: product.accessorialFees, insurance: product.insurance };
  if (lane.ltl) tariff.ltl = lane.ltl;
  if (lane.ftl) tariff.ftl = shipment.mode === 'FTL' ? ftlTariff(lane.ftl, shipment) : lane.ftl;
  return rateShipment(ratingInputOf(shipment), tariff);
}

/** Road miles are longer than the great circle; this is the usual circuity of US truck routes. */
const ROAD_CIRCUITY = 1.17;

/** Estimated road miles between two US ZIP codes, or null when either is unknown. */
export function roadMiles(fromZip: string, toZip: string): number | null {
  const a = zipcodes().lookup(fromZip);
  const b = zipcodes().lookup(toZip);
  if (!a || !b) return null;
  const rad = (deg: number) => (deg * Math.PI) / 180;
  const dLat = rad(b.latitude - a.latitude);
  const dLon = rad(b.longitude - a.longitude);
  const h =
    Math.sin(dLat / 2) ** 2 + Math.cos(rad(a.latitude)) * Math.cos(rad(b.latitude)) * Math.sin(dLon / 2) ** 2;
  const greatCircle = 2 * 3958.8 * Math.asin(Math.sqrt(h));
  return Math.round(greatCircle * ROAD_CIRCUITY);
}

/* ---------- demo tariffs ---------- */

/**
 * The demo tenant's products and tariffs, so a new portal quotes at once: a national LTL tariff with
 * every class and six weight breaks, a cheaper West Coast economy product, and FTL by the mile.
 */
export async function seedDemoTariffs(db: DbOrTx, tenantId: number) {
  const [existing] = await db
    .select({ id: truckProducts.id })
    .from(truckProducts)
    .where(eq(truckProducts.tenantId, tenantId))
    .limit(1);
  if (existing) return;
  const fees = {
    liftgate_pickup: 7_500,
    liftgate_delivery: 7_500,
    residential_pickup: 6_000,
    residential_delivery: 6_000,
    inside_delivery: 9_500,
    appointment: 2_500,
    limited_access: 8_000,
    hazardous: 3_500,
    notify: 1_500,
  };
  const insurance = { rateBp: 30, minimumPremium: 2_500, deductible: 10_000 };
  const products = await db
    .insert(truckProducts)
    .values([
      {
        tenantId,
        code: 'LTL-STD',
        name: '零担标准',
        nameEn: 'LTL Standard',
        carrier: 'Pacific Linehaul',
        mode: 'LTL' as const,
        transitDaysMin: 3,
        transitDaysMax: 6,
        accessorialFees: fees,
        insurance,
      },
      {
        tenantId,
        code: 'LTL-ECO',
        name: '零担经济(美西)',
        nameEn: 'LTL Economy West',
        carrier: 'Sierra Freight',
        serviceLevel: 'economy',
        mode: 'LTL' as const,
        transitDaysMin: 4,
        transitDaysMax: 8,
        accessorialFees: fees,
        insurance,
      },
      {
        tenantId,
        code: 'FTL-VAN',
        name: '整车厢式车',
        nameEn: 'FTL Dry Van',
        carrier: 'Blue Ridge Trucking',
        mode: 'FTL' as const,
        transitDaysMin: 2,
        transitDaysMax: 5,
        accessorialFees: fees,
        insurance,
      },
    ])
    .returning({ id: truckProducts.id, code: truckProducts.code });
  const id = (code: string) => products.find((p) => p.code === code)?.id as number;
  const breaks = [0, 500, 1_000, 2_000, 5_000, 10_000].map((minWeight) => ({ minWeight }));
  // Cents per hundredweight: higher classes cost more, heavier breaks less.
  const rates = (perClassPoint: number) =>
    Object.fromEntries(
      FREIGHT_CLASSES.map((cls) => [
        cls,
        breaks.map((_, i) => Math.round(Number(cls) * perClassPoint * (1 - 0.11 * i))),
      ]),
    );
  await db.insert(truckLanes).values([
    {
      tenantId,
      productId: id('LTL-STD'),
      origin: '*',
      destination: '*',
      ltl: { breaks, rates: rates(62), minimumCharge: 12_500, discountBp: 6_500, fuelBp: 2_850 },
    },
    {
      tenantId,
      productId: id('LTL-ECO'),
      origin: '900-961',
      destination: '900-961',
      ltl: { breaks, rates: rates(48), minimumCharge: 9_500, discountBp: 6_000, fuelBp: 2_600 },
    },
    {
      tenantId,
      productId: id('FTL-VAN'),
      origin: '*',
      destination: '*',
      ftl: { ratePerMile: 285, minimumCharge: 80_000, fuelBp: 2_000, maxWeight: 45_000 },
    },
  ]);
}
