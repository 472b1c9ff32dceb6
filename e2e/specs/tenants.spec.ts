import { chromium, expect, test } from '@playwright/test';
import { openFromMenu, screenshotDir, session } from '../fixtures.ts';

test.describe.configure({ mode: 'serial' });

const ADMIN = 'admin@example.com';

test('the platform administrator creates a tenant on the tenants page and finds it listed', async ({
  page,
  baseURL,
}) => {
  await session(page, ADMIN);
  await openFromMenu(page, '/area-site', '/tenantManagement');
  // The platform's own tenant heads the list.
  await expect(page.getByRole('cell', { name: /default/ })).toBeVisible();

  await page.getByTestId('tenant-new').click();
  await page.getByTestId('tenant-code').fill('harbor-line');
  await page.getByTestId('tenant-name').fill('港湾物流');
  await page.getByTestId('tenant-name-en').fill('Harbor Line');
  const hosts = page.getByTestId('tenant-hosts').locator('input');
  await hosts.fill('portal.harbor-line.test');
  await hosts.press('Enter');
  await page.getByTestId('tenant-admin').fill('ops@harbor-line.test');
  await page.screenshot({ path: `${screenshotDir}tenant-new-zh.png` });
  await page.getByTestId('tenant-save').click();
  await expect(page.getByText('租户已创建')).toBeVisible();

  await page.getByTestId('tenant-keyword').fill('harbor');
  await page.getByTestId('filter-search').click();
  const row = page.getByRole('row', { name: /harbor-line/ });
  await expect(row).toContainText('portal.harbor-line.test');
  await expect(row).toContainText('启用');
  await page.screenshot({ path: `${screenshotDir}tenants-zh.png` });

  // The new administrator was mailed a link to set the password.
  const mail = await page.request.get(`/api/dev/mailbox?to=${encodeURIComponent('ops@harbor-line.test')}`);
  expect(mail.status()).toBe(200);

  // A browser of its own that finds the new tenant's host on this machine, as its users' would on theirs.
  const port = new URL(baseURL as string).port;
  // The suite's own launch settings (playwright.config.ts), with the tenant's host mapped to this machine.
  const { launchOptions } = test.info().project.use;
  const own = await chromium.launch({
    ...launchOptions,
    args: [...(launchOptions?.args ?? []), '--host-resolver-rules=MAP portal.harbor-line.test 127.0.0.1'],
  });
  const visitor = await own.newPage({ locale: 'zh-CN' });
  const hostUrl = `http://portal.harbor-line.test:${port}/login`;
  await visitor.goto(hostUrl);
  // Its own name on its own sign-in page, none of the platform's.
  await expect(visitor.getByText('港湾物流').first()).toBeVisible();

  // Disabling asks first; the tenant's host then answers a plain page saying so.
  await page.getByTestId('tenant-status-harbor-line').click();
  await page
    .locator('.ant-modal-confirm-btns')
    .getByRole('button', { name: /禁\s*用/ })
    .click();
  // The action now offers to enable it again.
  await expect(page.getByTestId('tenant-status-harbor-line')).toHaveText(/启\s*用/);
  const disabled = await page.request.get('/home', { headers: { host: 'portal.harbor-line.test' } });
  expect(disabled.status()).toBe(403);
  await page.setContent(await disabled.text());
  await expect(page.getByRole('heading', { name: '站点已停用' })).toBeVisible();
  await page.screenshot({ path: `${screenshotDir}tenant-disabled-zh.png` });

  // The same in the browser on that host: the page it had open now says so when reloaded.
  const reloaded = await visitor.reload();
  expect(reloaded?.status()).toBe(403);
  await expect(visitor.getByRole('heading', { name: '站点已停用' })).toBeVisible();
  await own.close();
});

test('ads set in site configuration show in the strip and rotate every 3 s', async ({ page }) => {
  await session(page, ADMIN);
  await openFromMenu(page, '/area-site', '/site-configuration');
  await expect(page.getByTestId('ad-strip')).toHaveCount(0);
  for (const [title, url] of [
    ['春季运价优惠', 'https://example.com/spring'],
    ['新增加州专线', 'https://example.com/california'],
  ]) {
    await page.getByTestId('ad-add').click();
    await page
      .getByTestId('ad-title')
      .last()
      .fill(title as string);
    await page
      .getByTestId('ad-url')
      .last()
      .fill(url as string);
  }
  await page.getByTestId('ads-save').click();
  await expect(page.getByText('保存成功').first()).toBeVisible();

  const strip = page.getByTestId('ad-strip');
  await expect(strip).toBeVisible();
  const active = strip.locator('[data-active="true"]');
  await expect(active).toContainText('春季运价优惠');
  await expect(active).toContainText('广告');
  const link = active.getByRole('link');
  await expect(link).toHaveAttribute('target', '_blank');
  await expect(link).toHaveAttribute('rel', /noopener/);
  await page.getByTestId('ad-row').first().scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${screenshotDir}site-ads-zh.png` });
  await expect(active).toContainText('新增加州专线', { timeout: 5_000 });
  await expect(active).toContainText('春季运价优惠', { timeout: 5_000 });

  // The specs after this one see the shell as before: no ads, no strip.
  await page.getByTestId('ad-row').locator('[aria-label]').first().click();
  await page.getByTestId('ad-row').locator('[aria-label]').first().click();
  await page.getByTestId('ads-save').click();
  await expect(page.getByTestId('ad-strip')).toHaveCount(0);
});

test('a new feature update lights the top bar dot until it is opened', async ({ page }) => {
  await session(page, ADMIN);
  const badge = page.getByTestId('updates-badge');
  await expect(badge).toHaveAttribute('data-unread', 'false');
  await openFromMenu(page, '/area-site', '/featureUpdates');
  await page.getByTestId('changelog-new').click();
  await page.getByTestId('changelog-title').fill('批量下单支持快递');
  await page.getByTestId('changelog-body').fill('现在可以一次导入多张快递运单。\n\n- 下载模板\n- 校验后导入');
  await page.screenshot({ path: `${screenshotDir}changelog-edit-zh.png` });
  await page.getByTestId('changelog-save').click();
  await expect(page.getByRole('cell', { name: '批量下单支持快递' })).toBeVisible();
  await page.screenshot({ path: `${screenshotDir}changelog-zh.png` });

  await expect(badge).toHaveAttribute('data-unread', 'true');
  await expect(badge.locator('.ant-badge-dot')).toBeVisible();
  await page.getByTestId('top-updates').click();
  const entry = page.getByTestId('updates-entry').first();
  await expect(entry).toContainText('批量下单支持快递');
  await expect(entry.getByRole('listitem')).toHaveCount(2);
  await page.screenshot({ path: `${screenshotDir}feature-updates-zh.png` });
  await expect(badge).toHaveAttribute('data-unread', 'false');
  await page.reload();
  await expect(page.getByTestId('updates-badge')).toHaveAttribute('data-unread', 'false');
  await expect(page.getByTestId('updates-badge').locator('.ant-badge-dot')).toHaveCount(0);
});
