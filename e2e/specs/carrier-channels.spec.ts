import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer } from 'node:net';
import { expect, type Locator, type Page, test } from '@playwright/test';
import { bookChosenAndPay, fillParcelQuote, printedLabel } from '../carrier-steps.ts';
import { api, authHeaders, expressAddress, screenshotDir, session, switchLanguage } from '../fixtures.ts';

const API_KEY = 'karrio_e2e_channels_51c2';
const CHANNEL = 'USG-KARRIO';

/** A local address where nothing listens (a port the system handed out and took back). */
async function nowhere(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (!address || typeof address === 'string') throw new Error('no port to borrow');
  return `http://127.0.0.1:${address.port}/`;
}

const SHIPMENT_ID = 'shp_e2e_5a1c';
/** The secret the stand-in makes for a webhook and sends with each event, as a Karrio server does. */
const WEBHOOK_SECRET = 'whsec_e2e_karrio_made_7c41d9a2';
const TRACKING = '1Z999AA10123456784';

/** The carrier's label as a Karrio server hands it over: a real PDF, a 4 × 6 page for each of two parcels. */
async function carrierLabelPdf(): Promise<Buffer> {
  const { PDFDocument, StandardFonts } = await import('pdf-lib');
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (const piece of [1, 2])
    pdf.addPage([288, 432]).drawText(`UPS ${TRACKING} ${piece}/2`, { x: 20, y: 400, size: 12, font });
  return Buffer.from(await pdf.save());
}

/**
 * A Karrio server that rates every shipment the same, UPS Ground at 18.40 USD, of which a residential
 * surcharge under UPS's own name; buys the label of any shipment asked with the account's key, serves
 * it from its own address, and cancels it.
 */
async function karrioStandIn(): Promise<{
  url: string;
  server: Server;
  bought: string[];
  cancelled: string[];
  /** The URLs the portal registered for tracker events. */
  webhooks: string[];
}> {
  const label = await carrierLabelPdf();
  const bought: string[] = [];
  const cancelled: string[] = [];
  const webhooks: string[] = [];
  let url = '';
  const server = createHttpServer((request, response) => {
    const json = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    if (request.headers.authorization !== `Token ${API_KEY}`) return json(401, { detail: 'Invalid token.' });
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (request.method === 'POST' && request.url === '/v1/proxy/rates')
        return json(200, {
          rates: [
            {
              carrier_name: 'ups',
              service: 'ups_ground',
              currency: 'USD',
              total_charge: 18.4,
              transit_days: 3,
              extra_charges: [
                { name: 'Base charge', amount: 14.2 },
                { name: 'Fuel surcharge', amount: 1.1 },
                { name: 'Residential Surcharge', amount: 3.1 },
              ],
              meta: { service_name: 'UPS Ground' },
            },
          ],
          messages: [],
        });
      if (request.method === 'POST' && request.url === '/v1/shipments') {
        const asked = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { reference: string };
        bought.push(asked.reference);
        // Each purchase its own shipment and number: the first is the one the steps below follow.
        const [id, tracking] =
          bought.length === 1
            ? [SHIPMENT_ID, TRACKING]
            : [`${SHIPMENT_ID}${bought.length}`, `${TRACKING.slice(0, -2)}${10 + bought.length}`];
        return json(200, {
          id,
          status: 'purchased',
          tracking_number: tracking,
          label_type: 'PDF',
          label_url: `${url}v1/shipments/${id}/label.pdf`,
          selected_rate: { currency: 'USD', total_charge: 18.4 },
          meta: { tracking_numbers: [tracking] },
          messages: [],
        });
      }
      const shipment = /^\/v1\/shipments\/([\w]+)\/(label\.pdf|cancel)$/.exec(request.url ?? '');
      if (request.method === 'GET' && shipment?.[2] === 'label.pdf') {
        response.writeHead(200, { 'content-type': 'application/pdf' });
        return response.end(label);
      }
      if (request.method === 'POST' && shipment?.[2] === 'cancel') {
        cancelled.push(shipment[1] as string);
        return json(200, { status: 'cancelled' });
      }
      if (request.method === 'POST' && request.url === '/v1/webhooks') {
        const asked = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
          url: string;
          enabled_events: string[];
        };
        webhooks.push(asked.url);
        return json(201, {
          id: `web_${webhooks.length}`,
          object_type: 'webhook',
          url: asked.url,
          enabled_events: asked.enabled_events,
          secret: WEBHOOK_SECRET,
          test_mode: false,
        });
      }
      return json(404, { detail: 'Not found.' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no port for the Karrio stand-in');
  url = `http://127.0.0.1:${address.port}/`;
  return { url, server, bought, cancelled, webhooks };
}

/** Below 992 px the side menu turns into a drawer, which folds itself away after two seconds. */
async function toPhone(page: Page) {
  await page.setViewportSize({ width: 390, height: 844 });
  const drawer = page.locator('.ant-drawer-content-wrapper');
  await expect(drawer).toBeVisible();
  await expect(drawer).toBeHidden({ timeout: 5_000 });
}

/** Scrolls a card to the middle of the screen, for a screenshot of it among its neighbours. */
const centre = (locator: Locator) => locator.evaluate((el) => el.scrollIntoView({ block: 'center' }));

// A step that hangs fails as itself, before the clean-up's calls take the test's time and the blame.
test.use({ actionTimeout: 30_000 });

test('staff let a Karrio account price a channel; a customer books it, waits for the carrier’s label and prints it', async ({
  page,
  browser,
}) => {
  // Two users, a channel made through its form and two quotes: longer than one page's steps.
  test.setTimeout(180_000);
  const address = await nowhere();
  await session(page, 'admin@example.com');
  const account = await api(page, '/admin/carrierAccount/create', {
    kind: 'karrio',
    label: 'Karrio e2e',
    environment: 'custom',
    baseUrl: address,
    credentials: { apiKey: API_KEY },
  });
  const ups = await api(page, '/admin/carrierAccount/create', {
    kind: 'ups',
    label: 'UPS e2e',
    environment: 'custom',
    baseUrl: address,
    credentials: { clientId: 'ups-e2e-client', clientSecret: 'ups-e2e-secret', accountNumber: 'E2E123' },
  });
  const standIn = await karrioStandIn();
  try {
    // A new channel through the form, priced by the account with Karrio's name of UPS Ground.
    await page.goto('/expressChannelManag');
    await page.getByTestId('express-channel-new').click();
    const dialog = page.getByRole('dialog');
    await dialog.getByTestId('express-channel-product').click();
    await page.locator('.ant-select-item-option', { hasText: 'US-GROUND' }).click();
    await dialog.getByLabel('渠道代码').fill(CHANNEL);
    await dialog.getByLabel('中文名称').fill('美国陆运 Karrio');
    await dialog.getByLabel('英文名称').fill('US Ground by Karrio');
    await dialog.getByLabel('承运商', { exact: true }).fill('UPS');
    await dialog.getByLabel('服务', { exact: true }).fill('Ground');
    await dialog.getByLabel('体积重除数').fill('139');
    await dialog.getByLabel('单件最大重量').fill('150');
    await dialog.getByLabel('单件最大长度').fill('108');
    await dialog.getByLabel('最大长度加围长').fill('165');
    await expect(dialog.getByLabel('承运商服务代码')).toHaveCount(0);
    // A UPS account offers UPS's codes by name.
    const pricedBy = dialog.getByLabel('报价来源');
    await pricedBy.click();
    await page.locator('.ant-select-item-option', { hasText: 'UPS e2e · UPS' }).click();
    await expect(dialog.getByText('UPS 的服务代码,如 03(Ground)')).toBeVisible();
    const serviceCode = dialog.getByLabel('承运商服务代码');
    await serviceCode.click();
    await expect(page.locator('.ant-select-item-option', { hasText: '03 · Ground' })).toBeVisible();
    await page.screenshot({ path: `${screenshotDir}carrier-channels-dialog-ups-zh-1440.png` });
    await page.locator('.ant-select-item-option', { hasText: '02 · 2nd Day Air' }).click();
    await expect(serviceCode).toHaveValue('02');
    // Another kind of account: a UPS code means nothing to Karrio, so it goes.
    await pricedBy.click();
    await page.locator('.ant-select-item-option', { hasText: 'Karrio e2e · Karrio' }).click();
    await expect(serviceCode).toHaveValue('');
    await expect(dialog.getByText('如 ups:ups_ground 或 fedex:fedex_ground')).toBeVisible();
    await expect(dialog.getByTestId('express-channel-carrier-note')).toContainText('面单由承运商出具');
    // Labels as a PDF page unless the channel asks the carrier for ZPL.
    await expect(dialog.getByTestId('express-channel-label-format')).toContainText('PDF(4×6 英寸)');
    // Saving without a service code is refused on the field.
    await dialog.getByTestId('express-channel-save').click();
    await expect(dialog.getByText('承运商服务代码不能为空')).toBeVisible();
    await serviceCode.fill('ups:ups_ground');
    await page.keyboard.press('Escape');
    await dialog.getByText('计价方式').evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await page.screenshot({ path: `${screenshotDir}carrier-channels-dialog-zh-1440.png` });
    await dialog.getByTestId('express-channel-save').click();
    await expect(page.getByText('保存成功')).toBeVisible();
    await expect(dialog).toHaveCount(0);

    const tag = page.getByTestId(`express-channel-provider-${CHANNEL}`);
    await expect(tag).toHaveText('Karrio');
    await expect(page.getByTestId(`express-channel-tables-unused-${CHANNEL}`)).toHaveText(
      '承运商报价,暂不使用',
    );
    await tag.hover();
    await expect(page.getByRole('tooltip')).toContainText(
      '由承运商账号“Karrio e2e”报价,服务代码 ups:ups_ground',
    );
    await page.mouse.move(0, 0);
    await expect(page.getByRole('tooltip')).toBeHidden();
    await page.screenshot({ path: `${screenshotDir}carrier-channels-list-zh-1440.png`, fullPage: true });
    await toPhone(page);
    await tag.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${screenshotDir}carrier-channels-list-zh-390.png` });
    await page.setViewportSize({ width: 1440, height: 900 });
    const { list } = await api(page, '/admin/expressChannel/list', { page: 1, limit: 50, keyword: CHANNEL });
    const saved = (list as { id: number; code: string; provider: string; carrierService: string }[]).find(
      (c) => c.code === CHANNEL,
    );
    expect(saved).toMatchObject({ provider: 'karrio', carrierService: 'ups:ups_ground' });

    // The channel's zone chart says it is kept but unused.
    await page.getByTestId(`express-channel-zones-${CHANNEL}`).click();
    await expect(page.getByTestId('express-channel-tables-unused')).toContainText(
      '分区表和价格表保留但不参与计价',
    );
    await page.goBack();

    // The form opens again on what was saved.
    await page.getByTestId(`express-channel-edit-${CHANNEL}`).click();
    await expect(dialog.getByTestId('express-channel-priced-by')).toContainText('Karrio e2e · Karrio');
    await expect(dialog.getByLabel('承运商服务代码')).toHaveValue('ups:ups_ground');
    await dialog.getByRole('button', { name: /取\s?消/ }).click();
    await expect(dialog).toHaveCount(0);

    // The customer's quote: the tables price their channels, the carrier cannot be reached.
    const customer = await browser.newPage();
    await session(customer, 'customer@example.com');
    await customer.goto('/onlineQuotation');
    await fillParcelQuote(customer);
    await customer.getByTestId('get-quotes').click();
    await expect(customer.getByTestId('channel-USG-STD-total')).toContainText('$');
    await expect(customer.getByTestId('channel-USG-STD-select')).toBeEnabled();
    const card = customer.getByTestId(`channel-${CHANNEL}`);
    await expect(customer.getByTestId(`channel-${CHANNEL}-reason`)).toHaveText('承运商未能报价');
    // A customer is told the carrier is away, not what staff would fix.
    await expect(customer.getByTestId(`channel-${CHANNEL}-failure`)).toHaveText(
      '承运商暂时无法报价,请稍后重试或选择其他渠道',
    );
    await expect(customer.getByTestId(`channel-${CHANNEL}-carrier-note`)).toHaveText(
      '由承运商报价并出具面单',
    );
    // Unpriced, it cannot be chosen.
    const select = customer.getByTestId(`channel-${CHANNEL}-select`);
    await expect(select).toHaveCount(0);
    await centre(card);
    await customer.screenshot({ path: `${screenshotDir}carrier-channels-quote-zh-1440.png` });

    await switchLanguage(customer, 'en');
    await expect(customer.getByTestId(`channel-${CHANNEL}-reason`)).toHaveText(
      'The carrier did not price this shipment',
    );
    await expect(customer.getByTestId(`channel-${CHANNEL}-failure`)).toHaveText(
      'The carrier cannot price this at the moment; please try again later or choose another channel',
    );
    await expect(customer.getByTestId(`channel-${CHANNEL}-carrier-note`)).toHaveText(
      'Priced and labelled by the carrier',
    );
    await expect(select).toHaveCount(0);
    await centre(card);
    await customer.screenshot({ path: `${screenshotDir}carrier-channels-quote-en-1440.png` });
    await toPhone(customer);
    await centre(card);
    await expect(customer.getByTestId(`channel-${CHANNEL}-failure`)).toBeInViewport();
    await customer.screenshot({ path: `${screenshotDir}carrier-channels-quote-en-390.png` });

    // Once the carrier answers, its price and its own name of each charge show, and it can be booked.
    await api(page, '/admin/carrierAccount/update', {
      id: account.id,
      label: 'Karrio e2e',
      environment: 'custom',
      baseUrl: standIn.url,
    });
    await customer.getByTestId('get-quotes').click();
    await expect(customer.getByTestId(`channel-${CHANNEL}-total`)).toContainText('$');
    await expect(card).toContainText('Residential Surcharge');
    await expect(card).toContainText('Base freight');
    await expect(card).not.toContainText('Zone');
    await expect(customer.getByTestId(`channel-${CHANNEL}-carrier-note`)).toHaveText(
      'Priced and labelled by the carrier',
    );
    await centre(card);
    await customer.screenshot({ path: `${screenshotDir}carrier-channels-priced-en-390.png` });
    await switchLanguage(customer, 'zh');
    await expect(card).toContainText('Residential Surcharge');
    await expect(customer.getByTestId(`channel-${CHANNEL}-carrier-note`)).toHaveText(
      '由承运商报价并出具面单',
    );
    await centre(card);
    await customer.screenshot({ path: `${screenshotDir}carrier-channels-priced-zh-390.png` });
    await customer.setViewportSize({ width: 1440, height: 900 });

    // Booked and paid, the waybill waits a moment for the carrier's label, then prints it.
    const { waybillNo, row } = await bookChosenAndPay(customer, CHANNEL, TRACKING);
    expect(standIn.bought).toEqual([waybillNo]);
    await row.getByTestId(`waybill-${waybillNo}`).click();
    await expect(customer.getByTestId('waybill-drawer-carrier-label')).toHaveText('已由承运商出具(KARRIO)');
    await customer.screenshot({ path: `${screenshotDir}carrier-booking-drawer-zh-1440.png` });
    await customer.keyboard.press('Escape');
    // The carrier's own label: its two 4 × 6 pages, not the portal's one.
    expect((await printedLabel(customer, row, waybillNo)).getPageCount()).toBe(2);

    // Staff register the portal's tracking webhook at Karrio from the accounts page.
    await page.goto('/carrierAccounts');
    const webhookCell = page.getByTestId(`carrier-webhook-${account.id}`);
    await expect(webhookCell).toContainText('未登记');
    await page.getByTestId(`carrier-webhook-register-${account.id}`).click();
    await page.getByTestId('carrier-webhook-register-ok').click();
    await expect(page.getByText('已在 Karrio 登记轨迹 Webhook')).toBeVisible();
    await expect(webhookCell).toContainText('已登记');
    await expect(page.getByTestId(`carrier-webhook-${ups.id}`)).toHaveText('-');
    await page.screenshot({ path: `${screenshotDir}carrier-accounts-webhook-zh-1440.png` });
    expect(standIn.webhooks).toHaveLength(1);
    const hook = standIn.webhooks[0] as string;
    expect(new URL(hook).pathname).toBe(`/api/carriers/karrio/webhook/${account.id}`);

    // Karrio sends the parcel's scans with its secret: the customer sees the parcel on its way.
    const today = new Date().toISOString().slice(0, 10);
    const event = (secret: string) =>
      page.request.post(hook, {
        headers: { 'x-event-id': secret },
        data: {
          event: 'tracker_updated',
          data: {
            tracking_number: TRACKING,
            status: 'in_transit',
            events: [
              {
                date: today,
                time: '05:47 PM',
                description: 'Departed from Facility',
                code: 'DP',
                location: 'LOS ANGELES, CA',
              },
              {
                date: today,
                time: '10:10 AM',
                description: 'Origin Scan',
                code: 'OR',
                location: 'LOS ANGELES, CA',
              },
            ],
          },
        },
      });
    expect((await event('whsec_guessed_by_someone_else')).status()).toBe(401);
    const heard = await event(WEBHOOK_SECRET);
    expect(await heard.json()).toMatchObject({ code: 200, data: { recorded: 2 } });
    await customer.reload();
    await expect(row).toContainText('运输中');
    await row.getByTestId(`waybill-${waybillNo}`).click();
    await expect(customer.getByRole('dialog')).toContainText(
      '已揽收 · 运输中 · LOS ANGELES, CA · Origin Scan (OR)',
    );
    await customer.screenshot({ path: `${screenshotDir}carrier-tracking-drawer-zh-1440.png` });
    await customer.keyboard.press('Escape');

    // Another waybill, voided: the label goes back to the carrier before the money comes back.
    const quote = await api(customer, '/express/quotation/getQuotas', {
      sender: expressAddress('Los Angeles', 'CA', '90001'),
      recipient: expressAddress('Dallas', 'TX', '75201'),
      parcels: [{ length: 10, width: 8, height: 6, weight: 4 }],
    });
    await customer.request.post('/api/express/quotation/rates', {
      data: { id: quote.id },
      headers: await authHeaders(customer),
    });
    const quoted = await api(customer, '/express/quotation/info', { id: quote.id });
    const ours = (quoted.results as { code: string; channelId: number }[]).find((r) => r.code === CHANNEL);
    await api(customer, '/express/quotation/select', { id: quote.id, channelId: ours?.channelId });
    const second = (await api(customer, '/express/order/create', { quoteId: quote.id, pay: true })).waybillNo;
    await expect
      .poll(
        async () => {
          const found = await api(customer, '/express/order/list', { page: 1, limit: 10, keyword: second });
          return (found.list[0] as { status: string }).status;
        },
        { timeout: 20_000 },
      )
      .toBe('to_be_printed');
    expect(standIn.bought).toEqual([waybillNo, second]);
    expect(standIn.cancelled).toEqual([]);
    const booked = await api(customer, '/express/order/list', { page: 1, limit: 10, keyword: second });
    await api(customer, '/express/order/refund', {
      id: (booked.list[0] as { id: number }).id,
      reason: 'e2e',
    });
    expect(standIn.cancelled).toEqual([`${SHIPMENT_ID}2`]);
  } finally {
    // The specs after this one quote the demo's channels as they were, whatever step failed here.
    const staff = await authHeaders(page);
    const post = (url: string, body: unknown) =>
      page.request.post(`/api${url}`, { data: body, headers: staff });
    const found = await (
      await post('/admin/expressChannel/list', { page: 1, limit: 50, keyword: CHANNEL })
    ).json();
    for (const channel of (found.data?.list ?? []) as { id: number; code: string }[])
      if (channel.code === CHANNEL) await post('/admin/expressChannel/delete', { id: channel.id });
    for (const id of [account.id, ups.id]) await post('/admin/carrierAccount/delete', { id });
    await new Promise((resolve) => standIn.server.close(resolve));
  }
});
