import type { Language } from '@freight/contracts/api';
import type { TenantCreateInput } from '@freight/contracts/tenants';
import type { Db } from '../../db/client.ts';
import { runAsSystem } from '../../db/tenant-scope.ts';
import { randomToken } from '../../lib/crypto.ts';
import { notFound } from '../../lib/errors.ts';
import { createPasswordSetupToken, createUser, mailWelcome, revokeTenantSessions } from '../auth/service.ts';
import type { Mailer } from '../mail/service.ts';
import { assignRoles, ensureBuiltinRoles } from '../roles/service.ts';
import {
  findTenantRecord,
  findTenantRecordByCode,
  insertTenant,
  listTenants,
  renameTenant,
  setTenantEnabled,
  setTenantHosts,
  type TenantFilter,
  type TenantRecord,
} from '../site/service.ts';

/*
 * The platform's management of its tenants (issue 14, section 5), shared by the `npm run tenant`
 * command and the tenants page of the default tenant. Every call here spans tenants, so it runs as
 * system work, outside the caller's own tenant scope; each module's rows are written by its own service.
 */

export interface NewTenant extends TenantCreateInput {
  /** The language of the new administrator's mail. */
  language: Language;
}

export interface CreatedTenant {
  tenant: TenantRecord;
  adminId: number;
}

/**
 * Creates a tenant, all or nothing: the tenant with its default site configuration (site), its hosts
 * (site), its built-in roles and their menu grants (roles), and its first administrator (auth) holding
 * the administrator role, with a set-password link. It starts with no organisations, so with no
 * balance accounts: each organisation gets its accounts when it is created (customers, accounts).
 * The link is mailed once everything is committed, so a failure never mails a link to nothing.
 */
export async function createTenantWithAdmin(
  db: Db,
  mailer: Mailer,
  input: NewTenant,
  /** The site's address on a host, for the mailed link. */
  originOf: (host: string) => string,
): Promise<CreatedTenant> {
  const created = await runAsSystem(() =>
    db.transaction(async (tx) => {
      const tenant = await insertTenant(tx, { code: input.code, name: input.name, nameEn: input.nameEn });
      await setTenantHosts(tx, tenant.id, input.hosts);
      const roleIds = await ensureBuiltinRoles(tx, tenant.id);
      const admin = await createUser(tx, tenant.id, {
        email: input.adminEmail,
        // Nobody knows this password: the administrator sets their own through the mailed link.
        password: randomToken(),
        identity: 'employee',
        name: input.language === 'en-US' ? 'Administrator' : '管理员',
        company: '',
        locale: input.language === 'en-US' ? 'en' : 'zh_CN',
      });
      const adminRole = roleIds.get('admin');
      if (!adminRole) throw new Error('the built-in administrator role is missing');
      await assignRoles(tx, tenant.id, admin.id, [adminRole]);
      const token = await createPasswordSetupToken(tx, tenant.id, admin.id);
      return { tenant, admin, token };
    }),
  );
  const { tenant, admin, token } = created;
  const host = input.hosts[0] as string;
  await runAsSystem(() =>
    mailWelcome(db, mailer, {
      tenantId: tenant.id,
      email: admin.email,
      siteName: (input.language === 'en-US' && tenant.branding.siteNameEn) || tenant.branding.siteName,
      origin: originOf(host),
      token,
      language: input.language,
    }),
  );
  const record = await runAsSystem(() => findTenantRecord(db, tenant.id));
  if (!record) throw new Error('the new tenant vanished');
  return { tenant: record, adminId: admin.id };
}

export function listAllTenants(db: Db, filter: TenantFilter, page: { page: number; limit: number }) {
  return runAsSystem(() => listTenants(db, filter, page));
}

export function findTenantByCodeForPlatform(db: Db, code: string) {
  return runAsSystem(() => findTenantRecordByCode(db, code));
}

/** The operator's name of a tenant and its hosts, together. */
export async function updateTenant(db: Db, input: { id: number; name: string; hosts: string[] }) {
  await runAsSystem(() =>
    db.transaction(async (tx) => {
      if (!(await findTenantRecord(tx, input.id))) throw notFound('tenants.notFound');
      await renameTenant(tx, input.id, input.name);
      await setTenantHosts(tx, input.id, input.hosts);
    }),
  );
}

/**
 * Disables or enables a tenant. Disabling ends every session of it in the same transaction, and the
 * cache change reaches every process at the commit, so its hosts refuse the next request at once.
 */
export async function setTenantStatus(
  db: Db,
  id: number,
  enabled: boolean,
): Promise<{ sessionsEnded: number }> {
  return runAsSystem(() =>
    db.transaction(async (tx) => {
      if (!(await setTenantEnabled(tx, id, enabled))) throw notFound('tenants.notFound');
      return { sessionsEnded: enabled ? 0 : await revokeTenantSessions(tx, id) };
    }),
  );
}
