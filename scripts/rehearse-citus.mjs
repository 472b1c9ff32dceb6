#!/usr/bin/env node
// The rehearsal of Citus by tenant: on this machine, a Citus coordinator and two workers on loopback
// ports, two server processes on the coordinator (the first migrates, spreads every tenant's table by
// tenant_id and seeds), then customers quoting, booking, paying, opening lists and exporting through
// both processes. It checks that every table with a tenant is distributed and co-located and the global
// ones are reference tables, that shards sit on both workers; that the tenant's shards move to the
// other worker while its customers work, losing no call and changing nothing it held; that no call
// failed, that money is exact (each balance the sum of its ledger, each paid record paid once) and the
// order counts follow the orders; that row-level security still keeps one tenant's rows from another's
// transaction on the shards; that a worker stopped for a few seconds answers 503 for its tenant only and
// everything answers again without a restart; and that no server logged a failure. Prints its figures,
// removes everything it started and exits non-zero on any broken rule. Builds Citus from ../shared/citus
// when missing. Runs as root.
import { execFile, execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  asPostgres,
  call,
  expressRound,
  failed,
  freePort,
  loggedFailures,
  moneyInvariants,
  newTally,
  pgBin,
  printLogTails,
  psqlFlags,
  reporter,
  requests,
  run,
  signIn,
  sleep,
  startServer as startKitServer,
  truckRound,
  waitReady,
} from './rehearsal-kit.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const env = process.env;
const LOAD_SECONDS = Number(env.REHEARSE_SECONDS ?? 20);
const CLIENTS_PER_SERVER = Number(env.REHEARSE_CLIENTS ?? 2);
const KEEP = env.REHEARSE_KEEP === '1';
/** Truck orders made at the end over 100 tenants, a fifth of them the demo tenant's (the full size is 10,000,000). */
const ORDERS = Number(env.REHEARSE_ORDERS ?? 100_000);
/** A list call at that size answers within this at the 95th percentile. */
const LIST_P95_MS = 50;
const ROLE = { name: 'portal', password: 'portal-rehearsal' };
const DB = 'freight';
const CUSTOMERS = ['customer@example.com', 'direct@example.com'];
/** Read by every request whatever its tenant (apps/server/src/db/citus.ts). */
const REFERENCE = ['menu_items', 'server_keys', 'tenant_hosts', 'tenants'];

const { log, check, failures } = reporter('rehearse:citus');

// --------------------------------------------------------------------------------------------------
// Citus itself: built from the source kept beside the project when this PostgreSQL has none.

function ensureCitus() {
  if (process.getuid?.() !== 0) throw new Error('run as root: the nodes are started as the postgres user');
  if (!pgBin()) {
    run('apt-get', ['update', '-qq']);
    run('apt-get', ['install', '-y', '-qq', 'postgresql'], {
      env: { ...env, DEBIAN_FRONTEND: 'noninteractive' },
    });
  }
  const libdir = run(`${pgBin()}/pg_config`, ['--pkglibdir']).stdout.trim();
  if (existsSync(join(libdir, 'citus.so'))) return;
  const build = resolve(root, '..', 'shared', 'citus', 'build.sh');
  if (!existsSync(build)) throw new Error(`Citus is not installed and ${build} is missing`);
  log('building Citus (about two minutes)');
  run('bash', [build], { stdio: 'inherit' });
}

// --------------------------------------------------------------------------------------------------
// Everything started is stopped on the way out, whatever happens.

const state = { tmp: null, nodes: new Map(), nodeOptions: new Map(), servers: new Map() };
async function cleanup() {
  for (const child of state.servers.values())
    if (child.exitCode === null && child.signalCode === null)
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {}
  for (const dir of state.nodes.values())
    if (existsSync(join(dir, 'postmaster.pid')))
      asPostgres(`${pgBin()}/pg_ctl`, ['-D', dir, '-m', 'immediate', '-w', 'stop'], { allowFail: true });
  if (state.tmp && !KEEP) rmSync(state.tmp, { recursive: true, force: true });
  else if (state.tmp) log(`kept ${state.tmp}`);
}
for (const signal of ['SIGINT', 'SIGTERM'])
  process.on(signal, () => void cleanup().then(() => process.exit(130)));

/** A Citus node: its own cluster with the extension loaded, the portal's role and database. */
function startNode(name, port) {
  const dir = join(state.tmp, name);
  asPostgres(
    `${pgBin()}/initdb`,
    ['-D', dir, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--no-instructions', '--no-sync'],
    { stdio: 'ignore' },
  );
  state.nodes.set(name, dir);
  const opts = [
    `-p ${port} -h 127.0.0.1 -k ${state.tmp}`,
    '-c shared_preload_libraries=citus',
    '-c max_connections=300',
    // Statements slower than this go to the node's log (REHEARSE_LOG_SLOW_MS; none by default).
    `-c log_min_duration_statement=${Number(env.REHEARSE_LOG_SLOW_MS ?? -1)}`,
    // The cache triggers of the pricing tables and the order counts run on the shards.
    '-c citus.enable_unsafe_triggers=on',
    // A rehearsal's data need not survive a power cut.
    '-c fsync=off -c synchronous_commit=off',
  ].join(' ');
  state.nodeOptions.set(name, opts);
  asPostgres(`${pgBin()}/pg_ctl`, [
    '-D',
    dir,
    '-l',
    join(state.tmp, `${name}.log`),
    '-o',
    opts,
    '-w',
    'start',
  ]);
  psql(port, `create role ${ROLE.name} login nosuperuser password '${ROLE.password}'`, 'postgres');
  psql(port, `create database ${DB} owner ${ROLE.name}`, 'postgres');
  psql(port, 'create extension citus');
}

/**
 * One value (or rows of `|`-separated values) from psql, as the superuser or as another role: a
 * statement, or a script sent one statement after another (a SET LOCAL reaches the workers so).
 */
function psql(port, sql, db = DB, user = 'postgres', { script = false } = {}) {
  const what = script ? ['-f', '-'] : ['-c', sql];
  return run(`${pgBin()}/psql`, [...psqlFlags(port), '-U', user, '-d', db, ...what], {
    ...(script ? { input: sql } : {}),
    env: { ...env, PGPASSWORD: ROLE.password },
  }).stdout.trim();
}

/** As `psql`, without blocking the customers' calls running in this process meanwhile. */
function psqlAsync(port, sql) {
  return new Promise((resolve, reject) =>
    execFile(
      `${pgBin()}/psql`,
      [...psqlFlags(port), '-U', 'postgres', '-d', DB, '-c', sql],
      (error, stdout, stderr) =>
        error ? reject(new Error(`${sql}: ${stderr || error.message}`)) : resolve(stdout.trim()),
    ),
  );
}

const startServer = (name, port, serverEnv) =>
  startKitServer({ root, dir: state.tmp, servers: state.servers, name, port, env: serverEnv });

/** The lists and exports a customer opens between bookings: first pages, a status tab, a search. */
async function listRound(base, token) {
  const first = await call(base, '/api/admin/order/list', { page: 1, limit: 20 }, token);
  const orderNo = first.data?.list?.[0]?.orderNo;
  await call(base, '/api/admin/order/list', { page: 1, limit: 20, status: 'to_be_picked_up' }, token);
  if (orderNo) await call(base, '/api/admin/order/list', { page: 1, limit: 20, keyword: orderNo }, token);
  await call(base, '/api/express/order/list', { page: 1, limit: 20 }, token);
  await call(base, '/api/admin/account/details', { page: 1, limit: 20, line: 'truck' }, token);
  await call(base, '/api/admin/recharge/list', { page: 1, limit: 20 }, token);
  await call(base, '/api/admin/workOrder/list', { page: 1, limit: 20 }, token);
  await call(base, '/api/admin/order/export', { page: 1, limit: 20 }, token);
}

/**
 * A digest of the tenant's rows that no call changes once written: its organisations, users and the
 * ledger rows up to the last one written before the move (a ledger row is never changed).
 */
async function tenantDigest(port, tenant, lastLedgerId) {
  const last =
    lastLedgerId ??
    (await psqlAsync(port, `select coalesce(max(id), 0) from ledger_entries where tenant_id = ${tenant}`));
  const digest = await psqlAsync(
    port,
    `select count(*) || ':' || md5(string_agg(r, '|' order by r)) from (
       select 'o' || o::text as r from organisations o where tenant_id = ${tenant}
       union all select 'u' || u.id || u.email || u.password_hash from users u where tenant_id = ${tenant}
       union all select 'l' || l::text from ledger_entries l where tenant_id = ${tenant} and id <= ${last}) x`,
  );
  return { lastLedgerId: last, digest, rows: digest.split(':')[0] };
}

/** A tenant of its own host made by the platform's administrator; created again if it shares a shard. */
async function secondTenant(base, adminToken, tenant, shardOf) {
  for (let n = 2; n < 12; n++) {
    const host = `t${n}.rehearsal.test`;
    const adminEmail = `owner@t${n}.rehearsal.test`;
    const created = await call(
      base,
      '/api/admin/tenants/create',
      { code: `t${n}`, name: `承运商${n}`, nameEn: `Carrier ${n}`, hosts: [host], adminEmail },
      adminToken,
    );
    if (created.code !== 200) throw new Error(`creating tenant t${n}: ${JSON.stringify(created)}`);
    if (shardOf(created.data.id) !== shardOf(tenant)) return { id: created.data.id, host, adminEmail };
  }
  throw new Error("every tenant made shares the demo tenant's shard");
}

/**
 * Moves a shard group between workers. PostgreSQL 15 refuses to replicate logically into a table with
 * row-level security, so Citus cannot follow the tenant's writes during the copy: it blocks them
 * instead (`block_writes`), and they wait until the switch, to go on at the new place. Reads go on.
 */
const moveShard = (shard, from, to) =>
  `set statement_timeout = '300s'; select citus_move_shard_placement(${shard}, '127.0.0.1', ${from}, '127.0.0.1', ${to}, shard_transfer_mode => 'block_writes')`;

function startWorkerAgain(name) {
  const dir = state.nodes.get(name);
  const log = join(state.tmp, `${name}.log`);
  asPostgres(`${pgBin()}/pg_ctl`, ['-D', dir, '-l', log, '-o', state.nodeOptions.get(name), '-w', 'start']);
}

/**
 * The orders of many tenants: `ORDERS` truck orders over 100 tenants, a fifth of them the demo
 * tenant's, copied from one of its orders with their own numbers, statuses and times (the count
 * triggers off while they are written, the counts then added up at once). Then every list of the
 * portal, through the servers, as the demo tenant's staff and customer: the first page, a status tab, a
 * page deep in a status and a number search, each within LIST_P95_MS at the 95th percentile; and a
 * query of one tenant reaches one shard on one node, whichever table it reads.
 */
async function atScale(coordinator, bases, customerToken, adminToken, tenant, tenantTables, figures) {
  const columns = psql(
    coordinator,
    `select string_agg(column_name, ',' order by ordinal_position) from information_schema.columns
     where table_schema = 'public' and table_name = 'truck_orders' and column_name <> 'id'
       and is_generated = 'NEVER'`,
  ).split(',');
  const made = {
    tenant_id: `case when g % 5 = 0 then o.tenant_id else 100000 + g % 99 end`,
    order_no: `'TG' || lpad(g::text, 10, '0')`,
    query_code: `'G' || lpad(g::text, 10, '0')`,
    status: `(array['pending_review','to_be_picked_up','picked_up','in_transit','delivered','cancelled'])[1 + g % 6]`,
    created_at: `now() - g * interval '3 second'`,
    updated_at: `now() - g * interval '3 second'`,
  };
  const select = columns.map((c) => made[c] ?? `o.${c}`).join(', ');
  const started = Date.now();
  psql(coordinator, 'alter table truck_orders disable trigger user');
  const BATCH = 500_000;
  for (let from = 1; from <= ORDERS; from += BATCH) {
    const to = Math.min(ORDERS, from + BATCH - 1);
    psql(
      coordinator,
      `insert into truck_orders (${columns.join(',')})
       select ${select} from (select * from truck_orders where tenant_id = ${tenant} order by id limit 1) o,
            generate_series(${from}, ${to}) g`,
    );
    log(`${to.toLocaleString('en-US')} of ${ORDERS.toLocaleString('en-US')} orders written`);
  }
  psql(coordinator, 'alter table truck_orders enable trigger user');
  psql(
    coordinator,
    `insert into truck_order_counts as c (tenant_id, organisation_id, status, n)
     select tenant_id, organisation_id, status, count(*) from truck_orders where order_no like 'TG%' group by 1, 2, 3
     on conflict (tenant_id, organisation_id, status) do update set n = c.n + excluded.n`,
  );
  // As after any bulk load: the visibility map lets a deep page be found in the index alone, and the
  // statistics let a number search take its prefix indexes (autovacuum does both in time).
  psql(coordinator, 'vacuum analyze truck_orders');
  figures.ordersMade = ORDERS;
  figures.ordersMadeSeconds = (Date.now() - started) / 1000;
  figures.demoTenantOrders = Number(
    psql(coordinator, `select count(*) from truck_orders where tenant_id = ${tenant}`),
  );
  figures.ordersByNode = psql(
    coordinator,
    `select string_agg(nodeport || ':' || n, ' ' order by nodeport) from (
       select s.nodeport, sum(r.result::bigint) as n
       from run_command_on_shards('truck_orders', 'select count(*) from %s') r join citus_shards s using (shardid)
       group by 1) x`,
  );
  check(figures.ordersByNode.split(' ').length === 2, 'the orders lie on both workers', figures.ordersByNode);

  // Every list, timed through the servers.
  const number = `TG${String(5 * Math.max(1, Math.floor(ORDERS / 10))).padStart(10, '0')}`;
  const deep = Math.max(2, Math.floor(Math.min(figures.demoTenantOrders / 6, 10_000) / 20));
  const lists = [
    ['orders, first page', '/api/admin/order/list', { page: 1, limit: 20 }],
    ['orders, a status tab', '/api/admin/order/list', { page: 1, limit: 20, status: 'in_transit' }],
    [
      `orders, page ${deep} of a status`,
      '/api/admin/order/list',
      { page: deep, limit: 20, status: 'in_transit' },
    ],
    ['orders, a number searched', '/api/admin/order/list', { page: 1, limit: 20, keyword: number }],
    ['waybills', '/api/express/order/list', { page: 1, limit: 20 }],
    ['ledger', '/api/admin/account/details', { page: 1, limit: 20, line: 'truck' }],
    ['recharges', '/api/admin/recharge/list', { page: 1, limit: 20 }],
    ['work orders', '/api/admin/workOrder/list', { page: 1, limit: 20 }],
    ['bounce bills', '/api/admin/bounceBill/list', { page: 1, limit: 20 }],
    ['customers', '/api/admin/customer/list', { page: 1, limit: 20, kind: 'allCustomer' }],
  ];
  const p95 = {};
  for (const [who, token] of [
    ['staff', adminToken],
    ['customer', customerToken],
  ])
    for (const [name, path, body] of lists) {
      if (who === 'customer' && name === 'customers') continue;
      const times = [];
      let answered = null;
      for (let i = 0; i < 21; i++) {
        const base = bases[i % bases.length];
        answered = await call(base, path, body, token);
        const rec = requests.at(-1);
        if (i > 0) times.push(rec.end - rec.start);
      }
      times.sort((a, b) => a - b);
      const ms = times[Math.ceil(times.length * 0.95) - 1];
      p95[`${who}: ${name}`] = ms;
      check(
        answered.code === 200 && ms < LIST_P95_MS,
        `${who}: ${name} answers within ${LIST_P95_MS} ms at p95`,
        `${ms} ms, code ${answered.code}, ${answered.data?.total ?? '?'} rows`,
      );
    }
  figures.listP95Ms = p95;
  const found = await call(
    bases[0],
    '/api/admin/order/list',
    { page: 1, limit: 20, keyword: number },
    adminToken,
  );
  check(found.data?.list?.[0]?.orderNo === number, 'the number searched is found', number);

  // One tenant's query goes to one shard on one node.
  const wide = tenantTables.filter(
    (table) =>
      !/Task Count: 1\b/.test(
        psql(coordinator, `explain select count(*) from ${table} where tenant_id = ${tenant}`),
      ),
  );
  check(wide.length === 0, 'a query of one tenant reaches one shard, in every table', wide.join(', '));
}

async function main() {
  ensureCitus();
  state.tmp = mkdtempSync(join(tmpdir(), 'rehearse-citus-'));
  chmodSync(state.tmp, 0o755);
  const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
  const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
  chownSync(state.tmp, uid, gid);
  const ports = new Set();
  while (ports.size < 5) ports.add(await freePort());
  const [coordinator, worker1, worker2, s1Port, s2Port] = [...ports];
  const figures = {};

  for (const [name, port] of [
    ['coordinator', coordinator],
    ['worker1', worker1],
    ['worker2', worker2],
  ]) {
    log(`${name} on ${port}`);
    startNode(name, port);
  }
  psql(coordinator, `select citus_set_coordinator_host('127.0.0.1', ${coordinator})`);
  for (const port of [worker1, worker2]) psql(coordinator, `select citus_add_node('127.0.0.1', ${port})`);
  check(
    psql(coordinator, 'select count(*) from citus_get_active_worker_nodes()') === '2',
    'the coordinator has two active workers',
  );

  const serverEnv = (name) => ({
    HOST: '127.0.0.1',
    DATABASE_URL: `postgres://${ROLE.name}:${ROLE.password}@127.0.0.1:${coordinator}/${DB}?application_name=portal-${name}`,
    DATA_DIR: join(state.tmp, 'data'),
    RATE_LIMIT_SCALE: '1000',
    LOG_LEVEL: 'warn',
    NODE_ENV: 'development',
    SEED_DEMO: name === 's1' ? 'true' : 'false',
    DATABASE_DISTRIBUTE: 'true',
  });
  execFileSync(process.execPath, ['scripts/ensure-server-build.mjs'], { cwd: root, stdio: 'inherit' });
  log(`server s1 on ${s1Port} (migrates, spreads the tables by tenant, seeds)`);
  let started = Date.now();
  await waitReady(`http://127.0.0.1:${s1Port}`, 300, startServer('s1', s1Port, serverEnv('s1')));
  figures.firstStartSeconds = (Date.now() - started) / 1000;
  log(`server s2 on ${s2Port}`);
  started = Date.now();
  await waitReady(`http://127.0.0.1:${s2Port}`, 180, startServer('s2', s2Port, serverEnv('s2')));
  figures.secondStartSeconds = (Date.now() - started) / 1000;

  // The tables as Citus has them.
  const tenantTables = psql(
    coordinator,
    `select c.relname from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = 'public' and c.relkind = 'r'
       and exists (select 1 from pg_attribute a where a.attrelid = c.oid and a.attname = 'tenant_id')
       and c.relname <> all (array['${REFERENCE.join("','")}'])
     order by 1`,
  ).split('\n');
  const spread = new Map(
    psql(coordinator, 'select table_name::text, citus_table_type, colocation_id from citus_tables')
      .split('\n')
      .map((line) => line.split('|'))
      .map(([table, type, colocation]) => [table, { type, colocation }]),
  );
  const undistributed = tenantTables.filter((t) => spread.get(t)?.type !== 'distributed');
  check(
    undistributed.length === 0,
    'every table with a tenant is distributed by it',
    undistributed.join(', '),
  );
  const colocations = new Set(tenantTables.map((t) => spread.get(t)?.colocation));
  check(colocations.size === 1, 'all of them co-located', `${colocations.size} co-location groups`);
  const notReference = REFERENCE.filter((t) => spread.get(t)?.type !== 'reference');
  check(notReference.length === 0, 'the global tables are reference tables', notReference.join(', '));
  const shardNodes = psql(
    coordinator,
    "select count(distinct nodeport) from citus_shards where citus_table_type = 'distributed'",
  );
  check(shardNodes === '2', 'the shards sit on both workers', `${shardNodes} nodes hold shards`);
  figures.distributedTables = tenantTables.length;

  // Customers on both processes, quoting, booking and paying.
  const bases = [`http://127.0.0.1:${s1Port}`, `http://127.0.0.1:${s2Port}`];
  // One sign-in per customer (a code is sent at most once a minute); the session works on both.
  const tokens = [];
  for (const email of CUSTOMERS) {
    const token = await signIn(bases[0], email);
    for (const base of bases) tokens.push({ base, token });
  }
  // The tenant the customers work in, and where its shard group lies.
  const tenant = Number(
    psql(coordinator, "select tenant_id from users where email = 'customer@example.com'"),
  );
  const shardOf = (id) => psql(coordinator, `select get_shard_id_for_distribution_column('accounts', ${id})`);
  const nodeOf = (shard) =>
    Number(psql(coordinator, `select nodeport from citus_shards where shardid = ${shard}`));
  // A second tenant, whose shards the stopped worker must not take down with the first's.
  const admin = await signIn(bases[0], 'admin@example.com');
  const second = await secondTenant(bases[0], admin, tenant, shardOf);
  figures.secondTenant = second.id;

  // What the customers' tenant held before the move.
  const shard = shardOf(tenant);
  const from = nodeOf(shard);
  const to = from === worker1 ? worker2 : worker1;

  const tallies = [];
  const until = Date.now() + LOAD_SECONDS * 1000;
  const load = Promise.all(
    tokens.flatMap(({ base, token }) =>
      Array.from({ length: CLIENTS_PER_SERVER }, async (_, i) => {
        const tally = newTally();
        tallies.push(tally);
        for (let round = i; Date.now() < until; round++) {
          if (round % 3 === 0) await truckRound(base, token, tally);
          else if (round % 3 === 1) await expressRound(base, token, tally);
          else await listRound(base, token);
          await sleep(20);
        }
      }),
    ),
  );

  // A third of the way in, the tenant's shards move to the other worker while its customers work.
  await sleep((LOAD_SECONDS * 1000) / 3);
  const heldBefore = await tenantDigest(coordinator, tenant);
  const moveStarted = Date.now();
  await psqlAsync(coordinator, moveShard(shard, from, to));
  figures.shardMoveSeconds = (Date.now() - moveStarted) / 1000;
  await load;
  check(nodeOf(shard) === to, "the tenant's shards moved to the other worker", `${from} → ${nodeOf(shard)}`);
  const heldAfter = await tenantDigest(coordinator, tenant, heldBefore.lastLedgerId);
  check(
    heldAfter.digest === heldBefore.digest,
    'what the tenant held before the move reads back the same after it',
    `${heldBefore.rows} rows`,
  );
  const bad = requests.filter(failed);
  figures.requests = requests.length;
  figures.truckPaid = tallies.reduce((n, t) => n + t.truckPaid.length, 0);
  figures.expressPaid = tallies.reduce((n, t) => n + t.expressPaid.length, 0);
  check(
    bad.length === 0,
    'no call failed',
    bad
      .slice(0, 5)
      .map((r) => `${r.path} ${r.status} ${r.code} ${r.msg ?? r.error ?? ''}`)
      .join('; '),
  );
  check(figures.truckPaid > 0 && figures.expressPaid > 0, 'truck orders and waybills were paid');
  const paidInDb = Number(
    psql(
      coordinator,
      "select count(*) from truck_orders where paid_at is not null and customer_order_no = ''",
    ),
  );
  check(paidInDb >= figures.truckPaid, 'every truck order paid is paid in the database', `${paidInDb}`);
  for (const [what, n] of moneyInvariants((sql) => psql(coordinator, sql))) check(n === 0, what, `${n} rows`);
  // The counts the order lists' tabs read follow the orders on the shards (their triggers run there).
  const miscounted = psql(
    coordinator,
    `select count(*) from (select tenant_id, organisation_id, status, count(*) as n from truck_orders group by 1, 2, 3) o
     full join truck_order_counts c using (tenant_id, organisation_id, status)
     where coalesce(o.n, 0) <> coalesce(c.n, 0)`,
  );
  check(miscounted === '0', 'the order counts match the orders', `${miscounted} counts differ`);

  // Row-level security on the shards: a transaction of one tenant sees its own orders and no row of
  // another's, with the scope carried to the workers as the portal carries it (db/tenant-scope.ts).
  const seen = (asTenant) =>
    psql(
      coordinator,
      [
        'set citus.propagate_set_commands = local;',
        'begin;',
        `set local app.tenant_id = '${asTenant}';`,
        `select count(*) from truck_orders where tenant_id = ${Number(tenant)};`,
        'commit;',
      ].join('\n'),
      DB,
      ROLE.name,
      { script: true },
    );
  const own = Number(seen(Number(tenant)));
  check(own > 0, "a tenant's transaction sees its own orders on the shards", `${own} orders`);
  const stranger = seen(Number(tenant) + 1000);
  check(stranger === '0', "another tenant's transaction sees none of them", stranger);
  // The worker holding the customers' tenant stops for a few seconds: its calls answer 503 in the
  // envelope, the second tenant (on the other worker) keeps answering, and everything is back once the
  // worker is, with no server restarted.
  if (nodeOf(shardOf(second.id)) === to) psql(coordinator, moveShard(shardOf(second.id), to, from));
  check(nodeOf(shardOf(second.id)) === from, 'the second tenant sits on the other worker');
  const stopped = to === worker1 ? 'worker1' : 'worker2';
  const customer = tokens[0];
  asPostgres(`${pgBin()}/pg_ctl`, ['-D', state.nodes.get(stopped), '-m', 'immediate', '-w', 'stop']);
  const stoppedAt = Date.now();
  const during = await call(customer.base, '/api/admin/order/list', { page: 1, limit: 20 }, customer.token);
  const duringRecord = requests.at(-1);
  const other = await call(
    bases[1],
    '/api/admin/auth/getVerificationCode',
    { email: second.adminEmail },
    undefined,
    { host: second.host },
  );
  check(
    duringRecord.status === 503 && during.code === 503 && typeof during.msg === 'string',
    "the stopped worker's tenant gets a 503 in the envelope",
    `HTTP ${duringRecord.status}, code ${during.code}: ${during.msg}`,
  );
  check(other.code === 200, 'the second tenant, on the running worker, still answers', `code ${other.code}`);
  await sleep(Math.max(0, 5000 - (Date.now() - stoppedAt)));
  startWorkerAgain(stopped);
  const back = Date.now();
  let answered = null;
  while (Date.now() - back < 60_000) {
    answered = await call(customer.base, '/api/admin/order/list', { page: 1, limit: 20 }, customer.token);
    if (answered.code === 200) break;
    await sleep(250);
  }
  figures.backAfterSeconds = (Date.now() - back) / 1000;
  check(answered?.code === 200, 'the tenant answers again once its worker is back, no server restarted');
  const onBoth = await Promise.all(
    bases.map((base) => call(base, '/api/express/order/list', { page: 1, limit: 20 }, customer.token)),
  );
  check(
    onBoth.every((r) => r.code === 200),
    'both servers answer the tenant again',
    onBoth.map((r) => r.code).join('/'),
  );
  for (const [what, n] of moneyInvariants((sql) => psql(coordinator, sql)))
    check(n === 0, `after the move and the stop: ${what}`, `${n} rows`);

  if (ORDERS > 0) await atScale(coordinator, bases, tokens[0].token, admin, tenant, tenantTables, figures);

  // Background work (housekeeping sweeps, jobs) ran on the shards too, and nothing failed there.
  const logged = loggedFailures(state.tmp, ['s1', 's2']);
  check(logged.length === 0, 'no server logged a failure', logged.slice(0, 3).join('; '));
  return figures;
}

let figures = null;
try {
  figures = await main();
} catch (error) {
  failures.push(`aborted: ${error?.stack ?? error}`);
  log(`ABORTED: ${error?.stack ?? error}`);
  if (state.tmp) printLogTails(state.tmp, ['s1', 's2', 'coordinator', 'worker1', 'worker2']);
} finally {
  await cleanup();
}
if (figures) console.log(`Figures: ${JSON.stringify(figures)}`);
if (failures.length > 0) {
  console.log(`Citus rehearsal FAILED (${failures.length}):\n${failures.map((f) => `  - ${f}`).join('\n')}`);
  process.exit(1);
}
console.log('Citus rehearsal passed.');
process.exit(0);
