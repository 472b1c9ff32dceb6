// The user directory: a user's language, enabling and disabling, the staff list and its export, an
// organisation's users, profiles, pickers and counts. Signing in, codes, sessions and passwords are in
// service.ts.
import { type Language, localeFromLanguage } from '@freight/contracts/api';
import type { Identity } from '@freight/contracts/identity';
import { and, count, eq, gt, ilike, inArray, or, type SQLWrapper, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { containing } from '../../lib/filters.ts';
import { cappedCount, keysetPages } from '../../lib/keyset.ts';
import { users } from './schema.ts';
import { normEmail, revokeUserSessions, sessionsChanged } from './service.ts';

export async function setLocale(db: DbOrTx, tenantId: number, userId: number, language: Language) {
  await db
    .update(users)
    .set({ locale: localeFromLanguage(language) })
    .where(and(eq(users.tenantId, tenantId), eq(users.id, userId)));
  // The signed-in user carries the locale.
  await sessionsChanged(db);
}

export async function setUserEnabled(db: DbOrTx, tenantId: number, userId: number, enabled: boolean) {
  const [row] = await db
    .update(users)
    .set({ enabled })
    .where(and(eq(users.tenantId, tenantId), eq(users.id, userId)))
    .returning({ id: users.id });
  if (!row) return false;
  if (!enabled) await revokeUserSessions(db, tenantId, userId);
  await sessionsChanged(db);
  return true;
}

/** What the staff list filters on: e-mail or name containing the keyword, enabled or not, among these users. */
export interface StaffFilter {
  keyword?: string;
  enabled?: boolean;
  /** Only these users (e.g. those holding a role); an empty list matches nobody. */
  userIds?: number[];
}

function staffWhere(tenantId: number, f: StaffFilter) {
  const pattern = f.keyword ? containing(f.keyword) : undefined;
  return and(
    eq(users.tenantId, tenantId),
    eq(users.identity, 'employee'),
    pattern ? or(ilike(users.email, pattern), ilike(users.name, pattern)) : undefined,
    f.enabled === undefined ? undefined : eq(users.enabled, f.enabled),
    f.userIds ? inArray(users.id, f.userIds) : undefined,
  );
}

const staffColumns = {
  id: users.id,
  email: users.email,
  name: users.name,
  phone: users.phone,
  enabled: users.enabled,
  lastLoginAt: users.lastLoginAt,
  createdAt: users.createdAt,
};

/** A page of the tenant's staff accounts, oldest first. */
export async function listStaffUsers(
  db: DbOrTx,
  tenantId: number,
  filter: StaffFilter,
  page: { page: number; limit: number },
) {
  return db
    .select(staffColumns)
    .from(users)
    .where(staffWhere(tenantId, filter))
    .orderBy(users.id)
    .limit(page.limit)
    .offset((page.page - 1) * page.limit);
}

export type StaffUserRow = Awaited<ReturnType<typeof listStaffUsers>>[number];

/** The tenant's staff accounts for an export: the list's filter and order, a keyset page at a time. */
export function staffUserRows(db: DbOrTx, tenantId: number, filter: StaffFilter) {
  const condition = staffWhere(tenantId, filter);
  return {
    count: (cap: number) => cappedCount(db, users, condition, cap),
    pages: (size: number) =>
      keysetPages<StaffUserRow>(size, (after, limit) =>
        db
          .select(staffColumns)
          .from(users)
          .where(and(condition, after ? gt(users.id, after.id) : undefined))
          .orderBy(users.id)
          .limit(limit),
      ),
  };
}

export async function countStaffUsers(db: DbOrTx, tenantId: number, filter: StaffFilter): Promise<number> {
  const [row] = await db.select({ n: count() }).from(users).where(staffWhere(tenantId, filter));
  return row?.n ?? 0;
}

/** How many users each of these organisations has. */
export async function countUsersByOrganisation(db: DbOrTx, tenantId: number, organisationIds: number[]) {
  if (organisationIds.length === 0) return new Map<number, number>();
  const rows = await db
    .select({ organisationId: users.organisationId, n: count() })
    .from(users)
    .where(and(eq(users.tenantId, tenantId), inArray(users.organisationId, organisationIds)))
    .groupBy(users.organisationId);
  return new Map(rows.map((r) => [r.organisationId as number, r.n]));
}

export async function usersOfOrganisation(db: DbOrTx, tenantId: number, organisationId: number) {
  return db
    .select({
      id: users.id,
      email: users.email,
      name: users.name,
      phone: users.phone,
      identity: users.identity,
      enabled: users.enabled,
      lastLoginAt: users.lastLoginAt,
      createdAt: users.createdAt,
      // The business licence a registering shipper uploaded, for staff reviewing the customer.
      licenseUrl: sql<string | null>`${users.profile}->>'licenseUrl'`,
    })
    .from(users)
    .where(and(eq(users.tenantId, tenantId), eq(users.organisationId, organisationId)))
    .orderBy(users.id);
}

/** Enables or disables every user of an organisation; disabling ends their sessions. */
export async function setOrganisationUsersEnabled(
  db: DbOrTx,
  tenantId: number,
  organisationId: number,
  enabled: boolean,
) {
  const changed = await db
    .update(users)
    .set({ enabled })
    .where(and(eq(users.tenantId, tenantId), eq(users.organisationId, organisationId)))
    .returning({ id: users.id });
  if (!enabled) for (const u of changed) await revokeUserSessions(db, tenantId, u.id);
  await sessionsChanged(db);
}

export async function updateUserProfile(
  db: DbOrTx,
  tenantId: number,
  userId: number,
  fields: { email?: string; name?: string; phone?: string },
) {
  await db
    .update(users)
    .set({ ...fields, ...(fields.email ? { email: normEmail(fields.email) } : {}) })
    .where(and(eq(users.tenantId, tenantId), eq(users.id, userId)));
  // The signed-in user carries the e-mail and the name.
  await sessionsChanged(db);
}

/** A few users whose e-mail, name or company matches, for pickers. */
export async function searchUsers(db: DbOrTx, tenantId: number, keyword: string, limit = 20) {
  const pattern = containing(keyword);
  return db
    .select({ id: users.id, email: users.email, name: users.name, company: users.company })
    .from(users)
    .where(
      and(
        eq(users.tenantId, tenantId),
        keyword
          ? or(ilike(users.email, pattern), ilike(users.name, pattern), ilike(users.company, pattern))
          : undefined,
      ),
    )
    .orderBy(users.email)
    .limit(limit);
}

export async function usersByIds(db: DbOrTx, tenantId: number, ids: number[]) {
  if (ids.length === 0) return [];
  return db
    .select({ id: users.id, email: users.email, name: users.name, company: users.company })
    .from(users)
    .where(and(eq(users.tenantId, tenantId), inArray(users.id, ids)))
    .orderBy(users.email);
}

/**
 * How many users a group holds: every user of the tenant, those of some identities, or those of some
 * organisations (a list of ids, or a subquery of them another module gives). An empty list matches none.
 */
export async function countUsers(
  db: DbOrTx,
  tenantId: number,
  filter: { identities?: readonly Identity[]; organisationIds?: number[] | SQLWrapper } = {},
): Promise<number> {
  const { identities, organisationIds } = filter;
  if (identities?.length === 0 || (Array.isArray(organisationIds) && organisationIds.length === 0)) return 0;
  const [row] = await db
    .select({ n: count() })
    .from(users)
    .where(
      and(
        eq(users.tenantId, tenantId),
        identities ? inArray(users.identity, [...identities]) : undefined,
        organisationIds ? inArray(users.organisationId, organisationIds) : undefined,
      ),
    );
  return row?.n ?? 0;
}
