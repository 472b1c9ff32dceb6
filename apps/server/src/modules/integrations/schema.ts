import type { ApiKeyScope, WebhookDeliveryStatus, WebhookEvent } from '@freight/contracts/integrations';
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
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
    // The lookup of every call made with a key, within its tenant (the host names it).
    uniqueIndex('api_keys_hash').on(t.tenantId, t.keyHash),
    index('api_keys_organisation').on(t.tenantId, t.organisationId, t.createdAt),
    index('api_keys_user').on(t.tenantId, t.userId),
  ],
);

/**
 * Webhook endpoints: where an organisation (or staff, for the whole tenant) hears of status changes.
 * The secret is kept as it is, since every delivery is signed with it; it is shown once at creation.
 */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    tenantId: tenantId(),
    id: id(),
    /** Whose orders it hears of; null for a staff endpoint, which hears of every order of the tenant. */
    organisationId: bigint('organisation_id', { mode: 'number' }),
    createdBy: bigint('created_by', { mode: 'number' }).notNull(),
    url: text('url').notNull(),
    secret: text('secret').notNull(),
    /** The secret before the last rotation: deliveries are signed with it too until `previousSecretUntil`. */
    previousSecret: text('previous_secret'),
    previousSecretUntil: timestamp('previous_secret_until', { withTimezone: true }),
    events: jsonb('events').$type<WebhookEvent[]>().notNull(),
    enabled: boolean('enabled').notNull().default(true),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index('webhook_endpoints_organisation').on(t.tenantId, t.organisationId),
  ],
);

/** One event for one endpoint, and how its delivery went; the job that sends it updates the row. */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    tenantId: tenantId(),
    id: id(),
    endpointId: bigint('endpoint_id', { mode: 'number' }).notNull(),
    event: text('event').$type<WebhookEvent>().notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    status: text('status').$type<WebhookDeliveryStatus>().notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    lastStatusCode: integer('last_status_code'),
    lastError: text('last_error'),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index('webhook_deliveries_endpoint').on(t.tenantId, t.endpointId, t.id),
    // The housekeeping sweep finds old deliveries of every tenant by their age.
    index('webhook_deliveries_created').on(t.createdAt),
  ],
);
