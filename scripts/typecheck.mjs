// `npm run typecheck`: each workspace's `tsc`, two at a time (one per core): the server and the web
// app, the largest, start first. Prints each one's errors whole once it ends; fails if any fails.
import { spawn } from 'node:child_process';

const root = new URL('..', import.meta.url).pathname;
const projects = ['apps/server', 'apps/web', 'packages/contracts', 'e2e', 'bench'];
const AT_ONCE = 2;

function check(project) {
  const started = Date.now();
  return new Promise((resolve) => {
    let output = '';
    const child = spawn(
      process.execPath,
      ['node_modules/typescript/bin/tsc', '-p', `${project}/tsconfig.json`],
      {
        cwd: root,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    child.stdout.on('data', (d) => {
      output += d;
    });
    child.stderr.on('data', (d) => {
      output += d;
    });
    child.on('close', (code) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(0);
      console.log(`${code === 0 ? 'ok  ' : 'FAIL'} ${project} (${seconds} s)`);
      if (output.trim()) console.log(output.trimEnd());
      resolve(code === 0);
    });
  });
}

const queue = [...projects];
const results = [];
await Promise.all(
  Array.from({ length: AT_ONCE }, async () => {
    while (queue.length > 0) results.push(await check(queue.shift()));
  }),
);
process.exit(results.every(Boolean) ? 0 : 1);
