import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The server package's folder (`apps/server`), for the files it reads at run time (migrations, the
 * web build, the release's version). This file sits one folder below it both as source (`src/`) and
 * compiled into the bundle (`dist/server.js`), so one anchor serves both ways of running.
 */
export const SERVER_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The database migrations, shipped as SQL beside the source. */
export const MIGRATIONS_DIR = join(SERVER_ROOT, 'src', 'db', 'migrations');

/** The built web app the server hands out (`npm run build`). */
export const WEB_DIST = join(SERVER_ROOT, '..', 'web', 'dist');

/** The repository's package file, whose version is the release's. */
export const ROOT_PACKAGE = join(SERVER_ROOT, '..', '..', 'package.json');
