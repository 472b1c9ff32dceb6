import type { LedgerType } from '@freight/contracts/accounts';
import { and, eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/fixture.ts';
import { badFields, uploadFor, userIdOf, type Who } from '../../../test/helpers.ts';
import { ledgerEntries } from '../accounts/schema.ts';
import { ensureAccount, ledgerMismatches, moveMoney } from '../accounts/service.ts';
import { findUser } from '../auth/service.ts';

const f = useTestApp({
  tenants: 2,
  signIn: [['admin', 'customer', 'direct', 'agent'], ['admin']],
  language: 'en-US',
});
const post = (url: string, body: unknown, who: Who, tenant = f.t) => f.as(who, tenant).post(url, body);

/** A ledger movement dated in the past, as if it had happened then. */
async function movedOn(organisationId: number, type: LedgerType, cents: bigint, when: string) {
  const db = f.db;
  const account = await ensureAccount(db, f.t.tenant.id, organisationId, 'truck');
  const { entryId } = await moveMoney(db, {
    tenantId: f.t.tenant.id,
    accountId: account.id,
    type,
    amount: cents,
  });
  await db
    .update(ledgerEntries)
    .set({ createdAt: new Date(when) })
    .where(and(eq(ledgerEntries.tenantId, f.t.tenant.id), eq(ledgerEntries.id, entryId)));
}

const month = (m: number) => ({
  periodFrom: `2026-0${m}-01T00:00:00Z`,
  periodTo: `2026-0${m + 1}-01T00:00:00Z`,
});
const invoiceDetails = {
  line: 'truck',
  title: 'Acme Imports',
  taxNumber: '91310000X',
  email: 'ap@acme.test',
};
const requestFor = (m: number, who: Who = 'customer', extra: Record<string, unknown> = {}) =>
  post('/api/admin/invoice/request', { ...invoiceDetails, ...month(m), ...extra }, who);

beforeAll(async () => {
  const customer = await findUser(
    f.db,
    f.t.tenant.id,
    await userIdOf(f.ctx, f.t.tenant.id, f.t.email('customer')),
  );
  const org = customer?.organisationId as number;
  // January: paid 120.00 and 30.50 for orders, got 10.00 back; a surcharge is not an order payment.
  await movedOn(org, 'recharge', 50_000n, '2026-01-05T00:00:00Z');
  await movedOn(org, 'order_payment', -12_000n, '2026-01-10T00:00:00Z');
  await movedOn(org, 'order_payment', -3_050n, '2026-01-20T00:00:00Z');
  await movedOn(org, 'refund', 1_000n, '2026-01-25T00:00:00Z');
  await movedOn(org, 'surcharge', -500n, '2026-01-26T00:00:00Z');
  // February 20.00, March 7.00.
  await movedOn(org, 'order_payment', -2_000n, '2026-02-10T00:00:00Z');
  await movedOn(org, 'order_payment', -700n, '2026-03-10T00:00:00Z');
});
afterEach(async () => {
  expect(await ledgerMismatches(f.db)).toEqual([]);
});

describe('invoices', () => {
  it("requests an invoice for the period's order payments less refunds; staff issue it once", async () => {
    const req = await requestFor(1);
    expect(req.json()).toMatchObject({ code: 200, msg: 'Invoice requested' });
    expect(req.json().data).toMatchObject({ status: 'requested', amount: '140.50', actions: [] });
    const id = req.json().data.id;
    const forStaff = (await post('/api/admin/invoice/list', { page: 1, limit: 10 }, 'admin')).json().data
      .list;
    expect(forStaff.find((r: { id: number }) => r.id === id).actions).toEqual(['issue', 'refuse']);

    const outside = await post(
      '/api/admin/invoice/issue',
      { id, invoiceNumber: 'INV-0001', fileUrl: '/f.pdf' },
      'admin',
    );
    expect(badFields(outside)).toEqual(['fileUrl']);
    const fileUrl = await uploadFor(f.ctx, f.t.host, f.as('admin').token, 'pdf');
    const issued = await post(
      '/api/admin/invoice/issue',
      { id, invoiceNumber: 'INV-0001', fileUrl },
      'admin',
    );
    expect(issued.json().data).toMatchObject({ status: 'issued', invoiceNumber: 'INV-0001', fileUrl });
    // The requester's side loads the file; nobody signed out does.
    const load = (token?: string) =>
      f.ctx.app.inject({
        method: 'GET',
        url: fileUrl,
        headers: { host: f.t.host, ...(token ? { accesstoken: token } : {}) },
      });
    expect((await load(f.as('customer').token)).statusCode).toBe(200);
    expect((await load()).json().code).toBe(300);
    const again = await post('/api/admin/invoice/refuse', { id, reason: 'late' }, 'admin');
    expect(again.json()).toMatchObject({ code: 409, msg: 'This invoice request has already been handled' });
    const mine = await post('/api/admin/invoice/list', { page: 1, limit: 10 }, 'customer');
    expect(mine.json().data.list[0]).toMatchObject({
      id,
      status: 'issued',
      organisationName: 'Acme Imports',
    });

    // The requester is told, in the language it reads the notices in (rendered at read time).
    const notices = (await post('/api/admin/notice/userNotices', { type: 0 }, 'customer')).json().data.list;
    expect(notices).toContainEqual(
      expect.objectContaining({
        title: 'Invoice request',
        content: 'Your invoice was issued: number INV-0001, amount 140.50.',
        order_sn: String(id),
      }),
    );
    const inChinese = (
      await f.as('customer').post('/api/admin/notice/userNotices', { type: 0 }, 'zh-CN')
    ).json().data.list;
    expect(inChinese).toContainEqual(
      expect.objectContaining({
        title: '发票申请结果',
        content: '您申请的发票已开具,发票号 INV-0001,金额 140.50。',
        order_sn: String(id),
      }),
    );
  });

  it('invoices a period once: an overlapping request is refused until the first is refused', async () => {
    const overlapping = await requestFor(1, 'customer', {
      periodFrom: '2026-01-15T00:00:00Z',
      periodTo: '2026-02-15T00:00:00Z',
    });
    expect(overlapping.json().code).toBe(409);
    const feb = (await requestFor(2)).json().data;
    expect(feb.amount).toBe('20.00');
    const refused = await post(
      '/api/admin/invoice/refuse',
      { id: feb.id, reason: 'wrong tax number' },
      'admin',
    );
    expect(refused.json().data).toMatchObject({ status: 'refused', refusalReason: 'wrong tax number' });
    const retry = await requestFor(2, 'customer', { taxNumber: '91310000Y' });
    expect(retry.json().data).toMatchObject({ status: 'requested', amount: '20.00', taxNumber: '91310000Y' });
  });

  it('takes one of several requests for the same period made at once', async () => {
    const results = await Promise.all([requestFor(3), requestFor(3), requestFor(3)]);
    expect(results.map((r) => r.json().code).sort()).toEqual([200, 409, 409]);
  });

  it('refuses a period with nothing to invoice, one that ends before it starts, and staff', async () => {
    expect(badFields(await requestFor(1, 'direct'))).toEqual(['periodFrom']);
    const backwards = await requestFor(4, 'customer', {
      periodFrom: month(4).periodTo,
      periodTo: month(4).periodFrom,
    });
    expect(badFields(backwards)).toEqual(['periodTo']);
    expect(badFields(await requestFor(5, 'customer', { email: 'nope' }))).toEqual(['email']);
    const staff = await requestFor(4, 'admin');
    expect(staff.json()).toMatchObject({
      code: 409,
      msg: expect.stringContaining('Staff accounts cannot request'),
    });
  });

  it('lets only staff decide, and shows requests by scope and tenant', async () => {
    const list = (
      await post('/api/admin/invoice/list', { page: 1, limit: 50, status: 'requested' }, 'admin')
    ).json().data.list;
    const id = list[0].id;
    expect((await post('/api/admin/invoice/issue', { id, invoiceNumber: 'X' }, 'customer')).json().code).toBe(
      401,
    );
    expect(
      (await post('/api/admin/invoice/issue', { id, invoiceNumber: 'X' }, 'admin', f.tenant(1))).json().code,
    ).toBe(404);
    const ids = async (who: Who, tenant = f.t) =>
      (await post('/api/admin/invoice/list', { page: 1, limit: 50 }, who, tenant))
        .json()
        .data.list.map((r: { id: number }) => r.id);
    expect(await ids('agent')).toContain(id);
    expect(await ids('direct')).not.toContain(id);
    expect(await ids('admin', f.tenant(1))).toEqual([]);
    const byStatus = (
      await post('/api/admin/invoice/list', { page: 1, limit: 50, status: 'issued' }, 'admin')
    ).json().data.list;
    expect(byStatus.every((r: { status: string }) => r.status === 'issued')).toBe(true);
  });

  it("filters by the organisation's name as a subquery that never leaves the caller's scope", async () => {
    const ids = async (who: Who, keyword: string) =>
      (await post('/api/admin/invoice/list', { page: 1, limit: 50, keyword }, who))
        .json()
        .data.list.map((r: { organisationName: string }) => r.organisationName);
    const acme = await ids('admin', 'ACME imp');
    expect(acme.length).toBeGreaterThan(0);
    expect(new Set(acme)).toEqual(new Set(['Acme Imports']));
    expect(await ids('admin', 'northwind')).toEqual([]);
    // A pattern character is matched literally, not as a wildcard.
    expect(await ids('admin', '%')).toEqual([]);
    expect(await ids('direct', 'acme')).toEqual([]);
    expect(await ids('agent', 'acme')).toEqual(acme);
  });

  it('exports the requests in scope as a spreadsheet', async () => {
    const res = await post('/api/admin/invoice/export', { status: 'issued' }, 'customer');
    expect(res.headers['content-type']).toContain('spreadsheetml');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0];
    const header = sheet?.getRow(1).values as unknown[];
    const row = sheet?.getRow(2).values as unknown[];
    expect(sheet?.rowCount).toBe(2);
    expect(row[header.indexOf('Invoice number')]).toBe('INV-0001');
    expect(row[header.indexOf('Amount')]).toBe(140.5);
    expect(row[header.indexOf('Status')]).toBe('Issued');
  });
});
