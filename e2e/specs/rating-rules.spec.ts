import { expect, test } from '@playwright/test';
import { api, authHeaders, expressAddress, screenshotDir, session, switchLanguage } from '../fixtures.ts';

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

test('staff set a channel’s carrier billing rules on the price page; a quote names the rule’s charge', async ({
  page,
  browser,
}) => {
  await session(page, 'admin@example.com');
  const channels = await api(page, '/admin/expressChannel/list', { page: 1, limit: 20, keyword: 'USG-STD' });
  const channelId: number = channels.list.find((c: { code: string }) => c.code === 'USG-STD').id;
  try {
    await page.goto(`/channelPrice?channelId=${channelId}`);
    const card = page.getByTestId('rating-rules');
    await expect(card).toContainText('承运商计费规则');
    await card.scrollIntoViewIfNeeded();

    // A rule with no name is refused on its field before anything is sent.
    await card.getByTestId('rules-add').click();
    await card.getByTestId('rules-save').click();
    await expect(card.getByText('请填写名称')).toBeVisible();

    await card.getByTestId('rules-name-0').fill('Additional Handling - Length');
    await card.getByTestId('rules-over-0').fill('48');
    // Form fields are named by their place in the rules: `surchargeRules_0_fee`.
    await card.locator('#surchargeRules_0_fee').fill('28.00');
    await card.getByTestId('rules-dim-rounding').click();
    await page.getByTitle('四舍五入到整数(FedEx、UPS)').click();
    // Fuel from yesterday: the rate in force today.
    await card.getByTestId('rules-fuel-add').click();
    await card.getByTestId('rules-fuel-from-0').click();
    await page.keyboard.type(day(-1));
    await page.keyboard.press('Enter');
    await card.locator('#fuel_0_percent').fill('18.5');
    await card.getByTestId('rules-save').click();
    await expect(card.getByTestId('rules-fuel-today')).toHaveText('今日燃油附加费 18.50%');
    await page.screenshot({ path: `${screenshotDir}rating-rules-zh.png`, fullPage: true });

    // The customer's quote names the charge: 48.5 in is measured 49, over 48.
    const customer = await browser.newPage();
    await session(customer, 'customer@example.com');
    const { id } = await api(customer, '/express/quotation/getQuotas', {
      sender: expressAddress('Los Angeles', 'CA', '90001'),
      recipient: expressAddress('Dallas', 'TX', '75201'),
      parcels: [{ length: 48.5, width: 10, height: 8, weight: 10 }],
      shipDate: day(1),
    });
    // Priced through the API, then reopened on the quote page as the quote list opens it.
    await customer.request.post('/api/express/quotation/rates', {
      data: { id },
      headers: await authHeaders(customer),
    });
    await customer.goto(`/onlineQuotation?quoteId=${id}`);
    const standard = customer.getByTestId('channel-USG-STD');
    await expect(standard).toContainText('Additional Handling - Length');
    // The form keeps the quote's ship date and each piece's packaging.
    await expect(customer.getByPlaceholder('今天')).toHaveValue(day(1));
    await expect(customer.getByTestId('parcel-0-packaging')).toContainText('纸箱');
    await customer.screenshot({ path: `${screenshotDir}rating-rules-quote-zh.png`, fullPage: true });

    // A packaging rule: a tube chosen on the form pays it, by its name.
    await api(page, '/admin/channelPrice/rules/save', {
      channelId,
      dimRounding: 'nearest',
      fuel: [{ from: day(-1), percent: '18.5' }],
      surchargeRules: [
        { name: 'Non-carton packaging', trigger: 'packaging', values: ['cylinder'], fee: '25.00' },
      ],
    });
    await customer.getByTestId('parcel-0-length').fill('30');
    await customer.getByTestId('parcel-0-packaging').click();
    await customer.getByTitle('圆柱/桶').click();
    await customer.getByTestId('get-quotes').click();
    await expect(standard).toContainText('Non-carton packaging');
    await expect(standard).not.toContainText('Additional Handling - Length');
    await customer.close();

    await switchLanguage(page, 'en');
    await expect(card).toContainText('Carrier billing rules');
    await expect(card.getByTestId('rules-fuel-today')).toHaveText('Fuel today 18.50%');
    await page.reload();
    await expect(card.getByTestId('rules-name-0')).toHaveValue('Non-carton packaging');
    await page.screenshot({ path: `${screenshotDir}rating-rules-en.png`, fullPage: true });

    // A tube priced step by step below the rules: sides measured, the rule by its name, fuel on both.
    const sample = page.getByTestId('sample-price');
    await sample.getByTestId('sample-length').fill('30.4');
    await sample.getByTestId('sample-width').fill('6');
    await sample.getByTestId('sample-height').fill('6');
    await sample.getByTestId('sample-weight').fill('5');
    await sample.getByTestId('sample-packaging').click();
    await page
      .locator('.ant-select-dropdown:visible .ant-select-item-option[title="Cylinder or drum"]')
      .click();
    await sample.getByTestId('sample-run').click();
    await expect(sample.getByTestId('sample-step-sides')).toHaveText(
      'Sides as the channel measures them: 30 × 6 × 6 in',
    );
    await expect(sample.getByTestId('sample-step-surcharge-0')).toHaveText('Non-carton packaging: $25.00');
    await expect(sample.getByTestId('sample-step-fuel')).toContainText('Fuel: 18.50% of $');
    await expect(sample.getByTestId('sample-total')).toContainText('Total cost: $');
    await sample.getByTestId('sample-steps').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${screenshotDir}sample-price-en.png` });
    await switchLanguage(page, 'zh');
    await sample.getByTestId('sample-run').click();
    await expect(sample.getByTestId('sample-step-sides')).toHaveText('按渠道规则量得尺寸:30 × 6 × 6 in');
    await expect(sample.getByTestId('sample-step-fuel')).toContainText('燃油附加费:$');
    await sample.getByTestId('sample-steps').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${screenshotDir}sample-price-zh.png` });
    // Abroad on a domestic channel: the quote's own reason.
    await sample.getByTestId('sample-destinationCountry').fill('CA');
    await sample.getByTestId('sample-destinationZip').fill('M5H 1A1');
    await sample.getByTestId('sample-run').click();
    await expect(sample.getByTestId('sample-refused')).toHaveText('该渠道不服务此目的国家');
  } finally {
    // The demo channel's quotes in the specs after this one price as the demo has them.
    await api(page, '/admin/channelPrice/rules/save', { channelId });
  }
});
