import { expect, type Page, test } from '@playwright/test';
import ExcelJS from 'exceljs';
import { api, screenshotDir, session, switchLanguage } from '../fixtures.ts';

test.describe.configure({ mode: 'serial' });

/**
 * The express address book (`/addressList`) as the direct customer keeps it: its own book, so the
 * customer's quotes in the express spec start from theirs.
 */
const USER = 'direct@example.com';
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

async function openBook(page: Page) {
  await page.goto('/addressList');
  await expect(page.getByTestId('express-address-table')).toBeVisible();
}

test('a customer fills an empty express book in the dialog: the ZIP fills city and state, the check names a wrong city', async ({
  page,
}) => {
  await session(page, USER);
  await page.setViewportSize({ width: 1440, height: 900 });
  await openBook(page);
  // An empty book says what fills it and offers to add the first address.
  const empty = page.getByTestId('express-address-empty');
  await expect(empty).toContainText('快递地址簿还是空的');
  await expect(empty).toContainText('快递在线报价');
  await page.screenshot({ path: `${screenshotDir}express-addresses-empty-zh.png` });

  await empty.getByTestId('express-address-empty-new').click();
  const dialog = page.getByRole('dialog');
  await dialog.getByTestId('express-address-name').fill('Pat Lee');
  await dialog.getByTestId('express-address-company').fill('Northwind Dock');
  await dialog.getByTestId('express-address-address1').fill('100 Main St');
  await dialog.getByTestId('express-address-zipcode').fill('90001');
  await expect(dialog.getByTestId('express-address-city')).toHaveValue('Los Angeles');
  await expect(dialog.getByTestId('express-address-state')).toHaveValue('CA');
  await dialog.getByTestId('express-address-phone').fill('213-555-0100');
  await dialog.getByTestId('express-address-default').check();
  await page.screenshot({ path: `${screenshotDir}express-addresses-dialog-zh.png` });
  await dialog.getByTestId('express-address-save').click();
  await expect(dialog).toBeHidden();
  const sender = page.getByRole('row', { name: /Northwind Dock/ });
  await expect(sender).toContainText('发件地址');
  await expect(sender).toContainText('默认');
  await expect(sender).toContainText('2135550100');

  // A recipient in Dallas: a wrong city is named by the check, with the ZIP's own city.
  await page.getByTestId('express-address-new').click();
  await dialog.getByTestId('express-address-kind').getByText('收件地址').click();
  await dialog.getByTestId('express-address-name').fill('Kim Park');
  await dialog.getByTestId('express-address-company').fill('Dallas Parts');
  await dialog.getByTestId('express-address-address1').fill('500 Elm St');
  await dialog.getByTestId('express-address-zipcode').fill('75201');
  await expect(dialog.getByTestId('express-address-city')).toHaveValue('Dallas');
  await dialog.getByTestId('express-address-city').fill('Houston');
  await dialog.getByTestId('express-address-phone').fill('2145550100');
  await dialog.getByTestId('express-address-check').click();
  await expect(dialog.getByText('邮编 75201 对应的城市是 Dallas')).toBeVisible();
  // Saving as it is is refused the same way, and nothing is added.
  await dialog.getByTestId('express-address-save').click();
  await expect(dialog.getByText('邮编 75201 对应的城市是 Dallas')).toBeVisible();
  await dialog.getByTestId('express-address-city').fill('Dallas');
  await dialog.getByTestId('express-address-check').click();
  await expect(page.getByText('邮编、州和城市一致')).toBeVisible();
  await dialog.getByTestId('express-address-save').click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('row', { name: /Dallas Parts/ })).toContainText('收件地址');

  // One added by mistake is deleted after a confirmation.
  await page.getByTestId('express-address-new').click();
  await dialog.getByTestId('express-address-name').fill('Wrong One');
  await dialog.getByTestId('express-address-address1').fill('1 Wrong Way');
  await dialog.getByTestId('express-address-zipcode').fill('10001');
  await expect(dialog.getByTestId('express-address-city')).toHaveValue('New York');
  await dialog.getByTestId('express-address-phone').fill('2125550100');
  await dialog.getByTestId('express-address-save').click();
  const wrong = page.getByRole('row', { name: /Wrong One/ });
  await wrong.getByRole('button', { name: /删\s?除/ }).click();
  await expect(page.getByText('确定删除地址“Wrong One”吗?')).toBeVisible();
  await page
    .getByRole('tooltip')
    .getByRole('button', { name: /确\s?认/ })
    .click();
  await expect(page.getByRole('row', { name: /Wrong One/ })).toHaveCount(0);
});

test('an import with a bad row imports nothing and names the row and column; the mended file imports', async ({
  page,
}, testInfo) => {
  await session(page, USER);
  await page.setViewportSize({ width: 1440, height: 900 });
  await openBook(page);
  await page.getByTestId('express-address-import').click();
  const dialog = page.getByRole('dialog', { name: '导入快递地址' });
  const download = page.waitForEvent('download');
  await dialog.getByTestId('address-template').click();
  const template = testInfo.outputPath('template.xlsx');
  await (await download).saveAs(template);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(template);
  const sheet = workbook.worksheets[0] as ExcelJS.Worksheet;
  const header = (sheet.getRow(1).values as unknown[]).slice(1).map(String);
  expect(header.slice(0, 3)).toEqual(['地址类型', '姓名', '公司']);
  const row = (values: Record<string, string>) => header.map((h) => values[h] ?? '');
  const returns = {
    地址类型: '退货地址',
    姓名: 'Returns Desk',
    公司: 'Northwind Returns',
    '地址 1': '200 Dock Rd',
    城市: 'Los Angeles',
    '州/省': 'CA',
    邮编: '90001',
    电话: '2135550199',
  };
  const toronto = {
    地址类型: '收件地址',
    姓名: 'Lee Chan',
    '地址 1': '1 King St W',
    城市: 'Toronto',
    '州/省': 'ON',
    邮编: 'M5H 1A1',
    国家: 'CA',
    电话: '4165550100',
  };
  const build = async (rows: Record<string, string>[]) => {
    rows.forEach((values, i) => {
      sheet.getRow(i + 3).values = row(values);
    });
    return Buffer.from(await workbook.xlsx.writeBuffer());
  };
  const upload = async (name: string, buffer: Buffer) => {
    await dialog.locator('input[type=file]').setInputFiles({ name, mimeType: XLSX, buffer });
    await dialog.getByTestId('address-import-start').click();
  };
  const before = (await api(page, '/express/address/list', { page: 1, limit: 10 })).total;

  // Row 4 has a Nevada state for a Los Angeles ZIP.
  await upload('bad.xlsx', await build([returns, { ...returns, 姓名: 'Bad State', '州/省': 'NV' }, toronto]));
  const errors = dialog.getByTestId('address-import-rows');
  await expect(errors).toContainText('4');
  await expect(errors).toContainText('州/省');
  await expect(errors).toContainText('邮编 90001 属于 CA 州');
  await expect(dialog.getByTestId('address-import-error')).toContainText('未导入任何地址');
  await page.screenshot({ path: `${screenshotDir}express-addresses-import-errors-zh.png` });
  expect((await api(page, '/express/address/list', { page: 1, limit: 10 })).total).toBe(before);

  await upload('good.xlsx', await build([returns, toronto, {}]));
  await expect(dialog).toBeHidden();
  await expect(page.getByText('已导入 2 个地址')).toBeVisible();
  await expect(page.getByRole('row', { name: /Northwind Returns/ })).toContainText('退货地址');
  await expect(page.getByRole('row', { name: /Lee Chan/ })).toContainText('M5H 1A1');

  // Filters: the type, the country.
  await page.getByTestId('express-address-filter-kind').click();
  await page.getByTitle('收件地址').click();
  await page.getByTestId('filter-search').click();
  await expect(page.locator('.ant-table-tbody tr.ant-table-row')).toHaveCount(2);
  await page.getByTestId('express-address-filter-country').click();
  await page.keyboard.type('CA ·');
  await page.getByTitle(/^CA ·/).click();
  await page.getByTestId('filter-search').click();
  await expect(page.locator('.ant-table-tbody tr.ant-table-row')).toHaveCount(1);
  await expect(page.locator('.ant-table-tbody tr.ant-table-row')).toContainText('Lee Chan');
  await page.getByRole('button', { name: /重\s?置/ }).click();
  await expect(page.locator('.ant-table-tbody tr.ant-table-row')).toHaveCount(4);
  await page.screenshot({ path: `${screenshotDir}express-addresses-list-zh.png` });
  // On a phone the side menu folds itself two seconds after the layout turns mobile.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(2_500);
  await page.screenshot({ path: `${screenshotDir}express-addresses-list-390-zh.png` });
  await page.getByTestId('express-address-new').click();
  await page.waitForTimeout(500);
  await page.screenshot({ path: `${screenshotDir}express-addresses-dialog-390-zh.png` });
  await page
    .getByRole('dialog')
    .getByRole('button', { name: /取\s?消/ })
    .click();
});

test('the express quote in English starts from the default sender and picks a saved recipient', async ({
  page,
}) => {
  await session(page, USER);
  await page.setViewportSize({ width: 1440, height: 900 });
  await openBook(page);
  await switchLanguage(page, 'en');
  await expect(page.getByRole('columnheader', { name: 'Address type' })).toBeVisible();
  await expect(page.getByRole('row', { name: /Northwind Dock/ })).toContainText('Sender');
  await page.screenshot({ path: `${screenshotDir}express-addresses-list-en.png` });

  await page.goto('/onlineQuotation');
  // The default sender fills the ship-from side of a new quote.
  await expect(page.getByTestId('sender-name')).toHaveValue('Pat Lee');
  await expect(page.getByTestId('sender-company')).toHaveValue('Northwind Dock');
  await expect(page.getByTestId('sender-zipcode')).toHaveValue('90001');
  await page.getByTestId('recipient-book').click();
  await page.getByTitle(/Dallas Parts/).click();
  await expect(page.getByTestId('recipient-name')).toHaveValue('Kim Park');
  await expect(page.getByTestId('recipient-city')).toHaveValue('Dallas');
  await expect(page.getByTestId('recipient-zipcode')).toHaveValue('75201');
  await page.getByTestId('parcel-0-length').fill('10');
  await page.getByTestId('parcel-0-width').fill('8');
  await page.getByTestId('parcel-0-height').fill('6');
  await page.getByTestId('parcel-0-weight').fill('4');
  await page.getByTestId('get-quotes').click();
  await expect(page.getByTestId('channel-USG-STD-total')).toBeVisible();
  await page.getByTestId('quote-recipient').scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${screenshotDir}express-addresses-quote-en.png` });

  // The express batch dialog offers the same senders, the default chosen, and points at the book.
  await page.getByTestId('top-express-batch').click();
  const batch = page.getByRole('dialog');
  await expect(batch.getByTestId('express-batch-address')).toContainText('Northwind Dock');
  await expect(batch).toContainText('Addresses → Express address book');
  await batch.getByTestId('express-batch-open-book').click();
  await page.waitForURL(/\/addressList/);
  await switchLanguage(page, 'zh');
});
