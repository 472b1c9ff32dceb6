import { expect, test } from '@playwright/test';
import { forgetSession, screenshotDir, session } from '../fixtures.ts';

test.describe.configure({ mode: 'serial' });

test('the staff administrator signs in with the mailed code and sees the whole menu', async ({ page }) => {
  await session(page, 'admin@example.com');
  await expect(page.getByTestId('home-greeting')).toBeVisible();
  const menu = page.getByTestId('side-menu');
  await expect(menu.getByTestId('menu-/area-rights')).toBeVisible();
  await expect(menu.getByTestId('menu-/area-customers')).toBeVisible();
  await page.screenshot({ path: `${screenshotDir}home-admin-zh.png` });

  // Tabs: open three pages, close one, then close the others; home stays pinned.
  await menu.getByTestId('menu-/area-rights').click();
  await menu.getByTestId('menu-/basicSettings').click();
  // Role names read in the interface's language.
  await expect(page.getByRole('cell', { name: '超级管理员' })).toBeVisible();
  await page.screenshot({ path: `${screenshotDir}roles-zh.png` });
  await menu.getByTestId('menu-/operationLog').click();
  // Sign-ins are among what earlier specs did; the action filter finds them however much came after.
  // The action is picked by its name in words; the log shows the name, not the key.
  const action = page.locator('.filter-bar input#action');
  await action.click();
  await action.fill('登录');
  await page.locator('.ant-select-item-option[title="登录"]').click();
  await page.locator('.filter-bar:has(input#action)').getByTestId('filter-search').click();
  await expect(page.getByRole('cell', { name: '登录', exact: true }).first()).toBeVisible();
  await expect(page.getByRole('cell', { name: 'auth.login' })).toHaveCount(0);
  await page.screenshot({ path: `${screenshotDir}operation-log-zh.png` });
  await menu.getByTestId('menu-/area-site').click();
  await menu.getByTestId('menu-/site-configuration').click();
  await expect(page.getByTestId('site-name')).toHaveValue('货运门户');
  const tabs = page.getByTestId('tabs-bar');
  await expect(tabs.getByTestId('tab-/basicSettings')).toBeVisible();
  await tabs.getByTestId('tab-close-/site-configuration').click();
  // Closing the active tab goes to the last one left.
  await expect(page).toHaveURL(/\/operationLog$/);
  await expect(tabs.getByTestId('tab-/site-configuration')).toHaveCount(0);
  await page.getByTestId('tabs-actions').click();
  await page.getByRole('menuitem', { name: '关闭其他' }).click();
  await expect(tabs.getByTestId('tab-/basicSettings')).toHaveCount(0);
  await expect(tabs.getByTestId('tab-/home')).toBeVisible();
  await expect(tabs.getByTestId('tab-/operationLog')).toBeVisible();

  // A page opened by its address loads into the shell (the data reports, once a placeholder).
  await page.goto('/financialStatements');
  await expect(page.getByTestId('reports-table')).toBeVisible();
  await expect(tabs.getByTestId('tab-/financialStatements')).toBeVisible();
  // Unknown paths go to /404.
  await page.goto('/no-such-page');
  await expect(page).toHaveURL(/\/404$/);
});

test('the language and the theme stay after a reload, in every string', async ({ page }) => {
  await session(page, 'editor@example.com');
  const menu = page.getByTestId('side-menu');
  // The editor runs the business but has no rights management.
  await expect(menu.getByTestId('menu-/area-rights')).toHaveCount(0);
  await expect(menu.getByTestId('menu-/area-site')).toBeVisible();

  await page.getByTestId('lang-switch').click();
  await page.getByTestId('lang-en').click();
  await expect(menu.getByTestId('menu-/area-orders')).toHaveText('Orders');
  await page.getByTestId('theme-open').click();
  await page.getByTestId('theme-green').click();
  await page.getByTestId('layout-horizontal').click();
  await page.keyboard.press('Escape');
  await page.reload();
  await expect(page.getByTestId('side-menu').getByTestId('menu-/area-orders')).toHaveText('Orders');
  const theme = await page.evaluate(() => JSON.parse(localStorage.getItem('theme') ?? '{}'));
  expect(theme).toMatchObject({ theme: 'green', layout: 'horizontal' });
  const primary = await page.evaluate(() =>
    getComputedStyle(document.documentElement).getPropertyValue('--primary'),
  );
  expect(primary.trim().toLowerCase()).toBe('#13a66c');
  await expect(page.getByTestId('home-greeting')).toBeVisible();
  await page.screenshot({ path: `${screenshotDir}home-editor-en-horizontal.png` });
  // The server keeps the language too: messages now come back in English.
  const info = await page.evaluate(async () => {
    const res = await fetch('/api/admin/admin/info', {
      method: 'POST',
      headers: { accessToken: localStorage.getItem('token') ?? '' },
    });
    return (await res.json()).data.language;
  });
  expect(info).toBe('en');
  await page.getByTestId('theme-open').click();
  await page.getByRole('button', { name: 'Reset' }).click();
});

test('a customer sees its own pages only, and is sent to 401 for staff pages', async ({ page }) => {
  await session(page, 'customer@example.com');
  const menu = page.getByTestId('side-menu');
  await expect(menu.getByTestId('menu-/area-quotation')).toBeVisible();
  await expect(menu.getByTestId('menu-/area-rights')).toHaveCount(0);
  await expect(menu.getByTestId('menu-/area-customers')).toHaveCount(0);
  await page.goto('/basicSettings');
  await expect(page).toHaveURL(/\/401$/);
  await page.screenshot({ path: `${screenshotDir}401-zh.png` });
});

test('staff hide the batch-order buttons for one account, and show them again', async ({ browser }) => {
  const staff = await browser.newPage();
  const shipper = await browser.newPage();
  await session(shipper, 'customer@example.com');
  await expect(shipper.getByTestId('top-truck-batch')).toBeVisible();

  await session(staff, 'admin@example.com');
  await staff.goto('/site-configuration');
  const picker = staff.getByTestId('site-batch-hidden');
  await picker.click();
  await staff.keyboard.type('customer@');
  await staff.locator('.ant-select-item-option', { hasText: 'customer@example.com' }).click();
  await staff.getByTestId('site-batch-save').click();
  await expect(staff.getByText('保存成功')).toBeVisible();
  await staff.getByTestId('site-batch-save').scrollIntoViewIfNeeded();
  await staff.screenshot({ path: `${screenshotDir}site-batch-order-zh.png` });

  await shipper.reload();
  await expect(shipper.getByTestId('home-greeting')).toBeVisible();
  await expect(shipper.getByTestId('top-truck-batch')).toHaveCount(0);
  await expect(shipper.getByTestId('top-express-batch')).toHaveCount(0);

  // Removing the account from the list brings the buttons back.
  await staff.reload();
  await staff.getByTestId('site-batch-hidden').locator('.ant-select-selection-item-remove').first().click();
  await staff.getByTestId('site-batch-save').click();
  await expect(staff.getByText('保存成功')).toBeVisible();
  await shipper.reload();
  await expect(shipper.getByTestId('top-truck-batch')).toBeVisible();
  await staff.close();
  await shipper.close();
});

test('logging out asks first, ends the session and returns to the sign-in page', async ({ page }) => {
  await session(page, 'branch@example.com');
  const token = await page.evaluate(() => localStorage.getItem('token'));
  await page.getByTestId('avatar-menu').click();
  await page.getByTestId('logout').click();
  await expect(page.getByText('您确定要退出吗')).toBeVisible();
  await page.locator('.logout-confirm').click();
  forgetSession('branch@example.com');
  await expect(page).toHaveURL(/\/login$/);
  const res = await page.request.post('/api/admin/admin/info', { headers: { accessToken: token ?? '' } });
  expect((await res.json()).code).toBe(300);
});

for (const reducedMotion of ['reduce', 'no-preference'] as const)
  test(`a dialog ${reducedMotion === 'reduce' ? 'appears and goes at once when the system asks for reduced motion' : 'zooms in and out otherwise'}`, async ({
    browser,
    baseURL,
  }) => {
    const page = await browser.newPage({ baseURL, reducedMotion, viewport: { width: 1440, height: 900 } });
    await session(page, 'admin@example.com');
    // Every class a dialog's zoom puts on anything, from before it opens until after it has gone.
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { zoomClasses: string[] }).zoomClasses = seen;
      new MutationObserver((changes) => {
        for (const change of changes) {
          const nodes = change.type === 'attributes' ? [change.target] : Array.from(change.addedNodes);
          // A dialog is added whole: its panel's classes are read from the added subtree.
          for (const node of nodes) {
            if (!(node instanceof Element)) continue;
            for (const element of [node, ...Array.from(node.querySelectorAll('[class*="ant-zoom"]'))])
              for (const name of Array.from(element.classList))
                if (name.startsWith('ant-zoom')) seen.push(name);
          }
        }
      }).observe(document.body, {
        subtree: true,
        childList: true,
        attributes: true,
        attributeFilter: ['class'],
      });
    });
    await page.getByTestId('avatar-menu').click();
    await page.getByTestId('logout').click();
    const dialog = page.locator('.ant-modal-confirm');
    await expect(dialog).toBeVisible();
    await dialog.locator('.ant-modal-confirm-btns button').first().click();
    await expect(dialog).toBeHidden();
    const classes = await page.evaluate(() => (window as unknown as { zoomClasses: string[] }).zoomClasses);
    // Only a running animation counts: a dialog passes through its zoom's prepare step either way.
    const animated = classes.filter((name) => name.endsWith('-active'));
    if (reducedMotion === 'reduce') expect(animated).toEqual([]);
    else
      expect(animated).toEqual(expect.arrayContaining(['ant-zoom-appear-active', 'ant-zoom-leave-active']));
    await page.close();
  });

test('below 992 px the layout turns mobile: the menu folds into a drawer', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await session(page, 'admin@example.com');
  await expect(page.getByTestId('home-greeting')).toBeVisible();
  await expect(page.locator('.app-sider')).toHaveCount(0);
  await page.screenshot({ path: `${screenshotDir}home-mobile-zh.png` });
  await page.getByTestId('menu-toggle').click();
  const drawerMenu = page.locator('.ant-drawer').getByTestId('side-menu');
  await expect(drawerMenu).toBeVisible();
  await drawerMenu.getByTestId('menu-/area-rights').click();
  await drawerMenu.getByTestId('menu-/basicSettings').click();
  await expect(page).toHaveURL(/\/basicSettings$/);
  await page.screenshot({ path: `${screenshotDir}roles-mobile-zh.png` });
});

test('on a phone the menu glimpses in on arrival without masking the page; opened by hand it masks and folds on a tap outside', async ({
  page,
}) => {
  await session(page, 'admin@example.com');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/home');
  const drawerMenu = page.locator('.ant-drawer').getByTestId('side-menu');
  await expect(drawerMenu).toBeVisible();
  // The glimpse leaves the page usable: no mask over it, the focus where it was.
  await expect(page.locator('.ant-drawer-mask')).toHaveCount(0);
  expect(await drawerMenu.evaluate((menu) => menu.contains(document.activeElement))).toBe(false);
  await expect(drawerMenu).toBeHidden({ timeout: 5_000 });
  await page.getByTestId('menu-toggle').click();
  await expect(drawerMenu).toBeVisible();
  const mask = page.locator('.ant-drawer-mask');
  await expect(mask).toBeVisible();
  await mask.click({ position: { x: 370, y: 400 } });
  await expect(drawerMenu).toBeHidden();
  await page.setViewportSize({ width: 1440, height: 900 });
});

test('the side menu and the tabs work from the keyboard; a page in the menu is a link to its address', async ({
  page,
}) => {
  await session(page, 'admin@example.com');
  await page.goto('/operationLog');
  const menu = page.getByTestId('side-menu');
  const entry = (path: string) =>
    menu.getByRole('menuitem').filter({ has: page.getByTestId(`menu-${path}`) });
  const rights = entry('/area-rights');
  // The current page's group is open, and the current page is marked as such.
  await expect(rights).toHaveAttribute('aria-expanded', 'true');
  const current = entry('/operationLog');
  await expect(current).toHaveAttribute('href', '/operationLog');
  await expect(current).toHaveAttribute('aria-current', 'page');
  // One group open at a time.
  const site = entry('/area-site');
  await site.click();
  await expect(site).toHaveAttribute('aria-expanded', 'true');
  await expect(rights).toHaveAttribute('aria-expanded', 'false');
  await expect(current).toBeHidden();
  // Left folds a group, right opens it, the arrows move from entry to entry and Enter opens a page.
  await site.focus();
  await page.keyboard.press('ArrowLeft');
  await expect(site).toHaveAttribute('aria-expanded', 'false');
  await page.keyboard.press('ArrowRight');
  await expect(site).toHaveAttribute('aria-expanded', 'true');
  await page.keyboard.press('ArrowDown');
  await expect(entry('/site-configuration')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/site-configuration$/);
  // The tabs: the arrows move between them, Enter opens one.
  const tabs = page.getByTestId('tabs-bar');
  await tabs.getByRole('tab', { name: '操作日志' }).focus();
  await page.keyboard.press('ArrowRight');
  const settings = tabs.getByRole('tab', { name: '站点配置' });
  await expect(settings).toBeFocused();
  await expect(settings).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/operationLog$/);
  await expect(tabs.getByRole('tab', { name: '操作日志' })).toHaveAttribute('aria-selected', 'true');
});

test('top-bar hints show on hover, and the back-to-top control appears once the page has scrolled', async ({
  page,
}) => {
  await session(page, 'admin@example.com');
  await page.goto('/home');
  await page.getByRole('button', { name: '全屏' }).hover();
  await expect(page.getByRole('tooltip').filter({ hasText: '全屏' })).toBeVisible();
  await page.getByTestId('reload-route').hover();
  await expect(page.getByRole('tooltip').filter({ hasText: '刷新页面' })).toBeVisible();
  // The home page is taller than a phone's screen.
  await page.setViewportSize({ width: 390, height: 500 });
  await expect(page.getByTestId('back-to-top')).toHaveCount(0);
  await page.mouse.wheel(0, 800);
  const backToTop = page.getByTestId('back-to-top');
  await expect(backToTop).toBeVisible();
  await backToTop.click();
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
  await expect(backToTop).toHaveCount(0);
  await page.setViewportSize({ width: 1440, height: 900 });
});
