import { readFileSync } from 'node:fs';
import { expect, type Page, test } from '@playwright/test';
import { api, expressAddress, screenshotDir, session, switchLanguage } from '../fixtures.ts';

const QUOTE_URL = '**/api/express/quotation/getQuotas';

/** Below 992 px the side menu turns into a drawer, which folds itself away after two seconds. */
async function toPhone(page: Page) {
  await page.setViewportSize({ width: 390, height: 844 });
  const drawer = page.locator('.ant-drawer-content-wrapper');
  await expect(drawer).toBeVisible();
  await expect(drawer).toBeHidden({ timeout: 5_000 });
}

/** Scrolls the customs card to the top, its title clear of the sticky header (the button above it at the top). */
const customsOnTop = (page: Page) =>
  page.getByTestId('parcel-add').evaluate((el) => el.scrollIntoView({ block: 'start' }));

/** Picks an option of a select by its test id; earlier dropdowns stay in the page, hidden. */
async function choose(page: Page, testId: string, option: string, search?: string) {
  await page.getByTestId(testId).click();
  if (search) await page.keyboard.type(search);
  await page.locator('.ant-select-item-option:visible').filter({ hasText: option }).click();
}

/** Los Angeles to Toronto: the country first, so the US rules of ZIP and state never apply to it. */
async function fillAbroad(page: Page) {
  await choose(page, 'recipient-country', '(CA)', 'CA');
  const sides = {
    sender: expressAddress('Los Angeles', 'CA', '90001'),
    recipient: { ...expressAddress('Toronto', 'ON', 'M5V 3L9'), name: 'Sam Roy', phone: '4165550100' },
  };
  for (const [side, address] of Object.entries(sides))
    for (const [key, value] of Object.entries(address)) await page.getByTestId(`${side}-${key}`).fill(value);
  await page.getByTestId('parcel-0-length').fill('10');
  await page.getByTestId('parcel-0-width').fill('8');
  await page.getByTestId('parcel-0-height').fill('6');
  await page.getByTestId('parcel-0-weight').fill('4');
}

/** Sends the next quote the form asks for with its body changed, and waits for the server's answer. */
async function tamperedQuote(page: Page, change: (body: { customs: { items: unknown[] } }) => void) {
  await page.route(QUOTE_URL, async (route) => {
    const body = route.request().postDataJSON();
    change(body);
    await route.continue({ postData: JSON.stringify(body) });
  });
  const answer = page.waitForResponse(QUOTE_URL);
  await page.getByTestId('get-quotes').click();
  expect((await (await answer).json()).code).toBe(400);
  await page.unroute(QUOTE_URL);
}

test.use({ actionTimeout: 30_000 });

test('a parcel going abroad declares its customs on the quote form, and the waybill keeps them', async ({
  page,
}) => {
  // Two languages, two widths, three refusals and a booking: longer than one page's steps.
  test.setTimeout(120_000);
  await session(page, 'customer@example.com');
  await page.goto('/onlineQuotation');
  const customs = page.getByTestId('quote-customs');
  // Within the US there is nothing to declare.
  await expect(page.getByTestId('quote-sender')).toBeVisible();
  await expect(customs).toHaveCount(0);

  await fillAbroad(page);
  await expect(customs).toBeVisible();
  await expect(customs).toContainText('报关信息');
  await expect(page.getByTestId('customs-currency')).toHaveValue('USD');
  await expect(page.getByTestId('customs-incoterm')).toContainText('DAP');
  await expect(page.getByTestId('customs-item-0-description')).toBeVisible();

  // Goods without a line: refused on the form, naming the field in Chinese.
  await choose(page, 'customs-contentsType', '商品');
  await page.getByTestId('customs-item-0-remove').click();
  await expect(page.getByTestId('customs-item-0-description')).toHaveCount(0);
  await page.getByTestId('get-quotes').click();
  await expect(page.getByTestId('customs-items-error')).toHaveText(
    '寄往境外的非文件包裹须至少填写一项报关物品',
  );
  await page.getByTestId('customs-items-error').evaluate((el) => el.scrollIntoView({ block: 'center' }));
  await page.screenshot({ path: `${screenshotDir}customs-no-items-zh-1440.png` });

  // Documents need no line; back to goods, a line is offered again.
  await choose(page, 'customs-contentsType', '文件');
  await expect(page.getByTestId('customs-items-error')).toHaveCount(0);
  await expect(page.getByTestId('customs-documents-note')).toHaveText('文件类包裹无需填写报关物品');
  await choose(page, 'customs-contentsType', '商品');
  await expect(page.getByTestId('customs-item-0-description')).toBeVisible();

  // A line's own rules, worded as the server words them.
  await page.getByTestId('customs-item-0-hsCode').fill('61-09');
  await page.getByTestId('get-quotes').click();
  const item = page.getByTestId('customs-item-0-card');
  await expect(item).toContainText('HS 编码须为 6 到 10 位数字');
  await expect(item).toContainText('物品描述不能为空');

  await page.getByTestId('customs-item-0-description').fill('Cotton T-shirt');
  await page.getByTestId('customs-item-0-hsCode').fill('6109.10');
  await choose(page, 'customs-item-0-originCountry', '(CN)', 'CN');
  await page.getByTestId('customs-item-0-quantity').fill('3');
  await page.getByTestId('customs-item-0-unitValue').fill('12.50');
  await page.getByTestId('customs-item-0-weight').fill('0.4');
  await choose(page, 'customs-incoterm', 'DDP');
  await page.getByTestId('customs-senderTaxId').fill('EIN 12-3456789');
  await expect(page.getByTestId('customs-total')).toHaveText('申报总值 USD 37.50,共 3 件');
  await expect(item).not.toContainText('HS 编码须为');

  // So far the form refused by itself: no call went to the server, and nothing broke.
  await expect(page.getByTestId('error-log-open')).toHaveCount(0);

  // The server's refusals land on the fields they name: a line's HS code, and the list of lines.
  await tamperedQuote(page, (body) => {
    (body.customs.items[0] as { hsCode: string }).hsCode = 'ABC';
  });
  await expect(item).toContainText('HS 编码须为 6 到 10 位数字');
  await tamperedQuote(page, (body) => {
    body.customs.items = [];
  });
  await expect(page.getByTestId('customs-items-error')).toHaveText(
    '寄往境外的非文件包裹须至少填写一项报关物品',
  );
  await customsOnTop(page);
  await page.screenshot({ path: `${screenshotDir}customs-zh-1440.png` });
  await toPhone(page);
  await customsOnTop(page);
  await page.screenshot({ path: `${screenshotDir}customs-zh-390.png` });
  await item.evaluate((el) => el.scrollIntoView({ block: 'start' }));
  await page.screenshot({ path: `${screenshotDir}customs-item-zh-390.png` });
  await page.setViewportSize({ width: 1440, height: 900 });

  // As it is, the shipment prices on the international channel, which books and pays it.
  const sent = page.waitForRequest(QUOTE_URL);
  await page.getByTestId('get-quotes').click();
  expect((await sent).postDataJSON().customs).toMatchObject({ contentsType: 'merchandise', incoterm: 'DDP' });
  await expect(page.getByTestId('channel-INTL-EXP-total')).toContainText('$');
  await page.getByTestId('channel-INTL-EXP-select').click();
  await page.getByTestId('book-pay').click();
  await page.getByTestId('book-pay-confirm').click();
  await page.waitForURL(/\/expressOrderList\?sn=/);
  const waybillNo = decodeURIComponent(new URL(page.url()).searchParams.get('sn') ?? '');
  const { list } = await api(page, '/express/order/list', { page: 1, limit: 10, keyword: waybillNo });
  const { waybill } = await api(page, '/express/order/info', { id: (list[0] as { id: number }).id });
  // The HS code as the contract keeps it: digits only.
  expect(waybill.shipment.customs).toEqual({
    contentsType: 'merchandise',
    currency: 'USD',
    incoterm: 'DDP',
    senderTaxId: 'EIN 12-3456789',
    receiverTaxId: '',
    items: [
      {
        description: 'Cotton T-shirt',
        hsCode: '610910',
        originCountry: 'CN',
        quantity: 3,
        unitValue: '12.50',
        weight: 0.4,
      },
    ],
  });

  // Its papers print on their own too, for a label sent to a thermal printer: the invoice and the CN 22.
  const row = page.locator('tr.ant-table-row', { hasText: waybillNo });
  await row.getByTestId(`waybill-${waybillNo}`).click();
  await page.getByTestId('waybill-drawer-print-formats').click();
  const papers = page.waitForEvent('download');
  await page.getByTestId('waybill-drawer-print-customs').click();
  const file = await papers;
  expect(file.suggestedFilename()).toBe(`customs-${waybillNo}.pdf`);
  const { PDFDocument } = await import('pdf-lib');
  const pdf = await PDFDocument.load(readFileSync(await file.path()));
  expect(pdf.getPageCount()).toBe(2);
  // Papers are not the label: the waybill still waits to be printed.
  await expect(page.getByTestId('waybill-drawer')).toContainText('待打印');
  await page.keyboard.press('Escape');

  // The same form in English.
  await page.goto('/onlineQuotation');
  await switchLanguage(page, 'en');
  await expect(page.getByTestId('quote-sender')).toBeVisible();
  await fillAbroad(page);
  await expect(customs).toContainText('Customs');
  await expect(customs).toContainText('Type of contents');
  await expect(customs).toContainText('Incoterm');
  await choose(page, 'customs-contentsType', 'Merchandise');
  await page.getByTestId('customs-item-0-remove').click();
  await page.getByTestId('get-quotes').click();
  await expect(page.getByTestId('customs-items-error')).toContainText('Customs items');
  await page.getByTestId('customs-item-add').click();
  await page.getByTestId('customs-item-0-hsCode').fill('12');
  await page.getByTestId('get-quotes').click();
  await expect(page.getByTestId('customs-item-0-card')).toContainText('The HS code is 6 to 10 digits');
  await customsOnTop(page);
  await page.screenshot({ path: `${screenshotDir}customs-en-1440.png` });
  await toPhone(page);
  await customsOnTop(page);
  await page.screenshot({ path: `${screenshotDir}customs-en-390.png` });
  await page.getByTestId('customs-item-0-card').evaluate((el) => el.scrollIntoView({ block: 'start' }));
  await page.screenshot({ path: `${screenshotDir}customs-item-en-390.png` });
  await page.setViewportSize({ width: 1440, height: 900 });

  // Back within the US: the section goes, and the quote carries no customs.
  await choose(page, 'recipient-country', '(US)', 'US');
  for (const [key, value] of Object.entries(expressAddress('Dallas', 'TX', '75201')))
    await page.getByTestId(`recipient-${key}`).fill(value);
  await expect(customs).toHaveCount(0);
  const domestic = page.waitForRequest(QUOTE_URL);
  await page.getByTestId('get-quotes').click();
  expect((await domestic).postDataJSON()).not.toHaveProperty('customs');
  await expect(page.getByTestId('channel-USG-STD-total')).toContainText('$');
  await switchLanguage(page, 'zh');
});
