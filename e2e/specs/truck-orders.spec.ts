import { expect, type Locator, type Page, test } from '@playwright/test';
import ExcelJS from 'exceljs';
import { screenshotDir, session, switchLanguage } from '../fixtures.ts';

test.describe.configure({ mode: 'serial' });

async function fillAddress(
  card: Locator,
  a: { name: string; street: string; zip: string; city: string; contact: string },
) {
  await card.getByLabel('地址名称').fill(a.name);
  await card.getByLabel('地址 1').fill(a.street);
  await card.getByLabel('邮编').fill(a.zip);
  // The ZIP lookup fills the city and the state.
  await expect(card.getByLabel('城市')).toHaveValue(a.city);
  await card.getByLabel('联系人').fill(a.contact);
  await card
    .getByTestId(`${(await card.getAttribute('data-testid'))?.replace('quote-', '')}-phone`)
    .fill('2135550100');
}

async function confirm(page: Page, action: string) {
  await page.getByTestId(`action-${action}`).click();
  await page.getByTestId('confirm-action').click();
}

test('a customer quotes, books and pays; staff move the order to delivered; both languages', async ({
  browser,
}) => {
  const customer = await browser.newPage();
  await session(customer, 'customer@example.com');
  await customer.goto('/mail');
  await fillAddress(customer.getByTestId('quote-pickup'), {
    name: 'Acme Dock',
    street: '100 Main St',
    zip: '90001',
    city: 'Los Angeles',
    contact: 'Pat Lee',
  });
  await fillAddress(customer.getByTestId('quote-delivery'), {
    name: 'Dallas DC',
    street: '500 Commerce St',
    zip: '75201',
    city: 'Dallas',
    contact: 'Sam Ray',
  });
  const goods = customer.getByTestId('quote-form');
  await goods.getByLabel('品名').fill('Auto parts');
  await goods.getByLabel('托数').fill('2');
  await goods.getByLabel('长(英寸)').fill('48');
  await goods.getByLabel('宽(英寸)').fill('40');
  await goods.getByLabel('高(英寸)').fill('48');
  await goods.getByLabel('总重(磅)').fill('800');
  await expect(customer.getByTestId('line-0-suggested')).toContainText('建议等级 125');
  await customer.getByTestId('quote-services').getByText('送货尾板').click();
  await customer.getByTestId('get-quotes').click();

  const results = customer.getByTestId('quote-results');
  const standard = results.getByTestId('result-LTL-STD');
  await expect(standard).toContainText('最便宜');
  await expect(standard).toContainText('送货尾板');
  // The West Coast economy product has no lane to Texas.
  await expect(results.getByTestId('result-LTL-ECO')).toContainText('该线路暂无运价');
  const total = ((await customer.getByTestId('result-LTL-STD-total').textContent()) ?? '').trim();
  expect(total).toMatch(/^\$\d[\d,]*\.\d\d$/);
  await customer.screenshot({ path: `${screenshotDir}truck-quote-zh.png`, fullPage: true });

  // Changing the goods drops the prices until quoted again.
  await goods.getByLabel('总重(磅)').fill('900');
  await expect(results).toContainText('货物信息已修改');
  await goods.getByLabel('总重(磅)').fill('800');
  await customer.getByTestId('get-quotes').click();
  await expect(customer.getByTestId('result-LTL-STD-total')).toHaveText(total);

  await customer.getByTestId('book-LTL-STD').click();
  await customer.getByTestId('book-customer-no').fill('PO-7788');
  await customer.getByTestId('book-confirm').click();
  await expect(customer).toHaveURL(/\/orderInfo\?id=\d+/);
  await expect(customer.getByTestId('order-info-status')).toHaveText('待审核');
  await expect(customer.getByTestId('order-total')).toHaveText(total);
  await expect(customer.getByTestId('order-ledger')).toContainText('订单支付');
  const orderNo = ((await customer.getByTestId('order-no').textContent()) ?? '').trim();
  expect(orderNo).toMatch(/^TK\d{14}$/);

  const staff = await (
    await browser.newContext({
      baseURL: new URL(customer.url()).origin,
      viewport: { width: 1440, height: 900 },
    })
  ).newPage();
  await session(staff, 'admin@example.com');
  await staff.goto('/orderList');
  await staff.getByTestId('order-keyword').fill(orderNo);
  await staff.getByTestId('filter-search').click();
  await staff.getByTestId(`order-${orderNo}`).click();
  await expect(staff.getByTestId('order-info-status')).toHaveText('待审核');
  await staff.screenshot({ path: `${screenshotDir}truck-order-staff-zh.png`, fullPage: true });
  await confirm(staff, 'approve');
  await expect(staff.getByTestId('order-info-status')).toHaveText('待提货');
  await confirm(staff, 'pickup');
  await expect(staff.getByTestId('order-info-status')).toHaveText('已提货');
  await confirm(staff, 'depart');
  await expect(staff.getByTestId('order-info-status')).toHaveText('运输中');
  await confirm(staff, 'deliver');
  await expect(staff.getByTestId('order-info-status')).toHaveText('已签收');
  await expect(staff.getByTestId('order-timeline')).toContainText('确认签收');

  await customer.reload();
  await expect(customer.getByTestId('order-info-status')).toHaveText('已签收');
  await switchLanguage(customer, 'en');
  // The choice is kept: the reloaded page reads in English.
  await customer.reload();
  await expect(customer.getByTestId('order-info-status')).toHaveText('Delivered');
  await expect(customer.getByTestId('order-ledger')).toContainText('Order payment');
  await customer.screenshot({ path: `${screenshotDir}truck-order-en.png`, fullPage: true });
  await customer.goto('/orderList');
  await expect(customer.getByTestId(`order-${orderNo}`)).toBeVisible();
  await customer.screenshot({ path: `${screenshotDir}truck-orders-en.png` });
  await switchLanguage(customer, 'zh');
  await staff.close();
  await customer.close();
});

test('a batch file with two bad rows imports nothing and names them; the fixed file imports all', async ({
  page,
}) => {
  await session(page, 'customer@example.com');
  await page.getByTestId('top-truck-batch').click();
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
    values[column('客户单号')] = `BATCH-${n}`;
    for (const [name, value] of Object.entries(change)) values[column(name)] = value;
    return values;
  };
  // The template's dropdowns reach far down the sheet, so rows are written in place from row 2.
  const build = async (rows: unknown[][]) => {
    for (const [i, r] of rows.entries()) sheet.getRow(i + 2).values = r as ExcelJS.CellValue[];
    return Buffer.from(await workbook.xlsx.writeBuffer());
  };

  const bad = await build([
    rowWith(1),
    rowWith(2, { 送货邮编: '7520' }),
    rowWith(3),
    rowWith(4, { '总重(磅)': 'heavy' }),
  ]);
  await page.locator('.ant-modal input[type=file]').setInputFiles({
    name: 'orders.xlsx',
    mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    buffer: bad,
  });
  await page.getByTestId('batch-import').click();
  const failures = page.getByTestId('batch-failures');
  await expect(failures).toContainText('第 3 行');
  await expect(failures).toContainText('送货邮编');
  await expect(failures).toContainText('第 5 行');
  await expect(failures).not.toContainText('第 2 行');
  await page.screenshot({ path: `${screenshotDir}truck-batch-failures-zh.png` });
  await page.getByTestId('batch-failures-ok').click();

  const good = await build([rowWith(1), rowWith(2), rowWith(3), rowWith(4)]);
  await page.locator('.ant-modal input[type=file]').setInputFiles({
    name: 'orders-fixed.xlsx',
    mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    buffer: good,
  });
  await page.getByTestId('batch-check').click();
  await expect(page.getByText('校验通过,可以导入')).toBeVisible();
  await page.getByTestId('batch-import').click();
  await expect(page.getByText('导入成功')).toBeVisible();
  await page.goto('/orderList');
  await page.getByTestId('order-keyword').fill('BATCH-');
  await page.getByTestId('filter-search').click();
  await expect(page.getByText('共 4 条')).toBeVisible();
  // Imported orders wait for payment: pay them together.
  await page.locator('.ant-table-thead .ant-checkbox-input').check();
  await page.getByTestId('bulk-pay').click();
  await page.locator('.ant-modal-confirm-btns .ant-btn-primary').click();
  await expect(page.getByText('成功 4 单,失败 0 单')).toBeVisible();
  await expect(page.getByTestId('order-status').filter({ hasText: '待审核' })).toHaveCount(4);
});

test("the truck dashboard shows today's orders, the balance and the charts", async ({ page }) => {
  await session(page, 'customer@example.com');
  await page.goto('/dashboard');
  const today = page.getByTestId('stat-today-orders').locator('.ant-statistic-content-value');
  await expect(today).not.toHaveText('0');
  await expect(page.getByTestId('stat-available')).toBeVisible();
  await expect(page.getByTestId('chart-last30').locator('canvas')).toBeVisible();
  await expect(page.getByTestId('chart-by-status').locator('canvas')).toBeVisible();
  await page.screenshot({ path: `${screenshotDir}truck-dashboard-zh.png`, fullPage: true });
});

test('staff see the dashboard over every order in both languages, and its charts follow the page width', async ({
  page,
}) => {
  await session(page, 'admin@example.com');
  await page.goto('/dashboard');
  const daily = page.getByTestId('chart-last30');
  await expect(daily.locator('canvas')).toBeVisible();
  await expect(page.getByTestId('truck-dashboard')).toContainText('近 30 天订单与收款');
  await page.screenshot({ path: `${screenshotDir}truck-dashboard-admin-zh.png`, fullPage: true });
  // Below 1200 px the chart takes the whole row: it is redrawn to the new width of its box.
  const canvasWidth = async () => Math.round((await daily.locator('canvas').boundingBox())?.width ?? 0);
  const before = await canvasWidth();
  await page.setViewportSize({ width: 1100, height: 900 });
  await expect.poll(canvasWidth).toBeGreaterThan(before);
  expect(await canvasWidth()).toBe(Math.round((await daily.boundingBox())?.width ?? 0));
  await page.setViewportSize({ width: 1440, height: 900 });
  await switchLanguage(page, 'en');
  await expect(page.getByTestId('truck-dashboard')).toContainText('Orders and payments, last 30 days');
  await expect(page.getByTestId('chart-by-status').locator('canvas')).toBeVisible();
  await expect(page.getByTestId('lang-en')).toBeHidden();
  await page.screenshot({ path: `${screenshotDir}truck-dashboard-admin-en.png`, fullPage: true });
  await switchLanguage(page, 'zh');
});

test('an order that does not exist or is not visible says so and leads back to the order list', async ({
  page,
}) => {
  await session(page, 'customer@example.com');
  await page.goto('/orderInfo?id=987654');
  const unavailable = page.getByTestId('order-unavailable');
  await expect(unavailable).toContainText('找不到该订单');
  await expect(unavailable).toContainText('订单 987654 不存在,或者您无权查看');
  await switchLanguage(page, 'en');
  await expect(unavailable).toContainText('Order 987654 does not exist or is not visible to you');
  await expect(page.getByTestId('lang-en')).toBeHidden();
  await page.screenshot({ path: `${screenshotDir}truck-order-missing-en.png` });
  await switchLanguage(page, 'zh');
  await page.getByTestId('order-back-to-list').click();
  await expect(page).toHaveURL(/\/orderList/);
});
