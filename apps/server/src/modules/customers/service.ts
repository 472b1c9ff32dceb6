import type { OrganisationType } from '@freight/contracts/identity';
import { and, eq, gt, isNull, like, or, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import type { RequestUser } from '../../plugins/context.ts';
import { randomToken } from '../../lib/crypto.ts';
import { invitationCodes, organisations } from './schema.ts';

export type OrganisationRow = typeof organisations.$inferSelect;

export async function findOrganisation(
  db: DbOrTx,
  tenantId: number,
  id: number,
): Promise<OrganisationRow | null> {
  const [row] = await db
    .select()
    .from(organisations)
    .where(and(eq(organisations.tenantId, tenantId), eq(organisations.id, id)))
    .limit(1);
  return row ?? null;
}

export async function createOrganisation(
  db: DbOrTx,
  tenantId: number,
  input: {
    type: OrganisationType;
    name: string;
    parentId?: number | null;
    contactName?: string;
    contactEmail?: string;
    contactPhone?: string;
  },
): Promise<OrganisationRow> {
  const parent = input.parentId ? await findOrganisation(db, tenantId, input.parentId) : null;
  if (input.parentId && !parent) throw new Error(`parent organisation ${input.parentId} not found`);
  const [row] = await db
    .insert(organisations)
    .values({
      tenantId,
      type: input.type,
      name: input.name,
      parentId: parent?.id ?? null,
      contactName: input.contactName ?? '',
      contactEmail: input.contactEmail ?? '',
      contactPhone: input.contactPhone ?? '',
    })
    .returning();
  if (!row) throw new Error('organisation insert returned nothing');
  const path = `${parent?.path ?? '/'}${row.id}/`;
  await db
    .update(organisations)
    .set({ path })
    .where(and(eq(organisations.tenantId, tenantId), eq(organisations.id, row.id)));
  return { ...row, path };
}

/** The organisation behind a live invitation code, or null. */
export async function organisationForInvitation(
  db: DbOrTx,
  tenantId: number,
  code: string,
): Promise<OrganisationRow | null> {
  const [row] = await db
    .select({ organisation: organisations })
    .from(invitationCodes)
    .innerJoin(
      organisations,
      and(
        eq(organisations.tenantId, invitationCodes.tenantId),
        eq(organisations.id, invitationCodes.organisationId),
      ),
    )
    .where(
      and(
        eq(invitationCodes.tenantId, tenantId),
        eq(invitationCodes.code, code.trim().toUpperCase()),
        isNull(invitationCodes.revokedAt),
        or(isNull(invitationCodes.expiresAt), gt(invitationCodes.expiresAt, new Date())),
        eq(organisations.enabled, true),
      ),
    )
    .limit(1);
  return row?.organisation ?? null;
}

export async function createInvitationCode(
  db: DbOrTx,
  tenantId: number,
  organisationId: number,
  options: { code?: string; createdBy?: number; expiresAt?: Date } = {},
): Promise<string> {
  const code = (
    options.code ??
    randomToken()
      .replace(/[^A-Za-z0-9]/g, '')
      .slice(0, 8)
  ).toUpperCase();
  await db
    .insert(invitationCodes)
    .values({ tenantId, code, organisationId, createdBy: options.createdBy, expiresAt: options.expiresAt })
    .onConflictDoNothing();
  return code;
}

/**
 * Which organisations a user may see (ARCHITECTURE section 5): staff see the whole tenant; a branch,
 * agent or customer sees its own organisation and everything under it, never a sibling's.
 */
export type OrganisationScope = { kind: 'tenant'; tenantId: number } | { kind: 'subtree'; tenantId: number; path: string };

export async function organisationScope(db: DbOrTx, user: Pick<RequestUser, 'tenantId' | 'identity' | 'organisationId'>): Promise<OrganisationScope> {
  if (user.identity === 'employee') return { kind: 'tenant', tenantId: user.tenantId };
  const own = user.organisationId ? await findOrganisation(db, user.tenantId, user.organisationId) : null;
  // A user without an organisation sees nothing: a path no organisation has.
  return { kind: 'subtree', tenantId: user.tenantId, path: own?.path ?? '/none/' };
}

/** Condition on `organisations` for a scope. */
export function scopeCondition(scope: OrganisationScope): SQL | undefined {
  return and(
    eq(organisations.tenantId, scope.tenantId),
    scope.kind === 'subtree' ? like(organisations.path, `${scope.path}%`) : undefined,
  );
}

/**
 * A subquery of the organisation ids a scope covers, for other modules to filter their own rows by
 * (`inArray(accounts.organisationId, visibleOrganisationIds(db, scope))`) without reading this table.
 */
export function visibleOrganisationIds(db: DbOrTx, scope: OrganisationScope) {
  return db.select({ id: organisations.id }).from(organisations).where(scopeCondition(scope));
}

export async function canSeeOrganisation(db: DbOrTx, scope: OrganisationScope, organisationId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: organisations.id })
    .from(organisations)
    .where(and(scopeCondition(scope), eq(organisations.id, organisationId)))
    .limit(1);
  return Boolean(row);
}
