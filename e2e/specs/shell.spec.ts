import { expect, test } from '@playwright/test';
import { screenshotDir, signIn } from '../fixtures.ts';

test.describe.configure({ mode: 'serial' });

test('the staff administrator signs in with the mailed code and sees the whole menu', async ({ page }) => {
  await signIn(page, 'admin@example.com');
  await expect(page.getByTestId('home-greeting')).toBeVisible();
  const menu = page.getByTestId('side-menu');
  await expect(menu.getByTestId('menu-/area-rights')).toBeVisible();
  await expect(menu.getByTestId('menu-/area-customers')).toBeVisible();
  await page.screenshot({ path: `${screenshotDir}home-admin-zh.png` });
  await menu.getByTestId('menu-/area-rights').click();
  await menu.getByTestId('menu-/basicSettings').click();
  await expect(page).toHaveURL(/\/basicSettings$/);
  await expect(page.getByRole('cell', { name: 'Administrator' })).toBeVisible();
  await page.screenshot({ path: `${screenshotDir}roles-zh.png` });
});
