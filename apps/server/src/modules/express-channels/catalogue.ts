import { formatPercentBp, parsePercentBp } from '@freight/contracts/customers';
import type {
  ExpressChannelSaveBody,
  ExpressProductSaveBody,
  expressChannelExportQuery,
  expressChannelListQuery,
  expressProductListQuery,
  surchargeTermsBody,
} from '@freight/contracts/express-channels';
import type { SurchargeTerms } from '@freight/contracts/express-rating';
import { formatMoney, parseMoney } from '@freight/contracts/money';
import { and, count, desc, eq, ilike, inArray, ne, or, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { DbOrTx } from '../../db/client.ts';
import { badField, conflict, forbidden, isUniqueViolation, notFound } from '../../lib/errors.ts';
import { containing } from '../../lib/filters.ts';
import type { RequestUser } from '../../plugins/context.ts';
import { BUILTIN_PROVIDER } from '../carriers/provider.ts';
import { carrierAccountKind } from '../carriers/service.ts';
import { organisationNames } from '../customers/service.ts';
import { expressChannels, expressProducts, expressZoneRows } from './schema.ts';
import { type ChannelRow, findChannel, type ProductRow } from './service.ts';

/*
 * The operator's express catalogue as staff manage it: products customers buy, and the channels
 * (carriers' services) behind each, with their limits and surcharge terms. Quoting reads the same
 * tables through service.ts; zone charts and price tables are in tables.ts.
 */

export type Caller = Pick<RequestUser, 'id' | 'tenantId' | 'identity' | 'organisationId'>;

const cents = (money: string) => Number(parseMoney(money));
const money = (value: number) => formatMoney(BigInt(value));

/** Only staff manage the catalogue; anyone else is refused (code 401), whatever their grants. */
export function requireStaff(caller: Caller) {
  if (caller.identity !== 'employee') throw forbidden();
}

/** Every organisation listed must be one of the tenant's, or nobody could tell whom the row opens to. */
async function checkOrganisations(db: DbOrTx, tenantId: number, ids: readonly number[]) {
  const unique = [...new Set(ids)];
  const known = await organisationNames(db, tenantId, unique);
  if (known.size !== unique.length) throw badField('organisationIds', 'expressChannel.unknownOrganisation');
  return unique;
}

/* ---------- products ---------- */

/** A product as the API answers it, with how many channels serve it. */
export function productToApi(
  { tenantId: _t, ...product }: ProductRow,
  channels: { total: number; enabled: number } = { total: 0, enabled: 0 },
) {
  return { ...product, channels: channels.total, enabledChannels: channels.enabled };
}

/** How many channels each product has, and how many of them are enabled. */
async function channelCounts(db: DbOrTx, tenantId: number, productIds: number[]) {
  if (productIds.length === 0) return new Map<number, { total: number; enabled: number }>();
  const rows = await db
    .select({
      productId: expressChannels.productId,
      total: count(),
      enabled: sql<number>`count(*) filter (where ${expressChannels.enabled})`.mapWith(Number),
    })
    .from(expressChannels)
    .where(and(eq(expressChannels.tenantId, tenantId), inArray(expressChannels.productId, productIds)))
    .groupBy(expressChannels.productId);
  return new Map(rows.map((r) => [r.productId, { total: r.total, enabled: r.enabled }]));
}

export async function listProducts(
  db: DbOrTx,
  caller: Caller,
  query: z.infer<typeof expressProductListQuery>,
) {
  requireStaff(caller);
  const { page, limit, keyword, enabled } = query;
  const condition = and(
    eq(expressProducts.tenantId, caller.tenantId),
    keyword
      ? or(
          ilike(expressProducts.code, containing(keyword)),
          ilike(expressProducts.name, containing(keyword)),
          ilike(expressProducts.nameEn, containing(keyword)),
        )
      : undefined,
    enabled === undefined ? undefined : eq(expressProducts.enabled, enabled),
  );
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(expressProducts)
      .where(condition)
      .orderBy(desc(expressProducts.id))
      .limit(limit)
      .offset((page - 1) * limit),
    db.select({ n: count() }).from(expressProducts).where(condition),
  ]);
  const counts = await channelCounts(
    db,
    caller.tenantId,
    rows.map((r) => r.id),
  );
  return { list: rows.map((r) => productToApi(r, counts.get(r.id))), total: total?.n ?? 0, page, limit };
}

/** Adds or changes a product; its code is unique within the tenant. */
export async function saveProduct(db: DbOrTx, caller: Caller, body: ExpressProductSaveBody): Promise<number> {
  requireStaff(caller);
  const { id, ...fields } = body;
  const organisationIds = await checkOrganisations(db, caller.tenantId, fields.organisationIds);
  const [clash] = await db
    .select({ id: expressProducts.id })
    .from(expressProducts)
    .where(
      and(
        eq(expressProducts.tenantId, caller.tenantId),
        eq(expressProducts.code, fields.code),
        id ? ne(expressProducts.id, id) : undefined,
      ),
    )
    .limit(1);
  if (clash) throw badField('code', 'expressChannel.productCodeTaken');
  try {
    const [row] = id
      ? await db
          .update(expressProducts)
          .set({ ...fields, organisationIds })
          .where(and(eq(expressProducts.tenantId, caller.tenantId), eq(expressProducts.id, id)))
          .returning({ id: expressProducts.id })
      : await db
          .insert(expressProducts)
          .values({ tenantId: caller.tenantId, ...fields, organisationIds })
          .returning({ id: expressProducts.id });
    if (!row) throw notFound();
    return row.id;
  } catch (error) {
    // Two saves of one code at once: the unique index decides, and the loser hears why.
    if (isUniqueViolation(error)) throw badField('code', 'expressChannel.productCodeTaken');
    throw error;
  }
}

export async function setProductEnabled(db: DbOrTx, caller: Caller, id: number, enabled: boolean) {
  requireStaff(caller);
  const [row] = await db
    .update(expressProducts)
    .set({ enabled })
    .where(and(eq(expressProducts.tenantId, caller.tenantId), eq(expressProducts.id, id)))
    .returning({ id: expressProducts.id });
  if (!row) throw notFound();
  return row.id;
}

/**
 * Deletes a product that no channel serves any more. The product row is locked first, so a channel
 * being added to it at the same moment either lands before the count (and stops the delete) or fails.
 */
export async function deleteProduct(db: DbOrTx, caller: Caller, id: number) {
  requireStaff(caller);
  return db.transaction(async (tx) => {
    const [product] = await tx
      .select({ id: expressProducts.id })
      .from(expressProducts)
      .where(and(eq(expressProducts.tenantId, caller.tenantId), eq(expressProducts.id, id)))
      .for('update');
    if (!product) throw notFound();
    const [channels] = await tx
      .select({ n: count() })
      .from(expressChannels)
      .where(and(eq(expressChannels.tenantId, caller.tenantId), eq(expressChannels.productId, id)));
    if (channels && channels.n > 0)
      throw conflict('expressChannel.productHasChannels', { count: channels.n });
    await tx
      .delete(expressProducts)
      .where(and(eq(expressProducts.tenantId, caller.tenantId), eq(expressProducts.id, id)));
    return id;
  });
}

/* ---------- channels ---------- */

/** Surcharge terms as stored (cents, basis points); delivery areas are kept apart by the caller. */
export function surchargesToStored(
  body: z.infer<typeof surchargeTermsBody>,
): Omit<SurchargeTerms, 'deliveryAreas'> {
  const { additionalHandling: handling, largePackage: large, declaredValue: declared } = body;
  return {
    fuelBp: parsePercentBp(body.fuelPercent),
    residential: cents(body.residential),
    signature: cents(body.signature),
    additionalHandling: handling ? { ...handling, fee: cents(handling.fee) } : null,
    largePackage: large ? { ...large, fee: cents(large.fee) } : null,
    declaredValue: declared
      ? {
          freeCents: cents(declared.free),
          per100: cents(declared.per100),
          minimum: cents(declared.minimum),
        }
      : null,
  };
}

/** Surcharge terms as the API answers them: money as decimal strings, each delivery area's ZIP count. */
export function surchargesToApi(terms: SurchargeTerms) {
  const { additionalHandling: handling, largePackage: large, declaredValue: declared } = terms;
  return {
    fuelPercent: formatPercentBp(terms.fuelBp),
    residential: money(terms.residential),
    signature: money(terms.signature),
    additionalHandling: handling
      ? {
          fee: money(handling.fee),
          longest: handling.longest,
          secondLongest: handling.secondLongest,
          weight: handling.weight,
        }
      : null,
    largePackage: large
      ? {
          fee: money(large.fee),
          longest: large.longest,
          lengthGirth: large.lengthGirth,
          minBillable: large.minBillable,
        }
      : null,
    declaredValue: declared
      ? { free: money(declared.freeCents), per100: money(declared.per100), minimum: money(declared.minimum) }
      : null,
    deliveryAreas: terms.deliveryAreas.map((a) => ({ name: a.name, fee: money(a.fee), zips: a.zips.length })),
  };
}

type ChannelWithProduct = ChannelRow & { productName: string; productNameEn: string };

/** A channel as the API answers it; the price tables and rules travel through the price calls. */
export function channelToApi(
  {
    tenantId: _t,
    priceTable,
    pricesUpdatedAt: _p,
    scheduledPrices: _s,
    ratingRules: _r,
    surcharges,
    ...channel
  }: ChannelWithProduct,
  zoneRows: number,
) {
  return {
    ...channel,
    surcharges: surchargesToApi(surcharges),
    zoneRows,
    priceZones: priceTable?.zones.length ?? 0,
  };
}

/** How many zone-chart rows each channel has. */
async function zoneRowCounts(db: DbOrTx, tenantId: number, channelIds: number[]) {
  if (channelIds.length === 0) return new Map<number, number>();
  const rows = await db
    .select({ channelId: expressZoneRows.channelId, n: count() })
    .from(expressZoneRows)
    .where(and(eq(expressZoneRows.tenantId, tenantId), inArray(expressZoneRows.channelId, channelIds)))
    .groupBy(expressZoneRows.channelId);
  return new Map(rows.map((r) => [r.channelId, r.n]));
}

const channelWithProduct = {
  channel: expressChannels,
  productName: expressProducts.name,
  productNameEn: expressProducts.nameEn,
};
/** Joins a channel's product (of the same tenant) onto the channel. */
export const productOfChannel = and(
  eq(expressProducts.tenantId, expressChannels.tenantId),
  eq(expressProducts.id, expressChannels.productId),
);

/** The channels of the list's filters; the list and its workbook export both read them. */
export function channelListCondition(
  tenantId: number,
  { keyword, productId, scope, enabled }: z.infer<typeof expressChannelExportQuery>,
) {
  return and(
    eq(expressChannels.tenantId, tenantId),
    keyword
      ? or(
          ilike(expressChannels.code, containing(keyword)),
          ilike(expressChannels.name, containing(keyword)),
          ilike(expressChannels.nameEn, containing(keyword)),
          ilike(expressChannels.carrier, containing(keyword)),
          ilike(expressChannels.service, containing(keyword)),
        )
      : undefined,
    productId ? eq(expressChannels.productId, productId) : undefined,
    scope ? eq(expressChannels.scope, scope) : undefined,
    enabled === undefined ? undefined : eq(expressChannels.enabled, enabled),
  );
}

export async function listChannels(
  db: DbOrTx,
  caller: Caller,
  query: z.infer<typeof expressChannelListQuery>,
) {
  requireStaff(caller);
  const { page, limit } = query;
  const condition = channelListCondition(caller.tenantId, query);
  const [rows, [total]] = await Promise.all([
    db
      .select(channelWithProduct)
      .from(expressChannels)
      .innerJoin(expressProducts, productOfChannel)
      .where(condition)
      .orderBy(desc(expressChannels.id))
      .limit(limit)
      .offset((page - 1) * limit),
    db.select({ n: count() }).from(expressChannels).where(condition),
  ]);
  const zoneCounts = await zoneRowCounts(
    db,
    caller.tenantId,
    rows.map((r) => r.channel.id),
  );
  return {
    list: rows.map(({ channel, ...names }) =>
      channelToApi({ ...channel, ...names }, zoneCounts.get(channel.id) ?? 0),
    ),
    total: total?.n ?? 0,
    page,
    limit,
  };
}

/** A channel of the caller's tenant that staff manage; 401 for anyone else, 404 for another tenant's. */
export async function staffChannel(db: DbOrTx, caller: Caller, channelId: number): Promise<ChannelRow> {
  requireStaff(caller);
  const channel = await findChannel(db, caller.tenantId, channelId);
  if (!channel) throw notFound();
  return channel;
}

export async function channelInfo(db: DbOrTx, caller: Caller, id: number) {
  requireStaff(caller);
  const [row] = await db
    .select(channelWithProduct)
    .from(expressChannels)
    .innerJoin(expressProducts, productOfChannel)
    .where(and(eq(expressChannels.tenantId, caller.tenantId), eq(expressChannels.id, id)));
  if (!row) throw notFound();
  const zoneCounts = await zoneRowCounts(db, caller.tenantId, [id]);
  const { channel, ...names } = row;
  return channelToApi({ ...channel, ...names }, zoneCounts.get(id) ?? 0);
}

/**
 * Adds or changes a channel. Its code is unique within the tenant and its product must be the
 * tenant's; the product row is share-locked until the channel is written, so the product cannot be
 * deleted in between. Delivery areas are edited on the price page and survive an edit here.
 */
export async function saveChannel(db: DbOrTx, caller: Caller, body: ExpressChannelSaveBody): Promise<number> {
  requireStaff(caller);
  const {
    id,
    surcharges,
    organisationIds: listed,
    carrierAccountId,
    carrierService,
    carrierLabelFormat,
    ...rest
  } = body;
  const organisationIds = await checkOrganisations(db, caller.tenantId, listed);
  const terms = surchargesToStored(surcharges);
  // A channel served by a carrier account is priced by that carrier's API; its provider is the kind.
  const kind = carrierAccountId ? await carrierAccountKind(db, caller.tenantId, carrierAccountId) : null;
  if (carrierAccountId && !kind) throw badField('carrierAccountId', 'expressChannel.unknownCarrierAccount');
  const fields = {
    ...rest,
    provider: kind ?? BUILTIN_PROVIDER,
    carrierAccountId: kind ? carrierAccountId : null,
    carrierService: kind ? carrierService : '',
    carrierLabelFormat: kind ? carrierLabelFormat : ('pdf' as const),
  };
  try {
    return await db.transaction(async (tx) => {
      const [product] = await tx
        .select({ id: expressProducts.id })
        .from(expressProducts)
        .where(and(eq(expressProducts.tenantId, caller.tenantId), eq(expressProducts.id, fields.productId)))
        .for('share');
      if (!product) throw badField('productId', 'expressChannel.unknownProduct');
      const [clash] = await tx
        .select({ id: expressChannels.id })
        .from(expressChannels)
        .where(
          and(
            eq(expressChannels.tenantId, caller.tenantId),
            eq(expressChannels.code, fields.code),
            id ? ne(expressChannels.id, id) : undefined,
          ),
        )
        .limit(1);
      if (clash) throw badField('code', 'expressChannel.channelCodeTaken');
      const [row] = id
        ? await tx
            .update(expressChannels)
            .set({
              ...fields,
              organisationIds,
              // The stored delivery areas stay as they are, in the same statement: no read-then-write.
              surcharges: sql`${JSON.stringify(terms)}::jsonb || jsonb_build_object('deliveryAreas', coalesce(${expressChannels.surcharges} -> 'deliveryAreas', '[]'::jsonb))`,
            })
            .where(and(eq(expressChannels.tenantId, caller.tenantId), eq(expressChannels.id, id)))
            .returning({ id: expressChannels.id })
        : await tx
            .insert(expressChannels)
            .values({
              tenantId: caller.tenantId,
              ...fields,
              organisationIds,
              surcharges: { ...terms, deliveryAreas: [] },
            })
            .returning({ id: expressChannels.id });
      if (!row) throw notFound();
      return row.id;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw badField('code', 'expressChannel.channelCodeTaken');
    throw error;
  }
}

export async function setChannelEnabled(db: DbOrTx, caller: Caller, id: number, enabled: boolean) {
  requireStaff(caller);
  const [row] = await db
    .update(expressChannels)
    .set({ enabled })
    .where(and(eq(expressChannels.tenantId, caller.tenantId), eq(expressChannels.id, id)))
    .returning({ id: expressChannels.id });
  if (!row) throw notFound();
  return row.id;
}

/**
 * Deletes a channel with its zone chart. Waybills keep the snapshot of the channel they were booked
 * on, so nothing booked loses its terms; new quotes simply no longer offer it.
 */
export async function deleteChannel(db: DbOrTx, caller: Caller, id: number) {
  requireStaff(caller);
  return db.transaction(async (tx) => {
    const [row] = await tx
      .delete(expressChannels)
      .where(and(eq(expressChannels.tenantId, caller.tenantId), eq(expressChannels.id, id)))
      .returning({ id: expressChannels.id });
    if (!row) throw notFound();
    await tx
      .delete(expressZoneRows)
      .where(and(eq(expressZoneRows.tenantId, caller.tenantId), eq(expressZoneRows.channelId, id)));
    return id;
  });
}
