import type { Identity } from '@freight/contracts/identity';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/fixture.ts';
import { allowNewCode, call, codeIn, lastMailTo, signInAs, uploadFor } from '../../../test/helpers.ts';
import { accountsOfOrganisations } from '../accounts/service.ts';
import { findUserByEmail } from '../auth/service.ts';
import { usersOfOrganisation } from '../auth/users.ts';
import { rolesOfUsers } from '../roles/service.ts';
import { organisations } from './schema.ts';
import {
  createOrganisation,
  findOrganisation,
  listInvitationCodes,
  organisationScope,
  visibleOrganisationIds,
} from './service.ts';

const f = useTestApp();

/** What an organisation is made of, whichever path made it: the tree, the accounts, its first user. */
async function shapeOf(organisationId: number) {
  const db = f.db;
  const tenantId = f.t.tenant.id;
  const org = await findOrganisation(db, tenantId, organisationId);
  const [truck, express] = await Promise.all(
    (['truck', 'express'] as const).map((line) =>
      accountsOfOrganisations(db, tenantId, [organisationId], line),
    ),
  );
  const users = await usersOfOrganisation(db, tenantId, organisationId);
  const roles = await rolesOfUsers(
    db,
    tenantId,
    users.map((u) => u.id),
  );
  const parent = org?.parentId ? await findOrganisation(db, tenantId, org.parentId) : null;
  return {
    type: org?.type,
    path: org?.path === `${parent?.path ?? '/'}${organisationId}/`,
    contact: Boolean(org?.contactName && org.contactEmail),
    accounts: [truck, express].map((a) => {
      const account = a?.get(organisationId);
      return account && { line: account.line, balance: account.balance, status: account.status };
    }),
    users: users.map((u) => ({
      identity: u.identity,
      enabled: u.enabled,
      roles: (roles.get(u.id) ?? []).map((r) => r.nameEn),
    })),
  };
}

const expected = {
  type: 'customer',
  path: true,
  contact: true,
  accounts: [
    { line: 'truck', balance: 0n, status: 'normal' },
    { line: 'express', balance: 0n, status: 'normal' },
  ],
  users: [{ identity: 'customer', enabled: true, roles: ['Customer'] }],
};

describe('one way to create an organisation', () => {
  it('makes the seeded, the staff-added and the registered customer alike', async () => {
    const db = f.db;
    const agent = await findUserByEmail(db, f.t.tenant.id, f.t.email('agent'));
    const agentOrg = agent?.organisationId as number;

    // The demo seed: the customer under the agent.
    const seeded = (await findUserByEmail(db, f.t.tenant.id, f.t.email('customer')))
      ?.organisationId as number;

    // Staff add one under the agent.
    const admin = await signInAs(f.ctx, f.t, 'admin');
    const added = await call(
      f.ctx,
      'POST',
      '/api/admin/customer/save',
      {
        type: 'customer',
        parentId: agentOrg,
        name: 'Staff Added Co',
        user: { email: `added@${f.t.tenant.code}.example.com`, name: 'Ada Added', password: 'Added-123' },
      },
      { host: f.t.host, token: admin },
    );
    expect(added.json()).toMatchObject({ code: 200 });

    // A shipper registers with the agent's invitation code.
    const email = `registered@${f.t.tenant.code}.example.com`;
    await allowNewCode(f.ctx, f.t.tenant.id, email);
    await call(
      f.ctx,
      'POST',
      '/api/admin/auth/getVerificationCode',
      { email, purpose: 'register' },
      { host: f.t.host },
    );
    const code = codeIn((await lastMailTo(f.ctx, f.t.tenant.id, email))?.text);
    const registered = await call(
      f.ctx,
      'POST',
      '/api/admin/auth/register',
      {
        name: 'Rita',
        surname: 'Reg',
        dialCode: '86',
        phone: '13800138000',
        wechat: 'rita',
        company: 'Registered Co',
        address1: '1 Main Street',
        zipcode: '90001',
        city: 'Los Angeles',
        state: 'CA',
        country: 'US',
        licenseUrl: await uploadFor(f.ctx, f.t.host, undefined),
        business: ['truck'],
        monthlyVolume: '50-200',
        goodsTypes: ['general'],
        transportMethods: ['LTL'],
        preferredLocations: ['Los Angeles', 'Chicago', 'New York'],
        password: 'Shipper-1',
        confirmPassword: 'Shipper-1',
        email,
        code,
        invitationCode: 'AGENT001',
      },
      { host: f.t.host, language: 'en-US' },
    );
    expect(registered.json()).toMatchObject({ code: 200 });
    const registeredOrg = (await findUserByEmail(db, f.t.tenant.id, email))?.organisationId as number;

    for (const id of [seeded, added.json().data.id as number, registeredOrg]) {
      expect(await shapeOf(id), `organisation ${id}`).toEqual(expected);
      expect((await findOrganisation(db, f.t.tenant.id, id))?.parentId).toBe(agentOrg);
    }
    // A registered shipper keeps the language it registered in and its business details.
    const shipper = await findUserByEmail(db, f.t.tenant.id, email);
    expect(shipper).toMatchObject({ locale: 'en', company: 'Registered Co', name: 'Rita Reg' });
    expect(shipper?.profile).toMatchObject({ monthlyVolume: '50-200', business: ['truck'] });
  });

  it('seeds branches and agents with their first user, both accounts and their invitation code', async () => {
    const db = f.db;
    for (const [who, code, type] of [
      ['branch', 'BRANCH01', 'branch'],
      ['agent', 'AGENT001', 'agent'],
    ] as const) {
      const org = (await findUserByEmail(db, f.t.tenant.id, f.t.email(who)))?.organisationId as number;
      const shape = await shapeOf(org);
      expect(shape).toMatchObject({ type, path: true, contact: true, accounts: expected.accounts });
      expect(shape.users).toEqual([{ identity: type, enabled: true, roles: [expect.any(String)] }]);
      expect((await listInvitationCodes(db, f.t.tenant.id, org)).map((c) => c.code)).toEqual([code]);
    }
  });
});

describe('the shape of the tree', () => {
  it('never puts an organisation under a customer, whichever way it is made', async () => {
    const db = f.db;
    const customer = await findUserByEmail(db, f.t.tenant.id, f.t.email('customer'));
    const under = createOrganisation(db, f.t.tenant.id, {
      type: 'customer',
      name: 'Below a customer',
      parentId: customer?.organisationId as number,
    });
    await expect(under).rejects.toMatchObject({ key: 'customers.parentNotAllowed' });
  });

  it('scopes a customer to its own organisation by id, and an agent to its subtree by path', async () => {
    const db = f.db;
    const user = async (who: 'customer' | 'agent') => {
      const found = await findUserByEmail(db, f.t.tenant.id, f.t.email(who));
      return {
        tenantId: f.t.tenant.id,
        identity: found?.identity as Identity,
        organisationId: found?.organisationId ?? null,
      };
    };
    const customer = await user('customer');
    const agent = await user('agent');
    const customerScope = await organisationScope(db, customer);
    expect(customerScope).toMatchObject({ kind: 'subtree', only: customer.organisationId });
    expect(visibleOrganisationIds(db, customerScope)).toEqual([customer.organisationId]);
    const agentScope = await organisationScope(db, agent);
    expect(agentScope).toMatchObject({ kind: 'subtree' });
    expect(agentScope).not.toHaveProperty('only');
    const seen = (await visibleOrganisationIds(db, agentScope)) as { id: number }[];
    // The agent's own organisation and every one under it, found through the path range.
    const own = await findOrganisation(db, f.t.tenant.id, agent.organisationId as number);
    const all = await db
      .select({ id: organisations.id, path: organisations.path })
      .from(organisations)
      .where(eq(organisations.tenantId, f.t.tenant.id));
    const under = all.filter((o) => o.path.startsWith(own?.path ?? '?')).map((o) => o.id);
    expect(under).toContain(customer.organisationId);
    expect(seen.map((o) => o.id).sort((a, b) => a - b)).toEqual(under.sort((a, b) => a - b));
  });
});
