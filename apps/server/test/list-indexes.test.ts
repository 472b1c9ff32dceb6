import { randomBytes } from 'node:crypto';
import { and, eq, type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../src/lib/bulk-insert.ts';
import { numbersStartWith } from '../src/lib/filters.ts';
import { orderNumberSearch } from '../src/modules/truck-orders/list.ts';
import { truckOrders } from '../src/modules/truck-orders/schema.ts';
import { useTestApp } from './fixture.ts';

/**
 * The big lists page newest first by `created_at desc, id desc`. Rows written in one transaction (a
 * batch file of 10,000 orders) share one `created_at`; an index without `id` then makes the database
 * read and sort the whole group for every first page (50 ms over such a file on 1,000,000 orders). Each
 * list's index must give its order by itself: with sorting priced out, its plan has no sort.
 */
const f = useTestApp();

/** A role that is no superuser, as the portal connects: the tenant policies bind it. */
const portalRole = `fp_plan_${process.pid}_${randomBytes(3).toString('hex')}`;

beforeAll(async () => {
  await f.db.execute(sql.raw(`create role ${portalRole}`));
  await f.db.execute(sql.raw(`grant usage on schema public to ${portalRole}`));
  await f.db.execute(sql.raw(`grant select on all tables in schema public to ${portalRole}`));
});

afterAll(async () => {
  await f.db.execute(sql.raw(`drop owned by ${portalRole}`));
  await f.db.execute(sql.raw(`drop role ${portalRole}`));
});

/** The plan's nodes, as a superuser or, with `asPortal`, as the portal's role in the test's tenant. */
async function plan(query: SQL, asPortal = false): Promise<PlanNode[]> {
  return f.db.transaction(async (tx) => {
    if (asPortal) {
      await tx.execute(sql.raw(`set local role ${portalRole}`));
      await tx.execute(sql`select set_config('app.tenant_id', ${String(f.t.tenant.id)}, true)`);
    }
    await tx.execute(sql`set local enable_seqscan = off`);
    await tx.execute(sql`set local enable_sort = off`);
    await tx.execute(sql`set local enable_incremental_sort = off`);
    const [row] = rowsOf<{ 'QUERY PLAN': unknown }>(await tx.execute(sql`explain (format json) ${query}`));
    const raw = row?.['QUERY PLAN'];
    const explained = (typeof raw === 'string' ? JSON.parse(raw) : raw) as { Plan: PlanNode }[];
    const nodes: PlanNode[] = [];
    const walk = (node: PlanNode) => {
      nodes.push(node);
      for (const child of node.Plans ?? []) walk(child);
    };
    walk((explained[0] as { Plan: PlanNode }).Plan);
    return nodes;
  });
}
const planNodes = async (query: SQL) => (await plan(query)).map((n) => n['Node Type']);
interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  'Index Cond'?: string;
  Plans?: PlanNode[];
}

describe('list indexes', () => {
  const newest = 'created_at desc, id desc';
  const byId = 'id desc';
  // [list, table, its filter beyond the tenant, its order]
  const lists: [string, string, string, string][] = [
    ['orders, all', 'truck_orders', '', newest],
    ['orders, one status', 'truck_orders', "status = 'unpaid'", newest],
    ['orders, one organisation', 'truck_orders', 'organisation_id = 1', newest],
    [
      'orders, one organisation and status',
      'truck_orders',
      "organisation_id = 1 and status = 'unpaid'",
      newest,
    ],
    ['operation log', 'operation_logs', '', newest],
    ['download centre', 'export_files', 'user_id = 1', newest],
    // Lists paged newest first by id, under the filter each is read by most.
    ['ledger, one account', 'ledger_entries', 'account_id = 1', byId],
    ['recharges, one organisation', 'recharges', 'organisation_id = 1', byId],
    ['recharges waiting for review', 'recharges', "line = 'truck' and status = 'pending'", byId],
    ['invoices, one organisation', 'invoices', 'organisation_id = 1', byId],
    ['bounce bills, one organisation', 'bounce_bills', 'organisation_id = 1', byId],
    ['work orders, one organisation', 'work_orders', 'organisation_id = 1', byId],
    ['work orders, one status', 'work_orders', "status = 'pending'", byId],
    ['waybills, one organisation', 'express_waybills', 'organisation_id = 1', byId],
  ];
  it.each(lists)('%s: the index gives the list order, with no sort', async (_name, table, filter, order) => {
    const nodes = await planNodes(
      sql`select id from ${sql.identifier(table)} where tenant_id = ${f.t.tenant.id}
        ${sql.raw(filter ? `and ${filter}` : '')} order by ${sql.raw(order)} limit 20`,
    );
    expect(nodes.filter((n) => n.includes('Sort'))).toEqual([]);
    expect(nodes.some((n) => n.includes('Index'))).toBe(true);
  });
});

/**
 * A number is searched by its start. Row-level security checks the tenant policy before any condition
 * whose function is not leakproof: written with `like` or `upper`, the search reads the tenant's
 * orders whole as the portal's role (4 s at two million), though a superuser's plan takes the index.
 * The plans here are the portal role's.
 */
describe('number searches under row-level security', () => {
  // Enough orders that an index is worth reading, with statistics the planner knows.
  beforeAll(async () => {
    await f.db.execute(sql`
      insert into truck_orders (tenant_id, order_no, query_code, organisation_id, user_id, carrier, mode, status,
        shipment, quote, levels, origin, destination, transit_days_min, transit_days_max, pickup_code,
        delivery_code, customer_order_no)
      select ${f.t.tenant.id}, 'TB' || lpad(g::text, 8, '0'), 'Q' || lpad(g::text, 8, '0'), 1, 1, 'C', 'LTL', 'unpaid',
        '{}'::jsonb, '{}'::jsonb, '[]'::jsonb, 'A', 'B', 1, 2, '000000', '000000', 'po-' || g
      from generate_series(1, 5000) as g`);
    await f.db.execute(sql`analyze truck_orders`);
  });

  const indexConditions = async (condition: SQL | undefined) => {
    const nodes = await plan(
      sql`select id from truck_orders where ${and(eq(truckOrders.tenantId, f.t.tenant.id), condition)}`,
      true,
    );
    return new Map(nodes.filter((n) => n['Index Name']).map((n) => [n['Index Name'], n['Index Cond'] ?? '']));
  };
  const prefixIndexes = [
    'truck_orders_no_prefix',
    'truck_orders_query_code_prefix',
    'truck_orders_customer_no_prefix',
  ];

  it("takes the three prefix indexes for the order list's search", async () => {
    const byIndex = await indexConditions(orderNumberSearch('tb0000012'));
    for (const index of prefixIndexes) {
      expect(byIndex.get(index), index).toContain('~>=~');
      expect(byIndex.get(index), index).toContain('~<~');
    }
  });

  it('where `like` alone would read none of them (why the search is written as ranges)', async () => {
    const pattern = 'TB0000012%';
    const byIndex = await indexConditions(
      sql`(order_no like ${pattern} or query_code like ${pattern} or customer_order_no_upper like ${pattern})`,
    );
    expect(prefixIndexes.filter((index) => byIndex.get(index)?.includes('~'))).toEqual([]);
  });

  it('finds the orders the list finds', async () => {
    const found = await f.db
      .select({ orderNo: truckOrders.orderNo })
      .from(truckOrders)
      .where(and(eq(truckOrders.tenantId, f.t.tenant.id), orderNumberSearch('po-1234')));
    expect(found.map((r) => r.orderNo)).toEqual(['TB00001234']);
  });

  it('finds exactly the numbers that start with what was typed, in capitals, wildcards as themselves', async () => {
    const found = (keyword: string, numbers: string[]) =>
      f.db.execute(
        sql`select n from jsonb_array_elements_text(${JSON.stringify(numbers)}::jsonb) as t(n) where ${numbersStartWith([sql.raw('n')], keyword)} order by n collate "C"`,
      );
    const numbers = ['TB100', 'TB1009', 'TB10_9', 'TB1%0', 'TB2', 'XTB10', 'TB', 'tb10'];
    expect(rowsOf<{ n: string }>(await found('tb10', numbers)).map((r) => r.n)).toEqual([
      'TB100',
      'TB1009',
      'TB10_9',
    ]);
    expect(rowsOf<{ n: string }>(await found('TB10_', numbers)).map((r) => r.n)).toEqual(['TB10_9']);
    expect(rowsOf<{ n: string }>(await found('tb1%', numbers)).map((r) => r.n)).toEqual(['TB1%0']);
  });
});
