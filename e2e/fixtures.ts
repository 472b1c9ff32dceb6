import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { type APIRequestContext, expect, type Page } from '@playwright/test';

export const DEMO_PASSWORD = 'Demo@123456';
export const screenshotDir = new URL('./artifacts/screenshots/', import.meta.url).pathname;

/** The newest code the portal mailed to this address, from the dev mailbox (no SMTP in the suite). */
export async function mailedCode(request: APIRequestContext, email: string): Promise<string> {
  // The portal mails after it answers, so the mail may land a moment after the page says "sent".
  for (let attempt = 0; attempt < 30; attempt++) {
    const res = await request.get(`/api/dev/mailbox?to=${encodeURIComponent(email)}`);
    const body = await res.json();
    const text: string = body.data.list[0]?.text ?? '';
    const code = /\b(\d{6})\b/.exec(text)?.[1];
    if (code) return code;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no code mailed to ${email}`);
}

export async function mailedText(request: APIRequestContext, email: string): Promise<string> {
  const res = await request.get(`/api/dev/mailbox?to=${encodeURIComponent(email)}`);
  return (await res.json()).data.list[0]?.text ?? '';
}

/** Signs in through the login page the way a person does: password, then the code from the mail. */
export async function signIn(page: Page, email: string, password = DEMO_PASSWORD) {
  await page.goto('/login');
  await page.getByTestId('login-email').fill(email);
  await page.getByTestId('login-password').fill(password);
  // Codes may only be re-sent after 60 s; each test signs a user in at most once a minute, or reuses
  // a session, so a fresh code is always available here.
  await page.getByTestId('login-get-code').click();
  await expect(page.getByTestId('login-get-code')).toBeDisabled();
  const code = await mailedCode(page.request, email);
  await page.getByTestId('login-code').fill(code);
  await page.getByTestId('login-submit').click();
  await page.waitForURL(/\/home/);
  await settled(page);
  const token = await page.evaluate(() => localStorage.getItem('token'));
  if (token) keepSession(email, token);
}

/**
 * Sign-in codes may be requested once a minute per address, so the suite signs each user in through
 * the page once and reuses that session afterwards. The sessions are kept in the portal's data folder
 * (wiped at each run's start, playwright.config.ts), not in the worker's memory: a failed test starts a
 * new worker, which would otherwise ask for codes again within the minute and fail the next specs too.
 */
const sessionsFile = new URL(
  `./artifacts/data-${Number(process.env.E2E_PORT ?? 8093)}/e2e-sessions.json`,
  import.meta.url,
).pathname;

function keptSessions(): Record<string, string> {
  try {
    return JSON.parse(readFileSync(sessionsFile, 'utf8'));
  } catch {
    return {};
  }
}

function keepSession(email: string, token: string | null) {
  const sessions = keptSessions();
  if (token) sessions[email] = token;
  else delete sessions[email];
  mkdirSync(dirname(sessionsFile), { recursive: true });
  writeFileSync(sessionsFile, JSON.stringify(sessions));
}

export async function session(page: Page, email: string, password = DEMO_PASSWORD) {
  const token = keptSessions()[email];
  if (!token) {
    await signIn(page, email, password);
    return;
  }
  // Any page of the origin will do to reach its storage; the public status page loads fastest.
  await page.goto('/test');
  await page.evaluate((value) => localStorage.setItem('token', value), token);
  await page.goto('/home');
  await page.waitForURL(/\/home/);
  await settled(page);
}

/** The signed-in shell has loaded its user, menu and first page. */
async function settled(page: Page) {
  await page.getByTestId('home-greeting').waitFor();
  await page.waitForLoadState('networkidle');
}

/** A session that has ended (logout) must not be handed out again. */
export function forgetSession(email: string) {
  keepSession(email, null);
}

export const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** Switches the interface language with the header's language menu. */
export async function switchLanguage(page: Page, language: 'zh' | 'en') {
  await page.getByTestId('lang-switch').click();
  await page.getByTestId(`lang-${language}`).click();
}

/** Calls the API as the page's signed-in user and returns the answer's data, failing on any other code. */
export async function api(page: Page, url: string, body: unknown) {
  const token = await page.evaluate(() => localStorage.getItem('token'));
  const res = await page.request.post(`/api${url}`, {
    data: body,
    headers: { accessToken: (token ?? '').replace(/^"|"$/g, '') },
  });
  const json = await res.json();
  expect(json.code, `${url}: ${json.msg}`).toBe(200);
  return json.data;
}

const usAddress = (zipcode: string, state: string, city: string) => ({
  name: 'Dock',
  address1: '1 Main St',
  zipcode,
  city,
  state,
  contact: 'Pat Lee',
  phone: '2135550100',
});

/**
 * Quotes 500 lb from Los Angeles to Dallas, prices it and books the first product that priced, paid
 * from the balance, all through the API as the page's user: for specs whose subject comes after booking.
 */
export async function bookPaidOrder(page: Page): Promise<{ id: number; orderNo: string }> {
  const quote = await api(page, '/admin/quotation/save', {
    mode: 'LTL',
    pickup: usAddress('90001', 'CA', 'Los Angeles'),
    delivery: usAddress('75201', 'TX', 'Dallas'),
    quoteDate: new Date().toISOString().slice(0, 10),
    lines: [
      { name: 'Parts', quantity: 1, palletCount: 1, length: 40, width: 40, height: 40, totalWeight: 500 },
    ],
  });
  // The prices stream as NDJSON rather than the envelope; reading it to the end prices the quote.
  const token = await page.evaluate(() => localStorage.getItem('token'));
  await page.request.post('/api/admin/quotation/rates', {
    data: { id: quote.id },
    headers: { accessToken: (token ?? '').replace(/^"|"$/g, '') },
  });
  const quoted = await api(page, '/admin/quotation/getQuotationInfo', { id: quote.id });
  const product = quoted.results.find((r: { ok: boolean }) => r.ok);
  return api(page, '/admin/order/save', { quoteId: quote.id, productId: product.productId });
}

/**
 * Opens a page from the side menu: its group, then its item, until the address is the page's. The
 * menu redraws when its waiting counts arrive after the first page; a click that lands across a redraw
 * is lost, so the click is tried again (a second click on the open page changes nothing).
 */
export async function openFromMenu(page: Page, group: string, path: string) {
  const menu = page.getByTestId('side-menu');
  const item = menu.getByTestId(`menu-${path}`);
  await expect(async () => {
    if (!(await item.isVisible())) await menu.getByTestId(`menu-${group}`).click();
    await item.click({ timeout: 3_000 });
    await expect(page).toHaveURL(new RegExp(`${path}(\\?|$)`), { timeout: 3_000 });
  }).toPass({ timeout: 20_000 });
}
