import { expect, test } from '@playwright/test';
import { openFromMenu, screenshotDir, session, switchLanguage } from '../fixtures.ts';

test.describe.configure({ mode: 'serial' });

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

test('a customer submits a recharge, staff approve it, the badge drops and the ledger shows it', async ({
  browser,
}) => {
  const customer = await browser.newPage();
  // After the password-reset spec the session is reused; run alone, the demo password still holds.
  await session(customer, 'direct@example.com');
  await switchLanguage(customer, 'en');
  await customer.goto('/recharge');
  await customer.getByTestId('recharge-account').click();
  // Demo banks are named in the interface's language.
  await customer.getByTitle('RMB · China Merchants Bank, Shanghai Branch').click();
  await customer.getByLabel('Amount').fill('880.5');
  await customer.getByTestId('recharge-payer').fill('Nora North');
  await customer.getByTestId('recharge-card').fill('6222 0000 1111 9876');
  await customer
    .locator('input[type=file]')
    .setInputFiles({ name: 'proof.png', mimeType: 'image/png', buffer: PNG });
  await expect(customer.locator('.ant-image img').first()).toBeVisible();
  await customer.getByTestId('recharge-submit').click();
  const row = customer.getByRole('row', { name: /880\.50 CNY/ });
  await expect(row).toContainText('Awaiting review');
  await customer.screenshot({ path: `${screenshotDir}recharge-customer-en.png` });
  const serial = ((await row.locator('td').first().textContent()) ?? '').trim();

  const staff = await (
    await browser.newContext({
      baseURL: new URL(customer.url()).origin,
      viewport: { width: 1440, height: 900 },
    })
  ).newPage();
  await session(staff, 'admin@example.com');
  const badge = staff.getByTestId('side-menu').getByTestId('menu-count-26');
  await staff.getByTestId('side-menu').getByTestId('menu-/area-billing').click();
  await expect(badge).toContainText('1');
  await openFromMenu(staff, '/area-billing', '/rechargeReview');
  await staff.getByTestId(`recharge-open-${serial}`).click();
  await expect(staff.getByRole('dialog').getByText('Nora North')).toBeVisible();
  // The screenshot is private to who may see the recharge: the page loads it with the session.
  const screenshot = staff.getByTestId('recharge-screenshot-view').locator('img');
  await expect(screenshot).toBeVisible();
  await expect(screenshot).toHaveAttribute('src', /^blob:/);
  await staff.screenshot({ path: `${screenshotDir}recharge-review-zh.png` });
  await staff.getByTestId('recharge-review-submit').click();
  await expect(staff.getByTestId(`recharge-open-${serial}`)).toHaveCount(0);
  // The badge follows within one poll.
  await expect(badge).not.toContainText('1', { timeout: 15_000 });

  await customer.goto('/accountDetails');
  const entry = customer.getByRole('row', { name: new RegExp(serial) });
  await expect(entry).toContainText('Recharge');
  await expect(entry).toContainText('880.50');
  await expect(customer.getByTestId('ledger-credits')).toContainText('880.50');
  await customer.screenshot({ path: `${screenshotDir}account-details-customer-en.png` });
});
