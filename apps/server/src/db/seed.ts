import type { Identity } from '@freight/contracts/identity';
import { ensureAccount, moveMoney } from '../modules/accounts/service.ts';

import { createUser, findUserByEmail } from '../modules/auth/service.ts';
import { savePriceLevel } from '../modules/customers/price-levels.ts';
import { createOrganisation } from '../modules/customers/service.ts';
import { seedDemoExpress } from '../modules/express-channels/demo.ts';
import { receivingAccounts } from '../modules/recharge/schema.ts';
import { buildMissingReports } from '../modules/reports/rebuild.ts';
import { assignRoles, ensureBuiltinRoles, syncMenu } from '../modules/roles/service.ts';
import { createTenant, DEFAULT_TENANT_CODE } from '../modules/site/service.ts';
import { seedDemoTariffs } from '../modules/truck-products/service.ts';
import type { Db } from './client.ts';
// The modules that record sales register their recount as they load; the start-up rebuild needs each.
import '../modules/bounce-bills/service.ts';
import '../modules/express-waybills/service.ts';
import '../modules/truck-orders/service.ts';
import '../modules/work-orders/service.ts';

// Kept here too for the callers that seed through this file.
export { ensureBuiltinRoles };

export const DEMO_PASSWORD = 'Demo@123456';

export interface DemoAccount {
  email: string;
  identity: Identity;
  role: string;
  label: string;
}

export const DEMO_ACCOUNTS: DemoAccount[] = [
  { email: 'admin@example.com', identity: 'employee', role: 'admin', label: 'staff administrator' },
  { email: 'editor@example.com', identity: 'employee', role: 'editor', label: 'staff editor' },
  { email: 'branch@example.com', identity: 'branch', role: 'branch', label: 'branch office' },
  { email: 'agent@example.com', identity: 'agent', role: 'agent', label: 'agent (under the branch)' },
  {
    email: 'customer@example.com',
    identity: 'customer',
    role: 'customer',
    label: 'customer (under the agent)',
  },
  { email: 'direct@example.com', identity: 'customer', role: 'customer', label: 'direct customer' },
];

/** A tenant with its roles and one user per identity; used by the demo seed and by tests. */
export async function seedTenant(
  db: Db,
  input: { code: string; name: string; nameEn?: string; emailDomain?: string; password?: string },
) {
  const tenant = await createTenant(db, { code: input.code, name: input.name, nameEn: input.nameEn });
  const roleIds = await ensureBuiltinRoles(db, tenant.id);
  const domain = input.emailDomain ?? 'example.com';
  const password = input.password ?? DEMO_PASSWORD;
  const email = (account: DemoAccount) => account.email.replace('@example.com', `@${domain}`);

  const existing = await findUserByEmail(db, tenant.id, email(DEMO_ACCOUNTS[0] as DemoAccount));
  if (existing) return { tenant, roleIds, created: false };

  await db.transaction(async (tx) => {
    // Staff first, then each organisation with its first user: the same call as every other path.
    for (const account of DEMO_ACCOUNTS.filter((a) => a.identity === 'employee')) {
      const user = await createUser(tx, tenant.id, {
        email: email(account),
        password,
        identity: account.identity,
        name: account.label,
        // Staff have no company of their own: they are shown the tenant's name in their language.
        company: '',
      });
      const roleId = roleIds.get(account.role);
      if (roleId) await assignRoles(tx, tenant.id, user.id, [roleId]);
    }
    const firstUser = (prefix: string) => {
      const account = DEMO_ACCOUNTS.find((a) => a.email.startsWith(prefix)) as DemoAccount;
      return { email: email(account), password, name: account.label };
    };
    const branch = await createOrganisation(tx, tenant.id, {
      type: 'branch',
      name: 'East Coast Branch',
      firstUser: firstUser('branch@'),
      invitationCode: 'BRANCH01',
    });
    const agent = await createOrganisation(tx, tenant.id, {
      type: 'agent',
      name: 'Harbor Freight Agency',
      parentId: branch.id,
      firstUser: firstUser('agent@'),
      invitationCode: 'AGENT001',
    });
    await createOrganisation(tx, tenant.id, {
      type: 'customer',
      name: 'Acme Imports',
      parentId: agent.id,
      firstUser: firstUser('customer@'),
    });
    await createOrganisation(tx, tenant.id, {
      type: 'customer',
      name: 'Northwind Traders',
      firstUser: firstUser('direct@'),
    });
    await tx.insert(receivingAccounts).values([
      {
        tenantId: tenant.id,
        currency: 'CNY',
        bankName: '招商银行上海分行',
        bankNameEn: 'China Merchants Bank, Shanghai Branch',
        accountName: input.name,
        // The tenant's English name for English readers (the holder's name is the tenant's own).
        accountNameEn: input.nameEn ?? '',
        accountNumber: '6214 8321 0000 8888',
      },
      {
        tenantId: tenant.id,
        currency: 'USD',
        bankName: '美国银行',
        bankNameEn: 'Bank of America',
        accountName: input.name,
        // The tenant's English name for English readers (the holder's name is the tenant's own).
        accountNameEn: input.nameEn ?? '',
        accountNumber: '0012 3456 7890',
      },
    ]);
  });
  return { tenant, roleIds, created: true };
}

/** Start-up work that keeps the database in step with this release: the menu, the reports' aggregates. */
export async function syncReferenceData(db: Db): Promise<void> {
  await syncMenu(db);
  await buildMissingReports(db);
}

export async function seedDemo(db: Db) {
  const seeded = await seedTenant(db, {
    code: DEFAULT_TENANT_CODE,
    name: '货运门户',
    nameEn: 'Freight Portal',
  });
  if (seeded.created) await seedDemoBusiness(db, seeded.tenant.id);
  return seeded;
}

/**
 * What makes the demo portal quote and book at once: truck products with tariffs, markups down the
 * tree, and an opening truck balance for the two demo customers (ledger rows like any other credit).
 */
async function seedDemoBusiness(db: Db, tenantId: number) {
  await seedDemoTariffs(db, tenantId);
  await seedDemoExpress(db, tenantId);
  const orgOf = async (email: string) => (await findUserByEmail(db, tenantId, email))?.organisationId ?? null;
  const markups: [string, number][] = [
    ['branch@example.com', 500],
    ['agent@example.com', 800],
    ['customer@example.com', 1_000],
    ['direct@example.com', 1_500],
  ];
  for (const [email, percentBp] of markups) {
    const organisationId = await orgOf(email);
    if (!organisationId) continue;
    for (const line of ['truck', 'express'] as const)
      await savePriceLevel(db, {
        tenantId,
        organisationId,
        line,
        productKey: '',
        markupPercentBp: percentBp,
        markupFixedCents: 0n,
        updatedBy: 0,
      });
  }
  for (const email of ['customer@example.com', 'direct@example.com']) {
    const organisationId = await orgOf(email);
    if (!organisationId) continue;
    for (const line of ['truck', 'express'] as const) {
      const account = await ensureAccount(db, tenantId, organisationId, line);
      await moveMoney(db, {
        tenantId,
        accountId: account.id,
        type: 'manual_adjustment',
        amount: 500_000n,
        // A message key: the account pages show it in the reader's language.
        note: 'ledger.note.demoOpening',
        // The truck key is the one earlier releases wrote, so a seed run again adds nothing.
        idempotencyKey:
          line === 'truck' ? `demo-opening:${organisationId}` : `demo-opening:${line}:${organisationId}`,
      });
    }
  }
}
