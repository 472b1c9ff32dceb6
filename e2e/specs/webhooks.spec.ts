import { expect, test } from '@playwright/test';
import { openFromMenu, screenshotDir, session, switchLanguage } from '../fixtures.ts';

test('a customer registers a webhook, sees its secret once, rotates it, edits, views deliveries and deletes it', async ({
  page,
}) => {
  await session(page, 'customer@example.com');
  await openFromMenu(page, '/area-integrations', '/webhooks');
  // How to check a delivery, replays included: the tolerance, the id to keep, and the example.
  await expect(page.getByText(/防重放:时间戳与你服务器时间相差超过 5 分钟的请求应拒收/)).toBeVisible();
  const snippet = page.locator('pre.webhook-snippet');
  await expect(snippet).toContainText('const TOLERANCE_SECONDS = 300;');
  await expect(snippet).toContainText("headers['x-webhook-id']");
  await snippet.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${screenshotDir}webhooks-help-zh.png`, fullPage: true });

  await page.getByTestId('webhook-new').click();
  const dialog = page.getByRole('dialog');
  await dialog.getByTestId('webhook-url').fill('ftp://example.com');
  await dialog.getByTestId('webhook-save').click();
  // The server names the field.
  await expect(dialog.getByText('Webhook 地址须为以 http:// 或 https:// 开头的完整网址')).toBeVisible();
  await dialog.getByTestId('webhook-url').fill('https://erp.example.com/hooks/freight');
  await dialog.getByTestId('webhook-save').click();

  const secret = page.getByTestId('webhook-secret');
  await expect(secret).toHaveValue(/^whsec_[A-Za-z0-9_-]{43}$/);
  const value = await secret.inputValue();
  await expect(page.getByText('这是唯一一次显示签名密钥')).toBeVisible();
  await expect(page.getByRole('dialog', { name: 'Webhook 已创建' })).toBeVisible();
  await page.waitForTimeout(400); // the dialog's opening animation
  await page.screenshot({ path: `${screenshotDir}webhooks-created-zh.png` });
  await page.getByTestId('webhook-done').click();
  await expect(secret).toHaveCount(0);

  const row = page.getByRole('row', { name: /erp\.example\.com/ });
  await expect(row).toContainText(value.slice(0, 12));
  await expect(row).toContainText('卡车订单状态变化');
  expect(await page.content()).not.toContain(value);
  await page.screenshot({ path: `${screenshotDir}webhooks-list-zh.png`, fullPage: true });

  // Rotate the secret: confirmed, the new one shown once, the old one said to sign for a day.
  await row.getByRole('button', { name: '更换密钥' }).click();
  await page.getByTestId('webhook-rotate-ok').click();
  await expect(page.getByRole('dialog', { name: '新的签名密钥' })).toBeVisible();
  await expect(secret).toHaveValue(/^whsec_[A-Za-z0-9_-]{43}$/);
  const rotated = await secret.inputValue();
  expect(rotated).not.toBe(value);
  await page.getByTestId('webhook-done').click();
  await expect(secret).toHaveCount(0);
  await expect(row).toContainText(rotated.slice(0, 12));
  await expect(row).toContainText('旧密钥签名至');
  expect(await page.content()).not.toContain(rotated);
  await page.screenshot({ path: `${screenshotDir}webhooks-rotated-zh.png`, fullPage: true });

  // Edit: disable it.
  await row.getByRole('button', { name: /编\s?辑/ }).click();
  await page.getByRole('dialog').getByTestId('webhook-switch').click();
  await page.getByRole('dialog').getByTestId('webhook-save').click();
  await expect(row).toContainText('已停用');

  await row.getByRole('button', { name: '发送记录' }).click();
  await expect(page.getByText('暂无发送记录')).toBeVisible();
  await page.screenshot({ path: `${screenshotDir}webhooks-deliveries-zh.png` });
  await page.keyboard.press('Escape');

  // In English the list still fits a desktop's width: no column runs under the pinned actions.
  await switchLanguage(page, 'en');
  await expect(row).toContainText('Truck order status changes');
  const content = page.locator('.ant-table-content').first();
  expect(await content.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);
  await page.screenshot({ path: `${screenshotDir}webhooks-list-en.png`, fullPage: true });
  await switchLanguage(page, 'zh');

  await row.getByRole('button', { name: /删\s?除/ }).click();
  await page.getByTestId('webhook-delete-ok').click();
  await expect(page.getByRole('row', { name: /erp\.example\.com/ })).toHaveCount(0);
});
