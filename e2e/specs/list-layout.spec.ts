import { expect as baseExpect, test } from '@playwright/test';
import { screenshotDir, session, switchLanguage } from '../fixtures.ts';
import { seedListRows, sweepMenu, tableFaults, visit } from '../layout-sweep.ts';

test.describe.configure({ mode: 'serial' });

// A page loads slowly on a machine the whole team shares: each step may take a while to show.
const expect = baseExpect.configure({ timeout: 30_000 });

let waybillNo = '';

test("every list page of customer's menu keeps its cells clear of the pinned columns at 390 and 1440 px, in Chinese and English", async ({
  page,
}) => {
  test.setTimeout(900_000);
  await session(page, 'customer@example.com');
  waybillNo = await seedListRows(page);
  await sweepMenu(page, 'customer');
});

test('the express order list reaches its actions on a phone in English, and the waybill drawer keeps its numbers whole', async ({
  page,
}) => {
  await session(page, 'customer@example.com');
  await page.setViewportSize({ width: 390, height: 844 });
  await visit(page, '/expressOrderList');
  await switchLanguage(page, 'en');
  const row = page.locator('tr.ant-table-row', { hasText: waybillNo });
  await expect(row).toBeVisible();
  expect(await tableFaults(page)).toEqual([]);
  // The actions sit beside the row's other cells, reached by scrolling the table sideways.
  const pay = row.getByRole('button', { name: 'Pay' });
  await pay.scrollIntoViewIfNeeded();
  await expect(pay).toBeInViewport();
  await page.screenshot({ path: `${screenshotDir}list-express-orders-390-en.png` });
  for (const width of [390, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    await row.getByTestId(`waybill-${waybillNo}`).click();
    const drawer = page.getByTestId('waybill-drawer');
    for (const id of ['waybill-drawer-number', 'waybill-drawer-tracking']) {
      const number = drawer.getByTestId(id);
      await expect(number).toBeVisible();
      const lines = await number.evaluate((el) => {
        const range = document.createRange();
        range.selectNodeContents(el);
        return new Set(Array.from(range.getClientRects(), (r) => Math.round(r.top))).size;
      });
      expect(lines, `${id} at ${width} px`).toBe(1);
      const box = await number.boundingBox();
      expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(width);
    }
    await page.screenshot({ path: `${screenshotDir}waybill-drawer-${width}-en.png` });
    await page.keyboard.press('Escape');
    await expect(drawer).toBeHidden();
  }
  await switchLanguage(page, 'zh');
  await page.setViewportSize({ width: 1440, height: 900 });
});

test('every customer list fits a 1440 px desktop in both languages: the credit limit is not under the actions', async ({
  page,
}) => {
  await session(page, 'admin@example.com');
  for (const language of ['zh', 'en'] as const) {
    // The language is the account's, and another spec may have left it either way.
    await switchLanguage(page, language);
    for (const path of [
      '/general-customer-management',
      '/directCustomerManagement',
      '/allCustomer',
      '/deliveryAgentCustomerManagement',
      '/deliveryDirectCustomerManagement',
      '/expressAllCustomer',
    ]) {
      await visit(page, path);
      const table = page.locator('.app-content .ant-table:visible');
      await expect(table.locator('tr.ant-table-row').first()).toBeVisible();
      const credit = table.locator('th', { hasText: language === 'en' ? 'Credit limit' : '授信额度' });
      const actions = table.locator('th.ant-table-cell-fix-end');
      const [c, a] = [await credit.boundingBox(), await actions.boundingBox()];
      expect(c && a && c.x + c.width <= a.x + 1, `${path} (${language})`).toBe(true);
      if (path === '/allCustomer')
        await page.screenshot({ path: `${screenshotDir}customers-1440-${language}.png` });
    }
  }
  await switchLanguage(page, 'zh');
});

test('the truck products and express channels fit a 1440 px desktop in both languages: no column under the actions', async ({
  page,
}) => {
  await session(page, 'admin@example.com');
  for (const language of ['zh', 'en'] as const) {
    await switchLanguage(page, language);
    for (const path of ['/productManagement', '/expressChannelManag']) {
      await visit(page, path);
      const table = page.locator('.app-content .ant-table:visible');
      await expect(table.locator('tr.ant-table-row').first()).toBeVisible();
      // The whole table shows: nothing to scroll to, so nothing sits beneath the pinned actions.
      const scroller = table.locator('.ant-table-content');
      const [scrollWidth, clientWidth] = await scroller.evaluate((el) => [el.scrollWidth, el.clientWidth]);
      expect(scrollWidth, `${path} (${language})`).toBeLessThanOrEqual(clientWidth);
      expect(await tableFaults(page), `${path} (${language})`).toEqual([]);
      await page.screenshot({ path: `${screenshotDir}list${path.replace('/', '-')}-1440-${language}.png` });
    }
  }
  await switchLanguage(page, 'zh');
});
