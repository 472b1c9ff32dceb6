#!/usr/bin/env node
// The rehearsal of "beyond one machine" (issue 13): on this machine, a PostgreSQL primary and a
// streaming replica, two server processes and HAProxy in front of them; quoting, booking and paying
// through the balancer while one server process is killed (SIGKILL) and restarted, and then while the
// primary itself is stopped and started again. It checks that no request was lost beyond those in
// flight on the killed process, that every call failing while the database was away was a 503 in the
// envelope and that every call succeeded again a few seconds after it was back, that money is exact, that sessions
// work on both processes, that a change made on one process is seen at once on the other, that
// reports read from the replica, and that a dump and a base backup restore to the same money.
// Prints a report of figures and exits non-zero on any broken invariant. Runs as root (CI).
import { execFile, execFileSync, spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  asPostgres,
  call,
  expressRound,
  failed,
  freePort,
  moneyInvariants,
  newTally,
  pgBin,
  printLogTails,
  psqlFlags,
  READY_PATH,
  reporter,
  requests,
  run,
  signIn,
  sleep,
  startServer as startKitServer,
  truckQuoteBody,
  truckRound,
  waitReady,
} from './rehearsal-kit.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const env = process.env;
const LOAD_SECONDS = Number(env.REHEARSE_SECONDS ?? 30);
const CLIENTS_PER_USER = Number(env.REHEARSE_CLIENTS ?? 2);
const KILL_AFTER_SECONDS = Number(env.REHEARSE_KILL_AFTER ?? Math.min(8, LOAD_SECONDS / 3));
const RESTART_AFTER_SECONDS = Number(env.REHEARSE_RESTART_AFTER ?? 2);
/** The load goes on at least this long after the restarted process is ready, within a hard bound. */
const AFTER_RESTART_SECONDS = 5;
/** How long the primary stays stopped in the database restart phase (0 skips the phase). */
const DB_DOWN_SECONDS = Number(env.REHEARSE_DB_DOWN ?? 3);
/** The load goes on this long after the primary accepts connections again. */
const AFTER_DB_SECONDS = 8;
const MAX_LOAD_SECONDS =
  LOAD_SECONDS + 60 + (DB_DOWN_SECONDS > 0 ? DB_DOWN_SECONDS + AFTER_DB_SECONDS + 30 : 0);
/** Within this long after the primary is back, every call must succeed again. */
const RECOVER_SECONDS = 5;
/** No call may take longer than this while the database is away (the server's acquire timeout is 10 s). */
const OUTAGE_ANSWER_BOUND_MS = 12_000;
/** The balancer's own answer when no process is ready: the API's envelope, in the client's language. */
const BALANCER_503 = {
  en: 'The service is unavailable at the moment, please try again shortly',
  zh: '服务暂时无法访问,请稍后再试',
};
/** Longest replication lag (replay) accepted during the load. */
const MAX_REPLAY_LAG_MS = Number(env.REHEARSE_MAX_LAG_MS ?? 5000);
/** How long a change made on one process may take to show on the other (their caches live 5 s). */
const CACHE_GRACE_MS = 300;
const KEEP = env.REHEARSE_KEEP === '1';

const CUSTOMERS = ['customer@example.com', 'direct@example.com'];
const ADMIN = 'admin@example.com';
const EDITOR = 'editor@example.com';
const ROLE = { name: 'portal', password: 'portal-rehearsal' };
const DB = 'freight';

// --------------------------------------------------------------------------------------------------
// Small helpers

const { log, check, failures, since, t0 } = reporter('rehearse');

/** The same without blocking the load's clients: resolves with the exit code. */
const asPostgresAsync = (cmd, args) =>
  new Promise((res) =>
    execFile('runuser', ['-u', 'postgres', '--', cmd, ...args], (error, stdout, stderr) =>
      res({ code: error ? (error.code ?? 1) : 0, output: `${stdout}${stderr}` }),
    ),
  );

// --------------------------------------------------------------------------------------------------
// What the machine needs: HAProxy and PostgreSQL (a fresh CI machine may have neither).

function ensurePackages() {
  if (process.getuid?.() !== 0) throw new Error('run as root: the clusters are started as the postgres user');
  const need = [];
  if (!existsSync('/usr/sbin/haproxy')) need.push('haproxy');
  if (!pgBin()) need.push('postgresql');
  if (need.length > 0) {
    log(`installing ${need.join(', ')}`);
    run('apt-get', ['update', '-qq']);
    run('apt-get', ['install', '-y', '-qq', ...need], { env: { ...env, DEBIAN_FRONTEND: 'noninteractive' } });
  }
  if (!pgBin()) throw new Error('no PostgreSQL binaries under /usr/lib/postgresql');
}

// --------------------------------------------------------------------------------------------------
// Everything started is recorded here and stopped on the way out, whatever happens.

const state = {
  tmp: null,
  clusters: new Map(), // name -> data dir
  servers: new Map(), // name -> child
  haproxy: null,
  chaosError: null,
  /** Set once cleaning up has begun: nothing new is started after it. */
  stopping: false,
};

let cleaning = null;
async function cleanup() {
  if (cleaning) return cleaning;
  state.stopping = true;
  cleaning = (async () => {
    if (state.haproxy && state.haproxy.exitCode === null) state.haproxy.kill('SIGKILL');
    for (const child of state.servers.values()) {
      if (child.exitCode === null && child.signalCode === null) {
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {}
      }
    }
    const bin = pgBin();
    for (const dir of state.clusters.values()) {
      if (existsSync(join(dir, 'postmaster.pid'))) {
        asPostgres(`${bin}/pg_ctl`, ['-D', dir, '-m', 'immediate', '-w', 'stop'], { allowFail: true });
      }
    }
    if (state.tmp && !KEEP) rmSync(state.tmp, { recursive: true, force: true });
    else if (state.tmp) log(`kept ${state.tmp}`);
  })();
  return cleaning;
}
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    log(`${signal}: cleaning up`);
    void cleanup().then(() => process.exit(130));
  });
}

// --------------------------------------------------------------------------------------------------
// PostgreSQL: a primary, a streaming replica of it, and later the restores.

/** The arguments of `pg_ctl start` for a cluster, kept so the restart phase starts it the same way. */
const startArgs = new Map();

function startCluster(name, dir, port, extra = []) {
  if (state.stopping) throw new Error('stopping');
  const bin = pgBin();
  const opts = ['-p', String(port), '-h', '127.0.0.1', '-k', state.tmp, ...extra].join(' ');
  state.clusters.set(name, dir);
  const args = ['-D', dir, '-l', join(state.tmp, `${name}.log`), '-o', opts, '-w', '-t', '60', 'start'];
  startArgs.set(name, args);
  asPostgres(`${bin}/pg_ctl`, args);
}

function stopCluster(name) {
  const dir = state.clusters.get(name);
  asPostgres(`${pgBin()}/pg_ctl`, ['-D', dir, '-m', 'fast', '-w', 'stop'], { allowFail: true });
}

/** One value (or rows of `|`-separated values) from psql as the superuser. */
function psql(port, sql, db = DB) {
  return run(`${pgBin()}/psql`, [...psqlFlags(port), '-U', 'postgres', '-d', db, '-c', sql]).stdout.trim();
}

/** The same without blocking the load's clients. */
function psqlAsync(port, sql, db = DB) {
  const args = [...psqlFlags(port), '-U', 'postgres', '-d', db, '-c', sql];
  return new Promise((res) =>
    execFile(`${pgBin()}/psql`, args, (error, stdout) => res(error ? '' : stdout.trim())),
  );
}

// --------------------------------------------------------------------------------------------------
// The portal's processes and the balancer.

function startServer(name, port, extraEnv) {
  if (state.stopping) throw new Error('stopping');
  return startKitServer({ root, dir: state.tmp, servers: state.servers, name, port, env: extraEnv });
}

const envelope503 = (language) => JSON.stringify({ code: 503, msg: BALANCER_503[language], data: null });

function haproxyConfig(port, backends) {
  return `global
  maxconn 1024
  log stdout format raw local0

defaults
  mode http
  log global
  option httplog
  timeout connect 2s
  timeout client 60s
  timeout server 60s
  timeout queue 10s
  # A request whose connection to a process failed (it is down) never reached it: try again on the
  # other process. Only connection failures: a request that may have been received is not repeated.
  retries 3
  retry-on conn-failure
  option redispatch 1
  # A fresh connection to a process for each request, so none is sent on a socket of a dead process.
  option http-server-close
  http-reuse never
  option forwardfor

  # Any other answer the balancer makes up itself with 503 (a queue timeout): the API's envelope too.
  http-error status 503 content-type "application/json; charset=utf-8" hdr Retry-After 5 hdr X-Answered-By balancer string '${envelope503('en')}'

frontend portal
  bind 127.0.0.1:${port}
  # No process ready (the database is away, so every readiness check fails; or a deploy): the balancer
  # answers at once, in the API's envelope and the client's language, and says it answered.
  http-request return status 503 content-type "application/json; charset=utf-8" hdr Retry-After 5 hdr X-Answered-By balancer string '${envelope503('en')}' if { nbsrv(portal) eq 0 } { req.hdr(accept-language) -m beg -i en }
  http-request return status 503 content-type "application/json; charset=utf-8" hdr Retry-After 5 hdr X-Answered-By balancer string '${envelope503('zh')}' if { nbsrv(portal) eq 0 }
  default_backend portal

backend portal
  balance roundrobin
  option httpchk GET ${READY_PATH}
  http-check expect status 200
  # Which process answered (or failed), for the rehearsal's accounting of failures.
  http-after-response set-header X-Backend %[srv_name]
${backends.map(([name, p]) => `  server ${name} 127.0.0.1:${p} check inter 500 fall 2 rise 2`).join('\n')}
`;
}

// --------------------------------------------------------------------------------------------------
// The client side: every request is recorded with its times, answer and the process that served it.

/**
 * The answer the database being away must get: HTTP 503 (or a stream's closing line, the status being
 * gone) with code 503 and a message in the envelope, from a server process (`X-Backend`) or from the
 * balancer, which says so (`X-Answered-By`), its checks having taken both processes out.
 */
function unavailableBy(r) {
  if (r.error !== null || r.code !== 503 || typeof r.msg !== 'string' || r.msg.length === 0) return null;
  if (r.status === 503 && r.answeredBy === 'balancer' && !r.backend) return 'balancer';
  if ((r.status === 503 || r.status === 200) && (r.backend === 's1' || r.backend === 's2')) return 'server';
  return null;
}

// --------------------------------------------------------------------------------------------------

async function main() {
  ensurePackages();
  const bin = pgBin();
  state.tmp = mkdtempSync(join(tmpdir(), 'rehearse-'));
  chmodSync(state.tmp, 0o755);
  const pgUid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
  const pgGid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
  chownSync(state.tmp, pgUid, pgGid);
  const ports = new Set();
  while (ports.size < 6) ports.add(await freePort());
  const [pPrimary, pReplica, pRestore, s1Port, s2Port, lbPort] = [...ports];
  const figures = {};

  // The primary, with a role that owns the database and is not a superuser (row-level security
  // policies do not bite for superusers).
  log(`primary on ${pPrimary}`);
  const primaryDir = join(state.tmp, 'primary');
  asPostgres(
    `${bin}/initdb`,
    ['-D', primaryDir, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--no-instructions', '--no-sync'],
    { stdio: 'ignore' },
  );
  startCluster('primary', primaryDir, pPrimary, ['-c', 'max_wal_senders=5', '-c', 'wal_level=replica']);
  psql(pPrimary, `create role ${ROLE.name} login nosuperuser password '${ROLE.password}'`, 'postgres');
  psql(pPrimary, `create database ${DB} owner ${ROLE.name}`, 'postgres');

  // The replica: a base backup of the primary that follows it (standby.signal and primary_conninfo
  // from -R); it logs every statement so the rehearsal can see which reads it served.
  log(`replica on ${pReplica}`);
  const replicaDir = join(state.tmp, 'replica');
  asPostgres(`${bin}/pg_basebackup`, [
    '-h',
    '127.0.0.1',
    '-p',
    String(pPrimary),
    '-U',
    'postgres',
    '-D',
    replicaDir,
    '-R',
    '-X',
    'stream',
    '-c',
    'fast',
    // A rehearsal's copies need not survive a power cut (production leaves the sync on).
    '--no-sync',
  ]);
  startCluster('replica', replicaDir, pReplica, [
    '-c',
    'log_statement=all',
    '-c',
    "log_line_prefix='%m %a '",
  ]);
  check(
    psql(pReplica, 'select pg_is_in_recovery()', 'postgres') === 't',
    'the replica is a standby in recovery',
  );

  const dbUrl = (port, app) =>
    `postgres://${ROLE.name}:${ROLE.password}@127.0.0.1:${port}/${DB}?application_name=${app}`;
  const serverEnv = (name) => ({
    HOST: '127.0.0.1',
    DATABASE_URL: dbUrl(pPrimary, `portal-${name}`),
    DATABASE_REPLICA_URL: dbUrl(pReplica, `portal-${name}-reader`),
    DATA_DIR: join(state.tmp, 'data'),
    RATE_LIMIT_SCALE: '1000',
    LOG_LEVEL: 'warn',
    NODE_ENV: 'development',
    SEED_DEMO: name === 's1' ? 'true' : 'false',
  });

  // The server compiled, as `npm start` runs it.
  execFileSync(process.execPath, ['scripts/ensure-server-build.mjs'], { cwd: root, stdio: 'inherit' });
  // One process migrates and seeds first; the second starts once the first is ready.
  log(`server s1 on ${s1Port} (migrates and seeds)`);
  let started = Date.now();
  await waitReady(`http://127.0.0.1:${s1Port}`, 180, startServer('s1', s1Port, serverEnv('s1')));
  figures.firstStartSeconds = (Date.now() - started) / 1000;
  log(`server s2 on ${s2Port}`);
  started = Date.now();
  await waitReady(`http://127.0.0.1:${s2Port}`, 180, startServer('s2', s2Port, serverEnv('s2')));
  figures.secondStartSeconds = (Date.now() - started) / 1000;

  log(`haproxy on ${lbPort}`);
  const cfg = join(state.tmp, 'haproxy.cfg');
  writeFileSync(
    cfg,
    haproxyConfig(lbPort, [
      ['s1', s1Port],
      ['s2', s2Port],
    ]),
  );
  run('/usr/sbin/haproxy', ['-c', '-q', '-f', cfg]);
  const hout = openSync(join(state.tmp, 'haproxy.log'), 'a');
  state.haproxy = spawn('/usr/sbin/haproxy', ['-db', '-f', cfg], { stdio: ['ignore', hout, hout] });
  const lb = `http://127.0.0.1:${lbPort}`;
  const direct = { s1: `http://127.0.0.1:${s1Port}`, s2: `http://127.0.0.1:${s2Port}` };
  await waitReady(lb, 30);
  // Both processes up in the balancer's eyes before the load (rise 2 × 500 ms).
  await sleep(1500);

  // Sign-ins through the balancer.
  const tokens = {};
  for (const email of [...CUSTOMERS, ADMIN]) tokens[email] = await signIn(lb, email);
  log(`signed in ${Object.keys(tokens).length} users through the balancer`);
  // Enough money for the whole load: a manual adjustment (a ledger row like any money) of every account.
  let toppedUp = 0;
  for (const line of ['truck', 'express']) {
    const accounts = await call(lb, '/api/admin/account/balanceTotal', { line }, tokens[ADMIN]);
    for (const a of accounts.data?.list ?? []) {
      const res = await call(
        lb,
        '/api/admin/account/adjust',
        { accountId: a.id, reason: 'Rehearsal funds', amount: '1000000.00', requestKey: randomUUID() },
        tokens[ADMIN],
      );
      if (res.code === 200) toppedUp++;
    }
  }
  check(toppedUp >= CUSTOMERS.length * 2, 'accounts topped up by the administrator', `${toppedUp} accounts`);

  // ------------------------------------------------------------------------------------------------
  // The load, with one process killed and restarted in the middle of it.
  const paymentsBefore = Number(
    psql(pPrimary, "select count(*) from ledger_entries where type = 'order_payment'"),
  );
  const lag = { samples: 0, maxBytes: 0, maxReplayMs: 0 };
  let loadRunning = true;
  const lagSampler = (async () => {
    while (loadRunning) {
      const row = await psqlAsync(
        pPrimary,
        'select coalesce(pg_wal_lsn_diff(pg_current_wal_lsn(), replay_lsn), 0), coalesce(extract(epoch from replay_lag) * 1000, 0) from pg_stat_replication',
        'postgres',
      );
      if (row) {
        const [bytes, ms] = row.split('|').map(Number);
        lag.samples++;
        lag.maxBytes = Math.max(lag.maxBytes, bytes);
        lag.maxReplayMs = Math.max(lag.maxReplayMs, ms);
      }
      await sleep(500);
    }
  })();

  const tallies = [];
  const loadStart = Date.now();
  const loadEnd = loadStart + LOAD_SECONDS * 1000;
  // Until the planned end, and past it until the restarted process has served a while (bounded).
  // Then past the database restart until every call has succeeded a while again.
  const phasesDone = () =>
    figures.readyAgainAt &&
    Date.now() >= figures.readyAgainAt + AFTER_RESTART_SECONDS * 1000 &&
    (DB_DOWN_SECONDS <= 0 || (figures.dbBackAt && Date.now() >= figures.dbBackAt + AFTER_DB_SECONDS * 1000));
  const loading = () =>
    Date.now() < loadStart + MAX_LOAD_SECONDS * 1000 &&
    !state.chaosError &&
    (Date.now() < loadEnd || !phasesDone());
  const clients = [];
  for (const email of CUSTOMERS) {
    for (let i = 0; i < CLIENTS_PER_USER; i++) {
      const tally = newTally();
      tallies.push(tally);
      clients.push(
        (async () => {
          let n = i;
          while (loading()) {
            // Three truck rounds to one express round.
            const code =
              n++ % 4 === 3
                ? await expressRound(lb, tokens[email], tally)
                : await truckRound(lb, tokens[email], tally);
            // A client told to come back later (503) pauses a little before its next round.
            if (code === 503) await sleep(250);
          }
        })(),
      );
    }
  }
  log(`load: ${clients.length} clients for ${LOAD_SECONDS}s through the balancer`);

  const victim = 's2';
  const chaos = (async () => {
    await sleep(KILL_AFTER_SECONDS * 1000);
    const child = state.servers.get(victim);
    const gone = new Promise((r) => child.once('exit', r));
    figures.killAt = Date.now();
    process.kill(child.pid, 'SIGKILL');
    await gone;
    // Until the kernel has torn the process down its port may still take connections.
    figures.goneAt = Date.now();
    log(`killed ${victim} (pid ${child.pid}) with SIGKILL`);
    await sleep(RESTART_AFTER_SECONDS * 1000);
    figures.restartAt = Date.now();
    const again = startServer(victim, s2Port, serverEnv(victim));
    await waitReady(direct[victim], 120, again);
    figures.readyAgainAt = Date.now();
    log(
      `${victim} restarted (pid ${again.pid}), ready after ${((figures.readyAgainAt - figures.restartAt) / 1000).toFixed(1)}s`,
    );
    if (DB_DOWN_SECONDS <= 0) return;

    // The database goes away under the same load: the primary is stopped (fast: its sessions are ended,
    // transactions in flight roll back), left down a few seconds, and started again.
    await sleep(AFTER_RESTART_SECONDS * 1000);
    figures.dbPids = Object.fromEntries([...state.servers].map(([name, child]) => [name, child.pid]));
    figures.dbStopAt = Date.now();
    log('stopping the primary (fast)');
    const stopped = await asPostgresAsync(`${bin}/pg_ctl`, ['-D', primaryDir, '-m', 'fast', '-w', 'stop']);
    if (stopped.code !== 0) throw new Error(`pg_ctl stop: ${stopped.output}`);
    figures.dbDownAt = Date.now();
    await sleep(DB_DOWN_SECONDS * 1000);
    figures.dbStartAt = Date.now();
    const startedAgain = await asPostgresAsync(`${bin}/pg_ctl`, startArgs.get('primary'));
    if (startedAgain.code !== 0) throw new Error(`pg_ctl start: ${startedAgain.output}`);
    figures.dbBackAt = Date.now();
    log(
      `primary down for ${((figures.dbBackAt - figures.dbDownAt) / 1000).toFixed(1)}s, accepting connections again`,
    );
    // The replica lost its primary too: it connects again by itself and streams on.
    while (!state.stopping && Date.now() < figures.dbBackAt + 30_000) {
      const streaming = await psqlAsync(
        pPrimary,
        "select count(*) from pg_stat_replication where state = 'streaming'",
        'postgres',
      );
      if (Number(streaming) > 0) {
        figures.replicaStreamingAt = Date.now();
        break;
      }
      await sleep(200);
    }
  })().catch((error) => {
    // Stops the load at once; raised after the clients have stopped.
    state.chaosError = error;
  });

  await Promise.all(clients);
  figures.loadSeconds = (Date.now() - loadStart) / 1000;
  await chaos;
  if (state.chaosError) throw state.chaosError;
  loadRunning = false;
  await lagSampler;

  // ------------------------------------------------------------------------------------------------
  // Requests: none lost beyond those in flight on the killed process.
  const loadRequests = requests.filter((r) => r.start >= loadStart);
  const failedRequests = loadRequests.filter(failed);
  // In flight on the killed process: sent to it before it was gone, answered (or not) after the kill.
  const inFlightOnVictim = (r) =>
    r.backend === victim && r.start <= figures.goneAt && r.end >= figures.killAt;
  // While the database was away: from the primary's stop until a few seconds after it is back, every
  // failure must be the envelope's 503 (a server's, or the balancer's once its checks took both out).
  const dbPhase = DB_DOWN_SECONDS > 0 && figures.dbBackAt;
  const recoveredBy = dbPhase ? figures.dbBackAt + RECOVER_SECONDS * 1000 : 0;
  const duringOutage = (r) => dbPhase && r.end >= figures.dbStopAt && r.start <= recoveredBy;
  const excused = failedRequests.filter(inFlightOnVictim);
  const outageFailures = failedRequests.filter((r) => !inFlightOnVictim(r) && duringOutage(r));
  const outage503 = outageFailures.filter((r) => unavailableBy(r) !== null);
  const unexcused = failedRequests.filter((r) => !inFlightOnVictim(r) && !outage503.includes(r));
  const byBackend = {};
  for (const r of loadRequests) {
    const who = r.backend ?? (r.answeredBy === 'balancer' ? 'balancer' : 'none');
    byBackend[who] = (byBackend[who] ?? 0) + 1;
  }
  figures.requests = loadRequests.length;
  figures.byBackend = byBackend;
  figures.throughput = loadRequests.length / figures.loadSeconds;
  figures.failed = failedRequests.length;
  figures.failedInFlight = excused.length;
  // The balancer's own log: requests it retried on the other process after a refused connection.
  figures.retried = readFileSync(join(state.tmp, 'haproxy.log'), 'utf8')
    .split('\n')
    .filter((l) => / [A-Za-z-]{4} \d+\/\d+\/\d+\/\d+\/\+?[1-9]\d* /.test(l)).length;
  const truckPaid = tallies.flatMap((t) => t.truckPaid);
  const expressPaid = tallies.flatMap((t) => t.expressPaid);
  figures.quotes = tallies.reduce((n, t) => n + t.quotes, 0);
  figures.booked = tallies.reduce((n, t) => n + t.booked, 0);
  figures.refused = tallies.reduce((n, t) => n + t.refused, 0);
  figures.paid = truckPaid.length + expressPaid.length;
  check(
    figures.booked > 0 && figures.paid > 0,
    'orders were booked and paid under load',
    `${figures.booked} booked, ${figures.paid} paid`,
  );
  check(
    (byBackend.s1 ?? 0) > 0 && (byBackend.s2 ?? 0) > 0,
    'both processes served the load',
    Object.entries(byBackend)
      .map(([k, v]) => `${k} ${v}`)
      .join(', '),
  );
  const afterRestart = loadRequests.filter((r) => r.backend === victim && r.start >= figures.readyAgainAt);
  figures.afterRestart = afterRestart.length;
  check(
    afterRestart.length > 0,
    'the restarted process served the load again',
    `${afterRestart.length} requests`,
  );
  if (dbPhase) {
    const outageRequests = loadRequests.filter(duringOutage);
    const fromServers = outage503.filter((r) => unavailableBy(r) === 'server');
    const fromBalancer = outage503.filter((r) => unavailableBy(r) === 'balancer');
    const afterBack = failedRequests.filter((r) => r.start >= figures.dbBackAt);
    // Down: overlapping the stop and the start; after: begun once it accepts connections again.
    const down = outageRequests.filter((r) => r.start < figures.dbBackAt);
    const after = outageRequests.filter((r) => r.start >= figures.dbBackAt);
    figures.db = {
      down: down.length,
      downFailed: down.filter(failed).length,
      after: after.length,
      afterFailed: after.filter(failed).length,
      fromServers: fromServers.length,
      fromBalancer: fromBalancer.length,
      streams: fromServers.filter((r) => r.status === 200).length,
      slowestMs: Math.max(0, ...outageRequests.map((r) => r.end - r.start)),
      lastFailureAfterBackMs: afterBack.length
        ? Math.max(...afterBack.map((r) => r.end)) - figures.dbBackAt
        : null,
    };
    const bad = outageFailures.filter((r) => unavailableBy(r) === null);
    check(
      bad.length === 0,
      'while the database was away every failing call was answered 503 in the envelope, with a message',
      `${outageFailures.length} failed: ${fromServers.length} by the server processes, ${fromBalancer.length} by the balancer` +
        (bad.length
          ? `; others: ${bad
              .slice(0, 5)
              .map(
                (r) =>
                  `${r.path} ${r.status} code ${r.code} ${r.backend ?? r.answeredBy ?? 'nobody'} ${r.error ?? ''} at ${r.start - figures.dbStopAt} ms from the stop`,
              )
              .join('; ')}`
          : ''),
    );
    check(
      fromServers.length > 0 && fromBalancer.length > 0,
      'both the server processes and (once its checks took them out) the balancer answered the 503',
      `${fromServers.length} by the processes, ${fromBalancer.length} by the balancer`,
    );
    check(
      figures.db.slowestMs <= OUTAGE_ANSWER_BOUND_MS,
      `no call hung while the database was away (each answered within ${OUTAGE_ANSWER_BOUND_MS} ms)`,
      `slowest ${figures.db.slowestMs} ms`,
    );
    check(
      Object.entries(figures.dbPids).every(([name, pid]) => {
        const child = state.servers.get(name);
        return child.pid === pid && child.exitCode === null && child.signalCode === null;
      }),
      'both server processes stayed up through the database restart (same pids)',
      Object.entries(figures.dbPids)
        .map(([name, pid]) => `${name} ${pid}`)
        .join(', '),
    );
    const lateFailures = failedRequests.filter((r) => r.start > recoveredBy);
    check(
      lateFailures.length === 0,
      `every call succeeded again within ${RECOVER_SECONDS} s of the primary being back`,
      figures.db.lastFailureAfterBackMs === null
        ? 'no failure after it was back'
        : `last failure ended ${figures.db.lastFailureAfterBackMs} ms after it was back`,
    );
    check(
      Boolean(figures.replicaStreamingAt),
      'the replica streams from the restarted primary again',
      figures.replicaStreamingAt
        ? `${((figures.replicaStreamingAt - figures.dbBackAt) / 1000).toFixed(1)} s after it was back`
        : 'not within 30 s',
    );
  }
  check(
    unexcused.length === 0,
    'no request lost beyond those in flight on the killed process and the 503s while the database was away',
    `${failedRequests.length} failed, ${excused.length} of them in flight on ${victim}, ${outage503.length} 503 while the database was away` +
      (unexcused.length
        ? `; others: ${unexcused
            .slice(0, 5)
            .map(
              (r) =>
                `${r.path} ${r.status} ${r.code} ${r.backend ?? r.answeredBy} ${r.error ?? ''} at ${r.start - figures.killAt}..${r.end - figures.killAt} ms from the kill`,
            )
            .join('; ')}`
        : ''),
  );

  // ------------------------------------------------------------------------------------------------
  // Money: every balance is the sum of its ledger; every paid order has exactly one payment row.
  const paymentsAfter = Number(
    psql(pPrimary, "select count(*) from ledger_entries where type = 'order_payment'"),
  );
  const newPayments = paymentsAfter - paymentsBefore;
  // A pay whose answer was lost (in flight on the killed process, or cut by the database stopping) may
  // or may not have committed.
  const payAttemptsInFlight = [...excused, ...outage503].filter((r) => r.path.endsWith('/order/pay')).length;
  figures.paymentRows = newPayments;
  check(
    newPayments >= figures.paid && newPayments <= figures.paid + payAttemptsInFlight,
    'payment ledger rows match the successful pays',
    `${figures.paid} pays answered paid, ${newPayments} new payment rows, ${payAttemptsInFlight} pays without an answer (in flight on the killed process, or a 503)`,
  );
  const moneyChecks = moneyInvariants((sql) => psql(pPrimary, sql, DB));
  for (const [what, n] of moneyChecks) check(n === 0, what, `${n} offending`);
  const paidNos = [...truckPaid, ...expressPaid].map((n) => `'${n}'`).join(',') || "''";
  const unmatched = Number(
    psql(
      pPrimary,
      `select count(*) from unnest(array[${paidNos}]::text[]) as p(no) where (select count(*) from ledger_entries l where l.ref_id = p.no and l.type = 'order_payment') <> 1`,
    ),
  );
  check(unmatched === 0, 'every pay answered as paid has exactly one payment row', `${unmatched} without`);

  // ------------------------------------------------------------------------------------------------
  // Sessions: the same tokens work on both processes, the restarted one included.
  for (const email of [...CUSTOMERS, ADMIN]) {
    const a = await call(direct.s1, '/api/admin/auth/getInfo', {}, tokens[email]);
    const b = await call(direct.s2, '/api/admin/auth/getInfo', {}, tokens[email]);
    check(
      a.code === 200 && b.code === 200,
      `session of ${email} valid on s1 and on the restarted s2`,
      `${a.code}/${b.code}`,
    );
  }

  // Caches: the site name changed through s1 shows at once on s2 (whose cache was warm).
  const admin = tokens[ADMIN];
  const site = await call(direct.s1, '/api/admin/site/info', {}, admin);
  let cacheMs = 0;
  let cacheOk = site.code === 200;
  for (let round = 1; round <= 2 && cacheOk; round++) {
    await call(direct.s2, '/api/admin/auth/getHostConfig', {});
    const name = `Rehearsal ${randomBytes(3).toString('hex')}`;
    const saved = await call(direct.s1, '/api/admin/site/save', { ...site.data, siteName: name }, admin);
    const changedAt = Date.now();
    let seen = false;
    while (!seen && Date.now() - changedAt <= CACHE_GRACE_MS) {
      const read = await call(direct.s2, '/api/admin/auth/getHostConfig', {});
      seen = read.data?.siteName === name;
      if (!seen) await sleep(20);
    }
    cacheMs = Math.max(cacheMs, Date.now() - changedAt);
    cacheOk = saved.code === 200 && seen;
  }
  figures.cache = cacheOk
    ? `${cacheMs} ms until the other process showed the change`
    : `the other process still showed the old site name ${cacheMs} ms after the change`;
  const cacheWhat = `site name changed through s1 read at once through s2 (within ${CACHE_GRACE_MS} ms)`;
  if (!cacheOk && env.REHEARSE_CACHE_CHECK === 'warn')
    log(`WARN  ${cacheWhat} (${figures.cache}; not counted: REHEARSE_CACHE_CHECK=warn)`);
  else check(cacheOk, cacheWhat, figures.cache);

  // Grants: a button taken from the editor's role through s1 is refused at once through s2.
  const grants = await grantsAcrossProcesses(direct, admin);
  figures.grants = grants.detail;
  const grantsWhat = `a grant taken from a role through s1 is refused at once through s2 (within ${CACHE_GRACE_MS} ms)`;
  if (!grants.ok && env.REHEARSE_CACHE_CHECK === 'warn')
    log(`WARN  ${grantsWhat} (${grants.detail}; not counted: REHEARSE_CACHE_CHECK=warn)`);
  else check(grants.ok, grantsWhat, grants.detail);

  // ------------------------------------------------------------------------------------------------
  // Reports read from the replica; the replica kept up.
  figures.maxReplayLagMs = lag.maxReplayMs;
  figures.maxLagBytes = lag.maxBytes;
  check(lag.samples > 0, 'replication was sampled during the load', `${lag.samples} samples`);
  check(
    lag.maxReplayMs <= MAX_REPLAY_LAG_MS,
    `replica replay lag stayed under ${MAX_REPLAY_LAG_MS} ms`,
    `max ${lag.maxReplayMs.toFixed(1)} ms, ${lag.maxBytes} bytes`,
  );
  const replicaLog = () => readFileSync(join(state.tmp, 'replica.log'), 'utf8');
  const readerLines = (text) =>
    text.split('\n').filter((l) => /portal-s\d-reader/.test(l) && /"truck_orders"|"ledger_entries"/.test(l))
      .length;
  const before = readerLines(replicaLog());
  const exported = await call(lb, '/api/admin/order/export', { page: 1, limit: 10 }, admin);
  const ledgerExport = await call(
    lb,
    '/api/admin/account/detailsExport',
    { page: 1, limit: 10, line: 'truck' },
    admin,
  );
  await sleep(300);
  const after = readerLines(replicaLog());
  figures.replicaStatements = after - before;
  check(
    exported.code === 200 && ledgerExport.code === 200,
    'order and ledger exports answered through the balancer',
    `${exported.code}/${ledgerExport.code}`,
  );
  check(
    after > before,
    'the exports were read from the replica (its statement log)',
    `${after - before} statements by the reader`,
  );
  // Caught up: the replica has the primary's ledger.
  const caughtUp = Date.now();
  let same = false;
  while (!same && Date.now() - caughtUp < 10_000) {
    same =
      psql(pReplica, 'select count(*), coalesce(sum(amount_cents), 0) from ledger_entries') ===
      psql(pPrimary, 'select count(*), coalesce(sum(amount_cents), 0) from ledger_entries');
    if (!same) await sleep(100);
  }
  check(same, 'the replica holds the same ledger as the primary', `caught up in ${Date.now() - caughtUp} ms`);
  // The dashboard's figures come from the replica: they count every order, not an empty view of them.
  const stats = await call(lb, '/api/admin/order/stats', {}, admin);
  const counted = Object.values(stats.data?.statuses ?? {}).reduce((n, v) => n + v, 0);
  const orders = Number(psql(pPrimary, 'select count(*) from truck_orders'));
  check(
    stats.code === 200 && counted === orders,
    'the dashboard read from the replica counts every order',
    `${counted} of ${orders}`,
  );

  // ------------------------------------------------------------------------------------------------
  // Backups: a dump restored into a fresh database, and a base backup started as its own cluster.
  const digest = (port, db) => ({
    balances: psql(
      port,
      "select md5(string_agg(tenant_id || ':' || id || ':' || balance_cents, ',' order by tenant_id, id)) from accounts",
      db,
    ),
    ledger: psql(
      port,
      "select count(*) || ':' || md5(string_agg(tenant_id || ':' || account_id || ':' || s, ',' order by tenant_id, account_id)) from (select tenant_id, account_id, sum(amount_cents) s from ledger_entries group by 1, 2) x",
      db,
    ),
  });
  const source = digest(pPrimary, DB);
  const dumpFile = join(state.tmp, 'freight.dump');
  started = Date.now();
  run(`${bin}/pg_dump`, [
    '-h',
    '127.0.0.1',
    '-p',
    String(pPrimary),
    '-U',
    'postgres',
    '-Fc',
    '-f',
    dumpFile,
    DB,
  ]);
  figures.dumpSeconds = (Date.now() - started) / 1000;
  psql(pPrimary, `create database freight_restored owner ${ROLE.name}`, 'postgres');
  started = Date.now();
  run(`${bin}/pg_restore`, [
    '-h',
    '127.0.0.1',
    '-p',
    String(pPrimary),
    '-U',
    'postgres',
    '-d',
    'freight_restored',
    '--exit-on-error',
    dumpFile,
  ]);
  figures.restoreSeconds = (Date.now() - started) / 1000;
  const restored = digest(pPrimary, 'freight_restored');
  check(
    restored.balances === source.balances && restored.ledger === source.ledger,
    'the restored dump has the same balances and ledger sums',
    `dump ${figures.dumpSeconds.toFixed(1)} s, restore ${figures.restoreSeconds.toFixed(1)} s`,
  );
  for (const [what, n] of moneyInvariants((sql) => psql(pPrimary, sql, 'freight_restored')))
    check(n === 0, `restored: ${what}`, `${n} offending`);

  const baseDir = join(state.tmp, 'base');
  started = Date.now();
  asPostgres(`${bin}/pg_basebackup`, [
    '-h',
    '127.0.0.1',
    '-p',
    String(pPrimary),
    '-U',
    'postgres',
    '-D',
    baseDir,
    '-X',
    'stream',
    '-c',
    'fast',
    // A rehearsal's copies need not survive a power cut (production leaves the sync on).
    '--no-sync',
  ]);
  figures.baseBackupSeconds = (Date.now() - started) / 1000;
  started = Date.now();
  startCluster('base', baseDir, pRestore);
  figures.baseStartSeconds = (Date.now() - started) / 1000;
  const fromBase = digest(pRestore, DB);
  check(
    fromBase.balances === source.balances && fromBase.ledger === source.ledger,
    'a base backup starts as its own cluster with the same balances and ledger sums',
    `backup ${figures.baseBackupSeconds.toFixed(1)} s, start ${figures.baseStartSeconds.toFixed(1)} s`,
  );
  stopCluster('base');

  // ------------------------------------------------------------------------------------------------
  // With the replica stopped, the exports read the primary instead (the reader falls back, and says so
  // once in the log), and quoting still works on the same process.
  stopCluster('replica');
  const fallbackLines = () =>
    readFileSync(join(state.tmp, 's1.log'), 'utf8')
      .split('\n')
      .filter((l) => l.includes('read replica unavailable')).length;
  const warnedBefore = fallbackLines();
  started = Date.now();
  const exportDown = await call(direct.s1, '/api/admin/order/export', { page: 1, limit: 10 }, admin);
  const ledgerDown = await call(
    direct.s1,
    '/api/admin/account/detailsExport',
    { page: 1, limit: 10, line: 'truck' },
    admin,
  );
  figures.fallbackMs = Date.now() - started;
  const quoteDown = await call(
    direct.s1,
    '/api/admin/quotation/save',
    truckQuoteBody(),
    tokens[CUSTOMERS[0]],
  );
  check(
    exportDown.code === 200 && ledgerDown.code === 200 && quoteDown.code === 200,
    'with the replica stopped the exports answer from the primary and quoting still works',
    `exports ${exportDown.code ?? exportDown.error}/${ledgerDown.code ?? ledgerDown.error} in ${figures.fallbackMs} ms, quote ${quoteDown.code}`,
  );
  await sleep(200);
  const warned = fallbackLines() - warnedBefore;
  check(warned === 1, 'the replica going away is logged once', `${warned} log lines for two exports`);

  report(figures);
}

/**
 * Takes the order export button from the built-in editor role through s1 while the editor's grants
 * are cached on s2, and watches s2 refuse the export; then gives the button back.
 */
async function grantsAcrossProcesses(direct, admin) {
  const BUTTON = 'order:export';
  const roles = await call(direct.s1, '/api/admin/role/list', { page: 1, limit: 50 }, admin);
  const editorRole = roles.data?.list?.find((r) => r.code === 'editor');
  if (!editorRole) return { ok: false, detail: 'no editor role' };
  const info = await call(direct.s1, '/api/admin/role/info', { id: editorRole.id }, admin);
  const { menuIds, buttonKeys } = info.data ?? {};
  if (!buttonKeys?.includes(BUTTON)) return { ok: false, detail: `the editor role has no ${BUTTON}` };
  const body = (keys) => ({
    id: editorRole.id,
    name: editorRole.name,
    nameEn: editorRole.nameEn,
    description: editorRole.description,
    descriptionEn: editorRole.descriptionEn,
    menuIds,
    buttonKeys: keys,
  });
  const editor = await signIn(direct.s2, EDITOR);
  const exportOnS2 = () => call(direct.s2, '/api/admin/order/export', { page: 1, limit: 10 }, editor);
  const before = await exportOnS2();
  if (before.code !== 200) return { ok: false, detail: `the editor's export answered ${before.code} before` };
  const saved = await call(
    direct.s1,
    '/api/admin/role/save',
    body(buttonKeys.filter((k) => k !== BUTTON)),
    admin,
  );
  const changedAt = Date.now();
  let refused = false;
  while (saved.code === 200 && !refused && Date.now() - changedAt <= CACHE_GRACE_MS) {
    refused = (await exportOnS2()).code === 401;
    if (!refused) await sleep(20);
  }
  const ms = Date.now() - changedAt;
  await call(direct.s1, '/api/admin/role/save', body(buttonKeys), admin);
  if (saved.code !== 200) return { ok: false, detail: `the role save answered ${saved.code}` };
  return {
    ok: refused,
    detail: refused
      ? `refused after ${ms} ms`
      : `the other process still allowed it ${ms} ms after the change`,
  };
}

/** Counts of rows that break the money rules (each must be 0). */
function report(f) {
  const s = (ms) => (ms / 1000).toFixed(1);
  const lines = [
    '',
    'Rehearsal figures',
    `  start                first process (migrate, seed) ${f.firstStartSeconds.toFixed(1)} s, second ${f.secondStartSeconds.toFixed(1)} s`,
    `  load                 ${f.loadSeconds.toFixed(1)} s, ${CUSTOMERS.length * CLIENTS_PER_USER} clients, ${f.requests} requests, ${f.throughput.toFixed(1)} req/s`,
    `  by process           ${f.afterRestart} served by the restarted process; ${Object.entries(f.byBackend)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}`,
    `  business             ${f.quotes} quotes priced, ${f.booked} booked, ${f.paid} paid, ${f.refused} refused (funds), ${f.paymentRows} payment rows`,
    `  failures             ${f.failed} (${f.failedInFlight} in flight on the killed process, ${f.db ? f.db.fromServers + f.db.fromBalancer : 0} 503 while the database was away); ${f.retried} retried by the balancer on the other process`,
    `  kill / restart       killed at +${s(f.killAt - t0)} s (gone ${f.goneAt - f.killAt} ms later), restarted at +${s(f.restartAt - t0)} s, ready after ${s(f.readyAgainAt - f.restartAt)} s`,
    ...(f.db
      ? [
          `  database restart     primary stopped at +${s(f.dbStopAt - t0)} s (down ${f.dbDownAt - f.dbStopAt} ms later), started at +${s(f.dbStartAt - t0)} s, accepting after ${f.dbBackAt - f.dbStartAt} ms; down ${s(f.dbBackAt - f.dbDownAt)} s in all`,
          `  while it was away    ${f.db.down} calls, ${f.db.downFailed} failed; 503 from the processes ${f.db.fromServers} (${f.db.streams} as a stream's last line), 503 from the balancer ${f.db.fromBalancer}; slowest answer ${f.db.slowestMs} ms`,
          `  after it was back    ${f.db.after} calls in the next ${RECOVER_SECONDS} s, ${f.db.afterFailed} failed (${f.db.lastFailureAfterBackMs === null ? 'none' : `the last ended ${f.db.lastFailureAfterBackMs} ms after`}); replica streaming again after ${f.replicaStreamingAt ? s(f.replicaStreamingAt - f.dbBackAt) : '?'} s; same server pids`,
        ]
      : []),
    `  replica              max replay lag ${f.maxReplayLagMs.toFixed(1)} ms, max ${f.maxLagBytes} bytes behind; two exports ran ${f.replicaStatements} statements on it; with it stopped two exports took ${f.fallbackMs} ms from the primary`,
    `  cache across         site name: ${f.cache}; grants: ${f.grants}`,
    `  backups              pg_dump ${f.dumpSeconds.toFixed(1)} s, pg_restore ${f.restoreSeconds.toFixed(1)} s, pg_basebackup ${f.baseBackupSeconds.toFixed(1)} s, its start ${f.baseStartSeconds.toFixed(1)} s`,
    `  total                ${since()}`,
    '',
  ];
  console.log(lines.join('\n'));
}

try {
  await main();
} catch (error) {
  failures.push(`aborted: ${error?.stack ?? error}`);
  log(`ABORTED: ${error?.stack ?? error}`);
  if (state.tmp) printLogTails(state.tmp, ['s1', 's2', 'primary', 'replica', 'haproxy'], 20);
} finally {
  await cleanup();
}
if (failures.length > 0) {
  console.log(`Rehearsal FAILED (${failures.length}):\n${failures.map((f) => `  - ${f}`).join('\n')}`);
  process.exit(1);
}
console.log('Rehearsal passed.');
process.exit(0);
