import { describe, expect, it } from 'vitest';
import {
  type ChannelTerms,
  declaredValueFee,
  type ExpressShipment,
  expressPriceLevels,
  findZone,
  type Parcel,
  rateExpress,
} from './express-rating.ts';

/**
 * Golden parcels, each priced by hand from these small tables (amounts in cents, weights in pounds,
 * sides in inches). Zones from origin ZIP3 900-935: 2 to 900-935, 5 to 750-799, 8 to 100-149, 9 to
 * 200-205 (a zone the price table has no column for).
 */
const ground: ChannelTerms = {
  scope: 'domestic',
  unitSystem: 'lb_in',
  dimDivisor: 139,
  limits: { maxWeight: 150, maxLength: 108, maxLengthGirth: 165 },
  zones: [
    { originFrom: '900', originTo: '935', destFrom: '900', destTo: '935', country: '', zone: '2' },
    { originFrom: '900', originTo: '935', destFrom: '750', destTo: '799', country: '', zone: '5' },
    { originFrom: '900', originTo: '935', destFrom: '100', destTo: '149', country: '', zone: '8' },
    { originFrom: '900', originTo: '935', destFrom: '200', destTo: '205', country: '', zone: '9' },
  ],
  prices: {
    zones: ['2', '5', '8'],
    brackets: [
      { weight: 1, prices: [900, 1100, 1400] },
      { weight: 2, prices: [1000, 1250, 1600] },
      { weight: 5, prices: [1300, 1700, 2300] },
      { weight: 10, prices: [1800, 2500, 3500] },
    ],
    additional: { unit: 1, prices: [120, 180, 260] },
    minimums: [950, 0, 0],
  },
  surcharges: {
    fuelBp: 1550,
    residential: 550,
    signature: 650,
    deliveryAreas: [
      { name: 'DAS', fee: 395, zips: ['75201', '10001'] },
      { name: 'Extended DAS', fee: 520, zips: ['10001'] },
    ],
    additionalHandling: { fee: 2800, longest: 48, secondLongest: 30, weight: 50 },
    largePackage: { fee: 12_000, longest: 96, lengthGirth: 130, minBillable: 90 },
    declaredValue: { freeCents: 10_000, per100: 130, minimum: 390 },
  },
};

const parcel = (
  length: number,
  width: number,
  height: number,
  weight: number,
  more: Partial<Parcel> = {},
) => ({
  quantity: 1,
  length,
  width,
  height,
  weight,
  declaredValue: 0,
  ...more,
});

const to = (
  destinationZip: string,
  parcels: Parcel[],
  more: Partial<ExpressShipment> = {},
): ExpressShipment => ({
  unitSystem: 'lb_in',
  originZip: '91761',
  destinationCountry: 'US',
  destinationZip,
  residential: false,
  signature: false,
  parcels,
  ...more,
});

const priced = (channel: ChannelTerms, shipment: ExpressShipment) => {
  const rating = rateExpress(channel, shipment);
  if (!rating.ok) throw new Error(`refused: ${rating.reason}`);
  return rating.breakdown;
};

describe('express rating: zones and brackets', () => {
  it('finds the zone by origin and destination ZIP3, and by country abroad', () => {
    expect(findZone(ground.zones, '91761', 'US', '90210')).toBe('2');
    expect(findZone(ground.zones, '93599', 'US', '75201')).toBe('5');
    expect(findZone(ground.zones, '94000', 'US', '75201')).toBeNull();
    expect(
      findZone(
        [{ originFrom: '900', originTo: '999', destFrom: '', destTo: '', country: 'CA', zone: 'A' }],
        '91761',
        'CA',
        'M5V',
      ),
    ).toBe('A');
  });

  it('bills the dimensional weight rounded up to the next pound, in the first bracket that holds it', () => {
    // 10×8×6 = 480 in³ / 139 = 3.45 lb > 3 lb actual → 4 lb → the 5 lb bracket of zone 2: 13.00.
    // Fuel 15.5 % of 13.00 = 2.015 → 2.02 (half up).
    const b = priced(ground, to('90210', [parcel(10, 8, 6, 3)]));
    expect(b.zone).toBe('2');
    expect(b.parcels[0]).toMatchObject({
      actualWeight: 3,
      dimWeight: 3.45,
      billableWeight: 4,
      freight: 1300,
    });
    expect(b).toMatchObject({ freight: 1300, surcharges: [], fuel: 202, total: 1502, billableWeight: 4 });
  });

  it('bills the actual weight when it is the greater, and a bracket weight exactly', () => {
    // 6×6×6 = 216 / 139 = 1.55 lb; 5 lb actual is exactly the 5 lb bracket of zone 5: 17.00.
    const b = priced(ground, to('75001', [parcel(6, 6, 6, 5)]));
    expect(b.parcels[0]).toMatchObject({ billableWeight: 5, freight: 1700 });
    // 17.00 + 15.5 % (2.635 → 2.64)
    expect(b.total).toBe(1964);
  });

  it('applies the zone minimum', () => {
    // 1 lb in zone 2 is 9.00, under the 9.50 minimum. Fuel 15.5 % of 9.50 = 1.4725 → 1.47.
    const b = priced(ground, to('90210', [parcel(4, 4, 4, 0.5)]));
    expect(b.parcels[0]).toMatchObject({ billableWeight: 1, freight: 950, minimumApplied: true });
    expect(b.total).toBe(1097);
  });

  it('prices past the last bracket by the additional pound, with residential, signature and the dearest area', () => {
    // Two pieces 12×12×12 at 8 lb: 1728 / 139 = 12.43 → 13 lb; zone 8: 35.00 + 3 × 2.60 = 42.80 each.
    // Each piece: residential 5.50, Extended DAS 5.20 (10001 is on both lists; the dearer wins), signature 6.50.
    // Freight 85.60; surcharges 11.00 + 10.40 + 13.00 = 34.40; fuel 15.5 % of 120.00 = 18.60.
    const b = priced(
      ground,
      to('10001', [parcel(12, 12, 12, 8, { quantity: 2 })], { residential: true, signature: true }),
    );
    expect(b.parcels[0]).toMatchObject({ billableWeight: 13, freight: 4280, quantity: 2 });
    expect(b.parcels[0]?.surcharges).toEqual([
      { code: 'residential', fee: 550 },
      { code: 'delivery_area', fee: 520, note: 'Extended DAS' },
      { code: 'signature', fee: 650 },
    ]);
    expect(b).toMatchObject({
      freight: 8560,
      surcharges: [
        { code: 'residential', fee: 1100 },
        { code: 'delivery_area', fee: 1040 },
        { code: 'signature', fee: 1300 },
      ],
      fuel: 1860,
      total: 13860,
      billableWeight: 26,
    });
  });
});

describe('express rating: handling, large packages and declared value', () => {
  it('charges additional handling for a long side, and for a heavy parcel', () => {
    // 50×20×10: longest 50 > 48. 10000 / 139 = 71.94 → 72 lb; zone 5: 25.00 + 62 × 1.80 = 136.60.
    // Fuel 15.5 % of (136.60 + 28.00) = 25.513 → 25.51.
    const long = priced(ground, to('75201', [parcel(50, 20, 10, 20)]));
    expect(long.parcels[0]?.surcharges).toEqual([
      { code: 'delivery_area', fee: 395, note: 'DAS' },
      { code: 'additional_handling', fee: 2800 },
    ]);
    // With 75201's DAS 3.95 as well: fuel 15.5 % of 168.55 = 26.12525 → 26.13.
    expect(long).toMatchObject({ freight: 13_660, fuel: 2613, total: 13_660 + 395 + 2800 + 2613 });
    // 10×10×10 at 55 lb: the weight rule; 55 lb in zone 2: 18.00 + 45 × 1.20 = 72.00.
    const heavy = priced(ground, to('90210', [parcel(10, 10, 10, 55)]));
    expect(heavy.parcels[0]).toMatchObject({ billableWeight: 55, freight: 7200 });
    expect(heavy.surcharges).toEqual([{ code: 'additional_handling', fee: 2800 }]);
  });

  it('charges a large package instead of additional handling, billed at least its minimum weight', () => {
    // 100×20×10: longest 100 > 96. 20000 / 139 = 143.88 → 144 lb; zone 2: 18.00 + 134 × 1.20 = 178.80.
    // Fuel 15.5 % of (178.80 + 120.00) = 46.314 → 46.31.
    const b = priced(ground, to('90210', [parcel(100, 20, 10, 30)]));
    expect(b.surcharges).toEqual([{ code: 'large_package', fee: 12_000 }]);
    expect(b).toMatchObject({ freight: 17_880, fuel: 4631, total: 34_511 });
    // Actual weight only: 40×25×25 (length + girth 140 > 130) at 20 lb bills 90 lb: 18.00 + 80 × 1.20.
    const actualOnly = priced({ ...ground, dimDivisor: 0 }, to('90210', [parcel(40, 25, 25, 20)]));
    expect(actualOnly.parcels[0]).toMatchObject({ dimWeight: 0, billableWeight: 90, freight: 11_400 });
  });

  it('charges declared value per 100.00 started past the free amount, at least the minimum, without fuel', () => {
    expect(declaredValueFee(ground.surcharges.declaredValue, 10_000)).toBe(0);
    // 250.00: 150.00 over → 2 hundreds × 1.30 = 2.60, under the 3.90 minimum.
    expect(declaredValueFee(ground.surcharges.declaredValue, 25_000)).toBe(390);
    // 1,000.00: 900.00 over → 9 × 1.30 = 11.70.
    expect(declaredValueFee(ground.surcharges.declaredValue, 100_000)).toBe(1170);
    const b = priced(ground, to('90210', [parcel(10, 8, 6, 3, { declaredValue: 100_000 })]));
    // Fuel stays 15.5 % of the 13.00 freight.
    expect(b).toMatchObject({
      freight: 1300,
      surcharges: [{ code: 'declared_value', fee: 1170 }],
      fuel: 202,
    });
    expect(b.total).toBe(1300 + 1170 + 202);
  });
});

describe('express rating: refusals', () => {
  it('refuses what the channel cannot take, and says why', () => {
    const refusal = (shipment: ExpressShipment, channel = ground) => {
      const r = rateExpress(channel, shipment);
      return r.ok ? null : r.reason;
    };
    expect(refusal(to('90210', [parcel(10, 10, 10, 151)]))).toBe('overweight');
    expect(refusal(to('90210', [parcel(10, 10, 10, 150)]))).toBeNull();
    expect(refusal(to('90210', [parcel(110, 10, 10, 10)]))).toBe('oversize');
    // 100 + 2 × (30 + 20) = 200 > 165
    expect(refusal(to('90210', [parcel(100, 30, 20, 10)]))).toBe('oversize');
    expect(refusal(to('90210', [parcel(10, 10, 10, 1)], { originZip: '10001' }))).toBe('no_zone');
    expect(refusal(to('20001', [parcel(10, 10, 10, 1)]))).toBe('no_price');
    expect(refusal(to('M5V', [parcel(10, 10, 10, 1)], { destinationCountry: 'CA' }))).toBe('wrong_scope');
    // Past the table with no additional-unit prices there is no price.
    expect(
      refusal(to('90210', [parcel(10, 10, 10, 11)]), {
        ...ground,
        prices: { ...ground.prices, additional: null },
      }),
    ).toBe('no_price');
  });
});

/** Kilograms and centimetres, rounded up to the next half kilogram; zones by country. */
const international: ChannelTerms = {
  scope: 'international',
  unitSystem: 'kg_cm',
  dimDivisor: 5000,
  limits: { maxWeight: 30, maxLength: 120, maxLengthGirth: 300 },
  zones: [
    { originFrom: '900', originTo: '999', destFrom: '', destTo: '', country: 'CA', zone: 'A' },
    { originFrom: '900', originTo: '999', destFrom: '', destTo: '', country: 'GB', zone: 'B' },
  ],
  prices: {
    zones: ['A', 'B'],
    brackets: [
      { weight: 0.5, prices: [2000, 3000] },
      { weight: 1, prices: [2600, 3800] },
      { weight: 2, prices: [3800, 5200] },
    ],
    additional: { unit: 0.5, prices: [500, 700] },
    minimums: [0, 0],
  },
  surcharges: {
    fuelBp: 2000,
    residential: 0,
    signature: 0,
    deliveryAreas: [],
    additionalHandling: null,
    largePackage: null,
    declaredValue: null,
  },
};

describe('express rating: kilograms and centimetres', () => {
  it('converts a parcel given in pounds and inches and rounds up to the next half kilogram', () => {
    // 12×10×8 in = 30.48×25.4×20.32 cm = 15,731.6 cm³ / 5000 = 3.15 kg > 0.91 kg actual → 3.5 kg.
    // Zone A: 38.00 + 3 half kilos × 5.00 = 53.00; fuel 20 % = 10.60.
    const b = priced(international, to('M5V 2T6', [parcel(12, 10, 8, 2)], { destinationCountry: 'CA' }));
    expect(b.zone).toBe('A');
    expect(b.parcels[0]).toMatchObject({
      actualWeight: 0.91,
      dimWeight: 3.15,
      billableWeight: 3.5,
      freight: 5300,
    });
    expect(b.total).toBe(6360);
  });

  it('takes a parcel in kilograms as it is, and a bracket weight exactly', () => {
    // 20×15×10 cm = 0.6 kg dim; 1.2 kg → 1.5 kg → the 2 kg bracket of zone B: 52.00 + 20 % = 62.40.
    const kg = { unitSystem: 'kg_cm' as const, destinationCountry: 'GB' };
    expect(priced(international, to('SW1A', [parcel(20, 15, 10, 1.2)], kg)).total).toBe(6240);
    // Exactly 1 kg is the 1 kg bracket: 38.00 + 7.60.
    expect(priced(international, to('SW1A', [parcel(20, 15, 10, 1)], kg)).total).toBe(4560);
    // 2 lb is 0.907 kg: still under 1 kg after conversion, never pushed up by the arithmetic.
    const twoPounds = priced(international, to('SW1A', [parcel(4, 4, 4, 2)], { destinationCountry: 'GB' }));
    expect(twoPounds.parcels[0]?.billableWeight).toBe(1);
  });
});

describe('express price levels', () => {
  it('marks up freight, surcharges and fuel by each level’s percentage, and the fixed amount on the freight', () => {
    const cost = priced(
      ground,
      to('10001', [parcel(12, 12, 12, 8, { quantity: 2 })], { residential: true, signature: true }),
    );
    const levels = expressPriceLevels(cost, [
      { organisationId: 2, type: 'branch', markup: { percentBp: 1000, fixedCents: 0 } },
      { organisationId: 5, type: 'agent', markup: { percentBp: 550, fixedCents: 100 } },
    ]);
    expect(levels.map((l) => l.total)).toEqual([
      13_860,
      // Branch: 85.60 + 10 % = 94.16; 12.10, 11.44, 14.30; fuel 18.60 + 10 % = 20.46 → 152.46
      15_246,
      // Agent: 94.16 + 5.5 % = 99.3388 → 99.34, + 1.00 = 100.34; 12.7655 → 12.77, 12.0692 → 12.07,
      // 15.0865 → 15.09; fuel 21.5853 → 21.59 → 161.86
      16_186,
    ]);
    expect(levels[1]).toMatchObject({ organisationId: 2, type: 'branch', freight: 9416, fuel: 2046 });
    expect(levels[2]?.surcharges).toEqual([
      { code: 'residential', fee: 1277 },
      { code: 'delivery_area', fee: 1207 },
      { code: 'signature', fee: 1509 },
    ]);
  });
});
