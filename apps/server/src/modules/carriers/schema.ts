import type { CarrierEnvironment, CarrierFailure, CarrierKind } from '@freight/contracts/carriers';
import {
  bigint,
  boolean,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { createdAt, id, tenantId } from '../../db/columns.ts';

/**
 * A tenant's accounts with carriers (UPS, a Karrio server). The credentials are one sealed text
 * (carriers/secrets.ts: AES-256-GCM under the server's key, bound to the tenant and the kind), never
 * read back out of the server.
 */
export const carrierAccounts = pgTable(
  'carrier_accounts',
  {
    tenantId: tenantId(),
    id: id(),
    kind: text('kind').$type<CarrierKind>().notNull(),
    label: text('label').notNull(),
    environment: text('environment').$type<CarrierEnvironment>().notNull(),
    /** Only for the `custom` environment. */
    baseUrl: text('base_url'),
    timeoutMs: integer('timeout_ms').notNull(),
    enabled: boolean('enabled').default(true).notNull(),
    /** `v1.<key id>.<iv>.<tag>.<ciphertext>`, base64url parts. */
    credentials: text('credentials').notNull(),
    credentialsUpdatedAt: timestamp('credentials_updated_at', { withTimezone: true }).defaultNow().notNull(),
    lastTestAt: timestamp('last_test_at', { withTimezone: true }),
    /** Null after a test that passed. */
    lastTestFailure: text('last_test_failure').$type<CarrierFailure>(),
    /** The carrier's own words of the last failed test, for staff. */
    lastTestDetail: text('last_test_detail'),
    lastTestTookMs: integer('last_test_took_ms'),
    /** Karrio's id of the tracking webhook the portal registered there, while one is. */
    webhookId: text('webhook_id'),
    /**
     * SHA-256 (hex) of the secret Karrio sends in `X-Event-Id` with each event of that webhook: the
     * secret itself is not kept, only what recognises it.
     */
    webhookSecretHash: text('webhook_secret_hash'),
    webhookUrl: text('webhook_url'),
    webhookRegisteredAt: timestamp('webhook_registered_at', { withTimezone: true }),
    createdBy: bigint('created_by', { mode: 'number' }).notNull(),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).defaultNow().notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    // Staff tell accounts apart by name: each name once per tenant.
    uniqueIndex('carrier_accounts_label').on(t.tenantId, t.label),
  ],
);
