import { type ChannelTerms, DEFAULT_RATING_RULES, type ZoneRow } from '@freight/contracts/express-rating';
import { and, asc, eq, getTableColumns, inArray } from 'drizzle-orm';
import type { Generations } from '../../db/cache-generations.ts';
import type { DbOrTx } from '../../db/client.ts';
import { tenantCache } from '../../lib/tenant-cache.ts';
import { expressChannels, expressProducts, expressZoneRows } from './schema.ts';

export type ProductRow = typeof expressProducts.$inferSelect;
export type ChannelRow = typeof expressChannels.$inferSelect;
export type ZoneRowRecord = typeof expressZoneRows.$inferSelect;

/** A channel with its product's names, as quoting and the channel list show it. */
export type QuotableChannel = ChannelRow & { productName: string; productNameEn: string };

/**
 * Open to an organisation whose tree path holds these ids: nothing listed means open to all, otherwise
 * one listed organisation is the organisation itself or one above it. `null` is staff: everything.
 */
export function openTo(organisationIds: readonly number[], pathIds: readonly number[] | null): boolean {
  if (pathIds === null || organisationIds.length === 0) return true;
  return organisationIds.some((id) => pathIds.includes(id));
}

const productOfChannel = and(
  eq(expressProducts.tenantId, expressChannels.tenantId),
  eq(expressProducts.id, expressChannels.productId),
);
const enabledIn = (tenantId: number) =>
  and(
    eq(expressChannels.tenantId, tenantId),
    eq(expressChannels.enabled, true),
    eq(expressProducts.enabled, true),
  );
const productNames = {
  name: expressProducts.name,
  nameEn: expressProducts.nameEn,
  organisationIds: expressProducts.organisationIds,
};
/** A channel without its tables: what the quote form and the batch template offer. */
const {
  surcharges: _surcharges,
  priceTable: _priceTable,
  scheduledPrices: _scheduledPrices,
  ratingRules: _ratingRules,
  ...summaryColumns
} = getTableColumns(expressChannels);
export type ChannelSummary = Omit<
  QuotableChannel,
  'surcharges' | 'priceTable' | 'scheduledPrices' | 'ratingRules'
>;

/** The rows whose channel and product are both open to the organisation, with the product's names. */
function keepOpen<C extends { organisationIds: number[] }>(
  rows: { channel: C; product: { name: string; nameEn: string; organisationIds: number[] } }[],
  pathIds: readonly number[] | null,
) {
  return rows
    .filter(
      ({ channel, product }) =>
        openTo(product.organisationIds, pathIds) && openTo(channel.organisationIds, pathIds),
    )
    .map(({ channel, product }) => ({
      ...channel,
      productName: product.name,
      productNameEn: product.nameEn,
    }));
}

/**
 * The enabled channels of enabled products that an organisation may quote on, in product then channel
 * order, with everything pricing reads; a channel needs both its product and itself open to it.
 */
export async function channelsForOrganisation(
  db: DbOrTx,
  tenantId: number,
  pathIds: readonly number[] | null,
  seen?: Generations,
): Promise<QuotableChannel[]> {
  return keepOpen((await tenantChannels(db, tenantId, seen)).rows, pathIds);
}

/** A tenant's enabled channels with their products' names and zone charts: what express rates read. */
interface TenantChannels {
  rows: { channel: ChannelRow; product: { name: string; nameEn: string; organisationIds: number[] } }[];
  charts: Map<number, ZoneRow[]>;
}

/** Held per tenant until a write to its products, channels or zone rows is announced (migration 0028). */
const channelCache = tenantCache<'all', TenantChannels>(
  async (db, tenantId) => {
    const rows = await db
      .select({ channel: expressChannels, product: productNames })
      .from(expressChannels)
      .innerJoin(expressProducts, productOfChannel)
      .where(enabledIn(tenantId))
      .orderBy(asc(expressProducts.id), asc(expressChannels.id));
    const charts = await zoneChartsOf(
      db,
      tenantId,
      rows.map((r) => r.channel.id),
    );
    return { rows, charts };
  },
  { generation: 'channels' },
);

const tenantChannels = (db: DbOrTx, tenantId: number, seen?: Generations) =>
  channelCache.get(db, tenantId, 'all', seen);

/** Drops the channels held for a tenant (or all): a change was announced. */
export const forgetChannels = (tenantId?: number) => channelCache.forget(tenantId);

/** The zone charts of the tenant's enabled channels, from this process's memory when held. */
export async function cachedZoneCharts(db: DbOrTx, tenantId: number): Promise<Map<number, ZoneRow[]>> {
  return (await tenantChannels(db, tenantId)).charts;
}

/**
 * The same channels without their price tables and surcharge lists, which can be large: the quote
 * form's choices and the batch template read only what a channel is.
 */
export async function channelChoicesForOrganisation(
  db: DbOrTx,
  tenantId: number,
  pathIds: readonly number[] | null,
): Promise<ChannelSummary[]> {
  const rows = await db
    .select({ channel: summaryColumns, product: productNames })
    .from(expressChannels)
    .innerJoin(expressProducts, productOfChannel)
    .where(enabledIn(tenantId))
    .orderBy(asc(expressProducts.id), asc(expressChannels.id));
  return keepOpen(rows, pathIds);
}

export async function findChannel(db: DbOrTx, tenantId: number, id: number): Promise<ChannelRow | null> {
  const [row] = await db
    .select()
    .from(expressChannels)
    .where(and(eq(expressChannels.tenantId, tenantId), eq(expressChannels.id, id)))
    .limit(1);
  return row ?? null;
}

/** The zone charts of these channels, each in its stored order (the first matching row wins). */
export async function zoneChartsOf(
  db: DbOrTx,
  tenantId: number,
  channelIds: readonly number[],
): Promise<Map<number, ZoneRow[]>> {
  const charts = new Map<number, ZoneRow[]>(channelIds.map((id) => [id, []]));
  if (channelIds.length === 0) return charts;
  const rows = await db
    .select()
    .from(expressZoneRows)
    .where(and(eq(expressZoneRows.tenantId, tenantId), inArray(expressZoneRows.channelId, [...channelIds])))
    .orderBy(asc(expressZoneRows.id));
  for (const { channelId, originFrom, originTo, destFrom, destTo, country, zone } of rows)
    charts.get(channelId)?.push({ originFrom, originTo, destFrom, destTo, country, zone });
  return charts;
}

/** Everything the rating engine needs of a channel; a channel with no price table prices nothing. */
export function channelTerms(channel: ChannelRow, zones: ZoneRow[]): ChannelTerms {
  return {
    scope: channel.scope,
    unitSystem: channel.unitSystem,
    dimDivisor: channel.dimDivisor,
    limits: {
      maxWeight: channel.maxWeight,
      maxLength: channel.maxLength,
      maxLengthGirth: channel.maxLengthGirth,
    },
    zones,
    prices: channel.priceTable ?? { zones: [], brackets: [], additional: null, minimums: [] },
    scheduledPrices: channel.scheduledPrices,
    surcharges: channel.surcharges,
    rules: channel.ratingRules ?? DEFAULT_RATING_RULES,
  };
}
