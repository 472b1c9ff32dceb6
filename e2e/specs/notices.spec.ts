import { expect, type Page, test } from '@playwright/test';
import { api, screenshotDir, session } from '../fixtures.ts';

test.describe.configure({ mode: 'serial' });

/** Confirms the open pop-confirm (publish, withdraw, delete). */
async function confirm(page: Page) {
  await page.locator('.ant-popconfirm:visible .ant-btn-primary').click();
}

test("staff publish to one agent's subtree; its customer sees the dialog and a toast, follows the links, and has read them", async ({
  browser,
}) => {
  // Two users sign in through the page and the staff write in the editor: longer than one page's test.
  test.setTimeout(150_000);
  const stamp = Date.now().toString(36);
  const dialogTitle = `Holiday schedule ${stamp}`;
  const toastTitle = `New rates ${stamp}`;

  const staff = await browser.newPage();
  await session(staff, 'admin@example.com');
  await staff.goto('/notificationAnnouncement');
  await expect(
    staff.getByText('还没有公告', { exact: false }).or(staff.getByTestId('announcement-title').first()),
  ).toBeVisible({ timeout: 30_000 });

  // A dialog announcement for the Harbor Freight Agency and everything under it, written in the editor.
  await staff.getByTestId('announcement-new').click();
  const drawer = staff.locator('.ant-drawer-open');
  await drawer.getByTestId('announcement-save').click();
  await expect(drawer.getByText('标题不能为空')).toBeVisible();
  await drawer.getByTestId('announcement-title-input').fill(dialogTitle);
  await drawer.getByTestId('announcement-theme').click();
  await staff.locator('.ant-select-dropdown:visible').getByText('警告').click();
  await drawer.getByText('按机构').click();
  await drawer.getByTestId('announcement-organisation').click();
  await staff.keyboard.type('Harbor');
  await staff
    .locator('.ant-select-dropdown:visible')
    .getByText('Harbor Freight Agency', { exact: false })
    .click();
  const editor = drawer.getByTestId('announcement-editor');
  await editor.click();
  await staff.keyboard.type('The warehouse closes on ');
  await drawer.getByTestId('editor-bold').click();
  await staff.keyboard.type('1 October');
  await drawer.getByTestId('editor-bold').click();
  await staff.keyboard.type('; pickups resume on the 8th.');
  await expect(editor.locator('strong')).toHaveText('1 October');
  await staff.screenshot({ path: `${screenshotDir}notice-management-edit-zh.png` });
  await drawer.getByTestId('announcement-save').click();
  await expect(drawer).toBeHidden();
  const row = staff.getByRole('row', { name: new RegExp(dialogTitle) });
  await expect(row.getByTestId('announcement-status')).toHaveText('草稿');
  await row.getByTestId('announcement-publish').click();
  await confirm(staff);
  await expect(row.getByTestId('announcement-status')).toHaveText('已发布');
  // A toast announcement to the same subtree, by the same call the page makes.
  const agentOrg = (await api(staff, '/admin/notice/organisations', { keyword: 'Harbor' })).list[0].id;
  const toast = await api(staff, '/admin/notice/announcementSave', {
    title: toastTitle,
    content: '<p>Rates for <a href="https://example.com/rates">next month</a> are out.</p>',
    type: 1,
    popTheme: 'success',
    audience: 'organisation',
    organisationId: agentOrg,
    includeSubtree: true,
  });
  await api(staff, '/admin/notice/announcementPublish', { id: toast.id });
  await staff.reload();
  await expect(staff.getByRole('row', { name: new RegExp(toastTitle) })).toBeVisible();
  await staff.screenshot({ path: `${screenshotDir}notice-management-zh.png` });

  // The agent's customer opens the portal: the dialog pops up, and the toast with its view button.
  const customer = await (
    await browser.newContext({ baseURL: new URL(staff.url()).origin, viewport: { width: 1440, height: 900 } })
  ).newPage();
  await session(customer, 'customer@example.com');
  const dialog = customer.locator('.ant-modal-confirm').filter({ hasText: dialogTitle });
  await expect(dialog).toBeVisible();
  await expect(dialog.locator('strong')).toHaveText('1 October');
  // SPEC section 2: a 700 px dialog, its content at least 300 px high.
  expect(
    Math.round(
      (await dialog.locator('.ant-modal-container, .ant-modal-content').first().boundingBox())?.width ?? 0,
    ),
  ).toBeLessThanOrEqual(700);
  const toastBox = customer.locator('.ant-notification-notice').filter({ hasText: toastTitle });
  await expect(toastBox).toBeVisible();
  await expect(toastBox).toHaveClass(/success/);
  await customer.screenshot({ path: `${screenshotDir}notice-popups-zh.png` });
  // The dialog is closed with its button, which marks it read.
  await dialog.locator('.ant-modal-confirm-btns .ant-btn-primary').click();
  await expect(dialog).toBeHidden();
  // The toast's view button is the deep link to the notice list, where the notice opens.
  await toastBox.getByText('查看').click();
  await customer.waitForURL(/\/notification\?content=/);
  const opened = customer.getByTestId('notice-dialog-content');
  await expect(opened).toContainText('next month');
  await customer.screenshot({ path: `${screenshotDir}notice-list-open-zh.png` });
  await customer.getByTestId('notice-dialog-ok').click();

  // The deep link of SPEC section 2 opens the dialog announcement from the list.
  await customer.goto(`/notification?type=2&content=${encodeURIComponent(dialogTitle)}`);
  await expect(customer.getByTestId('notice-dialog-content')).toContainText('pickups resume');
  await customer.getByTestId('notice-dialog-ok').click();
  await customer.getByTestId('notice-keyword').fill(stamp);
  await customer.getByTestId('filter-search').click();
  await expect(
    customer.getByRole('row', { name: new RegExp(dialogTitle) }).getByTestId('notice-state'),
  ).toHaveText('已读');
  await expect(
    customer.getByRole('row', { name: new RegExp(toastTitle) }).getByTestId('notice-state'),
  ).toHaveText('已读');
  await customer.screenshot({ path: `${screenshotDir}notice-list-zh.png` });

  // Read: neither pops up again.
  await customer.goto('/home');
  await customer.getByTestId('home-greeting').waitFor();
  await customer.waitForLoadState('networkidle');
  await customer.waitForTimeout(1500);
  await expect(customer.locator('.ant-modal-confirm').filter({ hasText: dialogTitle })).toHaveCount(0);
  await expect(customer.locator('.ant-notification-notice').filter({ hasText: toastTitle })).toHaveCount(0);
  const unread = await api(customer, '/admin/notice/userNotices', { type: 0 });
  expect(unread.list.map((n: { title: string }) => n.title)).not.toContain(dialogTitle);

  // The management page's readers list names the customer.
  await staff.reload();
  await staff
    .getByRole('row', { name: new RegExp(dialogTitle) })
    .getByTestId('announcement-readers')
    .click();
  const readers = staff.locator('.ant-drawer-open').filter({ hasText: '阅读情况' });
  await expect(readers.getByTestId('readers-summary')).toContainText('已读 1');
  await expect(readers.getByTestId('reader-row')).toContainText('customer@example.com');
  await staff.screenshot({ path: `${screenshotDir}notice-readers-zh.png` });
});
