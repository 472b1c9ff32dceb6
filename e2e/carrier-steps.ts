import { readFileSync } from 'node:fs';
import { expect, type Locator, type Page } from '@playwright/test';
import { expressAddress } from './fixtures.ts';

/** The steps of a customer quoting, booking and printing on a channel a carrier prices and labels. */

/** The quote form filled for a 10 × 8 × 6 in, 4 lb parcel from Los Angeles to Dallas. */
export async function fillParcelQuote(page: Page, { residential = false } = {}) {
  const fill = async (side: 'sender' | 'recipient', a: ReturnType<typeof expressAddress>) => {
    for (const [key, value] of Object.entries(a)) await page.getByTestId(`${side}-${key}`).fill(value);
  };
  await fill('sender', expressAddress('Los Angeles', 'CA', '90001'));
  await fill('recipient', expressAddress('Dallas', 'TX', '75201'));
  if (residential) await page.getByTestId('recipient-residential').check();
  await page.getByTestId('parcel-0-length').fill('10');
  await page.getByTestId('parcel-0-width').fill('8');
  await page.getByTestId('parcel-0-height').fill('6');
  await page.getByTestId('parcel-0-weight').fill('4');
}

/**
 * Chooses the channel on the quote shown, books it and pays from the balance; the waybill's row once the
 * carrier's label is in (to be printed, with the carrier's tracking number).
 */
export async function bookChosenAndPay(
  customer: Page,
  channel: string,
  tracking: string,
): Promise<{ waybillNo: string; row: Locator }> {
  await customer.getByTestId(`channel-${channel}-select`).click();
  await customer.getByTestId('book-pay').click();
  await customer.getByTestId('book-pay-confirm').click();
  await expect(customer).toHaveURL(/\/expressOrderList\?sn=/);
  const waybillNo = decodeURIComponent(new URL(customer.url()).searchParams.get('sn') ?? '');
  const row = customer.locator('tr.ant-table-row', { hasText: waybillNo });
  await expect(row).toContainText('待打印', { timeout: 20_000 });
  await expect(row).toContainText(tracking);
  return { waybillNo, row };
}

/** Prints the waybill's label from its row: the PDF downloaded, its pages 4 × 6 inches; the row then says printed. */
export async function printedLabel(customer: Page, row: Locator, waybillNo: string) {
  const download = customer.waitForEvent('download');
  await row.getByTestId('waybill-act-print').click();
  const file = await download;
  expect(file.suggestedFilename()).toBe(`label-${waybillNo}.pdf`);
  const { PDFDocument } = await import('pdf-lib');
  const printed = await PDFDocument.load(readFileSync(await file.path()));
  for (const page of printed.getPages()) expect(page.getSize()).toEqual({ width: 288, height: 432 });
  await expect(row).toContainText('已打印');
  return printed;
}
