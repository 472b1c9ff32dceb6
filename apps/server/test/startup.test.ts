import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { mailedTo, SERVER_COMMAND } from './server-process.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'fp-start-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

function start(env: Record<string, string>): {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
} {
  let output = '';
  const child = spawn(process.execPath, SERVER_COMMAND, {
    env: { ...process.env, LOG_LEVEL: 'warn', NODE_ENV: 'development', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d) => {
    output += d;
  });
  child.stderr?.on('data', (d) => {
    output += d;
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

async function waitFor(check: () => boolean, ms = 60_000) {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('configuration', () => {
  it('stops with a message naming each wrong variable', () => {
    expect(() => loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x' })).toThrow(
      /PORT[\s\S]*DATABASE_URL|DATABASE_URL[\s\S]*PORT/,
    );
    expect(loadConfig({}).PORT).toBe(8083);
  });

  it('refuses to start on a bad value and says which', async () => {
    const run = start({ PORT: 'not-a-port', DATA_DIR: dataDir });
    expect(await run.exited).toBe(1);
    expect(run.output()).toContain('PORT');
  });
});

describe('start, stop and start again', () => {
  it('seeds once, shuts down cleanly on SIGTERM, and finds its data intact on the next start', async () => {
    const port = String(18000 + Math.floor(Math.random() * 1000));
    const first = start({ PORT: port, DATA_DIR: dataDir });
    await waitFor(() => first.output().includes('is running at'));
    expect(first.output()).toContain('admin@example.com');
    const health: any = await (await fetch(`http://127.0.0.1:${port}/api/health`)).json();
    expect(health.data.database).toMatchObject({ kind: 'pglite', ok: true });
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);

    const second = start({ PORT: port, DATA_DIR: dataDir });
    await waitFor(() => second.output().includes('is running at'));
    // Nothing to seed the second time: the demo accounts are already there.
    expect(second.output()).not.toContain('Demo sign-ins');
    const code = await fetch(`http://127.0.0.1:${port}/api/admin/auth/getVerificationCode`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@example.com' }),
    });
    expect(((await code.json()) as any).code).toBe(200);
    expect(await mailedTo(`http://127.0.0.1:${port}`, 'admin@example.com')).toHaveLength(1);
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  }, 120_000);
});
