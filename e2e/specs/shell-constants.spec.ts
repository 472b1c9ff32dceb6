import { expect, type Page, test } from '@playwright/test';
import { api, screenshotDir, session, switchLanguage } from '../fixtures.ts';

// SPEC sections 2 and 9: what the shell and every list share.
test.describe.configure({ mode: 'serial' });

/** Moves inside the single-page app without reloading it (a reload would forget the visited tabs). */
/**
 * Real time for the page to draw what a timer on its held clock has just started: its renders run as
 * tasks that clock does not hold, and a check made at once would pass on the frame before them.
 */
async function settled(page: Page) {
  await page.waitForTimeout(500);
}

async function visit(page: Page, path: string) {
  await page.evaluate((to) => {
    window.history.pushState({}, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
  await expect(page).toHaveURL(new RegExp(`${path}$`));
}

test('every list pages by 10, 20, 50, 100 or 200 with total, sizes, prev, pager, next and jumper', async ({
  page,
}) => {
  await session(page, 'admin@example.com');
  // Each language change is one line of the operation log: enough lines for more than one page.
  for (let i = 0; i < 12; i++) await api(page, '/admin/auth/setLocale', { locale: 'zh_CN' });
  await page.goto('/operationLog');
  const card = page.locator('.page-card');
  const rows = card.locator('tbody tr.ant-table-row');
  await expect(rows).toHaveCount(10);
  const pager = card.locator('.ant-pagination');
  await expect(pager.locator('.ant-pagination-total-text')).toContainText('共');

  // The parts stand in the SPEC's order, left to right.
  const lefts = await pager.evaluate((ul) =>
    [
      '.ant-pagination-total-text',
      '.ant-pagination-options-size-changer',
      '.ant-pagination-prev',
      '.ant-pagination-item-1',
      '.ant-pagination-next',
      '.ant-pagination-options-quick-jumper',
    ].map((selector) => ul.querySelector(selector)?.getBoundingClientRect().left ?? -1),
  );
  expect(lefts.every((left) => left >= 0)).toBe(true);
  expect([...lefts].sort((a, b) => a - b)).toEqual(lefts);

  // Sizes 10 to 200; choosing 20 asks the server for 20 rows.
  await pager.locator('.ant-pagination-options-size-changer').click();
  const options = page.locator('.ant-select-dropdown:visible .ant-select-item-option');
  await expect(options).toHaveText(['10 条/页', '20 条/页', '50 条/页', '100 条/页', '200 条/页']);
  const asked = page.waitForRequest(
    (r) => r.url().includes('/api/admin/operationLog/list') && r.method() === 'POST',
  );
  await options.filter({ hasText: '20 条/页' }).click();
  expect((await asked).postDataJSON()).toMatchObject({ page: 1, limit: 20 });
  // The new rows are drawn once the answer is in.
  await expect.poll(() => rows.count()).toBeGreaterThan(10);
  await expect(page.locator('.ant-select-dropdown:visible')).toHaveCount(0);

  // The jumper goes to a page.
  await pager.locator('.ant-pagination-options-size-changer').click();
  await options.filter({ hasText: '10 条/页' }).click();
  await expect(rows).toHaveCount(10);
  const jumper = pager.locator('.ant-pagination-options-quick-jumper input');
  await jumper.fill('2');
  await jumper.press('Enter');
  await expect(pager.locator('.ant-pagination-item-active')).toHaveText('2');

  // The table is the window's height less 365 px less 50 px per extra row of filters, and every
  // column is at least 80 px wide.
  const sizes = await card.evaluate((el) => ({
    maxHeight: Number.parseFloat(
      getComputedStyle(el.querySelector('.ant-table-content') as Element).maxHeight,
    ),
    extraRows: Number(getComputedStyle(el).getPropertyValue('--filter-extra-rows') || 0),
    window: window.innerHeight,
    header: getComputedStyle(el.querySelector('.ant-table-thead th') as Element).position,
    narrowest: Math.min(
      ...Array.from(el.querySelectorAll('.ant-table-thead th'), (th) => th.getBoundingClientRect().width),
    ),
  }));
  expect(sizes.maxHeight).toBe(Math.max(300, sizes.window - 365 - 50 * sizes.extraRows));
  expect(sizes.header).toBe('sticky');
  expect(sizes.narrowest).toBeGreaterThanOrEqual(80);
  await page.screenshot({ path: `${screenshotDir}list-pager-zh.png` });

  // A list the page holds whole pages the same way.
  await page.goto('/balanceTotal');
  const balances = page.locator('.page-card .ant-pagination');
  await expect(balances.locator('.ant-pagination-total-text')).toBeVisible();
  await expect(balances.locator('.ant-pagination-options-size-changer')).toContainText('10 条/页');
  // Its columns follow their content: text plus 20 px each side.
  const padding = await page
    .locator('.page-card .ant-table-thead th')
    .first()
    .evaluate((th) => [getComputedStyle(th).paddingLeft, getComputedStyle(th).paddingRight]);
  expect(padding).toEqual(['20px', '20px']);
});

test('tabs close to the left, to the right and all; the pinned home tab stays', async ({ page }) => {
  await session(page, 'admin@example.com');
  const tabs = page.getByTestId('tabs-bar');
  // Each page is opened as a person does: the next one once this one's tab is there.
  for (const path of ['/basicSettings', '/operationLog', '/site-configuration', '/staff-management']) {
    await visit(page, path);
    await expect(tabs.getByTestId(`tab-${path}`)).toBeVisible();
  }
  await expect(tabs.locator('[data-testid^="tab-/"]')).toHaveCount(5);
  await expect(tabs.getByTestId('tab-/home')).toBeVisible();
  // The home tab cannot be closed.
  await expect(tabs.getByTestId('tab-close-/home')).toHaveCount(0);

  // From the operation log's own menu: close the tabs on its left (home stays).
  await tabs.getByTestId('tab-/operationLog').click({ button: 'right' });
  await page.getByRole('menuitem', { name: '关闭左侧' }).click();
  // A menu fades out as it closes: the next one is opened once this one is gone, as a person would.
  await expect(page.getByRole('menuitem', { name: '关闭左侧' })).toBeHidden();
  await expect(tabs.getByTestId('tab-/basicSettings')).toHaveCount(0);
  await expect(tabs.getByTestId('tab-/home')).toBeVisible();
  // From the site configuration's menu: close the ones on its right, which takes the active tab; the
  // user goes to the last tab left.
  await tabs.getByTestId('tab-/site-configuration').click({ button: 'right' });
  await page.getByRole('menuitem', { name: '关闭右侧' }).click();
  await expect(page.getByRole('menuitem', { name: '关闭右侧' })).toBeHidden();
  await expect(tabs.getByTestId('tab-/staff-management')).toHaveCount(0);
  await expect(page).toHaveURL(/\/site-configuration$/);
  await expect(tabs.locator('[data-testid^="tab-/"]')).toHaveCount(3);

  // Close all: only the pinned home is left, and the user is on it.
  await page.getByTestId('tabs-actions').click();
  await page.getByRole('menuitem', { name: '关闭全部' }).click();
  await expect(tabs.locator('[data-testid^="tab-/"]')).toHaveCount(1);
  await expect(page).toHaveURL(/\/home$/);
});

test('the theme drawer keeps its choices in this browser: tabs off, header not fixed', async ({ page }) => {
  await session(page, 'editor@example.com');
  await page.getByTestId('theme-open').click();
  const drawer = page.getByTestId('theme-drawer');
  await drawer.getByTestId('theme-tabs-switch').click();
  await drawer.getByTestId('theme-fixed-header-switch').click();
  await drawer.getByTestId('theme-glory').click();
  await expect(page.getByTestId('tabs-bar')).toHaveCount(0);
  await page.keyboard.press('Escape');
  await page.reload();
  await expect(page.getByTestId('home-greeting')).toBeVisible();
  await expect(page.getByTestId('tabs-bar')).toHaveCount(0);
  await expect(page.locator('.app-header')).not.toHaveClass(/fixed/);
  const saved = await page.evaluate(() => JSON.parse(localStorage.getItem('theme') ?? '{}'));
  expect(saved).toMatchObject({ tabs: false, fixedHeader: false, theme: 'glory' });
  const primary = await page.evaluate(() =>
    getComputedStyle(document.documentElement).getPropertyValue('--primary').trim().toLowerCase(),
  );
  expect(primary).toBe('#2f54eb');
  // Nine light shades of the colour, 0.1 apart.
  const shades = await page.evaluate(() =>
    [1, 5, 9].map((i) => getComputedStyle(document.documentElement).getPropertyValue(`--primary-light-${i}`)),
  );
  expect(shades.map((s) => s.trim())).toEqual([
    'rgba(47, 84, 235, 0.1)',
    'rgba(47, 84, 235, 0.5)',
    'rgba(47, 84, 235, 0.9)',
  ]);

  // Reset brings back the default colour and the tabs.
  await page.getByTestId('theme-open').click();
  await page.getByTestId('theme-drawer').getByTestId('theme-reset').click();
  await expect(page.getByTestId('tabs-bar')).toBeVisible();
  const reset = await page.evaluate(() =>
    getComputedStyle(document.documentElement).getPropertyValue('--primary').trim().toLowerCase(),
  );
  expect(reset).toBe('#ff6d1f');
});

test('the side menu is 200 px, 70 px folded; below 992 px it shows, then folds itself after 2 s', async ({
  page,
}) => {
  await session(page, 'admin@example.com');
  const sider = page.locator('.app-sider');
  await expect(sider).toBeVisible();
  await expect.poll(async () => (await sider.boundingBox())?.width).toBe(200);
  await page.getByTestId('menu-toggle').click();
  await expect.poll(async () => (await sider.boundingBox())?.width).toBe(70);
  await page.getByTestId('menu-toggle').click();
  await expect.poll(async () => (await sider.boundingBox())?.width).toBe(200);

  const drawerMenu = page.locator('.ant-drawer').getByTestId('side-menu');
  // Timed on the page's own clock held still: on a busy machine a real 2 s timer fires late, so
  // wall time says nothing about the 2 s the shell asks for.
  await page.clock.install();
  await page.clock.pauseAt(new Date(Date.now() + 60_000));
  await page.setViewportSize({ width: 991, height: 800 });
  await expect(drawerMenu).toBeVisible();
  await expect(page.locator('.app-sider')).toHaveCount(0);
  // Open, not only still drawn: a drawer that shuts stays on screen until its closing motion ends.
  const openDrawer = page.locator('.ant-drawer-open');
  await page.clock.runFor(1_900);
  await settled(page);
  await expect(openDrawer).toHaveCount(1);
  await page.clock.runFor(200);
  await expect(openDrawer).toHaveCount(0);
  await page.clock.resume();
  await expect(drawerMenu).toBeHidden();
  // At 992 px it is the desktop layout again.
  await page.setViewportSize({ width: 992, height: 800 });
  await expect(page.locator('.app-sider')).toBeVisible();
});

test('the error-log panel lists what went wrong, with its route, and clears', async ({ page }) => {
  await session(page, 'admin@example.com');
  await expect(page.getByTestId('error-log-open')).toHaveCount(0);
  await page.goto('/operationLog');
  await page.locator('.page-card').waitFor();
  // A script error and a promise nobody waited for.
  await page.evaluate(() => {
    window.dispatchEvent(
      new ErrorEvent('error', { message: 'probe script error', error: new Error('probe script error') }),
    );
    void Promise.reject(new Error('probe rejection'));
  });
  await page.getByTestId('error-log-open').click();
  const panel = page.getByTestId('error-log-panel');
  await expect(panel.getByRole('cell', { name: 'probe script error', exact: true })).toBeVisible();
  await expect(panel.getByRole('cell', { name: 'probe rejection', exact: true })).toBeVisible();
  await expect(panel.getByRole('cell', { name: '/operationLog' }).first()).toBeVisible();
  await page.screenshot({ path: `${screenshotDir}error-log-zh.png` });
  await panel.getByTestId('error-log-clear').click();
  await expect(panel.getByRole('cell', { name: 'probe script error', exact: true })).toHaveCount(0);
});

test('the bell opens the notices and counts the unread ones', async ({ page }) => {
  await session(page, 'admin@example.com');
  const unread = async () =>
    (await api(page, '/admin/notice/list', { read: 'unread', page: 1, limit: 10 })).total;
  const title = `Shell bell ${Date.now()}`;
  const saved = await api(page, '/admin/notice/announcementSave', {
    title,
    content: '<p>The bell counts this one.</p>',
    type: 2,
    audience: 'identity',
    identities: ['employee'],
  });
  await api(page, '/admin/notice/announcementPublish', { id: saved.id });
  try {
    const before = await unread();
    expect(before).toBeGreaterThan(0);
    await page.goto('/operationLog');
    const bell = page.getByTestId('notice-bell');
    // The announcement pops up as a dialog on load (with any other notice not read yet).
    const dialogs = page.locator('.ant-modal-confirm:visible');
    await expect(dialogs.filter({ hasText: title })).toBeVisible();
    await expect(bell).toHaveAttribute('data-unread', String(before));
    await expect(page.getByTestId('notice-bell-count')).toContainText(String(before));
    await page.screenshot({ path: `${screenshotDir}notice-bell-zh.png` });
    // Dismissing a dialog reads its notice.
    for (let i = 0; i < 20 && (await dialogs.count()) > 0; i++) {
      await dialogs.last().locator('.ant-modal-confirm-btns button').click();
      await page.waitForTimeout(400);
    }
    await expect.poll(unread).toBeLessThan(before);
    const after = await unread();
    // The bell opens the notices and counts again on the way.
    await bell.click();
    await expect(page).toHaveURL(/\/notification$/);
    await expect(bell).toHaveAttribute('data-unread', String(after));
    const row = page.getByRole('row', { name: new RegExp(title) });
    await expect(row.getByTestId('notice-state')).toHaveText('已读');
  } finally {
    await api(page, '/admin/notice/announcementWithdraw', { id: saved.id });
  }
});

test('a route change runs the top progress bar, 500 ms a step; the reload icon pulses 1 s', async ({
  page,
}) => {
  await session(page, 'admin@example.com');
  const bar = page.getByTestId('top-progress');
  await expect(bar).toHaveCount(0);
  await visit(page, '/operationLog');
  await expect(bar).toHaveCount(1);
  expect(await bar.evaluate((el) => el.style.transition)).toContain('500ms');
  await expect(bar).toHaveCount(0, { timeout: 10_000 });

  // How long the reload icon spins, on the page's own clock held still: on a busy machine a real
  // timer fires late, so wall time says nothing about the 1 s the shell asks for.
  const icon = page.getByTestId('reload-route').locator('.anticon-reload');
  await page.clock.install();
  await page.clock.pauseAt(new Date(Date.now() + 60_000));
  await page.getByTestId('reload-route').click();
  await expect(icon).toHaveClass(/anticon-spin/);
  await page.clock.runFor(990);
  await settled(page);
  await expect(icon).toHaveClass(/anticon-spin/);
  await page.clock.runFor(20);
  await expect(icon).not.toHaveClass(/anticon-spin/);
  await page.clock.resume();
  await expect(page.locator('.page-card')).toBeVisible();
});

test('public routes answer without a session; unknown ones go to 404; IE users are told to update', async ({
  browser,
}) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  for (const path of ['/test', '/test2', '/ceshi']) {
    await page.goto(path);
    await expect(page.getByTestId('status')).toBeVisible();
  }
  for (const [path, code] of [
    ['/401', '401'],
    ['/404', '404'],
    ['/error/401', '401'],
    ['/error/404', '404'],
  ] as const) {
    await page.goto(path);
    await expect(page).toHaveURL(new RegExp(`${path}$`));
    await expect(page.locator('.ant-result-title')).toBeVisible();
    await expect(page.locator('.ant-result')).toHaveClass(new RegExp(code === '401' ? '403' : '404'));
  }
  // /error alone has nothing to show: it is the 404 page.
  await page.goto('/error');
  await expect(page).toHaveURL(/\/404$/);
  for (const path of ['/login', '/register', '/forgotPassword']) {
    await page.goto(path);
    await expect(page).toHaveURL(new RegExp(`${path}$`));
  }
  // Without a session a private page asks for a sign-in.
  await page.goto('/orderList');
  await expect(page).toHaveURL(/\/login$/);
  await context.close();

  const ie = await browser.newContext({
    userAgent: 'Mozilla/5.0 (Windows NT 10.0; WOW64; Trident/7.0; rv:11.0) like Gecko',
  });
  const old = await ie.newPage();
  await old.goto('/login');
  await expect(old.getByRole('heading', { name: '温馨提示' })).toBeVisible();
  await old.screenshot({ path: `${screenshotDir}ie-notice.png` });
  await ie.close();
});

test('the shell in both languages, on a desktop and on a phone', async ({ page }) => {
  await session(page, 'admin@example.com');
  for (const language of ['zh', 'en'] as const) {
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto('/operationLog');
    if (language === 'en') await switchLanguage(page, 'en');
    await expect(page.locator('.page-card .ant-pagination')).toBeVisible();
    await page.screenshot({ path: `${screenshotDir}shell-list-${language}-desktop.png` });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/home');
    await expect(page.getByTestId('home-greeting')).toBeVisible();
    // The menu shows on arrival, then folds away.
    await expect(page.locator('.ant-drawer').getByTestId('side-menu')).toBeHidden({ timeout: 5_000 });
    await page.screenshot({ path: `${screenshotDir}shell-home-${language}-mobile.png` });
    await page.getByTestId('menu-toggle').click();
    await expect(page.locator('.ant-drawer').getByTestId('side-menu')).toBeVisible();
    // Let the drawer finish sliding in before the picture.
    await page.waitForTimeout(400);
    await page.screenshot({ path: `${screenshotDir}shell-menu-${language}-mobile.png` });
  }
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/home');
  await switchLanguage(page, 'zh');
});
