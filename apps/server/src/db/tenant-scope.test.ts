import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { currentTenantId, runAsSystem, runAsTenant, scopeConnectionsToTenant } from './tenant-scope.ts';

/** A pool of one connection that records what is sent on it; `failing` makes the next statement fail. */
function fakePool(options: { perTransaction?: boolean } = {}) {
  const sent: string[] = [];
  const released: (Error | undefined)[] = [];
  const listening: string[] = [];
  // The next statement to fail (any, or the one named).
  let failing: false | true | string = false;
  const client = {
    on: (event: string) => {
      listening.push(event);
      return client;
    },
    query: async (text: string | { text: string }, values?: string[]) => {
      const statement = typeof text === 'string' ? text : text.text;
      if (failing === true || failing === statement) {
        failing = false;
        throw new Error('connection lost');
      }
      sent.push(values ? `${statement} ${JSON.stringify(values)}` : statement);
      return { rows: [] };
    },
    release: (error?: Error) => {
      released.push(error);
    },
  } as unknown as pg.PoolClient;
  type Callback = (err: Error | undefined, client: pg.PoolClient, release: () => void) => void;
  // A busy pool: callers wait until `answer` hands the connection over, in whoever's turn that is.
  let busy = false;
  const waiting: Callback[] = [];
  const pool = {
    connect: (callback: Callback) => {
      if (busy) waiting.push(callback);
      else setImmediate(() => callback(undefined, client, client.release));
    },
  } as unknown as pg.Pool;
  scopeConnectionsToTenant(pool, options);
  return {
    pool,
    client,
    sent,
    released,
    listening,
    failNext: (statement?: string) => {
      failing = statement ?? true;
    },
    hold: () => {
      busy = true;
    },
    answer: () => {
      busy = false;
      for (const callback of waiting.splice(0)) callback(undefined, client, client.release);
    },
  };
}

describe('connections scoped to the tenant', () => {
  it('keeps an error on a checked-out connection from going unhandled, with one listener per connection', async () => {
    const { pool, listening } = fakePool();
    await pool.connect();
    await runAsTenant(7, () => pool.connect());
    await pool.connect();
    expect(listening).toEqual(['error']);
  });

  it("sends the tenant only when the connection's differs from the caller's", async () => {
    const { pool, client, sent } = fakePool();
    // Work that declared nothing on a fresh connection: nothing to send, and it sees no tenant's rows.
    expect(await pool.connect()).toBe(client);
    expect(sent).toEqual([]);
    await runAsTenant(7, () => pool.connect());
    await runAsTenant(7, () => pool.connect());
    expect(sent).toEqual([
      `select set_config('app.tenant_id', $1, false), set_config('app.system', $2, false) ["7","off"]`,
    ]);
    await runAsTenant(8, () => pool.connect());
    await pool.connect();
    expect(sent.slice(1)).toEqual([
      `select set_config('app.tenant_id', $1, false), set_config('app.system', $2, false) ["8","off"]`,
      `select set_config('app.tenant_id', $1, false), set_config('app.system', $2, false) ["","off"]`,
    ]);
  });

  it('declares system work on the connection, and takes it back for work that declared nothing', async () => {
    const { pool, sent } = fakePool();
    await runAsSystem(() => pool.connect());
    await runAsSystem(() => pool.connect());
    await runAsSystem(() => runAsTenant(4, () => pool.connect()));
    await pool.connect();
    expect(sent).toEqual([
      `select set_config('app.tenant_id', $1, false), set_config('app.system', $2, false) ["","on"]`,
      `select set_config('app.tenant_id', $1, false), set_config('app.system', $2, false) ["4","off"]`,
      `select set_config('app.tenant_id', $1, false), set_config('app.system', $2, false) ["","off"]`,
    ]);
    expect(currentTenantId()).toBeNull();
  });

  it('goes through the same check for the callback form `pool.query` uses', async () => {
    const { pool, client, sent } = fakePool();
    const got = await runAsTenant(
      3,
      () =>
        new Promise<pg.PoolClient | undefined>((resolve, reject) =>
          pool.connect((err, c) => (err ? reject(err) : resolve(c))),
        ),
    );
    expect(got).toBe(client);
    expect(sent).toEqual([
      `select set_config('app.tenant_id', $1, false), set_config('app.system', $2, false) ["3","off"]`,
    ]);
  });

  it('takes the tenant of the caller, not of whoever is running when the pool answers', async () => {
    const { pool, sent, hold, answer } = fakePool();
    hold();
    const asked = runAsTenant(5, () => pool.connect());
    runAsTenant(6, answer);
    await asked;
    expect(sent).toEqual([
      `select set_config('app.tenant_id', $1, false), set_config('app.system', $2, false) ["5","off"]`,
    ]);
    expect(currentTenantId()).toBeNull();
  });

  it('hands out no connection whose tenant could not be set, and gives it back as broken', async () => {
    const { pool, released, failNext, sent } = fakePool();
    failNext();
    await expect(runAsTenant(9, () => pool.connect())).rejects.toThrow('connection lost');
    expect(released).toEqual([expect.any(Error)]);
    // The connection's setting is still unknown to be 9, so the next caller of tenant 9 sends it.
    await runAsTenant(9, () => pool.connect());
    expect(sent).toEqual([
      `select set_config('app.tenant_id', $1, false), set_config('app.system', $2, false) ["9","off"]`,
    ]);
  });

  describe("on Citus, where only a transaction's SET LOCAL reaches the workers", () => {
    const scope = (values: string) =>
      `select set_config('app.tenant_id', $1, false), set_config('app.system', $2, false), set_config('citus.propagate_set_commands', 'local', false) ${values}`;
    const SCOPE_7 = scope('["7","off"]');

    it('opens each transaction with the scope, and leaves the rest of it as it is', async () => {
      const { pool, sent } = fakePool({ perTransaction: true });
      const client = await runAsTenant(7, () => pool.connect());
      await client.query({ text: 'begin' } as never);
      await client.query('select 1 from truck_orders where id = $1', [1]);
      await client.query('savepoint a');
      await client.query('rollback to savepoint a');
      await client.query('select 2');
      await client.query('commit');
      expect(sent).toEqual([
        SCOPE_7,
        'begin',
        "set local app.tenant_id = '7'",
        'select 1 from truck_orders where id = $1 [1]',
        'savepoint a',
        'rollback to savepoint a',
        'select 2',
        'commit',
      ]);
    });

    it('runs a statement outside a transaction in one of its own, in the callback form too', async () => {
      const { pool, sent } = fakePool({ perTransaction: true });
      const client = await runAsSystem(() => pool.connect());
      await new Promise((resolve, reject) =>
        client.query('update accounts set balance = 0', [], (err) => (err ? reject(err) : resolve(null))),
      );
      await client.query('create index if not exists a on b (c)');
      expect(sent.slice(1)).toEqual([
        'begin',
        "set local app.system = 'on'",
        'update accounts set balance = 0 []',
        'commit',
        'create index if not exists a on b (c)',
      ]);
    });

    it('rolls its own transaction back when the statement fails, and sends work of no scope as it is', async () => {
      const { pool, sent, failNext } = fakePool({ perTransaction: true });
      const client = await runAsTenant(7, () => pool.connect());
      sent.length = 0;
      failNext('select 1');
      await expect(client.query('select 1')).rejects.toThrow('connection lost');
      expect(sent).toEqual(['begin', "set local app.tenant_id = '7'", 'rollback']);
      sent.length = 0;
      const unscoped = await pool.connect();
      await unscoped.query('select 1');
      expect(sent).toEqual([scope('["","off"]'), 'select 1']);
    });

    it('ends a transaction whose scope could not be set, and wraps what it did not know to', async () => {
      const { pool, sent, failNext } = fakePool({ perTransaction: true });
      const client = await runAsTenant(7, () => pool.connect());
      sent.length = 0;
      failNext("set local app.tenant_id = '7'");
      await expect(client.query('begin')).rejects.toThrow('connection lost');
      await client.query('(select 1) union all (select 2)');
      expect(sent).toEqual([
        'begin',
        'rollback',
        'begin',
        "set local app.tenant_id = '7'",
        '(select 1) union all (select 2)',
        'commit',
      ]);
    });
  });
});
