import { expect, test } from '@playwright/test';
import ExcelJS from 'exceljs';
import { api, bookPaidOrder, screenshotDir, session, switchLanguage } from '../fixtures.ts';

const today = () => new Date().toISOString().slice(0, 10);
const cents = (money: string) => Math.round(Number(money) * 100);

test("a report's chart, table and export agree with the orders paid", async ({ page, browser }, testInfo) => {
  // Staff's figures before: other specs of the run may have paid orders today too.
  await session(page, 'admin@example.com');
  const query = { from: today(), to: today(), line: 'truck', dimension: 'customer' };
  const before = await api(page, '/admin/reports/summary', query);

  // A customer, in a browser of its own, books and pays two orders from its balance.
  const customer = await browser.newPage();
  await session(customer, 'customer@example.com');
  const paid = [await bookPaidOrder(customer), await bookPaidOrder(customer)];
  // What the customer's ledger says these orders took from its balance.
  let paidCents = 0;
  for (const order of paid) {
    const detail = await api(customer, '/admin/order/info', { id: order.id });
    const taken = -detail.ledger.reduce((s: number, row: { amount: string }) => s + cents(row.amount), 0);
    expect(taken).toBe(cents(detail.order.total));
    paidCents += taken;
  }

  await customer.close();
  await switchLanguage(page, 'en');
  await page.goto('/financialStatements');
  const table = page.getByTestId('reports-table');
  await expect(page.getByTestId('reports-chart')).toBeVisible();
  await expect(table).toContainText('Acme Imports');
  const expected = cents(before.totals.revenue) + paidCents;
  const revenueCell = page.getByTestId('reports-totals-revenue');
  // The page opens on the last 30 days of both lines: today's truck money is in it.
  await expect(revenueCell).toBeVisible();

  // Today, truck only: exactly the figures before plus the two orders.
  await page.getByTestId('reports-line').click();
  await page.locator('.ant-select-item-option[title="Truck"]').click();
  await page.getByTestId('reports-search').click();
  await expect
    .poll(async () => cents(((await revenueCell.textContent()) ?? '0').replace(/[^\d.-]/g, '')))
    .toBeGreaterThanOrEqual(expected);
  const report = await api(page, '/admin/reports/summary', {
    from: new Date(Date.now() - 29 * 86_400_000).toISOString().slice(0, 10),
    to: today(),
    line: 'truck',
    period: 'day',
    dimension: 'customer',
  });
  const todayPoint = report.series.find((s: { period: string }) => s.period === today());
  expect(cents(todayPoint.revenue)).toBe(expected);
  expect(todayPoint.orders).toBe(before.totals.orders + 2);
  await expect(revenueCell).toHaveText(report.totals.revenue);
  await expect(page.getByTestId('reports-totals-cost')).toHaveText(report.totals.cost);
  await expect(page.getByTestId('reports-totals-margin')).toHaveText(report.totals.margin);
  await page.screenshot({ path: `${screenshotDir}reports-en.png`, fullPage: true });

  // The export is the table: its totals row carries the page's totals.
  const download = page.waitForEvent('download');
  await page.getByTestId('reports-export').click();
  const file = testInfo.outputPath('report.xlsx');
  await (await download).saveAs(file);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(file);
  const rows = (workbook.worksheets[0] as ExcelJS.Worksheet).getSheetValues().slice(2) as unknown[][];
  expect(rows).toHaveLength(report.rows.length + 1);
  expect(rows.at(-1)?.slice(1)).toEqual([
    'Total',
    report.totals.orders,
    Number(report.totals.revenue),
    Number(report.totals.cost),
    Number(report.totals.margin),
  ]);
  const acme = rows.find((r) => r[1] === 'Acme Imports');
  const acmeRow = report.rows.find((r: { name: string }) => r.name === 'Acme Imports');
  expect(acme?.[3]).toBe(Number(acmeRow.revenue));

  // In Chinese, and with nothing in range the page says so.
  await switchLanguage(page, 'zh');
  await expect(page.getByText('收入、成本与毛利')).toBeVisible();
  await page.screenshot({ path: `${screenshotDir}reports-zh.png`, fullPage: true });
});
