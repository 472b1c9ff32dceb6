/**
 * The express rating engine: prices parcels on one channel from its zone chart, its price table and
 * its surcharge terms. Pure and exact like truck rating: money is integer cents, each rounding is
 * half up to the cent, weights round up to the channel's step, and the breakdown says how every cent
 * was reached. The server feeds it the tenant's tables; the golden tests price parcels by hand.
 */

/**
 * A channel's units: pounds and inches, billable weight rounded up to the next whole pound; or
 * kilograms and centimetres, rounded up to the next half kilogram. The rounding rule follows the
 * unit system, as carriers publish it.
 */
export const UNIT_SYSTEMS = ['lb_in', 'kg_cm'] as const;
export type UnitSystem = (typeof UNIT_SYSTEMS)[number];

/** Billable weight step of each unit system, in its own weight unit. */
export const WEIGHT_STEP: Record<UnitSystem, number> = { lb_in: 1, kg_cm: 0.5 };

/** Basis points of an amount of cents, half up to the cent, in integers. */
const percentOf = (amount: number, bp: number) => Math.floor((amount * bp + 5_000) / 10_000);

const KG_PER_LB = 0.45359237;
const CM_PER_IN = 2.54;

export const EXPRESS_SCOPES = ['domestic', 'international'] as const;
export type ExpressScope = (typeof EXPRESS_SCOPES)[number];

export const EXPRESS_SURCHARGES = [
  'residential',
  'delivery_area',
  'additional_handling',
  'large_package',
  'signature',
  'declared_value',
  /** A charge a carrier's rate names, by its own name (`name`): a channel priced by a carrier's API. */
  'carrier',
] as const;
export type ExpressSurcharge = (typeof EXPRESS_SURCHARGES)[number];

/** Why a channel cannot take a shipment. */
export const EXPRESS_REFUSALS = [
  /** A parcel is heavier than the channel takes. */
  'overweight',
  /** A parcel is longer, or longer plus girth, than the channel takes. */
  'oversize',
  /** The zone chart has no zone from the origin to the destination. */
  'no_zone',
  /** The price table has no price for the zone and weight. */
  'no_price',
  /** A domestic channel asked abroad, or an international one at home. */
  'wrong_scope',
] as const;
export type ExpressRefusal = (typeof EXPRESS_REFUSALS)[number];

/** One row of a zone chart: origin ZIP3 range to a destination ZIP3 range, or to a country. */
export interface ZoneRow {
  originFrom: string;
  originTo: string;
  /** ZIP3 range of a domestic destination; empty for an international row. */
  destFrom: string;
  destTo: string;
  /** ISO country of an international destination; empty for a domestic row. */
  country: string;
  zone: string;
}

/**
 * A channel's cost per zone and weight bracket. A bracket's price covers billable weights up to and
 * including its weight; past the last bracket each further `additional.unit` costs the zone's price.
 * Prices are cents; null where the channel does not serve that zone at that weight.
 */
export interface PriceTable {
  zones: string[];
  brackets: { weight: number; prices: (number | null)[] }[];
  additional: { unit: number; prices: (number | null)[] } | null;
  /** The least a parcel costs in each zone before surcharges. */
  minimums: (number | null)[];
}

export interface DeliveryArea {
  /** What the list is called on the breakdown, e.g. "DAS" or "Extended DAS". */
  name: string;
  /** Cents per parcel. */
  fee: number;
  /** Five-digit ZIP codes. */
  zips: string[];
}

/** Surcharge terms of a channel, cents per parcel unless said; dimensions and weights in its units. */
export interface SurchargeTerms {
  /** Fuel on the freight and every surcharge but declared value, in basis points. */
  fuelBp: number;
  residential: number;
  signature: number;
  /** Each parcel pays the dearest list its destination ZIP is on. */
  deliveryAreas: DeliveryArea[];
  /** Handling beyond the conveyor: a long side, a wide side or a heavy parcel. */
  additionalHandling: { fee: number; longest: number; secondLongest: number; weight: number } | null;
  /** Large package: billed at least `minBillable`, and replaces additional handling. */
  largePackage: { fee: number; longest: number; lengthGirth: number; minBillable: number } | null;
  /** Declared value coverage: the first `freeCents` are free, then `per100` cents per 100.00 started. */
  declaredValue: { freeCents: number; per100: number; minimum: number } | null;
}

export interface ChannelLimits {
  maxWeight: number;
  maxLength: number;
  /** Length plus girth (2 × width + 2 × height). */
  maxLengthGirth: number;
}

/** Everything rating needs of a channel. */
export interface ChannelTerms {
  scope: ExpressScope;
  unitSystem: UnitSystem;
  /** Cubic units per weight unit: 139 (in³/lb) or 5000 (cm³/kg) are usual; 0 rates actual weight only. */
  dimDivisor: number;
  limits: ChannelLimits;
  zones: ZoneRow[];
  prices: PriceTable;
  surcharges: SurchargeTerms;
}

/** A parcel as the shipper gives it, in the shipment's units; `quantity` identical pieces. */
export interface Parcel {
  quantity: number;
  length: number;
  width: number;
  height: number;
  weight: number;
  /** Cents declared per piece; 0 for none. */
  declaredValue: number;
}

/** One end of a shipment in full, as a carrier's API takes it (the tables need only its code). */
export interface ShipmentParty {
  name: string;
  company: string;
  phone: string;
  address1: string;
  address2: string;
  city: string;
  state: string;
  zipcode: string;
  country: string;
}

export interface ExpressShipment {
  /** Both ends in full where the shipment has them (a quote's sender and recipient). */
  parties?: { from: ShipmentParty; to: ShipmentParty };
  unitSystem: UnitSystem;
  originZip: string;
  destinationCountry: string;
  destinationZip: string;
  residential: boolean;
  signature: boolean;
  parcels: Parcel[];
}

export interface ParcelBreakdown {
  /** Per piece, in the channel's units, rounded to 2 decimals for display. */
  actualWeight: number;
  dimWeight: number;
  billableWeight: number;
  quantity: number;
  /** Cents per piece: the bracket price (or the minimum). */
  freight: number;
  minimumApplied: boolean;
  surcharges: { code: ExpressSurcharge; fee: number; note?: string }[];
}

export interface ExpressBreakdown {
  zone: string;
  unitSystem: UnitSystem;
  parcels: ParcelBreakdown[];
  /** Sums over every piece, cents. */
  freight: number;
  /** `name`: the carrier's own name of a `carrier` charge. */
  surcharges: { code: ExpressSurcharge; fee: number; name?: string }[];
  fuel: number;
  total: number;
  billableWeight: number;
}

/** One level's price: the operator's cost first, the booking customer's price last. */
export interface ExpressPriceLevel {
  /** Null for the operator itself. */
  organisationId: number | null;
  type: 'platform' | 'branch' | 'agent' | 'customer';
  freight: number;
  surcharges: { code: ExpressSurcharge; fee: number; name?: string }[];
  fuel: number;
  total: number;
}

export interface ExpressMarkup {
  /** Basis points: 1250 is 12.50 %. */
  percentBp: number;
  fixedCents: number;
}

/**
 * Every level's price from the operator's cost and the markups down the tree, as truck levels are
 * made: each level marks up the freight, the fuel and each surcharge by its percentage and adds its
 * fixed amount to the freight.
 */
export function expressPriceLevels(
  cost: Pick<ExpressBreakdown, 'freight' | 'surcharges' | 'fuel'>,
  chain: readonly { organisationId: number; type: ExpressPriceLevel['type']; markup: ExpressMarkup }[],
): ExpressPriceLevel[] {
  const level = (
    organisationId: number | null,
    type: ExpressPriceLevel['type'],
    freight: number,
    surcharges: ExpressPriceLevel['surcharges'],
    fuel: number,
  ): ExpressPriceLevel => ({
    organisationId,
    type,
    freight,
    surcharges,
    fuel,
    total: freight + surcharges.reduce((s, x) => s + x.fee, 0) + fuel,
  });
  const levels = [level(null, 'platform', cost.freight, cost.surcharges, cost.fuel)];
  for (const { organisationId, type, markup } of chain) {
    const above = levels[levels.length - 1] as ExpressPriceLevel;
    const up = (amount: number) => amount + percentOf(amount, markup.percentBp);
    levels.push(
      level(
        organisationId,
        type,
        up(above.freight) + markup.fixedCents,
        above.surcharges.map((s) => ({ ...s, fee: up(s.fee) })),
        up(above.fuel),
      ),
    );
  }
  return levels;
}

export type ExpressRating = { ok: true; breakdown: ExpressBreakdown } | { ok: false; reason: ExpressRefusal };

/** Up to the step; a product like 10.000000001 from unit conversion is still 10. */
const roundUp = (value: number, step: number) => Math.ceil(Number((value / step).toFixed(6))) * step;
const display = (value: number) => Math.round(value * 100) / 100;

/** Converts a parcel's dimensions and weight into the channel's units. */
export function toUnits(parcel: Parcel, from: UnitSystem, to: UnitSystem): Parcel {
  if (from === to) return parcel;
  const length = to === 'kg_cm' ? CM_PER_IN : 1 / CM_PER_IN;
  const weight = to === 'kg_cm' ? KG_PER_LB : 1 / KG_PER_LB;
  return {
    ...parcel,
    length: parcel.length * length,
    width: parcel.width * length,
    height: parcel.height * length,
    weight: parcel.weight * weight,
  };
}

const zip3 = (zip: string) => zip.trim().slice(0, 3);
const inRange = (value: string, from: string, to: string) => value >= from && value <= (to || from);

/** The zone of a shipment on a chart: the first row that covers origin and destination. */
export function findZone(
  rows: readonly ZoneRow[],
  originZip: string,
  destinationCountry: string,
  destinationZip: string,
): string | null {
  const origin = zip3(originZip);
  const domestic = destinationCountry === 'US';
  const destination = zip3(destinationZip);
  for (const row of rows) {
    if (!inRange(origin, row.originFrom, row.originTo)) continue;
    if (
      domestic
        ? row.country === '' && inRange(destination, row.destFrom, row.destTo)
        : row.country === destinationCountry
    )
      return row.zone;
  }
  return null;
}

/** Sorted sides, longest first. */
const sides = (p: Parcel) => [p.length, p.width, p.height].sort((a, b) => b - a) as [number, number, number];

/** Length plus girth: the longest side plus twice each of the other two. */
export const lengthGirth = (p: Parcel) => {
  const [l, w, h] = sides(p);
  return l + 2 * (w + h);
};

/** The price of a billable weight in a zone, from the brackets and the additional units. */
function bracketPrice(table: PriceTable, zoneIndex: number, billable: number): number | null {
  for (const bracket of table.brackets)
    if (billable <= bracket.weight + 1e-9) return bracket.prices[zoneIndex] ?? null;
  const last = table.brackets[table.brackets.length - 1];
  const perUnit = table.additional?.prices[zoneIndex];
  if (!last || !table.additional || perUnit == null) return null;
  const base = last.prices[zoneIndex];
  if (base == null) return null;
  const units = roundUp(billable - last.weight, table.additional.unit) / table.additional.unit;
  return base + Math.round(units) * perUnit;
}

/** What a declared value costs per piece. */
export function declaredValueFee(terms: SurchargeTerms['declaredValue'], value: number): number {
  if (!terms || value <= terms.freeCents) return 0;
  const hundreds = Math.ceil((value - terms.freeCents) / 10_000);
  return Math.max(terms.minimum, hundreds * terms.per100);
}

/** Prices a shipment on one channel at the operator's cost, or says why the channel cannot take it. */
export function rateExpress(channel: ChannelTerms, shipment: ExpressShipment): ExpressRating {
  const domestic = shipment.destinationCountry === 'US';
  if (domestic !== (channel.scope === 'domestic')) return { ok: false, reason: 'wrong_scope' };
  const step = WEIGHT_STEP[channel.unitSystem];
  const parcels = shipment.parcels.map((p) => toUnits(p, shipment.unitSystem, channel.unitSystem));
  for (const p of parcels) {
    if (p.weight > channel.limits.maxWeight + 1e-9) return { ok: false, reason: 'overweight' };
    if (
      sides(p)[0] > channel.limits.maxLength + 1e-9 ||
      lengthGirth(p) > channel.limits.maxLengthGirth + 1e-9
    )
      return { ok: false, reason: 'oversize' };
  }
  const zone = findZone(
    channel.zones,
    shipment.originZip,
    shipment.destinationCountry,
    shipment.destinationZip,
  );
  if (zone === null) return { ok: false, reason: 'no_zone' };
  const zoneIndex = channel.prices.zones.indexOf(zone);
  if (zoneIndex < 0) return { ok: false, reason: 'no_price' };

  const terms = channel.surcharges;
  const destinationZip = shipment.destinationZip.trim().slice(0, 5);
  const area = terms.deliveryAreas
    .filter((a) => a.zips.includes(destinationZip))
    .reduce<DeliveryArea | null>((best, a) => (best && best.fee >= a.fee ? best : a), null);

  const breakdowns: ParcelBreakdown[] = [];
  for (const p of parcels) {
    const [longest, second] = sides(p);
    const dimWeight = channel.dimDivisor > 0 ? (p.length * p.width * p.height) / channel.dimDivisor : 0;
    const large =
      terms.largePackage !== null &&
      (longest > terms.largePackage.longest + 1e-9 || lengthGirth(p) > terms.largePackage.lengthGirth + 1e-9);
    let billable = roundUp(Math.max(p.weight, dimWeight), step);
    if (large && terms.largePackage) billable = Math.max(billable, terms.largePackage.minBillable);
    const price = bracketPrice(channel.prices, zoneIndex, billable);
    if (price === null) return { ok: false, reason: 'no_price' };
    const minimum = channel.prices.minimums[zoneIndex] ?? 0;
    const surcharges: ParcelBreakdown['surcharges'] = [];
    if (shipment.residential && terms.residential > 0)
      surcharges.push({ code: 'residential', fee: terms.residential });
    if (area) surcharges.push({ code: 'delivery_area', fee: area.fee, note: area.name });
    if (large && terms.largePackage) surcharges.push({ code: 'large_package', fee: terms.largePackage.fee });
    else if (
      terms.additionalHandling &&
      (longest > terms.additionalHandling.longest + 1e-9 ||
        second > terms.additionalHandling.secondLongest + 1e-9 ||
        p.weight > terms.additionalHandling.weight + 1e-9)
    )
      surcharges.push({ code: 'additional_handling', fee: terms.additionalHandling.fee });
    if (shipment.signature && terms.signature > 0)
      surcharges.push({ code: 'signature', fee: terms.signature });
    const declared = declaredValueFee(terms.declaredValue, p.declaredValue);
    if (declared > 0) surcharges.push({ code: 'declared_value', fee: declared });
    breakdowns.push({
      actualWeight: display(p.weight),
      dimWeight: display(dimWeight),
      billableWeight: billable,
      quantity: p.quantity,
      freight: Math.max(price, minimum),
      minimumApplied: minimum > price,
      surcharges,
    });
  }

  const freight = breakdowns.reduce((s, b) => s + b.freight * b.quantity, 0);
  const totals = new Map<ExpressSurcharge, number>();
  for (const b of breakdowns)
    for (const s of b.surcharges) totals.set(s.code, (totals.get(s.code) ?? 0) + s.fee * b.quantity);
  const surcharges = EXPRESS_SURCHARGES.filter((code) => totals.has(code)).map((code) => ({
    code,
    fee: totals.get(code) as number,
  }));
  const fuelBase =
    freight + surcharges.filter((s) => s.code !== 'declared_value').reduce((s, x) => s + x.fee, 0);
  const fuel = percentOf(fuelBase, terms.fuelBp);
  return {
    ok: true,
    breakdown: {
      zone,
      unitSystem: channel.unitSystem,
      parcels: breakdowns,
      freight,
      surcharges,
      fuel,
      total: freight + surcharges.reduce((s, x) => s + x.fee, 0) + fuel,
      billableWeight: breakdowns.reduce((s, b) => s + b.billableWeight * b.quantity, 0),
    },
  };
}
