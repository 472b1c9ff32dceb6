import type { ApiKeyScope } from '@freight/contracts/integrations';
import { bigint, index, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, id, tenantId } from '../../db/columns.ts';

/**
 * API keys for integrations: a shipper's system calls the API as the user who made the key, within
 * the key's scopes. Only the key's SHA-256 is kept (a key is 256 random bits, so a fast hash is as
 * safe as a slow one); the prefix is stored apart so lists can show it.
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    tenantId: tenantId(),
    id: id(),
    /** SHA-256 (hex) of the whole key. */
    keyHash: text('key_hash').notNull(),
    /** `fpk_` and the next 8 characters: shown in lists and sent as the `apiId` header. */
    prefix: text('prefix').notNull(),
    name: text('name').notNull(),
    /** The organisation the key acts for (null for a staff member's key). */
    organisationId: bigint('organisation_id', { mode: 'number' }),
    /** The user the key acts as: its grants and scope of data are the user's. */
    userId: bigint('user_id', { mode: 'number' }).notNull(),
    scopes: jsonb('scopes').$type<ApiKeyScope[]>().notNull(),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    /** Who revoked it (the owner, a colleague of its organisation, or staff). */
    revokedBy: bigint('revoked_by', { mode: 'number' }),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    // The lookup of every call made with a key; unique across tenants since keys are random.
    uniqueIndex('api_keys_hash').on(t.keyHash),
    index('api_keys_organisation').on(t.tenantId, t.organisationId, t.createdAt),
    index('api_keys_user').on(t.tenantId, t.userId),
  ],
);
