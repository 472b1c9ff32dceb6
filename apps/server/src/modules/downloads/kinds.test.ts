import { eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { type Caller, useTestApp } from '../../../test/fixture.ts';
import { call } from '../../../test/helpers.ts';
import { ensureAccount } from '../accounts/service.ts';
import { addressExportRows } from '../addresses/service.ts';
import { users } from '../auth/schema.ts';
import { organisationScope } from '../customers/service.ts';
import { EXPORT_QUEUE, queueExport } from './runner.ts';
import { createExportFile, findExportFile } from './service.ts';

// Every export goes through the queue here, however few its rows.
const f = useTestApp({ signIn: ['admin', 'customer'], app: { config: { EXPORT_AT_ONCE_ROWS: 0 } } });

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
      shown.list.map((r: { amount: string; balanceAfter: string }) => [r.amount, r.balanceAfter]),
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
