/**
 * Data reports over 1,000,000 paid truck orders of one tenant (PostgreSQL only): the orders are
 * generated in SQL, the aggregates built by the reports' own rebuild, then the report is measured next
 * to a `select 1` round trip and to the naive scan of the orders that the aggregates replace.
 */
import { sql } from 'drizzle-orm';
import type { Database } from '../apps/server/src/db/client.ts';
import { createOrganisation } from '../apps/server/src/modules/customers/service.ts';
import { rebuildReports } from '../apps/server/src/modules/reports/rebuild.ts';
import { buildReport } from '../apps/server/src/modules/reports/service.ts';
import { createTenant } from '../apps/server/src/modules/site/service.ts';
import { perSecond } from './timing.ts';

const ORDERS = Number(process.env.BENCH_REPORT_ORDERS ?? 1_000_000);
/** Customers the orders spread over, under 5 branches of 4 agents each. */
const CUSTOMERS = 200;
const PRODUCTS = 20;
const DAYS = 365;

export async function benchReports(kind: string, database: Database): Promise<void> {
  if (kind !== 'postgres') return;
  const db = database.db;
  const tenant = await createTenant(db, { code: `bench-reports-${Date.now()}`, name: 'Bench reports' });
  const customers: number[] = [];
  for (let b = 0; b < 5; b++) {
    const branch = await createOrganisation(db, tenant.id, { type: 'branch', name: `Branch ${b}` });
    for (let a = 0; a < 4; a++) {
      const agent = await createOrganisation(db, tenant.id, {
        type: 'agent',
        name: `Agent ${b}.${a}`,
        parentId: branch.id,
      });
      for (let c = 0; c < CUSTOMERS / 20; c++)
        customers.push(
          (
            await createOrganisation(db, tenant.id, {
              type: 'customer',
              name: `Customer ${b}.${a}.${c}`,
              parentId: agent.id,
            })
          ).id,
        );
    }
  }

  const generated = performance.now();
  await db.execute(sql`
    insert into truck_orders (tenant_id, order_no, query_code, organisation_id, user_id, product_id, carrier, mode,
      status, shipment, quote, levels, total_cents, cost_price_cents, branch_price_cents, agent_price_cents,
      paid_cents, paid_at, origin, destination, transit_days_min, transit_days_max, pickup_code, delivery_code,
      created_at)
    select ${tenant.id}, 'R' || g, 'Q' || g, (${sql.raw(`array[${customers.join(',')}]::bigint[]`)})[1 + g % ${CUSTOMERS}],
      1, 1 + g % ${PRODUCTS}, 'Carrier', 'LTL', 'in_transit', '{}'::jsonb, '{}'::jsonb, '[]'::jsonb,
      20000 + g % 5000, 15000 + g % 3000, 16000 + g % 3000, 18000 + g % 3000, 20000 + g % 5000,
      timestamptz '2026-01-01 00:00:00+00' + ((g % ${DAYS}) || ' days')::interval + ((g % 86400) || ' seconds')::interval,
      'Los Angeles, CA 90001', 'Dallas, TX 75201', 2, 5, '000000', '000000',
      timestamptz '2026-01-01 00:00:00+00' + ((g % ${DAYS}) || ' days')::interval
    from generate_series(1, ${ORDERS}) as g`);
  await db.execute(sql`vacuum analyze truck_orders`);
  const generatedSeconds = (performance.now() - generated) / 1000;

  const rebuilt = performance.now();
  const rows = await rebuildReports(db, tenant.id);
  await db.execute(sql`vacuum analyze report_daily`);
  const rebuildSeconds = (performance.now() - rebuilt) / 1000;
  console.log(
    `${kind.padEnd(9)} reports: generated ${ORDERS} paid orders in ${generatedSeconds.toFixed(1)} s; rebuilt into ${rows} daily rows in ${rebuildSeconds.toFixed(1)} s`,
  );

  const staff = { tenantId: tenant.id, identity: 'employee' as const, organisationId: null };
  const year = {
    from: '2026-01-01',
    to: '2026-12-31',
    period: 'month' as const,
    dimension: 'branch' as const,
  };
  const check = await buildReport(db, staff, year, 'en-US');
  if (check.totals.orders !== ORDERS) throw new Error(`report counted ${check.totals.orders} orders`);

  const ping = await perSecond(() => db.execute(sql`select 1`));
  const monthly = await perSecond(() => buildReport(db, staff, year, 'en-US'));
  const daily = await perSecond(() =>
    buildReport(db, staff, { ...year, period: 'day', dimension: 'customer' }, 'en-US'),
  );
  // The naive way: the same totals summed from the orders themselves, every call.
  const scanStarted = performance.now();
  const scans = 3;
  for (let i = 0; i < scans; i++)
    await db.execute(sql`
      select date_trunc('month', paid_at at time zone 'UTC') as period, count(*), sum(total_cents), sum(cost_price_cents)
      from truck_orders where tenant_id = ${tenant.id} and paid_at >= '2026-01-01' and paid_at < '2027-01-01'
      group by 1 order by 1`);
  const scan = scans / ((performance.now() - scanStarted) / 1000);

  const ms = (rate: number) => `${(1000 / rate).toFixed(1)} ms`;
  const row = (name: string, value: number) =>
    console.log(
      `${kind.padEnd(9)} ${name.padEnd(44)} ${value.toFixed(1).padStart(10)} /s      ${(value / ping).toFixed(3)} × select 1`,
    );
  console.log(`${kind.padEnd(9)} data report over ${ORDERS} orders (a year, staff scope):`);
  row(`  select 1 (${ms(ping)})`, ping);
  row(`  report, months × branches (${ms(monthly)})`, monthly);
  row(`  report, days × customers (${ms(daily)})`, daily);
  row(`  naive scan of the orders (${ms(scan)})`, scan);
  console.log(
    `${kind.padEnd(9)}   the monthly report answers ${(monthly / scan).toFixed(0)}× faster than the scan`,
  );
}
