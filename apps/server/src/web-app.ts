import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
import { escapeHtml } from './lib/html.ts';

/** Vite names every file under `assets/` by its content hash: a changed file gets a new name. */
export const IMMUTABLE_CACHE = 'public, max-age=31536000, immutable';
/** The page and unhashed files are checked with the server on every use, so a release shows at once. */
export const REVALIDATE_CACHE = 'no-cache';

/** Answers a browser route (any GET outside the API) with the app's page. */
export type WebPageSender = (request: FastifyRequest, reply: FastifyReply) => FastifyReply;
/** What the page carries of the tenant for its host: the answer `getHostConfig` would give. */
export type HostConfigOf = (request: FastifyRequest) => { siteName: string } | null;

/**
 * Serves the built web app from `root`: the brotli or gzip copy written at build time when the browser
 * accepts it, hashed assets cached for a year, everything else revalidated. Answers how to send the
 * app's page, or null when there is no build to serve.
 */
export async function registerWebApp(
  app: FastifyInstance,
  root: string,
  hostConfigOf: HostConfigOf,
): Promise<WebPageSender | null> {
  if (!existsSync(join(root, 'index.html'))) return null;
  const pages = tenantPages(readFileSync(join(root, 'index.html'), 'utf8'));
  await app.register(fastifyStatic, {
    root,
    wildcard: false,
    index: false,
    // The page itself is each tenant's own (`pages`), at whatever path it is asked for.
    allowedPath: (path) => path !== '/index.html',
    preCompressed: true,
    cacheControl: false,
    setHeaders: (reply, path) => {
      // `path` is the file sent, which may be the `.br` or `.gz` copy beside the asset.
      const inAssets = relative(root, path).split(sep)[0] === 'assets';
      reply.header('cache-control', inAssets ? IMMUTABLE_CACHE : REVALIDATE_CACHE);
    },
  });
  return (request, reply) => {
    const page = pages(hostConfigOf(request));
    const accepted = String(request.headers['accept-encoding'] ?? '');
    const encoding = /\bbr\b/.test(accepted) ? 'br' : /\bgzip\b/.test(accepted) ? 'gzip' : 'identity';
    const tag = encoding === 'identity' ? page.tag : `${page.tag.slice(0, -1)}-${encoding}"`;
    reply
      .header('cache-control', REVALIDATE_CACHE)
      .header('vary', 'accept-encoding')
      .header('etag', tag)
      .type('text/html; charset=utf-8');
    if (request.headers['if-none-match'] === tag) return reply.code(304).send();
    if (encoding !== 'identity') reply.header('content-encoding', encoding);
    return reply.send(page[encoding]);
  };
}

/** A tenant's page as sent: the text, its compressed copies and their tag. */
interface Page {
  tag: string;
  identity: Buffer;
  br: Buffer;
  gzip: Buffer;
}

/**
 * The page for each host config, made from the built `index.html` once per config and kept (a few per
 * tenant at most: a changed branding makes a new one): the site name in the title and under the splash's
 * mark (`<!--site-name-->`), so the first paint is the tenant's own before any script has run, and the
 * config itself as data (`<!--host-config-->`), so the app starts with it instead of asking for it and
 * then drawing everything again.
 */
function tenantPages(template: string): (config: { siteName: string } | null) => Page {
  const pages = new LRUCache<string, Page>({ max: 500 });
  return (config) => {
    // `<` written as its JSON escape: nothing in the data can close the element it sits in.
    const json = config ? JSON.stringify(config).replace(/</g, '\\u003c') : '';
    let page = pages.get(json);
    if (!page) {
      const name = escapeHtml(config?.siteName ?? '');
      const data = json ? `<script id="host-config" type="application/json">${json}</script>` : '';
      // Replaced by functions: a replacement string would read `$&` and the like in a name as patterns.
      let html = template.replace('<!--host-config-->', () => data);
      if (name)
        html = html
          .replace(/<title>[^<]*<\/title>/, () => `<title>${name}</title>`)
          .replace('<!--site-name-->', () => name);
      const identity = Buffer.from(html);
      page = {
        tag: `"${createHash('sha256').update(identity).digest('base64url').slice(0, 27)}"`,
        identity,
        br: brotliCompressSync(identity, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
        gzip: gzipSync(identity, { level: 9 }),
      };
      pages.set(json, page);
    }
    return page;
  };
}
