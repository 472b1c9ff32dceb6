import { readdirSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { expect, type Page, test } from '@playwright/test';
import { screenshotDir, session } from '../fixtures.ts';

/** The built app the suite's server sends. */
const dist = new URL('../../apps/web/dist/', import.meta.url).pathname;
/** The sign-in page's budget of JavaScript, gzipped (issue 15). */
const SIGN_IN_BUDGET = 350 * 1024;
/**
 * The most script files a signed-in visit to the home page may fetch: the shell is one file (it was
 * some thirty small ones, each a request and a module to set up on a slow phone).
 */
const HOME_SCRIPT_FILES = 14;
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
  expect(scripts.length, scripts.map((s) => s.path).join(' ')).toBeLessThanOrEqual(HOME_SCRIPT_FILES);
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
    /<script src="\/start\.js" data-entry="(\/assets\/[^"]+\.js)" data-preload="([^"]*)" data-styles="([^"]*)" defer>/.exec(
      html,
    );
  const entry = start?.[1];
  expect(entry).toBeTruthy();
  // Nothing of the app is asked for before the first paint: start.js asks for the entry, its imports
  // and antd's stylesheet; the page itself links only its own small stylesheet.
  expect(html).not.toContain('modulepreload');
  expect((start?.[2] ?? '').split(' ').length).toBeGreaterThanOrEqual(2);
  expect(start?.[3]).toMatch(/^\/assets\/antd-[^" ]+\.css$/);
  expect(html.match(/rel="stylesheet"/g)?.length).toBe(1);
  // The tenant's branding comes as data in the page, with nothing in it able to end the element.
  const config = /<script id="host-config" type="application\/json">([^<]*)<\/script>/.exec(html);
  expect(JSON.parse(config?.[1] ?? 'null')).toMatchObject({
    siteName: '货运门户',
    tenant: expect.any(String),
  });
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

test('a page whose antd stylesheet never arrives says so rather than drawing the app unstyled', async ({
  page,
}) => {
  await page.route('**/assets/antd-*.css', (route) => route.abort());
  await page.goto('/login');
  await expect(page.getByRole('alert')).toContainText('The portal could not load; please reload the page.');
  await expect(page.getByTestId('login-email')).toHaveCount(0);
});

test('the splash greets a signed-in visit to the home page, and speaks the language chosen, before the app runs', async ({
  page,
}) => {
  await session(page, 'editor@example.com');
  const name = await page.evaluate(() => JSON.parse(localStorage.getItem('userInfo') ?? '{}').name as string);
  expect(name).toBeTruthy();
  // The app's scripts held back: what shows is the page as the server sent it, and start.js. The
  // language is the one the app keeps (another test may have switched this user's to English).
  await page.route('**/assets/index-*.js', () => undefined);
  await page.evaluate(() => localStorage.setItem('language', JSON.stringify('zh-CN')));
  await page.goto('/home');
  await expect(page.locator('.boot-greeting')).toHaveText(`您好,${name}`);
  await page.evaluate(() => localStorage.setItem('language', JSON.stringify('en-US')));
  await page.goto('/');
  await expect(page.locator('.boot-greeting')).toHaveText(`Hello, ${name}`);
  // The English choice also gives the site's English name and the page's language from the start.
  await expect(page.locator('.boot-name')).toHaveText('Freight Portal');
  await expect(page).toHaveTitle('Freight Portal');
  expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
  await page.screenshot({ path: `${screenshotDir}web-speed-splash-greeting.png` });
  // Another page, or no session: the splash without a greeting.
  await page.goto('/orderList');
  await expect(page.locator('.boot-name')).toBeVisible();
  await expect(page.locator('.boot-greeting')).toHaveCount(0);
  await page.evaluate(() => localStorage.removeItem('token'));
  await page.goto('/home');
  await expect(page.locator('.boot-name')).toBeVisible();
  await expect(page.locator('.boot-greeting')).toHaveCount(0);
  await page.evaluate(() => localStorage.setItem('language', JSON.stringify('zh-CN')));
});
