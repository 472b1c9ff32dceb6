import { expect, test } from '@playwright/test';
import { screenshotDir, session } from '../fixtures.ts';

test.describe.configure({ mode: 'serial' });

test('staff add a customer under an agent, give it money with a reason, and the agent sees it', async ({
  page,
}) => {
  await session(page, 'admin@example.com');
  await page.goto('/general-customer-management');
  await expect(page.getByRole('cell', { name: 'Acme Imports' })).toBeVisible();
  await page.getByTestId('org-new').click();
  await page.getByTestId('org-parent').click();
  await page.getByTitle('Harbor Freight Agency · 代理').click();
  await page.getByTestId('org-name').fill('Pacific Parts Co');
  await page.getByTestId('org-user-email').fill('pacific@example.com');
  await page.getByTestId('org-user-name').fill('Pat Parts');
  await page.getByTestId('org-user-password').fill('secret123');
  await page.getByTestId('org-save').click();
  const row = page.getByRole('row', { name: /Pacific Parts Co/ });
  await expect(row).toBeVisible();
  await expect(row).toContainText('Harbor Freight Agency');

  await row.getByRole('button', { name: '更多' }).click();
  await page.getByRole('menuitem', { name: '手工调账' }).click();
  // The adjustment's dialog (it asks for a reason), not the new-customer dialog still closing.
  const dialog = page.getByRole('dialog').filter({ has: page.locator('textarea') });
  await dialog.getByRole('textbox').first().fill('1,250.5x0');
  await expect(dialog.getByRole('textbox').first()).toHaveValue('1250.50');
  await dialog.getByRole('button', { name: /确\s?认/ }).click();
  await expect(dialog.getByText('原因不能为空')).toBeVisible();
  await dialog.locator('textarea').fill('opening balance');
  await dialog.getByRole('button', { name: /确\s?认/ }).click();
  await expect(row).toContainText('1250.50');
  await page.screenshot({ path: `${screenshotDir}agent-customers-admin-zh.png` });
});

test("an agent sees its own customers and nobody else's", async ({ page }) => {
  await session(page, 'agent@example.com');
  await page.goto('/general-customer-management');
  await expect(page.getByRole('cell', { name: 'Pacific Parts Co' })).toBeVisible();
  await expect(page.getByRole('cell', { name: 'Acme Imports' })).toBeVisible();
  await expect(page.getByRole('cell', { name: 'Northwind Traders' })).toHaveCount(0);
  // Balances are staff business: no adjustment for the agent.
  await page
    .getByRole('row', { name: /Pacific Parts Co/ })
    .getByRole('button', { name: '更多' })
    .click();
  await expect(page.getByRole('menuitem', { name: '手工调账' })).toHaveCount(0);
  await expect(page.getByRole('menuitem', { name: '价格等级' })).toBeVisible();
  await page.keyboard.press('Escape');
  await page.getByTestId('lang-switch').click();
  await page.getByTestId('lang-en').click();
  await expect(page.getByRole('columnheader', { name: 'Available' })).toBeVisible();
  await page.screenshot({ path: `${screenshotDir}agent-customers-agent-en.png` });
});
