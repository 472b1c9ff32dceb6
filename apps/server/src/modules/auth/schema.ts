import type { Identity } from '@freight/contracts/identity';
import { sql } from 'drizzle-orm';
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
import { createdAt, id, tenantId, updatedAt } from '../../db/columns.ts';

export interface QuotationConfig {
  defaultLine: 'truck' | 'express';
  defaultInsurance: boolean;
  defaultPickupAddressId: number | null;
  defaultCurrency: 'USD' | 'CNY';
  /** Express channels left out of this user's quotes; absent in configs saved before it existed. */
  hiddenChannelIds?: number[];
}

export interface RegistrationProfile {
  name: string;
  surname: string;
  phone: string;
  dialCode?: string;
  wechat?: string;
  company: string;
  address1: string;
  address2?: string;
  zipcode: string;
  city: string;
  state: string;
  country: string;
  licenseUrl: string;
  business: string[];
  monthlyVolume: string;
  goodsTypes: string[];
  transportMethods: string[];
  preferredLocations: string[];
}

export const users = pgTable(
  'users',
  {
    tenantId: tenantId(),
    id: id(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    identity: text('identity').$type<Identity>().notNull(),
    /** Null for staff; the organisation the user belongs to otherwise. */
    organisationId: bigint('organisation_id', { mode: 'number' }),
    name: text('name').notNull(),
    company: text('company').notNull().default(''),
    phone: text('phone').notNull().default(''),
    avatarUrl: text('avatar_url'),
    /** `zh_CN` or `en`, as setLocale sends it. */
    locale: text('locale').notNull().default('zh_CN'),
    enabled: boolean('enabled').notNull().default(true),
    profile: jsonb('profile').$type<RegistrationProfile>(),
    /** The user's own quoting preferences (`/express/customer/setQuotationConfig`). */
    quotationConfig: jsonb('quotation_config').$type<QuotationConfig>(),
    passwordChangedAt: timestamp('password_changed_at', { withTimezone: true }),
    lastLoginAt: timestamp('last_login_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex('users_tenant_email').on(t.tenantId, sql`lower(${t.email})`),
    index('users_tenant_org').on(t.tenantId, t.organisationId),
  ],
);

export const sessions = pgTable(
  'sessions',
  {
    /** SHA-256 of the token; the token itself is never stored. */
    tokenHash: text('token_hash').notNull(),
    tenantId: tenantId(),
    userId: bigint('user_id', { mode: 'number' }).notNull(),
    ip: text('ip').notNull().default(''),
    userAgent: text('user_agent').notNull().default(''),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  // Keyed by tenant first, as every table: a database spread by tenant keeps a session on its tenant's node.
  (t) => [
    primaryKey({ columns: [t.tenantId, t.tokenHash] }),
    index('sessions_user').on(t.tenantId, t.userId),
  ],
);

export const verificationCodes = pgTable(
  'verification_codes',
  {
    tenantId: tenantId(),
    id: id(),
    email: text('email').notNull(),
    purpose: text('purpose').$type<'login' | 'register'>().notNull(),
    codeHash: text('code_hash').notNull(),
    attempts: integer('attempts').notNull().default(0),
    ip: text('ip').notNull().default(''),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index('verification_codes_email').on(t.tenantId, t.email, t.createdAt),
  ],
);

export const passwordResets = pgTable(
  'password_resets',
  {
    tokenHash: text('token_hash').notNull(),
    tenantId: tenantId(),
    userId: bigint('user_id', { mode: 'number' }).notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.tokenHash] }),
    index('password_resets_user').on(t.tenantId, t.userId),
  ],
);

/**
 * Sign-in attempts not (yet) successful, counted per IP and per e-mail from that IP for the lock-out; a
 * success clears that pair's. Kept in the database so every copy agrees; the housekeeping pass deletes
 * those older than the lock.
 */
export const loginFailures = pgTable(
  'login_failures',
  {
    tenantId: tenantId(),
    id: id(),
    email: text('email').notNull(),
    ip: text('ip').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    // The lock counts one IP's failures (all, and this address's among them) since the lock began.
    index('login_failures_ip').on(t.tenantId, t.ip, t.createdAt),
  ],
);

/** The RSA key pair for encrypted sign-in payloads (SPEC section 7 `/publicKey`), shared by every copy. */
export const serverKeys = pgTable('server_keys', {
  name: text('name').primaryKey(),
  publicKey: text('public_key').notNull(),
  privateKey: text('private_key').notNull(),
  createdAt: createdAt(),
});
