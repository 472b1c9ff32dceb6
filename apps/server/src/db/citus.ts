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
/** Two servers starting at once spread the tables once. */
const LOCK_KEY = 'freight-portal:citus-distribute';

export async function distributeOnCitus(
  pool: pg.Pool,
): Promise<{ distributed: string[]; reference: string[] }> {
  const client = await pool.connect();
  const done = { distributed: [] as string[], reference: [] as string[] };
  try {
    const citus = await client.query("select 1 from pg_extension where extname = 'citus'");
    if (citus.rowCount === 0) return done;
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
