import { expect, type Page, test } from '@playwright/test';
import { screenshotDir, session, switchLanguage } from '../fixtures.ts';

test.describe.configure({ mode: 'serial' });

const CODE = 'E2E-LTL';

/** The rate of class `cls` at break `index` in the lane dialog's grid. */
const cell = (page: Page, cls: string, index: number) =>
  page.getByTestId(`grid-rate-${cls}-${index}`).locator('input');

test('staff create a product with terms, add an LTL lane, export the tariff and see a refused import listed', async ({
  page,
}, testInfo) => {
  await session(page, 'admin@example.com');
  await page.goto('/productManagement');

  await page.getByTestId('product-new').click();
  const form = page.getByTestId('product-form');
  await page.getByTestId('product-code').fill(CODE);
  await page.getByTestId('product-name').fill('测试零担');
  await page.getByTestId('product-name-en').fill('E2E LTL');
  await page.getByTestId('product-carrier').fill('E2E Carrier');
  await form.getByLabel('最短时效(工作日)').fill('3');
  await form.getByLabel('最长时效(工作日)').fill('2');
  await page.getByTestId('product-save').click();
  await expect(form.getByText('最长时效不能小于最短时效')).toBeVisible();
  await form.getByLabel('最长时效(工作日)').fill('6');
  // Opened to one agent, and so to the customers under it.
  await page.getByTestId('product-organisations').click();
  await page.getByTitle('Harbor Freight Agency · 代理').click();
  await page.getByRole('dialog').getByText('新增产品').click();
  await page.screenshot({ path: `${screenshotDir}truck-products-dialog-zh.png` });
  await page.getByTestId('product-save').click();
  const row = page.getByRole('row', { name: new RegExp(CODE) });
  await expect(row).toContainText('测试零担');
  await expect(row).toContainText('3-6 个工作日');
  await expect(row).toContainText('1 个机构');

  // Terms: one accessorial offered with its fee, and the insurance rate.
  await page.getByTestId(`product-terms-${CODE}`).click();
  const terms = page.getByTestId('terms-form');
  await terms.getByTestId('terms-fee-liftgate_delivery').getByRole('checkbox').check();
  await terms.getByTestId('terms-fee-liftgate_delivery').getByRole('textbox').fill('75');
  await terms.getByLabel('保险费率').fill('0.45');
  await page.screenshot({ path: `${screenshotDir}truck-products-terms-zh.png` });
  await page.getByTestId('terms-save').click();
  await expect(terms).toBeHidden();
  await expect(row).toContainText('1 项');
  await expect(row).toContainText('0.45%');

  // Disabling asks first.
  await page.getByTestId(`product-status-${CODE}`).click();
  await page.getByTestId('product-status-ok').click();
  await expect(page.getByTestId(`product-status-${CODE}`)).not.toBeChecked();
  // The first question has gone before the second is asked.
  await expect(page.getByTestId('product-status-ok')).toHaveCount(0);
  await page.getByTestId(`product-status-${CODE}`).click();
  await page.getByTestId('product-status-ok').click();
  await expect(page.getByTestId(`product-status-${CODE}`)).toBeChecked();
  await page.waitForFunction(() => document.getAnimations().length === 0);
  await page.screenshot({ path: `${screenshotDir}truck-products-zh.png` });

  // The row's lanes link opens the tariff page on this product.
  await row.getByRole('button', { name: '线路' }).click();
  await page.waitForURL(/\/freightRule\?productId=\d+/);
  await expect(page.getByTestId('rule-product')).toContainText(CODE);

  await page.getByTestId('lane-new').click();
  await page.getByTestId('lane-origin').fill('900-935');
  await page.getByTestId('lane-destination').fill('tx');
  await expect(page.getByTestId('lane-destination')).toHaveValue('TX');
  // An unfinished grid is refused before anything is sent.
  await page.getByTestId('lane-save').click();
  await expect(page.getByText('请填写每个重量段的起点和每个等级在每个重量段的费率')).toBeVisible();
  const classes = { '50': 40, '70': 52, '100': 70 };
  for (const [cls, base] of Object.entries(classes))
    for (let i = 0; i < 5; i++) await cell(page, cls, i).fill(String(base - i * 4));
  await page.getByLabel('最低收费').fill('95');
  await page.getByLabel('燃油附加费%').fill('28.5');
  await page.screenshot({ path: `${screenshotDir}freight-rules-lane-dialog-zh.png` });
  await page.getByTestId('lane-save').click();
  await expect(page.getByTestId('lane-form')).toBeHidden();
  const lane = page.getByRole('row', { name: /900-935/ });
  await expect(lane).toContainText('TX');
  await expect(lane).toContainText('0 / 500 / 1000 / 2000 / 5000 lb');
  await expect(lane).toContainText('50: 40.00');
  await expect(lane).toContainText('95.00');
  await page.screenshot({ path: `${screenshotDir}freight-rules-zh.png` });

  const exported = page.waitForEvent('download');
  await page.getByTestId('tariff-export').click();
  expect((await exported).suggestedFilename()).toBe(`tariff-${CODE}.xlsx`);

  const templateDownload = page.waitForEvent('download');
  await page.getByTestId('tariff-template').click();
  const template = testInfo.outputPath('tariff-template.xlsx');
  await (await templateDownload).saveAs(template);

  // The template's example lanes are on sheets the import never reads: the template as it comes
  // imports nothing, and the product keeps its lanes.
  await page.locator('input[type=file]').setInputFiles(template);
  await expect(page.getByText(/将替换产品 E2E-LTL 的全部线路/)).toBeVisible();
  await page.getByTestId('import-confirm-ok').click();
  const errors = page.getByTestId('import-errors');
  await expect(errors).toContainText('文件中没有数据');
  await page.screenshot({ path: `${screenshotDir}freight-rules-import-errors-zh.png` });
  await page.getByTestId('import-errors-ok').click();
  await expect(errors).toBeHidden();
  await expect(lane).toBeVisible();
});

test('the pages in English, and a lane deleted after confirmation', async ({ page }) => {
  await session(page, 'admin@example.com');
  await page.goto('/productManagement');
  await switchLanguage(page, 'en');
  await expect(page.getByRole('columnheader', { name: 'Product code' })).toBeVisible();
  await expect(page.getByRole('row', { name: new RegExp(CODE) })).toContainText('3-6 business days');
  await page.screenshot({ path: `${screenshotDir}truck-products-en.png` });

  await page
    .getByRole('row', { name: new RegExp(CODE) })
    .getByRole('button', { name: 'Lanes' })
    .click();
  await expect(page.getByRole('columnheader', { name: 'Origin' })).toBeVisible();
  await expect(page.getByRole('columnheader', { name: 'Weight breaks' })).toBeVisible();
  await page.screenshot({ path: `${screenshotDir}freight-rules-en.png` });

  const lane = page.getByRole('row', { name: /900-935/ });
  await lane.getByRole('checkbox').check();
  await page.getByTestId('lanes-delete').click();
  await page.getByTestId('lanes-delete-ok').click();
  await expect(lane).toBeHidden();

  // An FTL product's lanes take a flat rate or a rate per mile instead of the class grid.
  await page.getByTestId('rule-product').click();
  await page.getByTitle(/^FTL-VAN/).click();
  await expect(page.getByRole('columnheader', { name: 'Rate per mile' })).toBeVisible();
  await page.getByTestId('lane-new').click();
  await page.getByTestId('lane-origin').fill('970-979');
  await page.getByTestId('lane-destination').fill('980-994');
  await page.getByTestId('lane-save').click();
  await expect(page.getByText('An FTL lane needs a flat rate or a rate per mile')).toBeVisible();
  await page.getByLabel('Rate per mile').fill('2.85');
  await page.getByLabel('Miles').fill('180');
  await page.getByTestId('lane-save').click();
  await expect(page.getByTestId('lane-form')).toBeHidden();
  const ftlLane = page.getByRole('row', { name: /970-979/ });
  await expect(ftlLane).toContainText('2.85');
  await expect(ftlLane).toContainText('45000');
  await page.screenshot({ path: `${screenshotDir}freight-rules-ftl-en.png` });
  await switchLanguage(page, 'zh');
});

test('a customer sees the products open to it in the freight-rules drawer', async ({ page }) => {
  await session(page, 'customer@example.com');
  await page.getByTestId('top-freight-rules').click();
  const drawer = page.getByTestId('products-drawer');
  await expect(drawer).toBeVisible();
  await expect(drawer.getByRole('row', { name: /E2E Carrier/ })).toContainText('3-6 个工作日');
  // The drawer slides in: the picture waits for it to stop moving.
  await page.waitForFunction(() => document.getAnimations().length === 0);
  await page.screenshot({ path: `${screenshotDir}freight-rules-customer-drawer-zh.png` });
});
