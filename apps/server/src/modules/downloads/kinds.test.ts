import { randomUUID } from 'node:crypto';
import type { ExportKindName } from '@freight/contracts/downloads';
import { eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { type Caller, useTestApp } from '../../../test/fixture.ts';
import { addUser, call, isoDay, type TestTenant } from '../../../test/helpers.ts';
import { insertDailyReport, insertTruckRecords } from '../../../test/truck-fixtures.ts';
import { requestUserOf } from '../../plugins/context.ts';
import { ensureAccount } from '../accounts/service.ts';
import { addressExportRows } from '../addresses/service.ts';
import { users } from '../auth/schema.ts';
import { findUser } from '../auth/service.ts';
import { organisationScope } from '../customers/service.ts';
import { BUILTIN_ROLES } from '../roles/builtin-roles.ts';
import { assignRoles, grantsForUser, setRoleGrants } from '../roles/service.ts';
import { EXPORT_QUEUE, exportKind, queueExport } from './runner.ts';
import { createExportFile, findExportFile } from './service.ts';

// Every export goes through the queue here, however few its rows.
const f = useTestApp({
  tenants: 2,
  signIn: [
    ['admin', 'customer', 'agent', 'branch'],
    ['admin', 'customer'],
  ],
  app: { config: { EXPORT_AT_ONCE_ROWS: 0 } },
});

async function exportThroughQueue(as: Caller, url: string, body: object) {
  const queued = (await as.post(url, body)).json();
  expect(queued, url).toMatchObject({ code: 200, data: { queued: true } });
  const row = await findExportFile(f.db, f.t.tenant.id, queued.data.id);
  await f.ctx.app.jobs.settled(EXPORT_QUEUE, row?.jobId ?? '');
  const res = await call(
    f.ctx,
    'POST',
    '/api/admin/download/file',
    { id: queued.data.id },
    {
      host: as.tenant.host,
      token: as.token,
      language: 'en-US',
    },
  );
  expect(res.statusCode).toBe(200);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
  const rows: unknown[][] = [];
  workbook.worksheets[0]?.eachRow((r) => {
    rows.push((r.values as unknown[]).slice(1));
  });
  return rows;
}

describe('the ledger views through the download centre', () => {
  it("writes the account details the caller's list shows, in its order, with the customer's columns", async () => {
    const admin = f.as('admin');
    const customer = f.as('customer').in('en-US');
    const account = await ensureAccount(f.db, f.t.tenant.id, await f.orgOf('customer'), 'truck');
    for (const amount of ['100.00', '-12.50', '30.25', '-7.75'])
      await admin.ok('/api/admin/account/adjust', {
        accountId: account.id,
        amount,
        reason: `adjust ${amount}`,
        requestKey: randomUUID(),
      });

    const shown = await customer.ok('/api/admin/account/details', { line: 'truck', page: 1, limit: 50 });
    expect(shown.total).toBe(4);
    const rows = await exportThroughQueue(customer, '/api/admin/account/detailsExport', { line: 'truck' });
    expect(rows[0]).toEqual([
      'Time',
      'Organisation',
      'Type',
      'Amount',
      'Balance after',
      'Reference',
      'Note',
      'Operator',
    ]);
    expect(rows.slice(1).map((r) => [r[3], r[4]])).toEqual(
      shown.list.map((r: { amount: string; balanceAfter: string }) => [
        Number(r.amount),
        Number(r.balanceAfter),
      ]),
    );
    // Customers are not shown the staff member who made the movement.
    expect(rows.slice(1).every((r) => (r[7] ?? '') === '')).toBe(true);
    const staffRows = await exportThroughQueue(admin, '/api/admin/account/detailsExport', { line: 'truck' });
    expect(staffRows.slice(1).every((r) => r[7] === f.t.email('admin'))).toBe(true);
  });

  it('fails the export of a user who may no longer sign in when its job runs, saying why', async () => {
    const customerId = await f.userOf('customer');
    const row = await createExportFile(f.db, {
      tenantId: f.t.tenant.id,
      userId: customerId,
      kind: 'account-details',
      title: 'Account details',
      params: { line: 'truck' },
      language: 'en-US',
    });
    await f.db.update(users).set({ enabled: false }).where(eq(users.id, customerId));
    try {
      await queueExport(f.ctx.app, row);
      const queued = await findExportFile(f.db, f.t.tenant.id, row.id);
      expect(await f.ctx.app.jobs.settled(EXPORT_QUEUE, queued?.jobId ?? '')).toMatchObject({
        state: 'completed',
      });
      expect(await findExportFile(f.db, f.t.tenant.id, row.id)).toMatchObject({
        status: 'failed',
        error: 'You are not allowed to do this',
        filePath: '',
      });
    } finally {
      await f.db.update(users).set({ enabled: true }).where(eq(users.id, customerId));
    }
  });
});

describe('the address book through the download centre', () => {
  it('writes the book in the list order, default first, however the keyset pages fall', async () => {
    const customer = f.as('customer').in('en-US');
    for (const [i, name] of ['Dock A', 'Dock B', 'Dock C', 'Dock D', 'Dock E'].entries())
      await customer.ok('/api/admin/address/save', {
        name,
        address1: `${100 + i} Main St`,
        zipcode: '92551',
        city: 'Moreno Valley',
        state: 'CA',
        contact: 'Jane Doe',
        phone: '9095551234',
        email: 'jane@acme.example.com',
        isDefaultPickup: name === 'Dock B',
      });
    const shown = (await customer.ok('/api/admin/address/list', { page: 1, limit: 100 })).list.map(
      (a: { name: string }) => a.name,
    );
    expect(shown[0]).toBe('Dock B');
    // Pages of two: a boundary falls right after the default address and between the others.
    const me = { tenantId: f.t.tenant.id, id: await f.userOf('customer') };
    const scope = await organisationScope(f.db, {
      ...me,
      identity: 'customer',
      organisationId: await f.orgOf('customer'),
    });
    const paged: string[] = [];
    for await (const page of addressExportRows(f.db, scope, {}).pages(2))
      paged.push(...page.map((a) => a.name));
    expect(paged).toEqual(shown);

    const rows = await exportThroughQueue(customer, '/api/admin/address/export', {});
    expect(rows.slice(1).map((r) => r[0])).toEqual(shown);
  });
});

/* ----- the rest of the list exports: each through the queue, as its list shows it to the caller ----- */

/** Every row of a list as the caller sees it, a page of 200 at a time. */
async function listAll(as: Caller, url: string, body: object) {
  const rows: Record<string, unknown>[] = [];
  for (let page = 1; ; page++) {
    const data = await as.ok(url, { ...body, page, limit: 200 });
    rows.push(...data.list);
    if (data.list.length < 200) return rows;
  }
}

/** Three records of each kind for an organisation, and its daily report. */
async function seedRecords(tenant: TestTenant, organisationId: number, userId: number, tag: string) {
  const tenantId = tenant.tenant.id;
  for (let i = 0; i < 3; i++)
    await insertTruckRecords(f.db, {
      tenantId,
      organisationId,
      userId,
      tag: `${tag}${i}`,
      recharge: BigInt(10_000 + i),
      invoice: BigInt(5_000 + i),
      bounceBill: BigInt(2_500 + i),
    });
  await insertDailyReport(f.db, tenantId, organisationId, 40_000n);
}

describe('the other list exports through the download centre', () => {
  let ready: Promise<void> | null = null;
  /** Records under the agent's customer, the agent, the direct customer, and another tenant's customer. */
  const seed = () => {
    ready ??= (async () => {
      const other = f.tenant(1);
      await seedRecords(f.t, await f.orgOf('customer'), await f.userOf('customer'), 'cust');
      await seedRecords(f.t, await f.orgOf('agent'), await f.userOf('agent'), 'agent');
      await seedRecords(f.t, await f.orgOf('direct'), await f.userOf('direct'), 'direct');
      await seedRecords(other, await f.orgOf('customer', other), await f.userOf('customer', other), 'other');
    })();
    return ready;
  };

  it("writes an agent's recharges, invoices and bounce bills as its lists show them, none of anyone else's", async () => {
    await seed();
    const agent = f.as('agent').in('en-US');
    const cases = [
      ['/api/admin/recharge/list', '/api/admin/recharge/export', {}, 'serial', 'Serial'],
      ['/api/admin/invoice/list', '/api/admin/invoice/export', {}, 'id', 'Request'],
      [
        '/api/admin/bounceBill/list',
        '/api/admin/bounceBill/export',
        { line: 'truck' },
        'billNo',
        'Bill number',
      ],
    ] as const;
    for (const [list, exported, body, key, header] of cases) {
      const shown = (await listAll(agent, list, body)).map((r) => r[key]);
      // The agent's own and its customer's: three each.
      expect(shown, list).toHaveLength(6);
      const rows = await exportThroughQueue(agent, exported, body);
      expect(rows[0]?.[0], exported).toBe(header);
      expect(
        rows.slice(1).map((r) => r[0]),
        exported,
      ).toEqual(shown);
    }
    const serials = (await exportThroughQueue(agent, '/api/admin/recharge/export', {})).map((r) => r[0]);
    expect(serials.filter((s) => /direct|other/.test(String(s)))).toEqual([]);
    // Cards stay masked in the file, as in the list.
    const recharge = (await exportThroughQueue(agent, '/api/admin/recharge/export', { serial: 'Rcust0' }))[1];
    expect(recharge?.[10]).toBe('************2345');
  });

  it('reads the same rows in the same order however the keyset pages fall', async () => {
    await seed();
    const cases = [
      ['agent', 'recharges', {}, '/api/admin/recharge/list', 'serial'],
      ['agent', 'invoices', {}, '/api/admin/invoice/list', 'id'],
      ['agent', 'bounce-bills', { line: 'truck' }, '/api/admin/bounceBill/list', 'billNo'],
      ['branch', 'customers', { kind: 'allCustomer', line: 'truck' }, '/api/admin/customer/list', 'id'],
      ['admin', 'staff', {}, '/api/admin/staff/list', 'email'],
    ] as const;
    for (const [who, name, body, list, key] of cases) {
      const id = await f.userOf(who);
      const found = await findUser(f.db, f.t.tenant.id, id);
      if (!found) throw new Error(`no ${who}`);
      const user = requestUserOf(found, await grantsForUser(f.db, f.t.tenant.id, id, false));
      const kind = exportKind(name);
      if (!kind) throw new Error(`no export ${name}`);
      const source = await kind.source(f.db, user, kind.params.parse(body), 'en-US');
      const paged: unknown[] = [];
      // Pages of two: boundaries fall between every other row.
      for await (const page of source.pages(2))
        paged.push(...(page as Record<string, unknown>[]).map((r) => r[key]));
      const shown = (await listAll(f.as(who), list, body)).map((r) => r[key]);
      expect(paged, name).toEqual(shown);
      expect(await source.count(2), name).toBe(Math.min(shown.length, 3));
    }
  });

  it("writes a branch's organisations and staff's whole tenant, never another tenant's", async () => {
    await seed();
    const branch = f.as('branch').in('en-US');
    const body = { kind: 'allCustomer', line: 'truck' };
    const shown = (await listAll(branch, '/api/admin/customer/list', body)).map((r) => r.id);
    expect(shown).toContain(await f.orgOf('customer'));
    expect(shown).not.toContain(await f.orgOf('direct'));
    const rows = await exportThroughQueue(branch, '/api/admin/customer/export', body);
    expect(rows[0]?.slice(0, 2)).toEqual(['ID', 'Name']);
    expect(rows.slice(1).map((r) => r[0])).toEqual(shown);

    const admin = f.as('admin').in('en-US');
    const all = (await listAll(admin, '/api/admin/customer/list', body)).map((r) => r.id);
    expect(all).toContain(await f.orgOf('direct'));
    expect(all).not.toContain(await f.orgOf('customer', f.tenant(1)));
    const adminRows = await exportThroughQueue(admin, '/api/admin/customer/export', body);
    expect(adminRows.slice(1).map((r) => r[0])).toEqual(all);

    const staff = (await listAll(admin, '/api/admin/staff/list', {})).map((r) => r.email);
    expect(staff).toContain(f.t.email('admin'));
    const staffRows = await exportThroughQueue(admin, '/api/admin/staff/export', {});
    expect(staffRows[0]?.[0]).toBe('E-mail');
    expect(staffRows.slice(1).map((r) => r[0])).toEqual(staff);
    expect(staffRows.flat()).not.toContain(f.tenant(1).email('admin'));
  });

  it("writes the report table the page shows, with its totals row, in the caller's scope", async () => {
    await seed();
    const query = { from: isoDay(-3), to: isoDay(0), dimension: 'customer' };
    // The page is staff's by default; this tenant grants it to branches too.
    const role = BUILTIN_ROLES.find((r) => r.code === 'branch');
    await setRoleGrants(
      f.db,
      f.t.tenant.id,
      f.t.roleIds.get('branch') as number,
      [...(role?.menuIds ?? []), 94],
      [...(role?.buttonKeys ?? [])],
    );
    for (const who of ['admin', 'branch'] as const) {
      const as = f.as(who).in('en-US');
      const report = await as.ok('/api/admin/reports/summary', query);
      const rows = await exportThroughQueue(as, '/api/admin/reports/export', query);
      expect(rows[0]?.[0], who).toBe('Customer');
      expect(
        rows.slice(1).map((r) => [r[0], r[1], r[2], r[3]]),
        who,
      ).toEqual([
        ...report.rows.map((r: { name: string; orders: number; revenue: string; cost: string }) => [
          r.name,
          r.orders,
          Number(r.revenue),
          Number(r.cost),
        ]),
        ['Total', report.totals.orders, Number(report.totals.revenue), Number(report.totals.cost)],
      ]);
    }
    // The branch sees its subtree at its own buying price: the direct customer is not in it.
    const branch = await f.as('branch').ok('/api/admin/reports/summary', query);
    expect(branch.totals.revenue).toBe('800.00');
    expect(branch.totals.cost).toBe('660.00');
  });

  it('refuses the job of a user who lost the permission since asking, saying why', async () => {
    const kinds: [ExportKindName, Record<string, unknown>][] = [
      ['customers', { kind: 'allCustomer', line: 'truck' }],
      ['recharges', {}],
      ['invoices', {}],
      ['bounce-bills', { line: 'truck' }],
      ['staff', {}],
      ['reports', { from: isoDay(-3), to: isoDay(0) }],
    ];
    const user = await addUser(f.ctx, f.t, { role: 'admin' });
    // More exports at once than a user may queue from the page: this is about the grant, not the cap.
    const cap = kinds.length + 1;
    const asked = [];
    for (const [kind, params] of kinds)
      asked.push(
        await createExportFile(
          f.db,
          {
            tenantId: f.t.tenant.id,
            userId: user.id,
            kind,
            title: kind,
            params,
            language: 'en-US',
          },
          cap,
        ),
      );
    // While the user holds the grant, the same export is written.
    const held = await createExportFile(
      f.db,
      {
        tenantId: f.t.tenant.id,
        userId: user.id,
        kind: 'staff',
        title: 'staff',
        params: {},
        language: 'en-US',
      },
      cap,
    );
    await queueExport(f.ctx.app, held);
    await f.ctx.app.jobs.settled(
      EXPORT_QUEUE,
      (await findExportFile(f.db, f.t.tenant.id, held.id))?.jobId ?? '',
    );
    expect(await findExportFile(f.db, f.t.tenant.id, held.id)).toMatchObject({ status: 'done' });
    await assignRoles(f.db, f.t.tenant.id, user.id, []);
    for (const row of asked) {
      await queueExport(f.ctx.app, row);
      const queued = await findExportFile(f.db, f.t.tenant.id, row.id);
      await f.ctx.app.jobs.settled(EXPORT_QUEUE, queued?.jobId ?? '');
      expect(await findExportFile(f.db, f.t.tenant.id, row.id), row.kind).toMatchObject({
        status: 'failed',
        error: 'You are not allowed to do this',
        filePath: '',
        rowsDone: 0,
      });
    }
  });
});
