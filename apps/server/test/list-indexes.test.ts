import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { rowsOf } from '../src/lib/bulk-insert.ts';
import { useTestApp } from './fixture.ts';

/**
 * The big lists page newest first by `created_at desc, id desc`. Rows written in one transaction (a
 * batch file of 10,000 orders) share one `created_at`; an index without `id` then makes the database
 * read and sort the whole group for every first page (50 ms over such a file on 1,000,000 orders). Each
 * list's index must give its order by itself: with sorting priced out, its plan has no sort.
 */
const f = useTestApp();

async function planNodes(query: ReturnType<typeof sql>): Promise<string[]> {
  return f.db.transaction(async (tx) => {
    await tx.execute(sql`set local enable_seqscan = off`);
    await tx.execute(sql`set local enable_sort = off`);
    await tx.execute(sql`set local enable_incremental_sort = off`);
    const [row] = rowsOf<{ 'QUERY PLAN': unknown }>(await tx.execute(sql`explain (format json) ${query}`));
    const raw = row?.['QUERY PLAN'];
    const plan = (typeof raw === 'string' ? JSON.parse(raw) : raw) as { Plan: PlanNode }[];
    const types: string[] = [];
    const walk = (node: PlanNode) => {
      types.push(node['Node Type']);
      for (const child of node.Plans ?? []) walk(child);
    };
    walk((plan[0] as { Plan: PlanNode }).Plan);
    return types;
  });
}
interface PlanNode {
  'Node Type': string;
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
