import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

/**
 * The server as `npm start` runs it: compiled into one file (scripts/ensure-server-build.mjs), which
 * the test run's global setup brings up to date with the sources before any file starts.
 */
export const SERVER_COMMAND = [
  '--enable-source-maps',
  new URL('../dist/server.js', import.meta.url).pathname,
] as const;
export const adminUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** A TCP port nobody listens on now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** A fresh database on the test PostgreSQL server; `drop` removes it, closing whatever is left on it. */
export async function scratchDatabase(prefix = 'fp_proc') {
  const name = `${prefix}_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    async drop() {
      const dropper = new pg.Client({ connectionString: adminUrl });
      await dropper.connect();
      await dropper.query(`drop database if exists ${name} with (force)`);
      await dropper.end();
    },
  };
}

/** A temporary data directory (uploads, exports, the embedded database). */
export function scratchDir(prefix = 'fp-proc-') {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface ServerProcess {
  child: ChildProcess;
  port: number;
  base: string;
  output(): string;
  /** Resolves with the exit code (null when killed by a signal) and the signal. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts the real server, compiled as it ships, in a process of its own and waits until it listens. */
export async function startServer(
  env: Record<string, string>,
  readyWithinMs = 60_000,
): Promise<ServerProcess> {
  const port = Number(env.PORT ?? (await freePort()));
  let output = '';
  const child = spawn(process.execPath, SERVER_COMMAND, {
    env: {
      ...process.env,
      NODE_ENV: 'development',
      LOG_LEVEL: 'warn',
      RATE_LIMIT_SCALE: '1000',
      HOST: '127.0.0.1',
      ...env,
      PORT: String(port),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d) => {
    output += d;
  });
  child.stderr?.on('data', (d) => {
    output += d;
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  let gone = false;
  void exited.then(() => {
    gone = true;
  });
  const until = Date.now() + readyWithinMs;
  while (!output.includes('is running at')) {
    if (gone) throw new Error(`the server exited while starting:\n${output}`);
    if (Date.now() > until) {
      child.kill('SIGKILL');
      throw new Error(`the server did not start in time:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return { child, port, base: `http://127.0.0.1:${port}`, output: () => output, exited };
}

/**
 * The dev mailbox of a running server for one address, once it holds a mail: a code is mailed after
 * the answer that asked for it has gone, so right after that answer the mailbox may still be empty.
 */
export async function mailedTo(base: string, email: string, withinMs = 15_000): Promise<{ text: string }[]> {
  const until = Date.now() + withinMs;
  for (;;) {
    const mailbox = (await (
      await fetch(`${base}/api/dev/mailbox?to=${encodeURIComponent(email)}`)
    ).json()) as {
      data: { list: { text: string }[] };
    };
    if (mailbox.data.list.length > 0) return mailbox.data.list;
    if (Date.now() > until) throw new Error(`no mail to ${email} within ${withinMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Can a new TCP connection be opened to the port? */
export function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
