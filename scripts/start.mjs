// `npm start`: the web app and the server built when missing or older than their sources (an install
// builds both, so a start normally finds them current), then the compiled server, in this one process:
// a start pays for one node, not a chain of them. It runs from `apps/server`, whose `./data` holds the
// embedded database and uploads unless DATA_DIR says otherwise.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = new URL('..', import.meta.url).pathname;
await import('./ensure-web-build.mjs');
const { ensureServerBuild, SERVER_BUNDLE } = await import('./ensure-server-build.mjs');
await ensureServerBuild();
process.setSourceMapsEnabled(true);
process.chdir(join(root, 'apps', 'server'));
await import(pathToFileURL(SERVER_BUNDLE).href);
