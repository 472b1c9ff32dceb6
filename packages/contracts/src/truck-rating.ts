/**
 * The truck rating engine: prices an LTL or FTL shipment from a product's tariff. Pure and exact:
 * every amount is integer cents, every rounding is half up to the cent, and the breakdown says how
 * the total was reached. The server feeds it the tenant's tariff rows; the golden tests price
 * shipments by hand and assert each cent.
 */

export const FREIGHT_CLASSES = [
  '50',
  '55',
  '60',
  '65',
  '70',
  '77.5',
  '85',
  '92.5',
  '100',
  '110',
  '125',
  '150',
  '175',
  '200',
  '250',
  '300',
  '400',
  '500',
] as const;
export type FreightClass = (typeof FREIGHT_CLASSES)[number];

/**
 * Density (lb per cubic foot) to freight class, the NMFC 13-tier density scale: the class suggested
 * on the quote form from a line's dimensions and weight.
 */
const DENSITY_SCALE: readonly (readonly [minDensity: number, cls: FreightClass])[] = [
  [50, '50'],
  [35, '55'],
  [30, '60'],
  [22.5, '65'],
  [15, '70'],
  [12, '85'],
  [10, '92.5'],
  [8, '100'],
  [6, '125'],
  [4, '175'],
  [2, '250'],
  [1, '300'],
  [0, '400'],
];

export interface GoodsLine {
  /** Handling units (pallets). */
  quantity: number;
  /** Inches, per handling unit. */
  length: number;
  width: number;
  height: number;
  /** Pounds, the line's total. */
  totalWeight: number;
  /** The class the shipper gave; the density class is used when absent. */
  freightClass?: FreightClass;
}

export function cubicFeet(line: Pick<GoodsLine, 'quantity' | 'length' | 'width' | 'height'>): number {
  return (line.length * line.width * line.height * line.quantity) / 1728;
}

export function densityOf(line: GoodsLine): number {
  const cube = cubicFeet(line);
  return cube > 0 ? line.totalWeight / cube : 0;
}

export function classForDensity(density: number): FreightClass {
  for (const [min, cls] of DENSITY_SCALE) if (density >= min) return cls;
  return '400';
}

/** A weight break: charges per hundredweight apply from `minWeight` pounds up to the next break. */
export interface WeightBreak {
  minWeight: number;
}

export interface LtlTariff {
  /** Ascending; the first usually starts at 0. */
  breaks: readonly WeightBreak[];
  /** Cents per hundredweight, by class, one per break. */
  rates: Partial<Record<FreightClass, readonly number[]>>;
  /** Cents, after discount. */
  minimumCharge: number;
  /** Basis points off the class-rated charge (7000 = 70 %). */
  discountBp: number;
  /** Basis points of the linehaul. */
  fuelBp: number;
}

export interface FtlTariff {
  /** Cents for the lane, when priced by lane. */
  flatRate?: number;
  /** Cents per mile with the lane's miles, when priced by mileage. */
  ratePerMile?: number;
  miles?: number;
  minimumCharge: number;
  fuelBp: number;
  /** Pounds one truck takes. */
  maxWeight: number;
}

export const ACCESSORIALS = [
  'liftgate_pickup',
  'liftgate_delivery',
  'residential_pickup',
  'residential_delivery',
  'inside_delivery',
  'appointment',
  'limited_access',
  'hazardous',
  'notify',
] as const;
export type Accessorial = (typeof ACCESSORIALS)[number];

export interface InsuranceTerms {
  /** Basis points of the insured value. */
  rateBp: number;
  /** Cents. */
  minimumPremium: number;
  /** Cents the shipper bears of a claim. */
  deductible: number;
}

export interface RatingInput {
  mode: 'LTL' | 'FTL';
  lines: readonly GoodsLine[];
  accessorials: readonly Accessorial[];
  /** Cents of declared value to insure; 0 or absent for none. */
  insuredValue?: number;
}

export interface RatingTariff {
  ltl?: LtlTariff;
  ftl?: FtlTariff;
  accessorialFees: Partial<Record<Accessorial, number>>;
  insurance: InsuranceTerms;
}

export interface RatedLine {
  freightClass: FreightClass;
  suggestedClass: FreightClass;
  density: number;
  weight: number;
  rate: number;
  charge: number;
}

export interface RatingBreakdown {
  lines: RatedLine[];
  totalWeight: number;
  /** The break whose rates were used; differs from the actual one when deficit weight was cheaper. */
  breakIndex: number;
  deficitWeight: number;
  deficitCharge: number;
  grossCharge: number;
  discount: number;
  /** After discount, raised to the minimum charge. */
  linehaul: number;
  minimumApplied: boolean;
  fuel: number;
  accessorials: { code: Accessorial; fee: number }[];
  insurance: { premium: number; deductible: number; insuredValue: number } | null;
  total: number;
}

export type RatingResult = { ok: true; breakdown: RatingBreakdown } | { ok: false; reason: RatingRefusal };

/** Why a tariff cannot price a shipment; the quote becomes a manual quotation task. */
export type RatingRefusal =
  | 'no_tariff'
  | 'class_not_rated'
  | 'over_truck_capacity'
  | 'accessorial_not_offered'
  | 'empty';

/** Integer division rounding half up, exact for any size (bigint). */
const roundDiv = (numerator: bigint, denominator: bigint) =>
  (numerator * 2n + denominator) / (denominator * 2n);

/**
 * `x × y ÷ divisor` rounded as `roundDiv` rounds, exact for any size: in numbers while every step is a
 * safe integer (a quote's amounts always are, and a bigint per step was most of a quote's rating
 * time), else in bigint, which also refuses a fraction as it always did.
 */
function mulDivRound(x: number, y: number, divisor: number): number {
  const product = x * y;
  const numerator = product * 2 + divisor;
  const denominator = divisor * 2;
  if (
    Number.isSafeInteger(x) &&
    Number.isSafeInteger(y) &&
    Number.isSafeInteger(product) &&
    Number.isSafeInteger(numerator) &&
    Number.isSafeInteger(denominator)
  )
    // `%` keeps the dividend's sign, so this truncates toward zero as bigint division does.
    return (numerator - (numerator % denominator)) / denominator;
  return Number(roundDiv(BigInt(x) * BigInt(y), BigInt(divisor)));
}
const bp = (cents: number, basisPoints: number) => mulDivRound(cents, basisPoints, 10_000);
/** Cents for `weight` pounds at `rate` cents per hundredweight. */
const perCwt = (weight: number, rate: number) => mulDivRound(Math.round(weight * 100), rate, 10_000);

/** The premium for insuring a value (cents): a share of it, never below the minimum premium. */
export function insurancePremium(insuredValue: number, terms: InsuranceTerms): number {
  return insuredValue > 0 ? Math.max(bp(insuredValue, terms.rateBp), terms.minimumPremium) : 0;
}

function breakIndexFor(breaks: readonly WeightBreak[], weight: number): number {
  let index = 0;
  breaks.forEach((b, i) => {
    if (weight >= b.minWeight) index = i;
  });
  return index;
}

/**
 * Each line's charge at one weight break, or null for a line whose class has no rate there. At module
 * level rather than inside `rateLtl`: the server runs through a transpiler that names every inner
 * function as it is made, a cost paid on every product of every quote.
 */
function chargeAt(
  tariff: LtlTariff,
  rated: readonly {
    line: GoodsLine;
    density: number;
    suggestedClass: FreightClass;
    freightClass: FreightClass;
  }[],
  breakIndex: number,
) {
  return rated.map((r) => {
    const rate = tariff.rates[r.freightClass]?.[breakIndex];
    if (rate === undefined) return null;
    // Fields named, not spread: V8 adds properties after a spread slowly, and this runs for every
    // line at two breaks of every product of every quote.
    const { line, density, suggestedClass, freightClass } = r;
    return { line, density, suggestedClass, freightClass, rate, charge: perCwt(line.totalWeight, rate) };
  });
}

function rateLtl(tariff: LtlTariff, lines: readonly GoodsLine[]) {
  const rated = lines.map((line) => {
    const density = densityOf(line);
    const suggestedClass = classForDensity(density);
    return { line, density, suggestedClass, freightClass: line.freightClass ?? suggestedClass };
  });
  const totalWeight = lines.reduce((sum, l) => sum + l.totalWeight, 0);
  const actualBreak = breakIndexFor(tariff.breaks, totalWeight);
  const actual = chargeAt(tariff, rated, actualBreak);
  if (actual.some((r) => r === null)) return null;
  const actualLines = actual as NonNullable<(typeof actual)[number]>[];
  let best = {
    breakIndex: actualBreak,
    lines: actualLines,
    deficitWeight: 0,
    deficitCharge: 0,
    gross: actualLines.reduce((s, r) => s + r.charge, 0),
  };
  // Deficit weight: rating the shipment as if it weighed the next break's minimum may cost less; the
  // missing pounds are charged at the lowest-rated class of the shipment.
  const next = actualBreak + 1;
  const nextBreak = tariff.breaks[next];
  if (nextBreak) {
    const atNext = chargeAt(tariff, rated, next);
    if (atNext.every((r) => r !== null)) {
      const nextLines = atNext as NonNullable<(typeof atNext)[number]>[];
      const deficitWeight = nextBreak.minWeight - totalWeight;
      const lowestRate = Math.min(...nextLines.map((r) => r.rate));
      const deficitCharge = perCwt(deficitWeight, lowestRate);
      const gross = nextLines.reduce((s, r) => s + r.charge, 0) + deficitCharge;
      if (gross < best.gross)
        best = { breakIndex: next, lines: nextLines, deficitWeight, deficitCharge, gross };
    }
  }
  return { totalWeight, ...best };
}

export function rateShipment(input: RatingInput, tariff: RatingTariff): RatingResult {
  if (input.lines.length === 0 || input.lines.some((l) => l.totalWeight <= 0 || l.quantity <= 0))
    return { ok: false, reason: 'empty' };
  const accessorials: { code: Accessorial; fee: number }[] = [];
  for (const code of input.accessorials) {
    const fee = tariff.accessorialFees[code];
    if (fee === undefined) return { ok: false, reason: 'accessorial_not_offered' };
    accessorials.push({ code, fee });
  }

  let lines: RatedLine[];
  let totalWeight: number;
  let breakIndex = 0;
  let deficitWeight = 0;
  let deficitCharge = 0;
  let grossCharge: number;
  let discount = 0;
  let minimumCharge: number;
  let fuelBp: number;

  if (input.mode === 'LTL') {
    if (!tariff.ltl) return { ok: false, reason: 'no_tariff' };
    const rated = rateLtl(tariff.ltl, input.lines);
    if (!rated) return { ok: false, reason: 'class_not_rated' };
    lines = rated.lines.map((r) => ({
      freightClass: r.freightClass,
      suggestedClass: r.suggestedClass,
      density: Math.round(r.density * 100) / 100,
      weight: r.line.totalWeight,
      rate: r.rate,
      charge: r.charge,
    }));
    totalWeight = rated.totalWeight;
    breakIndex = rated.breakIndex;
    deficitWeight = rated.deficitWeight;
    deficitCharge = rated.deficitCharge;
    grossCharge = rated.gross;
    discount = bp(grossCharge, tariff.ltl.discountBp);
    minimumCharge = tariff.ltl.minimumCharge;
    fuelBp = tariff.ltl.fuelBp;
  } else {
    const ftl = tariff.ftl;
    if (!ftl) return { ok: false, reason: 'no_tariff' };
    totalWeight = input.lines.reduce((s, l) => s + l.totalWeight, 0);
    if (totalWeight > ftl.maxWeight) return { ok: false, reason: 'over_truck_capacity' };
    const byMileage = ftl.ratePerMile !== undefined && ftl.miles !== undefined;
    if (ftl.flatRate === undefined && !byMileage) return { ok: false, reason: 'no_tariff' };
    grossCharge = ftl.flatRate ?? Math.round((ftl.ratePerMile ?? 0) * (ftl.miles ?? 0));
    lines = input.lines.map((l) => {
      const density = densityOf(l);
      const suggestedClass = classForDensity(density);
      return {
        freightClass: l.freightClass ?? suggestedClass,
        suggestedClass,
        density: Math.round(density * 100) / 100,
        weight: l.totalWeight,
        rate: 0,
        charge: 0,
      };
    });
    minimumCharge = ftl.minimumCharge;
    fuelBp = ftl.fuelBp;
  }

  const discounted = grossCharge - discount;
  const linehaul = Math.max(discounted, minimumCharge);
  const fuel = bp(linehaul, fuelBp);
  const insuredValue = input.insuredValue ?? 0;
  const insurance =
    insuredValue > 0
      ? {
          premium: insurancePremium(insuredValue, tariff.insurance),
          deductible: tariff.insurance.deductible,
          insuredValue,
        }
      : null;
  const total = linehaul + fuel + accessorials.reduce((s, a) => s + a.fee, 0) + (insurance?.premium ?? 0);
  return {
    ok: true,
    breakdown: {
      lines,
      totalWeight,
      breakIndex,
      deficitWeight,
      deficitCharge,
      grossCharge,
      discount,
      linehaul,
      minimumApplied: linehaul > discounted,
      fuel,
      accessorials,
      insurance,
      total,
    },
  };
}
