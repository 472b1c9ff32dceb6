import { and, eq } from 'drizzle-orm';
import { PDFDocument } from 'pdf-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  CARRIER_DOCUMENTS,
  upsLabelGif,
  upsRateAnswer,
  upsShipAnswer,
  upsTokenAnswer,
  useCarrierMock,
} from '../../../test/carrier-mock.ts';
import {
  expressChannelBody,
  parcelShipment,
  streamedExpressRates,
  useExpressLine,
} from '../../../test/express-fixtures.ts';
import { useTestApp } from '../../../test/fixture.ts';
import { ledgerEntries } from '../accounts/schema.ts';

/**
 * Booking a waybill through UPS (a validating mock of its own Shipping and Rating documents): paying
 * debits the balance and leaves the waybill waiting for its label; the queue's job buys it, keeps it
 * and moves the waybill on. A refusal voids and refunds once; a lost answer is found again, never
 * bought twice; a refund voids the label at UPS before any money moves back.
 */
const f = useTestApp({ tenants: 1, signIn: [['admin', 'customer']], language: 'en-US' });
const { fund, expressBalance } = useExpressLine(f);
const ups = useCarrierMock({ documents: CARRIER_DOCUMENTS.ups });

const TRACKING = '1Z999AA10123456784';
let channelId = 0;
let accountNumber = '';

const rateAnswer = upsRateAnswer('03', '9.50');
const shipAnswer = (tracking = TRACKING) => upsShipAnswer(tracking, '9.50');

const refusal = {
  status: 400,
  body: { response: { errors: [{ code: '120802', message: 'Address Validation Error on ShipTo address' }] } },
};

const voidAnswer = {
  body: {
    VoidShipmentResponse: {
      Response: { ResponseStatus: { Code: '1', Description: 'Success' } },
      SummaryResult: { Status: { Code: '1', Description: 'Voided' } },
    },
  },
};

beforeAll(async () => {
  const admin = f.as('admin');
  accountNumber = 'R5T7Y9';
  const account = await admin.ok('/api/admin/carrierAccount/create', {
    kind: 'ups',
    label: 'UPS labels',
    environment: 'custom',
    baseUrl: ups.url,
    // Long enough for a loaded machine; the lost answer's test outlasts it on purpose.
    timeoutMs: 4_000,
    credentials: { clientId: 'client-labels', clientSecret: 'secret-labels', accountNumber },
  });
  const products = await admin.ok('/api/admin/expressProduct/list', {});
  const saved = await admin.ok(
    '/api/admin/expressChannel/save',
    expressChannelBody(products.list[0].id, {
      code: 'UPS-LBL',
      nameEn: 'UPS Ground',
      carrier: 'UPS',
      service: 'Ground',
      carrierAccountId: account.id,
      carrierService: '03',
    }),
  );
  channelId = saved.id;
});

const customer = () => f.as('customer');
const calls = (operationId: string) => ups.requests.filter((r) => r.operationId === operationId);

/** Books (and pays, unless told) a waybill on the UPS channel (or another); answers it as created. */
async function bookOnUps(pay = true, channel = channelId) {
  ups.respond('CreateToken', upsTokenAnswer('client-labels', 'tok-labels'));
  ups.respond('Rate', rateAnswer);
  const { id } = await customer().ok('/api/express/quotation/getQuotas', parcelShipment());
  const done = (await streamedExpressRates(customer(), id)).at(-1);
  const line = done.results.find((r: { channelId: number }) => r.channelId === channel);
  expect(line).toMatchObject({ ok: true, provider: 'ups' });
  await customer().ok('/api/express/quotation/select', { id, channelId: channel });
  return customer().ok('/api/express/order/create', { quoteId: id, pay });
}

/** The waybill once its label job is done with it: no longer waiting for the label. */
async function settled(id: number, who: 'customer' | 'admin' = 'customer') {
  for (let i = 0; i < 200; i++) {
    const res = await f.as(who).post('/api/express/order/info', { id });
    const { waybill } = res.json().data;
    if (waybill.status !== 'label_pending') return waybill;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`waybill ${id} is still waiting for its label`);
}

async function refundsOf(waybillNo: string) {
  return f.db
    .select()
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.tenantId, f.t.tenant.id), eq(ledgerEntries.refId, waybillNo)));
}

describe('booking an express waybill through UPS', () => {
  it('debits the balance with the waybill waiting for its label, then buys it, keeps it and prints it', async () => {
    await fund('customer', 100_000n);
    ups.respond('Shipment', shipAnswer());
    const created = await bookOnUps();
    // Paid at once: the money moved in the booking's transaction, the label comes after.
    expect(created).toMatchObject({ status: 'label_pending', payment: { ok: true } });
    expect(await expressBalance('customer')).toBe(100_000n - BigInt(Math.round(Number(created.total) * 100)));

    const waybill = await settled(created.id);
    expect(waybill).toMatchObject({
      status: 'to_be_printed',
      trackingNo: TRACKING,
      carrierLabel: { provider: 'ups', bought: true, failure: null, detail: null },
    });
    // One purchase, billed to the account, under the waybill's own number and the purchase's key.
    const ship = calls('Shipment');
    expect(ship).toHaveLength(1);
    const sent = JSON.stringify(ship[0]?.body);
    expect(sent).toContain(created.waybillNo);
    expect(sent).toContain(accountNumber);
    expect(ship[0]?.headers.transid).toMatch(/^[0-9a-f]{32}$/);

    // The label prints as UPS drew it, on one 4 × 6 page, and printing moves the waybill on.
    const printed = await customer().post('/api/express/order/print', { ids: [created.id] });
    expect(printed.statusCode).toBe(200);
    expect(printed.headers['content-type']).toContain('application/pdf');
    const pdf = await PDFDocument.load(printed.rawPayload);
    expect(pdf.getPageCount()).toBe(1);
    expect(pdf.getPage(0).getSize()).toEqual({ width: 288, height: 432 });
    expect((await settled(created.id)).status).toBe('printed');

    // A thermal printer's ZPL cannot be made from UPS's picture: refused, naming the waybill.
    const zpl = await customer().fail('/api/express/order/print', { ids: [created.id], format: 'zpl' }, 409);
    expect(zpl.msg).toContain(created.waybillNo);
  });

  it('voids and refunds exactly once when UPS refuses the label, and tells the customer', async () => {
    await fund('customer', 100_000n);
    ups.respond('Shipment', refusal);
    const created = await bookOnUps();
    const waybill = await settled(created.id);
    expect(waybill).toMatchObject({
      status: 'refunded',
      paid: '0.00',
      carrierLabel: { bought: false, failure: 'refused', detail: null },
    });
    expect(await expressBalance('customer')).toBe(100_000n);
    const moves = await refundsOf(created.waybillNo);
    expect(moves.map((m) => m.type).sort()).toEqual(['order_payment', 'refund']);

    // Staff see UPS's own words; the customer a notice in their language.
    const staff = await settled(created.id, 'admin');
    expect(staff.carrierLabel.detail).toContain('Address Validation Error');
    const notices = (await customer().ok('/api/admin/notice/userNotices', { type: 0 })).list;
    expect(JSON.stringify(notices)).toContain(`could not issue a label for waybill ${created.waybillNo}`);

    // Refunding again gives nothing more.
    const again = await f.as('admin').ok('/api/express/order/refund', { id: created.id, reason: 'again' });
    expect(again).toMatchObject({ status: 'refunded', repeated: true });
    expect(await refundsOf(created.waybillNo)).toHaveLength(2);
  });

  it('finds a label whose answer was lost instead of buying a second one', async () => {
    await fund('customer', 100_000n);
    // The first purchase outlasts the account's time limit: UPS may have made the label.
    ups.respond('Shipment', { ...shipAnswer('1Z999AA10123456793'), delayMs: 4_500 });
    ups.respond('LabelRecovery', {
      body: {
        LabelRecoveryResponse: {
          Response: { ResponseStatus: { Code: '1', Description: 'Success' } },
          ShipmentIdentificationNumber: '1Z999AA10123456793',
          LabelResults: [
            {
              TrackingNumber: '1Z999AA10123456793',
              LabelImage: {
                // The document lists GIF and PDF yet makes the code exactly four characters long.
                LabelImageFormat: { Code: 'GIF ' },
                GraphicImage: upsLabelGif().toString('base64'),
              },
            },
          ],
        },
      },
    });
    const created = await bookOnUps();
    const waybill = await settled(created.id);
    expect(waybill).toMatchObject({ status: 'to_be_printed', trackingNo: '1Z999AA10123456793' });
    // The retry asked UPS first, by the waybill's number and the account, and bought nothing more.
    expect(calls('Shipment')).toHaveLength(1);
    const recovery = calls('LabelRecovery');
    expect(recovery).toHaveLength(1);
    expect(JSON.stringify(recovery[0]?.body)).toContain(created.waybillNo);
  });

  it('voids the label at UPS before the money moves back, and moves none when UPS will not void', async () => {
    await fund('customer', 100_000n);
    ups.respond('Shipment', shipAnswer('1Z999AA10123456800'));
    const created = await bookOnUps();
    await settled(created.id);
    const paidBalance = await expressBalance('customer');

    ups.respond('VoidShipment', {
      status: 503,
      body: { response: { errors: [{ code: '9999', message: 'down' }] } },
    });
    const refused = await customer().fail(
      '/api/express/order/refund',
      { id: created.id, reason: 'changed my mind' },
      409,
    );
    expect(refused.msg).toContain('nothing was refunded');
    expect(await expressBalance('customer')).toBe(paidBalance);

    ups.respond('VoidShipment', voidAnswer);
    const refunded = await customer().ok('/api/express/order/refund', {
      id: created.id,
      reason: 'changed my mind',
    });
    expect(refunded).toMatchObject({ status: 'refunded', repeated: false });
    expect(await expressBalance('customer')).toBe(100_000n);
    const voids = calls('VoidShipment');
    expect(voids.at(-1)?.path).toContain('1Z999AA10123456800');
  });

  it('voids and refunds a label whose tracking number another waybill holds, naming the number', async () => {
    await fund('customer', 100_000n);
    ups.respond('Shipment', shipAnswer('1Z999AA10123456822'));
    const first = await bookOnUps();
    expect(await settled(first.id)).toMatchObject({
      status: 'to_be_printed',
      trackingNo: '1Z999AA10123456822',
    });
    const afterFirst = await expressBalance('customer');

    // The carrier answers the same number for the next parcel.
    ups.respond('VoidShipment', voidAnswer);
    const voidsBefore = calls('VoidShipment').length;
    const second = await bookOnUps();
    const refused = await settled(second.id, 'admin');
    expect(refused).toMatchObject({ status: 'refunded', paid: '0.00', carrierLabel: { failure: 'refused' } });
    expect(refused.carrierLabel.detail).toContain('1Z999AA10123456822');
    // Voided at UPS before the money came back; the first waybill keeps its number and label.
    expect(
      calls('VoidShipment')
        .slice(voidsBefore)
        .map((r) => r.path),
    ).toEqual([expect.stringContaining('1Z999AA10123456822')]);
    expect(await expressBalance('customer')).toBe(afterFirst);
    expect(await settled(first.id)).toMatchObject({
      status: 'to_be_printed',
      trackingNo: '1Z999AA10123456822',
    });
  });

  it('buys ZPL from UPS for a channel that says so, and prints it only as ZPL', async () => {
    await fund('customer', 100_000n);
    const products = await f.as('admin').ok('/api/admin/expressProduct/list', {});
    const account = (await f.as('admin').ok('/api/admin/expressChannel/info', { id: channelId }))
      .carrierAccountId;
    const saved = await f.as('admin').ok(
      '/api/admin/expressChannel/save',
      expressChannelBody(products.list[0].id, {
        code: 'UPS-ZPL',
        nameEn: 'UPS Ground thermal',
        carrier: 'UPS',
        service: 'Ground',
        carrierAccountId: account,
        carrierService: '03',
        carrierLabelFormat: 'zpl',
      }),
    );
    expect(await f.as('admin').ok('/api/admin/expressChannel/info', { id: saved.id })).toMatchObject({
      carrierLabelFormat: 'zpl',
    });
    const zpl = '^XA^FO50,50^A0N,40,40^FD1Z999AA10123456833^FS^XZ';
    ups.respond(
      'Shipment',
      upsShipAnswer('1Z999AA10123456833', '9.50', { code: 'ZPL', image: Buffer.from(zpl) }),
    );
    try {
      const created = await bookOnUps(true, saved.id);
      expect(await settled(created.id)).toMatchObject({ status: 'to_be_printed' });
      const asked = calls('Shipment').at(-1)?.body as {
        ShipmentRequest: { LabelSpecification: { LabelImageFormat: { Code: string } } };
      };
      expect(asked.ShipmentRequest.LabelSpecification.LabelImageFormat.Code).toBe('ZPL');

      // A PDF cannot be made from the carrier's ZPL: refused, naming the format to print in.
      const pdf = await customer().fail('/api/express/order/print', { ids: [created.id] }, 409);
      expect(pdf.msg).toContain('ZPL');
      const printed = await customer().post('/api/express/order/print', { ids: [created.id], format: 'zpl' });
      expect(printed.statusCode).toBe(200);
      expect(printed.payload.trim()).toBe(zpl);
      expect((await settled(created.id)).status).toBe('printed');
    } finally {
      await f.as('admin').ok('/api/admin/expressChannel/delete', { id: saved.id });
    }
  });

  it('debits once and buys one label when the waybill is paid five times at once', async () => {
    await fund('customer', 100_000n);
    ups.respond('Shipment', shipAnswer('1Z999AA10123456811'));
    const created = await bookOnUps(false);
    expect(created.status).toBe('unpaid');
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => customer().post('/api/express/order/pay', { id: created.id })),
    );
    expect(answers.map((a) => a.json().code)).toEqual([200, 200, 200, 200, 200]);
    expect(answers.filter((a) => a.json().data.repeated === false)).toHaveLength(1);
    expect((await settled(created.id)).status).toBe('to_be_printed');
    expect(calls('Shipment')).toHaveLength(1);
    const moves = await refundsOf(created.waybillNo);
    expect(moves.map((m) => m.type)).toEqual(['order_payment']);
  });

  it('books nothing for a customer short of funds: the waybill waits unpaid and no label is bought', async () => {
    await fund('customer', 0n);
    const created = await bookOnUps();
    expect(created).toMatchObject({ status: 'unpaid', payment: { ok: false } });
    expect(calls('Shipment')).toHaveLength(0);
  });
});
