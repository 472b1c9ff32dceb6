import { isIP } from 'node:net';
import { eq } from 'drizzle-orm';
import { announceCacheChange } from '../../db/cache-events.ts';
import type { DbOrTx } from '../../db/client.ts';
import type { RequestTenant } from '../../plugins/context.ts';
import { claimUpload, recordOf } from '../uploads/service.ts';
import { type TenantBranding, type TenantSettings, tenants } from './schema.ts';

export const DEFAULT_TENANT_CODE = 'default';

export const DEFAULT_BRANDING: TenantBranding = {
  siteName: '货运门户',
  siteNameEn: '',
  buttonColor: '#FF6D1F',
  logoUrl: null,
  logoCollapsedUrl: null,
  faviconUrl: null,
  copyright: '',
  copyrightEn: '',
  filingNumber: '',
  filingHosts: [],
};

/** A new tenant's footer says whose site it is, in both languages, until staff write their own. */
function defaultCopyright(siteName: string, siteNameEn: string) {
  const year = new Date().getUTCFullYear();
  return {
    copyright: `© ${year} ${siteName} 版权所有`,
    copyrightEn: `© ${year} ${siteNameEn || siteName}. All rights reserved.`,
  };
}

export const DEFAULT_SETTINGS: TenantSettings = { batchOrderHiddenUserIds: [] };

/** SPEC section 1: the host name with dots turned to dashes names the tenant; local hosts use the default. */
export function tenantCodeForHost(host: string): string {
  const name = host
    .trim()
    .toLowerCase()
    .replace(/:\d+$/, '')
    .replace(/^\[|\]$/g, '');
  if (!name || name === 'localhost' || name.endsWith('.localhost') || isIP(name)) return DEFAULT_TENANT_CODE;
  return name.replace(/\./g, '-');
}

function toRequestTenant(row: typeof tenants.$inferSelect): RequestTenant {
  return {
    id: row.id,
    code: row.code,
    name: row.name,
    branding: { ...DEFAULT_BRANDING, ...row.branding },
    settings: { ...DEFAULT_SETTINGS, ...row.settings },
  };
}

export async function findTenantByCode(db: DbOrTx, code: string): Promise<RequestTenant | null> {
  const [row] = await db.select().from(tenants).where(eq(tenants.code, code)).limit(1);
  return row && !row.disabledAt ? toRequestTenant(row) : null;
}

/** Every tenant's id, for start-up work that runs per tenant. */
export async function tenantIds(db: DbOrTx): Promise<number[]> {
  const rows = await db.select({ id: tenants.id }).from(tenants).orderBy(tenants.id);
  return rows.map((r) => r.id);
}

export async function createTenant(
  db: DbOrTx,
  input: { code: string; name: string; nameEn?: string; branding?: Partial<TenantBranding> },
): Promise<RequestTenant> {
  const [row] = await db
    .insert(tenants)
    .values({
      code: input.code,
      name: input.name,
      branding: {
        ...DEFAULT_BRANDING,
        siteName: input.name.slice(0, 20),
        siteNameEn: (input.nameEn ?? '').slice(0, 40),
        ...defaultCopyright(input.name, input.nameEn ?? ''),
        ...input.branding,
      },
      settings: DEFAULT_SETTINGS,
    })
    .onConflictDoNothing({ target: tenants.code })
    .returning();
  if (row) return toRequestTenant(row);
  const existing = await findTenantByCode(db, input.code);
  if (!existing) throw new Error(`tenant ${input.code} exists but is disabled`);
  return existing;
}

/** Tenants are cached by host in every process; each save tells them all (db/cache-events.ts). */
export async function updateBranding(db: DbOrTx, tenantId: number, branding: TenantBranding): Promise<void> {
  await db.update(tenants).set({ branding }).where(eq(tenants.id, tenantId));
  await announceCacheChange(db, 'tenants');
}

const BRANDING_IMAGES = ['logoUrl', 'logoCollapsedUrl', 'faviconUrl'] as const;

/**
 * Saves the site configuration. A new logo or favicon must be the saving staff member's own upload;
 * it becomes public, since every visitor's browser loads it before anyone signs in.
 */
export async function saveBranding(
  db: DbOrTx,
  tenant: Pick<RequestTenant, 'id' | 'branding'>,
  branding: TenantBranding,
  staffId: number,
): Promise<void> {
  await db.transaction(async (tx) => {
    for (const field of BRANDING_IMAGES) {
      const url = branding[field];
      if (url && url !== tenant.branding[field])
        await claimUpload(tx, tenant.id, url, recordOf('site', tenant.id), {
          field,
          by: staffId,
          public: true,
        });
    }
    await updateBranding(tx, tenant.id, branding);
  });
}

export async function updateSettings(db: DbOrTx, tenantId: number, settings: TenantSettings): Promise<void> {
  await db.update(tenants).set({ settings }).where(eq(tenants.id, tenantId));
  await announceCacheChange(db, 'tenants');
}

/** What the browser needs to brand the page for this host (SPEC section 1). */
export function publicBranding(tenant: RequestTenant, host: string) {
  const hostname = host.toLowerCase().replace(/:\d+$/, '');
  const b = tenant.branding;
  return {
    tenant: tenant.code,
    siteName: b.siteName,
    siteNameEn: b.siteNameEn,
    color_data: { button: b.buttonColor },
    buttonColor: b.buttonColor,
    logoUrl: b.logoUrl,
    logoCollapsedUrl: b.logoCollapsedUrl,
    faviconUrl: b.faviconUrl,
    copyright: b.copyright,
    copyrightEn: b.copyrightEn,
    filingNumber: b.filingHosts.includes(hostname) ? b.filingNumber : '',
  };
}
