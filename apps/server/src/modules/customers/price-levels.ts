import type { Markup } from '@freight/contracts/customers';
import type { OrganisationType } from '@freight/contracts/identity';
import { and, eq, inArray } from 'drizzle-orm';
import type { Generations } from '../../db/cache-generations.ts';
import type { DbOrTx } from '../../db/client.ts';
import { tenantCache } from '../../lib/tenant-cache.ts';
import type { RequestUser } from '../../plugins/context.ts';
import { organisations, priceLevels } from './schema.ts';
import { findOrganisation, type OrganisationRow } from './service.ts';

export async function priceLevelsOf(db: DbOrTx, tenantId: number, organisationId: number) {
  return db
    .select()
    .from(priceLevels)
    .where(and(eq(priceLevels.tenantId, tenantId), eq(priceLevels.organisationId, organisationId)));
}

export async function savePriceLevel(
  db: DbOrTx,
  input: {
    tenantId: number;
    organisationId: number;
    line: 'truck' | 'express';
    productKey: string;
    markupPercentBp: number;
    markupFixedCents: bigint;
    updatedBy: number;
  },
) {
  await db
    .insert(priceLevels)
    .values(input)
    .onConflictDoUpdate({
      target: [priceLevels.tenantId, priceLevels.organisationId, priceLevels.line, priceLevels.productKey],
      set: {
        markupPercentBp: input.markupPercentBp,
        markupFixedCents: input.markupFixedCents,
        updatedBy: input.updatedBy,
        updatedAt: new Date(),
      },
    });
}

/**
 * The markups from the top of the tree down to this organisation, for one line and product: what the
 * truck and express modules apply to the operator's cost to price each level of an order. A product's
 * own level wins over the line's default; a level with none set adds nothing.
 */
export async function markupChain(
  db: DbOrTx,
  tenantId: number,
  organisationId: number,
  line: 'truck' | 'express',
  productKey = '',
): Promise<MarkupChain> {
  const chains = await markupChains(db, tenantId, organisationId, line, [productKey]);
  return chains.get(productKey) ?? [];
}

export type MarkupChain = { organisationId: number; type: OrganisationType; markup: Markup }[];

/**
 * What an organisation's markups on a line come from: the organisations from the top down to it, their
 * types, and every price level they have on the line (all products).
 */
interface MarkupSource {
  ids: number[];
  typeOf: Map<number, OrganisationType>;
  levels: (typeof priceLevels.$inferSelect)[];
}

/**
 * Held per tenant, by organisation and line, until a write to the tenant's price levels or a change
 * of its organisation tree is announced (migration 0028).
 */
const markupCache = tenantCache<{ organisationId: number; line: 'truck' | 'express' }, MarkupSource | null>(
  async (db, tenantId, { organisationId, line }) => {
    const org = await findOrganisation(db, tenantId, organisationId);
    if (!org) return null;
    const ids = org.path.split('/').filter(Boolean).map(Number);
    const [orgs, levels] = await Promise.all([
      db
        .select({ id: organisations.id, type: organisations.type })
        .from(organisations)
        .where(and(eq(organisations.tenantId, tenantId), inArray(organisations.id, ids))),
      db
        .select()
        .from(priceLevels)
        .where(
          and(
            eq(priceLevels.tenantId, tenantId),
            inArray(priceLevels.organisationId, ids),
            eq(priceLevels.line, line),
          ),
        ),
    ]);
    return { ids, typeOf: new Map(orgs.map((o) => [o.id, o.type])), levels };
  },
  { keyOf: ({ organisationId, line }) => `${organisationId}:${line}`, generation: 'markups' },
);

/**
 * Organisations held per tenant like the markups, and dropped with them on any change of the tree
 * (migration 0031 announces every update and delete of an organisation). One not found is not held,
 * so an organisation created a moment later is found.
 */
const organisationCache = tenantCache<number, OrganisationRow | null>(
  (db, tenantId, id) => findOrganisation(db, tenantId, id),
  { keep: (row) => row !== null, generation: 'markups' },
);

/**
 * What an organisation's markups on a line are worked out from, as this process holds it now: the
 * same object until a change is announced, so a result priced from it can tell whether it still holds.
 */
export const heldMarkups = (
  db: DbOrTx,
  tenantId: number,
  organisationId: number,
  line: 'truck' | 'express',
  seen?: Generations,
): Promise<object | null> => markupCache.get(db, tenantId, { organisationId, line }, seen);

/** Drops the markups and organisations held for a tenant (or all): a change was announced. */
export const forgetMarkups = (tenantId?: number) => {
  markupCache.forget(tenantId);
  organisationCache.forget(tenantId);
};

/**
 * The organisation when the user may see it (as `organisationScope` and `canSeeOrganisation` judge:
 * staff see the tenant's, others their own and those under it), else null; from this process's memory
 * when held. For a quote's pricing, which reads the tariffs and markups from memory already.
 */
export async function visibleOrganisationHeld(
  db: DbOrTx,
  user: Pick<RequestUser, 'tenantId' | 'identity' | 'organisationId'>,
  id: number,
  seen?: Generations,
): Promise<OrganisationRow | null> {
  const organisation = await organisationCache.get(db, user.tenantId, id, seen);
  if (!organisation || user.identity === 'employee') return organisation;
  const own = user.organisationId
    ? await organisationCache.get(db, user.tenantId, user.organisationId, seen)
    : null;
  return own && organisation.path.startsWith(own.path) ? organisation : null;
}

/** The markup chains of several products at once, from this process's memory when held. */
export async function markupChains(
  db: DbOrTx,
  tenantId: number,
  organisationId: number,
  line: 'truck' | 'express',
  productKeys: readonly string[],
  seen?: Generations,
): Promise<Map<string, MarkupChain>> {
  const source = await markupCache.get(db, tenantId, { organisationId, line }, seen);
  if (!source) return new Map();
  const { ids, typeOf, levels } = source;
  const chainFor = (productKey: string): MarkupChain =>
    ids.map((id) => {
      const level = levelForProduct(
        levels.filter((l) => l.organisationId === id),
        productKey,
      );
      return {
        organisationId: id,
        type: typeOf.get(id) ?? 'customer',
        markup: { percentBp: level?.markupPercentBp ?? 0, fixedCents: level?.markupFixedCents ?? 0n },
      };
    });
  return new Map(productKeys.map((key) => [key, chainFor(key)]));
}

/** The level that prices a product: the organisation's own for it, else its default for the line. */
export function levelForProduct<T extends { productKey: string }>(
  levels: readonly T[],
  productKey: string,
): T | undefined {
  return (
    (productKey ? levels.find((l) => l.productKey === productKey) : undefined) ??
    levels.find((l) => l.productKey === '')
  );
}

/**
 * The organisations from the top of the tree down to this one, each with its name and every price
 * level it has on the line: what a page shows to explain how each level's price is reached.
 */
export async function priceLevelPath(
  db: DbOrTx,
  tenantId: number,
  organisation: Pick<OrganisationRow, 'path'>,
  line: 'truck' | 'express',
) {
  const ids = organisation.path.split('/').filter(Boolean).map(Number);
  const [orgs, levels] = await Promise.all([
    db
      .select({ id: organisations.id, type: organisations.type, name: organisations.name })
      .from(organisations)
      .where(and(eq(organisations.tenantId, tenantId), inArray(organisations.id, ids))),
    db
      .select()
      .from(priceLevels)
      .where(
        and(
          eq(priceLevels.tenantId, tenantId),
          inArray(priceLevels.organisationId, ids),
          eq(priceLevels.line, line),
        ),
      ),
  ]);
  return ids.map((id) => {
    const org = orgs.find((o) => o.id === id);
    return {
      organisationId: id,
      type: org?.type ?? ('customer' as const),
      name: org?.name ?? '',
      levels: levels.filter((l) => l.organisationId === id),
    };
  });
}

/** Removes one markup of an organisation; answers whether there was one. */
export async function deletePriceLevel(
  db: DbOrTx,
  input: { tenantId: number; organisationId: number; line: 'truck' | 'express'; productKey: string },
): Promise<boolean> {
  const rows = await db
    .delete(priceLevels)
    .where(
      and(
        eq(priceLevels.tenantId, input.tenantId),
        eq(priceLevels.organisationId, input.organisationId),
        eq(priceLevels.line, input.line),
        eq(priceLevels.productKey, input.productKey),
      ),
    )
    .returning({ organisationId: priceLevels.organisationId });
  return rows.length > 0;
}
