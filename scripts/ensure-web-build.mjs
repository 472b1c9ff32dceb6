// Builds the web app when its build is missing or older than its sources, so `npm start` serves it, and
// writes the compressed copies the server sends to browsers that accept them.
import { execSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { compressWebBuild, needsCompression } from './compress-web.mjs';
import { newest } from './newest.mjs';

const web = new URL('../apps/web/', import.meta.url).pathname;
const contracts = new URL('../packages/contracts/src/', import.meta.url).pathname;
const stamp = join(web, 'dist', 'index.html');

const sources = [
  join(web, 'src'),
  join(web, 'index.html'),
  join(web, 'vite.config.ts'),
  join(web, 'public'),
  contracts,
].filter(existsSync);
const stale = !existsSync(stamp) || Math.max(...sources.map(newest)) > statSync(stamp).mtimeMs;
if (stale) {
  console.log('Building the web app…');
  execSync('npm run build -w @freight/web', { stdio: 'inherit' });
}
const dist = join(web, 'dist');
if (stale || needsCompression(dist)) {
  console.log(`Compressing the web app… ${compressWebBuild(dist)} copies written`);
}
