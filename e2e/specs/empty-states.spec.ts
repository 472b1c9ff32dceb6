import {
  type APIRequestContext,
  type Browser,
  expect as baseExpect,
  chromium,
  type Page,
  request,
  test,
} from '@playwright/test';
import { api, mailedCode, mailedText, screenshotDir, session, switchLanguage } from '../fixtures.ts';

test.describe.configure({ mode: 'serial' });

// A page loads slowly on a machine the whole team shares: each step may take a while to show.
const expect = baseExpect.configure({ timeout: 30_000 });

/** A tenant of this spec's own: nothing in it yet, so its lists are really empty. */
const TENANT = { code: 'quiet-freight', host: 'portal.quiet-freight.test', admin: 'ops@quiet-freight.test' };
const PASSWORD = 'Quiet@123456';
/** A member of the tenant's staff who may look at customers but not add them. */
const VIEWER = 'viewer@quiet-freight.test';

/** Opens a page inside the running app (as the menu does), and waits until its lists have answered. */
async function visit(page: Page, path: string) {
  await page.evaluate((to) => {
    history.pushState({}, '', to);
    dispatchEvent(new PopStateEvent('popstate'));
  }, path);
  await expect(page).toHaveURL(new RegExp(`${path}$`));
  await page.waitForLoadState('networkidle');
  await expect(page.locator('.app-content .ant-spin-spinning:visible')).toHaveCount(0);
}

// Pages visited before stay open (hidden) in their tabs: only the page in view counts.
const emptyText = (page: Page) => page.locator('.app-content [data-testid="list-empty"]:visible');
const emptyAction = (page: Page) => page.locator('.app-content [data-testid="list-empty-action"]:visible');
const noMatch = (page: Page) => page.locator('.app-content [data-testid="list-no-match"]:visible');

/** What the action does: opens the page's own editor, or goes to the page that fills the list. */
type Opens = 'drawer' | 'modal' | RegExp;

interface EmptyList {
  path: string;
  zh: string;
  en?: string;
  action: { zh: string; en?: string; opens: Opens };
}

/** Every list of a new tenant that nothing has filled yet, as its administrator sees it. */
const FRESH_LISTS: EmptyList[] = [
  {
    path: '/branchManagement',
    zh: '分公司在这里列出',
    action: { zh: '新增分公司', opens: 'drawer' },
  },
  {
    path: '/general-customer-management',
    zh: '代理的客户在这里列出',
    action: { zh: '新增客户', opens: 'drawer' },
  },
  {
    path: '/directCustomerManagement',
    zh: '分公司直属的客户在这里列出',
    action: { zh: '新增客户', opens: 'drawer' },
  },
  {
    path: '/allCustomer',
    zh: '每个客户都在这里列出',
    en: 'Every customer shows here',
    action: { zh: '新增客户', en: 'Add customer', opens: 'drawer' },
  },
  {
    path: '/expressBranchManagement',
    zh: '分公司在这里列出',
    action: { zh: '新增分公司', opens: 'drawer' },
  },
  {
    path: '/deliveryAgentCustomerManagement',
    zh: '代理的客户在这里列出',
    action: { zh: '新增客户', opens: 'drawer' },
  },
  {
    path: '/deliveryDirectCustomerManagement',
    zh: '分公司直属的客户在这里列出',
    action: { zh: '新增客户', opens: 'drawer' },
  },
  {
    path: '/expressAllCustomer',
    zh: '每个客户都在这里列出',
    action: { zh: '新增客户', opens: 'drawer' },
  },
  {
    path: '/balanceTotal',
    zh: '每个客户都有卡车与快递两个账户',
    en: 'Each customer has a truck and an express account',
    action: { zh: '去新增客户', en: 'Add a customer', opens: /\/allCustomer$/ },
  },
  {
    path: '/deliveryBalanceTotal',
    zh: '每个客户都有卡车与快递两个账户',
    action: { zh: '去新增客户', opens: /\/expressAllCustomer$/ },
  },
  {
    path: '/productManagement',
    zh: '卡车产品是客户报价时可选的承运服务',
    en: 'Truck products are the services customers are quoted',
    action: { zh: '新增产品', en: 'New product', opens: 'modal' },
  },
  {
    path: '/freightRule',
    zh: '运价规则按卡车产品录入',
    en: 'Freight rules belong to a truck product',
    action: { zh: '去新增卡车产品', en: 'Add a truck product', opens: /\/productManagement$/ },
  },
  {
    path: '/expressProductManagement',
    zh: '快递产品把渠道归组',
    action: { zh: '新增快递产品', opens: 'modal' },
  },
  {
    path: '/expressChannelManag',
    zh: '渠道是快递产品下的具体承运服务',
    en: 'Channels are the carrier services under an express product',
    action: { zh: '新增渠道', en: 'New channel', opens: 'modal' },
  },
  {
    path: '/addressmanagement',
    zh: '卡车地址簿还是空的',
    en: 'The truck address book is empty',
    action: { zh: '新增地址', en: 'New address', opens: 'modal' },
  },
  {
    path: '/setPrice',
    zh: '快递加价按分公司、代理或客户设置',
    en: 'Express markups are set per branch, agent or customer',
    action: { zh: '去新增客户', en: 'Add a customer', opens: /\/expressAllCustomer$/ },
  },
];

/** Checks one empty list's words and action, takes its picture, and follows the action. */
async function checkEmpty(page: Page, item: EmptyList, language: 'zh' | 'en') {
  await visit(page, item.path);
  await expect(emptyText(page)).toContainText(item[language] as string);
  await page.screenshot({ path: `${screenshotDir}empty${item.path.replace('/', '-')}-${language}.png` });
  const action = emptyAction(page);
  await expect(action).toHaveText(item.action[language] as string);
  await action.click();
  const opens = item.action.opens;
  if (opens instanceof RegExp) {
    await expect(page).toHaveURL(opens);
    return;
  }
  const editor = page.locator(opens === 'drawer' ? '.ant-drawer-open' : '.ant-modal-wrap:visible');
  await expect(editor).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(editor).toBeHidden();
}

/** Searches the page in view for a keyword that nothing has. */
/**
 * Searches the page shown for a keyword nothing matches. While a tab opens, the page left may still
 * show its filters for a moment, and a page may still be settling its own: the search is made again
 * until the list answers it, so the keyword typed is the one searched.
 */
async function searchNothing(page: Page) {
  await expect(async () => {
    const keyword = page.locator('.app-content .filter-bar:visible input[id$="keyword"]');
    await expect(keyword).toHaveCount(1);
    await keyword.fill('zz-nothing-here');
    await page.locator('.app-content [data-testid="filter-search"]:visible').click();
    await expect(noMatch(page)).toBeVisible({ timeout: 5_000 });
  }).toPass({ timeout: 30_000 });
  await page.waitForLoadState('networkidle');
}

let own: Browser;
let tenantPage: Page;
/** Calls from the test itself reach the tenant by its host name, which only the browser maps here. */
let tenantApi: APIRequestContext;

/** Signs in on the tenant's host as a person does: password, then the code from the mail. */
async function signInOnTenant(page: Page, email: string) {
  await page.goto('/login');
  await page.getByTestId('login-email').fill(email);
  await page.getByTestId('login-password').fill(PASSWORD);
  await page.getByTestId('login-get-code').click();
  await expect(page.getByTestId('login-get-code')).toBeDisabled();
  await page.getByTestId('login-code').fill(await mailedCode(tenantApi, email));
  await page.getByTestId('login-submit').click();
  await page.waitForURL(/\/home/);
  await page.getByTestId('home-greeting').waitFor();
  await page.waitForLoadState('networkidle');
}

/** Calls the tenant's API as the page's signed-in user and returns the answer's data. */
async function tenantCall(page: Page, url: string, body: unknown) {
  const token = await page.evaluate(() => localStorage.getItem('token'));
  const res = await tenantApi.post(`/api${url}`, {
    data: body,
    headers: { accessToken: (token ?? '').replace(/^"|"$/g, '') },
  });
  const json = await res.json();
  expect(json.code, `${url}: ${json.msg}`).toBe(200);
  return json.data;
}

test.beforeAll(async ({ baseURL }) => {
  // The tenant's host answers on this machine, as its users' browsers would find it on theirs.
  const { launchOptions } = test.info().project.use;
  own = await chromium.launch({
    ...launchOptions,
    args: [...(launchOptions?.args ?? []), `--host-resolver-rules=MAP ${TENANT.host} 127.0.0.1`],
  });
  const port = new URL(baseURL as string).port;
  const context = await own.newContext({
    baseURL: `http://${TENANT.host}:${port}`,
    locale: 'zh-CN',
    viewport: { width: 1440, height: 900 },
    reducedMotion: 'reduce',
  });
  tenantPage = await context.newPage();
  tenantApi = await request.newContext({ baseURL, extraHTTPHeaders: { host: TENANT.host } });
});

test.afterAll(async () => {
  await own?.close();
  await tenantApi?.dispose();
});

test('a new tenant is made, and its administrator sets a password and signs in', async ({ page }) => {
  await session(page, 'admin@example.com');
  await api(page, '/admin/tenants/create', {
    code: TENANT.code,
    name: '静候货运',
    nameEn: 'Quiet Freight',
    hosts: [TENANT.host],
    adminEmail: TENANT.admin,
  });
  const link = /https?:\/\/\S+(\/forgotPassword\?token=[\w-]+)/.exec(
    await mailedText(tenantApi, TENANT.admin),
  )?.[1];
  expect(link).toBeTruthy();
  await tenantPage.goto(link as string);
  await tenantPage.getByTestId('forgot-password').fill(PASSWORD);
  await tenantPage.getByTestId('forgot-confirm').fill(PASSWORD);
  await tenantPage.getByTestId('forgot-submit').click();
  await expect(tenantPage.getByTestId('forgot-to-login')).toBeVisible();
  await signInOnTenant(tenantPage, TENANT.admin);
});

test("a new tenant's lists say what fills them and offer the step that does, in Chinese and English", async () => {
  test.setTimeout(300_000);
  const page = tenantPage;
  for (const item of FRESH_LISTS) await checkEmpty(page, item, 'zh');

  // The branch page's second tab lists the branches' agents.
  await visit(page, '/branchManagement');
  await page.locator('.app-content .ant-segmented:visible').getByText('代理').click();
  await expect(emptyText(page)).toContainText('各分公司下的代理在这里列出');
  await expect(emptyAction(page)).toHaveText('新增代理');

  await switchLanguage(page, 'en');
  for (const item of FRESH_LISTS.filter((i) => i.en)) await checkEmpty(page, item, 'en');
  await switchLanguage(page, 'zh');
});

test('a list emptied by a search says nothing matched and offers nothing to add', async ({ page }) => {
  // Staff, roles and the operation log always hold the administrator, the built-in roles and what they
  // did: only a search empties them.
  for (const [path, zh, en] of [
    ['/staff-management', '没有符合筛选条件的员工', 'No staff member matches these filters'],
    ['/basicSettings', '没有符合筛选条件的角色', 'No role matches these filters'],
    ['/allCustomer', '没有符合筛选条件的机构', 'No organisation matches these filters'],
    ['/operationLog', '没有符合筛选条件的操作记录', 'No operation matches these filters'],
  ] as const) {
    await visit(tenantPage, path);
    await searchNothing(tenantPage);
    await expect(noMatch(tenantPage)).toHaveText(zh);
    await expect(emptyAction(tenantPage)).toHaveCount(0);
    await switchLanguage(tenantPage, 'en');
    await expect(noMatch(tenantPage)).toHaveText(en);
    await switchLanguage(tenantPage, 'zh');
  }
  await tenantPage.screenshot({ path: `${screenshotDir}empty-no-match-zh.png` });

  // Tenants are the platform's own: the list always holds the platform's tenant.
  await session(page, 'admin@example.com');
  await visit(page, '/tenantManagement');
  await page.getByTestId('tenant-keyword').fill('zz-nothing-here');
  await page.getByTestId('filter-search').click();
  await expect(noMatch(page)).toHaveText('没有符合筛选条件的租户');
  await expect(emptyAction(page)).toHaveCount(0);
});

test('the empty lists offer a step only to a viewer who may take it', async () => {
  // A role that sees the customers and the balances but may not add a customer.
  const { id: roleId } = await tenantCall(tenantPage, '/admin/role/save', {
    name: '只看客户',
    nameEn: 'Customer viewer',
    menuIds: [7, 73, 8, 83],
    buttonKeys: [],
  });
  await tenantCall(tenantPage, '/admin/staff/save', {
    email: VIEWER,
    name: '查看员',
    password: PASSWORD,
    roleIds: [roleId],
  });
  const viewer = await tenantPage
    .context()
    .browser()
    ?.newContext({
      baseURL: new URL(tenantPage.url()).origin,
      locale: 'zh-CN',
      viewport: { width: 1440, height: 900 },
      reducedMotion: 'reduce',
    });
  const page = (await viewer?.newPage()) as Page;
  await signInOnTenant(page, VIEWER);
  for (const path of ['/allCustomer', '/balanceTotal']) {
    await visit(page, path);
    await expect(emptyText(page)).toBeVisible();
    await expect(emptyAction(page)).toHaveCount(0);
  }
  await page.screenshot({ path: `${screenshotDir}empty-balance-viewer-zh.png` });
  await viewer?.close();
});
