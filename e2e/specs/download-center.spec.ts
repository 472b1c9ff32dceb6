/// <reference path="../../apps/server/src/modules/addresses/zipcodes.d.ts" />
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Shipment } from '@freight/contracts/truck-shipment';
import { expect, type Page, test } from '@playwright/test';
import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { openDatabase } from '../../apps/server/src/db/client.ts';
import { seedDemo, syncReferenceData } from '../../apps/server/src/db/seed.ts';
import { DEMO_PASSWORD, mailedCode, screenshotDir } from '../fixtures.ts';

/**
 * A big export runs as a job and is downloaded from the download centre. 50,000 orders cannot be made
 * through the pages in reasonable time, so this spec runs a portal of its own: its embedded database
 * is seeded with the demo tenant and 50,000 orders in SQL before that portal starts (the suite's own
 * portal holds its database open, and its sessions are left alone).
 */
const ORDERS = 50_000;
// The server as `npm start` runs it, compiled (the suite's own portal was started from the same build).
const serverBundle = new URL('../../apps/server/dist/server.js', import.meta.url).pathname;

test.describe.configure({ mode: 'serial' });

const address = (zipcode: string, state: string, city: string) => ({
  name: 'Dock',
  address1: '1 Main St',
  address2: '',
  zipcode,
  city,
  state,
  country: 'US',
  contact: 'Pat Lee',
  dialCode: '1',
  phone: '2135550100',
  email: '',
  windowStart: '09:00',
  windowEnd: '17:00',
  addressType: 'business' as const,
  fbaCode: '',
  saveToBook: false,
});

/** What every seeded order carries, as a booked order stores it. */
const shipment: Shipment = {
  mode: 'LTL',
  pickup: address('90001', 'CA', 'Los Angeles'),
  delivery: address('75201', 'TX', 'Dallas'),
  quoteDate: '2026-11-23',
  deliveryDate: '',
  lines: [
    {
      sku: '',
      name: 'Parts',
      quantity: 10,
      unit: 'pcs',
      palletCount: 2,
      palletType: 'pallet',
      goodsValue: '0',
      length: 48,
      width: 40,
      height: 48,
      totalWeight: 800,
      nmfc: '',
      stackable: true,
      dangerous: null,
      freightClass: '70',
    },
  ],
  accessorials: [],
  insurance: { included: false, insuredValue: '0' },
};
const quote = { ok: false, serviceLevel: 'standard', name: '标准', nameEn: 'Standard' };

let dataDir = '';
let server: ChildProcess | null = null;
let base = '';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

test.beforeAll(async () => {
  test.setTimeout(180_000);
  dataDir = mkdtempSync(join(tmpdir(), 'fp-e2e-downloads-'));
  const database = await openDatabase({ dataDir });
  await syncReferenceData(database.db);
  const { tenant } = await seedDemo(database.db);
  const result = await database.db.execute(
    sql`select organisation_id from users where tenant_id = ${tenant.id} and email = 'customer@example.com'`,
  );
  const organisationId = (result as unknown as { rows: { organisation_id: number }[] }).rows[0]
    ?.organisation_id;
  await database.db.execute(sql`
    insert into truck_orders (tenant_id, order_no, query_code, organisation_id, user_id, carrier, mode, status,
      shipment, quote, levels, total_cents, origin, destination, transit_days_min, transit_days_max,
      pickup_code, delivery_code, customer_order_no, created_at)
    select ${tenant.id}, 'E2E' || lpad(g::text, 6, '0'), 'Q' || g, ${organisationId}, 1, 'Carrier ' || (g % 20), 'LTL',
      (array['unpaid','pending_review','to_be_picked_up','picked_up','in_transit','delivered','cancelled'])[1 + g % 7],
      ${JSON.stringify(shipment)}::jsonb, ${JSON.stringify(quote)}::jsonb, '[]'::jsonb, 10000 + g, 'Los Angeles, CA 90001', 'Dallas, TX 75201', 2, 5,
      '000000', '000000', 'PO-' || g, now() - (g || ' seconds')::interval
    from generate_series(1, ${ORDERS}) as g`);
  // A live database has its statistics kept by autovacuum; a bulk load has none until analyzed.
  await database.db.execute(sql`analyze truck_orders`);
  await database.close();

  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  let output = '';
  server = spawn(process.execPath, ['--enable-source-maps', serverBundle], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      NODE_ENV: 'development',
      RATE_LIMIT_SCALE: '100',
      JOB_POLL_SECONDS: '1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stdout?.on('data', (d) => {
    output += d;
  });
  server.stderr?.on('data', (d) => {
    output += d;
  });
  const until = Date.now() + 90_000;
  while (!output.includes('is running at')) {
    if (server.exitCode !== null) throw new Error(`the portal exited while starting:\n${output}`);
    if (Date.now() > until) throw new Error(`the portal did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
});

test.afterAll(async () => {
  if (server && server.exitCode === null) {
    const exited = new Promise((resolve) => server?.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
  }
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** Signs in through the login page on this spec's portal (the shared fixture keeps the suite's sessions). */
async function signInHere(page: Page, email: string) {
  await page.goto(`${base}/login`);
  await page.getByTestId('login-email').fill(email);
  await page.getByTestId('login-password').fill(DEMO_PASSWORD);
  await page.getByTestId('login-get-code').click();
  await expect(page.getByTestId('login-get-code')).toBeDisabled();
  await page.getByTestId('login-code').fill(await mailedCode(page.request, email));
  await page.getByTestId('login-submit').click();
  await page.waitForURL(/\/home/);
  await page.getByTestId('home-greeting').waitFor();
}

test(`an export of ${ORDERS.toLocaleString('en-US')} orders runs as a job and is downloaded from the download centre`, async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const context = await browser.newContext({ baseURL: base });
  const page = await context.newPage();
  await signInHere(page, 'admin@example.com');
  await expect(page.getByTestId('download-badge')).toHaveAttribute('data-count', '0');

  await page.goto(`${base}/orderList`);
  await page.getByTestId('order-export').click();
  // Too many rows to answer at once: the page says where the file is being prepared.
  await expect(page.getByTestId('export-queued')).toBeVisible();
  const started = Date.now();
  await page.getByTestId('export-queued-link').click();
  await page.waitForURL(/\/downloadCenter/);

  // The page follows the job: queued or running, then ready with every row.
  const row = page.getByTestId('download-center').locator('.ant-table-row').first();
  await expect(row).toContainText('卡车订单', { timeout: 60_000 });
  // While the file is written the row shows how far it has got.
  await expect(row.getByTestId(/^dl-progress-/)).toBeVisible({ timeout: 60_000 });
  await page.screenshot({ path: `${screenshotDir}download-center-progress.png` });
  await expect(row.getByText('已完成')).toBeVisible({ timeout: 120_000 });
  const seconds = (Date.now() - started) / 1000;
  console.log(`export of ${ORDERS} orders ready in ${seconds.toFixed(1)} s`);
  await expect(row).toContainText(ORDERS.toLocaleString());
  await page.screenshot({ path: `${screenshotDir}download-center.png`, fullPage: true });
  // The order list showed the seeded orders and nothing failed on the way.
  await expect(page.getByTestId('error-log-open')).toHaveCount(0);

  const downloading = page.waitForEvent('download');
  await row.getByTestId(/^dl-download-/).click();
  const file = await downloading;
  expect(file.suggestedFilename()).toMatch(/^卡车订单-\d+\.xlsx$/);
  const path = await file.path();
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(path);
  const sheet = workbook.worksheets[0];
  expect(sheet?.rowCount).toBe(ORDERS + 1);
  // Newest first, as the list shows them.
  expect(sheet?.getRow(2).getCell(1).value).toBe('E2E000001');
  expect(sheet?.getRow(ORDERS + 1).getCell(1).value).toBe(`E2E${String(ORDERS).padStart(6, '0')}`);
  await context.close();
});

test('the top bar counts a ready file until it is seen in the download centre', async ({ browser }) => {
  test.setTimeout(180_000);
  const context = await browser.newContext({ baseURL: base });
  const page = await context.newPage();
  await signInHere(page, 'editor@example.com');
  await page.goto(`${base}/orderList`);
  await page.getByTestId('order-export').click();
  await expect(page.getByTestId('export-queued')).toBeVisible();
  // The badge is refreshed as the export is queued and then while it runs; it shows the file once ready.
  await expect(page.getByTestId('download-badge')).toHaveAttribute('data-count', '1', { timeout: 120_000 });
  await page.screenshot({ path: `${screenshotDir}download-badge.png` });
  await page.getByTestId('top-downloads').click();
  await page.waitForURL(/\/downloadCenter/);
  await expect(
    page.getByTestId('download-center').locator('.ant-table-row').first().getByText('已完成'),
  ).toBeVisible();
  await expect(page.getByTestId('download-badge')).toHaveAttribute('data-count', '0');

  // Deleting asks first, then the file is gone from the list.
  await page
    .getByTestId('download-center')
    .locator('.ant-table-row')
    .first()
    .getByTestId(/^dl-delete-/)
    .click();
  await page
    .locator('.ant-popconfirm')
    .getByRole('button', { name: /确\s*定|OK/ })
    .click();
  await expect(page.getByTestId('download-center').locator('.ant-table-row')).toHaveCount(0);
  await expect(page.getByText('暂无导出文件')).toBeVisible();
  await page.screenshot({ path: `${screenshotDir}download-center-empty.png` });
  await context.close();
});
