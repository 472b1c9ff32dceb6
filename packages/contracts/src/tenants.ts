import { z } from 'zod';
import { pageQuery } from './api.ts';
import { pageOf, timestamp } from './responses.ts';
import { emailField, idField, str } from './validation.ts';

/** The tenant every fresh database has; its administrators manage the other tenants. */
export const DEFAULT_TENANT_CODE = 'default';

/** A tenant code: lower-case letters, digits and dashes, 2 to 63, starting and ending with a letter or digit. */
export const TENANT_CODE_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])$/;

/**
 * A host name as browsers send it, without port: dot-separated labels of letters, digits and dashes.
 * The last label starts with a letter, so an IPv4 address never matches (nor IPv6, with its colons).
 */
const HOST_PATTERN = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/;

/** Whether a host name may name a tenant: a real domain name, not localhost or an address (they map to the default). */
export function isTenantHost(host: string): boolean {
  return HOST_PATTERN.test(host) && !host.endsWith('.localhost');
}

export const tenantCodeField = str()
  .trim()
  .toLowerCase()
  .regex(TENANT_CODE_PATTERN, { error: 'tenants.codeInvalid' })
  .refine((code) => code !== DEFAULT_TENANT_CODE, { error: 'tenants.codeReserved' });

export const tenantHostField = str()
  .trim()
  .toLowerCase()
  .refine(isTenantHost, { error: 'tenants.hostInvalid' });

const hostsField = z
  .array(tenantHostField)
  .min(1, { error: 'tenants.hostsRequired' })
  .max(20)
  .refine((hosts) => new Set(hosts).size === hosts.length, { error: 'tenants.hostRepeated' });

const nameField = str().trim().min(1).max(20, { error: 'validation.siteName' });
const nameEnField = str().trim().max(40).default('');

export const tenantCreateBody = z.object({
  code: tenantCodeField,
  name: nameField,
  nameEn: nameEnField,
  hosts: hostsField,
  adminEmail: emailField,
});
export type TenantCreateInput = z.infer<typeof tenantCreateBody>;

/** The operator edits a tenant's name and hosts; its branding stays its own staff's. */
export const tenantSaveBody = z.object({
  id: idField(),
  name: nameField,
  hosts: hostsField,
});

export const tenantStatusBody = z.object({ id: idField(), enabled: z.boolean() });

export const tenantListQuery = pageQuery.extend({
  keyword: str().trim().max(100).optional(),
  enabled: z.boolean().optional(),
});

/* ----- responses ----- */

export const tenantRowView = z.object({
  id: z.number().int(),
  code: z.string(),
  name: z.string(),
  nameEn: z.string(),
  hosts: z.array(z.string()),
  enabled: z.boolean(),
  /** The platform's own tenant: never disabled, its hosts are the local ones. */
  isDefault: z.boolean(),
  createdAt: timestamp,
});
export const tenantListView = pageOf(tenantRowView);

export const tenantCreatedView = z.object({ id: z.number().int(), code: z.string(), adminEmail: z.string() });
