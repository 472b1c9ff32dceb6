import { parseMoney } from '@freight/contracts/money';
import { and, eq, inArray, sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { useExpressLine } from '../../../test/express-fixtures.ts';
import { isoDay, useTestApp } from '../../../test/fixture.ts';
import { creditTruck, partsShipment } from '../../../test/truck-fixtures.ts';
import { expressWaybills, ledgerEntries, truckOrders } from '../../db/schema.ts';
import { savePriceLevel } from '../customers/price-levels.ts';
import { BUILTIN_ROLES } from '../roles/builtin-roles.ts';
import { setRoleGrants } from '../roles/service.ts';
import { rebuildReports } from './rebuild.ts';

const f = useTestApp({
  truck: true,
  tenants: 2,
  signIn: [['admin', 'branch', 'agent', 'customer', 'direct'], ['admin']],
  language: 'en-US',
});
const express = useExpressLine(f);

const today = isoDay();
const query = (extra: Record<string, unknown> = {}) => ({ from: isoDay(-1), to: isoDay(1), ...extra });
const summary = (who: 'admin' | 'branch' | 'agent', extra: Record<string, unknown> = {}, tenant = f.t) =>
  f.as(who, tenant).ok('/api/admin/reports/summary', query(extra));
const cents = (money: string) => parseMoney(money) as bigint;

/** What the tenant's accounts paid for orders and waybills, less refunds: the ledger's side of revenue. */
async function ledgerRevenue(line?: 'truck' | 'express') {
  const [row] = await f.db
    .select({ total: sql<string>`coalesce(-sum(${ledgerEntries.amount}), 0)::text` })
    .from(ledgerEntries)
    .where(
      and(
        eq(ledgerEntries.tenantId, f.t.tenant.id),
        inArray(ledgerEntries.type, ['order_payment', 'refund', 'surcharge']),
        line ? eq(ledgerEntries.refType, line === 'truck' ? 'truck_order' : 'express_waybill') : undefined,
      ),
    );
  return BigInt(row?.total ?? '0');
}

/** The operator's cost (or a level's price) of what is paid and not given back, from the orders. */
async function orderCosts(level: 'cost' | 'branch' | 'agent', organisationIds?: number[]) {
  const truck = await f.db
    .select()
    .from(truckOrders)
    .where(and(eq(truckOrders.tenantId, f.t.tenant.id), sql`${truckOrders.paid} > 0`));
  const waybills = await f.db
    .select()
    .from(expressWaybills)
    .where(and(eq(expressWaybills.tenantId, f.t.tenant.id), sql`${expressWaybills.paid} > 0`));
  const mine = (org: number) => !organisationIds || organisationIds.includes(org);
  let total = 0n;
  for (const o of truck.filter((o) => mine(o.organisationId)))
    total += level === 'cost' ? o.costPrice : ((level === 'branch' ? o.branchPrice : o.agentPrice) ?? 0n);
  for (const w of waybills.filter((w) => mine(w.organisationId)))
    total += level === 'cost' ? w.cost : BigInt(w.levels.find((l) => l.type === level)?.total ?? 0);
  return total;
}

beforeAll(async () => {
  // Markups down the tree, so every level's price differs from the operator's cost.
  for (const [who, percentBp] of [
    ['branch', 500],
    ['agent', 800],
    ['customer', 1_000],
    ['direct', 1_500],
  ] as const)
    await savePriceLevel(f.db, {
      tenantId: f.t.tenant.id,
      organisationId: await f.orgOf(who),
      line: 'truck',
      productKey: '',
      markupPercentBp: percentBp,
      markupFixedCents: 0n,
      updatedBy: 0,
    });
  for (const who of ['customer', 'direct'] as const)
    await creditTruck(f.db, f.t.tenant.id, await f.orgOf(who), 1_000_000n);
  // The page is staff's by default; this tenant grants it to branches and agents too.
  for (const code of ['branch', 'agent']) {
    const role = BUILTIN_ROLES.find((r) => r.code === code);
    await setRoleGrants(
      f.db,
      f.t.tenant.id,
      f.t.roleIds.get(code) as number,
      [...(role?.menuIds ?? []), 94],
      [...(role?.buttonKeys ?? [])],
    );
  }
});

describe('data reports', () => {
  it('agree with the ledger and the orders after payments, cancellations and refunds on both lines', async () => {
    const paid = await f.truck.order('customer', []);
    await f.truck.order('direct', []);
    const cancelled = await f.truck.order('customer', []);
    await f.truck.ok(
      '/api/admin/order/transition',
      { id: cancelled.id, action: 'cancel', reason: 'No longer needed' },
      'customer',
    );
    await express.paidWaybill([], 'customer');
    await express.paidWaybill([], 'direct');
    const voided = await express.paidWaybill([], 'customer');
    await f.as('customer').ok('/api/express/order/refund', { id: voided.id, reason: 'Booked twice' });

    const report = await summary('admin');
    expect(report.costBasis).toBe('operator');
    // Net: two truck orders and two waybills paid and kept.
    expect(report.totals.orders).toBe(4);
    expect(cents(report.totals.revenue)).toBe(await ledgerRevenue());
    expect(cents(report.totals.cost)).toBe(await orderCosts('cost'));
    expect(cents(report.totals.margin)).toBe(cents(report.totals.revenue) - cents(report.totals.cost));
    expect(report.series).toEqual([{ period: today, ...report.totals }]);

    // Each line on its own agrees with that line's ledger rows.
    const truck = await summary('admin', { line: 'truck' });
    expect(cents(truck.totals.revenue)).toBe(await ledgerRevenue('truck'));
    expect(cents(truck.totals.revenue)).toBeGreaterThan(0n);
    expect(truck.totals.orders).toBe(2);
    const byCustomer = await summary('admin', { line: 'truck', dimension: 'customer' });
    const customerRow = byCustomer.rows.find((r: { name: string }) => r.name === 'Acme Imports');
    expect(cents(customerRow.revenue)).toBe(cents(paid.total));

    // By product: the truck product and the express channels, with their names.
    const byProduct = await summary('admin', { dimension: 'product' });
    expect(byProduct.rows.map((r: { line: string }) => r.line).sort()).toEqual(['express', 'truck']);
    expect(byProduct.rows.find((r: { line: string }) => r.line === 'truck').name).toBe('LTL-T');

    // The rebuild from the orders themselves gives the very figures the money paths kept.
    const byBranch = await summary('admin', { dimension: 'branch' });
    await rebuildReports(f.db, f.t.tenant.id);
    expect(await summary('admin', { dimension: 'branch' })).toEqual(byBranch);
    expect(await summary('admin', { dimension: 'product' })).toEqual(byProduct);
  });

  it('exports the table the page shows, with its totals row', async () => {
    const report = await summary('admin', { dimension: 'branch' });
    const res = await f.as('admin').post('/api/admin/reports/export', query({ dimension: 'branch' }));
    expect(res.headers['content-type']).toContain('spreadsheetml');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0] as ExcelJS.Worksheet;
    const rows = sheet.getSheetValues().slice(2) as unknown[][];
    expect(rows).toHaveLength(report.rows.length + 1);
    const totals = rows.at(-1) as unknown[];
    expect(totals.slice(1)).toEqual([
      'Total',
      report.totals.orders,
      Number(report.totals.revenue),
      Number(report.totals.cost),
      Number(report.totals.margin),
    ]);
    // The direct customer has no branch: its row is named for that.
    expect(rows.map((r) => r[1])).toContain('Direct (platform)');
  });

  it('shows a branch and an agent their subtree at their own buying price, never the operator cost', async () => {
    const customerOrg = await f.orgOf('customer');
    const directOrg = await f.orgOf('direct');
    const branch = await summary('branch', { dimension: 'customer' });
    expect(branch.costBasis).toBe('branch');
    expect(branch.rows.map((r: { id: number }) => r.id)).toEqual([customerOrg]);
    expect(branch.rows).not.toContainEqual(expect.objectContaining({ id: directOrg }));
    expect(cents(branch.totals.cost)).toBe(await orderCosts('branch', [customerOrg]));
    expect(cents(branch.totals.cost)).not.toBe(await orderCosts('cost', [customerOrg]));
    const agent = await summary('agent', { dimension: 'customer' });
    expect(agent.costBasis).toBe('agent');
    expect(cents(agent.totals.cost)).toBe(await orderCosts('agent', [customerOrg]));
    expect(agent.totals.revenue).toBe(branch.totals.revenue);
    // The export follows the same scope.
    const res = await f.as('branch').post('/api/admin/reports/export', query());
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const last = (workbook.worksheets[0] as ExcelJS.Worksheet).getSheetValues().at(-1) as unknown[];
    expect(last[4]).toBe(Number(branch.totals.cost));
  });

  it('refuses plain customers and shows another tenant nothing', async () => {
    const refused = await f.as('customer').fail('/api/admin/reports/summary', query(), 401);
    expect(refused.msg).toBeTruthy();
    await f.as('direct').fail('/api/admin/reports/export', query(), 401);
    const other = await summary('admin', {}, f.tenant(1));
    expect(other).toMatchObject({ rows: [], series: [], totals: { orders: 0, revenue: '0.00' } });
  });

  it('refuses a range that ends before it starts', async () => {
    const res = await f.as('admin').fail('/api/admin/reports/summary', { from: today, to: isoDay(-2) }, 400);
    expect(res.data.fields[0].field).toBe('to');
  });

  it('counts every one of many payments made at once, and a double payment once', async () => {
    const before = await summary('admin', { line: 'truck' });
    const [{ productId }] = (await f.db
      .select({ productId: truckOrders.productId })
      .from(truckOrders)
      .where(eq(truckOrders.tenantId, f.t.tenant.id))
      .limit(1)) as [{ productId: number }];
    const booked: { id: number }[] = [];
    for (let i = 0; i < 8; i++) {
      const { id: quoteId } = await f.truck.ok('/api/admin/quotation/save', partsShipment(), 'customer');
      await f.truck.post('/api/admin/quotation/rates', { id: quoteId }, 'customer');
      booked.push(await f.truck.ok('/api/admin/order/save', { quoteId, productId, pay: false }, 'customer'));
    }
    expect(booked).toHaveLength(8);
    const answers = await Promise.all(
      [...booked, ...booked.slice(0, 2)].map((o) =>
        f.truck.post('/api/admin/order/pay', { id: o.id }, 'customer'),
      ),
    );
    expect(answers.every((a) => a.json().code === 200)).toBe(true);
    const after = await summary('admin', { line: 'truck' });
    expect(after.totals.orders - before.totals.orders).toBe(8);
    expect(cents(after.totals.revenue)).toBe(await ledgerRevenue('truck'));
    expect(cents(after.totals.cost)).toBe((await orderCosts('cost')) - (await expressCosts()));
  });
});

async function expressCosts() {
  const waybills = await f.db
    .select()
    .from(expressWaybills)
    .where(and(eq(expressWaybills.tenantId, f.t.tenant.id), sql`${expressWaybills.paid} > 0`));
  return waybills.reduce((s, w) => s + w.cost, 0n);
}
