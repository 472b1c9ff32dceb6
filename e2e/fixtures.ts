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
  // Every spec starts its kept accounts in Chinese, as they were made: a spec that failed while in
  // English never restored the language, and must not fail the specs after it.
  const reset = await page.request.post('/api/admin/auth/setLocale', {
    data: { locale: 'zh_CN' },
    headers: { accessToken: token.replace(/^"|"$/g, '') },
  });
  expect((await reset.json()).code).toBe(200);
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

/** The page's signed-in session as the API's header, for calls the `api` envelope does not fit. */
export async function authHeaders(page: Page) {
  const token = await page.evaluate(() => localStorage.getItem('token'));
  return { accessToken: (token ?? '').replace(/^"|"$/g, '') };
}

/** Calls the API as the page's signed-in user and returns the answer's data, failing on any other code. */
export async function api(page: Page, url: string, body: unknown) {
  const res = await page.request.post(`/api${url}`, { data: body, headers: await authHeaders(page) });
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

/** A truck shipment the quote call takes: one pallet of 500 lb from Los Angeles to Dallas, today. */
export const truckShipment = () => ({
  mode: 'LTL',
  pickup: usAddress('90001', 'CA', 'Los Angeles'),
  delivery: usAddress('75201', 'TX', 'Dallas'),
  quoteDate: new Date().toISOString().slice(0, 10),
  lines: [
    { name: 'Parts', quantity: 1, palletCount: 1, length: 40, width: 40, height: 40, totalWeight: 500 },
  ],
});

/** Quotes 500 lb from Los Angeles to Dallas and prices it, through the API as the page's user; the quote's id. */
export async function pricedTruckQuote(page: Page): Promise<number> {
  const quote = await api(page, '/admin/quotation/save', truckShipment());
  // The prices stream as NDJSON rather than the envelope; reading it to the end prices the quote.
  await page.request.post('/api/admin/quotation/rates', {
    data: { id: quote.id },
    headers: await authHeaders(page),
  });
  return quote.id;
}

/**
 * Quotes 500 lb from Los Angeles to Dallas, prices it and books the first product that priced, paid
 * from the balance, all through the API as the page's user: for specs whose subject comes after booking.
 */
export async function bookPaidOrder(page: Page): Promise<{ id: number; orderNo: string }> {
  const id = await pricedTruckQuote(page);
  const quoted = await api(page, '/admin/quotation/getQuotationInfo', { id });
  const product = quoted.results.find((r: { ok: boolean }) => r.ok);
  return api(page, '/admin/order/save', { quoteId: id, productId: product.productId });
}

/** A sender or recipient of an express shipment in the US. */
export const expressAddress = (city: string, state: string, zipcode: string) => ({
  name: 'Pat Lee',
  address1: '100 Main St',
  city,
  state,
  zipcode,
  phone: '2135550100',
});

/**
 * An express waybill of the page's user on the demo's USG-STD channel, booked through the API, paid or
 * left to pay; its number.
 */
export async function bookWaybill(page: Page, pay: boolean): Promise<string> {
  const { id } = await api(page, '/express/quotation/getQuotas', {
    sender: expressAddress('Los Angeles', 'CA', '90001'),
    recipient: expressAddress('Dallas', 'TX', '75201'),
    parcels: [{ length: 10, width: 8, height: 6, weight: 4 }],
  });
  await page.request.post('/api/express/quotation/rates', { data: { id }, headers: await authHeaders(page) });
  const quote = await api(page, '/express/quotation/info', { id });
  const channel = (quote.results as { code: string; channelId: number }[]).find((r) => r.code === 'USG-STD');
  await api(page, '/express/quotation/select', { id, channelId: channel?.channelId });
  return (await api(page, '/express/order/create', { quoteId: id, pay })).waybillNo;
}

/** A one-pixel PNG, so an upload is a real image. */
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

/** A recharge submitted through the API as the page's user, with a real uploaded screenshot. */
export async function submitRecharge(page: Page, amount: string): Promise<{ id: number; serial: string }> {
  const uploaded = await page.request.post('/api/common/upload/images', {
    headers: await authHeaders(page),
    multipart: { file: { name: 'proof.png', mimeType: 'image/png', buffer: PNG } },
  });
  const [screenshotUrl] = (await uploaded.json()).data as string[];
  const { list } = await api(page, '/admin/admin/getAdminAccount', {});
  return api(page, '/admin/recharge/submit', {
    line: 'truck',
    amount,
    method: 'bank_transfer',
    receivingAccountId: list[0].id,
    payerName: 'Pat Payer',
    payerCardNumber: '6222 0000 1111 2222',
    screenshotUrl,
  });
}

/**
 * Asks for a password reset on the page the forgot-password form is open on, and answers the mailed
 * link's path and query.
 */
export async function mailedResetLink(page: Page, email: string): Promise<string> {
  await page.getByTestId('forgot-email').fill(email);
  await page.getByTestId('forgot-submit').click();
  // The page answers after the mail is queued; on a shared machine that may take a while.
  await expect(page.getByTestId('forgot-sent')).toBeVisible({ timeout: 30_000 });
  const link = /(https?:\/\/\S+\/forgotPassword\?token=[\w-]+)/.exec(
    await mailedText(page.request, email),
  )?.[1];
  expect(link).toBeTruthy();
  const url = new URL(link as string);
  return url.pathname + url.search;
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
