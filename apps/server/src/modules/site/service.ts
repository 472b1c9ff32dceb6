import { isIP } from 'node:net';
import { DEFAULT_TENANT_CODE } from '@freight/contracts/tenants';
import { and, asc, count, eq, ilike, inArray, isNotNull, isNull, ne, or, type SQL, sql } from 'drizzle-orm';
import { announceCacheChange } from '../../db/cache-events.ts';
import type { DbOrTx } from '../../db/client.ts';
import { badField, conflict, isUniqueViolation } from '../../lib/errors.ts';
import { containing } from '../../lib/filters.ts';
import type { RequestTenant } from '../../plugins/context.ts';
import { claimUpload, recordOf } from '../uploads/service.ts';
import { type TenantBranding, type TenantSettings, tenantHosts, tenants } from './schema.ts';

export { DEFAULT_TENANT_CODE };

/** The platform's own tenant, whose administrators manage the others (menu PLATFORM_MENU_IDS). */
export function isPlatformTenant(tenant: Pick<RequestTenant, 'code'> | null | undefined): boolean {
  return tenant?.code === DEFAULT_TENANT_CODE;
}

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

export const DEFAULT_SETTINGS: TenantSettings = { batchOrderHiddenUserIds: [], ads: [] };

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

/** A tenant as the host resolution sees it: disabled ones too, so their hosts can say so. */
export interface HostTenant {
  tenant: RequestTenant;
  disabled: boolean;
}

/**
 * The tenant a host name belongs to: one of its listed hosts first, else the tenant whose code is the
 * host with dots turned to dashes (SPEC section 1). Null for an unknown host (the caller falls back
 * to the default tenant).
 */
export async function findTenantForHost(db: DbOrTx, host: string): Promise<HostTenant | null> {
  const name = normaliseHost(host);
  const [listed] = name
    ? await db
        .select({ tenant: tenants })
        .from(tenantHosts)
        .innerJoin(tenants, eq(tenants.id, tenantHosts.tenantId))
        .where(eq(tenantHosts.host, name))
        .limit(1)
    : [];
  const row =
    listed?.tenant ??
    (
      await db
        .select()
        .from(tenants)
        .where(eq(tenants.code, tenantCodeForHost(host)))
        .limit(1)
    )[0];
  return row ? { tenant: toRequestTenant(row), disabled: row.disabledAt !== null } : null;
}

function normaliseHost(host: string): string {
  return host.trim().toLowerCase().replace(/:\d+$/, '');
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

/**
 * A new tenant, refusing a code already taken (the command and the tenants page create with this;
 * `createTenant` above is the seed's, which finds an existing one instead).
 */
export async function insertTenant(
  db: DbOrTx,
  input: { code: string; name: string; nameEn?: string },
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
      },
      settings: DEFAULT_SETTINGS,
    })
    .onConflictDoNothing({ target: tenants.code })
    .returning();
  if (!row) throw badField('code', 'tenants.codeTaken', { code: input.code });
  return toRequestTenant(row);
}

/**
 * Replaces a tenant's hosts. A host another tenant lists, or whose derived code is another tenant's
 * code (it would take that tenant's site), is refused naming the host.
 */
export async function setTenantHosts(db: DbOrTx, tenantId: number, hosts: string[]): Promise<void> {
  const names = [...new Set(hosts.map(normaliseHost))];
  if (names.length > 0) {
    const [listed] = await db
      .select({ host: tenantHosts.host })
      .from(tenantHosts)
      .where(and(inArray(tenantHosts.host, names), ne(tenantHosts.tenantId, tenantId)))
      .limit(1);
    if (listed) throw badField('hosts', 'tenants.hostTaken', { host: listed.host });
    const codes = new Map(names.map((n) => [tenantCodeForHost(n), n]));
    const [named] = await db
      .select({ code: tenants.code })
      .from(tenants)
      .where(and(inArray(tenants.code, [...codes.keys()]), ne(tenants.id, tenantId)))
      .limit(1);
    if (named) throw badField('hosts', 'tenants.hostTaken', { host: codes.get(named.code) ?? named.code });
  }
  await db.delete(tenantHosts).where(eq(tenantHosts.tenantId, tenantId));
  if (names.length > 0) {
    try {
      // A savepoint, so a host taken meanwhile is refused without spoiling the caller's transaction.
      await db.transaction((tx) => tx.insert(tenantHosts).values(names.map((host) => ({ tenantId, host }))));
    } catch (error) {
      if (isUniqueViolation(error)) throw badField('hosts', 'tenants.hostTaken', { host: names.join(', ') });
      throw error;
    }
  }
  await announceCacheChange(db, 'tenants');
}

export interface TenantRecord {
  id: number;
  code: string;
  name: string;
  nameEn: string;
  hosts: string[];
  enabled: boolean;
  isDefault: boolean;
  createdAt: Date;
}

export interface TenantFilter {
  keyword?: string;
  enabled?: boolean;
}

function tenantWhere(f: TenantFilter): SQL | undefined {
  const pattern = f.keyword ? containing(f.keyword) : undefined;
  return and(
    pattern
      ? or(
          ilike(tenants.code, pattern),
          ilike(tenants.name, pattern),
          sql`exists (select 1 from ${tenantHosts} where ${tenantHosts.tenantId} = ${tenants.id} and ${tenantHosts.host} ilike ${pattern})`,
        )
      : undefined,
    f.enabled === undefined
      ? undefined
      : f.enabled
        ? isNull(tenants.disabledAt)
        : isNotNull(tenants.disabledAt),
  );
}

/** Every tenant of the platform, oldest first: platform work, run outside any one tenant's scope. */
export async function listTenants(
  db: DbOrTx,
  filter: TenantFilter,
  page: { page: number; limit: number },
): Promise<{ list: TenantRecord[]; total: number }> {
  const where = tenantWhere(filter);
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(tenants)
      .where(where)
      .orderBy(asc(tenants.id))
      .limit(page.limit)
      .offset((page.page - 1) * page.limit),
    db.select({ n: count() }).from(tenants).where(where),
  ]);
  const hosts = await hostsOf(
    db,
    rows.map((r) => r.id),
  );
  return { list: rows.map((r) => tenantRecord(r, hosts.get(r.id) ?? [])), total: total?.n ?? 0 };
}

export async function findTenantRecord(db: DbOrTx, id: number): Promise<TenantRecord | null> {
  const [row] = await db.select().from(tenants).where(eq(tenants.id, id)).limit(1);
  if (!row) return null;
  return tenantRecord(row, (await hostsOf(db, [id])).get(id) ?? []);
}

export async function findTenantRecordByCode(db: DbOrTx, code: string): Promise<TenantRecord | null> {
  const [row] = await db.select({ id: tenants.id }).from(tenants).where(eq(tenants.code, code)).limit(1);
  return row ? findTenantRecord(db, row.id) : null;
}

async function hostsOf(db: DbOrTx, ids: number[]): Promise<Map<number, string[]>> {
  const map = new Map<number, string[]>();
  if (ids.length === 0) return map;
  const rows = await db
    .select()
    .from(tenantHosts)
    .where(inArray(tenantHosts.tenantId, ids))
    .orderBy(asc(tenantHosts.createdAt), asc(tenantHosts.host));
  for (const row of rows) map.set(row.tenantId, [...(map.get(row.tenantId) ?? []), row.host]);
  return map;
}

function tenantRecord(row: typeof tenants.$inferSelect, hosts: string[]): TenantRecord {
  return {
    id: row.id,
    code: row.code,
    name: row.name,
    nameEn: row.branding.siteNameEn ?? '',
    hosts,
    enabled: row.disabledAt === null,
    isDefault: row.code === DEFAULT_TENANT_CODE,
    createdAt: row.createdAt,
  };
}

/** The operator's name of a tenant; its site name stays the tenant's own staff's to change. */
export async function renameTenant(db: DbOrTx, id: number, name: string): Promise<void> {
  await db.update(tenants).set({ name }).where(eq(tenants.id, id));
  await announceCacheChange(db, 'tenants');
}

/** Disables or enables a tenant; the default tenant, which runs the platform, cannot be disabled. */
export async function setTenantEnabled(db: DbOrTx, id: number, enabled: boolean): Promise<boolean> {
  const [row] = await db.select({ code: tenants.code }).from(tenants).where(eq(tenants.id, id)).limit(1);
  if (!row) return false;
  if (!enabled && row.code === DEFAULT_TENANT_CODE) throw conflict('tenants.defaultLocked');
  await db
    .update(tenants)
    .set({ disabledAt: enabled ? null : new Date() })
    .where(eq(tenants.id, id));
  await announceCacheChange(db, 'tenants');
  return true;
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
