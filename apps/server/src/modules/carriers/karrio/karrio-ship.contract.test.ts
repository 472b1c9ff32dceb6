import { describe, expect, it } from 'vitest';
import {
  CARRIER_DOCUMENTS,
  carrierFailure,
  LOS_ANGELES_SHIPPER,
  mockConnection,
  useCarrierMock,
} from '../../../../test/carrier-mock.ts';
import type { CarrierConnection } from '../connection.ts';
import type { ParcelBooking } from '../parcel.ts';
import { KARRIO_IDEMPOTENCY_METADATA, karrioCancel, karrioFindPurchase, karrioShip } from './ship.ts';
import { karrioTrack } from './track.ts';

const API_KEY = 'key_4c1d9e0b7a2f';
const SHIPMENT_ID = 'shp_7a1c2e9f40';
const LABEL_PATH = `/v1/shipments/${SHIPMENT_ID}/label.pdf`;
const PDF = Buffer.from('%PDF-1.7 label for two parcels');

// Under a path, as a self-hosted Karrio behind a proxy may be.
const mock = useCarrierMock({ documents: CARRIER_DOCUMENTS.karrio, prefix: '/karrio' });

const karrioConnection = (changes: Partial<CarrierConnection> = {}) =>
  mockConnection(mock, { apiKey: API_KEY }, changes);

const booking: ParcelBooking = {
  shipDate: '2026-03-02',
  from: LOS_ANGELES_SHIPPER,
  to: {
    name: 'Kim Receiver',
    phone: '+49301234567',
    address1: 'Friedrichstrasse 10',
    city: 'Berlin',
    state: 'BE',
    zipcode: '10117',
    country: 'de',
  },
  parcels: [{ weight: 4.5, dimensions: { length: 14, width: 10, height: 6 } }, { weight: 2 }],
  weightUnit: 'lb',
  dimensionUnit: 'in',
  residential: true,
  serviceCode: 'ups:ups_worldwide_express',
  reference: 'WB2026030200018',
  labelFormat: 'pdf',
  idempotencyKey: 'c5e1b7a2-4f3d-4e8a-9b61-0d2c7f5a8e13',
  customs: {
    contentsType: 'merchandise',
    items: [
      {
        description: 'Aluminium laptop stand',
        hsCode: '8473.30',
        originCountry: 'CN',
        quantity: 2,
        unitValueCents: 1250,
        weight: 1.5,
      },
      {
        description: 'USB-C cable',
        hsCode: '854442',
        originCountry: 'vn',
        quantity: 10,
        unitValueCents: 399,
        weight: 0.1,
      },
    ],
    currency: 'USD',
    incoterm: 'DAP',
    senderTaxId: 'US123456789',
    receiverTaxId: 'DE129273398',
  },
};

const address = (country: string) => ({ country_code: country, object_type: 'address' });

/** A bought shipment as Karrio's `Shipment` shapes it: the label at a URL on the same server. */
function shipmentAnswer(changes: Record<string, unknown> = {}) {
  return {
    id: SHIPMENT_ID,
    object_type: 'shipment',
    shipper: address('US'),
    recipient: address('DE'),
    parcels: [
      { weight: 4.5, weight_unit: 'LB' },
      { weight: 2, weight_unit: 'LB' },
    ],
    status: 'purchased',
    carrier_name: 'ups',
    carrier_id: 'ups-main',
    tracking_number: '1Z999AA10123456784',
    shipment_identifier: '1Z999AA10123456784',
    label_type: 'PDF',
    label_url: `${mock.url}${LABEL_PATH}`,
    selected_rate: {
      carrier_name: 'ups',
      carrier_id: 'ups-main',
      currency: 'USD',
      service: 'ups_worldwide_express',
      total_charge: 86.4,
      test_mode: false,
    },
    meta: { tracking_numbers: ['1Z999AA10123456784', '1Z999AA10123456793'] },
    metadata: {},
    messages: [],
    created_at: '2026-03-02 09:10:00.000000+0000',
    test_mode: false,
    ...changes,
  };
}

const operations = (operationId: string) => mock.requests.filter((r) => r.operationId === operationId);

/** The failure of a call that must fail, checked not to hold the API key. */
const failureOf = (call: Promise<unknown>) => carrierFailure(call, [API_KEY]);

describe('Karrio shipments against the Karrio document', () => {
  it('buys a Karrio shipment with its customs in one call, and fetches its label from the same server', async () => {
    mock.respond('createShipment', { status: 201, body: shipmentAnswer() });
    mock.serveFile(LABEL_PATH, { body: PDF, contentType: 'application/pdf' });

    const label = await karrioShip(karrioConnection(), booking, 'ups-main');

    expect(mock.violations).toEqual([]);
    const [request] = operations('createShipment');
    expect(request?.path).toBe('/karrio/v1/shipments');
    expect(request?.headers.authorization).toBe(`Token ${API_KEY}`);
    expect(request?.body).toEqual({
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
        federal_tax_id: 'US123456789',
      },
      recipient: {
        person_name: 'Kim Receiver',
        phone_number: '+49301234567',
        address_line1: 'Friedrichstrasse 10',
        city: 'Berlin',
        state_code: 'BE',
        postal_code: '10117',
        country_code: 'DE',
        residential: true,
        federal_tax_id: 'DE129273398',
      },
      parcels: [
        { weight: 4.5, weight_unit: 'LB', length: 14, width: 10, height: 6, dimension_unit: 'IN' },
        { weight: 2, weight_unit: 'LB' },
      ],
      service: 'ups_worldwide_express',
      carrier_ids: ['ups-main'],
      label_type: 'PDF',
      reference: 'WB2026030200018',
      payment: { paid_by: 'sender' },
      customs: {
        commodities: [
          {
            weight: 1.5,
            weight_unit: 'LB',
            description: 'Aluminium laptop stand',
            quantity: 2,
            hs_code: '847330',
            value_amount: 12.5,
            value_currency: 'USD',
            origin_country: 'CN',
          },
          {
            weight: 0.1,
            weight_unit: 'LB',
            description: 'USB-C cable',
            quantity: 10,
            hs_code: '854442',
            value_amount: 3.99,
            value_currency: 'USD',
            origin_country: 'VN',
          },
        ],
        // DAP: the receiver pays the duties.
        duty: { paid_by: 'recipient', currency: 'USD', declared_value: 64.9 },
        content_type: 'merchandise',
        incoterm: 'DAP',
        invoice: 'WB2026030200018',
        invoice_date: '2026-03-02',
        commercial_invoice: true,
      },
      options: { shipping_date: '2026-03-02T00:00' },
      metadata: {
        idempotency_key: 'c5e1b7a2-4f3d-4e8a-9b61-0d2c7f5a8e13',
        waybill: 'WB2026030200018',
      },
    });
    // The label came from Karrio's server, with the same key.
    expect(mock.requests.at(-1)).toMatchObject({
      operationId: null,
      method: 'GET',
      path: `/karrio${LABEL_PATH}`,
      headers: { authorization: `Token ${API_KEY}` },
    });

    expect(label).toEqual({
      trackingNumbers: ['1Z999AA10123456784', '1Z999AA10123456793'],
      shipmentId: SHIPMENT_ID,
      label: [{ format: 'pdf', bytes: PDF }],
      chargedCents: 8640,
      currency: 'USD',
    });
  });

  it('asks Karrio for a ZPL label and takes the shipment tracking number when the carrier gives no list', async () => {
    const zpl = '^XA^FDlabel^FS^XZ';
    mock.respond('createShipment', {
      status: 201,
      body: shipmentAnswer({
        label_type: 'ZPL',
        label_url: `${mock.url}/v1/shipments/${SHIPMENT_ID}/label.zpl`,
        meta: {},
      }),
    });
    mock.serveFile(`/v1/shipments/${SHIPMENT_ID}/label.zpl`, { body: zpl, contentType: 'text/plain' });

    const label = await karrioShip(karrioConnection(), {
      ...booking,
      labelFormat: 'zpl',
      customs: undefined,
    });

    expect(mock.violations).toEqual([]);
    const body = operations('createShipment')[0]?.body as Record<string, unknown>;
    expect(body).toMatchObject({ label_type: 'ZPL' });
    expect(body).not.toHaveProperty('customs');
    expect(body).not.toHaveProperty('carrier_ids');
    expect(label).toMatchObject({
      trackingNumbers: ['1Z999AA10123456784'],
      label: [{ format: 'zpl', bytes: Buffer.from(zpl) }],
    });
  });

  it('cancels a Karrio shipment, and cancelling it again answers as done', async () => {
    mock.respond('cancelShipment', { body: shipmentAnswer({ status: 'cancelled' }) });
    await karrioCancel(karrioConnection(), SHIPMENT_ID);

    // Karrio refuses to cancel a cancelled shipment (409); the shipment, read again, is cancelled.
    mock.respond('cancelShipment', {
      status: 409,
      body: {
        errors: [{ code: 'state_error', message: 'The shipment is cancelled and can not be cancelled' }],
      },
    });
    mock.respond('retrieveShipment', { body: shipmentAnswer({ status: 'cancelled' }) });
    await karrioCancel(karrioConnection(), SHIPMENT_ID);

    // And one Karrio no longer has is gone all the same.
    mock.respond('cancelShipment', {
      status: 404,
      body: { errors: [{ code: 'not_found', message: 'Not found.' }] },
    });
    await karrioCancel(karrioConnection(), SHIPMENT_ID);

    expect(mock.violations).toEqual([]);
    expect(mock.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      `POST /karrio/v1/shipments/${SHIPMENT_ID}/cancel`,
      `POST /karrio/v1/shipments/${SHIPMENT_ID}/cancel`,
      `GET /karrio/v1/shipments/${SHIPMENT_ID}`,
      `POST /karrio/v1/shipments/${SHIPMENT_ID}/cancel`,
    ]);
  });

  it('tells refused, with Karrio words, when a Karrio shipment is past cancelling', async () => {
    mock.respond('cancelShipment', {
      status: 409,
      body: {
        errors: [{ code: 'state_error', message: 'The shipment is in_transit and can not be cancelled' }],
      },
    });
    mock.respond('retrieveShipment', { body: shipmentAnswer({ status: 'in_transit' }) });

    expect(await failureOf(karrioCancel(karrioConnection(), SHIPMENT_ID))).toMatchObject({
      failure: 'refused',
      retryable: false,
      detail: 'The shipment is in_transit and can not be cancelled (state_error)',
    });
  });

  it('tracks a parcel with a Karrio tracker: events oldest first, Karrio status mapped, the delivery time', async () => {
    mock.respond('addTracker', {
      body: {
        id: 'trk_01',
        carrier_name: 'ups',
        carrier_id: 'ups-main',
        tracking_number: '1Z999AA10123456784',
        status: 'delivered',
        delivered: true,
        test_mode: false,
        // Newest first, as most carriers list them.
        events: [
          {
            date: '2026-03-05',
            time: '02:32 PM',
            description: 'Delivered',
            location: 'BERLIN, DE',
            code: 'FS',
          },
          {
            date: '2026-03-05',
            time: '08:15 AM',
            description: 'Out For Delivery',
            location: 'BERLIN, DE',
            code: 'OT',
          },
          {
            date: '2026-03-03',
            time: '17:47',
            description: 'Departed from Facility',
            location: '',
            code: 'DP',
          },
        ],
        messages: [],
      },
    });

    const tracking = await karrioTrack(karrioConnection(), '1Z999AA10123456784', 'ups');

    expect(mock.violations).toEqual([]);
    expect(operations('addTracker')[0]).toMatchObject({
      path: '/karrio/v1/trackers',
      body: { tracking_number: '1Z999AA10123456784', carrier_name: 'ups' },
    });
    expect(tracking).toEqual({
      trackingNumber: '1Z999AA10123456784',
      status: 'delivered',
      events: [
        {
          at: new Date('2026-03-03T17:47:00Z'),
          code: 'unknown',
          carrierCode: 'DP',
          description: 'Departed from Facility',
          location: null,
        },
        {
          at: new Date('2026-03-05T08:15:00Z'),
          code: 'unknown',
          carrierCode: 'OT',
          description: 'Out For Delivery',
          location: 'BERLIN, DE',
        },
        {
          at: new Date('2026-03-05T14:32:00Z'),
          code: 'unknown',
          carrierCode: 'FS',
          description: 'Delivered',
          location: 'BERLIN, DE',
        },
      ],
      deliveredAt: new Date('2026-03-05T14:32:00Z'),
    });
  });

  it('maps Karrio tracker statuses: a pending tracker is a created label, a failed delivery an exception', async () => {
    const tracker = {
      carrier_name: 'ups',
      carrier_id: 'ups-main',
      tracking_number: '1Z1',
      test_mode: false,
      events: [],
    };
    mock.respond('addTracker', { body: { ...tracker, status: 'pending' } });
    expect(await karrioTrack(karrioConnection(), '1Z1', 'ups')).toEqual({
      trackingNumber: '1Z1',
      status: 'label_created',
      events: [],
      deliveredAt: null,
    });
    mock.respond('addTracker', { body: { ...tracker, status: 'delivery_failed' } });
    expect((await karrioTrack(karrioConnection(), '1Z1', 'ups')).status).toBe('exception');
    mock.respond('addTracker', { body: { ...tracker, status: 'return_to_sender' } });
    expect((await karrioTrack(karrioConnection(), '1Z1', 'ups')).status).toBe('returned');
  });
});

describe('finding an earlier Karrio purchase before trying again', () => {
  it('finds the shipment bought under the purchase key, label and all, by its metadata', async () => {
    mock.respond('listShipments', { body: shipmentAnswer() });
    mock.serveFile(LABEL_PATH, { body: PDF, contentType: 'application/pdf' });
    const found = await karrioFindPurchase(karrioConnection(), booking);
    expect(found).toMatchObject({
      shipmentId: SHIPMENT_ID,
      trackingNumbers: ['1Z999AA10123456784', '1Z999AA10123456793'],
    });
    expect(found?.label[0]?.bytes.equals(PDF)).toBe(true);
    expect(operations('listShipments')[0]?.query).toMatchObject({
      metadata_key: KARRIO_IDEMPOTENCY_METADATA,
      metadata_value: booking.idempotencyKey,
    });
  });

  it('finds nothing when Karrio has no such shipment, or only one it never bought or cancelled', async () => {
    mock.respond('listShipments', {
      status: 404,
      body: { errors: [{ code: 'not_found', message: 'Not found' }] },
    });
    expect(await karrioFindPurchase(karrioConnection(), booking)).toBeNull();
    for (const status of ['draft', 'cancelled']) {
      mock.respond('listShipments', { body: shipmentAnswer({ status }) });
      expect(await karrioFindPurchase(karrioConnection(), booking)).toBeNull();
    }
  });
});

describe('Karrio purchase faults', () => {
  it('tells credentials when Karrio refuses the key (401)', async () => {
    mock.respond('createShipment', {
      status: 401,
      body: { errors: [{ code: 'authentication_required', message: 'Invalid token.' }] },
    });

    expect(await failureOf(karrioShip(karrioConnection(), booking))).toMatchObject({
      failure: 'credentials',
      retryable: false,
      detail: 'Invalid token. (authentication_required)',
    });
  });

  it('tells refused with the carrier words when Karrio answers 424, and unavailable on a 500', async () => {
    mock.respond('createShipment', {
      status: 424,
      body: {
        messages: [
          {
            carrier_name: 'ups',
            carrier_id: 'ups-main',
            code: '120802',
            message: 'Address Validation Error on ShipTo address',
          },
        ],
      },
    });
    expect(await failureOf(karrioShip(karrioConnection(), booking))).toMatchObject({
      failure: 'refused',
      retryable: false,
      detail: 'Address Validation Error on ShipTo address (120802)',
    });

    mock.respond('createShipment', { status: 500, body: { errors: [{ message: 'Internal error' }] } });
    expect(await failureOf(karrioShip(karrioConnection(), booking))).toMatchObject({
      failure: 'unavailable',
      retryable: true,
      detail: 'HTTP 500: Internal error',
    });
  });

  it('tells a timeout, worth retrying, when the Karrio purchase answers too late', async () => {
    mock.respond('createShipment', { status: 201, body: shipmentAnswer(), delayMs: 1_000 });

    expect(await failureOf(karrioShip(karrioConnection({ timeoutMs: 300 }), booking))).toMatchObject({
      failure: 'timeout',
      retryable: true,
    });
  });

  it('tells refused when Karrio creates the shipment but buys no label, naming the shipment', async () => {
    mock.respond('createShipment', {
      status: 201,
      body: shipmentAnswer({
        status: 'draft',
        tracking_number: null,
        label_url: null,
        messages: [{ carrier_name: 'ups', message: 'Service not available for this lane' }],
      }),
    });

    expect(await failureOf(karrioShip(karrioConnection(), booking))).toMatchObject({
      failure: 'refused',
      detail: `Karrio created shipment ${SHIPMENT_ID} without buying its label (draft): Service not available for this lane`,
    });
  });

  it('tells malformed for a Karrio page that is not JSON, and for a label URL on another server, which gets no key', async () => {
    mock.respond('createShipment', { body: '<html>502 Bad Gateway</html>', contentType: 'text/html' });
    expect(await failureOf(karrioShip(karrioConnection(), booking))).toMatchObject({
      failure: 'malformed',
      detail: 'HTTP 200 answer is not JSON (text/html)',
    });

    mock.respond('createShipment', {
      status: 201,
      body: shipmentAnswer({ label_url: 'https://labels.example.com/shp_7a1c2e9f40.pdf' }),
    });
    const elsewhere = await failureOf(karrioShip(karrioConnection(), booking));
    expect(elsewhere).toMatchObject({ failure: 'malformed', retryable: false });
    expect(elsewhere.detail).toContain('https://labels.example.com/shp_7a1c2e9f40.pdf is not on the carrier');
  });

  it('refuses before any call a Karrio purchase with DPU, or with no service named', async () => {
    const dpu = { ...booking, customs: booking.customs && { ...booking.customs, incoterm: 'DPU' as const } };
    expect(await failureOf(karrioShip(karrioConnection(), dpu))).toMatchObject({
      failure: 'refused',
      detail: 'Karrio takes no incoterm DPU',
    });
    expect(await failureOf(karrioShip(karrioConnection(), { ...booking, serviceCode: 'ups' }))).toMatchObject(
      {
        failure: 'refused',
        detail: '"ups" names no Karrio service (carrier:service)',
      },
    );
    expect(mock.requests).toEqual([]);
  });
});
