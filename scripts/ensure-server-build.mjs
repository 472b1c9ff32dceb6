// Compiles the server into one JavaScript file (apps/server/dist/server.js) when it is missing or older
// than its sources, so `npm start` runs compiled code rather than compiling TypeScript as it starts.
// The packages it uses stay in node_modules; the workspace's own (`@freight/*`, TypeScript sources)
// are compiled in. Usage: node scripts/ensure-server-build.mjs
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { newest } from './newest.mjs';

const root = new URL('..', import.meta.url).pathname;
const server = join(root, 'apps', 'server');
export const SERVER_BUNDLE = join(server, 'dist', 'server.js');

/** Whether the bundle is missing or older than any source it is made of. */
function stale() {
  if (!existsSync(SERVER_BUNDLE)) return true;
  const sources = [
    join(server, 'src'),
    join(server, 'package.json'),
    join(root, 'packages', 'contracts', 'src'),
  ];
  return Math.max(...sources.map(newest)) > statSync(SERVER_BUNDLE).mtimeMs;
}

/** Packages load from node_modules at run time; only the workspace's own are compiled into the bundle. */
const packagesStayOutside = {
  name: 'packages-stay-outside',
  setup(esbuild) {
    esbuild.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith('@freight/') ? undefined : { path: args.path, external: true },
    );
  },
};

export async function ensureServerBuild() {
  if (!stale()) return false;
  // Loaded only to compile: a start that finds the bundle current does not pay for it.
  const { build } = await import('esbuild');
  await build({
    entryPoints: [join(server, 'src', 'server.ts')],
    outfile: SERVER_BUNDLE,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: true,
    plugins: [packagesStayOutside],
    logLevel: 'warning',
  });
  return true;
}

if (process.argv[1] === new URL(import.meta.url).pathname) {
  const started = Date.now();
  if (await ensureServerBuild()) console.log(`Server compiled in ${Date.now() - started} ms`);
}
