import { expect, test } from '@playwright/test';
import { openFromMenu, screenshotDir, session, switchLanguage, truckShipment } from '../fixtures.ts';

test.describe.configure({ mode: 'serial' });

test('a customer makes a key, sees it once, quotes with it from outside, revokes it, and it is refused', async ({
  page,
}) => {
  await session(page, 'customer@example.com');
  await openFromMenu(page, '/area-integrations', '/apiKeys');
  await expect(page.getByTestId('api-key-help')).toContainText('/shipment/uploadapi');

  await page.getByTestId('api-key-new').click();
  const dialog = page.getByRole('dialog');
  await dialog.getByTestId('api-key-name').fill('Warehouse system');
  await dialog.getByTestId('api-key-create-ok').click();

  const secret = page.getByTestId('api-key-secret');
  await expect(secret).toHaveValue(/^fpk_[A-Za-z0-9_-]{43}$/);
  const key = await secret.inputValue();
  const apiId = await page.getByTestId('api-key-created-id').inputValue();
  expect(key.startsWith(apiId)).toBe(true);
  await expect(page.getByText('这是唯一一次显示完整密钥')).toBeVisible();
  await page.screenshot({ path: `${screenshotDir}api-keys-created-zh.png` });
  await page.getByTestId('api-key-done').click();
  await expect(secret).toHaveCount(0);

  // Shown once: the list has its ID, never the key itself.
  const row = page.getByRole('row', { name: /Warehouse system/ });
  await expect(row).toContainText(apiId);
  await expect(row).toContainText('从未使用');
  expect(await page.content()).not.toContain(key);

  // The shipper's own system calls the quote call with the key's headers and no session.
  const quoted = await page.request.post('/api/admin/quotation/save', {
    data: truckShipment(),
    headers: { apiId, userKey: key, 'Accept-Language': 'en-US' },
  });
  expect((await quoted.json()).code).toBe(200);

  await page.reload();
  await expect(page.getByRole('row', { name: /Warehouse system/ })).not.toContainText('从未使用');
  await page.screenshot({ path: `${screenshotDir}api-keys-list-zh.png`, fullPage: true });

  await page
    .getByRole('row', { name: /Warehouse system/ })
    .getByRole('button', { name: /吊\s?销/ })
    .click();
  await expect(page.getByText(`吊销密钥“Warehouse system”(${apiId})?`)).toBeVisible();
  await page.getByTestId('api-key-revoke-ok').click();
  await expect(page.getByRole('row', { name: /Warehouse system/ })).toContainText('已吊销');

  const refused = await page.request.post('/api/admin/quotation/save', {
    data: truckShipment(),
    headers: { apiId, userKey: key, 'Accept-Language': 'en-US' },
  });
  const body = await refused.json();
  expect(body.code).toBe(300);
  expect(body.msg).toBe('The API key is not valid or has been revoked (check the apiId and userKey headers)');
});

test('the API keys page reads in English', async ({ page }) => {
  await session(page, 'customer@example.com');
  await page.goto('/apiKeys');
  await switchLanguage(page, 'en');
  await expect(page.getByRole('columnheader', { name: 'Key ID' })).toBeVisible();
  await expect(page.getByRole('row', { name: /Warehouse system/ })).toContainText('Revoked');
  await expect(page.getByTestId('api-key-help')).toContainText('How to use a key');
  await page.getByTestId('api-key-new').click();
  await expect(page.getByRole('dialog').getByText('Allowed calls')).toBeVisible();
  // Let the dialog finish opening before the picture.
  await page.waitForTimeout(500);
  await page.screenshot({ path: `${screenshotDir}api-keys-new-en.png` });
  await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
  await page.screenshot({ path: `${screenshotDir}api-keys-list-en.png`, fullPage: true });
  await switchLanguage(page, 'zh');
});
