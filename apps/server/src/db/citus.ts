import type pg from 'pg';

/**
 * On a Citus coordinator, the portal's tables spread by tenant: each table with a `tenant_id` is
 * distributed by it, all co-located with `accounts`, so one tenant's rows share a node and a
 * request's queries and transactions stay on it; the tables every tenant reads (tenants and their
 * hosts, the menu, the server's keys) are reference tables, copied to every node. Tables already
 * spread are left alone, so a start after a migration spreads only what the migration added. On plain
 * PostgreSQL (no `citus` extension) nothing happens.
 */

/** Read by every request whatever its tenant: a copy on every node. */
export const REFERENCE_TABLES = ['tenants', 'tenant_hosts', 'menu_items', 'server_keys'] as const;
/** Spread by tenant with this one, and every other with it. */
const COLOCATE_WITH = 'accounts';
/**
 * The tenant policy as Citus takes it. The migrations' policy reads the settings through sub-selects,
 * which PostgreSQL evaluates once per query rather than once per row; Citus refuses sub-queries in the
 * policies of a distributed table, so here they read the settings directly. The rule is the same: the
 * tenant the transaction names, or every row for system work, or none.
 */
const FLAT_POLICY =
  "tenant_id = nullif(current_setting('app.tenant_id', true), '')::bigint " +
  "OR coalesce(current_setting('app.system', true), '') = 'on'";
/**
 * The order counts' triggers as Citus runs them. On plain PostgreSQL a statement's inserted or deleted
 * orders are added up at once through a transition table (migration 0030); a shard's trigger on Citus
 * finds no transition table, so there each order moves its count as it is written. Same counts, one
 * upsert per order rather than per statement.
 */
const ROW_LEVEL_ORDER_COUNTS = [
  `create or replace function truck_order_counts_row() returns trigger language plpgsql as $$
   begin
     if TG_OP = 'INSERT' then
       insert into truck_order_counts as c (tenant_id, organisation_id, status, n)
         values (NEW.tenant_id, NEW.organisation_id, NEW.status, 1)
         on conflict (tenant_id, organisation_id, status) do update set n = c.n + 1;
     else
       insert into truck_order_counts as c (tenant_id, organisation_id, status, n)
         values (OLD.tenant_id, OLD.organisation_id, OLD.status, -1)
         on conflict (tenant_id, organisation_id, status) do update set n = c.n - 1;
     end if;
     return null;
   end $$`,
  'drop trigger if exists truck_order_counts_insert on truck_orders',
  `create trigger truck_order_counts_insert after insert on truck_orders
     for each row execute function truck_order_counts_row()`,
  'drop trigger if exists truck_order_counts_delete on truck_orders',
  `create trigger truck_order_counts_delete after delete on truck_orders
     for each row execute function truck_order_counts_row()`,
];

/** Two servers starting at once spread the tables once. */
const LOCK_KEY = 'freight-portal:citus-distribute';

export async function distributeOnCitus(
  pool: pg.Pool,
): Promise<{ citus: boolean; distributed: string[]; reference: string[] }> {
  const client = await pool.connect();
  const done = { citus: false, distributed: [] as string[], reference: [] as string[] };
  try {
    const citus = await client.query("select 1 from pg_extension where extname = 'citus'");
    if (citus.rowCount === 0) return done;
    done.citus = true;
    await client.query('select pg_advisory_lock(hashtext($1))', [LOCK_KEY]);
    try {
      // The cache triggers (pricing changes, order counts) run on each shard.
      await client.query('set citus.enable_unsafe_triggers = on');
      const tables = await client.query<{ name: string; tenant: boolean; spread: boolean }>(`
        select c.relname as name,
               exists (select 1 from pg_attribute a
                       where a.attrelid = c.oid and a.attname = 'tenant_id' and not a.attisdropped) as tenant,
               exists (select 1 from pg_dist_partition p where p.logicalrelid = c.oid) as spread
        from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and c.relkind in ('r', 'p')
        order by (c.relname = '${COLOCATE_WITH}') desc, c.relname`);
      for (const table of tables.rows) {
        if (table.spread) continue;
        const name = `public.${table.name}`;
        if (table.name === 'truck_orders')
          for (const statement of ROW_LEVEL_ORDER_COUNTS) await client.query(statement);
        const policy = await client.query(
          "select 1 from pg_policies where schemaname = 'public' and tablename = $1 and policyname = 'tenant_isolation'",
          [table.name],
        );
        if (policy.rowCount)
          await client.query(`alter policy tenant_isolation on ${name} using (${FLAT_POLICY})`);
        if ((REFERENCE_TABLES as readonly string[]).includes(table.name)) {
          await client.query('select create_reference_table($1)', [name]);
          done.reference.push(table.name);
        } else if (table.tenant) {
          const first = table.name === COLOCATE_WITH;
          await client.query(`select create_distributed_table($1, 'tenant_id', colocate_with => $2)`, [
            name,
            first ? 'default' : `public.${COLOCATE_WITH}`,
          ]);
          done.distributed.push(table.name);
        }
        // Any other table (the rate limiter's counters, keyed by address) stays on the coordinator.
      }
    } finally {
      await client.query('select pg_advisory_unlock(hashtext($1))', [LOCK_KEY]);
    }
    return done;
  } finally {
    client.release();
  }
}
