import { expect, test } from '@playwright/test';
import ExcelJS from 'exceljs';
import { screenshotDir, session, switchLanguage } from '../fixtures.ts';

/**
 * The channel page's workbook: staff export the list, add a channel to the file and import it. A file
 * with a bad row imports nothing and names the row and column; a good one adds the channel to the list.
 */
test('staff export the channel list, import it with a new channel, and see it listed', async ({
  page,
}, testInfo) => {
  await session(page, 'admin@example.com');
  await page.goto('/expressChannelManag');
  const table = page.getByTestId('express-channels-table');
  // The first visit loads the page's code and its list: slow on a machine running two halves at once.
  await expect(table).toContainText('USG-STD', { timeout: 30_000 });

  const exported = page.waitForEvent('download');
  await page.getByTestId('channels-export').click();
  const file = testInfo.outputPath('channels.xlsx');
  await (await exported).saveAs(file);

  // The export in Chinese: the channel sheet with a header and the demo's three channels.
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(file);
  const sheet = workbook.worksheets[0] as ExcelJS.Worksheet;
  expect(sheet.name).toBe('渠道');
  expect(sheet.getRow(1).getCell(1).value).toBe('渠道代码');
  expect(sheet.rowCount).toBe(4);
  const copyOf = (row: number) => (sheet.getRow(row).values as ExcelJS.CellValue[]).slice(1);
  const usgRow = [2, 3, 4].find((r) => sheet.getRow(r).getCell(1).value === 'USG-STD') as number;

  // A new channel like USG-STD, but with a product no one has: nothing is imported, the row is named.
  const fresh = copyOf(usgRow);
  fresh[0] = 'E2E-GND';
  fresh[2] = '端到端陆运';
  fresh[3] = 'End-to-end Ground';
  const badRow = sheet.rowCount + 1;
  sheet.addRow([fresh[0], 'NO-SUCH', ...fresh.slice(2)]);
  const bad = testInfo.outputPath('channels-bad.xlsx');
  await workbook.xlsx.writeFile(bad);
  await page.locator('input[type=file]').setInputFiles(bad);
  await page.getByTestId('import-confirm-ok').click();
  const errors = page.getByTestId('import-errors');
  await expect(errors).toContainText(`第 ${badRow} 行`);
  await expect(errors).toContainText('产品代码:没有代码为“NO-SUCH”的快递产品');
  await page.screenshot({ path: `${screenshotDir}express-channels-import-errors-zh.png` });
  await page.getByTestId('import-errors-ok').click();
  await expect(table).not.toContainText('E2E-GND');

  // The same row with the demo's product, in English: added, and the three exported channels updated.
  sheet.spliceRows(badRow, 1);
  sheet.addRow(fresh);
  const good = testInfo.outputPath('channels-good.xlsx');
  await workbook.xlsx.writeFile(good);
  await switchLanguage(page, 'en');
  try {
    await expect(page.getByTestId('channels-import')).toContainText('Import');
    await page.locator('input[type=file]').setInputFiles(good);
    await page.getByTestId('import-confirm-ok').click();
    await expect(page.getByText('Channels imported: 4 (1 added, 3 updated)')).toBeVisible();
    await expect(table).toContainText('E2E-GND');
    await expect(table).toContainText('End-to-end Ground');
    await page.screenshot({ path: `${screenshotDir}express-channels-imported-en.png`, fullPage: true });
  } finally {
    // The language is the account's: the specs after this one read the administrator in Chinese.
    await switchLanguage(page, 'zh');
  }
});
