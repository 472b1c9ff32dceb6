import { readdirSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { expect, type Page, test } from '@playwright/test';
import { screenshotDir, session } from '../fixtures.ts';

/** The built app the suite's server sends. */
const dist = new URL('../../apps/web/dist/', import.meta.url).pathname;
/** The sign-in page's budget of JavaScript, gzipped (issue 15). */
const SIGN_IN_BUDGET = 350 * 1024;
/**
 * Text only the named part of the app contains, to tell which parts a page loaded: names minifying
 * keeps (a test id, an API method of the charts library, the editor's class name).
 */
const MARKERS = { shell: 'menu-toggle', charts: 'getZr', editor: 'ProseMirror' } as const;

test('each part marker is in the build, so its absence from a page means something', () => {
  const built = readdirSync(`${dist}assets`)
    .filter((name) => name.endsWith('.js'))
    .map((name) => readFileSync(`${dist}assets/${name}`, 'utf8'));
  for (const [part, marker] of Object.entries(MARKERS))
    expect(
      built.some((text) => text.includes(marker)),
      `${part} (${marker})`,
    ).toBe(true);
});

/** Every script the page fetched from the app's own build, read back from the built files. */
async function scriptsOf(page: Page, open: () => Promise<void>) {
  const paths = new Set<string>();
  page.on('response', (response) => {
    if (response.request().resourceType() === 'script') paths.add(new URL(response.url()).pathname);
  });
  await open();
  await page.waitForLoadState('networkidle');
  return [...paths].map((path) => {
    const text = readFileSync(`${dist}${path.slice(1)}`);
    return { path, text: text.toString('utf8'), gzipped: gzipSync(text).length };
  });
}

const loaded = (scripts: { text: string }[], marker: string) => scripts.some((s) => s.text.includes(marker));

test('the sign-in page stays within its JavaScript budget and loads no part of the shell', async ({
  page,
}) => {
  const scripts = await scriptsOf(page, async () => {
    await page.goto('/login');
    await expect(page.getByTestId('login-submit')).toBeVisible();
  });
  const total = scripts.reduce((sum, s) => sum + s.gzipped, 0);
  console.log(`sign-in page: ${scripts.length} scripts, ${(total / 1024).toFixed(1)} KB gzipped`);
  expect(total, `sign-in JavaScript ${(total / 1024).toFixed(1)} KB gzipped`).toBeLessThanOrEqual(
    SIGN_IN_BUDGET,
  );
  expect(loaded(scripts, MARKERS.shell), 'the shell').toBe(false);
  expect(loaded(scripts, MARKERS.charts), 'charts').toBe(false);
  expect(loaded(scripts, MARKERS.editor), 'the editor').toBe(false);
  await page.screenshot({ path: `${screenshotDir}web-speed-login.png` });
});

test('the home page loads the shell but neither charts nor the editor', async ({ page }) => {
  const scripts = await scriptsOf(page, () => session(page, 'editor@example.com'));
  expect(loaded(scripts, MARKERS.shell), 'the shell').toBe(true);
  expect(loaded(scripts, MARKERS.charts), 'charts').toBe(false);
  expect(loaded(scripts, MARKERS.editor), 'the editor').toBe(false);
  // The features' strings arrive with the shell.
  await expect(page.getByTestId('home-greeting')).toBeVisible();
  await page.screenshot({ path: `${screenshotDir}web-speed-home.png` });
});

test('the server sends the build compressed, hashed files cached for a year and the page revalidated', async ({
  request,
}) => {
  const page = await request.get('/login', { headers: { 'accept-encoding': 'br, gzip' } });
  expect(page.headers()['cache-control']).toBe('no-cache');
  const html = await page.text();
  // The app starts from its entry once the page (the splash, with the demo tenant's site name) is drawn.
  expect(html).toContain('<p class="boot-name">货运门户</p>');
  const start =
    /<script src="\/start\.js" data-entry="(\/assets\/[^"]+\.js)" data-preload="([^"]*)" defer>/.exec(html);
  const entry = start?.[1];
  expect(entry).toBeTruthy();
  // Nothing of the app is asked for before the first paint: start.js asks for the entry and its imports.
  expect(html).not.toContain('modulepreload');
  expect((start?.[2] ?? '').split(' ').length).toBeGreaterThanOrEqual(2);
  for (const encoding of ['br', 'gzip']) {
    const asset = await request.get(entry as string, { headers: { 'accept-encoding': encoding } });
    expect(asset.status()).toBe(200);
    expect(asset.headers()['content-encoding']).toBe(encoding);
    expect(asset.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
  }
});

test('a page whose scripts never arrive says so in both languages instead of showing the splash for good', async ({
  page,
}) => {
  await page.route('**/assets/index-*.js', (route) => route.abort());
  await page.goto('/login');
  const alert = page.getByRole('alert');
  await expect(alert).toContainText('The portal could not load; please reload the page.');
  await expect(alert).toContainText('门户加载失败');
});
