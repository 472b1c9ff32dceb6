import type { PGlite } from '@electric-sql/pglite';
import PgBoss from 'pg-boss';
import type { Database, DbOrTx } from '../db/client.ts';
import { currentTenantId, runAsSystem, runAsTenant } from '../db/tenant-scope.ts';

/**
 * The job queue: pg-boss on the portal's own database (PostgreSQL, or the embedded PGlite), so jobs
 * need no other server, survive a restart, and two processes never run one job twice (pg-boss takes
 * each job with `FOR UPDATE SKIP LOCKED`). Modules use only this small interface (`app.jobs`).
 *
 * Every job carries the tenant it was sent for and its handler runs as that tenant
 * (db/tenant-scope.ts), so row-level security holds for background work as for requests.
 */
export interface JobQueue {
  /**
   * Enqueues a job; answers its id. The tenant is the request's (or `options.tenantId`). With
   * `options.tx` the job is written in that transaction and exists only if it commits.
   */
  send<T extends object>(name: string, data: T, options?: SendOptions): Promise<string>;
  /**
   * Runs `handler` for each job of `name`, in this process and any other on the same database. A
   * handler that throws fails the try; it is tried again after the send's retry delay.
   * Register during start-up (a module's plugin) or later; workers start when the app is ready.
   */
  work<T extends object>(name: string, handler: JobHandler<T>, options?: WorkOptions): void;
  /** Waits until the job has finished (completed, or failed with no tries left, or cancelled). */
  settled(name: string, id: string, options?: { timeoutMs?: number }): Promise<JobOutcome>;
  /** The job's state now, or null when there is no such job (or it was archived away). */
  state(name: string, id: string): Promise<JobState | null>;
}

export type JobState = 'created' | 'retry' | 'active' | 'completed' | 'cancelled' | 'failed';

export interface JobOutcome {
  state: JobState;
  /** Tries made after the first. */
  retryCount: number;
  /** The handler's error message when it failed. */
  error: string | null;
}

export interface SendOptions {
  /** Whose work it is: the request's tenant unless told; null is system work (every tenant's rows). */
  tenantId?: number | null;
  /** Enqueue in the caller's transaction (drizzle `tx`): the job is there only if the transaction commits. */
  tx?: DbOrTx;
  /** Further tries after a failure (default 3). */
  retryLimit?: number;
  /** Seconds before a retry (default 10); with `retryBackoff` it doubles each time (with jitter). */
  retryDelaySeconds?: number;
  /** Default true. */
  retryBackoff?: boolean;
  /** Runs no sooner than this many seconds from now. */
  startAfterSeconds?: number;
  /** A run that takes longer counts as failed (and is retried); default 15 minutes, at most 24 hours. */
  expireInSeconds?: number;
  /** While a job with this key is waiting, another send with it throws instead of adding a second one. */
  singletonKey?: string;
  /**
   * The user who asked for the job. A job sent for a user is taken in turn: it goes behind fewer of its
   * own tenant's and user's waiting jobs than of others', so one user's burst delays neither another
   * tenant nor a colleague by more than the jobs already running. Jobs no user asked for (a webhook
   * delivery per status change, sent inside the change's transaction) are taken in order and cost
   * nothing more to send: the count of what waits would grow with the queue on a hot path.
   */
  userId?: number;
}

export interface WorkOptions {
  /** Jobs of this name one process runs at once (default 1). */
  concurrency?: number;
}

export interface Job<T> {
  id: string;
  name: string;
  data: T;
  /** The tenant it runs as; null for system work. */
  tenantId: number | null;
  /** Tries made before this one. */
  retryCount: number;
}

export type JobHandler<T> = (job: Job<T>) => Promise<void>;

/** What pg-boss stores: the tenant (and user) beside the module's own data. */
interface Envelope {
  tenantId: number | null;
  userId?: number;
  data: object;
}

/**
 * A waiting job of the same user counts as much as this many of the same tenant's: a user's second job
 * goes behind every other user's first, and a tenant's behind every other tenant's first.
 */
const USER_WEIGHT = 1_000;
const TENANT_WEIGHT = 1;

/**
 * pg-boss takes the job of highest priority first (then the oldest). A job's priority is minus what is
 * already waiting or running ahead of it from its own tenant and user: a burst of one user's sends is
 * spread behind everyone else's first job rather than in front of them.
 */
const RANK_SQL = `select
    count(*) filter (where (data->>'tenantId')::bigint = $2)::int as tenant,
    count(*) filter (where (data->>'tenantId')::bigint = $2 and (data->>'userId')::bigint = $3)::int as "user"
  from pgboss.job where name = $1 and state in ('created', 'retry', 'active')`;

export interface QueueOptions {
  /** How often an idle worker looks for jobs (pg-boss's minimum is 0.5). A local send wakes it at once. */
  pollingIntervalSeconds: number;
  log?: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
}

type BossDb = PgBoss.Db;
type Rows = Awaited<ReturnType<BossDb['executeSql']>>;

/** The embedded database's session for pg-boss: several statements without parameters go through `exec`. */
function pgliteAdapter(client: PGlite): BossDb {
  return {
    async executeSql(text, values) {
      if (!values || values.length === 0) {
        const results = await client.exec(text);
        return { rows: results.at(-1)?.rows ?? [] } as Rows;
      }
      return client.query(text, values) as Promise<Rows>;
    },
  };
}

/**
 * A caller's drizzle transaction as pg-boss's connection: the job's INSERT runs on the transaction's
 * own connection (node-postgres) or session (PGlite), so it commits or rolls back with it.
 */
function transactionAdapter(tx: DbOrTx): BossDb {
  const client = (tx as unknown as { session?: { client?: { query?: unknown } } }).session?.client;
  if (!client || typeof client.query !== 'function') throw new Error('jobs: not a drizzle transaction');
  const query = client.query as (text: string, values: unknown[]) => Promise<Rows>;
  return { executeSql: (text, values) => query.call(client, text, values ?? []) };
}

export function createJobQueue(database: Database, options: QueueOptions) {
  const boss = new PgBoss({
    ...(database.kind === 'postgres'
      ? // Its own few connections: the queue's polling never waits behind the requests' pool.
        { connectionString: database.url, max: 4, application_name: 'freight-jobs' }
      : { db: pgliteAdapter(requirePglite(database)) }),
    // Cron schedules are not used: sweeps belong to plugins/housekeeping.ts.
    schedule: false,
  });
  boss.on('error', (error) => options.log?.error({ err: error }, 'job queue error'));

  const queues = new Set<string>();
  const queueReady = new Map<string, Promise<void>>();
  const pending: { name: string; handler: JobHandler<object>; options: WorkOptions }[] = [];
  const workerIds = new Map<string, string[]>();
  let started: Promise<void> | null = null;
  let stopped = false;

  const ensureQueue = (name: string) => {
    let ready = queueReady.get(name);
    if (!ready) {
      ready = (async () => {
        if (queues.has(name)) return;
        // pg-boss 10 keeps each queue's row; creating one that exists is a no-op.
        await boss.createQueue(name);
        queues.add(name);
      })();
      ready.catch(() => queueReady.delete(name));
      queueReady.set(name, ready);
    }
    return ready;
  };

  const startWorker = async (name: string, handler: JobHandler<object>, workOptions: WorkOptions) => {
    await ensureQueue(name);
    for (let i = 0; i < Math.max(1, workOptions.concurrency ?? 1); i++) {
      const id = await boss.work<Envelope>(
        name,
        { includeMetadata: true, batchSize: 1, pollingIntervalSeconds: options.pollingIntervalSeconds },
        async ([job]) => {
          if (!job) return;
          const envelope = job.data;
          const run = () =>
            handler({
              id: job.id,
              name: job.name,
              data: envelope.data,
              tenantId: envelope.tenantId,
              retryCount: job.retryCount,
            });
          try {
            await (envelope.tenantId === null ? runAsSystem(run) : runAsTenant(envelope.tenantId, run));
          } catch (error) {
            options.log?.warn({ err: error, job: job.id, queue: name }, 'job failed');
            throw error;
          }
        },
      );
      workerIds.set(name, [...(workerIds.get(name) ?? []), id]);
    }
  };

  const queue: JobQueue = {
    async send(name, data, sendOptions = {}) {
      if (!started) throw new Error('jobs: the queue is not started');
      await started;
      await ensureQueue(name);
      const tenantId = sendOptions.tenantId === undefined ? currentTenantId() : sendOptions.tenantId;
      const envelope: Envelope = {
        tenantId,
        ...(sendOptions.userId ? { userId: sendOptions.userId } : {}),
        data,
      };
      let priority = 0;
      if (tenantId !== null && sendOptions.userId) {
        // On the caller's transaction when there is one: the embedded database's one session is its.
        const on = sendOptions.tx ? transactionAdapter(sendOptions.tx) : boss.getDb();
        const { rows } = await on.executeSql(RANK_SQL, [name, tenantId, sendOptions.userId ?? null]);
        const ahead = rows[0] as { tenant: number; user: number } | undefined;
        priority = -((ahead?.tenant ?? 0) * TENANT_WEIGHT + (ahead?.user ?? 0) * USER_WEIGHT);
      }
      const id = await boss.send(name, envelope, {
        priority,
        retryLimit: sendOptions.retryLimit ?? 3,
        retryDelay: sendOptions.retryDelaySeconds ?? 10,
        retryBackoff: sendOptions.retryBackoff ?? true,
        ...(sendOptions.startAfterSeconds ? { startAfter: sendOptions.startAfterSeconds } : {}),
        ...(sendOptions.expireInSeconds ? { expireInSeconds: sendOptions.expireInSeconds } : {}),
        ...(sendOptions.singletonKey ? { singletonKey: sendOptions.singletonKey } : {}),
        ...(sendOptions.tx ? { db: transactionAdapter(sendOptions.tx) } : {}),
      });
      if (!id) throw new Error(`jobs: ${name} was not enqueued (a job with its singleton key is waiting)`);
      // A worker of this process looks now rather than at its next poll (a job in an open transaction
      // is not visible yet: that one waits for the poll).
      if (!sendOptions.tx && !sendOptions.startAfterSeconds)
        for (const worker of workerIds.get(name) ?? []) boss.notifyWorker(worker);
      return id;
    },
    work(name, handler, workOptions = {}) {
      const entry = { name, handler: handler as JobHandler<object>, options: workOptions };
      if (started) void started.then(() => startWorker(entry.name, entry.handler, entry.options));
      else pending.push(entry);
    },
    async state(name, id) {
      const job = await boss.getJobById(name, id, { includeArchive: true });
      return (job?.state as JobState | undefined) ?? null;
    },
    async settled(name, id, { timeoutMs = 30_000 } = {}) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const job = await boss.getJobById<Envelope>(name, id, { includeArchive: true });
        if (job && (job.state === 'completed' || job.state === 'failed' || job.state === 'cancelled')) {
          const output = job.output as { message?: string } | null;
          return {
            state: job.state,
            retryCount: job.retryCount,
            error: job.state === 'failed' ? (output?.message ?? 'failed') : null,
          };
        }
        if (Date.now() > until) throw new Error(`jobs: ${name} ${id} still ${job?.state ?? 'missing'}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
  };

  return {
    queue,
    /** Installs or migrates pg-boss's schema and starts every registered worker. */
    start() {
      started ??= (async () => {
        await boss.start();
        for (const entry of pending.splice(0)) await startWorker(entry.name, entry.handler, entry.options);
      })();
      return started;
    },
    /**
     * Stops polling and waits for the jobs running here to finish (up to `timeoutMs`); jobs still running
     * then are failed, so another process (or this one after a restart) tries them again.
     */
    async stop(timeoutMs: number) {
      if (!started || stopped) return;
      stopped = true;
      await started.catch(() => {});
      await boss.stop({ graceful: true, wait: true, timeout: Math.max(1000, timeoutMs) });
    },
  };
}

function requirePglite(database: Database): PGlite {
  if (!database.pglite) throw new Error('jobs: the embedded database has no session handle');
  return database.pglite;
}

/**
 * A module's hold on the running server's queue: lent when the module's routes are registered (with
 * the first retry delay its jobs use), given back when the server closes, asked for when a job is sent
 * from code that has no request at hand (inside a transaction of the module's own).
 */
export function queueLoan(purpose: string) {
  let lent: { queue: JobQueue; retrySeconds: number } | null = null;
  return {
    lend(queue: JobQueue, retrySeconds: number) {
      lent = { queue, retrySeconds };
    },
    giveBack(queue: JobQueue) {
      if (lent?.queue === queue) lent = null;
    },
    held() {
      if (!lent) throw new Error(`no job queue to ${purpose} with`);
      return lent;
    },
  };
}
