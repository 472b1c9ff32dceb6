import { describe, expect, it } from 'vitest';
import { priceChain } from './customers.ts';
import { type GoodsLine, type RatingInput, type RatingTariff, rateShipment } from './truck-rating.ts';

/**
 * Golden shipments, each priced by hand from this small tariff (amounts in cents, rates in cents per
 * hundredweight). Breaks: 0, 500, 1000, 2000, 5000, 10000 lb. Discount 40 %, fuel 25 %, minimum 150.00.
 */
const tariff: RatingTariff = {
  ltl: {
    breaks: [0, 500, 1000, 2000, 5000, 10000].map((minWeight) => ({ minWeight })),
    rates: {
      '50': [3000, 2500, 2000, 1600, 1200, 900],
      '70': [4000, 3300, 2700, 2200, 1700, 1300],
      '100': [5500, 4500, 3600, 2900, 2200, 1700],
      '125': [6500, 5300, 4300, 3400, 2600, 2000],
      '250': [10000, 8200, 6600, 5300, 4000, 3100],
    },
    minimumCharge: 15_000,
    discountBp: 4_000,
    fuelBp: 2_500,
  },
  ftl: { flatRate: 180_000, minimumCharge: 100_000, fuelBp: 2_500, maxWeight: 45_000 },
  accessorialFees: {
    liftgate_pickup: 9_500,
    liftgate_delivery: 9_500,
    residential_pickup: 8_500,
    residential_delivery: 8_500,
    inside_delivery: 12_000,
    appointment: 3_500,
    limited_access: 9_000,
    hazardous: 5_000,
    notify: 1_500,
  },
  insurance: { rateBp: 30, minimumPremium: 2_500, deductible: 10_000 },
};

const pallet = (
  totalWeight: number,
  freightClass?: GoodsLine['freightClass'],
  dims = [48, 40, 48],
): GoodsLine => ({
  quantity: 1,
  length: dims[0] as number,
  width: dims[1] as number,
  height: dims[2] as number,
  totalWeight,
  freightClass,
});

const ltl = (lines: GoodsLine[], extra: Partial<RatingInput> = {}): RatingInput => ({
  mode: 'LTL',
  lines,
  accessorials: [],
  ...extra,
});

function rate(input: RatingInput, t: RatingTariff = tariff) {
  const result = rateShipment(input, t);
  if (!result.ok) throw new Error(`refused: ${result.reason}`);
  return result.breakdown;
}

describe('LTL class rating', () => {
  it('1. raises a small shipment to the minimum charge', () => {
    const b = rate(ltl([pallet(400, '100')]));
    // 400 lb x 55.00 = 220.00; -40 % = 132.00 < 150.00 minimum; fuel 25 % = 37.50
    expect([b.grossCharge, b.discount, b.linehaul, b.minimumApplied, b.fuel, b.total]).toEqual([
      22_000,
      8_800,
      15_000,
      true,
      3_750,
      18_750,
    ]);
  });

  it('2. rates deficit weight at the next break when that is cheaper', () => {
    const b = rate(ltl([pallet(450, '100')]));
    // actual 450 x 55 = 247.50; next break 450 x 45 + 50 x 45 = 225.00
    expect([b.breakIndex, b.deficitWeight, b.deficitCharge, b.grossCharge]).toEqual([1, 50, 2_250, 22_500]);
    expect(b.total).toBe(18_750);
  });

  it('3. rates a mid-weight shipment at its break', () => {
    const b = rate(ltl([pallet(1200, '70')]));
    // 1200 x 27 = 324.00; -129.60 = 194.40; fuel 48.60
    expect([b.grossCharge, b.discount, b.linehaul, b.fuel, b.total]).toEqual([
      32_400, 12_960, 19_440, 4_860, 24_300,
    ]);
  });

  it('4. uses deficit weight just under a break', () => {
    const b = rate(ltl([pallet(1900, '100')]));
    // actual 1900 x 36 = 684.00; next 1900 x 29 + 100 x 29 = 580.00
    expect([b.breakIndex, b.grossCharge, b.linehaul, b.fuel, b.total]).toEqual([
      3, 58_000, 34_800, 8_700, 43_500,
    ]);
  });

  it('5. charges deficit weight of a mixed shipment at its lowest class rate', () => {
    const b = rate(ltl([pallet(600, '50'), pallet(300, '125')]));
    // actual 600x25 + 300x53 = 309.00; next 600x20 + 300x43 + 100x20 = 269.00
    expect([
      b.deficitWeight,
      b.deficitCharge,
      b.grossCharge,
      b.discount,
      b.linehaul,
      b.fuel,
      b.total,
    ]).toEqual([100, 2_000, 26_900, 10_760, 16_140, 4_035, 20_175]);
  });

  it('6. suggests the class from density when none is given', () => {
    const b = rate(ltl([pallet(1000)]));
    // 53.33 ft3, 18.75 lb/ft3 -> class 70; 1000 x 27 = 270.00
    expect(b.lines[0]).toMatchObject({
      density: 18.75,
      suggestedClass: '70',
      freightClass: '70',
      charge: 27_000,
    });
    expect(b.total).toBe(20_250);
  });

  it('7. puts a light, bulky pallet in a high class', () => {
    const b = rate(ltl([pallet(300, undefined, [48, 48, 72])]));
    // 96 ft3, 3.125 lb/ft3 -> class 250; 300 x 100 = 300.00
    expect([b.lines[0]?.freightClass, b.grossCharge, b.linehaul, b.total]).toEqual([
      '250',
      30_000,
      18_000,
      22_500,
    ]);
  });

  it("8. rates the shipper's class and still records the density class", () => {
    const b = rate(ltl([pallet(300, '125', [48, 48, 72])]));
    expect([b.lines[0]?.freightClass, b.lines[0]?.suggestedClass, b.grossCharge, b.total]).toEqual([
      '125',
      '250',
      19_500,
      18_750,
    ]);
  });

  it('9. rounds a charge on fractional pounds half up, and the discount and fuel too', () => {
    const b = rate(ltl([pallet(1234.5, '70')]));
    // 1234.5 x 27 = 333.315 -> 333.32; -40 % 133.328 -> 133.33 = 199.99; fuel 49.9975 -> 50.00
    expect([b.grossCharge, b.discount, b.linehaul, b.fuel, b.total]).toEqual([
      33_332, 13_333, 19_999, 5_000, 24_999,
    ]);
  });

  it('10. rates a heavy shipment at the 5,000 lb break', () => {
    const b = rate(ltl([pallet(6000, '50')]));
    expect([b.breakIndex, b.grossCharge, b.linehaul, b.fuel, b.total]).toEqual([
      4, 72_000, 43_200, 10_800, 54_000,
    ]);
  });

  it('11. moves into the top break by deficit weight', () => {
    const b = rate(ltl([pallet(9000, '50')]));
    // actual 9000 x 12 = 1080.00; next 9000 x 9 + 1000 x 9 = 900.00
    expect([b.breakIndex, b.deficitWeight, b.grossCharge, b.total]).toEqual([5, 1_000, 90_000, 67_500]);
  });

  it('12. rates the top break with no further break to try', () => {
    const b = rate(ltl([pallet(12000, '100')]));
    expect([b.breakIndex, b.deficitWeight, b.grossCharge, b.linehaul, b.fuel, b.total]).toEqual([
      5, 0, 204_000, 122_400, 30_600, 153_000,
    ]);
  });
});

describe('accessorials and insurance', () => {
  it('13. adds liftgate and residential delivery', () => {
    const b = rate(
      ltl([pallet(1200, '70')], { accessorials: ['liftgate_delivery', 'residential_delivery'] }),
    );
    expect(b.accessorials).toEqual([
      { code: 'liftgate_delivery', fee: 9_500 },
      { code: 'residential_delivery', fee: 8_500 },
    ]);
    expect(b.total).toBe(24_300 + 18_000);
  });

  it('14. adds inside delivery, appointment and notify', () => {
    const b = rate(ltl([pallet(1200, '70')], { accessorials: ['inside_delivery', 'appointment', 'notify'] }));
    expect(b.total).toBe(24_300 + 12_000 + 3_500 + 1_500);
  });

  it('15. adds limited access, hazardous, liftgate and residential pickup', () => {
    const b = rate(
      ltl([pallet(1200, '70')], {
        accessorials: ['limited_access', 'hazardous', 'liftgate_pickup', 'residential_pickup'],
      }),
    );
    expect(b.total).toBe(24_300 + 9_000 + 5_000 + 9_500 + 8_500);
  });

  it('16. charges insurance as a share of the insured value, with its deductible', () => {
    const b = rate(ltl([pallet(1200, '70')], { insuredValue: 2_000_000 }));
    // 20,000.00 x 0.30 % = 60.00
    expect(b.insurance).toEqual({ premium: 6_000, deductible: 10_000, insuredValue: 2_000_000 });
    expect(b.total).toBe(30_300);
  });

  it('17. raises a small premium to the minimum premium', () => {
    const b = rate(ltl([pallet(1200, '70')], { insuredValue: 500_000 }));
    expect(b.insurance?.premium).toBe(2_500);
    expect(b.total).toBe(26_800);
  });

  it('18. rounds the premium half up', () => {
    const b = rate(ltl([pallet(1200, '70')], { insuredValue: 1_234_550 }));
    // 12,345.50 x 0.30 % = 37.0365 -> 37.04
    expect(b.insurance?.premium).toBe(3_704);
    expect(b.total).toBe(28_004);
  });
});

describe('amounts beyond what a number holds exactly', () => {
  it('19a. rounds the premium half up on a value whose product with the rate needs a bigint', () => {
    // 9,000,000,000,005.00 x 0.30 % = 27,000,000,000.015 -> 27,000,000,000.02: the value times the
    // rate is past 2^53, where a number no longer holds every integer.
    const b = rate(ltl([pallet(1200, '70')], { insuredValue: 900_000_000_000_500 }));
    expect(b.insurance?.premium).toBe(2_700_000_000_002);
  });
});

describe('FTL', () => {
  it('19. prices a truck by lane, with fuel and an accessorial', () => {
    const b = rate({ mode: 'FTL', lines: [pallet(20_000)], accessorials: ['liftgate_delivery'] });
    expect([b.linehaul, b.fuel, b.total]).toEqual([180_000, 45_000, 234_500]);
  });

  it('20. prices a truck by mileage, rounding fuel half up', () => {
    const t = {
      ...tariff,
      ftl: { ratePerMile: 265, miles: 1234, minimumCharge: 100_000, fuelBp: 2_500, maxWeight: 45_000 },
    };
    const b = rate({ mode: 'FTL', lines: [pallet(20_000)], accessorials: [] }, t);
    // 1234 mi x 2.65 = 3270.10; fuel 817.525 -> 817.53
    expect([b.linehaul, b.fuel, b.total]).toEqual([327_010, 81_753, 408_763]);
  });

  it('21. raises a short mileage trip to the minimum', () => {
    const t = {
      ...tariff,
      ftl: { ratePerMile: 265, miles: 50, minimumCharge: 100_000, fuelBp: 2_500, maxWeight: 45_000 },
    };
    const b = rate({ mode: 'FTL', lines: [pallet(20_000)], accessorials: [] }, t);
    expect([b.linehaul, b.minimumApplied, b.total]).toEqual([100_000, true, 125_000]);
  });
});

describe('what the tables cannot price', () => {
  it('22. refuses a class the tariff does not rate', () => {
    expect(rateShipment(ltl([pallet(500, '500')]), tariff)).toEqual({ ok: false, reason: 'class_not_rated' });
  });

  it('23. refuses an accessorial the product does not offer', () => {
    const t = { ...tariff, accessorialFees: { liftgate_delivery: 9_500 } };
    expect(rateShipment(ltl([pallet(500, '70')], { accessorials: ['notify'] }), t)).toEqual({
      ok: false,
      reason: 'accessorial_not_offered',
    });
  });

  it('24. refuses a truckload over the truck capacity', () => {
    expect(rateShipment({ mode: 'FTL', lines: [pallet(46_000)], accessorials: [] }, tariff)).toEqual({
      ok: false,
      reason: 'over_truck_capacity',
    });
  });
});

describe('every level of the hierarchy', () => {
  it('25. prices branch, agent and customer on top of the operator cost', () => {
    const cost = BigInt(rate(ltl([pallet(1200, '70')])).total);
    // 243.00 +10 % = 267.30; +5.5 % = 282.0015 -> 282.00 + 2.00 = 284.00; +3 % = 292.52 + 0.99 = 293.51
    expect(
      priceChain(cost, [
        { percentBp: 1_000, fixedCents: 0n },
        { percentBp: 550, fixedCents: 200n },
        { percentBp: 300, fixedCents: 99n },
      ]),
    ).toEqual([24_300n, 26_730n, 28_400n, 29_351n]);
  });
});
