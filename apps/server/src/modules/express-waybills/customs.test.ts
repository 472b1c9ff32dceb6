import { PDFDocument } from 'pdf-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { CARRIER_DOCUMENTS, upsTokenAnswer, useCarrierMock } from '../../../test/carrier-mock.ts';
import {
  expressChannelBody,
  parcelShipment,
  streamedExpressRates,
  useExpressLine,
} from '../../../test/express-fixtures.ts';
import { useTestApp } from '../../../test/fixture.ts';
import { badFields } from '../../../test/helpers.ts';

/**
 * A parcel crossing a border says what it holds: the quote refuses it without, naming the field; its
 * waybill prints the commercial invoice after the label (and the postal CN 22 / CN 23 on the portal's
 * own label); a carrier's booking carries the declaration in the carrier's own form.
 */
const f = useTestApp({ tenants: 1, signIn: [['admin', 'customer']], language: 'en-US' });
const { fund } = useExpressLine(f);
const ups = useCarrierMock({ documents: CARRIER_DOCUMENTS.ups });

const toToronto = {
  ...parcelShipment().recipient,
  city: 'Toronto',
  state: 'ON',
  zipcode: 'M5H 1A1',
  country: 'CA',
};

const customs = {
  contentsType: 'merchandise',
  items: [
    {
      description: 'Cotton T-shirt',
      hsCode: '6109.10.00',
      originCountry: 'us',
      quantity: 3,
      unitValue: '12.50',
      weight: 0.4,
    },
    {
      description: 'Leather belt',
      hsCode: '420330',
      originCountry: 'IT',
      quantity: 1,
      unitValue: '40',
      weight: 0.6,
    },
  ],
  incoterm: 'DDP',
  senderTaxId: 'US123456789',
};

const abroad = (extra: Record<string, unknown> = {}) =>
  parcelShipment({
    recipient: toToronto,
    parcels: [{ length: 10, width: 8, height: 6, weight: 2 }],
    ...extra,
  });

beforeAll(async () => {
  const admin = f.as('admin');
  const account = await admin.ok('/api/admin/carrierAccount/create', {
    kind: 'ups',
    label: 'UPS international',
    environment: 'custom',
    baseUrl: ups.url,
    timeoutMs: 4_000,
    credentials: { clientId: 'client-intl', clientSecret: 'secret-intl', accountNumber: 'R5T7Y9' },
  });
  const products = await admin.ok('/api/admin/expressProduct/list', {});
  const international = products.list.find((p: { code: string }) => p.code === 'INTL-EXPRESS');
  await admin.ok(
    '/api/admin/expressChannel/save',
    expressChannelBody(international.id, {
      code: 'UPS-WW',
      nameEn: 'UPS Worldwide Saver',
      carrier: 'UPS',
      service: 'Worldwide Saver',
      scope: 'international',
      carrierAccountId: account.id,
      carrierService: '65',
    }),
  );
});

const customer = () => f.as('customer');

async function bookAndPay(body: Record<string, unknown>, code: string) {
  const { id } = await customer().ok('/api/express/quotation/getQuotas', body);
  const done = (await streamedExpressRates(customer(), id)).at(-1);
  const line = done.results.find((r: { code: string }) => r.code === code);
  expect(line, code).toMatchObject({ ok: true });
  await customer().ok('/api/express/quotation/select', { id, channelId: line.channelId });
  return customer().ok('/api/express/order/create', { quoteId: id, pay: true });
}

describe('customs data on parcels crossing a border', () => {
  it('refuses a parcel abroad without its contents, or goods without items, naming the field', async () => {
    const none = await customer().post('/api/express/quotation/getQuotas', abroad());
    expect(none.json().code).toBe(400);
    expect(badFields(none)).toEqual(['customs.contentsType']);
    expect(none.json().msg).toMatch(/type of contents/i);

    const noItems = await customer().post(
      '/api/express/quotation/getQuotas',
      abroad({ customs: { contentsType: 'gift', items: [] } }),
      'zh-CN',
    );
    expect(badFields(noItems)).toEqual(['customs.items']);
    expect(noItems.json().msg).toContain('报关物品');

    const badCode = await customer().post(
      '/api/express/quotation/getQuotas',
      abroad({ customs: { ...customs, items: [{ ...customs.items[0], hsCode: '61-09' }] } }),
    );
    expect(badFields(badCode)).toEqual(['customs.items.0.hsCode']);
    expect(badCode.json().msg).toContain('HS code');

    // Documents declare no items; a parcel at home needs no customs at all.
    await customer().ok(
      '/api/express/quotation/getQuotas',
      abroad({ customs: { contentsType: 'documents' } }),
    );
    await customer().ok('/api/express/quotation/getQuotas', parcelShipment());
  });

  it('keeps the declaration on the waybill and prints the commercial invoice and CN 22 after the portal’s label', async () => {
    await fund('customer', 100_000n);
    const created = await bookAndPay(abroad({ customs }), 'INTL-EXP');
    const { waybill } = await customer().ok('/api/express/order/info', { id: created.id });
    expect(waybill.shipment.customs).toMatchObject({
      contentsType: 'merchandise',
      currency: 'USD',
      incoterm: 'DDP',
      items: [
        { hsCode: '61091000', originCountry: 'US', quantity: 3, unitValue: '12.50' },
        { hsCode: '420330', originCountry: 'IT', unitValue: '40' },
      ],
    });
    const printed = await customer().post('/api/express/order/print', { ids: [created.id] });
    expect(printed.statusCode).toBe(200);
    const pdf = await PDFDocument.load(printed.rawPayload);
    // The label, the commercial invoice, and the postal declaration: 77.50 USD and 1.8 lb make a CN 22.
    expect(pdf.getPageCount()).toBe(3);
    for (const page of pdf.getPages()) expect(page.getSize()).toEqual({ width: 288, height: 432 });
    // A thermal printer takes the label alone; its papers print on their own, as the same two pages.
    const zpl = await customer().post('/api/express/order/print', { ids: [created.id], format: 'zpl' });
    expect(zpl.body.match(/\^XA/g)).toHaveLength(1);
    expect(waybill.customsPapers).toBe(true);
    const papers = await customer().post('/api/express/order/customsPapers', { ids: [created.id] });
    expect(papers.statusCode).toBe(200);
    expect(papers.headers['content-type']).toBe('application/pdf');
    expect(papers.headers['content-disposition']).toContain(`customs-${created.waybillNo}.pdf`);
    const paperPdf = await PDFDocument.load(papers.rawPayload);
    expect(paperPdf.getPageCount()).toBe(2);
    // Papers are not a print: the count stays at the two labels printed.
    const after = await customer().ok('/api/express/order/info', { id: created.id });
    expect(after.waybill.printCount).toBe(2);
  });

  it('refuses customs papers for a waybill at home, one not paid, or one of another customer, naming it', async () => {
    await fund('customer', 100_000n);
    const abroadPaid = await bookAndPay(abroad({ customs }), 'INTL-EXP');
    const home = await bookAndPay(parcelShipment(), 'USG-STD');
    const { waybill } = await customer().ok('/api/express/order/info', { id: home.id });
    expect(waybill.customsPapers).toBe(false);
    const mixed = await customer().post('/api/express/order/customsPapers', {
      ids: [abroadPaid.id, home.id],
    });
    expect(mixed.json()).toMatchObject({ code: 409 });
    expect(mixed.json().msg).toBe(
      `Waybill ${home.waybillNo} does not cross a border with declared contents: it has no customs papers`,
    );
    const inChinese = await customer().post('/api/express/order/customsPapers', { ids: [home.id] }, 'zh-CN');
    expect(inChinese.json().msg).toContain('没有报关单据');

    const { id } = await customer().ok('/api/express/quotation/getQuotas', abroad({ customs }));
    const done = (await streamedExpressRates(customer(), id)).at(-1);
    const line = done.results.find((r: { code: string }) => r.code === 'INTL-EXP');
    await customer().ok('/api/express/quotation/select', { id, channelId: line.channelId });
    const unpaid = await customer().ok('/api/express/order/create', { quoteId: id, pay: false });
    const notPaid = await customer().post('/api/express/order/customsPapers', { ids: [unpaid.id] });
    expect(notPaid.json()).toMatchObject({ code: 409 });
    expect(notPaid.json().msg).toContain(unpaid.waybillNo);
    // Staff print any customer's papers; a waybill outside the caller's reach is not found.
    const staff = await f.as('admin').post('/api/express/order/customsPapers', { ids: [abroadPaid.id] });
    expect(staff.statusCode).toBe(200);
    await customer().fail('/api/express/order/customsPapers', { ids: [abroadPaid.id + 10_000] }, 404);
  });

  it('sends the declaration to UPS in its international forms', async () => {
    await fund('customer', 100_000n);
    ups.respond('CreateToken', upsTokenAnswer('client-intl', 'tok-intl'));
    ups.respond('Rate', {
      body: {
        RateResponse: {
          Response: { ResponseStatus: { Code: '1', Description: 'Success' } },
          RatedShipment: [
            {
              Service: { Code: '65' },
              BillingWeight: { UnitOfMeasurement: { Code: 'LBS', Description: 'Pounds' }, Weight: '2.0' },
              TransportationCharges: { CurrencyCode: 'USD', MonetaryValue: '41.00' },
              ServiceOptionsCharges: { CurrencyCode: 'USD', MonetaryValue: '0.00' },
              TotalCharges: { CurrencyCode: 'USD', MonetaryValue: '41.00' },
              RatedPackage: [{ Weight: '2.0' }],
            },
          ],
        },
      },
    });
    ups.respond('Shipment', {
      status: 400,
      body: { response: { errors: [{ code: '120100', message: 'stop here' }] } },
    });
    const created = await bookAndPay(abroad({ customs }), 'UPS-WW');
    // The label job's one Ship request carried the declaration as UPS's commercial invoice.
    for (let i = 0; i < 100 && ups.requests.every((r) => r.operationId !== 'Shipment'); i++)
      await new Promise((resolve) => setTimeout(resolve, 100));
    const ship = ups.requests.find((r) => r.operationId === 'Shipment');
    const sent = JSON.stringify(ship?.body);
    expect(sent).toContain('InternationalForms');
    expect(sent).toContain('61091000');
    expect(sent).toContain('Leather belt');
    expect(sent).toContain(created.waybillNo);
  });
});
