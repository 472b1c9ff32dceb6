import type { PriceTable, SurchargeTerms, ZoneRow } from '@freight/contracts/express-rating';
import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { expressChannels, expressProducts, expressZoneRows } from './schema.ts';

/** A price table whose price grows by a per-unit step from the first bracket, zone by zone. */
function steppedTable(
  zones: string[],
  weights: number[],
  first: number[],
  step: number[],
  additionalUnit: number,
  minimums: number[],
): PriceTable {
  return {
    zones,
    brackets: weights.map((weight, i) => ({
      weight,
      prices: zones.map((_, z) => (first[z] as number) + i * (step[z] as number)),
    })),
    additional: { unit: additionalUnit, prices: step },
    minimums,
  };
}

const range = (from: number, to: number, by = 1) =>
  Array.from({ length: Math.round((to - from) / by) + 1 }, (_, i) => from + i * by);

/** Destination bands from a West Coast origin, and the zone of each. */
const WEST_BANDS: [string, string, string][] = [
  ['900', '961', '2'],
  ['800', '899', '4'],
  ['700', '799', '5'],
  ['500', '699', '6'],
  ['300', '499', '7'],
  ['000', '299', '8'],
];
/** From anywhere else: the nearer half of the country, and the farther. */
const OTHER_BANDS: [string, string, string][] = [
  ['000', '499', '5'],
  ['500', '999', '7'],
];

const domesticChart: ZoneRow[] = [
  ...WEST_BANDS.map(([destFrom, destTo, zone]) => ({
    originFrom: '900',
    originTo: '961',
    destFrom,
    destTo,
    country: '',
    zone,
  })),
  ...OTHER_BANDS.map(([destFrom, destTo, zone]) => ({
    originFrom: '000',
    originTo: '999',
    destFrom,
    destTo,
    country: '',
    zone,
  })),
];

const internationalChart: ZoneRow[] = (
  [
    ['CA', 'A'],
    ['MX', 'A'],
    ['GB', 'B'],
    ['DE', 'B'],
    ['FR', 'B'],
    ['CN', 'C'],
    ['JP', 'C'],
    ['AU', 'C'],
  ] as const
).map(([country, zone]) => ({ originFrom: '000', originTo: '999', destFrom: '', destTo: '', country, zone }));

const DOMESTIC_ZONES = ['2', '4', '5', '6', '7', '8'];

const groundTerms: SurchargeTerms = {
  fuelBp: 1_250,
  residential: 450,
  signature: 600,
  deliveryAreas: [
    { name: 'DAS', fee: 395, zips: ['59001', '59002', '59003', '82001', '82007', '99501'] },
    { name: 'Extended DAS', fee: 525, zips: ['99701', '99703', '96701'] },
  ],
  additionalHandling: { fee: 1_800, longest: 48, secondLongest: 30, weight: 50 },
  largePackage: { fee: 9_500, longest: 96, lengthGirth: 130, minBillable: 90 },
  declaredValue: { freeCents: 10_000, per100: 100, minimum: 300 },
};

/**
 * The demo tenant's express line: a US ground product over two carriers' channels and an international
 * product over one, each with its zone chart, price table and surcharges, so a new user can quote,
 * book and print at once. Seeds nothing when the tenant has express products already.
 */
export async function seedDemoExpress(db: DbOrTx, tenantId: number) {
  const [existing] = await db
    .select({ id: expressProducts.id })
    .from(expressProducts)
    .where(eq(expressProducts.tenantId, tenantId))
    .limit(1);
  if (existing) return;
  const [ground, international] = await db
    .insert(expressProducts)
    .values([
      {
        tenantId,
        code: 'US-GROUND',
        name: '美国陆运小包',
        nameEn: 'US Ground Parcel',
        description: '美国本土门到门小包,2 至 8 个工作日',
        descriptionEn: 'Door-to-door parcels within the United States, 2 to 8 business days',
      },
      {
        tenantId,
        code: 'INTL-EXPRESS',
        name: '国际快递',
        nameEn: 'International Express',
        description: '从美国寄往加拿大、墨西哥、欧洲和亚太',
        descriptionEn: 'From the United States to Canada, Mexico, Europe and Asia-Pacific',
      },
    ])
    .returning({ id: expressProducts.id });
  if (!ground || !international) return;
  const channels = await db
    .insert(expressChannels)
    .values([
      {
        tenantId,
        productId: ground.id,
        code: 'USG-STD',
        name: '美国陆运标准',
        nameEn: 'US Ground Standard',
        carrier: 'Summit Parcel',
        service: 'Ground',
        scope: 'domestic' as const,
        unitSystem: 'lb_in' as const,
        dimDivisor: 139,
        transitDaysMin: 2,
        transitDaysMax: 5,
        maxWeight: 150,
        maxLength: 108,
        maxLengthGirth: 165,
        surcharges: groundTerms,
        priceTable: steppedTable(
          DOMESTIC_ZONES,
          range(1, 30),
          [895, 1_015, 1_095, 1_160, 1_240, 1_320],
          [85, 120, 140, 165, 190, 215],
          1,
          [895, 1_015, 1_095, 1_160, 1_240, 1_320],
        ),
        pricesUpdatedAt: new Date(),
      },
      {
        tenantId,
        productId: ground.id,
        code: 'USG-ECO',
        name: '美国陆运经济',
        nameEn: 'US Ground Economy',
        carrier: 'Bayline Post',
        service: 'Economy',
        scope: 'domestic' as const,
        unitSystem: 'lb_in' as const,
        dimDivisor: 166,
        transitDaysMin: 4,
        transitDaysMax: 8,
        maxWeight: 70,
        maxLength: 96,
        maxLengthGirth: 130,
        surcharges: { ...groundTerms, fuelBp: 900, largePackage: null, signature: 450 },
        priceTable: steppedTable(
          DOMESTIC_ZONES,
          range(1, 20),
          [695, 780, 840, 905, 965, 1_030],
          [70, 95, 115, 135, 155, 175],
          1,
          [],
        ),
        pricesUpdatedAt: new Date(),
      },
      {
        tenantId,
        productId: international.id,
        code: 'INTL-EXP',
        name: '国际快递标准',
        nameEn: 'International Express Standard',
        carrier: 'Skyway Express',
        service: 'Worldwide Express',
        scope: 'international' as const,
        unitSystem: 'kg_cm' as const,
        dimDivisor: 5_000,
        transitDaysMin: 3,
        transitDaysMax: 7,
        maxWeight: 68,
        maxLength: 274,
        maxLengthGirth: 419,
        surcharges: {
          fuelBp: 1_800,
          residential: 0,
          signature: 800,
          deliveryAreas: [],
          additionalHandling: null,
          largePackage: null,
          declaredValue: { freeCents: 10_000, per100: 150, minimum: 500 },
        },
        priceTable: steppedTable(
          ['A', 'B', 'C'],
          range(0.5, 20, 0.5),
          [2_850, 3_650, 4_250],
          [450, 690, 780],
          0.5,
          [],
        ),
        pricesUpdatedAt: new Date(),
      },
    ])
    .returning({ id: expressChannels.id, scope: expressChannels.scope });
  await db.insert(expressZoneRows).values(
    channels.flatMap((channel) =>
      (channel.scope === 'domestic' ? domesticChart : internationalChart).map((row) => ({
        tenantId,
        channelId: channel.id,
        ...row,
      })),
    ),
  );
}
