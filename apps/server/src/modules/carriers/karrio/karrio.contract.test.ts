import { describe, expect, it } from 'vitest';
import {
  CARRIER_DOCUMENTS,
  carrierFailure,
  LOS_ANGELES_SHIPPER,
  mockConnection,
  unreachableUrl,
  useCarrierMock,
} from '../../../../test/carrier-mock.ts';
import type { CarrierConnection, ConnectionCheck } from '../connection.ts';
import type { ParcelShipment } from '../parcel.ts';
import { karrioClient } from './client.ts';

const API_KEY = 'key_4c1d9e0b7a2f';

// Under a path, as a self-hosted Karrio behind a proxy may be.
const mock = useCarrierMock({ documents: CARRIER_DOCUMENTS.karrio, prefix: '/karrio' });

const karrioConnection = (changes: Partial<CarrierConnection> = {}) =>
  mockConnection(mock, { apiKey: API_KEY }, changes);

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
    country: 'us',
  },
  parcels: [{ weight: 12.25, dimensions: { length: 12, width: 10, height: 8.5 } }, { weight: 3 }],
  weightUnit: 'lb',
  dimensionUnit: 'in',
  residential: true,
};

/** UPS Ground itemized in full, FedEx 2Day with only its fuel itemized, as Karrio's RateResponse shapes them. */
const ratesAnswer = {
  rates: [
    {
      id: 'rat_1',
      object_type: 'rate',
      carrier_name: 'ups',
      carrier_id: 'ups-main',
      currency: 'USD',
      service: 'ups_ground',
      total_charge: 18.65,
      transit_days: 3,
      extra_charges: [
        { name: 'Base Charge', amount: 13.81, currency: 'USD' },
        { name: 'Fuel Surcharge', amount: 2.36, currency: 'USD' },
        { name: 'Residential Surcharge', amount: 2.48, currency: 'USD' },
      ],
      meta: { service_name: 'UPS Ground' },
      test_mode: false,
    },
    {
      id: 'rat_2',
      object_type: 'rate',
      carrier_name: 'fedex',
      carrier_id: 'fedex-main',
      currency: 'USD',
      service: 'fedex_2_day',
      total_charge: 42.1,
      transit_days: null,
      extra_charges: [{ name: 'FUEL', amount: 5.05, currency: 'USD' }],
      test_mode: false,
    },
  ],
  messages: [],
};

const operations = (operationId: string) => mock.requests.filter((r) => r.operationId === operationId);

/** The failure of a call that must fail, checked not to hold the API key. */
const failureOf = (call: Promise<unknown>) => carrierFailure(call, [API_KEY]);

function failedCheck(check: ConnectionCheck) {
  if (check.ok) return expect.unreachable('the connection test passed');
  expect(check.detail).not.toContain(API_KEY);
  return check;
}

describe('Karrio client against the Karrio document', () => {
  it('tests a Karrio connection by listing its carrier connections with the Token key', async () => {
    // No answer set: the document's own mock answer, which the client must read as well.
    expect(await karrioClient.testConnection(karrioConnection())).toEqual({ ok: true });

    expect(mock.violations).toEqual([]);
    expect(operations('listCarrierConnections')).toEqual([
      expect.objectContaining({
        method: 'GET',
        path: '/karrio/v1/connections',
        headers: expect.objectContaining({ authorization: `Token ${API_KEY}` }),
      }),
    ]);
  });

  it('tells credentials when Karrio refuses the key (401), in its words', async () => {
    mock.respond('listCarrierConnections', { status: 401, body: { detail: 'Invalid token.' } });

    const check = failedCheck(await karrioClient.testConnection(karrioConnection()));

    expect(check).toEqual({ ok: false, failure: 'credentials', detail: 'Invalid token.' });
  });

  it('sends a Karrio rate request the document accepts and maps its rates to cents', async () => {
    mock.respond('fetchRates', { body: ratesAnswer });

    const quotes = await karrioClient.rates(karrioConnection(), shipment, {
      carrierIds: ['ups-main', 'fedex-main'],
      services: ['ups_ground', 'fedex_2_day'],
    });

    expect(mock.violations).toEqual([]);
    expect(operations('fetchRates')[0]?.body).toEqual({
      shipper: {
        person_name: 'Pat Shipper',
        company_name: 'Acme Parts',
        phone_number: '2135550100',
        address_line1: '100 Main St',
        city: 'Los Angeles',
        state_code: 'CA',
        postal_code: '90001',
        country_code: 'US',
        residential: false,
      },
      recipient: {
        person_name: 'Sam Receiver',
        address_line1: '200 Elm St',
        address_line2: 'Suite 4',
        city: 'Dallas',
        state_code: 'TX',
        postal_code: '75201',
        country_code: 'US',
        residential: true,
      },
      parcels: [
        { weight: 12.25, weight_unit: 'LB', length: 12, width: 10, height: 8.5, dimension_unit: 'IN' },
        { weight: 3, weight_unit: 'LB' },
      ],
      services: ['ups_ground', 'fedex_2_day'],
      carrier_ids: ['ups-main', 'fedex-main'],
      options: { shipping_date: '2026-03-02T00:00' },
    });

    expect(quotes).toEqual([
      {
        serviceCode: 'ups:ups_ground',
        serviceName: 'UPS Ground',
        currency: 'USD',
        totalCents: 1865,
        charges: [
          { kind: 'base', name: 'Base Charge', amountCents: 1381 },
          { kind: 'fuel', name: 'Fuel Surcharge', amountCents: 236 },
          { kind: 'surcharge', name: 'Residential Surcharge', amountCents: 248 },
        ],
        negotiated: false,
        transitDays: 3,
      },
      {
        serviceCode: 'fedex:fedex_2_day',
        serviceName: 'fedex_2_day',
        currency: 'USD',
        totalCents: 4210,
        charges: [
          { kind: 'fuel', name: 'FUEL', amountCents: 505 },
          // What Karrio left unitemized.
          { kind: 'base', name: 'Base charge', amountCents: 3705 },
        ],
        negotiated: false,
        transitDays: null,
      },
    ]);
  });

  it('asks every Karrio carrier when no carriers or services are named', async () => {
    mock.respond('fetchRates', { body: ratesAnswer });

    await karrioClient.rates(karrioConnection(), shipment);

    expect(mock.violations).toEqual([]);
    expect(operations('fetchRates')[0]?.body).toMatchObject({ services: [], carrier_ids: [] });
  });

  describe('Karrio faults', () => {
    it('tells refused, with the carriers own words, when Karrio answers no rates but messages', async () => {
      mock.respond('fetchRates', {
        body: {
          rates: [],
          messages: [
            {
              carrier_name: 'ups',
              carrier_id: 'ups-main',
              code: '111285',
              message: 'The postal code is invalid.',
            },
          ],
        },
      });

      expect(await failureOf(karrioClient.rates(karrioConnection(), shipment))).toMatchObject({
        failure: 'refused',
        retryable: false,
        detail: 'The postal code is invalid. (111285)',
      });
    });

    it('tells a Karrio 400 or 424 as refused with its errors, and a 500 as unavailable', async () => {
      mock.respond('fetchRates', {
        status: 400,
        body: { errors: [{ code: 'validation', message: 'recipient.postal_code is required' }] },
      });
      expect(await failureOf(karrioClient.rates(karrioConnection(), shipment))).toMatchObject({
        failure: 'refused',
        detail: 'recipient.postal_code is required (validation)',
      });

      mock.respond('fetchRates', {
        status: 424,
        body: { messages: [{ carrier_name: 'fedex', message: 'Service unavailable for this lane' }] },
      });
      expect(await failureOf(karrioClient.rates(karrioConnection(), shipment))).toMatchObject({
        failure: 'refused',
        retryable: false,
        detail: 'Service unavailable for this lane',
      });

      mock.respond('fetchRates', { status: 500, body: { errors: [{ message: 'Internal error' }] } });
      expect(await failureOf(karrioClient.rates(karrioConnection(), shipment))).toMatchObject({
        failure: 'unavailable',
        retryable: true,
        detail: 'HTTP 500: Internal error',
      });
      expect(mock.violations).toEqual([]);
    });

    it('tells malformed for a Karrio amount with a fraction of a cent, rather than rounding it', async () => {
      const [rate] = ratesAnswer.rates;
      mock.respond('fetchRates', { body: { rates: [{ ...rate, total_charge: 18.655 }] } });

      expect(await failureOf(karrioClient.rates(karrioConnection(), shipment))).toMatchObject({
        failure: 'malformed',
        detail: expect.stringContaining('rates.0.total_charge'),
      });
    });

    it('tells malformed when Karrio answers a page that is not JSON', async () => {
      mock.respond('listCarrierConnections', {
        body: '<html>502 Bad Gateway</html>',
        contentType: 'text/html',
      });

      const check = failedCheck(await karrioClient.testConnection(karrioConnection()));

      expect(check).toEqual({
        ok: false,
        failure: 'malformed',
        detail: 'HTTP 200 answer is not JSON (text/html)',
      });
    });

    it('tells a timeout when Karrio answers later than the account allows', async () => {
      mock.respond('fetchRates', { body: ratesAnswer, delayMs: 1_000 });

      expect(
        await failureOf(karrioClient.rates(karrioConnection({ timeoutMs: 200 }), shipment)),
      ).toMatchObject({
        failure: 'timeout',
        retryable: true,
      });
    });

    it('tells unreachable when nothing listens at the Karrio address', async () => {
      const check = failedCheck(
        await karrioClient.testConnection(karrioConnection({ baseUrl: await unreachableUrl() })),
      );

      expect(check).toMatchObject({
        failure: 'unreachable',
        detail: expect.stringContaining('ECONNREFUSED'),
      });
    });

    it('never puts the Karrio API key in a detail, even when Karrio echoes it', async () => {
      mock.respond('listCarrierConnections', {
        status: 401,
        body: { detail: `Invalid token: Token ${API_KEY}` },
      });

      const check = failedCheck(await karrioClient.testConnection(karrioConnection()));

      expect(check.detail).toBe('Invalid token: ***');
    });
  });
});
