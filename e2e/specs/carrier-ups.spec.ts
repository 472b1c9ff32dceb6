import { expect, test } from '@playwright/test';
import {
  CARRIER_DOCUMENTS,
  type CarrierMock,
  startCarrierMock,
  upsActivity,
  upsRateAnswer,
  upsShipAnswer,
  upsTokenAnswer,
  upsTrackAnswer,
} from '../../apps/server/test/carrier-stand-in.ts';
import { bookChosenAndPay, fillParcelQuote, printedLabel } from '../carrier-steps.ts';
import { api, authHeaders, screenshotDir, session, switchLanguage } from '../fixtures.ts';

const CHANNEL = 'USG-UPS';
const CLIENT_ID = 'ups-e2e-client-7d1f';
const CLIENT_SECRET = 'ups-e2e-secret-9c44a1';
const ACCOUNT_NUMBER = 'E2E7Y9';
const TOKEN = 'ups-e2e-token-51b2';
// Its own number: another spec in the same portal may have booked the document's usual one.
const TRACKING = '1Z12345E0205271688';

const operations = (ups: CarrierMock, operationId: string) =>
  ups.requests.filter((request) => request.operationId === operationId);

// A step that hangs fails as itself, before the clean-up's calls take the test's time and the blame.
test.use({ actionTimeout: 30_000 });

test('staff connect a UPS account and test it; a customer quotes UPS’s own price, books it, pays and prints UPS’s label', async ({
  page,
  browser,
}) => {
  // Two users, an account made through its form, a quote, a booking and a label bought after payment.
  test.setTimeout(180_000);
  // UPS played from its own published documents: a request they refuse is a violation, and fails below.
  const ups = await startCarrierMock({ documents: CARRIER_DOCUMENTS.ups });
  ups.respond('CreateToken', upsTokenAnswer(CLIENT_ID, TOKEN));
  ups.respond(
    'Rate',
    upsRateAnswer('03', '14.37', [
      { code: '375', value: '1.27' },
      { code: '270', description: 'Residential Surcharge', value: '5.85' },
    ]),
  );
  ups.respond('Shipment', upsShipAnswer(TRACKING, '14.37'));
  let accountId = 0;
  let channelId = 0;
  await session(page, 'admin@example.com');
  try {
    // The account, through its form: UPS's three credentials and the stand-in's address.
    await page.goto('/carrierAccounts');
    await page.getByTestId('carrier-new').click();
    const dialog = page.getByRole('dialog');
    await dialog.getByTestId('carrier-label').fill('UPS e2e');
    await dialog.getByText('自定义地址', { exact: true }).click();
    await dialog.getByTestId('carrier-base-url').fill(ups.url);
    await dialog.getByTestId('carrier-credential-clientId').fill(CLIENT_ID);
    await dialog.getByTestId('carrier-credential-clientSecret').fill(CLIENT_SECRET);
    await dialog.getByTestId('carrier-credential-accountNumber').fill(ACCOUNT_NUMBER);
    await dialog.getByTestId('carrier-save').click();
    await expect(page.getByText('承运商账号已添加')).toBeVisible();
    await expect(dialog).toHaveCount(0);
    const { list } = await api(page, '/admin/carrierAccount/list', { page: 1, limit: 50 });
    accountId = (list as { id: number; label: string }[]).find((a) => a.label === 'UPS e2e')?.id ?? 0;
    expect(accountId).toBeGreaterThan(0);

    // Its test asks UPS for a token with the credentials, and says so.
    await page.getByTestId(`carrier-test-${accountId}`).click();
    await expect(page.locator('.ant-message')).toContainText('连接成功,承运商接受了凭证');
    await expect(page.getByTestId(`carrier-last-test-${accountId}`)).toContainText('连接正常');
    const [tokenAsked] = operations(ups, 'CreateToken');
    const basic = Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString('base64');
    expect(tokenAsked?.headers).toMatchObject({
      authorization: `Basic ${basic}`,
      'x-merchant-id': ACCOUNT_NUMBER,
    });
    expect(await page.content()).not.toContain(CLIENT_SECRET);
    await page.screenshot({ path: `${screenshotDir}carrier-ups-account-zh-1440.png` });

    // A channel of the US ground product, priced by the account as UPS Ground (service 03).
    const products = await api(page, '/admin/expressProduct/list', { page: 1, limit: 50 });
    const product = (products.list as { id: number; code: string }[]).find((p) => p.code === 'US-GROUND');
    channelId = (
      await api(page, '/admin/expressChannel/save', {
        productId: product?.id,
        code: CHANNEL,
        name: '美国陆运 UPS',
        nameEn: 'US Ground by UPS',
        carrier: 'UPS',
        service: 'Ground',
        scope: 'domestic',
        unitSystem: 'lb_in',
        dimDivisor: 139,
        transitDaysMin: 1,
        transitDaysMax: 5,
        maxWeight: 150,
        maxLength: 108,
        maxLengthGirth: 165,
        carrierAccountId: accountId,
        carrierService: '03',
      })
    ).id;

    // The customer's quote: UPS's price, each charge under UPS's own name, beside the table channels.
    const customer = await browser.newPage();
    await session(customer, 'customer@example.com');
    await customer.goto('/onlineQuotation');
    await fillParcelQuote(customer, { residential: true });
    await customer.getByTestId('get-quotes').click();
    const card = customer.getByTestId(`channel-${CHANNEL}`);
    await expect(customer.getByTestId(`channel-${CHANNEL}-total`)).toContainText('$');
    await expect(customer.getByTestId('channel-USG-STD-total')).toContainText('$');
    await expect(card).toContainText('Residential Surcharge');
    await expect(customer.getByTestId(`channel-${CHANNEL}-carrier-note`)).toHaveText(
      '由承运商报价并出具面单',
    );
    const [shop] = operations(ups, 'Rate');
    const asked = JSON.stringify(shop?.body);
    expect(asked).toContain(ACCOUNT_NUMBER);
    expect(shop?.path).toMatch(/\/Shop$/);
    await card.evaluate((el) => el.scrollIntoView({ block: 'center' }));
    await customer.screenshot({ path: `${screenshotDir}carrier-ups-quote-zh-1440.png` });
    await switchLanguage(customer, 'en');
    await expect(customer.getByTestId(`channel-${CHANNEL}-carrier-note`)).toHaveText(
      'Priced and labelled by the carrier',
    );
    await expect(card).toContainText('Residential Surcharge');
    await customer.screenshot({ path: `${screenshotDir}carrier-ups-quote-en-1440.png` });
    await switchLanguage(customer, 'zh');

    // Booked and paid from the balance, the label is bought from UPS and printed as a 4 × 6 PDF page.
    const { waybillNo, row } = await bookChosenAndPay(customer, CHANNEL, TRACKING);
    const [ship] = operations(ups, 'Shipment');
    if (!ship) throw new Error('the portal never asked UPS for the label');
    const shipment = (ship.body as { ShipmentRequest: { Shipment: Record<string, unknown> } }).ShipmentRequest
      .Shipment;
    expect(shipment).toMatchObject({ Service: { Code: '03' }, Shipper: { ShipperNumber: ACCOUNT_NUMBER } });
    expect(JSON.stringify(shipment)).toContain(waybillNo);
    await row.getByTestId(`waybill-${waybillNo}`).click();
    await expect(customer.getByTestId('waybill-drawer-carrier-label')).toHaveText('已由承运商出具(UPS)');
    await customer.screenshot({ path: `${screenshotDir}carrier-ups-drawer-zh-1440.png` });
    await customer.keyboard.press('Escape');
    // UPS's GIF, drawn lying down, stands upright on one 4 × 6 page.
    expect((await printedLabel(customer, row, waybillNo)).getPageCount()).toBe(1);

    // The customer asks UPS where the parcel is now, from the waybill's drawer: UPS's scans show.
    ups.respond(
      'getSingleTrackResponseUsingGET',
      upsTrackAnswer(TRACKING, [
        upsActivity('I', 'AR', 'Arrived at Facility', '20260304', '221000', 'Dallas'),
        upsActivity('P', 'PU', 'Pickup Scan', '20260302', '174700', 'Los Angeles'),
      ]),
    );
    await row.getByTestId(`waybill-${waybillNo}`).click();
    await customer.getByTestId('waybill-drawer-track-now').click();
    await expect(customer.locator('.ant-message')).toContainText('已向承运商查询,新增 2 条轨迹');
    const drawer = customer.getByTestId('waybill-drawer');
    // The pickup moved it on, as a staff scan would; the later scan keeps it in transit.
    await expect(drawer).toContainText('已揽收 · 运输中 · Los Angeles, TX, US · Pickup Scan (PU)');
    await customer.screenshot({ path: `${screenshotDir}carrier-ups-tracked-zh-1440.png` });
    await customer.keyboard.press('Escape');
    // The list behind says so too.
    await expect(row).toContainText('运输中');
    // Every call the portal made keeps to UPS's documents.
    expect(ups.violations).toEqual([]);
  } finally {
    // The specs after this one quote the demo's channels as they were, whatever step failed here.
    const staff = await authHeaders(page);
    const post = (url: string, body: unknown) =>
      page.request.post(`/api${url}`, { data: body, headers: staff });
    if (channelId) await post('/admin/expressChannel/delete', { id: channelId });
    if (accountId) await post('/admin/carrierAccount/delete', { id: accountId });
    await ups.close();
  }
});
