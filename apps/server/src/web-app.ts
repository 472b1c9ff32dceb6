import { existsSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';

/** Vite names every file under `assets/` by its content hash: a changed file gets a new name. */
export const IMMUTABLE_CACHE = 'public, max-age=31536000, immutable';
/** The page and unhashed files are checked with the server on every use, so a release shows at once. */
export const REVALIDATE_CACHE = 'no-cache';

/**
 * Serves the built web app from `root`: the brotli or gzip copy written at build time when the browser
 * accepts it, hashed assets cached for a year, everything else revalidated. Returns false when there is
 * no build to serve.
 */
export async function registerWebApp(app: FastifyInstance, root: string): Promise<boolean> {
  if (!existsSync(join(root, 'index.html'))) return false;
  await app.register(fastifyStatic, {
    root,
    wildcard: false,
    index: false,
    preCompressed: true,
    cacheControl: false,
    setHeaders: (reply, path) => {
      // `path` is the file sent, which may be the `.br` or `.gz` copy beside the asset.
      const inAssets = relative(root, path).split(sep)[0] === 'assets';
      reply.header('cache-control', inAssets ? IMMUTABLE_CACHE : REVALIDATE_CACHE);
    },
  });
  return true;
}

/** Answers a browser route (any GET outside the API) with the app's page. */
export function sendWebPage(reply: FastifyReply): FastifyReply {
  return reply.type('text/html; charset=utf-8').sendFile('index.html');
}
