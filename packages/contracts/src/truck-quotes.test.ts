import { describe, expect, it } from 'vitest';
import { markBest, type PriceLevel, priceLevels, type QuoteResult, visibleLevels } from './truck-quotes.ts';

const breakdown = {
  linehaul: 12_813,
  fuel: 3_652,
  accessorials: [{ code: 'liftgate_delivery' as const, fee: 7_500 }],
  insurance: { premium: 2_500, deductible: 10_000, insuredValue: 500_000 },
};
const chain = [
  { organisationId: 1, type: 'branch' as const, markup: { percentBp: 1_000, fixedCents: 0n } },
  { organisationId: 2, type: 'agent' as const, markup: { percentBp: 500, fixedCents: 200n } },
  { organisationId: 3, type: 'customer' as const, markup: { percentBp: 800, fixedCents: 0n } },
];

describe('price levels down the tree (priced by hand, to the cent)', () => {
  const levels = priceLevels(breakdown, chain);

  it('starts at the operator cost', () => {
    expect(levels[0]).toEqual({
      organisationId: null,
      type: 'platform',
      linehaul: 12_813,
      fuel: 3_652,
      accessorials: [{ code: 'liftgate_delivery', fee: 7_500 }],
      insurance: 2_500,
      total: 26_465,
    });
  });

  it('marks each part up by the level’s percentage, half up, and adds the fixed amount to the linehaul', () => {
    // Branch +10 %: 14,094.3 → 14,094; 4,017.2 → 4,017; 8,250.
    expect(levels[1]).toMatchObject({
      linehaul: 14_094,
      fuel: 4_017,
      accessorials: [{ fee: 8_250 }],
      total: 28_861,
    });
    // Agent +5 % and 2.00: 14,798.7 → 14,799 + 200; 4,217.85 → 4,218; 8,662.5 → 8,663 (half up).
    expect(levels[2]).toMatchObject({
      linehaul: 14_999,
      fuel: 4_218,
      accessorials: [{ fee: 8_663 }],
      total: 30_380,
    });
    // Customer +8 %: 16,198.92 → 16,199; 4,555.44 → 4,555; 9,356.04 → 9,356.
    expect(levels[3]).toMatchObject({
      linehaul: 16_199,
      fuel: 4_555,
      accessorials: [{ fee: 9_356 }],
      total: 32_610,
    });
  });

  it('passes the insurance premium through at cost at every level', () => {
    expect(levels.map((l) => l.insurance)).toEqual([2_500, 2_500, 2_500, 2_500]);
  });

  it('adds nothing where a level has no markup', () => {
    const flat = priceLevels(breakdown, [
      { organisationId: 9, type: 'customer', markup: { percentBp: 0, fixedCents: 0n } },
    ]);
    expect(flat[1]?.total).toBe(flat[0]?.total);
  });

  it('shows an organisation its own price and those below, never those above', () => {
    expect(visibleLevels(levels, null)).toHaveLength(4);
    expect(visibleLevels(levels, 2).map((l) => l.type)).toEqual(['agent', 'customer']);
    expect(visibleLevels(levels, 3).map((l) => l.total)).toEqual([32_610]);
    expect(visibleLevels(levels, 99)).toEqual([]);
  });
});

describe('cheapest and fastest', () => {
  const result = (productId: number, total: number, transitDaysMax: number): QuoteResult => ({
    productId,
    code: `P${productId}`,
    name: '',
    nameEn: '',
    carrier: '',
    serviceLevel: '',
    mode: 'LTL',
    transitDaysMin: 1,
    transitDaysMax,
    ok: true,
    breakdown: {} as never,
    levels: [{ total } as PriceLevel],
    cheapest: false,
    fastest: false,
  });

  it('marks every product that ties for the lowest price or the shortest transit', () => {
    const marked = markBest([result(1, 500, 5), result(2, 400, 6), result(3, 400, 3)]);
    expect(marked.map((r) => (r.ok ? [r.cheapest, r.fastest] : null))).toEqual([
      [false, false],
      [true, false],
      [true, true],
    ]);
  });
});
