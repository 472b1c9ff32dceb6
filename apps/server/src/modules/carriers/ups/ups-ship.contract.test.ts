import { beforeEach, describe, expect, it } from 'vitest';
import {
  CARRIER_DOCUMENTS,
  carrierFailure,
  mockConnection,
  upsTokenAnswer,
  useCarrierMock,
} from '../../../../test/carrier-mock.ts';
import type { CarrierConnection } from '../connection.ts';
import type { ParcelBooking, ParcelCustoms } from '../parcel.ts';
import { UpsClient } from './client.ts';
import { upsRecover } from './recover.ts';
import { upsShip, upsVoid } from './ship.ts';
import { upsTrack } from './track.ts';

const CLIENT_ID = 'portal-client-id';
const CLIENT_SECRET = 'ups-secret-7f3a9c';
const ACCOUNT_NUMBER = 'A1B2C3';
const TOKEN = 'ups-token-e81b44';
const IDEMPOTENCY_KEY = '3f0c6a8e-7d1b-4c52-9a0e-5b2f1e7d9c44';
const SHIPMENT_ID = '1Z999AA10123456784';
const SECOND_PACKAGE = '1Z999AA10123456793';
const GIF_FIRST = Buffer.from('GIF89a first label');
const GIF_SECOND = Buffer.from('GIF89a second label');

const mock = useCarrierMock({ documents: CARRIER_DOCUMENTS.ups });
beforeEach(() => {
  mock.respond('CreateToken', upsTokenAnswer(CLIENT_ID, TOKEN));
});

const upsConnection = (changes: Partial<CarrierConnection> = {}) =>
  mockConnection(
    mock,
    { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, accountNumber: ACCOUNT_NUMBER },
    changes,
  );

const domestic: ParcelBooking = {
  shipDate: '2026-03-02',
  from: {
    name: 'Pat Shipper',
    company: 'Acme Parts',
    phone: '(213) 555-0100',
    address1: '100 Main St',
    city: 'Los Angeles',
    state: 'CA',
    zipcode: '90001',
    country: 'US',
  },
  to: {
    name: 'Sam Receiver',
    phone: '214-555-0199',
    address1: '200 Elm St',
    address2: 'Suite 4',
    city: 'Dallas',
    state: 'TX',
    zipcode: '75201',
    country: 'US',
  },
  parcels: [{ weight: 12.25, dimensions: { length: 12, width: 10, height: 8.5 } }, { weight: 3 }],
  weightUnit: 'lb',
  dimensionUnit: 'in',
  residential: true,
  serviceCode: '03',
  reference: 'WB2026030200017',
  labelFormat: 'pdf',
  idempotencyKey: IDEMPOTENCY_KEY,
};

const customs: ParcelCustoms = {
  contentsType: 'merchandise',
  items: [
    {
      description: 'Aluminium laptop stand with adjustable height and folding legs',
      hsCode: '8473.30',
      originCountry: 'cn',
      quantity: 2,
      unitValueCents: 1250,
      weight: 1.5,
    },
    {
      description: 'USB-C cable',
      hsCode: '854442',
      originCountry: 'VN',
      quantity: 10,
      unitValueCents: 399,
      weight: 0.1,
    },
  ],
  currency: 'usd',
  incoterm: 'DDP',
  senderTaxId: 'US123456789',
  receiverTaxId: 'DE129273398',
};

const international: ParcelBooking = {
  ...domestic,
  to: {
    name: 'Kim Empfänger',
    company: 'Beispiel GmbH',
    phone: '+49 30 1234567',
    address1: 'Friedrichstraße 10',
    city: 'Berlin',
    state: 'BE',
    zipcode: '10117',
    country: 'DE',
  },
  parcels: [{ weight: 4.5, dimensions: { length: 14, width: 10, height: 6 } }],
  residential: false,
  serviceCode: '07',
  customs,
};

const usd = (value: string) => ({ CurrencyCode: 'USD', MonetaryValue: value });

interface ShipAnswerOptions {
  labels?: { code: string; image: string }[];
  negotiated?: boolean;
}

/** UPS's Ship answer as the Shipping document shapes it: one package result per label. */
function shipAnswer({ labels, negotiated = true }: ShipAnswerOptions = {}) {
  const images = labels ?? [
    { code: 'GIF', image: GIF_FIRST.toString('base64') },
    { code: 'GIF', image: GIF_SECOND.toString('base64') },
  ];
  return {
    body: {
      ShipmentResponse: {
        Response: {
          ResponseStatus: { Code: '1', Description: 'Success' },
          TransactionReference: { CustomerContext: 'WB2026030200017' },
        },
        ShipmentResults: {
          ShipmentCharges: {
            TransportationCharges: usd('24.87'),
            ServiceOptionsCharges: usd('0.00'),
            TotalCharges: usd('24.87'),
          },
          ...(negotiated ? { NegotiatedRateCharges: { TotalCharge: usd('18.65') } } : {}),
          // The document has the billing weight exactly eight characters long.
          BillingWeight: { UnitOfMeasurement: { Code: 'LBS', Description: 'Pounds' }, Weight: '000016.0' },
          ShipmentIdentificationNumber: SHIPMENT_ID,
          PackageResults: images.map((label, index) => ({
            TrackingNumber: index === 0 ? SHIPMENT_ID : SECOND_PACKAGE,
            ShippingLabel: {
              ImageFormat: { Code: label.code, Description: label.code },
              GraphicImage: label.image,
            },
          })),
        },
      },
    },
  };
}

function upsErrorAnswer(status: number, code: string, message: string) {
  return { status, body: { response: { errors: [{ code, message }] } } };
}

const operations = (operationId: string) => mock.requests.filter((r) => r.operationId === operationId);

/** The `Shipment` of the first Ship request the mock saw. */
function shipmentSent(): { Package: object[] } {
  const body = operations('Shipment')[0]?.body as
    | { ShipmentRequest: { Shipment: { Package: object[] } } }
    | undefined;
  if (!body) return expect.unreachable('no Ship request was sent');
  return body.ShipmentRequest.Shipment;
}

/** The failure of a call that must fail, checked to hold none of the account's secrets. */
const failureOf = (call: Promise<unknown>) => carrierFailure(call, [CLIENT_SECRET, TOKEN]);

describe('UPS Ship against the UPS Shipping document', () => {
  it('buys a domestic UPS shipment: labels, one tracking number per package, the negotiated charge in cents', async () => {
    mock.respond('Shipment', shipAnswer());

    const label = await upsShip(upsConnection(), domestic, new UpsClient());

    expect(mock.violations).toEqual([]);
    const [request] = operations('Shipment');
    expect(request?.path).toBe('/api/shipments/v2409/ship');
    // The purchase's key, as the 32 characters UPS's transaction id takes.
    expect(request?.headers.transid).toBe('3f0c6a8e7d1b4c529a0e5b2f1e7d9c44');
    expect(request?.headers.transactionsrc).toBe('freight-portal');
    expect(request?.body).toMatchObject({
      ShipmentRequest: {
        Request: { RequestOption: 'nonvalidate', SubVersion: '2205' },
        Shipment: {
          Shipper: { Name: 'Acme Parts', ShipperNumber: ACCOUNT_NUMBER, Phone: { Number: '2135550100' } },
          ShipTo: {
            Name: 'Sam Receiver',
            Address: { AddressLine: ['200 Elm St', 'Suite 4'], ResidentialAddressIndicator: 'Y' },
          },
          ShipFrom: { Name: 'Acme Parts', Address: { PostalCode: '90001', CountryCode: 'US' } },
          PaymentInformation: {
            ShipmentCharge: [{ Type: '01', BillShipper: { AccountNumber: ACCOUNT_NUMBER } }],
          },
          Service: { Code: '03' },
          ShipmentRatingOptions: { NegotiatedRatesIndicator: 'Y' },
          ShipmentDate: '20260302',
          Package: [
            {
              Packaging: { Code: '02' },
              // Whole inches, rounded up: 8.5 goes to 9.
              Dimensions: { UnitOfMeasurement: { Code: 'IN' }, Length: '12', Width: '10', Height: '9' },
              PackageWeight: { UnitOfMeasurement: { Code: 'LBS' }, Weight: '12.3' },
              // Within the US, UPS takes the reference on the packages only.
              ReferenceNumber: [{ Value: 'WB2026030200017' }],
            },
            { PackageWeight: { Weight: '3' }, ReferenceNumber: [{ Value: 'WB2026030200017' }] },
          ],
        },
        LabelSpecification: {
          LabelImageFormat: { Code: 'GIF' },
          LabelStockSize: { Height: '6', Width: '4' },
        },
      },
    });
    expect(shipmentSent()).not.toHaveProperty('ReferenceNumber');
    expect(shipmentSent()).not.toHaveProperty('ShipmentServiceOptions');

    expect(label).toEqual({
      trackingNumbers: [SHIPMENT_ID, SECOND_PACKAGE],
      shipmentId: SHIPMENT_ID,
      label: [
        { format: 'gif', bytes: GIF_FIRST },
        { format: 'gif', bytes: GIF_SECOND },
      ],
      chargedCents: 1865,
      currency: 'USD',
    });
  });

  it('buys an international UPS shipment with its commercial invoice: the InternationalForms hold the customs items', async () => {
    const gif = Buffer.from('GIF89a international');
    mock.respond(
      'Shipment',
      shipAnswer({ labels: [{ code: 'GIF', image: gif.toString('base64') }], negotiated: false }),
    );

    const label = await upsShip(upsConnection(), international, new UpsClient());

    expect(mock.violations).toEqual([]);
    const [request] = operations('Shipment');
    expect(request?.body).toMatchObject({
      ShipmentRequest: {
        Shipment: {
          Description: 'Aluminium laptop stand with adjustable height and',
          Shipper: { ShipperNumber: ACCOUNT_NUMBER, TaxIdentificationNumber: 'US123456789' },
          ShipTo: {
            Name: 'Beispiel GmbH',
            AttentionName: 'Kim Empfänger',
            TaxIdentificationNumber: 'DE129273398',
            Phone: { Number: '49301234567' },
            Address: { City: 'Berlin', StateProvinceCode: 'BE', PostalCode: '10117', CountryCode: 'DE' },
          },
          // DDP: the shipper's account pays the duties too.
          PaymentInformation: {
            ShipmentCharge: [
              { Type: '01', BillShipper: { AccountNumber: ACCOUNT_NUMBER } },
              { Type: '02', BillShipper: { AccountNumber: ACCOUNT_NUMBER } },
            ],
          },
          // Between countries the reference goes on the shipment.
          ReferenceNumber: [{ Value: 'WB2026030200017' }],
          Service: { Code: '07' },
          ShipmentServiceOptions: {
            InternationalForms: {
              FormType: ['01'],
              Product: [
                {
                  Description: ['Aluminium laptop stand with', 'adjustable height and folding legs'],
                  Unit: { Number: '2', UnitOfMeasurement: { Code: 'PCS' }, Value: '12.50' },
                  CommodityCode: '847330',
                  OriginCountryCode: 'CN',
                },
                {
                  Description: ['USB-C cable'],
                  Unit: { Number: '10', UnitOfMeasurement: { Code: 'PCS' }, Value: '3.99' },
                  CommodityCode: '854442',
                  OriginCountryCode: 'VN',
                },
              ],
              InvoiceNumber: 'WB2026030200017',
              InvoiceDate: '20260302',
              ReasonForExport: 'SALE',
              CurrencyCode: 'USD',
              TermsOfShipment: 'DDP',
            },
          },
        },
      },
    });
    expect(shipmentSent().Package[0]).not.toHaveProperty('ReferenceNumber');
    expect(label).toMatchObject({
      trackingNumbers: [SHIPMENT_ID],
      label: [{ format: 'gif', bytes: gif }],
      // No negotiated rate for this account: the published total.
      chargedCents: 2487,
      currency: 'USD',
    });
  });

  it('adds the invoice line total UPS requires from the US to Canada, and bills duties to the receiver under DAP', async () => {
    mock.respond('Shipment', shipAnswer({ labels: [{ code: 'GIF', image: GIF_FIRST.toString('base64') }] }));
    const toCanada: ParcelBooking = {
      ...international,
      to: { ...international.to, city: 'Toronto', state: 'ON', zipcode: 'M5C2M6', country: 'CA' },
      customs: { ...customs, incoterm: 'DAP', invoiceNumber: 'INV-77' },
    };

    await upsShip(upsConnection(), toCanada, new UpsClient());

    expect(mock.violations).toEqual([]);
    expect(operations('Shipment')[0]?.body).toMatchObject({
      ShipmentRequest: {
        Shipment: {
          InvoiceLineTotal: { CurrencyCode: 'USD', MonetaryValue: '64.90' },
          PaymentInformation: { ShipmentCharge: [{ Type: '01' }] },
          ShipmentServiceOptions: { InternationalForms: { InvoiceNumber: 'INV-77', TermsOfShipment: 'DAP' } },
        },
      },
    });
  });

  it('asks UPS for a ZPL label on 4×6 stock and returns it as zpl', async () => {
    const zpl = '^XA^FO50,50^FDUPS^FS^XZ';
    mock.respond(
      'Shipment',
      shipAnswer({ labels: [{ code: 'ZPL', image: Buffer.from(zpl).toString('base64') }] }),
    );

    const label = await upsShip(
      upsConnection(),
      { ...domestic, parcels: [{ weight: 2 }], labelFormat: 'zpl' },
      new UpsClient(),
    );

    expect(mock.violations).toEqual([]);
    expect(operations('Shipment')[0]?.body).toMatchObject({
      ShipmentRequest: {
        LabelSpecification: {
          LabelImageFormat: { Code: 'ZPL' },
          LabelStockSize: { Height: '6', Width: '4' },
        },
      },
    });
    expect(label.label).toEqual([{ format: 'zpl', bytes: Buffer.from(zpl) }]);
  });

  it('the UPS mock refuses a Ship request that breaks the Shipping document', async () => {
    const broken = await fetch(`${mock.url}/api/shipments/v2409/ship`, {
      method: 'POST',
      headers: { authorization: 'Bearer t', 'content-type': 'application/json' },
      body: JSON.stringify({
        ShipmentRequest: {
          Request: { RequestOption: 'nonvalidate' },
          Shipment: {
            Shipper: {
              Name: 'A',
              ShipperNumber: ACCOUNT_NUMBER,
              Address: { AddressLine: ['1'], City: 'X', CountryCode: 'US' },
            },
            Service: { Code: '03' },
            Package: [{ PackagingType: { Code: '02' } }],
          },
        },
      }),
    });

    expect(broken.status).toBe(400);
    expect(mock.violations).toEqual(
      expect.arrayContaining([
        expect.stringContaining("must have required property 'ShipTo'"),
        expect.stringContaining("must have required property 'Packaging'"),
        expect.stringContaining('must NOT have additional properties (PackagingType)'),
      ]),
    );
    mock.reset();
  });
});

describe('UPS Void against the UPS Shipping document', () => {
  const voided = {
    body: {
      VoidShipmentResponse: {
        Response: { ResponseStatus: { Code: '1', Description: 'Success' } },
        SummaryResult: { Status: { Code: '1', Description: 'Voided' } },
      },
    },
  };

  it('voids a UPS shipment, and voiding it again answers as done', async () => {
    const client = new UpsClient();
    const connection = upsConnection();
    mock.respond('VoidShipment', voided);

    await upsVoid(connection, SHIPMENT_ID, client);
    mock.respond(
      'VoidShipment',
      upsErrorAnswer(400, '190102', 'No shipment found within the allowed void period'),
    );
    await upsVoid(connection, SHIPMENT_ID, client);

    expect(mock.violations).toEqual([]);
    expect(operations('VoidShipment').map((r) => `${r.method} ${r.path}`)).toEqual([
      `DELETE /api/shipments/v2409/void/cancel/${SHIPMENT_ID}`,
      `DELETE /api/shipments/v2409/void/cancel/${SHIPMENT_ID}`,
    ]);
  });

  it('tells refused when UPS will not void the UPS shipment, with its words', async () => {
    const client = new UpsClient();
    const connection = upsConnection();
    mock.respond('VoidShipment', {
      body: {
        VoidShipmentResponse: {
          Response: { ResponseStatus: { Code: '1', Description: 'Success' } },
          SummaryResult: { Status: { Code: '0', Description: 'Not Voided' } },
        },
      },
    });
    expect(await failureOf(upsVoid(connection, SHIPMENT_ID, client))).toMatchObject({
      failure: 'refused',
      detail: `UPS did not void shipment ${SHIPMENT_ID}: Not Voided`,
    });

    mock.respond('VoidShipment', upsErrorAnswer(400, '190100', 'The shipment was already picked up'));
    expect(await failureOf(upsVoid(connection, SHIPMENT_ID, client))).toMatchObject({
      failure: 'refused',
      retryable: false,
      detail: 'The shipment was already picked up (190100)',
    });
  });
});

describe('UPS Track against the UPS Tracking document', () => {
  const activity = (
    type: string,
    code: string,
    description: string,
    date: string,
    time: string,
    gmt: { gmtDate?: string; gmtTime?: string; gmtOffset?: string },
    city = 'Dallas',
  ) => ({
    date,
    time,
    ...gmt,
    location: { address: { city, stateProvince: 'TX', countryCode: 'US' }, slic: '7520' },
    status: { type, code, description, statusCode: '000' },
  });

  /** UPS's activity, newest first, as the Tracking document shapes it. */
  const trackAnswer = {
    body: {
      trackResponse: {
        shipment: [
          {
            inquiryNumber: SHIPMENT_ID,
            package: [
              {
                trackingNumber: SHIPMENT_ID,
                currentStatus: { type: 'D', code: 'FS', description: 'Delivered' },
                activity: [
                  activity('D', 'FS', 'Delivered', '20260305', '143210', { gmtOffset: '-06:00' }),
                  activity('O', 'OT', 'Out For Delivery Today', '20260305', '081500', {
                    gmtOffset: '-06:00',
                  }),
                  activity('I', 'AR', 'Arrived at Facility', '20260304', '221000', { gmtOffset: '-06:00' }),
                  // No offset: UPS's own GMT fields, the time's leading zero dropped as in the document's example.
                  activity(
                    'P',
                    'PU',
                    'Pickup Scan',
                    '20260302',
                    '174700',
                    { gmtDate: '20260303', gmtTime: '14700' },
                    'Los Angeles',
                  ),
                  activity(
                    'M',
                    'MP',
                    'Shipper created a label',
                    '20260302',
                    '091000',
                    { gmtOffset: '-08:00' },
                    '',
                  ),
                ],
              },
            ],
          },
        ],
      },
    },
  };

  it('tracks a UPS package: activity oldest first, UPS status types mapped, times in UTC, the delivery time', async () => {
    mock.respond('getSingleTrackResponseUsingGET', trackAnswer);

    const tracking = await upsTrack(upsConnection(), SHIPMENT_ID, new UpsClient());

    expect(mock.violations).toEqual([]);
    const [request] = operations('getSingleTrackResponseUsingGET');
    expect(request?.path).toBe(`/api/track/v1/details/${SHIPMENT_ID}`);
    expect(request?.headers.transid).toMatch(/^[0-9a-f]{32}$/);
    expect(request?.headers.transactionsrc).toBe('freight-portal');

    expect(tracking).toEqual({
      trackingNumber: SHIPMENT_ID,
      status: 'delivered',
      events: [
        {
          at: new Date('2026-03-02T17:10:00Z'),
          code: 'label_created',
          carrierCode: 'MP',
          description: 'Shipper created a label',
          location: 'TX, US',
        },
        {
          at: new Date('2026-03-03T01:47:00Z'),
          code: 'picked_up',
          carrierCode: 'PU',
          description: 'Pickup Scan',
          location: 'Los Angeles, TX, US',
        },
        {
          at: new Date('2026-03-05T04:10:00Z'),
          code: 'in_transit',
          carrierCode: 'AR',
          description: 'Arrived at Facility',
          location: 'Dallas, TX, US',
        },
        {
          at: new Date('2026-03-05T14:15:00Z'),
          code: 'out_for_delivery',
          carrierCode: 'OT',
          description: 'Out For Delivery Today',
          location: 'Dallas, TX, US',
        },
        {
          at: new Date('2026-03-05T20:32:10Z'),
          code: 'delivered',
          carrierCode: 'FS',
          description: 'Delivered',
          location: 'Dallas, TX, US',
        },
      ],
      deliveredAt: new Date('2026-03-05T20:32:10Z'),
    });
  });

  it('maps an exception and a return, and leaves a UPS package on its way undelivered', async () => {
    mock.respond('getSingleTrackResponseUsingGET', {
      body: {
        trackResponse: {
          shipment: [
            {
              package: [
                {
                  trackingNumber: SHIPMENT_ID,
                  currentStatus: { type: 'RS', code: 'RS', description: 'Returned to Sender' },
                  activity: [
                    activity('RS', 'RS', 'Returning to sender', '20260306', '100000', {
                      gmtOffset: '-06:00',
                    }),
                    activity('X', 'XA', 'Address incomplete', '20260305', '100000', { gmtOffset: '-06:00' }),
                    activity('MV', 'MV', 'Manifest voided', '20260304', '100000', { gmtOffset: '-06:00' }),
                  ],
                },
              ],
            },
          ],
        },
      },
    });

    const tracking = await upsTrack(upsConnection(), SHIPMENT_ID, new UpsClient());

    expect(tracking.status).toBe('returned');
    expect(tracking.events.map((event) => event.code)).toEqual(['unknown', 'exception', 'returned']);
    expect(tracking.deliveredAt).toBeNull();
  });

  it('tells refused when UPS has no such package to track', async () => {
    mock.respond('getSingleTrackResponseUsingGET', {
      status: 404,
      body: { response: { errors: [{ code: 'TW0001', message: 'Tracking Information Not Found' }] } },
    });

    expect(await failureOf(upsTrack(upsConnection(), SHIPMENT_ID, new UpsClient()))).toMatchObject({
      failure: 'refused',
      detail: 'Tracking Information Not Found (TW0001)',
    });
  });
});

describe('UPS Ship faults', () => {
  it('tells credentials when UPS refuses the token for Ship (401), not to be retried', async () => {
    mock.respond('Shipment', upsErrorAnswer(401, '250002', 'Invalid Authentication Information.'));

    expect(await failureOf(upsShip(upsConnection(), domestic, new UpsClient()))).toMatchObject({
      failure: 'credentials',
      retryable: false,
      detail: 'Invalid Authentication Information. (250002)',
    });
    // A token just asked for is not asked for again.
    expect(operations('CreateToken')).toHaveLength(1);
  });

  it('replaces once a kept UPS token that UPS stopped taking, and sends the same transaction id again', async () => {
    const client = new UpsClient();
    const connection = upsConnection();
    mock.respond('Shipment', shipAnswer());
    await upsShip(connection, domestic, client);
    let refusals = 1;
    mock.respond('Shipment', () =>
      refusals-- > 0 ? upsErrorAnswer(401, '250002', 'Invalid Authentication Information.') : shipAnswer(),
    );

    await upsShip(connection, { ...domestic, idempotencyKey: 'purchase-42' }, client);

    expect(operations('CreateToken')).toHaveLength(2);
    expect(operations('Shipment').map((r) => r.headers.transid)).toEqual([
      '3f0c6a8e7d1b4c529a0e5b2f1e7d9c44',
      'purchase42',
      'purchase42',
    ]);
  });

  it('tells a UPS 500 as unavailable and worth retrying', async () => {
    mock.respond('Shipment', { status: 500, body: { response: { errors: [] } } });

    expect(await failureOf(upsShip(upsConnection(), domestic, new UpsClient()))).toMatchObject({
      failure: 'unavailable',
      retryable: true,
      detail: 'HTTP 500',
    });
  });

  it('tells a timeout, worth retrying, when UPS Ship answers later than the account allows', async () => {
    mock.respond('Shipment', { ...shipAnswer(), delayMs: 1_000 });

    expect(
      await failureOf(upsShip(upsConnection({ timeoutMs: 300 }), domestic, new UpsClient())),
    ).toMatchObject({ failure: 'timeout', retryable: true });
  });

  it('tells malformed when UPS Ship answers a page, a label that is not base64, or another shape', async () => {
    const client = new UpsClient();
    const connection = upsConnection();
    mock.respond('Shipment', { body: '<html>Service Unavailable</html>', contentType: 'text/html' });
    expect(await failureOf(upsShip(connection, domestic, client))).toMatchObject({
      failure: 'malformed',
      detail: 'HTTP 200 answer is not JSON (text/html)',
    });

    mock.respond('Shipment', shipAnswer({ labels: [{ code: 'GIF', image: 'not base64!' }] }));
    expect(await failureOf(upsShip(connection, domestic, client))).toMatchObject({
      failure: 'malformed',
      detail: `the label of ${SHIPMENT_ID} is not base64`,
    });

    mock.respond('Shipment', {
      body: { ShipmentResponse: { Response: { ResponseStatus: { Code: '1', Description: 'Success' } } } },
    });
    expect(await failureOf(upsShip(connection, domestic, client))).toMatchObject({
      failure: 'malformed',
      detail: expect.stringContaining('ShipmentResponse.ShipmentResults'),
    });
    // The mock saw that answer break the document too.
    expect(mock.violations).toEqual([
      expect.stringContaining("must have required property 'ShipmentResults'"),
    ]);
    mock.reset();
  });

  it('tells refused with UPS own message when UPS will not ship', async () => {
    mock.respond('Shipment', upsErrorAnswer(400, '120802', 'Address Validation Error on ShipTo address'));

    expect(await failureOf(upsShip(upsConnection(), domestic, new UpsClient()))).toMatchObject({
      failure: 'refused',
      retryable: false,
      detail: 'Address Validation Error on ShipTo address (120802)',
    });
  });

  it('refuses before any call what UPS cannot take: DPU, a name past 35 characters, a short HS code', async () => {
    const client = new UpsClient();
    const connection = upsConnection();

    const dpu = { ...international, customs: { ...customs, incoterm: 'DPU' as const } };
    expect(await failureOf(upsShip(connection, dpu, client))).toMatchObject({
      failure: 'refused',
      detail: "UPS's commercial invoice has no term for DPU",
    });
    const longName = { ...domestic, to: { ...domestic.to, name: 'A'.repeat(36) } };
    expect(await failureOf(upsShip(connection, longName, client))).toMatchObject({
      failure: 'refused',
      detail: "the recipient's name must be 1 to 35 characters for UPS",
    });
    const firstItem = { ...customs.items[0], hsCode: '8473' } as ParcelCustoms['items'][number];
    const shortCode = { ...international, customs: { ...customs, items: [firstItem] } };
    expect(await failureOf(upsShip(connection, shortCode, client))).toMatchObject({
      failure: 'refused',
      detail: 'the HS code 8473 is not the 6 to 15 characters UPS takes',
    });
    expect(operations('Shipment')).toEqual([]);
  });
});

describe('UPS Label Recovery, before a purchase is tried again', () => {
  it("recovers the labels of a shipment UPS made under the booking's reference and the account", async () => {
    mock.respond('LabelRecovery', {
      body: {
        LabelRecoveryResponse: {
          Response: { ResponseStatus: { Code: '1', Description: 'Success' } },
          ShipmentIdentificationNumber: SHIPMENT_ID,
          LabelResults: [
            {
              TrackingNumber: SHIPMENT_ID,
              // The document lists GIF and PDF yet makes the code exactly four characters long.
              LabelImage: { LabelImageFormat: { Code: 'GIF ' }, GraphicImage: GIF_FIRST.toString('base64') },
            },
          ],
        },
      },
    });
    const found = await upsRecover(upsConnection(), domestic);
    expect(found).toMatchObject({ shipmentId: SHIPMENT_ID, trackingNumbers: [SHIPMENT_ID] });
    expect(found?.label[0]).toMatchObject({ format: 'gif' });
    expect(found?.label[0]?.bytes.equals(GIF_FIRST)).toBe(true);
    const sent = JSON.stringify(operations('LabelRecovery')[0]?.body);
    expect(sent).toContain(domestic.reference);
    expect(sent).toContain(ACCOUNT_NUMBER);
  });

  it('answers none when UPS has no label under the reference, and fails on anything else', async () => {
    mock.respond('LabelRecovery', upsErrorAnswer(400, '120541', 'No label found for the reference'));
    expect(await upsRecover(upsConnection(), domestic)).toBeNull();
    mock.respond('LabelRecovery', upsErrorAnswer(500, '9999', 'Internal'));
    expect(await failureOf(upsRecover(upsConnection(), domestic))).toMatchObject({ failure: 'unavailable' });
  });
});
