import { expect, type Page, test } from '@playwright/test';
import ExcelJS from 'exceljs';
import { extractText, getDocumentProxy } from 'unpdf';
import { api, authHeaders, expressAddress, screenshotDir, session, switchLanguage } from '../fixtures.ts';

test.describe.configure({ mode: 'serial' });

/** The waybill of the first test, which the later ones ship and deliver. */
let booked: { waybillNo: string; trackingNo: string } | null = null;

async function channelId(page: Page, code: string): Promise<number> {
  const { list } = await api(page, '/admin/expressChannel/list', { page: 1, limit: 50 });
  return (list as { id: number; code: string }[]).find((c) => c.code === code)?.id as number;
}

test('staff import a zone chart and a price table; a chart with a bad row imports nothing and names it', async ({
  page,
}, testInfo) => {
  await session(page, 'admin@example.com');
  const id = await channelId(page, 'USG-STD');
  await page.goto(`/partitionTable?channelId=${id}`);
  const zones = page.getByTestId('zone-rows-table');
  await expect(zones).toContainText('900');

  const exported = page.waitForEvent('download');
  await page.getByTestId('zones-export').click();
  const chart = testInfo.outputPath('zones.xlsx');
  await (await exported).saveAs(chart);

  // The exported chart with one more row whose origin is no ZIP3.
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(chart);
  const sheet = workbook.worksheets[0] as ExcelJS.Worksheet;
  const badRow = sheet.rowCount + 1;
  sheet.addRow(['ABC', '999', '000', '999', '', '9']);
  const bad = testInfo.outputPath('zones-bad.xlsx');
  await workbook.xlsx.writeFile(bad);
  await page.locator('input[type=file]').setInputFiles(bad);
  await page.getByTestId('import-confirm-ok').click();
  const errors = page.getByTestId('import-errors');
  await expect(errors).toContainText(`第 ${badRow} 行`);
  await expect(page.getByText('文件中的数据一条也没有导入')).toBeVisible();
  await page.screenshot({ path: `${screenshotDir}express-zones-import-errors-zh.png` });
  await page.getByTestId('import-errors-ok').click();

  await page.locator('input[type=file]').setInputFiles(chart);
  await page.getByTestId('import-confirm-ok').click();
  await expect(page.getByText(/导入.*8/).first()).toBeVisible();
  await expect(zones).toContainText('700–799');

  await page.goto(`/channelPrice?channelId=${id}`);
  await expect(page.getByTestId('price-grid')).toBeVisible();
  const prices = page.waitForEvent('download');
  await page.getByTestId('prices-export').click();
  const table = testInfo.outputPath('prices.xlsx');
  await (await prices).saveAs(table);
  await page.locator('input[type=file]').setInputFiles(table);
  await page.getByTestId('import-confirm-ok').click();
  await expect(page.getByText(/导入.*30/).first()).toBeVisible();
  await page.screenshot({ path: `${screenshotDir}express-prices-zh.png`, fullPage: true });
});

test('a customer quotes in English, books and pays, and prints the label', async ({ page }) => {
  await session(page, 'customer@example.com');
  await page.goto('/onlineQuotation');
  await switchLanguage(page, 'en');
  const fill = async (side: 'sender' | 'recipient', a: ReturnType<typeof expressAddress>) => {
    for (const [key, value] of Object.entries(a)) await page.getByTestId(`${side}-${key}`).fill(value);
  };
  await fill('sender', expressAddress('Los Angeles', 'CA', '90001'));
  await fill('recipient', expressAddress('Dallas', 'TX', '75201'));
  await page.getByTestId('parcel-0-length').fill('10');
  await page.getByTestId('parcel-0-width').fill('8');
  await page.getByTestId('parcel-0-height').fill('6');
  await page.getByTestId('parcel-0-weight').fill('4');
  await page.getByTestId('quote-reference').fill('PO-E2E');
  await page.getByTestId('get-quotes').click();

  // 4 lb to Dallas on the standard channel: 21.25 with the demo markups down the tree.
  await expect(page.getByTestId('channel-USG-STD-total')).toContainText('21.25');
  await expect(page.getByTestId('channel-INTL-EXP-reason')).toBeVisible();
  await page.screenshot({ path: `${screenshotDir}express-quote-en.png`, fullPage: true });
  await page.getByTestId('channel-USG-STD-select').click();
  await expect(page.getByTestId('booking-total')).toContainText('21.25');
  await page.getByTestId('book-pay').click();
  await page.getByTestId('book-pay-confirm').click();

  await page.waitForURL(/\/expressOrderList\?sn=/);
  const waybillNo = new URL(page.url()).searchParams.get('sn') as string;
  const row = page.locator('tr.ant-table-row', { hasText: waybillNo });
  await expect(row).toContainText('To be printed');
  await page.screenshot({ path: `${screenshotDir}express-orders-en.png` });

  const label = page.waitForEvent('download');
  await row.getByTestId('waybill-act-print').click();
  const pdfPath = await (await label).path();
  const pdf = await getDocumentProxy(
    new Uint8Array(await import('node:fs').then((fs) => fs.readFileSync(pdfPath))),
  );
  const { text } = await extractText(pdf, { mergePages: true });
  const { list } = await api(page, '/express/order/list', { page: 1, limit: 10, keyword: waybillNo });
  const waybill = list[0] as { trackingNo: string; status: string };
  expect(text).toContain(waybill.trackingNo);
  expect(text).toContain('Dallas');
  expect(text).toContain('PO-E2E');
  expect(waybill.status).toBe('printed');
  await expect(row).toContainText('Printed');
  booked = { waybillNo, trackingNo: waybill.trackingNo };
  await switchLanguage(page, 'zh');
});

test('staff record where the parcel is until it is delivered, and the customer sees it', async ({
  browser,
  page,
}) => {
  expect(booked).not.toBeNull();
  const { trackingNo, waybillNo } = booked as NonNullable<typeof booked>;
  await session(page, 'admin@example.com');
  await page.goto('/waybillTracking');
  const record = async (code: string | null, location: string) => {
    await page.getByTestId('tracking-add').click();
    await page.getByTestId('tracking-number').fill(trackingNo);
    if (code) {
      await page.getByTestId('tracking-code').click();
      await page.getByTitle(code).click();
    }
    await page.getByTestId('tracking-location').fill(location);
    await page.getByTestId('tracking-save').click();
  };
  // The form starts at "picked up", a minute ago would do as well as now.
  await record(null, 'Los Angeles, CA');
  await expect(page.getByText('运输中').first()).toBeVisible();
  await record('已签收', 'Dallas, TX');
  await expect(page.getByText(/已记录.*已签收/)).toBeVisible();
  await page.getByTestId('tracking-keyword').fill(trackingNo);
  await page.getByTestId('filter-search').click();
  await expect(page.locator('tr.ant-table-row')).toHaveCount(2);
  await page.screenshot({ path: `${screenshotDir}express-tracking-zh.png` });

  const customer = await (
    await browser.newContext({ baseURL: new URL(page.url()).origin, viewport: { width: 1440, height: 900 } })
  ).newPage();
  await session(customer, 'customer@example.com');
  await customer.goto(`/expressOrderList?sn=${waybillNo}`);
  await expect(customer.locator('tr.ant-table-row', { hasText: waybillNo })).toContainText('已签收');
});

test('the customer sends the delivered parcel back to its warehouse with a return waybill', async ({
  page,
}) => {
  expect(booked).not.toBeNull();
  const { waybillNo } = booked as NonNullable<typeof booked>;
  await session(page, 'customer@example.com');
  await api(page, '/express/address/save', {
    kind: 'return',
    name: 'Returns Desk',
    company: 'Acme Returns',
    address1: '200 Dock Rd',
    zipcode: '90001',
    city: 'Los Angeles',
    state: 'CA',
    phone: '2135550199',
  });
  await page.goto('/expressReturnsList');
  await page.getByTestId('return-create').click();
  await page.getByTestId('return-original').fill(waybillNo);
  await page.getByTestId('return-original').press('Enter');
  await page.getByTestId('return-address').click();
  await page.getByTitle(/Acme Returns/).click();
  await page.getByTestId('return-submit').click();
  const row = page.locator('tr.ant-table-row', { hasText: waybillNo });
  await expect(row).toContainText('待支付');
  await expect(row).toContainText(/EW\d+/);
  await page.screenshot({ path: `${screenshotDir}express-returns-zh.png` });
});

test('the customer voids an unshipped waybill and sees the refund in the express ledger', async ({
  page,
}) => {
  await session(page, 'customer@example.com');
  // A second waybill, booked and paid through the API as the page's user.
  const headers = await authHeaders(page);
  const { id: quoteId } = await api(page, '/express/quotation/getQuotas', {
    sender: expressAddress('Los Angeles', 'CA', '90001'),
    recipient: expressAddress('Dallas', 'TX', '75201'),
    parcels: [{ length: 10, width: 8, height: 6, weight: 4 }],
  });
  const rates = await page.request.post('/api/express/quotation/rates', { data: { id: quoteId }, headers });
  expect(rates.headers()['content-type']).toContain('ndjson');
  await api(page, '/express/quotation/select', {
    id: quoteId,
    channelId: await channelIdAsCustomer(page, quoteId),
  });
  const waybill = await api(page, '/express/order/create', { quoteId, pay: true });
  expect(waybill.payment.ok).toBe(true);

  await page.goto(`/expressOrderList?sn=${waybill.waybillNo}`);
  const row = page.locator('tr.ant-table-row', { hasText: waybill.waybillNo });
  await row.getByTestId('waybill-more').click();
  await page.getByRole('menuitem', { name: '作废退款' }).click();
  await page.getByTestId('waybill-reason-reason').fill('Booked twice');
  await page.getByTestId('waybill-reason-submit').click();
  await expect(row).toContainText('已退款');

  await page.goto('/deliveryAccountDetails');
  const ledger = page.locator('.page-card .ant-table tbody');
  await expect(ledger).toContainText(waybill.waybillNo);
  await expect(ledger).toContainText('21.25');
  await page.screenshot({ path: `${screenshotDir}express-ledger-refund-zh.png` });
});

async function channelIdAsCustomer(page: Page, quoteId: number): Promise<number> {
  const quote = await api(page, '/express/quotation/info', { id: quoteId });
  return (quote.results as { code: string; channelId: number }[]).find((r) => r.code === 'USG-STD')
    ?.channelId as number;
}

test('an express batch file with bad rows imports nothing and names them; the fixed file books every row unpaid', async ({
  page,
}) => {
  await session(page, 'customer@example.com');
  // The express batch ships from a sender of the express book: the customer's default dock.
  await api(page, '/express/address/save', {
    kind: 'sender',
    name: 'Pat Lee',
    company: 'Acme Dock',
    address1: '100 Main St',
    zipcode: '90001',
    city: 'Los Angeles',
    state: 'CA',
    phone: '2135550100',
    isDefault: true,
  });
  await page.getByTestId('top-express-batch').click();
  const download = page.waitForEvent('download');
  await page.getByTestId('batch-template').click();
  const template = await (await download).path();
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(template);
  const sheet = workbook.worksheets[0] as ExcelJS.Worksheet;
  const header = (sheet.getRow(1).values as unknown[]).slice(1).map(String);
  const example = (sheet.getRow(2).values as unknown[]).slice(1);
  const column = (name: string) => header.indexOf(name);
  const rowWith = (n: number, change: Record<string, unknown> = {}) => {
    const values = [...example];
    values[column('参考号')] = `EBATCH-${n}`;
    for (const [name, value] of Object.entries(change)) values[column(name)] = value;
    return values;
  };
  const build = async (rows: unknown[][]) => {
    for (const [i, r] of rows.entries()) sheet.getRow(i + 2).values = r as ExcelJS.CellValue[];
    return Buffer.from(await workbook.xlsx.writeBuffer());
  };
  const upload = (name: string, buffer: Buffer) =>
    page.locator('.ant-modal input[type=file]').setInputFiles({
      name,
      mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      buffer,
    });

  await upload(
    'waybills.xlsx',
    await build([rowWith(1), rowWith(2, { 收件邮编: '7520' }), rowWith(3), rowWith(4, { 渠道代码: 'NOPE' })]),
  );
  await page.getByTestId('batch-import').click();
  const failures = page.getByTestId('batch-failures');
  await expect(failures).toContainText('第 3 行');
  await expect(failures).toContainText('收件邮编');
  await expect(failures).toContainText('第 5 行');
  await expect(failures).not.toContainText('第 2 行');
  await page.screenshot({ path: `${screenshotDir}express-batch-failures-zh.png` });
  await page.getByTestId('batch-failures-ok').click();
  const none = await api(page, '/express/order/list', { page: 1, limit: 10, keyword: 'EBATCH-' });
  expect(none.total).toBe(0);

  await upload('waybills-fixed.xlsx', await build([rowWith(1), rowWith(2), rowWith(3), rowWith(4)]));
  await page.getByTestId('batch-check').click();
  await page.getByTestId('batch-import').click();
  await expect(page.getByRole('dialog', { name: '快递批量下单' })).toBeHidden();
  const booked = await api(page, '/express/order/list', { page: 1, limit: 10, keyword: 'EBATCH-' });
  expect(booked.total).toBe(4);
  expect((booked.list as { status: string }[]).every((w) => w.status === 'unpaid')).toBe(true);
});
