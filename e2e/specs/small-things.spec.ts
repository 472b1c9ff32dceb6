import { expect as baseExpect, type Page, test } from '@playwright/test';
import {
  bookWaybill,
  mailedResetLink,
  pricedTruckQuote,
  screenshotDir,
  session,
  switchLanguage,
} from '../fixtures.ts';

test.describe.configure({ mode: 'serial' });

// A page loads slowly on a machine the whole team shares: each step may take a while to show.
const expect = baseExpect.configure({ timeout: 30_000 });

/** Opens a page inside the running app, as the menu does (a reload of the whole app is slow here). */
async function visit(page: Page, path: string) {
  await page.evaluate((to) => {
    history.pushState({}, '', to);
    dispatchEvent(new PopStateEvent('popstate'));
  }, path);
}

test('create return: the return address opens on the first click straight after typing the waybill', async ({
  page,
}) => {
  await session(page, 'customer@example.com');
  const waybillNo = await bookWaybill(page, true);

  await visit(page, '/expressReturnsList');
  await page.getByTestId('return-create').click();
  // Typed, and the focus still in the number: one click on the select, nothing else.
  await page.getByTestId('return-original').fill(waybillNo);
  await page.getByTestId('return-address').click();
  const list = page.locator('.ant-select-dropdown:visible');
  await expect(list).toBeVisible();
  // That click also looked the number up: the customer's return addresses are offered, or the dialog
  // says the book has none yet (the express address book is where they are kept).
  await expect(
    list.locator('.ant-select-item-option').first().or(page.getByText('该客户的快递地址簿中还没有退货地址')),
  ).toBeVisible();
  await page.screenshot({ path: `${screenshotDir}return-address-first-click-zh.png` });
});

/** The named empty lists: what fills each, in both languages, and the step that fills it. */
const EMPTY_PAGES = [
  {
    path: '/quotationList',
    zh: '提交人工报价',
    en: 'Ask for a manual quotation',
    action: { zh: '去卡车在线报价', en: 'Open truck online quote', to: /\/mail$/ },
  },
  {
    path: '/deliveryRechargeMGT',
    zh: '充值申请',
    en: 'Recharges submitted on the Recharge page',
    action: { zh: '去充值', en: 'Recharge', to: /\/expressrecharge$/ },
  },
  { path: '/deliveryRechargeReview', zh: '等待审核', en: 'wait here for review', action: null },
  {
    path: '/featureUpdates',
    zh: '发布的功能更新',
    en: 'Updates you publish',
    action: { zh: '新增更新', en: 'New update', to: null },
  },
] as const;

test('empty lists say what fills them and offer the action that does, in both languages', async ({
  page,
}) => {
  await session(page, 'admin@example.com');
  for (const language of ['zh', 'en'] as const) {
    for (const item of EMPTY_PAGES) {
      await visit(page, item.path);
      if (language === 'en' && item === EMPTY_PAGES[0]) await switchLanguage(page, 'en');
      // Pages visited before stay open (hidden) in their tabs: only the page in view counts.
      const empty = page.locator('.app-content [data-testid="list-empty"]:visible');
      await expect(empty).toContainText(item[language], { timeout: 30_000 });
      await page.screenshot({ path: `${screenshotDir}empty${item.path.replace('/', '-')}-${language}.png` });
      const action = page.locator('.app-content [data-testid="list-empty-action"]:visible');
      if (!item.action) {
        await expect(action).toHaveCount(0);
        continue;
      }
      await expect(action).toHaveText(item.action[language]);
      await action.click();
      if (item.action.to) await expect(page).toHaveURL(item.action.to);
      // The feature update's button opens the editor right there.
      else await expect(page.locator('.ant-drawer-open')).toBeVisible();
    }
  }
  await visit(page, '/home');
  await switchLanguage(page, 'zh');
});

test('the truck booking dialog names the amount it pays, as the express one does', async ({ page }) => {
  await session(page, 'customer@example.com');
  const quoteId = await pricedTruckQuote(page);
  await visit(page, `/mail?quoteId=${quoteId}`);
  const book = page.locator('[data-testid^="book-"]:not([data-testid^="book-c"])').first();
  await expect(book).toBeVisible();
  const card = page.locator('[data-testid^="result-"]', { has: book });
  const shown = await card.locator('[data-testid$="-total"]').textContent();
  const total = (shown ?? '').replace(/[^\d.,]/g, '');
  await book.click();
  await expect(page.getByTestId('book-pay-amount')).toContainText(total);
  await expect(page.getByTestId('book-confirm')).toContainText('下单并支付');
  await page.screenshot({ path: `${screenshotDir}truck-book-pay-zh.png` });
  // Not paying now: nothing said about the balance.
  await page.locator('.ant-modal').getByRole('checkbox').uncheck();
  await expect(page.getByTestId('book-pay-amount')).toHaveCount(0);
});

test('the express quote form leaves no blank slot before its units', async ({ page }) => {
  await session(page, 'customer@example.com');
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    if (width === 1440) await visit(page, '/onlineQuotation');
    const units = page.getByTestId('quote-unit-system');
    await expect(units).toBeVisible({ timeout: 30_000 });
    const card = page.locator('.ant-card', { has: units }).locator('.ant-card-body');
    const [u, c] = [await units.boundingBox(), await card.boundingBox()];
    // The units start at the card's padding, not after an empty column.
    expect((u?.x ?? 0) - (c?.x ?? 0), `at ${width} px`).toBeLessThan(24);
    await page.screenshot({ path: `${screenshotDir}express-quote-units-${width}-zh.png` });
  }
  await page.setViewportSize({ width: 1440, height: 900 });
});

test('the sign-in page greets in a sentence, in the browser language until the user chooses one', async ({
  browser,
  baseURL,
}) => {
  const english = await browser.newContext({ baseURL, locale: 'en-US' });
  const en = await english.newPage();
  await en.goto('/login');
  await expect(en.getByTestId('login-submit')).toHaveText(/Sign in/);
  await expect(en.getByTestId('auth-welcome')).toHaveText(/^Welcome to \S/);
  await en.screenshot({ path: `${screenshotDir}login-browser-en.png` });
  // The user's choice is kept and wins over the browser's.
  await en.getByTestId('lang-switch').click();
  await en.getByTestId('lang-zh').click();
  await expect(en.getByTestId('auth-welcome')).toHaveText(/^欢迎使用\S/);
  await en.reload();
  await expect(en.getByTestId('auth-welcome')).toHaveText(/^欢迎使用\S/);
  await english.close();

  const chinese = await browser.newContext({ baseURL, locale: 'zh-CN' });
  const zh = await chinese.newPage();
  await zh.goto('/login');
  await expect(zh.getByTestId('auth-welcome')).toHaveText(/^欢迎使用\S/);
  await zh.screenshot({ path: `${screenshotDir}login-browser-zh.png` });
  await chinese.close();
});

test('after a password reset the page leads back to sign in once', async ({ page }) => {
  const email = 'direct@example.com';
  await page.goto('/forgotPassword');
  await expect(page.getByTestId('forgot-back')).toHaveCount(1);
  await page.goto(await mailedResetLink(page, email));
  // The same new password the public spec sets, so the suite's order does not matter.
  await page.getByTestId('forgot-password').fill('newpass1');
  await page.getByTestId('forgot-confirm').fill('newpass1');
  await page.getByTestId('forgot-submit').click();
  await expect(page.getByTestId('forgot-to-login')).toBeVisible();
  await expect(page.getByText('返回登录')).toHaveCount(1);
  await page.screenshot({ path: `${screenshotDir}password-reset-done-zh.png` });
});
