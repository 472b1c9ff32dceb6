import { expect, test } from '@playwright/test';
import { mailedCode, mailedResetLink, PNG, screenshotDir, signIn } from '../fixtures.ts';

test('the sign-in page reads in both languages', async ({ page }) => {
  await page.goto('/login');
  await expect(page.getByTestId('login-email')).toHaveAttribute('placeholder', '请输入邮箱');
  await page.screenshot({ path: `${screenshotDir}login-zh.png` });
  await page.getByTestId('lang-switch').click();
  await page.getByTestId('lang-en').click();
  await expect(page.getByTestId('login-email')).toHaveAttribute('placeholder', 'Please input email');
  await expect(page.getByTestId('login-password')).toHaveAttribute('placeholder', 'Please input a password');
  await expect(page.getByTestId('login-code')).toHaveAttribute('placeholder', 'Please input a code');
  await page.screenshot({ path: `${screenshotDir}login-en.png` });
});

test('a shipper registers with an invitation code and signs in', async ({ page }) => {
  const email = `shipper${Date.now()}@example.com`;
  await page.goto('/register?invite=AGENT001');
  await expect(page.getByTestId('reg-invite')).toHaveValue('AGENT001');
  await page.getByTestId('reg-email').fill(email);
  await page.getByTestId('reg-get-code').click();
  await expect(page.getByTestId('reg-get-code')).toBeDisabled();
  await page.getByTestId('reg-code').fill(await mailedCode(page.request, email));
  await page.getByTestId('reg-password').fill('secret123');
  await page.getByTestId('reg-confirm').fill('secret124');
  await page.getByTestId('reg-next').click();
  await expect(page.getByText('两次输入密码不一致')).toBeVisible();
  await page.getByTestId('reg-confirm').fill('secret123');
  await page.screenshot({ path: `${screenshotDir}register-step1-zh.png` });
  await page.getByTestId('reg-next').click();

  await page.getByTestId('reg-name').fill('Ann');
  await page.getByTestId('reg-surname').fill('Lee');
  // A Chinese mobile number is a number under +86 (the default dial code is +1).
  await page.getByTestId('reg-dial-code').click();
  await page.keyboard.type('86');
  await page.getByTitle('中国 +86').click();
  await page.getByTestId('reg-phone').fill('13800138000');
  await page.getByTestId('reg-company').fill('Lee Imports');
  await page.getByTestId('reg-address1').fill('1 Main St');
  await page.getByTestId('reg-zip').fill('9000');
  await page.getByTestId('reg-city').fill('Los Angeles');
  await page.getByTestId('reg-state').fill('CA');
  await page.getByTestId('reg-next').click();
  await expect(page.getByText('请输入 5 位数字邮编')).toBeVisible();
  await page.getByTestId('reg-zip').fill('90001');
  await page.screenshot({ path: `${screenshotDir}register-step2-zh.png` });
  await page.getByTestId('reg-next').click();

  await page.getByTestId('reg-business').getByLabel('卡车运输').check();
  await page.getByTestId('reg-volume').click();
  await page.getByTitle('50 票以下').click();
  await page.getByTestId('reg-goods').click();
  await page.getByTitle('普通货物').click();
  await page.keyboard.press('Escape');
  await page.getByLabel('零担 (LTL)').check();
  for (const i of [0, 1, 2])
    await page.getByTestId(`reg-location-${i}`).fill(['Los Angeles', 'Chicago', 'Dallas'][i] as string);
  await page
    .locator('input[type=file]')
    .setInputFiles({ name: 'licence.png', mimeType: 'image/png', buffer: PNG });
  await expect(page.locator('.ant-image img')).toBeVisible();
  await page.screenshot({ path: `${screenshotDir}register-step3-zh.png` });
  await page.getByTestId('reg-submit').click();
  await expect(page.getByText('注册成功')).toBeVisible();
  await page.getByTestId('register-to-login').click();

  await signIn(page, email, 'secret123');
  await expect(page.getByTestId('home-greeting')).toContainText('Ann Lee');
});

test('a forgotten password is reset through the mailed link', async ({ page }) => {
  const email = 'direct@example.com';
  await page.goto('/login');
  await page.getByTestId('forgot-link').click();
  const link = await mailedResetLink(page, email);
  await page.goto(link);
  await page.getByTestId('forgot-password').fill('newpass1');
  await page.getByTestId('forgot-confirm').fill('newpass1');
  await page.getByTestId('forgot-submit').click();
  await expect(page.getByTestId('forgot-to-login')).toBeVisible();
  // The link works once only.
  await page.goto(link);
  await page.getByTestId('forgot-password').fill('newpass2');
  await page.getByTestId('forgot-confirm').fill('newpass2');
  await page.getByTestId('forgot-submit').click();
  await expect(page.getByText('重置链接无效或已过期')).toBeVisible();

  await signIn(page, email, 'newpass1');
  await expect(page.getByTestId('home-greeting')).toBeVisible();
});

test('the public status page shows the version and a healthy database', async ({ page }) => {
  for (const path of ['/test', '/test2', '/ceshi']) {
    await page.goto(path);
    await expect(page.getByTestId('status')).toContainText('内置数据库 (PGlite)');
    await expect(page.getByTestId('status')).toContainText('正常');
  }
  await page.screenshot({ path: `${screenshotDir}status-zh.png` });
});
