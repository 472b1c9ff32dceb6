import { expect, test } from '@playwright/test';
import { api, screenshotDir, session, submitRecharge, switchLanguage } from '../fixtures.ts';

// Messages the server stored are read in the reader's language of the moment, not the writer's.
test.describe.configure({ mode: 'serial' });

test('a system notice reads in Chinese, then in English once the reader switches', async ({
  browser,
  page,
}) => {
  test.setTimeout(120_000);
  await session(page, 'customer@example.com');
  const rejected = await submitRecharge(page, '12.00');
  const staff = await browser.newPage();
  await session(staff, 'admin@example.com');
  await api(staff, '/admin/recharge/review', { id: rejected.id, action: 'reject', note: 'no transfer' });
  await staff.close();

  // Unread notices pop up once the shell has loaded its session and asked for them: on a busy machine
  // that is seconds after the page's load event, so the check waits for that answer, not a clock.
  const asked = page.waitForResponse((r) => r.url().includes('/admin/notice/userNotices'));
  await page.goto('/notification');
  await asked;
  // The popped toast (an alert, as antd draws it) carries the serial; the list's row the title.
  const toast = page.getByRole('alert').filter({ hasText: rejected.serial });
  await expect(toast).toContainText('充值审核结果');
  await expect(toast).toContainText('被驳回:no transfer');
  await page.screenshot({ path: `${screenshotDir}notices-toast-zh.png` });
  const rows = page.locator('.page-card .ant-table tbody tr.ant-table-row');
  await expect(rows.first()).toContainText('充值审核结果');
  await switchLanguage(page, 'en');
  try {
    // The toast marks the notice read when it goes, so in English it is read from the list: the
    // title in the row and the words in its dialog.
    const listed = page.waitForResponse((r) => r.url().includes('/admin/notice/list'));
    await page.reload();
    await listed;
    await expect(rows.first()).toContainText('Recharge reviewed');
    await expect(page.locator('.page-card .ant-table')).not.toContainText('充值审核结果');
    await rows.first().getByTestId('notice-open').click();
    const dialog = page.getByTestId('notice-dialog-content');
    await expect(dialog).toContainText(`Your recharge ${rejected.serial} was rejected: no transfer`);
    await expect(page.getByRole('dialog')).toContainText('Recharge reviewed');
    await page.screenshot({ path: `${screenshotDir}notices-read-in-english.png` });
    await page.getByTestId('notice-dialog-ok').click();
  } finally {
    await switchLanguage(page, 'zh');
  }
});

test('the operation log names each action in words, in either language', async ({ page }) => {
  test.setTimeout(120_000);
  await session(page, 'admin@example.com');
  await page.goto('/operationLog');
  const table = page.locator('.page-card .ant-table');
  // Switching the language is itself an action the log keeps; the list read after it shows it.
  const listed = () => page.waitForResponse((r) => r.url().includes('/admin/operationLog/list'));
  await switchLanguage(page, 'en');
  try {
    const english = listed();
    await page.reload();
    await english;
    await expect(table.getByText('Change language').first()).toBeVisible();
    await expect(table.getByText('auth.setLocale')).toHaveCount(0);
    await page.screenshot({ path: `${screenshotDir}operation-log-en.png` });
  } finally {
    await switchLanguage(page, 'zh');
  }
  const chinese = listed();
  await page.reload();
  await chinese;
  await expect(table.getByText('切换语言').first()).toBeVisible();
  await expect(table.getByText('Change language')).toHaveCount(0);
  await page.screenshot({ path: `${screenshotDir}operation-log-zh.png` });
});

test('the truck product list names each service level in the reader’s language', async ({ page }) => {
  await session(page, 'admin@example.com');
  await page.goto('/productManagement');
  // The demo's products: LTL-STD at the standard level, LTL-ECO at the economy one (stored as keys).
  await expect(page.getByTestId('service-level-LTL-STD')).toHaveText('标准');
  await expect(page.getByTestId('service-level-LTL-ECO')).toHaveText('经济');
  await switchLanguage(page, 'en');
  try {
    await expect(page.getByTestId('service-level-LTL-STD')).toHaveText('Standard');
    await expect(page.getByTestId('service-level-LTL-ECO')).toHaveText('Economy');
    await page.screenshot({ path: `${screenshotDir}truck-service-levels-en.png` });
  } finally {
    await switchLanguage(page, 'zh');
  }
  await expect(page.getByTestId('service-level-LTL-ECO')).toHaveText('经济');
});
