import { readFileSync } from 'node:fs';
import { type Download, expect, type Page, test } from '@playwright/test';
import { api, bookWaybill, screenshotDir, session, switchLanguage } from '../fixtures.ts';

/** A booked and paid waybill of the page's user: its numbers. */
async function paidWaybill(page: Page): Promise<{ waybillNo: string; trackingNo: string }> {
  const waybillNo = await bookWaybill(page, true);
  const { list } = await api(page, '/express/order/list', { page: 1, limit: 10, keyword: waybillNo });
  return { waybillNo, trackingNo: (list[0] as { trackingNo: string }).trackingNo };
}

async function savedText(download: Promise<Download>): Promise<{ name: string; text: string }> {
  const file = await download;
  return { name: file.suggestedFilename(), text: readFileSync(await file.path(), 'utf8') };
}

/** The labels of a ZPL file, each `^XA` to its `^XZ`. */
const labelsOf = (zpl: string) => zpl.match(/\^XA[\s\S]*?\^XZ/g) ?? [];

test('a customer downloads one waybill’s label as ZPL from its row, for a thermal printer', async ({
  page,
}) => {
  await session(page, 'customer@example.com');
  const { waybillNo, trackingNo } = await paidWaybill(page);
  await page.goto(`/expressOrderList?sn=${waybillNo}`);
  const row = page.locator('tr.ant-table-row', { hasText: waybillNo });
  await expect(row).toContainText('待打印');
  // The row's print link stays the PDF; the ZPL is among its other choices.
  await expect(row.getByTestId('waybill-act-print')).toBeVisible();
  await row.getByTestId('waybill-more').click();
  await expect(page.getByTestId('waybill-act-print-zpl')).toHaveText('下载热敏打印机面单(ZPL)');
  await page.screenshot({ path: `${screenshotDir}labels-print-choice-row-zh.png` });
  const label = savedText(page.waitForEvent('download'));
  await page.getByTestId('waybill-act-print-zpl').click();
  const { name, text } = await label;
  expect(name).toBe(`label-${waybillNo}.zpl`);
  expect(text.startsWith('^XA')).toBe(true);
  expect(labelsOf(text)).toHaveLength(1);
  expect(text).toContain(`^FD${trackingNo}^FS`);
  expect(text).toContain('^PW812');
  await expect(row).toContainText('已打印');
  // A printed label may be printed again, from the drawer as well, in either format.
  await row.getByTestId(`waybill-${waybillNo}`).click();
  await page.getByTestId('waybill-drawer-print-formats').click();
  const again = savedText(page.waitForEvent('download'));
  await page.getByTestId('waybill-drawer-print-zpl').click();
  expect((await again).text).toContain(`^FD${trackingNo}^FS`);
});

test('a customer prints the selected waybills as one ZPL file, a label each, from the print button’s arrow', async ({
  page,
}) => {
  await session(page, 'customer@example.com');
  const waybills = [await paidWaybill(page), await paidWaybill(page)];
  await page.goto('/expressOrderList?status=to_be_printed');
  await switchLanguage(page, 'en');
  for (const { waybillNo } of waybills)
    await page.locator('tr.ant-table-row', { hasText: waybillNo }).locator('.ant-checkbox-input').check();

  await page.getByTestId('waybill-bulk-print-formats').click();
  await expect(page.getByTestId('waybill-bulk-print-zpl')).toHaveText('Download for thermal printer (ZPL)');
  await expect(page.getByTestId('waybill-bulk-print-pdf')).toHaveText('Print labels (PDF)');
  await page.screenshot({ path: `${screenshotDir}labels-print-choice-en.png` });

  const labels = savedText(page.waitForEvent('download'));
  await page.getByTestId('waybill-bulk-print-zpl').click();
  const { name, text } = await labels;
  expect(name).toBe('labels-2.zpl');
  const printed = labelsOf(text);
  expect(printed).toHaveLength(2);
  for (const [i, { trackingNo }] of waybills.entries()) expect(printed[i]).toContain(`^FD${trackingNo}^FS`);
  for (const { waybillNo } of waybills)
    await expect(page.locator('tr.ant-table-row', { hasText: waybillNo })).toHaveCount(0);
  await switchLanguage(page, 'zh');
});

test('the payment page prints the PDF from its button and the ZPL from its arrow', async ({ page }) => {
  await session(page, 'customer@example.com');
  const { waybillNo, trackingNo } = await paidWaybill(page);
  const { list } = await api(page, '/express/order/list', { page: 1, limit: 10, keyword: waybillNo });
  await page.goto(`/waybillValuation?id=${(list[0] as { id: number }).id}`);
  await page.getByTestId('waybill-print-formats').click();
  await expect(page.getByTestId('waybill-print-zpl')).toBeVisible();
  await page.screenshot({ path: `${screenshotDir}labels-print-choice-payment-zh.png` });
  const zpl = savedText(page.waitForEvent('download'));
  await page.getByTestId('waybill-print-zpl').click();
  expect((await zpl).text).toContain(`^FD${trackingNo}^FS`);

  const pdf = page.waitForEvent('download');
  await page.getByTestId('waybill-print').click();
  const file = await pdf;
  expect(file.suggestedFilename()).toBe(`label-${waybillNo}.pdf`);
  expect(
    readFileSync(await file.path())
      .subarray(0, 4)
      .toString('latin1'),
  ).toBe('%PDF');
});
