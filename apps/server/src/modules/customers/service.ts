import type { OrganisationType } from '@freight/contracts/identity';
import { and, eq, gt, isNull, or } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
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
