import { bigint, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, tenantId, updatedAt } from '../../db/columns.ts';

export interface TenantBranding {
  siteName: string;
  /** The site name on the English interface; empty shows `siteName` there too. */
  siteNameEn: string;
  buttonColor: string;
  logoUrl: string | null;
  logoCollapsedUrl: string | null;
  faviconUrl: string | null;
  copyright: string;
  /** The footer's copyright line on the English interface; empty shows `copyright` there too. */
  copyrightEn: string;
  filingNumber: string;
  /** Host names on which the filing number is shown (SPEC section 1: only on certain hosts). */
  filingHosts: string[];
}

export interface TenantSettings {
  /** Accounts (user ids) for which the top bar's batch-order buttons are hidden (SPEC section 1). */
  batchOrderHiddenUserIds: number[];
  /** The tenant's own ads for the top strip, shown while no AD_SERVICE_URL is configured. */
  ads?: { title: string; url: string }[];
}

/** One row a tenant; `code` is the host name with dots turned to dashes (SPEC section 1). */
export const tenants = pgTable('tenants', {
  id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  code: text('code').notNull().unique(),
  name: text('name').notNull(),
  branding: jsonb('branding').$type<TenantBranding>().notNull(),
  settings: jsonb('settings').$type<TenantSettings>().notNull(),
  disabledAt: timestamp('disabled_at', { withTimezone: true }),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/**
 * Host names a tenant answers on, beyond the one its code is derived from (SPEC section 1): a host is
 * looked up here first. A host belongs to one tenant at most.
 */
export const tenantHosts = pgTable(
  'tenant_hosts',
  {
    tenantId: tenantId(),
    host: text('host').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.host] }), uniqueIndex('tenant_hosts_host').on(t.host)],
);
