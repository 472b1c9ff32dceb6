import { randomBytes } from 'node:crypto';
import {
  API_KEY_ID_LENGTH,
  API_KEY_LENGTH,
  API_KEY_PREFIX,
  API_KEY_SCOPES,
  type ApiKeyCreateBody,
  type ApiKeyListQuery,
  type ApiKeyStatus,
  MAX_LIVE_KEYS_PER_USER,
} from '@freight/contracts/integrations';
import { and, count, desc, eq, ilike, isNotNull, isNull, lt, or, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { sha256Hex } from '../../lib/crypto.ts';
import { conflict, forbidden, notFound } from '../../lib/errors.ts';
import { containing } from '../../lib/filters.ts';
import type { RequestUser } from '../../plugins/context.ts';
import { usersByIds } from '../auth/users.ts';
import { organisationNames } from '../customers/service.ts';
import { apiKeys } from './schema.ts';

type Caller = Pick<RequestUser, 'id' | 'tenantId' | 'identity' | 'organisationId'>;
export type ApiKeyRow = typeof apiKeys.$inferSelect;

/** How often a key's "last used" is written at most: a busy integration must not write on every call. */
const LAST_USED_EVERY_MS = 60_000;

/** A pattern for text that starts with what was typed, wildcards matched as themselves. */
const startingWith = (keyword: string) => `${containing(keyword).slice(1)}`;

const isStaff = (caller: Caller) => caller.identity === 'employee';

/** The keys a caller may see: staff every key of the tenant, anyone else its organisation's. */
function visibleTo(caller: Caller): SQL | undefined {
  const tenant = eq(apiKeys.tenantId, caller.tenantId);
  if (isStaff(caller)) return tenant;
  if (!caller.organisationId) return sql`false`;
  return and(tenant, eq(apiKeys.organisationId, caller.organisationId));
}

/** A new key: `fpk_` and 32 random bytes, base64url. */
export function newApiKey(): string {
  return `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
}

/** Only keys of our shape are looked up: anything else is refused without a query. */
export const looksLikeApiKey = (key: string) =>
  key.length === API_KEY_LENGTH && key.startsWith(API_KEY_PREFIX) && /^[A-Za-z0-9_-]+$/.test(key);

async function present(db: DbOrTx, tenantId: number, rows: ApiKeyRow[]) {
  const orgIds = [...new Set(rows.map((r) => r.organisationId).filter((id): id is number => id != null))];
  const names = await organisationNames(db, tenantId, orgIds);
  const people = await usersByIds(db, tenantId, [...new Set(rows.map((r) => r.userId))]);
  const emails = new Map(people.map((u) => [u.id, u.email]));
  return rows.map((r) => ({
    id: r.id,
    prefix: r.prefix,
    name: r.name,
    scopes: r.scopes,
    organisationId: r.organisationId,
    organisationName: r.organisationId == null ? '' : (names.get(r.organisationId) ?? ''),
    userId: r.userId,
    userEmail: emails.get(r.userId) ?? '',
    status: (r.revokedAt ? 'revoked' : 'active') as ApiKeyStatus,
    createdAt: r.createdAt,
    lastUsedAt: r.lastUsedAt,
    revokedAt: r.revokedAt,
  }));
}

export async function listApiKeysFor(db: DbOrTx, caller: Caller, query: ApiKeyListQuery) {
  const { page, limit, keyword, status } = query;
  const where = and(
    visibleTo(caller),
    keyword
      ? or(ilike(apiKeys.prefix, startingWith(keyword)), ilike(apiKeys.name, containing(keyword)))
      : undefined,
    status === 'active'
      ? isNull(apiKeys.revokedAt)
      : status === 'revoked'
        ? isNotNull(apiKeys.revokedAt)
        : undefined,
  );
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(apiKeys)
      .where(where)
      .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id))
      .limit(limit)
      .offset((page - 1) * limit),
    db.select({ n: count() }).from(apiKeys).where(where),
  ]);
  return { list: await present(db, caller.tenantId, rows), total: total?.n ?? 0, page, limit };
}

/**
 * Makes a key acting as the caller, for the caller's organisation; answers it whole, the only time it
 * is ever seen. A user of no organisation who is not staff has nothing a key could act for.
 */
export async function createApiKeyFor(db: DbOrTx, caller: Caller, body: ApiKeyCreateBody) {
  if (!isStaff(caller) && !caller.organisationId) throw forbidden();
  const [live] = await db
    .select({ n: count() })
    .from(apiKeys)
    .where(
      and(eq(apiKeys.tenantId, caller.tenantId), eq(apiKeys.userId, caller.id), isNull(apiKeys.revokedAt)),
    );
  if ((live?.n ?? 0) >= MAX_LIVE_KEYS_PER_USER)
    throw conflict('apiKey.tooMany', { max: MAX_LIVE_KEYS_PER_USER });
  const key = newApiKey();
  const [row] = await db
    .insert(apiKeys)
    .values({
      tenantId: caller.tenantId,
      keyHash: sha256Hex(key),
      prefix: key.slice(0, API_KEY_ID_LENGTH),
      name: body.name,
      organisationId: isStaff(caller) ? null : caller.organisationId,
      userId: caller.id,
      // Kept in the contract's order, whatever order they were ticked in.
      scopes: API_KEY_SCOPES.filter((scope) => body.scopes.includes(scope)),
    })
    .returning();
  if (!row) throw new Error('api key insert returned nothing');
  const [view] = await present(db, caller.tenantId, [row]);
  return { ...(view as NonNullable<typeof view>), key };
}

/** Revokes a key the caller may see; another organisation's or tenant's is not found. Revoking twice is a no-op. */
export async function revokeApiKeyFor(db: DbOrTx, caller: Caller, id: number) {
  const [row] = await db
    .select()
    .from(apiKeys)
    .where(and(visibleTo(caller), eq(apiKeys.id, id)))
    .limit(1);
  if (!row) throw notFound();
  const [revoked] = row.revokedAt
    ? [row]
    : await db
        .update(apiKeys)
        .set({ revokedAt: sql`coalesce(${apiKeys.revokedAt}, now())`, revokedBy: caller.id })
        .where(and(eq(apiKeys.tenantId, caller.tenantId), eq(apiKeys.id, id)))
        .returning();
  const [view] = await present(db, caller.tenantId, [revoked ?? row]);
  return view as NonNullable<typeof view>;
}

/**
 * The live key behind a secret, within this tenant, or null. Read from the table on every call (no
 * cache): a revoke is seen by every process on the very next call.
 */
export async function findLiveApiKey(db: DbOrTx, tenantId: number, key: string): Promise<ApiKeyRow | null> {
  if (!looksLikeApiKey(key)) return null;
  const [row] = await db
    .select()
    .from(apiKeys)
    .where(
      and(eq(apiKeys.keyHash, sha256Hex(key)), eq(apiKeys.tenantId, tenantId), isNull(apiKeys.revokedAt)),
    )
    .limit(1);
  return row ?? null;
}

/** Notes that a key was used, at most once a minute per key (one conditional update, no read). */
export async function touchApiKey(db: DbOrTx, tenantId: number, id: number): Promise<void> {
  await db
    .update(apiKeys)
    .set({ lastUsedAt: sql`now()` })
    .where(
      and(
        eq(apiKeys.tenantId, tenantId),
        eq(apiKeys.id, id),
        or(
          isNull(apiKeys.lastUsedAt),
          lt(
            apiKeys.lastUsedAt,
            sql`now() - (${LAST_USED_EVERY_MS}::double precision * interval '1 millisecond')`,
          ),
        ),
      ),
    );
}
