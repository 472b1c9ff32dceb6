import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  type ChannelTerms,
  DEFAULT_RATING_RULES,
  type ExpressShipment,
  type Packaging,
  type Parcel,
  type PriceTable,
  type RatingRules,
  rateExpress,
  type SurchargeRule,
} from './express-rating.ts';

/**
 * Golden tests from published cards (test-fixtures/rate-cards, sources in its README). Each test
 * names the rule of the service guide it checks; the expected figure is read from the card and worked
 * out here by that rule, never taken from the engine.
 */

interface Card {
  zones: string[];
  pounds: { weight: number; prices: number[] }[];
}
const card = (name: string): Card =>
  JSON.parse(readFileSync(new URL(`../test-fixtures/rate-cards/${name}`, import.meta.url), 'utf8'));

/** The card's price of a whole-pound weight in a zone. */
const priceOf = (c: Card, pounds: number, zone: string) => {
  const row = c.pounds.find((p) => p.weight === pounds);
  const price = row?.prices[c.zones.indexOf(zone)];
  if (price === undefined) throw new Error(`no ${pounds} lb row for zone ${zone}`);
  return price;
};

const halfUpPercent = (cents: number, bp: number) => Math.floor((cents * bp + 5_000) / 10_000);

const rule = (fields: Partial<SurchargeRule> & Pick<SurchargeRule, 'name' | 'trigger'>): SurchargeRule => ({
  over: 0,
  values: [],
  fee: 0,
  feeByZone: {},
  fuel: true,
  group: '',
  replaces: [],
  minBillable: 0,
  ...fields,
});

const parcel = (
  length: number,
  width: number,
  height: number,
  weight: number,
  more: Partial<Parcel> = {},
): Parcel => ({ quantity: 1, length, width, height, weight, declaredValue: 0, ...more });

/** One destination ZIP3 per zone from an origin in 900-935; the test charts need nothing more. */
const ZONE_ZIPS: Record<string, string> = {
  '1': '90001',
  '2': '91001',
  '3': '85001',
  '4': '80001',
  '5': '75201',
  '6': '60601',
  '7': '30301',
  '8': '10001',
};
const chart = (zones: readonly string[]) =>
  zones.map((zone) => {
    const zip3 = (ZONE_ZIPS[zone] ?? '').slice(0, 3);
    return { originFrom: '900', originTo: '935', destFrom: zip3, destTo: zip3, country: '', zone };
  });

const shipTo = (zone: string, parcels: Parcel[], more: Partial<ExpressShipment> = {}): ExpressShipment => ({
  unitSystem: 'lb_in',
  originZip: '90012',
  destinationCountry: 'US',
  destinationZip: ZONE_ZIPS[zone] ?? '',
  residential: false,
  signature: false,
  parcels,
  shipDate: '2025-08-04',
  ...more,
});

/* ---------- FedEx Ground, Service Guide effective 2025-01-06 (updated 2025-07-14) ---------- */

const fedexCard = card('fedex-ground.json');
const fedexTable: PriceTable = {
  zones: fedexCard.zones,
  brackets: fedexCard.pounds.map((p) => ({ weight: p.weight, prices: p.prices })),
  additional: null,
  minimums: [],
};
/** The guide's zone bands of its non-standard fees: 2, 3-4, 5-6, 7 and up. */
const byBand = (zone2: number, zones34: number, zones56: number, zones7up: number) => ({
  '2': zone2,
  '3': zones34,
  '4': zones34,
  '5': zones56,
  '6': zones56,
  '7': zones7up,
  '8': zones7up,
});
const AHS_DIMENSION = byBand(2800, 3100, 3600, 3800);
const AHS_WEIGHT = byBand(4350, 4750, 5275, 5500);
const AHS_PACKAGING = byBand(2500, 2900, 3100, 3150);
const OVERSIZE = byBand(24_000, 26_000, 29_750, 30_500);

const fedexRules: RatingRules = {
  ...DEFAULT_RATING_RULES,
  dimRounding: 'nearest',
  beyondLastWeight: 'prorate',
  surchargeRules: [
    // Additional Handling: one charge a package, the dearest kind that applies.
    ...(['longest', 'second', 'length_girth'] as const).map((trigger) =>
      rule({
        name: 'Additional Handling - Dimensions',
        trigger,
        over: { longest: 48, second: 30, length_girth: 105 }[trigger],
        feeByZone: AHS_DIMENSION,
        group: 'ahs',
        minBillable: 40,
      }),
    ),
    rule({
      name: 'Additional Handling - Weight',
      trigger: 'weight',
      over: 50,
      feeByZone: AHS_WEIGHT,
      group: 'ahs',
    }),
    rule({
      name: 'Additional Handling - Packaging',
      trigger: 'packaging',
      values: ['not_encased', 'cylinder', 'wood', 'metal'],
      feeByZone: AHS_PACKAGING,
      group: 'ahs',
    }),
    // Oversize, and no Additional Handling on a package that pays it.
    ...(['longest', 'length_girth'] as const).map((trigger) =>
      rule({
        name: 'Oversize',
        trigger,
        over: { longest: 96, length_girth: 130 }[trigger],
        feeByZone: OVERSIZE,
        group: 'oversize',
        replaces: ['ahs'],
        minBillable: 90,
      }),
    ),
    rule({ name: 'Residential', trigger: 'residential', fee: 595 }),
  ],
};
const fedexGround: ChannelTerms = {
  scope: 'domestic',
  unitSystem: 'lb_in',
  dimDivisor: 139,
  limits: { maxWeight: 150, maxLength: 108, maxLengthGirth: 165 },
  zones: chart(fedexCard.zones),
  prices: fedexTable,
  surcharges: {
    fuelBp: 0,
    residential: 0,
    signature: 0,
    deliveryAreas: [],
    additionalHandling: null,
    largePackage: null,
    declaredValue: null,
  },
  rules: fedexRules,
};

const rated = (channel: ChannelTerms, shipment: ExpressShipment) => {
  const result = rateExpress(channel, shipment);
  if (!result.ok) throw new Error(`refused: ${result.reason}`);
  return result.breakdown;
};
const ruleFees = (channel: ChannelTerms, shipment: ExpressShipment) =>
  rated(channel, shipment).surcharges.map((s) => [s.name ?? s.code, s.fee]);

describe('FedEx Ground: dimensions are rounded to the nearest inch before anything is measured', () => {
  it('12.4 in counts as 12: 12.4 x 12.4 x 12.4 is 12 x 12 x 12 = 1,728 in³, / 139 = 12.43, billed 13 lb', () => {
    const b = rated(fedexGround, shipTo('5', [parcel(12.4, 12.4, 12.4, 2)]));
    expect(b.billableWeight).toBe(13);
    expect(b.freight).toBe(priceOf(fedexCard, 13, '5'));
  });

  it('exactly .5 rounds up: 10.5 in cubed is 11 x 11 x 11 = 1,331 in³, / 139 = 9.58, billed 10 lb', () => {
    const b = rated(fedexGround, shipTo('3', [parcel(10.5, 10.5, 10.5, 1)]));
    expect(b.billableWeight).toBe(10);
    expect(b.freight).toBe(priceOf(fedexCard, 10, '3'));
  });

  it('10.6 counts as 11 and 8.4 as 8: 20 x 10.6 x 8.4 is 20 x 11 x 8 = 1,760 in³, / 139 = 12.66, billed 13 lb', () => {
    const b = rated(fedexGround, shipTo('8', [parcel(20, 10.6, 8.4, 5)]));
    expect(b.parcels[0]?.sides).toEqual([20, 11, 8]);
    expect(b.freight).toBe(priceOf(fedexCard, 13, '8'));
  });

  it('a length of 108.4 in counts as 108, the longest the service takes; 108.5 counts as 109 and is refused', () => {
    expect(rateExpress(fedexGround, shipTo('2', [parcel(108.4, 6, 6, 20)])).ok).toBe(true);
    expect(rateExpress(fedexGround, shipTo('2', [parcel(108.5, 6, 6, 20)]))).toEqual({
      ok: false,
      reason: 'oversize',
    });
  });

  it('centimetres are converted, then rounded: 30 x 25 x 20 cm is 11.81 x 9.84 x 7.87 in, measured 12 x 10 x 8', () => {
    // 960 in³ / 139 = 6.91, billed 7 lb; 2 kg is 4.41 lb, billed 5 lb: the dimensional weight wins.
    const b = rated(fedexGround, shipTo('6', [parcel(30, 25, 20, 2)], { unitSystem: 'kg_cm' }));
    expect(b.parcels[0]?.sides).toEqual([12, 10, 8]);
    expect(b.billableWeight).toBe(7);
    expect(b.freight).toBe(priceOf(fedexCard, 7, '6'));
  });

  it('any fraction of a pound is billed as the next pound: 20.1 lb in a small box bills 21 lb', () => {
    const b = rated(fedexGround, shipTo('4', [parcel(10, 8, 6, 20.1)]));
    expect(b.freight).toBe(priceOf(fedexCard, 21, '4'));
  });
});

describe('FedEx Ground: a billable weight above 150 lb is priced by prorating the 150 lb rate per pound', () => {
  it('40 x 30 x 30 in at 80 lb bills 36,000 / 139 = 258.99, so 259 lb: the 150 lb rate x 259 / 150', () => {
    const b = rated(fedexGround, shipTo('7', [parcel(40, 30, 30, 80)]));
    const rate150 = priceOf(fedexCard, 150, '7');
    // Half up to the cent, once: the rounding the product documents.
    expect(b.freight).toBe(Math.floor((rate150 * 259) / 150 + 0.5));
    expect(b.parcels[0]?.prorated).toBe(true);
    // Its length plus girth, 40 + 2 x (30 + 30) = 160 in, is over 130: Oversize, and no Additional
    // Handling beside it, though 160 is over 105 too.
    expect(b.surcharges).toEqual([{ code: 'rule', fee: OVERSIZE['7'], name: 'Oversize' }]);
  });

  it('exactly 150 lb is the card row, not prorated', () => {
    const b = rated(fedexGround, shipTo('2', [parcel(10, 10, 10, 150)]));
    expect(b.freight).toBe(priceOf(fedexCard, 150, '2'));
    expect(b.parcels[0]?.prorated).toBeUndefined();
  });

  it('a channel that refuses past its last row refuses the same parcel', () => {
    const refusing = { ...fedexGround, rules: { ...fedexRules, beyondLastWeight: 'refuse' as const } };
    expect(rateExpress(refusing, shipTo('7', [parcel(40, 30, 30, 80)]))).toEqual({
      ok: false,
      reason: 'no_price',
    });
  });
});

describe('FedEx Ground: Additional Handling and Oversize by zone, from the non-standard fees', () => {
  it('longest side 48 in is not over 48: no charge; 48.4 is measured 48: none; 48.5 is 49: dimension AHS', () => {
    expect(ruleFees(fedexGround, shipTo('3', [parcel(48, 10, 8, 10)]))).toEqual([]);
    expect(ruleFees(fedexGround, shipTo('3', [parcel(48.4, 10, 8, 10)]))).toEqual([]);
    expect(ruleFees(fedexGround, shipTo('3', [parcel(48.5, 10, 8, 10)]))).toEqual([
      ['Additional Handling - Dimensions', AHS_DIMENSION['3']],
    ]);
  });

  it('dimension AHS bills at least 40 lb: 49 x 10 x 8 at 10 lb is 3,920 / 139 = 28.2, billed 40 lb', () => {
    const b = rated(fedexGround, shipTo('3', [parcel(49, 10, 8, 10)]));
    expect(b.billableWeight).toBe(40);
    expect(b.freight).toBe(priceOf(fedexCard, 40, '3'));
  });

  it('second side over 30 in and length plus girth over 105 in each set it off', () => {
    expect(ruleFees(fedexGround, shipTo('2', [parcel(40, 31, 5, 10)]))).toEqual([
      ['Additional Handling - Dimensions', AHS_DIMENSION['2']],
    ]);
    // 45 + 2 x (15 + 15) = 105: not over. 45 + 2 x (15 + 16) = 107: over.
    expect(ruleFees(fedexGround, shipTo('2', [parcel(45, 15, 15, 10)]))).toEqual([]);
    expect(ruleFees(fedexGround, shipTo('2', [parcel(45, 16, 15, 10)]))).toEqual([
      ['Additional Handling - Dimensions', AHS_DIMENSION['2']],
    ]);
  });

  it('weight AHS over 50 lb actual, by zone band: 50 lb pays none, 50.5 lb pays it', () => {
    expect(ruleFees(fedexGround, shipTo('8', [parcel(20, 15, 10, 50)]))).toEqual([]);
    for (const zone of ['2', '4', '6', '8'])
      expect(ruleFees(fedexGround, shipTo(zone, [parcel(20, 15, 10, 50.5)]))).toEqual([
        ['Additional Handling - Weight', AHS_WEIGHT[zone as keyof typeof AHS_WEIGHT]],
      ]);
  });

  it('a package over both a length and the weight pays Additional Handling once, the dearer kind', () => {
    const b = rated(fedexGround, shipTo('5', [parcel(49, 10, 8, 60)]));
    expect(b.surcharges).toEqual([
      { code: 'rule', fee: AHS_WEIGHT['5'], name: 'Additional Handling - Weight' },
    ]);
    expect(b.billableWeight).toBe(60);
  });

  it('packaging AHS: a cylinder pays it, a box does not', () => {
    const tube = (packaging: Packaging) => shipTo('2', [parcel(30, 6, 6, 5, { packaging })]);
    expect(ruleFees(fedexGround, tube('cylinder'))).toEqual([
      ['Additional Handling - Packaging', AHS_PACKAGING['2']],
    ]);
    expect(ruleFees(fedexGround, tube('box'))).toEqual([]);
  });

  it('Oversize over 96 in long bills at least 90 lb: 97 x 10 x 10 at 30 lb', () => {
    // Measured 97 x 10 x 10 = 9,700 / 139 = 69.8, under 90: billed 90 lb.
    const b = rated(fedexGround, shipTo('4', [parcel(97, 10, 10, 30)]));
    expect(b.billableWeight).toBe(90);
    expect(b.freight).toBe(priceOf(fedexCard, 90, '4'));
    expect(b.surcharges).toEqual([{ code: 'rule', fee: OVERSIZE['4'], name: 'Oversize' }]);
  });

  it('two identical pieces pay each charge twice', () => {
    const b = rated(
      fedexGround,
      shipTo('6', [parcel(20, 15, 10, 55, { quantity: 2 })], { residential: true }),
    );
    expect(b.freight).toBe(2 * priceOf(fedexCard, 55, '6'));
    expect(b.surcharges).toEqual([
      { code: 'rule', fee: 2 * AHS_WEIGHT['6'], name: 'Additional Handling - Weight' },
      { code: 'rule', fee: 2 * 595, name: 'Residential' },
    ]);
  });
});

describe('Fuel: an effective-dated weekly percentage on the freight and the surcharges it applies to', () => {
  const weekly = {
    ...fedexGround,
    surcharges: { ...fedexGround.surcharges, fuelBp: 1_500 },
    rules: {
      ...fedexRules,
      fuel: [
        { from: '2025-08-04', bp: 1_800 },
        { from: '2025-08-11', bp: 1_850 },
      ],
    },
  };
  const home = (shipDate: string) =>
    shipTo('5', [parcel(20, 15, 10, 55)], { residential: true, shipDate: shipDate });
  const charged = priceOf(fedexCard, 55, '5') + AHS_WEIGHT['5'] + 595;

  it('the week of the ship date sets the rate: 18 % through 10 August, 18.5 % from 11 August', () => {
    expect(rated(weekly, home('2025-08-10')).fuel).toBe(halfUpPercent(charged, 1_800));
    const next = rated(weekly, home('2025-08-11'));
    expect(next.fuel).toBe(halfUpPercent(charged, 1_850));
    expect(next.fuelBp).toBe(1_850);
    expect(next.total).toBe(charged + halfUpPercent(charged, 1_850));
  });

  it("before the first row the channel's own percentage applies", () => {
    expect(rated(weekly, home('2025-08-01')).fuel).toBe(halfUpPercent(charged, 1_500));
  });

  it('a surcharge the carrier exempts from fuel is left out of its base', () => {
    const exempt = {
      ...weekly,
      rules: {
        ...weekly.rules,
        surchargeRules: weekly.rules.surchargeRules.map((r) =>
          r.name === 'Residential' ? { ...r, fuel: false } : r,
        ),
      },
    };
    expect(rated(exempt, home('2025-08-11')).fuel).toBe(halfUpPercent(charged - 595, 1_850));
  });
});

describe('Price tables with an effective date', () => {
  // The card in force before is the operator's own: the store holds no earlier FedEx card.
  const earlier: PriceTable = {
    ...fedexTable,
    brackets: fedexTable.brackets.map((b) => ({
      ...b,
      prices: b.prices.map((p) => (p == null ? p : p - 100)),
    })),
  };
  const switching: ChannelTerms = {
    ...fedexGround,
    prices: earlier,
    scheduledPrices: [{ effectiveFrom: '2025-01-06', prices: fedexTable }],
  };

  it('the day before the card takes effect prices from the old table, the day itself from the new', () => {
    // 6 x 6 x 6 = 216 in³ / 139 = 1.55: the 3 lb actual weight bills.
    const box = [parcel(6, 6, 6, 3)];
    expect(rated(switching, shipTo('5', box, { shipDate: '2025-01-05' })).freight).toBe(
      priceOf(fedexCard, 3, '5') - 100,
    );
    const onTheDay = rated(switching, shipTo('5', box, { shipDate: '2025-01-06' }));
    expect(onTheDay.freight).toBe(priceOf(fedexCard, 3, '5'));
    expect(onTheDay.pricesFrom).toBe('2025-01-06');
  });
});

describe('Zone charts: five-digit exceptions over the ZIP3 ranges', () => {
  const withException: ChannelTerms = {
    ...fedexGround,
    zones: [
      ...chart(fedexCard.zones),
      // 100-104 is zone 8 from 900-935; one ZIP5 range inside it is priced as zone 7.
      { originFrom: '900', originTo: '935', destFrom: '10040', destTo: '10045', country: '', zone: '7' },
    ],
  };

  it('a ZIP5 inside the exception takes its zone; its neighbours keep the ZIP3 zone', () => {
    const box = [parcel(10, 8, 6, 3)];
    expect(rated(withException, shipTo('8', box, { destinationZip: '10040' })).zone).toBe('7');
    expect(rated(withException, shipTo('8', box, { destinationZip: '10045' })).zone).toBe('7');
    expect(rated(withException, shipTo('8', box, { destinationZip: '10039' })).zone).toBe('8');
    expect(rated(withException, shipTo('8', box, { destinationZip: '10046' })).zone).toBe('8');
  });
});

/* ---------- USPS Ground Advantage, Commercial, Notice 123 effective 2026-07-12 ---------- */

interface UspsCard extends Card {
  ounces: { ounces_not_over: number; prices: number[] }[];
}
const uspsCard = card('usps-ground-advantage.json') as UspsCard;
const uspsPrice = (pounds: number, zone: string) => priceOf(uspsCard, pounds, zone);
const uspsOunces = (notOver: number, zone: string) => {
  const row = uspsCard.ounces.find((o) => o.ounces_not_over === notOver);
  return row?.prices[uspsCard.zones.indexOf(zone)];
};
const uspsGround: ChannelTerms = {
  scope: 'domestic',
  unitSystem: 'lb_in',
  dimDivisor: 139,
  limits: { maxWeight: 70, maxLength: 130, maxLengthGirth: 130 },
  zones: chart(uspsCard.zones),
  prices: {
    zones: uspsCard.zones,
    brackets: [
      ...uspsCard.ounces.map((o) => ({ weight: o.ounces_not_over / 16, prices: o.prices })),
      ...uspsCard.pounds.map((p) => ({ weight: p.weight, prices: p.prices })),
    ],
    additional: null,
    minimums: [],
  },
  surcharges: fedexGround.surcharges,
  rules: {
    ...DEFAULT_RATING_RULES,
    dimThreshold: 1_728,
    underOneUnit: { step: 0 },
    beyondLastWeight: 'refuse',
    surchargeRules: [
      rule({ name: 'Nonstandard length > 22 in', trigger: 'longest', over: 22, fee: 450, group: 'length' }),
      rule({ name: 'Nonstandard length > 30 in', trigger: 'longest', over: 30, fee: 1_000, group: 'length' }),
      rule({ name: 'Nonstandard volume > 2 cu ft', trigger: 'volume', over: 3_456, fee: 2_100 }),
    ],
  },
};

describe('USPS Ground Advantage: ounce tiers under a pound, whole pounds above', () => {
  it('10 oz is priced at the 12 oz tier and 15.5 oz at the 15.999 oz tier, with no rounding to a pound', () => {
    expect(rated(uspsGround, shipTo('5', [parcel(9, 6, 2, 10 / 16)])).freight).toBe(uspsOunces(12, '5'));
    expect(rated(uspsGround, shipTo('8', [parcel(9, 6, 2, 15.5 / 16)])).freight).toBe(
      uspsOunces(15.999, '8'),
    );
  });

  it('exactly 4 oz is the 4 oz tier; exactly 1 lb the 1 lb row; 1.01 lb the 2 lb row', () => {
    expect(rated(uspsGround, shipTo('1', [parcel(9, 6, 2, 0.25)])).freight).toBe(uspsOunces(4, '1'));
    expect(rated(uspsGround, shipTo('1', [parcel(9, 6, 2, 1)])).freight).toBe(uspsPrice(1, '1'));
    expect(rated(uspsGround, shipTo('1', [parcel(9, 6, 2, 1.01)])).freight).toBe(uspsPrice(2, '1'));
  });

  it('past 70 lb the card has no row and the channel refuses', () => {
    expect(rateExpress(uspsGround, shipTo('3', [parcel(9, 6, 2, 70.5)])).ok).toBe(false);
  });
});

describe('USPS Ground Advantage: dimensional weight only above one cubic foot', () => {
  it('12 x 12 x 12 = 1,728 in³ is not above it: a 1 lb parcel pays 1 lb', () => {
    const b = rated(uspsGround, shipTo('4', [parcel(12, 12, 12, 1)]));
    expect(b.parcels[0]?.dimWeight).toBe(0);
    expect(b.freight).toBe(uspsPrice(1, '4'));
  });

  it('12 x 12 x 12.25 = 1,764 in³ is: / 139 = 12.69, billed 13 lb', () => {
    const b = rated(uspsGround, shipTo('4', [parcel(12, 12, 12.25, 1)]));
    expect(b.freight).toBe(uspsPrice(13, '4'));
  });

  it('sides are not rounded: 12.4 in stays 12.4', () => {
    const b = rated(uspsGround, shipTo('2', [parcel(12.4, 12, 11.6, 1)]));
    // 12.4 x 12 x 11.6 = 1,726.08 in³: not above 1,728.
    expect(b.freight).toBe(uspsPrice(1, '2'));
  });
});

describe('USPS Ground Advantage: nonstandard fees', () => {
  it('longer than 22 in pays $4.50; longer than 30 in pays $10.00 instead; exactly 22 pays none', () => {
    expect(ruleFees(uspsGround, shipTo('3', [parcel(22, 6, 4, 2)]))).toEqual([]);
    expect(ruleFees(uspsGround, shipTo('3', [parcel(23, 6, 4, 2)]))).toEqual([
      ['Nonstandard length > 22 in', 450],
    ]);
    expect(ruleFees(uspsGround, shipTo('3', [parcel(31, 6, 4, 2)]))).toEqual([
      ['Nonstandard length > 30 in', 1_000],
    ]);
  });

  it('over two cubic feet (3,456 in³) pays $21.00, beside a length fee', () => {
    // 24 x 13 x 12 = 3,744 in³.
    expect(ruleFees(uspsGround, shipTo('6', [parcel(24, 13, 12, 5)]))).toEqual([
      ['Nonstandard length > 22 in', 450],
      ['Nonstandard volume > 2 cu ft', 2_100],
    ]);
  });
});

describe('Cubic tiers: each side rounded down to a quarter inch, cubic feet to the tier not exceeded', () => {
  // No published cubic card could be transcribed (README): these tier prices are the operator's own;
  // what is checked is which tier the rule puts a parcel in.
  const tiers = [0.1, 0.2, 0.3, 0.4, 0.5];
  const cubic: ChannelTerms = {
    ...uspsGround,
    prices: {
      ...uspsGround.prices,
      cubic: tiers.map((tier, i) => ({ tier, prices: uspsCard.zones.map(() => 500 + i * 100) })),
    },
    rules: { ...(uspsGround.rules as RatingRules), cubic: { roundDown: 0.25, maxWeight: 20, maxLongest: 0 } },
  };
  const tierPrice = (tier: number) => 500 + tiers.indexOf(tier) * 100;

  it('6 x 6 x 4.8 is measured 6 x 6 x 4.75 = 171 in³ = 0.099 cu ft: tier 0.1', () => {
    const b = rated(cubic, shipTo('5', [parcel(6, 6, 4.8, 9)]));
    expect(b.parcels[0]?.cubicTier).toBe(0.1);
    expect(b.freight).toBe(tierPrice(0.1));
  });

  it('12 x 7.2 x 2 is measured 12 x 7 x 2 = 168 in³, under 0.1 cu ft (172.8); 12 x 7.25 x 2 = 174 in³ is over: 0.2', () => {
    expect(rated(cubic, shipTo('5', [parcel(12, 7.2, 2, 1)])).parcels[0]?.cubicTier).toBe(0.1);
    expect(rated(cubic, shipTo('5', [parcel(12, 7.25, 2, 1)])).parcels[0]?.cubicTier).toBe(0.2);
  });

  it('over 20 lb, or over the last tier, the parcel is priced by weight', () => {
    expect(rated(cubic, shipTo('5', [parcel(6, 6, 4, 20.5)])).freight).toBe(uspsPrice(21, '5'));
    // 12 x 12 x 6.5 = 936 in³ = 0.54 cu ft.
    expect(rated(cubic, shipTo('5', [parcel(12, 12, 6.5, 2)])).freight).toBe(uspsPrice(2, '5'));
  });
});
