import { AsyncLocalStorage } from 'node:async_hooks';
import type pg from 'pg';

/**
 * The tenant whose request is running, carried through its asynchronous work. The database's row-level
 * security (migration 0022) reads it from the connection's `app.tenant_id`: a query that forgets its
 * own `tenant_id` filter still sees only this tenant's rows. Outside a request (migrations, seeding,
 * start-up sync, sweeps) there is none, and the setting is empty: system work sees every row.
 */
const tenantScope = new AsyncLocalStorage<{ tenantId: number }>();

/** Runs `fn` (and everything it starts) as work of this tenant. */
export function runAsTenant<T>(tenantId: number, fn: () => T): T {
  return tenantScope.run({ tenantId }, fn);
}

/**
 * Runs `fn` as system work, outside the current request's tenant: for the platform's own calls that
 * span tenants (creating one, listing them), made by the default tenant's administrators.
 */
export function runAsSystem<T>(fn: () => T): T {
  return tenantScope.exit(fn);
}

/** The tenant of the work running now, or null for system work. */
export function currentTenantId(): number | null {
  return tenantScope.getStore()?.tenantId ?? null;
}

type ConnectCallback = (err: Error | undefined, client?: pg.PoolClient, release?: () => void) => void;

/** What each pooled connection's `app.tenant_id` was last set to; a new connection has it empty. */
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

/**
 * Makes every connection the pool hands out carry the current tenant. `pool.query` checks out through
 * `pool.connect` too, and so do drizzle's transactions, so this one place covers both. The setting is
 * sent only when the connection's differs from the caller's: a run of one tenant's requests, or of
 * system work, costs no extra round trip. The tenant is read when the caller asks, not when a busy
 * pool gets round to answering, which may happen in another request's turn.
 */
export function scopeConnectionsToTenant(pool: pg.Pool): void {
  const checkout = pool.connect.bind(pool) as (callback: ConnectCallback) => void;
  const scopedConnect = (wanted: string) =>
    new Promise<pg.PoolClient>((resolve, reject) => {
      checkout((err, client) => {
        if (err || !client) return reject(err);
        guard(client);
        if ((settingOf.get(client) ?? '') === wanted) return resolve(client);
        client.query("select set_config('app.tenant_id', $1, false)", [wanted]).then(
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
    const connected = scopedConnect(String(currentTenantId() ?? ''));
    if (!callback) return connected;
    connected.then(
      (client) => callback(undefined, client, client.release),
      (error: Error) => callback(error, undefined, () => {}),
    );
  }) as pg.Pool['connect'];
}
