import { expect, test } from '@playwright/test';
import { api, bookPaidOrder, screenshotDir, session, switchLanguage } from '../fixtures.ts';

test.describe.configure({ mode: 'serial' });

test('staff see a freeze in the account log, filter it by customer, in both languages', async ({ page }) => {
  await session(page, 'admin@example.com');
  // The freeze itself is the customers page's button (its own spec); here it only has to have happened.
  const { list } = await api(page, '/admin/account/balanceTotal', { line: 'truck' });
  const northwind = list.find(
    (a: { organisationName: string }) => a.organisationName === 'Northwind Traders',
  );
  await api(page, '/admin/account/freeze', { accountId: northwind.id, reason: 'Invoice 42 overdue' });
  // Unfrozen again at once, so the later specs can still pay from this account.
  await api(page, '/admin/account/unfreeze', { accountId: northwind.id, reason: 'Invoice 42 paid' });

  await page.goto('/accountLog');
  const freeze = page.getByRole('row', { name: /Invoice 42 overdue/ });
  await expect(freeze).toContainText('冻结');
  await expect(freeze).toContainText('Northwind Traders');
  await expect(freeze).toContainText('admin@example.com');
  await expect(page.getByRole('row', { name: /Invoice 42 paid/ })).toContainText('解冻');
  await page.getByTestId('ledger-keyword').fill('Northwind');
  await page.getByTestId('filter-search').click();
  await expect(page.getByRole('cell', { name: 'Acme Imports' })).toHaveCount(0);
  await expect(freeze).toBeVisible();
  await page.screenshot({ path: `${screenshotDir}account-log-zh.png` });

  await switchLanguage(page, 'en');
  await page.reload();
  await expect(page.getByRole('columnheader', { name: 'Balance after' })).toBeVisible();
  await expect(page.getByRole('row', { name: /Invoice 42 overdue/ })).toContainText('Freeze');
  await page.screenshot({ path: `${screenshotDir}account-log-en.png` });
  await page.getByTestId('ledger-keyword').fill('No such customer');
  await page.getByTestId('filter-search').click();
  await expect(page.getByText('No account events')).toBeVisible();
  await switchLanguage(page, 'zh');
});

test('a customer requests an invoice for its paid orders and staff issue it', async ({ browser }) => {
  const customer = await browser.newPage();
  // The customer signed in by an earlier spec: its session is reused, so no new code is mailed (one a minute).
  await session(customer, 'customer@example.com');
  // A paid order to invoice: quoted, booked and paid through the API.
  await bookPaidOrder(customer);

  await customer.goto('/invoices');
  await customer.getByTestId('invoice-request').click();
  // Sent empty, the form names each missing field.
  await customer.getByTestId('invoice-request-ok').click();
  await expect(customer.getByText('开票期间不能为空')).toBeVisible();
  await expect(customer.getByText('发票抬头不能为空')).toBeVisible();
  await customer.screenshot({ path: `${screenshotDir}invoices-request-zh.png` });
  const today = new Date().toISOString().slice(0, 10);
  const period = customer.locator('.ant-modal .ant-picker-range input');
  await period.first().click();
  await period.first().fill(today);
  await customer.keyboard.press('Enter');
  await period.last().fill(today);
  await customer.keyboard.press('Enter');
  await customer.getByTestId('invoice-title').fill('Acme Imports LLC');
  await customer.getByTestId('invoice-tax').fill('91310000MA1FL');
  await customer.getByTestId('invoice-request-ok').click();
  await expect(customer.getByText('待开票')).toBeVisible();

  const staff = await (
    await browser.newContext({
      baseURL: new URL(customer.url()).origin,
      viewport: { width: 1440, height: 900 },
    })
  ).newPage();
  await session(staff, 'admin@example.com');
  await staff.goto('/invoices');
  const row = staff.getByRole('row', { name: /Acme Imports LLC/ });
  await row.getByRole('button', { name: /开\s?票/ }).click();
  await staff.getByTestId('invoice-number').fill('INV-2026-0001');
  await staff.getByTestId('invoice-decide-ok').click();
  await expect(staff.getByRole('row', { name: /INV-2026-0001/ })).toContainText('已开票');
  await expect(staff.locator('.ant-modal')).toBeHidden();
  await staff.screenshot({ path: `${screenshotDir}invoices-staff-zh.png` });

  await customer.reload();
  await expect(customer.getByRole('row', { name: /INV-2026-0001/ })).toContainText('已开票');
  await staff.close();
  await customer.close();
});

test('staff open the supplementary deductions of both lines, with export', async ({ page }) => {
  await session(page, 'admin@example.com');
  await page.goto('/deductionDetails');
  await expect(page.getByRole('columnheader', { name: '变动后余额' })).toBeVisible();
  await expect(page.getByTestId('ledger-export')).toBeVisible();
  await page.screenshot({ path: `${screenshotDir}deductions-zh.png` });
});

test('staff add a receiving account and delete it after confirming', async ({ page }) => {
  await session(page, 'admin@example.com');
  await page.goto('/rechargeMGT');
  await page.getByTestId('receiving-accounts').click();
  await page.getByTestId('receiving-add').click();
  // An empty form is refused with messages that name each field.
  await page.getByTestId('receiving-save').click();
  await expect(page.getByText('开户行不能为空')).toBeVisible();
  await expect(page.getByText('账号不能为空')).toBeVisible();
  await page.getByTestId('receiving-bankName').fill('Chase Bank');
  await page.getByTestId('receiving-accountName').fill('Freight Portal LLC');
  await page.getByTestId('receiving-accountNumber').fill('9988 7766 5544');
  await page.getByTestId('receiving-save').click();
  await expect(page.getByRole('cell', { name: '9988 7766 5544' })).toBeVisible();
  await expect(page.locator('.ant-modal')).toBeHidden();
  await page.screenshot({ path: `${screenshotDir}receiving-accounts-zh.png` });
  await page.getByTestId('receiving-delete-9988 7766 5544').click();
  await expect(page.locator('.ant-modal-confirm')).toContainText('9988 7766 5544');
  await page.getByTestId('receiving-delete-ok').click();
  await expect(page.getByRole('cell', { name: '9988 7766 5544' })).toHaveCount(0);
});
