import { describe, expect, it } from 'vitest';
import {
  CARRIER_DOCUMENTS,
  carrierFailure,
  LOS_ANGELES_SHIPPER,
  mockConnection,
  unreachableUrl,
  upsTokenAnswer,
  useCarrierMock,
} from '../../../../test/carrier-mock.ts';
import type { CarrierConnection, ConnectionCheck } from '../connection.ts';
import type { ParcelShipment } from '../parcel.ts';
import { UpsClient } from './client.ts';

const CLIENT_ID = 'portal-client-id';
const CLIENT_SECRET = 'ups-secret-7f3a9c';
const ACCOUNT_NUMBER = 'A1B2C3';
const TOKEN = 'ups-token-e81b44';
const BASIC = Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString('base64');

const mock = useCarrierMock({ documents: CARRIER_DOCUMENTS.ups });

const upsConnection = (changes: Partial<CarrierConnection> = {}) =>
  mockConnection(
    mock,
    { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, accountNumber: ACCOUNT_NUMBER },
    changes,
  );

const tokenAnswer = (accessToken = TOKEN, expiresInSeconds = '14399') =>
  upsTokenAnswer(CLIENT_ID, accessToken, expiresInSeconds);

function upsErrorAnswer(status: number, code: string, message: string) {
  return { status, body: { response: { errors: [{ code, message }] } } };
}

const shipment: ParcelShipment = {
  shipDate: '2026-03-02',
  from: LOS_ANGELES_SHIPPER,
  to: {
    name: 'Sam Receiver',
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
};

const usd = (value: string) => ({ CurrencyCode: 'USD', MonetaryValue: value });
const billingWeight = { UnitOfMeasurement: { Code: 'LBS', Description: 'Pounds' }, Weight: '16.0' };

/** Ground at the account's negotiated price, Next Day Air at the published one, as the Rating document shapes them. */
const shopAnswer = {
  RateResponse: {
    Response: {
      ResponseStatus: { Code: '1', Description: 'Success' },
      Alert: [{ Code: '110971', Description: 'Your invoice may vary from the displayed reference rates' }],
    },
    RatedShipment: [
      {
        Service: { Code: '03' },
        BillingWeight: billingWeight,
        TransportationCharges: usd('24.87'),
        BaseServiceCharge: usd('18.42'),
        ItemizedCharges: [
          { Code: '375', CurrencyCode: 'USD', MonetaryValue: '3.15' },
          { Code: '270', Description: 'Residential Surcharge', CurrencyCode: 'USD', MonetaryValue: '3.30' },
        ],
        ServiceOptionsCharges: usd('0.00'),
        TotalCharges: usd('24.87'),
        NegotiatedRateCharges: {
          BaseServiceCharge: [usd('13.81')],
          ItemizedCharges: [
            { Code: '375', CurrencyCode: 'USD', MonetaryValue: '2.36' },
            { Code: '270', Description: 'Residential Surcharge', CurrencyCode: 'USD', MonetaryValue: '2.48' },
          ],
          TotalCharge: usd('18.65'),
        },
        RatedPackage: [{ Weight: '12.3' }, { Weight: '3.0' }],
      },
      {
        Service: { Code: '01' },
        BillingWeight: billingWeight,
        TransportationCharges: usd('71.40'),
        ItemizedCharges: [{ Code: '375', CurrencyCode: 'USD', MonetaryValue: '12.70' }],
        ServiceOptionsCharges: usd('6.55'),
        TotalCharges: usd('77.95'),
        RatedPackage: [{ Weight: '12.3' }, { Weight: '3.0' }],
        GuaranteedDelivery: { BusinessDaysInTransit: '1', DeliveryByTime: '10:30 A.M.' },
      },
    ],
  },
};

const operations = (operationId: string) => mock.requests.filter((r) => r.operationId === operationId);

/** The failure of a call that must fail, checked to hold none of the account's secrets. */
const failureOf = (call: Promise<unknown>) => carrierFailure(call, [CLIENT_SECRET, TOKEN, BASIC]);

function expectNoSecrets(detail: string) {
  for (const secret of [CLIENT_SECRET, TOKEN, BASIC]) expect(detail).not.toContain(secret);
}

function failedCheck(check: ConnectionCheck) {
  if (check.ok) return expect.unreachable('the connection test passed');
  expectNoSecrets(check.detail);
  return check;
}

describe('UPS client against the UPS OAuth and Rating documents', () => {
  it('asks UPS for a token with Basic credentials, the account number and a form body the document takes', async () => {
    mock.respond('CreateToken', tokenAnswer());

    expect(await new UpsClient().testConnection(upsConnection())).toEqual({ ok: true });

    expect(mock.violations).toEqual([]);
    const [request] = operations('CreateToken');
    expect(request).toMatchObject({
      method: 'POST',
      path: '/security/v1/oauth/token',
      headers: { authorization: `Basic ${BASIC}`, 'x-merchant-id': ACCOUNT_NUMBER },
      body: { grant_type: 'client_credentials' },
    });
  });

  it('keeps the UPS token for the account: a second Shop asks for none, changed credentials ask for a new one', async () => {
    const client = new UpsClient();
    const connection = upsConnection();
    mock.respond('CreateToken', tokenAnswer());
    mock.respond('Rate', { body: shopAnswer });

    await client.rateShop(connection, shipment);
    await client.rateShop(connection, shipment);
    expect(operations('CreateToken')).toHaveLength(1);
    expect(operations('Rate').map((r) => r.headers.authorization)).toEqual([
      `Bearer ${TOKEN}`,
      `Bearer ${TOKEN}`,
    ]);

    mock.respond('CreateToken', tokenAnswer('ups-token-after-new-secret'));
    const newSecret = { ...connection.credentials, clientSecret: 'ups-secret-rotated' };
    await client.rateShop({ ...connection, credentials: newSecret }, shipment);
    expect(operations('CreateToken')).toHaveLength(2);
    expect(operations('Rate').at(-1)?.headers.authorization).toBe('Bearer ups-token-after-new-secret');
    expect(mock.violations).toEqual([]);
  });

  it('renews the UPS token a minute before it expires, and asks anew on every connection test', async () => {
    let now = Date.parse('2026-03-02T08:00:00Z');
    const client = new UpsClient({ now: () => now });
    const connection = upsConnection();
    mock.respond('CreateToken', tokenAnswer(TOKEN, '3600'));
    mock.respond('Rate', { body: shopAnswer });

    await client.rateShop(connection, shipment);
    now += 3_600_000 - 61_000;
    await client.rateShop(connection, shipment);
    expect(operations('CreateToken')).toHaveLength(1);
    now += 2_000;
    await client.rateShop(connection, shipment);
    expect(operations('CreateToken')).toHaveLength(2);

    await client.testConnection(connection);
    expect(operations('CreateToken')).toHaveLength(3);
  });

  it('sends a UPS Shop request the Rating document accepts and maps negotiated and published charges to cents', async () => {
    mock.respond('CreateToken', tokenAnswer());
    mock.respond('Rate', { body: shopAnswer });

    const quotes = await new UpsClient().rateShop(upsConnection(), shipment);

    expect(mock.violations).toEqual([]);
    const [request] = operations('Rate');
    expect(request?.path).toBe('/api/rating/v2409/Shop');
    expect(request?.headers.transid).toMatch(/^[0-9a-f]{32}$/);
    expect(request?.body).toMatchObject({
      RateRequest: {
        Request: { RequestOption: 'Shop', SubVersion: '2409' },
        Shipment: {
          Shipper: {
            Name: 'Acme Parts',
            ShipperNumber: ACCOUNT_NUMBER,
            Address: { StateProvinceCode: 'CA' },
          },
          ShipFrom: { Address: { AddressLine: ['100 Main St'], PostalCode: '90001', CountryCode: 'US' } },
          ShipTo: {
            Name: 'Sam Receiver',
            Address: {
              AddressLine: ['200 Elm St', 'Suite 4'],
              City: 'Dallas',
              ResidentialAddressIndicator: 'Y',
            },
          },
          PaymentDetails: {
            ShipmentCharge: [{ Type: '01', BillShipper: { AccountNumber: ACCOUNT_NUMBER } }],
          },
          Package: [
            {
              PackagingType: { Code: '02' },
              Dimensions: { UnitOfMeasurement: { Code: 'IN' }, Length: '12', Width: '10', Height: '8.5' },
              // 12.25 lb goes up to the tenth UPS reads, never down.
              PackageWeight: { UnitOfMeasurement: { Code: 'LBS' }, Weight: '12.3' },
            },
            { PackageWeight: { UnitOfMeasurement: { Code: 'LBS' }, Weight: '3' } },
          ],
          ShipmentRatingOptions: { NegotiatedRatesIndicator: 'Y' },
          DeliveryTimeInformation: { Pickup: { Date: '20260302' } },
        },
      },
    });

    expect(quotes).toEqual([
      {
        serviceCode: '03',
        serviceName: 'UPS Ground',
        currency: 'USD',
        totalCents: 1865,
        charges: [
          { kind: 'base', name: 'Transportation', amountCents: 1381 },
          { kind: 'fuel', name: 'Fuel surcharge', amountCents: 236 },
          { kind: 'surcharge', name: 'Residential Surcharge', amountCents: 248 },
        ],
        negotiated: true,
        transitDays: null,
      },
      {
        serviceCode: '01',
        serviceName: 'UPS Next Day Air',
        currency: 'USD',
        totalCents: 7795,
        charges: [
          { kind: 'base', name: 'Transportation', amountCents: 5870 },
          { kind: 'fuel', name: 'Fuel surcharge', amountCents: 1270 },
          { kind: 'surcharge', name: 'Service options', amountCents: 655 },
        ],
        negotiated: false,
        transitDays: 1,
      },
    ]);
  });

  it('the UPS mock refuses a Shop request that breaks the Rating document, and one without a token', async () => {
    const broken = await fetch(`${mock.url}/api/rating/v2409/Shop`, {
      method: 'POST',
      headers: { authorization: 'Bearer t', 'content-type': 'application/json' },
      body: JSON.stringify({
        RateRequest: { Request: {}, Shipment: { Shipper: {}, Package: {}, Weight: '1' } },
      }),
    });
    expect(broken.status).toBe(400);
    expect(mock.violations).toEqual(
      expect.arrayContaining([
        expect.stringContaining("must have required property 'RequestOption'"),
        expect.stringContaining("must have required property 'ShipTo'"),
        expect.stringContaining('/requestBody/RateRequest/Shipment/Package must be array'),
        expect.stringContaining('must NOT have additional properties'),
      ]),
    );

    mock.reset();
    const anonymous = await fetch(`${mock.url}/security/v1/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials',
    });
    expect(anonymous.status).toBe(401);
    expect(mock.violations).toEqual([expect.stringContaining('CreateToken: no credentials')]);
    mock.reset();
  });

  describe('UPS faults', () => {
    it('tells credentials when UPS refuses them (401), in UPS words and not to be retried', async () => {
      mock.respond('CreateToken', upsErrorAnswer(401, '10401', 'ClientId is Invalid'));

      const check = failedCheck(await new UpsClient().testConnection(upsConnection()));

      expect(check).toEqual({ ok: false, failure: 'credentials', detail: 'ClientId is Invalid (10401)' });
    });

    it('tells a UPS 500 as unavailable and worth retrying, and a 429 the same', async () => {
      mock.respond('CreateToken', tokenAnswer());
      mock.respond('Rate', { status: 500, body: { response: { errors: [] } } });
      const client = new UpsClient();
      const connection = upsConnection();

      expect(await failureOf(client.rateShop(connection, shipment))).toMatchObject({
        failure: 'unavailable',
        retryable: true,
        detail: 'HTTP 500',
      });
      mock.respond('Rate', upsErrorAnswer(429, '10429', 'Too Many Requests'));
      expect(await failureOf(client.rateShop(connection, shipment))).toMatchObject({
        failure: 'unavailable',
        retryable: true,
        detail: 'HTTP 429: Too Many Requests (10429)',
      });
    });

    it('tells a UPS 400 as refused, with the reason UPS gave', async () => {
      mock.respond('CreateToken', tokenAnswer());
      mock.respond(
        'Rate',
        upsErrorAnswer(400, '111285', 'The postal code 75201 is invalid for TX United States.'),
      );

      expect(await failureOf(new UpsClient().rateShop(upsConnection(), shipment))).toMatchObject({
        failure: 'refused',
        retryable: false,
        detail: 'The postal code 75201 is invalid for TX United States. (111285)',
      });
    });

    it('replaces once a kept UPS token that UPS stopped taking', async () => {
      const client = new UpsClient();
      const connection = upsConnection();
      mock.respond('CreateToken', tokenAnswer());
      mock.respond('Rate', { body: shopAnswer });
      await client.rateShop(connection, shipment);

      let refusals = 1;
      mock.respond('Rate', () =>
        refusals-- > 0
          ? upsErrorAnswer(401, '250002', 'Invalid Authentication Information.')
          : { body: shopAnswer },
      );
      await expect(client.rateShop(connection, shipment)).resolves.toHaveLength(2);
      expect(operations('CreateToken')).toHaveLength(2);
    });

    it('tells a timeout when UPS answers later than the account allows', async () => {
      // An answer 5 s away, a limit of 0.2 s: waiting for the answer would take the 5 s, and the margin
      // below leaves a busy machine seconds to tell the timeout.
      mock.respond('CreateToken', { ...tokenAnswer(), delayMs: 5_000 });

      const started = Date.now();
      const check = failedCheck(await new UpsClient().testConnection(upsConnection({ timeoutMs: 200 })));

      expect(check.failure).toBe('timeout');
      expect(Date.now() - started).toBeLessThan(4_000);
      await expect(
        failureOf(new UpsClient().rateShop(upsConnection({ timeoutMs: 200 }), shipment)),
      ).resolves.toMatchObject({ failure: 'timeout', retryable: true });
    });

    it('tells malformed when UPS answers a page that is not JSON, or JSON of another shape', async () => {
      mock.respond('CreateToken', tokenAnswer());
      mock.respond('Rate', {
        body: '<html><body>Service Unavailable</body></html>',
        contentType: 'text/html',
      });
      const client = new UpsClient();
      const connection = upsConnection();

      expect(await failureOf(client.rateShop(connection, shipment))).toMatchObject({
        failure: 'malformed',
        retryable: false,
        detail: 'HTTP 200 answer is not JSON (text/html)',
      });

      mock.respond('Rate', {
        body: { RateResponse: { Response: { ResponseStatus: { Code: '1', Description: 'Success' } } } },
      });
      expect(await failureOf(client.rateShop(connection, shipment))).toMatchObject({
        failure: 'malformed',
        detail: expect.stringContaining('RateResponse.RatedShipment'),
      });
      // The mock saw the answer break the document too: a carrier that strays from its own contract.
      expect(mock.violations).toEqual([
        expect.stringContaining("must have required property 'RatedShipment'"),
      ]);
      mock.reset();
    });

    it('tells unreachable, worth retrying, when nothing listens at the UPS address', async () => {
      const error = await failureOf(
        new UpsClient().rateShop(upsConnection({ baseUrl: await unreachableUrl() }), shipment),
      );

      expect(error).toMatchObject({ failure: 'unreachable', retryable: true });
      expect(error.detail).toContain('ECONNREFUSED');
    });

    it('never puts the UPS secret, the Basic credentials or the token in a detail, even when UPS echoes them', async () => {
      mock.respond(
        'CreateToken',
        upsErrorAnswer(401, '10401', `Invalid client ${CLIENT_ID}:${CLIENT_SECRET} (${BASIC})`),
      );
      const check = failedCheck(await new UpsClient().testConnection(upsConnection()));
      // The client id is a credential too.
      expect(check.detail).toBe('Invalid client ***:*** (***) (10401)');

      mock.respond('CreateToken', tokenAnswer());
      mock.respond('Rate', upsErrorAnswer(403, '250003', `Token ${TOKEN} is blocked`));
      const error = await failureOf(new UpsClient().rateShop(upsConnection(), shipment));
      expect(error).toMatchObject({ failure: 'credentials', detail: 'Token *** is blocked (250003)' });
    });

    it('refuses before any call a UPS account with missing credentials, naming only the fields', async () => {
      const connection = upsConnection({ credentials: { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET } });

      const check = failedCheck(await new UpsClient().testConnection(connection));

      expect(check).toMatchObject({
        failure: 'credentials',
        detail: expect.stringContaining('accountNumber'),
      });
      expect(mock.requests).toEqual([]);
    });
  });
});
