import { AsyncLocalStorage } from 'node:async_hooks';
import type pg from 'pg';

/**
 * Whose work is running, carried through its asynchronous work: a tenant's (a request, a tenant's job)
 * or the system's (migrations, seeding, sweeps, the platform's own calls across tenants). The
 * database's row-level security (migrations 0022 and 0042) reads it from the connection's settings:
 * `app.tenant_id` shows that tenant's rows only, `app.system = on` every row. Work that declared
 * neither sets neither, and sees no row of any tenant: the policy fails closed.
 */
type Scope = { tenantId: number } | { system: true };
const scope = new AsyncLocalStorage<Scope>();

/** Runs `fn` (and everything it starts) as work of this tenant. */
export function runAsTenant<T>(tenantId: number, fn: () => T): T {
  return scope.run({ tenantId }, fn);
}

/**
 * Runs `fn` (and everything it starts) as system work, which sees every tenant's rows: start-up,
 * migrations, seeding, sweeps, system jobs, and the platform's own calls that span tenants (creating
 * one, listing them, finding the tenant of a host), made by the default tenant's administrators.
 */
export function runAsSystem<T>(fn: () => T): T {
  return scope.run({ system: true }, fn);
}

/** The tenant of the work running now, or null for system work or work that declared nothing. */
export function currentTenantId(): number | null {
  const current = scope.getStore();
  return current && 'tenantId' in current ? current.tenantId : null;
}

/** Whether the work running now declared itself system work. */
export function isSystemWork(): boolean {
  const current = scope.getStore();
  return !!current && 'system' in current;
}

/** The connection settings the work running now needs: `tenant|system`. */
function wantedSetting(): string {
  const tenantId = currentTenantId();
  if (tenantId !== null) return `${tenantId}|off`;
  return isSystemWork() ? '|on' : '|off';
}

const SET_SCOPE = "select set_config('app.tenant_id', $1, false), set_config('app.system', $2, false)";
/**
 * On Citus, the same, and the coordinator told to carry a transaction's `SET LOCAL` to the workers. A
 * connection takes a scope this way before it is ever asked to carry one (`scopeEachTransaction`).
 */
const SET_SCOPE_PROPAGATED = `${SET_SCOPE}, set_config('citus.propagate_set_commands', 'local', false)`;

type ConnectCallback = (err: Error | undefined, client?: pg.PoolClient, release?: () => void) => void;

/** What each pooled connection's settings were last set to; a new connection has neither (`|off`). */
const settingOf = new WeakMap<pg.PoolClient, string>();

/**
 * The pool listens for a connection's errors only while it is idle. A connection that breaks while it
 * is checked out (the database restarting under a transaction, or a socket reset the pool had not yet
 * heard of when it handed it out) emits 'error' too, and with no listener that would end the process.
 * The query running on it fails with the same error (a 503), and the pool drops the connection when it
 * is released as no longer queryable; this listener only keeps the event from being unhandled.
 */
const guarded = new WeakSet<pg.PoolClient>();
function guard(client: pg.PoolClient): void {
  if (guarded.has(client)) return;
  guarded.add(client);
  client.on('error', () => {});
}

/** A query that reads or writes rows (and so meets row-level security), as opposed to DDL or a SET. */
const READS_OR_WRITES = /^\s*(\(|(select|insert|update|delete|with|values|table|merge|explain|copy)\b)/i;
const OPENS = /^\s*(begin|start\s+transaction)\b/i;
/** Ends the transaction; `rollback to savepoint` does not. */
const CLOSES = /^\s*(commit|end|abort|rollback\b(?!\s+(work\s+|transaction\s+)?to\b))/i;

/** The `SET LOCAL` that carries a scope (`tenant|system`) into one transaction, or null for none. */
function localScope(setting: string): string | null {
  const [tenant, system] = setting.split('|');
  if (tenant) return `set local app.tenant_id = '${Number(tenant)}'`;
  return system === 'on' ? "set local app.system = 'on'" : null;
}

type QueryFn = (...args: unknown[]) => unknown;

/**
 * On Citus, the shards' own row-level security reads the scope on the workers, where a session's
 * `set_config` never arrives: Citus carries only `SET LOCAL` there, inside a transaction block
 * (`citus.propagate_set_commands = local`). So each transaction the connection opens starts with the
 * scope's `SET LOCAL`, and a query that reads or writes rows outside one runs in a transaction of its
 * own that carries it. DDL and other statements go as they are. Costs round trips, so only on Citus.
 */
const unscopedQuery = new WeakMap<pg.PoolClient, QueryFn>();
function scopeEachTransaction(client: pg.PoolClient): void {
  if (unscopedQuery.has(client)) return;
  const send = client.query.bind(client) as QueryFn;
  unscopedQuery.set(client, send);
  let inTransaction = false;
  const scoped = async (args: unknown[]): Promise<unknown> => {
    const first = args[0] as string | { text?: unknown; submit?: unknown } | undefined;
    const text = typeof first === 'string' ? first : first?.text;
    const local = localScope(settingOf.get(client) ?? '|off');
    if (typeof text !== 'string') return send(...args);
    if (OPENS.test(text)) {
      const result = await send(...args);
      inTransaction = true;
      if (local)
        try {
          await send(local);
        } catch (error) {
          // The caller saw its BEGIN fail, and will not end the transaction itself.
          inTransaction = false;
          await (send('rollback') as Promise<unknown>).catch(() => {});
          throw error;
        }
      return result;
    }
    if (CLOSES.test(text)) {
      inTransaction = false;
      return send(...args);
    }
    if (inTransaction || !local || !READS_OR_WRITES.test(text)) return send(...args);
    await send('begin');
    try {
      await send(local);
      const result = await send(...args);
      await send('commit');
      return result;
    } catch (error) {
      await (send('rollback') as Promise<unknown>).catch(() => {});
      throw error;
    }
  };
  client.query = ((...args: unknown[]) => {
    const first = args[0] as { submit?: unknown } | undefined;
    // A streamed query (a cursor) is submitted to the connection as it is.
    if (first && typeof first === 'object' && typeof first.submit === 'function') return send(...args);
    const callback =
      typeof args.at(-1) === 'function' ? (args.pop() as (e?: Error, r?: unknown) => void) : null;
    const result = scoped(args);
    if (!callback) return result;
    result.then(
      (value) => callback(undefined, value),
      (error: Error) => callback(error),
    );
    return undefined;
  }) as pg.PoolClient['query'];
}

/**
 * Makes every connection the pool hands out carry the current tenant. `pool.query` checks out through
 * `pool.connect` too, and so do drizzle's transactions, so this one place covers both. The setting is
 * sent only when the connection's differs from the caller's: a run of one tenant's requests, or of
 * system work, costs no extra round trip. The tenant is read when the caller asks, not when a busy
 * pool gets round to answering, which may happen in another request's turn.
 */
export function scopeConnectionsToTenant(pool: pg.Pool, options: { perTransaction?: boolean } = {}): void {
  const checkout = pool.connect.bind(pool) as (callback: ConnectCallback) => void;
  const scopedConnect = (wanted: string) =>
    new Promise<pg.PoolClient>((resolve, reject) => {
      checkout((err, client) => {
        if (err || !client) return reject(err);
        guard(client);
        if (options.perTransaction) scopeEachTransaction(client);
        if ((settingOf.get(client) ?? '|off') === wanted) return resolve(client);
        const [tenant, system] = wanted.split('|');
        // The session's setting itself needs no transaction of its own.
        const query = unscopedQuery.get(client) ?? (client.query.bind(client) as QueryFn);
        const statement = options.perTransaction ? SET_SCOPE_PROPAGATED : SET_SCOPE;
        (query(statement, [tenant, system]) as Promise<unknown>).then(
          () => {
            settingOf.set(client, wanted);
            resolve(client);
          },
          (error: Error) => {
            // A connection that cannot take the setting is not handed out with a stale one.
            client.release(error);
            reject(error);
          },
        );
      });
    });
  pool.connect = ((callback?: ConnectCallback) => {
    const connected = scopedConnect(wantedSetting());
    if (!callback) return connected;
    connected.then(
      (client) => callback(undefined, client, client.release),
      (error: Error) => callback(error, undefined, () => {}),
    );
  }) as pg.Pool['connect'];
}
