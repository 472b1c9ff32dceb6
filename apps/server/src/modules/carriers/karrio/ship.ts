import { formatCents } from '@freight/contracts/money';
import { z } from 'zod';
import { CarrierCallError, type CarrierConnection } from '../connection.ts';
import { callCarrier, fetchCarrierFile } from '../http.ts';
import {
  type CarrierLabel,
  type CarrierLabelFormat,
  carrierMoney,
  type Incoterm,
  type ParcelBooking,
  type ParcelContentsType,
  type ParcelCustoms,
} from '../parcel.ts';
import {
  authorization,
  karrioAddress,
  karrioErrorText,
  karrioParcel,
  karrioReason,
  reasonsText,
} from './client.ts';

/**
 * Buying and cancelling a label through a Karrio server: a shipment is created and bought in one call
 * (`POST /v1/shipments` with its service), and Karrio keeps it, so it is cancelled by its id and found
 * again by its metadata. Requests follow test/fixtures/carriers/karrio/openapi.yml.
 */

/** Karrio's incoterms are the 2010 list; DPU (2020) is not among them. */
const KARRIO_INCOTERMS: Record<Incoterm, string | null> = {
  EXW: 'EXW',
  FCA: 'FCA',
  CPT: 'CPT',
  CIP: 'CIP',
  DAP: 'DAP',
  DPU: null,
  DDP: 'DDP',
  FAS: 'FAS',
  FOB: 'FOB',
  CFR: 'CFR',
  CIF: 'CIF',
};

const CONTENT_TYPES: Record<ParcelContentsType, string> = {
  merchandise: 'merchandise',
  documents: 'documents',
  gift: 'gift',
  sample: 'sample',
  return: 'return_merchandise',
};

const LABEL_FORMATS: Record<string, CarrierLabelFormat> = { PDF: 'pdf', ZPL: 'zpl', PNG: 'png' };

/** The metadata key the purchase's idempotency key is kept under, which `GET /v1/shipments?metadata_key=` finds. */
export const KARRIO_IDEMPOTENCY_METADATA = 'idempotency_key';

/* ----- answers ----- */

const shipmentAnswer = z.object({
  id: z.string().min(1),
  status: z.string(),
  tracking_number: z.string().nullish(),
  label_type: z.string().nullish(),
  label_url: z.string().nullish(),
  selected_rate: z.object({ currency: z.string().nullish(), total_charge: carrierMoney.nullish() }).nullish(),
  meta: z.record(z.string(), z.unknown()).nullish(),
  messages: z.array(karrioReason).optional(),
});
type KarrioShipment = z.infer<typeof shipmentAnswer>;

/** Where a cancel left the shipment; `refusal` holds Karrio's words when it would not cancel it. */
type CancelOutcome = { cancelled: true } | { cancelled: false; status: string; refusal?: string };

const cancelAnswer = z
  .object({ status: z.string() })
  .transform(
    ({ status }): CancelOutcome =>
      status === 'cancelled' ? { cancelled: true } : { cancelled: false, status },
  );

/* ----- purchase ----- */

/**
 * Buys the booking's label through Karrio: the service is `carrier:service` as Karrio's rates name
 * it; `carrierId` picks one of the account's connections to that carrier, else Karrio uses its
 * default. Karrio has no idempotency header: the booking's key goes in the shipment's metadata, where
 * the portal's reconciliation finds an earlier purchase of the same booking before it retries.
 *
 * Karrio answers a bought shipment with `label_url`, not the label itself (the document keeps
 * `docs.label` for the stateless `/v1/proxy/shipping`): the label is fetched from there, on the same
 * server and with the same key.
 */
export async function karrioShip(
  connection: CarrierConnection,
  booking: ParcelBooking,
  carrierId?: string,
): Promise<CarrierLabel> {
  const headers = authorization(connection);
  const shipment = await callCarrier(connection, {
    method: 'POST',
    path: '/v1/shipments',
    headers,
    body: { json: shipmentRequest(booking, carrierId) },
    answer: shipmentAnswer,
    errorText: karrioErrorText,
  });
  const trackingNumber = shipment.tracking_number;
  if (shipment.status !== 'purchased' || !trackingNumber) {
    const reasons = reasonsText(shipment.messages ?? []);
    throw new CarrierCallError(
      'refused',
      `Karrio created shipment ${shipment.id} without buying its label (${shipment.status})${reasons ? `: ${reasons}` : ''}`,
      false,
    );
  }
  if (!shipment.label_url) {
    throw new CarrierCallError(
      'malformed',
      `Karrio bought shipment ${shipment.id} but gave no label_url`,
      false,
    );
  }
  const label = await fetchCarrierFile(connection, {
    url: shipment.label_url,
    headers,
    errorText: karrioErrorText,
  });
  return labelOf(shipment, trackingNumber, label.bytes, booking);
}

/**
 * A list of shipments as the document's introduction shows every list (`count`, `next`, `results`);
 * its `listShipments` operation describes a single shipment instead, which is read as a list of one.
 */
const shipmentList = z.union([
  z.object({ results: z.array(shipmentAnswer) }),
  shipmentAnswer.transform((one) => ({ results: [one] })),
]);

/**
 * The label of a shipment Karrio already bought for this purchase key, found by its metadata; null
 * when Karrio has none. A shipment created but not bought (or cancelled) does not count: buying again
 * is then safe.
 */
export async function karrioFindPurchase(
  connection: CarrierConnection,
  booking: ParcelBooking,
): Promise<CarrierLabel | null> {
  const headers = authorization(connection);
  const query = new URLSearchParams({
    metadata_key: KARRIO_IDEMPOTENCY_METADATA,
    metadata_value: booking.idempotencyKey,
  });
  const list = await callCarrier(connection, {
    method: 'GET',
    path: `/v1/shipments?${query}`,
    headers,
    answer: shipmentList,
    errorText: karrioErrorText,
    settle: (status) => (status === 404 ? { results: [] } : undefined),
  });
  const bought = list.results.find(
    (shipment) =>
      shipment.status !== 'cancelled' &&
      shipment.status !== 'draft' &&
      Boolean(shipment.tracking_number) &&
      Boolean(shipment.label_url),
  );
  if (!bought?.tracking_number || !bought.label_url) return null;
  const label = await fetchCarrierFile(connection, {
    url: bought.label_url,
    headers,
    errorText: karrioErrorText,
  });
  return labelOf(bought, bought.tracking_number, label.bytes, booking);
}

/**
 * Cancels the shipment and voids its label. Safe to repeat: a shipment Karrio no longer has (404), or
 * has cancelled already, answers as done. A 409 is also what a shipment past cancelling answers, so
 * the shipment is read again to tell which.
 */
export async function karrioCancel(connection: CarrierConnection, shipmentId: string): Promise<void> {
  const headers = authorization(connection);
  const path = `/v1/shipments/${encodeURIComponent(shipmentId)}`;
  const outcome = await callCarrier(connection, {
    method: 'POST',
    path: `${path}/cancel`,
    headers,
    answer: cancelAnswer,
    errorText: karrioErrorText,
    settle: (status, body): CancelOutcome | undefined => {
      if (status === 404) return { cancelled: true };
      if (status === 409) return { cancelled: false, status: 'conflict', refusal: karrioErrorText(body) };
      return undefined;
    },
  });
  if (outcome.cancelled) return;
  const now =
    outcome.status === 'conflict'
      ? await callCarrier(connection, {
          method: 'GET',
          path,
          headers,
          answer: cancelAnswer,
          errorText: karrioErrorText,
        })
      : outcome;
  if (now.cancelled) return;
  throw new CarrierCallError(
    'refused',
    outcome.refusal ?? `Karrio did not cancel shipment ${shipmentId}: it is ${now.status}`,
    false,
  );
}

function shipmentRequest(booking: ParcelBooking, carrierId: string | undefined) {
  const separator = booking.serviceCode.indexOf(':');
  const service = separator < 0 ? '' : booking.serviceCode.slice(separator + 1);
  if (!service) {
    throw new CarrierCallError(
      'refused',
      `"${booking.serviceCode}" names no Karrio service (carrier:service)`,
      false,
    );
  }
  const customs = booking.customs;
  return {
    shipper: { ...karrioAddress(booking.from, false), ...taxId(customs?.senderTaxId) },
    recipient: {
      ...karrioAddress(booking.to, booking.residential ?? false),
      ...taxId(customs?.receiverTaxId),
    },
    parcels: booking.parcels.map((parcel) => karrioParcel(parcel, booking)),
    // With a service, Karrio rates and buys in the one call.
    service,
    ...(carrierId ? { carrier_ids: [carrierId] } : {}),
    label_type: booking.labelFormat === 'zpl' ? 'ZPL' : 'PDF',
    reference: booking.reference,
    payment: { paid_by: 'sender' },
    ...(customs ? { customs: customsDeclaration(booking, customs) } : {}),
    options: { shipping_date: `${booking.shipDate}T00:00` },
    metadata: { [KARRIO_IDEMPOTENCY_METADATA]: booking.idempotencyKey, waybill: booking.reference },
  };
}

function taxId(id: string | undefined) {
  return id ? { federal_tax_id: id } : {};
}

function customsDeclaration(booking: ParcelBooking, customs: ParcelCustoms) {
  const incoterm = KARRIO_INCOTERMS[customs.incoterm];
  if (!incoterm) throw new CarrierCallError('refused', `Karrio takes no incoterm ${customs.incoterm}`, false);
  const currency = customs.currency.toUpperCase();
  const total = customs.items.reduce((sum, item) => sum + item.quantity * item.unitValueCents, 0);
  return {
    commodities: customs.items.map((item) => ({
      weight: item.weight,
      weight_unit: booking.weightUnit === 'kg' ? 'KG' : 'LB',
      description: item.description,
      quantity: item.quantity,
      hs_code: item.hsCode.replace(/[.\s]/g, ''),
      // Karrio's amounts are decimal numbers; cents over 100 print as the decimal they are.
      value_amount: Number(formatCents(item.unitValueCents)),
      value_currency: currency,
      origin_country: item.originCountry.toUpperCase(),
    })),
    // The shipper pays duties under DDP; under every other term the receiver does.
    duty: {
      paid_by: customs.incoterm === 'DDP' ? 'sender' : 'recipient',
      currency,
      declared_value: Number(formatCents(total)),
    },
    content_type: CONTENT_TYPES[customs.contentsType],
    incoterm,
    invoice: customs.invoiceNumber ?? booking.reference,
    invoice_date: booking.shipDate,
    commercial_invoice: customs.contentsType !== 'documents',
  };
}

/* ----- the answer ----- */

function labelOf(
  shipment: KarrioShipment,
  trackingNumber: string,
  bytes: Buffer,
  booking: ParcelBooking,
): CarrierLabel {
  // Karrio's carriers put each parcel's number in meta.tracking_numbers; the shipment's number is the first.
  const numbers = z.array(z.string().min(1)).min(1).safeParse(shipment.meta?.tracking_numbers);
  const rate = shipment.selected_rate;
  return {
    trackingNumbers: numbers.success ? numbers.data : [trackingNumber],
    shipmentId: shipment.id,
    label: [{ format: LABEL_FORMATS[shipment.label_type ?? ''] ?? booking.labelFormat, bytes }],
    chargedCents: rate?.total_charge ?? null,
    currency: rate?.currency ?? null,
  };
}
