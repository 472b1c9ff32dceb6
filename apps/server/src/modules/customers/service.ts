import type { AccountAction, BusinessLine } from '@freight/contracts/accounts';
import type { Language } from '@freight/contracts/api';
import type { RegisterBody } from '@freight/contracts/auth';
import {
  CHILD_TYPES,
  type OrganisationSaveBody,
  type organisationUserSaveBody,
} from '@freight/contracts/customers';
import type { OrganisationType } from '@freight/contracts/identity';
import { and, count, desc, eq, gt, ilike, inArray, isNull, like, lt, or, type SQL, sql } from 'drizzle-orm';
import { alias, PgTransaction } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import type { DbOrTx } from '../../db/client.ts';
import { randomToken } from '../../lib/crypto.ts';
import { badField, conflict, notFound } from '../../lib/errors.ts';
import { containing, prefixRange, startsWith } from '../../lib/filters.ts';
import { keysetPages } from '../../lib/keyset.ts';
import { handleKey } from '../../lib/short-cache.ts';
import type { RequestUser } from '../../plugins/context.ts';
import type { AccountRow } from '../accounts/service.ts';
import {
  consumeVerificationCode,
  createUser,
  findUser,
  findUserByEmail,
  type NewUser,
  type UserRow,
} from '../auth/service.ts';
import { setOrganisationUsersEnabled, updateUserProfile } from '../auth/users.ts';
import { clientOf, consumeLimit, LIMITS } from '../limits/service.ts';
import { assignRoles, roleIdsByCode } from '../roles/service.ts';
import { claimUpload, recordOf } from '../uploads/service.ts';
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

export interface NewOrganisation {
  type: OrganisationType;
  name: string;
  parentId?: number | null;
  contactName?: string;
  contactEmail?: string;
  contactPhone?: string;
  /** Its first sign-in account: the organisation's type is its identity and the name of its role. */
  firstUser?: Omit<NewUser, 'identity' | 'organisationId' | 'company'>;
  /** An invitation code it hands out from the start (branches and agents), as given. */
  invitationCode?: string;
}

/** An organisation's account of one line as the organisation pages show it (cents). */
export type OrganisationAccount = Pick<
  AccountRow,
  'id' | 'status' | 'balance' | 'creditLimit' | 'frozen' | 'deposit'
> & { available: bigint; actions: AccountAction[] };

/**
 * The accounts' part of the organisations: opened with each one, shown on its pages. The accounts
 * module registers it as it loads; it sits above this one (its lists are scoped by the tree).
 */
export interface OrganisationAccounts {
  /** Opens a new organisation's account on each line, in the transaction that creates it. */
  open(tx: DbOrTx, tenantId: number, organisationId: number): Promise<void>;
  /** These organisations' accounts of one line, with the moves the caller may make on each. */
  of(
    db: DbOrTx,
    caller: RequestUser,
    organisationIds: number[],
    line: BusinessLine,
  ): Promise<Map<number, OrganisationAccount>>;
}

let registeredAccounts: OrganisationAccounts | null = null;

export function registerOrganisationAccounts(accounts: OrganisationAccounts) {
  registeredAccounts = accounts;
}

/** Throws rather than make an organisation without accounts in a process that has not loaded them. */
export function organisationAccounts(): OrganisationAccounts {
  if (!registeredAccounts) throw new Error('organisations: the accounts module has not registered');
  return registeredAccounts;
}

/**
 * The one way an organisation comes to be, whether staff or a parent add it, a shipper registers, or
 * the demo is seeded: the organisation in the tree, its account on each business line, and, as
 * asked, its first user with the built-in role of its type and an invitation code.
 */
export async function createOrganisation(
  db: DbOrTx,
  tenantId: number,
  input: NewOrganisation,
): Promise<OrganisationRow & { firstUser: UserRow | null }> {
  return db.transaction(async (tx) => {
    const parent = input.parentId ? await findOrganisation(tx, tenantId, input.parentId) : null;
    if (input.parentId && !parent) throw new Error(`parent organisation ${input.parentId} not found`);
    // Whichever way in, nothing is put under a customer: its users' scope is that one organisation
    // (`organisationScope`). Which types go where is otherwise the callers' rule (`addOrganisation`).
    if (parent && CHILD_TYPES[parent.type].length === 0)
      throw badField('parentId', 'customers.parentNotAllowed');
    const [row] = await tx
      .insert(organisations)
      .values({
        tenantId,
        type: input.type,
        name: input.name,
        parentId: parent?.id ?? null,
        contactName: input.contactName || input.firstUser?.name || '',
        contactEmail: input.contactEmail || input.firstUser?.email || '',
        contactPhone: input.contactPhone ?? '',
      })
      .returning();
    if (!row) throw new Error('organisation insert returned nothing');
    const path = `${parent?.path ?? '/'}${row.id}/`;
    await tx
      .update(organisations)
      .set({ path })
      .where(and(eq(organisations.tenantId, tenantId), eq(organisations.id, row.id)));
    await organisationAccounts().open(tx, tenantId, row.id);
    const firstUser = input.firstUser ? await addUserTo(tx, tenantId, row, input.firstUser) : null;
    if (input.invitationCode)
      await createInvitationCode(tx, tenantId, row.id, { code: input.invitationCode });
    return { ...row, path, firstUser };
  });
}

type NewMember = Omit<NewUser, 'identity' | 'organisationId' | 'company'>;

/** A user of an organisation: its type is the user's identity and the name of the user's role. */
async function addUserTo(
  db: DbOrTx,
  tenantId: number,
  organisation: Pick<OrganisationRow, 'id' | 'type' | 'name'>,
  member: NewMember,
): Promise<UserRow> {
  return db.transaction(async (tx) => {
    const user = await createUser(tx, tenantId, {
      ...member,
      identity: organisation.type,
      organisationId: organisation.id,
      company: organisation.name,
    });
    const roleIds = await roleIdsByCode(tx, tenantId, [organisation.type]);
    await assignRoles(tx, tenantId, user.id, [...roleIds.values()]);
    return user;
  });
}

/** Adds a user to an organisation, or changes one of its users' e-mail, name and phone. */
export async function saveOrganisationUser(
  db: DbOrTx,
  tenantId: number,
  organisation: Pick<OrganisationRow, 'id' | 'type' | 'name'>,
  body: z.infer<typeof organisationUserSaveBody>,
): Promise<number> {
  const other = await findUserByEmail(db, tenantId, body.email);
  if (body.id) {
    const user = await findUser(db, tenantId, body.id);
    if (!user || user.organisationId !== organisation.id) throw notFound();
    if (other && other.id !== user.id) throw badField('email', 'auth.emailTaken');
    await updateUserProfile(db, tenantId, user.id, { email: body.email, name: body.name, phone: body.phone });
    return user.id;
  }
  if (other) throw badField('email', 'auth.emailTaken');
  if (!body.password) throw badField('password', 'staff.passwordRequired');
  const user = await addUserTo(db, tenantId, organisation, {
    email: body.email,
    password: body.password,
    name: body.name,
    phone: body.phone,
  });
  return user.id;
}

/**
 * Enables or disables an organisation, and its users with it (disabled users' sessions end);
 * disabling is refused while enabled organisations hang under it.
 */
export async function setOrganisationStatus(db: DbOrTx, tenantId: number, id: number, enabled: boolean) {
  await db.transaction(async (tx) => {
    const outcome = await setOrganisationEnabled(tx, tenantId, id, enabled);
    if (outcome === 'hasActiveChildren') throw conflict('customers.hasActiveChildren');
    await setOrganisationUsersEnabled(tx, tenantId, id, enabled);
  });
}

/**
 * A new organisation added by staff or by a branch or agent: under the platform (staff only) or
 * under a parent the caller sees and whose type may hold it, with its first user.
 */
export async function addOrganisation(
  db: DbOrTx,
  caller: Pick<RequestUser, 'tenantId' | 'identity' | 'organisationId'>,
  body: OrganisationSaveBody,
): Promise<OrganisationRow> {
  let parentType: keyof typeof CHILD_TYPES = 'platform';
  if (body.parentId) {
    const scope = await organisationScope(db, caller);
    const parent = await findOrganisation(db, caller.tenantId, body.parentId);
    if (!parent || !(await canSeeOrganisation(db, scope, parent.id)))
      throw badField('parentId', 'customers.parentNotVisible');
    parentType = parent.type;
  } else if (caller.identity !== 'employee') {
    throw badField('parentId', 'customers.parentNotVisible');
  }
  if (!CHILD_TYPES[parentType].includes(body.type)) throw badField('parentId', 'customers.parentNotAllowed');
  if (!body.user) throw badField('user', 'customers.userRequired');
  if (await findUserByEmail(db, caller.tenantId, body.user.email))
    throw badField('user.email', 'auth.emailTaken');
  return createOrganisation(db, caller.tenantId, {
    type: body.type,
    name: body.name,
    parentId: body.parentId,
    contactName: body.contactName,
    contactEmail: body.contactEmail,
    contactPhone: body.contactPhone,
    firstUser: body.user,
  });
}

/**
 * A shipper registers (SPEC section 1): a customer organisation under whoever issued the invitation
 * code (or the platform), with the shipper as its first user and the business details as the
 * user's profile. The e-mailed code is spent before anything is written, and stays spent (a wrong
 * guess counts) when the registration is refused.
 */
export async function registerShipper(
  db: DbOrTx,
  tenantId: number,
  body: RegisterBody,
  language: Language,
  client: { ip: string; limitScale?: number } = { ip: '' },
): Promise<UserRow> {
  await consumeLimit(
    db,
    `register:${tenantId}:${body.email.trim().toLowerCase()}:${clientOf(client.ip)}`,
    LIMITS.registerPerAddress,
    client.limitScale ?? 1,
  );
  const parent = body.invitationCode
    ? await organisationForInvitation(db, tenantId, body.invitationCode)
    : null;
  if (body.invitationCode && !parent) throw badField('invitationCode', 'auth.invitationInvalid');
  // The code first: only who proves the mailbox is told that the address already has an account.
  if (!(await consumeVerificationCode(db, tenantId, body.email, 'register', body.code)))
    throw badField('code', 'auth.codeInvalid');
  if (await findUserByEmail(db, tenantId, body.email)) throw badField('email', 'auth.emailTaken');
  const { email, code: _code, invitationCode: _inv, password, confirmPassword: _c, ...profile } = body;
  const name = `${body.name} ${body.surname}`;
  // The licence was uploaded before sign-in; the new organisation claims it in the same transaction.
  return db.transaction(async (tx) => {
    const organisation = await createOrganisation(tx, tenantId, {
      type: 'customer',
      name: body.company,
      parentId: parent?.id ?? null,
      contactName: name,
      contactEmail: email,
      contactPhone: body.phone,
      firstUser: {
        email,
        password,
        name,
        phone: body.phone,
        locale: language === 'en-US' ? 'en' : 'zh_CN',
        profile,
      },
    });
    await claimUpload(tx, tenantId, body.licenseUrl, recordOf('organisation', organisation.id), {
      field: 'licenseUrl',
      by: null,
    });
    return organisation.firstUser as UserRow;
  });
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

/**
 * Whether a code would place a registering shipper under someone (the registration form asks on its
 * first step). The answer is yes or no only: it never says whose code it is. How often one client may
 * ask is the route's limit (`LIMITS.invitationPerIp`), counted in the shared rate-limit store.
 */
export async function checkInvitationCode(
  db: DbOrTx,
  input: { tenantId: number; code: string },
): Promise<boolean> {
  return (await organisationForInvitation(db, input.tenantId, input.code)) !== null;
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
export type OrganisationScope =
  | { kind: 'tenant'; tenantId: number }
  | {
      kind: 'subtree';
      tenantId: number;
      path: string;
      /**
       * The organisation itself when nothing can be under it (a customer: `CHILD_TYPES`): the scope is
       * then that one organisation, which a list filters by equality, not through the tree.
       */
      only?: number;
    };

/**
 * Organisation paths by database handle, tenant and id. A path is written once, when its organisation is
 * created, and never changes (an organisation is not moved in the tree), so a path read is good for the
 * life of the process and every list call of the customer side saves its round trip. A read inside a
 * transaction is not kept: it may see an organisation a rollback takes back. Bounded: cleared when full.
 */
const pathOf = new Map<string, { path: string; only?: number }>();
const PATHS_KEPT = 50_000;

export async function organisationScope(
  db: DbOrTx,
  user: Pick<RequestUser, 'tenantId' | 'identity' | 'organisationId'>,
): Promise<OrganisationScope> {
  if (user.identity === 'employee') return { kind: 'tenant', tenantId: user.tenantId };
  // A user without an organisation sees nothing: a path no organisation has.
  if (!user.organisationId) return { kind: 'subtree', tenantId: user.tenantId, path: '/none/' };
  const held = !(db instanceof PgTransaction);
  const key = `${handleKey(db)}:${user.tenantId}:${user.organisationId}`;
  let place = held ? pathOf.get(key) : undefined;
  if (place === undefined) {
    const own = await findOrganisation(db, user.tenantId, user.organisationId);
    if (!own) return { kind: 'subtree', tenantId: user.tenantId, path: '/none/' };
    // An organisation's type, like its path, never changes.
    place = CHILD_TYPES[own.type].length === 0 ? { path: own.path, only: own.id } : { path: own.path };
    if (held) {
      if (pathOf.size >= PATHS_KEPT) pathOf.clear();
      pathOf.set(key, place);
    }
  }
  return { kind: 'subtree', tenantId: user.tenantId, ...place };
}

/** Condition on `organisations` for a scope. */
export function scopeCondition(scope: OrganisationScope): SQL | undefined {
  if (scope.kind === 'tenant') return eq(organisations.tenantId, scope.tenantId);
  return and(
    eq(organisations.tenantId, scope.tenantId),
    scope.only === undefined
      ? startsWith([organisations.path], scope.path)
      : eq(organisations.id, scope.only),
  );
}

/**
 * A subquery of the organisation ids a scope covers, for other modules to filter their own rows by
 * (`inArray(accounts.organisationId, visibleOrganisationIds(db, scope))`) without reading this table.
 */
export function visibleOrganisationIds(db: DbOrTx, scope: OrganisationScope) {
  // One organisation is named: the database then knows it filters by one value, and a list of it reads
  // its own index range (through the tree, a page deep in a customer's orders read them all and sorted).
  if (scope.kind === 'subtree' && scope.only !== undefined) return [scope.only];
  return db.select({ id: organisations.id }).from(organisations).where(scopeCondition(scope));
}

/**
 * `visibleOrganisationIds` for a statement prepared once and run for every caller of a subtree scope:
 * the tenant and the scope are its parameters `tenantId` and those of `scopeParamsOf`.
 */
export function visibleOrganisationIdsPrepared(db: DbOrTx) {
  return db
    .select({ id: organisations.id })
    .from(organisations)
    .where(
      and(
        eq(organisations.tenantId, sql.placeholder('tenantId')),
        sql`${organisations.path} ~>=~ ${sql.placeholder('scopeStart')}`,
        sql`${organisations.path} ~<~ ${sql.placeholder('scopeEnd')}`,
        like(organisations.path, sql.placeholder('scopePattern')),
      ),
    );
}

/**
 * The parameters of `visibleOrganisationIdsPrepared` for a subtree scope: its paths' byte range (which
 * the path index serves under row-level security, see `startsWith`) and the exact pattern.
 */
export function scopeParamsOf(scope: Extract<OrganisationScope, { kind: 'subtree' }>) {
  const { start, end, pattern } = prefixRange(scope.path);
  return { scopeStart: start, scopeEnd: end, scopePattern: pattern };
}

/**
 * A subquery of the organisations in a scope whose name, contact or contact e-mail contains the
 * keyword: other modules filter their rows by a customer's name with it, in the database.
 */
export function organisationIdsMatching(db: DbOrTx, scope: OrganisationScope, keyword: string) {
  const pattern = containing(keyword);
  return db
    .select({ id: organisations.id })
    .from(organisations)
    .where(
      and(
        scopeCondition(scope),
        or(
          ilike(organisations.name, pattern),
          ilike(organisations.contactName, pattern),
          ilike(organisations.contactEmail, pattern),
        ),
      ),
    );
}

export async function canSeeOrganisation(
  db: DbOrTx,
  scope: OrganisationScope,
  organisationId: number,
): Promise<boolean> {
  const [row] = await db
    .select({ id: organisations.id })
    .from(organisations)
    .where(and(scopeCondition(scope), eq(organisations.id, organisationId)))
    .limit(1);
  return Boolean(row);
}

/* ---------- organisation management ---------- */

export type ListKind = import('@freight/contracts/customers').CustomerListKind;

/** The page behind each list, per business line: holding it is what lets a user read that list. */
export const CUSTOMER_LIST_PAGES: Record<ListKind, Record<BusinessLine, string>> = {
  branch: { truck: '/branchManagement', express: '/expressBranchManagement' },
  agent: { truck: '/branchManagement', express: '/expressBranchManagement' },
  agentCustomer: { truck: '/general-customer-management', express: '/deliveryAgentCustomerManagement' },
  directCustomer: { truck: '/directCustomerManagement', express: '/deliveryDirectCustomerManagement' },
  allCustomer: { truck: '/allCustomer', express: '/expressAllCustomer' },
};

export const mayListOrganisations = (
  user: Pick<RequestUser, 'grants'>,
  list: { kind: ListKind; line: BusinessLine },
) => user.grants.has(CUSTOMER_LIST_PAGES[list.kind][list.line]);

const parentOrg = alias(organisations, 'parent_org');

/** Rows of one customer page, within the caller's scope. */
export function organisationListCondition(
  scope: OrganisationScope,
  filter: { kind: ListKind; keyword?: string; enabled?: boolean; parentId?: number },
): SQL | undefined {
  const byKind: Record<ListKind, SQL | undefined> = {
    branch: eq(organisations.type, 'branch'),
    agent: eq(organisations.type, 'agent'),
    agentCustomer: and(eq(organisations.type, 'customer'), eq(parentOrg.type, 'agent')),
    directCustomer: and(
      eq(organisations.type, 'customer'),
      or(isNull(organisations.parentId), eq(parentOrg.type, 'branch')),
    ),
    allCustomer: eq(organisations.type, 'customer'),
  };
  const keyword = filter.keyword ? `%${filter.keyword}%` : null;
  return and(
    scopeCondition(scope),
    byKind[filter.kind],
    keyword
      ? or(
          ilike(organisations.name, keyword),
          ilike(organisations.contactName, keyword),
          ilike(organisations.contactEmail, keyword),
          ilike(organisations.contactPhone, keyword),
        )
      : undefined,
    filter.enabled === undefined ? undefined : eq(organisations.enabled, filter.enabled),
    filter.parentId ? eq(organisations.parentId, filter.parentId) : undefined,
  );
}

/** The list's columns: the organisation with its parent's name and type. */
const listColumns = {
  id: organisations.id,
  type: organisations.type,
  name: organisations.name,
  parentId: organisations.parentId,
  parentName: parentOrg.name,
  parentType: parentOrg.type,
  contactName: organisations.contactName,
  contactEmail: organisations.contactEmail,
  contactPhone: organisations.contactPhone,
  enabled: organisations.enabled,
  createdAt: organisations.createdAt,
};
const parentJoin = and(
  eq(parentOrg.tenantId, organisations.tenantId),
  eq(parentOrg.id, organisations.parentId),
);

/** Organisations with their parent, as the lists read them. */
const selectListed = (db: DbOrTx) =>
  db.select(listColumns).from(organisations).leftJoin(parentOrg, parentJoin);
export type OrganisationListRow = Awaited<ReturnType<typeof selectListed>>[number];

/** A page of one customer page's rows, newest first. */
export async function listOrganisations(
  db: DbOrTx,
  scope: OrganisationScope,
  filter: Parameters<typeof organisationListCondition>[1],
  page: { page: number; limit: number },
) {
  const condition = organisationListCondition(scope, filter);
  const [list, [total]] = await Promise.all([
    selectListed(db)
      .where(condition)
      .orderBy(desc(organisations.id))
      .limit(page.limit)
      .offset((page.page - 1) * page.limit),
    db.select({ n: count() }).from(organisations).leftJoin(parentOrg, parentJoin).where(condition),
  ]);
  return { list, total: total?.n ?? 0 };
}

/**
 * The export's rows of one customer page: the list's filter and order, a keyset page at a time, and
 * their count up to a cap (an index range that stops early).
 */
export function organisationExportRows(
  db: DbOrTx,
  scope: OrganisationScope,
  filter: Parameters<typeof organisationListCondition>[1],
) {
  const condition = organisationListCondition(scope, filter);
  return {
    async count(cap: number) {
      const matching = db
        .select({ one: sql`1` })
        .from(organisations)
        .leftJoin(parentOrg, parentJoin)
        .where(condition)
        .limit(cap + 1)
        .as('matching');
      const [row] = await db.select({ n: count() }).from(matching);
      return row?.n ?? 0;
    },
    pages: (size: number) =>
      keysetPages<OrganisationListRow>(size, (after, limit) =>
        selectListed(db)
          .where(and(condition, after ? lt(organisations.id, after.id) : undefined))
          .orderBy(desc(organisations.id))
          .limit(limit),
      ),
  };
}

export async function updateOrganisation(
  db: DbOrTx,
  tenantId: number,
  id: number,
  fields: { name: string; contactName: string; contactEmail: string; contactPhone: string },
) {
  await db
    .update(organisations)
    .set(fields)
    .where(and(eq(organisations.tenantId, tenantId), eq(organisations.id, id)));
}

/** Enables or disables one organisation; disabling is refused while enabled organisations hang under it. */
export async function setOrganisationEnabled(db: DbOrTx, tenantId: number, id: number, enabled: boolean) {
  if (!enabled) {
    const [child] = await db
      .select({ id: organisations.id })
      .from(organisations)
      .where(
        and(
          eq(organisations.tenantId, tenantId),
          eq(organisations.parentId, id),
          eq(organisations.enabled, true),
        ),
      )
      .limit(1);
    if (child) return 'hasActiveChildren' as const;
  }
  await db
    .update(organisations)
    .set({ enabled })
    .where(and(eq(organisations.tenantId, tenantId), eq(organisations.id, id)));
  return 'ok' as const;
}

export async function listInvitationCodes(db: DbOrTx, tenantId: number, organisationId: number) {
  return db
    .select()
    .from(invitationCodes)
    .where(and(eq(invitationCodes.tenantId, tenantId), eq(invitationCodes.organisationId, organisationId)))
    .orderBy(desc(invitationCodes.id));
}

export async function revokeInvitationCode(db: DbOrTx, tenantId: number, organisationId: number, id: number) {
  const rows = await db
    .update(invitationCodes)
    .set({ revokedAt: new Date() })
    .where(
      and(
        eq(invitationCodes.tenantId, tenantId),
        eq(invitationCodes.organisationId, organisationId),
        eq(invitationCodes.id, id),
        isNull(invitationCodes.revokedAt),
      ),
    )
    .returning({ id: invitationCodes.id });
  return rows.length === 1;
}

/** Enabled organisations of these types within a scope, by name: the choices of a parent picker. */
export async function parentOptions(
  db: DbOrTx,
  scope: OrganisationScope,
  types: readonly OrganisationType[],
) {
  if (types.length === 0) return [];
  return db
    .select({ id: organisations.id, name: organisations.name, type: organisations.type })
    .from(organisations)
    .where(
      and(scopeCondition(scope), inArray(organisations.type, [...types]), eq(organisations.enabled, true)),
    )
    .orderBy(organisations.name)
    .limit(1000);
}

/** Names of organisations by id, for lists that show whose row it is. */
export async function organisationNames(
  db: DbOrTx,
  tenantId: number,
  ids: number[],
): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: organisations.id, name: organisations.name })
    .from(organisations)
    .where(and(eq(organisations.tenantId, tenantId), inArray(organisations.id, ids)));
  return new Map(rows.map((r) => [r.id, r.name]));
}

/** Where an organisation sits in the tree: its path and the branch and agent above it (or itself). */
export interface OrganisationLineage {
  path: string;
  branchId: number | null;
  agentId: number | null;
}

/**
 * The lineage of each organisation asked for, in one query: the ancestors are the ids of its path,
 * so the branch and the agent are found by key. Reports copy it into their aggregates.
 */
export async function organisationLineages(
  db: DbOrTx,
  tenantId: number,
  ids: readonly number[],
): Promise<Map<number, OrganisationLineage>> {
  if (ids.length === 0) return new Map();
  const ancestor = alias(organisations, 'ancestor');
  const rows = await db
    .select({
      id: organisations.id,
      path: organisations.path,
      type: ancestor.type,
      ancestorId: ancestor.id,
    })
    .from(organisations)
    .leftJoin(
      ancestor,
      and(
        eq(ancestor.tenantId, organisations.tenantId),
        sql`${ancestor.id} = any(string_to_array(trim(both '/' from ${organisations.path}), '/')::bigint[])`,
        inArray(ancestor.type, ['branch', 'agent']),
      ),
    )
    .where(and(eq(organisations.tenantId, tenantId), inArray(organisations.id, [...new Set(ids)])));
  const lineages = new Map<number, OrganisationLineage>();
  for (const row of rows) {
    const lineage = lineages.get(row.id) ?? { path: row.path, branchId: null, agentId: null };
    if (row.type === 'branch') lineage.branchId = row.ancestorId;
    if (row.type === 'agent') lineage.agentId = row.ancestorId;
    lineages.set(row.id, lineage);
  }
  return lineages;
}

/** Organisations in a scope whose name contains the keyword, by name: the choices of a picker. */
export async function organisationOptions(db: DbOrTx, scope: OrganisationScope, keyword = '', limit = 50) {
  return db
    .select({ id: organisations.id, name: organisations.name, type: organisations.type })
    .from(organisations)
    .where(and(scopeCondition(scope), keyword ? ilike(organisations.name, containing(keyword)) : undefined))
    .orderBy(organisations.name)
    .limit(limit);
}
