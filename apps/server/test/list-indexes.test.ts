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
  const t = () => f.t.tenant.id;
  const newest = sql`order by created_at desc, id desc limit 20`;
  const byId = sql`order by id desc limit 20`;
  const lists: [string, () => ReturnType<typeof sql>][] = [
    ['orders, all', () => sql`select id from truck_orders where tenant_id = ${t()} ${newest}`],
    [
      'orders, one status',
      () => sql`select id from truck_orders where tenant_id = ${t()} and status = 'unpaid' ${newest}`,
    ],
    [
      'orders, one organisation',
      () => sql`select id from truck_orders where tenant_id = ${t()} and organisation_id = 1 ${newest}`,
    ],
    [
      'orders, one organisation and status',
      () =>
        sql`select id from truck_orders where tenant_id = ${t()} and organisation_id = 1 and status = 'unpaid' ${newest}`,
    ],
    ['operation log', () => sql`select id from operation_logs where tenant_id = ${t()} ${newest}`],
    [
      'download centre',
      () => sql`select id from export_files where tenant_id = ${t()} and user_id = 1 ${newest}`,
    ],
    // Lists paged newest first by id, under the filter each is read by most.
    [
      'ledger, one account',
      () => sql`select id from ledger_entries where tenant_id = ${t()} and account_id = 1 ${byId}`,
    ],
    [
      'recharges, one organisation',
      () => sql`select id from recharges where tenant_id = ${t()} and organisation_id = 1 ${byId}`,
    ],
    [
      'recharges waiting for review',
      () =>
        sql`select id from recharges where tenant_id = ${t()} and line = 'truck' and status = 'pending' ${byId}`,
    ],
    [
      'invoices, one organisation',
      () => sql`select id from invoices where tenant_id = ${t()} and organisation_id = 1 ${byId}`,
    ],
    [
      'bounce bills, one organisation',
      () => sql`select id from bounce_bills where tenant_id = ${t()} and organisation_id = 1 ${byId}`,
    ],
    [
      'work orders, one organisation',
      () => sql`select id from work_orders where tenant_id = ${t()} and organisation_id = 1 ${byId}`,
    ],
    [
      'work orders, one status',
      () => sql`select id from work_orders where tenant_id = ${t()} and status = 'pending' ${byId}`,
    ],
    [
      'waybills, one organisation',
      () => sql`select id from express_waybills where tenant_id = ${t()} and organisation_id = 1 ${byId}`,
    ],
  ];
  it.each(lists)('%s: the index gives the list order, with no sort', async (_name, query) => {
    const nodes = await planNodes(query());
    expect(nodes.filter((n) => n.includes('Sort'))).toEqual([]);
    expect(nodes.some((n) => n.includes('Index'))).toBe(true);
  });
});
