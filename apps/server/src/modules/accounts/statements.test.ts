/**
 * Statements: account details, their export, the balance summary, the account log and the
 * supplementary deductions are read views over the accounts module's ledger, served at
 * /api/admin/account/*. Money is put in place with the accounts service, as orders and work orders do.
 */
import { ACCOUNT_LOG_TYPES, type LedgerType } from '@freight/contracts/accounts';
import ExcelJS from 'exceljs';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/fixture.ts';
import { signIn, userIdOf, type Who } from '../../../test/helpers.ts';
import { createUser } from '../auth/service.ts';
import { createOrganisation } from '../customers/service.ts';
import { assignRoles } from '../roles/service.ts';
import {
  ensureAccount,
  freezeAccount,
  ledgerMismatches,
  moveMoney,
  setCreditLimit,
  unfreezeAccount,
} from './service.ts';

const f = useTestApp({
  tenants: 2,
  signIn: [['admin', 'branch', 'agent', 'customer', 'direct'], ['admin']],
  language: 'en-US',
});
/** Sessions of users made here, beside the demo ones. */
const made: Record<string, string> = {};
const orgs: Record<string, number> = {};

const post = (url: string, body: unknown, who: string, tenant = f.t) =>
  (who in made ? f.withToken(made[who], tenant) : f.as(who as Who, tenant)).post(url, body);

interface LedgerRow {
  id: number;
  organisationId: number;
  organisationName: string;
  line: string;
  type: LedgerType;
  amount: string;
  balanceAfter: string;
  refId: string;
  note: string;
  operator: string;
}
interface LedgerPage {
  list: LedgerRow[];
  total: number;
  page: number;
  limit: number;
  totals: { credits: string; debits: string };
}

const details = async (who: string, filter: Record<string, unknown> = {}, tenant = f.t) =>
  (
    await post('/api/admin/account/details', { line: 'truck', page: 1, limit: 200, ...filter }, who, tenant)
  ).json().data as LedgerPage;

async function move(
  org: string,
  type: LedgerType,
  cents: bigint,
  refId = '',
  line: 'truck' | 'express' = 'truck',
) {
  const account = await ensureAccount(f.db, f.t.tenant.id, orgs[org] as number, line);
  await moveMoney(f.db, {
    tenantId: f.t.tenant.id,
    accountId: account.id,
    type,
    amount: cents,
    refId,
  });
}

const cents = (money: string) => BigInt(money.replace('.', ''));
const sum = (rows: { amount: string }[], keep: (c: bigint) => boolean) =>
  rows
    .map((r) => cents(r.amount))
    .filter(keep)
    .reduce((s, c) => s + c, 0n);

beforeAll(async () => {
  const db = f.db;
  for (const who of ['branch', 'agent', 'customer', 'direct'] as const) orgs[who] = await f.orgOf(who);
  // Another agent's customer under the same branch.
  const bay = await createOrganisation(db, f.t.tenant.id, {
    type: 'agent',
    name: 'Bay Logistics',
    parentId: orgs.branch,
  });
  const globex = await createOrganisation(db, f.t.tenant.id, {
    type: 'customer',
    name: 'Globex Trading',
    parentId: bay.id,
  });
  orgs.globex = globex.id;
  const user = await createUser(db, f.t.tenant.id, {
    email: `globex@${f.t.tenant.code}.example.com`,
    password: f.t.password,
    identity: 'customer',
    organisationId: globex.id,
    name: 'Globex',
  });
  await assignRoles(db, f.t.tenant.id, user.id, [f.t.roleIds.get('customer') as number]);
  made.globex = await signIn(f.ctx, f.t, user.email);

  await move('customer', 'recharge', 100_000n, 'R-CUST-1');
  for (let i = 1; i <= 12; i++) await move('customer', 'order_payment', -1_000n * BigInt(i), `ORD-${i}`);
  await move('customer', 'refund', 500n, 'ORD-3');
  await move('customer', 'surcharge', -250n, 'ORD-4');
  await move('customer', 'work_order_deduct', -125n, 'WO-1');
  await move('customer', 'recharge', 7_000n, 'R-CUST-X', 'express');
  await move('globex', 'recharge', 30_000n, 'R-GLOBEX-1');
  await move('globex', 'surcharge', -300n, 'ORD-G1');
  await move('direct', 'recharge', 20_000n, 'R-DIRECT-1');
});
afterEach(async () => {
  expect(await ledgerMismatches(f.db)).toEqual([]);
});

describe('account details', () => {
  it('totals credits and debits over the whole filter, not just the page', async () => {
    const all = await details('admin', { organisationId: orgs.customer });
    expect(all.total).toBe(16);
    expect(all.totals).toEqual({ credits: '1005.00', debits: '-783.75' });
    const firstPage = await details('admin', { organisationId: orgs.customer, limit: 10 });
    expect(firstPage.list).toHaveLength(10);
    expect(firstPage.totals).toEqual(all.totals);
    const secondPage = await details('admin', { organisationId: orgs.customer, limit: 10, page: 2 });
    expect(secondPage.list).toHaveLength(6);
    expect(sum([...firstPage.list, ...secondPage.list], (c) => c > 0n)).toBe(100_500n);
    // Newest first, each row with the balance it left.
    expect(all.list[0]).toMatchObject({
      type: 'work_order_deduct',
      amount: '-1.25',
      organisationName: 'Acme Imports',
    });
    expect(all.list[0]?.balanceAfter).toBe('221.25');
  });

  it('filters by type, reference, line and period', async () => {
    const payments = await details('admin', { organisationId: orgs.customer, type: 'order_payment' });
    expect(payments.total).toBe(12);
    expect(payments.totals).toEqual({ credits: '0.00', debits: '-780.00' });
    const ord3 = await details('admin', { reference: 'ORD-3' });
    expect(ord3.list.map((r) => r.type).sort()).toEqual(['order_payment', 'refund']);
    const express = await details('admin', { line: 'express', organisationId: orgs.customer });
    expect(express.list.map((r) => r.refId)).toEqual(['R-CUST-X']);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString();
    expect((await details('admin', { from: tomorrow })).total).toBe(0);
    expect((await details('admin', { to: tomorrow, organisationId: orgs.direct })).total).toBe(1);
  });

  it('shows each caller only its own subtree, and another tenant nothing', async () => {
    const orgsSeen = async (who: string, tenant = f.t) =>
      new Set((await details(who, {}, tenant)).list.map((r) => r.organisationName));
    expect(await orgsSeen('customer')).toEqual(new Set(['Acme Imports']));
    expect(await orgsSeen('agent')).toEqual(new Set(['Acme Imports']));
    expect(await orgsSeen('globex')).toEqual(new Set(['Globex Trading']));
    expect(await orgsSeen('branch')).toEqual(new Set(['Acme Imports', 'Globex Trading']));
    expect(await orgsSeen('admin')).toEqual(new Set(['Acme Imports', 'Globex Trading', 'Northwind Traders']));
    expect((await details('admin', {}, f.tenant(1))).total).toBe(0);
    // Asking for another subtree's organisation by id finds nothing.
    expect((await details('agent', { organisationId: orgs.globex })).total).toBe(0);
    expect((await details('customer', { organisationId: orgs.direct })).totals).toEqual({
      credits: '0.00',
      debits: '0.00',
    });
  });

  it('exports the filtered rows as a spreadsheet', async () => {
    const res = await post(
      '/api/admin/account/detailsExport',
      { line: 'truck', type: 'order_payment' },
      'customer',
    );
    expect(res.statusCode).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0];
    expect(sheet?.rowCount).toBe(13);
    const header = sheet?.getRow(1).values as unknown[];
    // Amounts are number cells (the sheet sums them), two places each.
    const amounts = sheet?.getColumn(header.indexOf('Amount')).values.slice(2) as number[];
    expect(amounts.every((a) => typeof a === 'number')).toBe(true);
    expect(amounts.map((a) => BigInt(Math.round(a * 100))).reduce((s, c) => s + c, 0n)).toBe(-78_000n);
    const references = sheet?.getColumn(header.indexOf('Reference')).values.slice(2);
    expect(references).toContain('ORD-12');
  });
});

describe('balance summary', () => {
  it('lists every account of the line in scope with grand totals', async () => {
    const db = f.db;
    const acme = await ensureAccount(db, f.t.tenant.id, orgs.customer as number, 'truck');
    const admin = await userIdOf(f.ctx, f.t.tenant.id, f.t.email('admin'));
    await setCreditLimit(db, {
      tenantId: f.t.tenant.id,
      accountId: acme.id,
      creditLimit: 50_000n,
      operatorId: admin,
      reason: 'good payer',
    });
    const res = (await post('/api/admin/account/balanceTotal', { line: 'truck' }, 'admin')).json().data;
    const row = res.list.find((r: { organisationId: number }) => r.organisationId === orgs.customer);
    expect(row).toMatchObject({
      organisationName: 'Acme Imports',
      balance: '221.25',
      creditLimit: '500.00',
      frozen: '0.00',
      available: '721.25',
      status: 'normal',
    });
    const total = (field: string) =>
      res.list.reduce((s: bigint, r: Record<string, string>) => s + cents(r[field] as string), 0n);
    for (const field of ['balance', 'creditLimit', 'frozen', 'deposit', 'available'])
      expect(cents(res.totals[field]), field).toBe(total(field));

    const agent = (await post('/api/admin/account/balanceTotal', { line: 'truck' }, 'agent')).json().data;
    const names = agent.list.map((r: { organisationName: string }) => r.organisationName);
    expect(names).toContain('Acme Imports');
    expect(names).not.toContain('Globex Trading');
    expect(names).not.toContain('Northwind Traders');
    const foreign = (
      await post('/api/admin/account/balanceTotal', { line: 'truck' }, 'admin', f.tenant(1))
    ).json().data;
    // Every tenant's demo has an "Acme Imports"; this tenant's is not among them.
    expect(foreign.list.map((r: { organisationId: number }) => r.organisationId)).not.toContain(
      orgs.customer,
    );
  });
});

describe('account log and deductions', () => {
  it('shows freezes, unfreezes, credit changes and reviewed recharges, and no order movements', async () => {
    const db = f.db;
    const account = await ensureAccount(db, f.t.tenant.id, orgs.direct as number, 'truck');
    const admin = await userIdOf(f.ctx, f.t.tenant.id, f.t.email('admin'));
    await freezeAccount(db, f.t.tenant.id, account.id, admin, 'overdue');
    await unfreezeAccount(db, f.t.tenant.id, account.id, admin, 'paid');
    const log = (
      await post(
        '/api/admin/account/log',
        { line: 'truck', page: 1, limit: 50, organisationId: orgs.direct },
        'admin',
      )
    ).json().data as LedgerPage;
    expect(log.list.slice(0, 2).map((r) => [r.type, r.note, r.operator])).toEqual([
      ['unfreeze', 'paid', f.t.email('admin')],
      ['freeze', 'overdue', f.t.email('admin')],
    ]);
    expect(log.list.every((r) => (ACCOUNT_LOG_TYPES as readonly string[]).includes(r.type))).toBe(true);
    expect(
      log.list
        .filter((r) => r.type !== 'recharge')
        .every((r) => ['0.00'].includes(r.amount) || r.type === 'manual_adjustment'),
    ).toBe(true);
    const forCustomer = (
      await post('/api/admin/account/log', { line: 'truck', page: 1, limit: 50 }, 'direct')
    ).json().data as LedgerPage;
    expect(forCustomer.list.map((r) => r.id)).toEqual(log.list.map((r) => r.id));
    // Customers are not shown which staff member acted.
    expect(forCustomer.list.every((r) => r.operator === '')).toBe(true);
  });

  it('puts an approved recharge in the account log, and filters every view by the customer’s name', async () => {
    const db = f.db;
    const account = await ensureAccount(db, f.t.tenant.id, orgs.direct as number, 'truck');
    await moveMoney(db, {
      tenantId: f.t.tenant.id,
      accountId: account.id,
      type: 'recharge',
      amount: 12_345n,
      refId: 'R-LOG',
    });
    const log = (
      await post(
        '/api/admin/account/log',
        { line: 'truck', page: 1, limit: 50, keyword: 'northwind' },
        'admin',
      )
    ).json().data as LedgerPage;
    expect(log.list.some((r) => r.type === 'recharge' && r.refId === 'R-LOG')).toBe(true);
    expect(new Set(log.list.map((r) => r.organisationName))).toEqual(new Set(['Northwind Traders']));
    const details = (
      await post(
        '/api/admin/account/details',
        { line: 'truck', page: 1, limit: 50, keyword: 'NORTHWIND' },
        'admin',
      )
    ).json().data as LedgerPage;
    expect(details.total).toBeGreaterThan(0);
    expect(details.list.every((r) => r.organisationName === 'Northwind Traders')).toBe(true);
    // The keyword never reaches past the caller's scope.
    const agent = (
      await post(
        '/api/admin/account/details',
        { line: 'truck', page: 1, limit: 50, keyword: 'northwind' },
        'agent',
      )
    ).json().data as LedgerPage;
    expect(agent.total).toBe(0);
    const exported = await f.ctx.app.inject({
      method: 'POST',
      url: '/api/admin/account/logExport',
      headers: { host: f.t.host, accesstoken: f.as('admin').token ?? '', 'accept-language': 'en-US' },
      payload: { line: 'truck', page: 1, limit: 10, keyword: 'northwind' },
    });
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(exported.rawPayload as unknown as ArrayBuffer);
    const types = (workbook.worksheets[0]?.getColumn(3).values ?? []).slice(2);
    expect(types).toContain('Recharge');
  });

  it('lists surcharges and work-order deductions only, by scope', async () => {
    const rows = (
      await post('/api/admin/account/deductions', { line: 'truck', page: 1, limit: 50 }, 'admin')
    ).json().data as LedgerPage;
    expect(new Set(rows.list.map((r) => r.type))).toEqual(new Set(['surcharge', 'work_order_deduct']));
    expect(rows.totals.debits).toBe('-6.75');
    const mine = (
      await post('/api/admin/account/deductions', { line: 'truck', page: 1, limit: 50 }, 'customer')
    ).json().data as LedgerPage;
    expect(mine.list.map((r) => r.refId).sort()).toEqual(['ORD-4', 'WO-1']);
  });
});
