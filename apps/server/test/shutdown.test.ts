import { type ClientRequest, request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accepts, type ServerProcess, scratchDatabase, scratchDir, startServer } from './server-process.ts';

/** The server's database: a fresh PostgreSQL database with TEST_DB=pg, else embedded in a data dir. */
let env: Record<string, string> = {};
const cleanups: (() => Promise<void> | void)[] = [];
beforeAll(async () => {
  const dir = scratchDir('fp-shutdown-');
  cleanups.push(dir.remove);
  env = { DATA_DIR: dir.dir, SEED_DEMO: 'false' };
  if (process.env.TEST_DB === 'pg') {
    const database = await scratchDatabase('fp_shutdown');
    cleanups.push(database.drop);
    env.DATABASE_URL = database.url;
  }
});
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/**
 * A client that sends its request slowly: the headers and half the body now, the rest when told.
 * The server has the request in hand (its hooks have run) and waits for the body: a request in flight.
 */
function slowCall(server: ServerProcess) {
  const body = JSON.stringify({});
  let req: ClientRequest | undefined;
  const answer = new Promise<{ status: number; body: any }>((resolve, reject) => {
    req = request(
      {
        host: '127.0.0.1',
        port: server.port,
        method: 'POST',
        path: '/api/admin/auth/options',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        let text = '';
        res.on('data', (d) => {
          text += d;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
      },
    );
    req.on('error', reject);
    req.write(body.slice(0, 1));
  });
  return {
    answer,
    finish: () => req?.end(body.slice(1)),
  };
}

async function until(check: () => Promise<boolean>, ms = 5_000) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('graceful shutdown', () => {
  it('on SIGTERM refuses new connections, finishes the requests in flight with 200 and exits 0', async () => {
    const server = await startServer(env);
    const calls = Array.from({ length: 5 }, () => slowCall(server));
    // Every request has reached the server before the signal.
    await new Promise((r) => setTimeout(r, 300));
    server.child.kill('SIGTERM');
    await until(async () => !(await accepts(server.port)));
    // Still running: it waits for the requests it has.
    expect(server.child.exitCode).toBeNull();
    for (const c of calls) c.finish();
    for (const c of calls) {
      const res = await c.answer;
      expect(res.status).toBe(200);
      expect(res.body.code).toBe(200);
    }
    expect(await server.exited).toEqual({ code: 0, signal: null });
  }, 90_000);

  it('exits at once with 1 on a second signal, and after the grace period when a request never ends', async () => {
    const server = await startServer(env);
    const stuck = slowCall(server);
    stuck.answer.catch(() => {});
    await new Promise((r) => setTimeout(r, 300));
    server.child.kill('SIGTERM');
    await until(async () => !(await accepts(server.port)));
    server.child.kill('SIGTERM');
    expect(await server.exited).toEqual({ code: 1, signal: null });

    const patient = await startServer({ ...env, SHUTDOWN_TIMEOUT_SECONDS: '1' });
    const never = slowCall(patient);
    never.answer.catch(() => {});
    await new Promise((r) => setTimeout(r, 300));
    const t0 = Date.now();
    patient.child.kill('SIGTERM');
    expect(await patient.exited).toEqual({ code: 1, signal: null });
    expect(Date.now() - t0).toBeGreaterThanOrEqual(900);
  }, 90_000);
});
