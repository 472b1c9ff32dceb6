import { expect, type Page, test } from '@playwright/test';
import { screenshotDir, session, switchLanguage } from '../fixtures.ts';

test.describe.configure({ mode: 'serial' });

/** Fills the address dialog the way a person does; the ZIP code fills city and state by itself. */
async function addAddress(page: Page, name: string, zipcode: string, city: string, state: string) {
  await page.getByTestId('address-new').click();
  const dialog = page.getByRole('dialog');
  await dialog.getByTestId('address-name').fill(name);
  await dialog.getByTestId('address-address1').fill('100 Harbor Blvd');
  await dialog.getByTestId('address-zipcode').fill(zipcode);
  await expect(dialog.getByTestId('address-city')).toHaveValue(city);
  await expect(dialog.getByTestId('address-state')).toHaveValue(state);
  await dialog.getByTestId('address-contact').fill('Jane Doe');
  await dialog.getByTestId('address-phone').fill('9095551234');
  return dialog;
}

test('a customer adds addresses with the ZIP lookup, sets one default and deletes another', async ({
  page,
}) => {
  await session(page, 'customer@example.com');
  await page.goto('/addressmanagement');

  const first = await addAddress(page, 'Acme Main Dock', '92551', 'Moreno Valley', 'CA');
  await page.screenshot({ path: `${screenshotDir}addresses-dialog-zh.png` });
  await first.getByTestId('address-save').click();
  const main = page.getByRole('row', { name: /Acme Main Dock/ });
  await expect(main).toContainText('Moreno Valley');
  await expect(main).toContainText('92551');

  const second = await addAddress(page, 'Old Yard', '08518', 'Florence', 'NJ');
  await second.getByTestId('address-save').click();
  const old = page.getByRole('row', { name: /Old Yard/ });
  await expect(old).toContainText('Florence');

  await main.getByRole('button', { name: '设为默认' }).click();
  await expect(main).toContainText('默认提货');
  await expect(old).not.toContainText('默认提货');

  await old.getByRole('button', { name: /删\s?除/ }).click();
  await expect(page.getByText('确定删除地址“Old Yard”吗?')).toBeVisible();
  await page
    .getByRole('tooltip')
    .getByRole('button', { name: /确\s?认/ })
    .click();
  await expect(page.getByRole('row', { name: /Old Yard/ })).toHaveCount(0);
  await expect(main).toBeVisible();
  await page.screenshot({ path: `${screenshotDir}addresses-list-zh.png` });
});

test('the address book reads in English', async ({ page }) => {
  await session(page, 'customer@example.com');
  await page.goto('/addressmanagement');
  await switchLanguage(page, 'en');
  await expect(page.getByRole('columnheader', { name: 'Address name' })).toBeVisible();
  await expect(page.getByRole('row', { name: /Acme Main Dock/ })).toContainText('Default pickup');
  await page.getByTestId('address-import').click();
  await expect(page.getByRole('dialog').getByText('Download template')).toBeVisible();
  // Let the dialog finish its opening animation before the picture.
  await page.waitForTimeout(500);
  await page.screenshot({ path: `${screenshotDir}addresses-import-en.png` });
  await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
  await page.screenshot({ path: `${screenshotDir}addresses-list-en.png` });

  // An FBA address comes from Amazon's warehouse list.
  await page.getByTestId('address-new').click();
  const dialog = page.getByRole('dialog');
  await dialog.getByTestId('address-type').click();
  await page.getByTitle('Amazon FBA').click();
  await dialog.getByTestId('address-fba').click();
  await page.keyboard.type('ONT8');
  await page.getByTitle(/^ONT8 ·/).click();
  await expect(dialog.getByTestId('address-address1')).toHaveValue('24300 Nandina Ave');
  await expect(dialog.getByTestId('address-city')).toHaveValue('Moreno Valley');
  await page.screenshot({ path: `${screenshotDir}addresses-fba-en.png` });
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await switchLanguage(page, 'zh');
});
