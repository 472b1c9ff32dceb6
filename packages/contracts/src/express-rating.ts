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
  /** A channel's own surcharge rule, by the name its carrier bills it under (`name`). */
  'rule',
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
  /** A bracket under one weight unit (4 oz is 0.25 lb) is an ounce tier: see `RatingRules.underOneUnit`. */
  brackets: { weight: number; prices: (number | null)[] }[];
  additional: { unit: number; prices: (number | null)[] } | null;
  /** The least a parcel costs in each zone before surcharges. */
  minimums: (number | null)[];
  /**
   * Cubic tiers (USPS's cubic prices): a parcel that fits `RatingRules.cubic` is priced by the first
   * tier its volume does not exceed, in cubic feet (cubic decimetres on a metric channel), not by weight.
   */
  cubic?: { tier: number; prices: (number | null)[] }[];
}

/** A price table that takes over on a date (a carrier's new card, loaded weeks ahead). */
export interface ScheduledPrices {
  /** The first ship date the table prices, `YYYY-MM-DD`. */
  effectiveFrom: string;
  prices: PriceTable;
}

/** How each side is rounded before anything is measured: FedEx and UPS round to the nearest inch. */
export const DIM_ROUNDINGS = ['none', 'nearest', 'up'] as const;
export type DimRounding = (typeof DIM_ROUNDINGS)[number];

/**
 * What a billable weight past the card's last row costs: the `additional` units of the price table,
 * the last row's price prorated per unit of weight (FedEx above 150 lb), or nothing (refused).
 */
export const BEYOND_LAST_WEIGHT = ['additional', 'prorate', 'refuse'] as const;
export type BeyondLastWeight = (typeof BEYOND_LAST_WEIGHT)[number];

/** What sets a surcharge rule off. */
export const SURCHARGE_TRIGGERS = [
  /** The actual weight of a piece is over `over`. */
  'weight',
  /** The longest side is over `over`. */
  'longest',
  /** The second-longest side is over `over`. */
  'second',
  /** The longest side plus twice each of the others is over `over`. */
  'length_girth',
  /** The volume, from the measured sides, is over `over` cubic units (USPS: 2 cubic feet). */
  'volume',
  /** The piece's packaging is one of `values` (not encased, cylinder, ...). */
  'packaging',
  /** The shipment goes to a home. */
  'residential',
  /** The shipment asks for a signature. */
  'signature',
  /** The destination's five-digit ZIP is one of `values`. */
  'zip5',
] as const;
export type SurchargeTrigger = (typeof SURCHARGE_TRIGGERS)[number];

/** Packaging a piece may be declared in; `box` (a corrugated carton) when not said. */
export const PACKAGINGS = ['box', 'not_encased', 'cylinder', 'bag', 'wood', 'metal', 'other'] as const;
export type Packaging = (typeof PACKAGINGS)[number];

/**
 * A surcharge as a carrier's service guide states it: what sets it off, what it costs (per zone where
 * the carrier varies it), whether fuel applies to it. Rules of one `group` charge only their dearest
 * (a piece over both a weight and a length limit pays Additional Handling once); a rule that applies
 * removes the groups it `replaces` (Oversize replaces Additional Handling).
 */
export interface SurchargeRule {
  /** The carrier's name for it, shown on the breakdown: "Additional Handling - Weight". */
  name: string;
  trigger: SurchargeTrigger;
  /** The limit a numeric trigger must exceed, in the channel's units. */
  over: number;
  /** Packaging kinds, or five-digit ZIPs. */
  values: string[];
  /** Cents per piece (per shipment for residential and signature), unless its zone has its own. */
  fee: number;
  /** Cents by zone name, where the carrier varies the fee by zone. */
  feeByZone: Record<string, number>;
  /** Fuel is charged on it. */
  fuel: boolean;
  group: string;
  replaces: string[];
  /** Billable weight is at least this while it applies (0 for none): Oversize bills 90 lb. */
  minBillable: number;
}

/** A fuel percentage from a date on (carriers change theirs weekly). */
export interface FuelRate {
  /** `YYYY-MM-DD`: the first ship date the rate applies to. */
  from: string;
  bp: number;
}

/**
 * The rules of a carrier's service guide beyond the price table. Every field has a default that
 * rates as the channel did before rules existed: sides as given, dimensional weight on every parcel,
 * whole units, the additional units past the last row, no rules, the channel's one fuel percentage.
 */
export interface RatingRules {
  dimRounding: DimRounding;
  /** Dimensional weight counts only above this volume (cubic units; USPS: 1,728 in³); 0 for always. */
  dimThreshold: number;
  /**
   * Under one weight unit, billable weight rounds up to `step` (1/16 lb: whole ounces) instead of to
   * a whole unit, and is priced by the ounce tiers of the price table; null rounds to whole units.
   */
  underOneUnit: { step: number } | null;
  beyondLastWeight: BeyondLastWeight;
  /**
   * Who is priced by the cubic tiers of the price table: pieces up to `maxWeight`, each side rounded
   * down to `roundDown` first (USPS: a quarter inch); null prices every piece by weight.
   */
  cubic: { roundDown: number; maxWeight: number; maxLongest: number } | null;
  surchargeRules: SurchargeRule[];
  /** Effective-dated fuel; a ship date before every row takes the channel's own fuel percentage. */
  fuel: FuelRate[];
}

export const DEFAULT_RATING_RULES: RatingRules = {
  dimRounding: 'none',
  dimThreshold: 0,
  underOneUnit: null,
  beyondLastWeight: 'additional',
  cubic: null,
  surchargeRules: [],
  fuel: [],
};

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
  /** Tables that take over on their dates; the latest one in force on the ship date prices. */
  scheduledPrices?: ScheduledPrices[];
  surcharges: SurchargeTerms;
  rules?: RatingRules;
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
  /** `box` when not said. */
  packaging?: Packaging;
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
  /** `YYYY-MM-DD`: picks the price table and the fuel rate in force; today (UTC) when not said. */
  shipDate?: string;
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
  /** The cubic tier that priced the piece (cubic feet), when the cubic tiers did. */
  cubicTier?: number;
  /** The last row's price was prorated to the billable weight. */
  prorated?: boolean;
  /** Sides as the carrier measures them (rounded by the channel's rule), longest first. */
  sides?: [number, number, number];
  /** `name`: a rule's name; `note`: a delivery-area list's. */
  surcharges: { code: ExpressSurcharge; fee: number; note?: string; name?: string }[];
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
  /** The fuel percentage applied, in basis points, and the charges it was applied to (cents). */
  fuelBp?: number;
  fuelBase?: number;
  /** The price table's first ship date, when a scheduled table priced the shipment. */
  pricesFrom?: string;
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

/** A ZIP in a range of ZIP3s or ZIP5s: compared on as many digits as the range gives. */
const inRange = (zip: string, from: string, to: string) => {
  const head = zip.trim().slice(0, from.length);
  return head >= from && head <= (to || from);
};

/**
 * The zone of a shipment on a chart. A row whose destination is a range of five-digit ZIPs is an
 * exception (an island, rural Alaska) and wins over the ZIP3 rows; otherwise the first row that
 * covers origin and destination.
 */
export function findZone(
  rows: readonly ZoneRow[],
  originZip: string,
  destinationCountry: string,
  destinationZip: string,
): string | null {
  const domestic = destinationCountry === 'US';
  const covers = (row: ZoneRow) =>
    inRange(originZip, row.originFrom, row.originTo) &&
    (domestic
      ? row.country === '' && inRange(destinationZip, row.destFrom, row.destTo)
      : row.country === destinationCountry);
  if (domestic) {
    const exception = rows.find((row) => row.destFrom.length === 5 && covers(row));
    if (exception) return exception.zone;
  }
  return rows.find((row) => (domestic ? row.destFrom.length !== 5 : true) && covers(row))?.zone ?? null;
}

type Sides = [number, number, number];

/** Length plus girth of sides sorted longest first: the longest plus twice each of the other two. */
const lengthGirth = ([longest, second, third]: Sides) => longest + 2 * (second + third);

/**
 * The price of a billable weight in a zone: the first bracket it does not exceed; past the last, by
 * the channel's rule. Prorating takes the last row's price per unit of weight, times the billable
 * weight, rounded half up to the cent once (FedEx: the 150 lb rate per pound above 150 lb).
 */
function bracketPrice(
  table: PriceTable,
  zoneIndex: number,
  billable: number,
  beyond: BeyondLastWeight,
): { price: number; prorated: boolean } | null {
  for (const bracket of table.brackets)
    if (billable <= bracket.weight + 1e-9) {
      const price = bracket.prices[zoneIndex];
      return price == null ? null : { price, prorated: false };
    }
  const last = table.brackets[table.brackets.length - 1];
  const base = last?.prices[zoneIndex];
  if (!last || base == null || beyond === 'refuse') return null;
  if (beyond === 'prorate')
    return { price: Math.floor((base * billable) / last.weight + 0.5 + 1e-9), prorated: true };
  const perUnit = table.additional?.prices[zoneIndex];
  if (!table.additional || perUnit == null) return null;
  const units = roundUp(billable - last.weight, table.additional.unit) / table.additional.unit;
  return { price: base + Math.round(units) * perUnit, prorated: false };
}

/** What a declared value costs per piece. */
export function declaredValueFee(terms: SurchargeTerms['declaredValue'], value: number): number {
  if (!terms || value <= terms.freeCents) return 0;
  const hundreds = Math.ceil((value - terms.freeCents) / 10_000);
  return Math.max(terms.minimum, hundreds * terms.per100);
}

/** A side as the carrier measures it. */
function roundSide(value: number, rule: DimRounding): number {
  const clean = Number(value.toFixed(6));
  if (rule === 'nearest') return Math.floor(clean + 0.5);
  if (rule === 'up') return Math.ceil(clean);
  return value;
}

/** Today as ship dates are written (UTC), the date a quote that names none ships on. */
export const shipDateToday = () => new Date().toISOString().slice(0, 10);

/** The price table in force on a ship date: the latest scheduled one that has begun, else the channel's. */
export function pricesInForce(
  channel: Pick<ChannelTerms, 'prices' | 'scheduledPrices'>,
  shipDate: string,
): { prices: PriceTable; from: string | null } {
  let best: ScheduledPrices | null = null;
  for (const scheduled of channel.scheduledPrices ?? [])
    if (scheduled.effectiveFrom <= shipDate && (!best || scheduled.effectiveFrom > best.effectiveFrom))
      best = scheduled;
  return best ? { prices: best.prices, from: best.effectiveFrom } : { prices: channel.prices, from: null };
}

/** The fuel percentage in force on a ship date, in basis points. */
export function fuelInForce(rules: RatingRules, fallbackBp: number, shipDate: string): number {
  let best: FuelRate | null = null;
  for (const rate of rules.fuel) if (rate.from <= shipDate && (!best || rate.from > best.from)) best = rate;
  return best ? best.bp : fallbackBp;
}

/** The cubic tier of a piece, or null when it is not priced by cubic tiers. */
function cubicTierOf(
  table: PriceTable,
  rules: RatingRules,
  unitSystem: UnitSystem,
  p: Parcel,
): { tier: number; index: number } | null {
  const cubic = rules.cubic;
  const tiers = table.cubic ?? [];
  if (!cubic || tiers.length === 0 || p.weight > cubic.maxWeight + 1e-9) return null;
  const down = (side: number) =>
    cubic.roundDown > 0 ? Math.floor(Number((side / cubic.roundDown).toFixed(6))) * cubic.roundDown : side;
  const rounded = [down(p.length), down(p.width), down(p.height)].sort((a, b) => b - a);
  if (cubic.maxLongest > 0 && (rounded[0] ?? 0) > cubic.maxLongest + 1e-9) return null;
  // Cubic feet, or cubic decimetres on a metric channel.
  const volume = rounded.reduce((v, side) => v * side, 1) / (unitSystem === 'lb_in' ? 1728 : 1000);
  const index = tiers.findIndex((t) => volume <= t.tier + 1e-9);
  return index < 0 ? null : { tier: (tiers[index] as { tier: number }).tier, index };
}

/** Whether a rule is set off by a piece of a shipment. */
function triggers(
  rule: SurchargeRule,
  piece: { sides: [number, number, number]; weight: number; packaging: Packaging },
  shipment: ExpressShipment,
  destinationZip: string,
): boolean {
  const [longest, second, third] = piece.sides;
  switch (rule.trigger) {
    case 'weight':
      return piece.weight > rule.over + 1e-9;
    case 'longest':
      return longest > rule.over + 1e-9;
    case 'second':
      return second > rule.over + 1e-9;
    case 'length_girth':
      return lengthGirth(piece.sides) > rule.over + 1e-9;
    case 'volume':
      return longest * second * third > rule.over + 1e-9;
    case 'packaging':
      return rule.values.includes(piece.packaging);
    case 'residential':
      return shipment.residential;
    case 'signature':
      return shipment.signature;
    case 'zip5':
      return rule.values.includes(destinationZip);
  }
}

/**
 * The rules a piece pays: within a group the dearest only, and none of a group another applying
 * rule replaces. Each with its fee in the zone.
 */
function rulesCharged(rules: readonly SurchargeRule[], applying: readonly SurchargeRule[], zone: string) {
  const fee = (rule: SurchargeRule) => rule.feeByZone[zone] ?? rule.fee;
  const dearest = new Map<string, SurchargeRule>();
  const charged: SurchargeRule[] = [];
  for (const rule of applying) {
    if (!rule.group) {
      charged.push(rule);
      continue;
    }
    const held = dearest.get(rule.group);
    if (!held || fee(rule) > fee(held)) dearest.set(rule.group, rule);
  }
  charged.push(...dearest.values());
  const replaced = new Set(charged.flatMap((rule) => rule.replaces));
  return rules
    .filter((rule) => charged.includes(rule) && !(rule.group && replaced.has(rule.group)))
    .map((rule) => ({ rule, fee: fee(rule) }));
}

/**
 * A delivery area's ZIPs as a set, made once per area as held: a carrier's list runs to tens of
 * thousands of ZIPs, looked up for every channel of every parcel priced.
 */
const areaZips = new WeakMap<DeliveryArea, ReadonlySet<string>>();
function zipsOf(area: DeliveryArea): ReadonlySet<string> {
  let zips = areaZips.get(area);
  if (!zips) {
    zips = new Set(area.zips);
    areaZips.set(area, zips);
  }
  return zips;
}

/** Prices a shipment on one channel at the operator's cost, or says why the channel cannot take it. */
export function rateExpress(channel: ChannelTerms, shipment: ExpressShipment): ExpressRating {
  const domestic = shipment.destinationCountry === 'US';
  if (domestic !== (channel.scope === 'domestic')) return { ok: false, reason: 'wrong_scope' };
  const rules = channel.rules ?? DEFAULT_RATING_RULES;
  const shipDate = shipment.shipDate ?? shipDateToday();
  const step = WEIGHT_STEP[channel.unitSystem];
  const parcels = shipment.parcels.map((p) => toUnits(p, shipment.unitSystem, channel.unitSystem));
  // Sides as the carrier measures them; every length rule reads these.
  const measured = parcels.map(
    (p) =>
      [p.length, p.width, p.height]
        .map((side) => roundSide(side, rules.dimRounding))
        .sort((a, b) => b - a) as Sides,
  );
  for (const [i, p] of parcels.entries()) {
    const pieceSides = measured[i] as Sides;
    if (p.weight > channel.limits.maxWeight + 1e-9) return { ok: false, reason: 'overweight' };
    if (
      pieceSides[0] > channel.limits.maxLength + 1e-9 ||
      lengthGirth(pieceSides) > channel.limits.maxLengthGirth + 1e-9
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
  const { prices, from: pricesFrom } = pricesInForce(channel, shipDate);
  const zoneIndex = prices.zones.indexOf(zone);
  if (zoneIndex < 0) return { ok: false, reason: 'no_price' };

  const terms = channel.surcharges;
  const destinationZip = shipment.destinationZip.trim().slice(0, 5);
  let area: DeliveryArea | null = null;
  for (const a of terms.deliveryAreas)
    if (zipsOf(a).has(destinationZip) && !(area && area.fee >= a.fee)) area = a;

  const breakdowns: ParcelBreakdown[] = [];
  // Cents fuel is charged on: the freight and the surcharges fuel applies to, over every piece.
  let fuelBase = 0;
  for (const [i, p] of parcels.entries()) {
    const sidesMeasured = measured[i] as Sides;
    const [longest, second, third] = sidesMeasured;
    const lengthAndGirth = lengthGirth(sidesMeasured);
    const volume = longest * second * third;
    const dimWeight =
      channel.dimDivisor > 0 && volume > rules.dimThreshold + 1e-9 ? volume / channel.dimDivisor : 0;
    const weighed = Math.max(p.weight, dimWeight);
    let billable =
      rules.underOneUnit && weighed < 1 - 1e-9
        ? rules.underOneUnit.step > 0
          ? roundUp(weighed, rules.underOneUnit.step)
          : Number(weighed.toFixed(4))
        : roundUp(weighed, step);
    const large =
      terms.largePackage !== null &&
      (longest > terms.largePackage.longest + 1e-9 || lengthAndGirth > terms.largePackage.lengthGirth + 1e-9);
    if (large && terms.largePackage) billable = Math.max(billable, terms.largePackage.minBillable);
    const piece = { sides: sidesMeasured, weight: p.weight, packaging: p.packaging ?? 'box' };
    const applying = rules.surchargeRules.filter((rule) => triggers(rule, piece, shipment, destinationZip));
    const charged = rulesCharged(rules.surchargeRules, applying, zone);
    for (const { rule } of charged) billable = Math.max(billable, rule.minBillable);

    const cubic = cubicTierOf(prices, rules, channel.unitSystem, p);
    const cubicPrice = cubic ? (prices.cubic?.[cubic.index]?.prices[zoneIndex] ?? null) : null;
    const priced =
      cubicPrice !== null
        ? { price: cubicPrice, prorated: false }
        : bracketPrice(prices, zoneIndex, billable, rules.beyondLastWeight);
    if (priced === null) return { ok: false, reason: 'no_price' };
    const { price, prorated } = priced;
    const minimum = prices.minimums[zoneIndex] ?? 0;
    const freight = Math.max(price, minimum);
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
    let fueled = freight + surcharges.reduce((sum, x) => sum + x.fee, 0);
    for (const { rule, fee } of charged) {
      surcharges.push({ code: 'rule', fee, name: rule.name });
      if (rule.fuel) fueled += fee;
    }
    const declared = declaredValueFee(terms.declaredValue, p.declaredValue);
    if (declared > 0) surcharges.push({ code: 'declared_value', fee: declared });
    fuelBase += fueled * p.quantity;
    breakdowns.push({
      actualWeight: display(p.weight),
      dimWeight: display(dimWeight),
      billableWeight: billable,
      quantity: p.quantity,
      freight,
      minimumApplied: minimum > price,
      ...(cubic && cubicPrice !== null ? { cubicTier: cubic.tier } : {}),
      ...(prorated ? { prorated } : {}),
      // The sides as measured, where the channel measures them otherwise than given.
      ...(rules.dimRounding !== 'none'
        ? { sides: sidesMeasured.map(display) as [number, number, number] }
        : {}),
      surcharges,
    });
  }

  const freight = breakdowns.reduce((s, b) => s + b.freight * b.quantity, 0);
  // Summed by kind, and a rule by its name, in the order of the kinds and then of the rules.
  const totals = new Map<string, { code: ExpressSurcharge; fee: number; name?: string }>();
  for (const code of EXPRESS_SURCHARGES)
    for (const b of breakdowns)
      for (const s of b.surcharges) {
        if (s.code !== code) continue;
        const key = `${s.code}\u0000${s.name ?? ''}`;
        const held = totals.get(key) ?? { code: s.code, fee: 0, ...(s.name ? { name: s.name } : {}) };
        held.fee += s.fee * b.quantity;
        totals.set(key, held);
      }
  const surcharges = [...totals.values()];
  const fuelBp = fuelInForce(rules, terms.fuelBp, shipDate);
  const fuel = percentOf(fuelBase, fuelBp);
  return {
    ok: true,
    breakdown: {
      zone,
      unitSystem: channel.unitSystem,
      parcels: breakdowns,
      freight,
      surcharges,
      fuel,
      fuelBp,
      fuelBase,
      ...(pricesFrom ? { pricesFrom } : {}),
      total: freight + surcharges.reduce((s, x) => s + x.fee, 0) + fuel,
      billableWeight: breakdowns.reduce((s, b) => s + b.billableWeight * b.quantity, 0),
    },
  };
}
