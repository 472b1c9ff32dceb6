import { createServer } from 'node:net';
import { expect, type Page, test } from '@playwright/test';
import { api, authHeaders, openFromMenu, screenshotDir, session, switchLanguage } from '../fixtures.ts';
import { tableFaults } from '../layout-sweep.ts';

/** A key no page, answer or screenshot may ever show once it is saved. */
const API_KEY = 'karrio_secret_7f3a9c1e5b2d4068';
/**
 * A local address where nothing listens, so the carrier cannot be reached. A port the system just handed
 * out and took back rather than a well-known one: fetch refuses some of those (9 among them) without
 * trying, and the test should meet a real refused connection.
 */
async function nowhere(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (!address || typeof address === 'string') throw new Error('no port to borrow');
  return `http://127.0.0.1:${address.port}/`;
}

/** Below 992 px the side menu turns into a drawer, which folds itself away after two seconds. */
async function toPhone(page: Page) {
  await page.setViewportSize({ width: 390, height: 844 });
  const drawer = page.locator('.ant-drawer-content-wrapper');
  await expect(drawer).toBeVisible();
  await expect(drawer).toBeHidden({ timeout: 5_000 });
}

interface AccountRow {
  id: number;
  label: string;
  credentialFields: string[];
  credentialsUpdatedAt: string;
}

const accounts = async (page: Page): Promise<AccountRow[]> =>
  (await api(page, '/admin/carrierAccount/list', { page: 1, limit: 10 })).list;

/** Every answer of the carrier account calls, to prove none of them carries a credential. */
function recordAnswers(page: Page): string[] {
  const answers: string[] = [];
  page.on('response', (response) => {
    if (response.url().includes('/api/admin/carrierAccount/'))
      void response.text().then(
        (text) => answers.push(text),
        () => undefined,
      );
  });
  return answers;
}

test('admin connects a Karrio account, never sees its key again, keeps it through an edit, tests it in both languages and deletes it', async ({
  page,
}) => {
  const answers = recordAnswers(page);
  const address = await nowhere();
  await session(page, 'admin@example.com');
  await openFromMenu(page, '/area-tariffs', '/carrierAccounts');

  // Nothing yet: the page says what it is for and offers the first step.
  const empty = page.locator('.app-content [data-testid="list-empty"]:visible');
  await expect(empty).toContainText('连接 UPS 或 Karrio 的账号后,门户即可通过它们报价、打印面单和追踪货件');
  await page.screenshot({ path: `${screenshotDir}carrier-accounts-empty-zh-1440.png`, fullPage: true });
  await page.locator('.app-content [data-testid="list-empty-action"]:visible').click();

  const dialog = page.getByRole('dialog');
  await expect(dialog.getByTestId('carrier-credential-accountNumber')).toBeVisible();
  // Choosing Karrio swaps UPS's three credentials for its one API key.
  await dialog.getByText('Karrio', { exact: true }).click();
  await expect(dialog.getByTestId('carrier-credential-clientId')).toHaveCount(0);
  await expect(dialog.getByTestId('carrier-credential-apiKey')).toHaveAttribute('type', 'password');
  await expect(dialog.getByText('https://api.karrio.io').first()).toBeVisible();
  await dialog.getByTestId('carrier-label').fill('Karrio sandbox');
  await dialog.getByText('自定义地址', { exact: true }).click();
  await dialog.getByTestId('carrier-base-url').fill(address);
  await dialog.getByTestId('carrier-credential-apiKey').fill(API_KEY);
  await page.screenshot({ path: `${screenshotDir}carrier-accounts-dialog-zh-1440.png` });
  await dialog.getByTestId('carrier-save').click();
  await expect(page.getByText('承运商账号已添加')).toBeVisible();
  await expect(dialog).toHaveCount(0);

  const row = page.getByRole('row', { name: /Karrio sandbox/ });
  await expect(row).toContainText('自定义地址');
  await expect(row).toContainText(address.replace(/\/$/, ''));
  await expect(row).toContainText('尚未测试');
  expect(await page.content()).not.toContain(API_KEY);
  const [saved] = await accounts(page);
  expect(saved?.credentialFields).toEqual(['apiKey']);

  // Edit without touching the credentials: the form shows none, and the saved ones stay.
  await row.getByRole('button', { name: /编\s?辑/ }).click();
  await expect(dialog.getByTestId('carrier-credential-apiKey')).toHaveValue('');
  await expect(dialog.getByTestId('carrier-credentials-hint')).toContainText('留空即保留原凭证');
  await dialog.getByTestId('carrier-credentials-hint').scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${screenshotDir}carrier-accounts-edit-zh-1440.png` });
  await expect(dialog.getByRole('radio', { name: 'UPS' })).toBeDisabled();
  await expect(dialog.getByTestId('carrier-base-url')).toHaveValue(address.replace(/\/$/, ''));
  await dialog.getByTestId('carrier-label').fill('Karrio sandbox LA');
  await dialog.getByTestId('carrier-save').click();
  await expect(page.getByText('承运商账号已保存')).toBeVisible();
  const edited = page.getByRole('row', { name: /Karrio sandbox LA/ });
  await expect(edited).toBeVisible();
  const [kept] = await accounts(page);
  expect(kept?.credentialsUpdatedAt).toBe(saved?.credentialsUpdatedAt);
  expect(kept?.credentialFields).toEqual(['apiKey']);

  // The test waits a moment on its way, so the spinner can be seen while it runs.
  await page.route('**/api/admin/carrierAccount/test', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 800));
    await route.continue();
  });
  const testButton = page.getByTestId(`carrier-test-${kept?.id}`);
  await testButton.click();
  await expect(testButton).toHaveClass(/ant-btn-loading/);
  const unreachable = '无法连接承运商服务:请检查服务地址和网络';
  await expect(page.locator('.ant-message')).toContainText(unreachable);
  await expect(testButton).not.toHaveClass(/ant-btn-loading/);
  const lastTest = page.getByTestId(`carrier-last-test-${kept?.id}`);
  await expect(lastTest).toContainText('连接失败');
  await expect(lastTest).toContainText(unreachable);
  // The carrier's (here the network's) own words, for staff, a hover away.
  await lastTest.getByText('承运商原文').hover();
  const detail = page.getByTestId(`carrier-detail-${kept?.id}`);
  await expect(detail).not.toBeEmpty();
  expect(await detail.textContent()).not.toContain(API_KEY);
  await page.mouse.move(0, 0);
  await expect(detail).toBeHidden();
  expect(await page.content()).not.toContain(API_KEY);
  await page.screenshot({ path: `${screenshotDir}carrier-accounts-list-zh-1440.png`, fullPage: true });

  // In English: the page, and the reason the server words in the reader's language.
  await switchLanguage(page, 'en');
  await expect(page.getByRole('columnheader', { name: 'Last connection test' })).toBeVisible();
  await expect(lastTest).toContainText('Failed');
  await expect(lastTest).toContainText('The carrier could not be reached: check the address and the network');
  await expect(edited).toContainText('Custom address');
  expect(await tableFaults(page)).toEqual([]);
  await page.screenshot({ path: `${screenshotDir}carrier-accounts-list-en-1440.png`, fullPage: true });
  await toPhone(page);
  await expect(edited).toBeVisible();
  expect(await tableFaults(page)).toEqual([]);
  await page.screenshot({ path: `${screenshotDir}carrier-accounts-list-en-390.png`, fullPage: true });
  await switchLanguage(page, 'zh');
  await expect(lastTest).toContainText(unreachable);
  expect(await tableFaults(page)).toEqual([]);
  await page.screenshot({ path: `${screenshotDir}carrier-accounts-list-zh-390.png`, fullPage: true });
  // On a phone nothing is pinned: the actions are reached by scrolling the table sideways.
  await testButton.scrollIntoViewIfNeeded();
  await expect(testButton).toBeInViewport();
  await page.screenshot({ path: `${screenshotDir}carrier-accounts-actions-zh-390.png` });
  await page.setViewportSize({ width: 1440, height: 900 });

  // Delete, once confirmed.
  await edited.getByRole('button', { name: /删\s?除/ }).click();
  await expect(page.getByText('删除承运商账号“Karrio sandbox LA”?')).toBeVisible();
  await page.getByTestId('carrier-delete-ok').click();
  await expect(page.getByText('承运商账号已删除')).toBeVisible();
  await expect(page.getByRole('row', { name: /Karrio sandbox/ })).toHaveCount(0);
  await expect(empty).toBeVisible();

  expect(answers.length).toBeGreaterThan(0);
  for (const answer of answers) expect(answer).not.toContain(API_KEY);
});

test('a UPS account number of five characters, and a name already taken, are refused under their fields', async ({
  page,
}) => {
  await session(page, 'admin@example.com');
  const taken = await api(page, '/admin/carrierAccount/create', {
    kind: 'karrio',
    label: 'Taken name',
    environment: 'production',
    credentials: { apiKey: API_KEY },
  });
  await openFromMenu(page, '/area-tariffs', '/carrierAccounts');
  // On a phone: the dialog and its errors must fit there too.
  await toPhone(page);
  await page.getByTestId('carrier-new').click();

  const dialog = page.getByRole('dialog');
  const field = (testId: string) =>
    dialog
      .locator('.ant-form-item')
      .filter({ has: page.getByTestId(testId) })
      .locator('.ant-form-item-explain-error');
  await dialog.getByTestId('carrier-label').fill('Taken name');
  await dialog.getByTestId('carrier-credential-clientId').fill('client-id');
  await dialog.getByTestId('carrier-credential-clientSecret').fill('client-secret');
  await dialog.getByTestId('carrier-credential-accountNumber').fill('12345');
  await dialog.getByTestId('carrier-save').click();
  // The contract's own check, worded as the server words it.
  await expect(field('carrier-credential-accountNumber')).toHaveText('UPS 账号格式不正确');
  const refused = await page.request.post('/api/admin/carrierAccount/create', {
    data: {
      kind: 'ups',
      label: 'Five characters',
      environment: 'production',
      credentials: { clientId: 'client-id', clientSecret: 'client-secret', accountNumber: '12345' },
    },
    headers: await authHeaders(page),
  });
  expect((await refused.json()).data.fields).toContainEqual({
    field: 'credentials.accountNumber',
    message: 'UPS 账号格式不正确',
  });
  await field('carrier-credential-accountNumber').scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${screenshotDir}carrier-accounts-dialog-error-zh-390.png` });

  // A right number passes the page; the name is the server's to refuse, under the name.
  await dialog.getByTestId('carrier-credential-accountNumber').fill('A1B2C3');
  await expect(field('carrier-credential-accountNumber')).toHaveCount(0);
  await dialog.getByTestId('carrier-save').click();
  await expect(field('carrier-label')).toHaveText('账号名称:已有同名的承运商账号');
  await field('carrier-label').scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${screenshotDir}carrier-accounts-dialog-taken-zh-390.png` });
  await dialog.getByRole('button', { name: /取\s?消/ }).click();
  await expect(dialog).toHaveCount(0);
  await page.setViewportSize({ width: 1440, height: 900 });
  expect(await accounts(page)).toHaveLength(1);

  await api(page, '/admin/carrierAccount/delete', { id: taken.id });
});

test('the longest name and address wrap inside their cells beside the pinned actions, at 1440 px in English and on a phone', async ({
  page,
}) => {
  await session(page, 'admin@example.com');
  const long = await api(page, '/admin/carrierAccount/create', {
    kind: 'ups',
    label: 'UPS negotiated rates for the Los Angeles warehouse, nights',
    environment: 'custom',
    baseUrl: `${(await nowhere()).replace(/\/$/, '')}/carrier-gateway/ups/production/v2/api/rating-and-shipping`,
    credentials: { clientId: 'client-id', clientSecret: 'client-secret', accountNumber: 'A1B2C3' },
  });
  await api(page, '/admin/carrierAccount/test', { id: long.id });
  await openFromMenu(page, '/area-tariffs', '/carrierAccounts');
  await switchLanguage(page, 'en');
  await expect(page.getByTestId(`carrier-last-test-${long.id}`)).toContainText('could not be reached');
  expect(await tableFaults(page)).toEqual([]);
  await page.screenshot({ path: `${screenshotDir}carrier-accounts-long-en-1440.png` });
  await toPhone(page);
  expect(await tableFaults(page)).toEqual([]);
  await switchLanguage(page, 'zh');
  await page.setViewportSize({ width: 1440, height: 900 });
  await api(page, '/admin/carrierAccount/delete', { id: long.id });
});
