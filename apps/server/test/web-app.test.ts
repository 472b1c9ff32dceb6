import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { testConfig } from '../src/config.ts';
import type { Database } from '../src/db/client.ts';
import { createTenant, DEFAULT_TENANT_CODE } from '../src/modules/site/service.ts';
import { openTestDatabase } from './helpers.ts';

const compressScript = new URL('../../../scripts/compress-web.mjs', import.meta.url).pathname;
const root = mkdtempSync(join(tmpdir(), 'fp-web-'));
const page = `<!doctype html><html><head><title>Portal</title><script type="module" src="/assets/index-Ab12Cd34.js"></script></head><body><div id="root"><p class="boot-name"><!--site-name--></p></div><!--host-config-->${'<!-- portal -->'.repeat(40)}</body></html>`;
/** The default tenant's site name, with every character HTML gives a meaning. */
const SITE_NAME = `Fast <b>&"co"'$&$\``;
const ESCAPED = 'Fast &#60;b&#62;&#38;&#34;co&#34;&#39;$&#38;$`';
/** The page as the default tenant's visitors get it: its name in the title and under the splash. */
const tenantPage = (html: string) =>
  page
    .replace('<title>Portal</title>', () => `<title>${ESCAPED}</title>`)
    .replace('<!--site-name-->', () => ESCAPED)
    .replace(
      '<!--host-config-->',
      () => /<script id="host-config"[^>]*>[^<]*<\/script>/.exec(html)?.[0] ?? '',
    );

/** The branding the page carries as data, read as the app reads it. */
function hostConfigIn(html: string): Record<string, unknown> {
  const data = /<script id="host-config" type="application\/json">([^<]*)<\/script>/.exec(html)?.[1];
  expect(data).toBeTruthy();
  return JSON.parse(data as string);
}
const script = `export const greeting = ${JSON.stringify('freight '.repeat(2000))};\n`;

let app: FastifyInstance;
let database: Database;

beforeAll(async () => {
  mkdirSync(join(root, 'assets'));
  writeFileSync(join(root, 'index.html'), page);
  writeFileSync(join(root, 'assets', 'index-Ab12Cd34.js'), script);
  writeFileSync(
    join(root, 'favicon.svg'),
    `<svg xmlns="http://www.w3.org/2000/svg">${' '.repeat(600)}</svg>`,
  );
  // The build step the start script runs: brotli and gzip copies beside each file.
  execFileSync(process.execPath, [compressScript, root]);
  database = await openTestDatabase();
  await createTenant(database.db, { code: DEFAULT_TENANT_CODE, name: SITE_NAME });
  app = await buildApp({
    config: testConfig({ DATA_DIR: `/tmp/fp-test-${process.pid}` }),
    database,
    mailer: null,
    webRoot: root,
  });
  await app.ready();
});

afterAll(async () => {
  await app?.close();
  await database?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('the built web app', () => {
  it('is compressed at build time, brotli and gzip, beside each file', () => {
    for (const name of ['index.html', 'assets/index-Ab12Cd34.js', 'favicon.svg']) {
      expect(existsSync(join(root, `${name}.br`))).toBe(true);
      expect(existsSync(join(root, `${name}.gz`))).toBe(true);
    }
  });

  it('answers a browser route with the brotli page that is revalidated on every visit', async () => {
    const res = await app.inject({ url: '/login', headers: { 'accept-encoding': 'br, gzip' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers.vary).toContain('accept-encoding');
    const html = brotliDecompressSync(res.rawPayload).toString();
    expect(html).toBe(tenantPage(html));
  });

  it("carries the tenant's branding as data, as getHostConfig answers it, with nothing able to end the element", async () => {
    const res = await app.inject({ url: '/home', headers: { 'accept-encoding': 'identity' } });
    const answer = await app.inject({ method: 'POST', url: '/api/admin/auth/getHostConfig', payload: {} });
    expect(hostConfigIn(res.body)).toEqual(answer.json().data);
    expect(hostConfigIn(res.body).siteName).toBe(SITE_NAME);
    // The site name's `<b>` is written as `\u003c`: the data holds no `<` at all.
    expect(
      /<script id="host-config" type="application\/json">([^<]*)<\/script>/.exec(res.body)?.[1],
    ).toContain('\\u003cb>');
  });

  it("puts the tenant's site name in the page, escaped, and answers a page the browser holds with 304", async () => {
    const gzip = await app.inject({ url: '/orders/list', headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    const unzipped = gunzipSync(gzip.rawPayload).toString();
    expect(unzipped).toBe(tenantPage(unzipped));
    const plain = await app.inject({ url: '/home', headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(tenantPage(plain.body));
    // The built file asked for by name is the tenant's page too, not the template.
    const byName = await app.inject({ url: '/index.html', headers: { 'accept-encoding': 'identity' } });
    expect(byName.body).toBe(tenantPage(byName.body));
    // Each copy has its own tag; the one the browser holds is answered without a body.
    expect(gzip.headers.etag).not.toBe(plain.headers.etag);
    const again = await app.inject({
      url: '/home',
      headers: { 'accept-encoding': 'gzip', 'if-none-match': String(gzip.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
    const other = await app.inject({
      url: '/home',
      headers: { 'accept-encoding': 'br', 'if-none-match': String(gzip.headers.etag) },
    });
    expect(other.statusCode).toBe(200);
  });

  it('serves a hashed asset compressed and cached for a year as immutable', async () => {
    const res = await app.inject({
      url: '/assets/index-Ab12Cd34.js',
      headers: { 'accept-encoding': 'br' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toContain('javascript');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const body = brotliDecompressSync(res.rawPayload).toString();
    expect(body).toBe(script);
    expect(res.rawPayload.length).toBeLessThan(script.length / 10);
  });

  it('sends gzip to a browser without brotli and the plain file to one that accepts neither', async () => {
    const gzip = await app.inject({
      url: '/assets/index-Ab12Cd34.js',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(script);

    const plain = await app.inject({
      url: '/assets/index-Ab12Cd34.js',
      headers: { 'accept-encoding': 'identity' },
    });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('keeps unhashed files outside the assets folder revalidated', async () => {
    const res = await app.inject({ url: '/favicon.svg', headers: { 'accept-encoding': 'gzip' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers['cache-control']).toBe('no-cache');
  });

  it('keeps its scripts on the scheme the page came by, so a plain-HTTP tenant host works', async () => {
    const res = await app.inject({ url: '/login', headers: { host: 'portal.example.test' } });
    const policy = String(res.headers['content-security-policy']);
    expect(policy).toContain("script-src 'self'");
    expect(policy).not.toContain('upgrade-insecure-requests');
  });

  it('sends the same security headers with every answer: the page, an asset, an API answer', async () => {
    for (const url of ['/login', '/favicon.svg', '/api/health', '/api/nothing-here']) {
      const res = await app.inject({ url });
      expect(res.headers, url).toMatchObject({
        'content-security-policy': expect.stringContaining("default-src 'self'"),
        'strict-transport-security': 'max-age=31536000; includeSubDomains',
        'x-frame-options': 'SAMEORIGIN',
        'x-content-type-options': 'nosniff',
        'referrer-policy': 'no-referrer',
        'cross-origin-opener-policy': 'same-origin',
      });
    }
  });

  it('still answers unknown API paths in the envelope, not with the page', async () => {
    const res = await app.inject({ url: '/api/nothing-here', headers: { 'accept-encoding': 'br' } });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 404, data: null });
  });
});
