import { createHash } from 'node:crypto';
import { formatCents } from '@freight/contracts/money';
import { z } from 'zod';
import { CarrierCallError, type CarrierConnection } from '../connection.ts';
import {
  type CarrierLabel,
  type CarrierLabelFormat,
  carrierMoney,
  type Incoterm,
  type Parcel,
  type ParcelAddress,
  type ParcelBooking,
  type ParcelContentsType,
  type ParcelCustoms,
} from '../parcel.ts';
import {
  credentialsOf,
  DIMENSION_UNITS,
  type UpsClient,
  upsClient,
  upsMeasure,
  WEIGHT_UNITS,
} from './client.ts';

/**
 * UPS's Shipping API: Ship buys the labels of a shipment, Void cancels it. Requests follow
 * test/fixtures/carriers/ups/Shipping.yaml, which the contract tests play back.
 */

export const UPS_SHIPPING_VERSION = 'v2409';
/** The newest release the document lets a Ship request name (1601 to 2205): itemized charges need 1601. */
const UPS_SHIPPING_SUBVERSION = '2205';
const SHIP_PATH = `/api/shipments/${UPS_SHIPPING_VERSION}/ship`;
const VOID_PATH = `/api/shipments/${UPS_SHIPPING_VERSION}/void/cancel`;
/** UPS's answer to a void of a shipment it does not know, or no longer can void (UPS-API/api-documentation#108). */
const UPS_NO_SHIPMENT_TO_VOID = '190102';

/** The document's field lengths the booking has to fit; anything longer is refused before the call. */
const LENGTH = {
  name: 35,
  addressLine: 35,
  city: 30,
  postalCode: 9,
  phone: 15,
  taxId: 15,
  reference: 35,
  goods: 50,
  productLine: 35,
  productLines: 3,
} as const;

/** UPS's commercial invoice lists the Incoterms 2010 codes; DPU (2020) has none. */
const UPS_TERMS: Record<Incoterm, string | null> = {
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

/** The reasons for export UPS names; "any other reason" is free text, which documents take. */
const REASON_FOR_EXPORT: Record<ParcelContentsType, string> = {
  merchandise: 'SALE',
  gift: 'GIFT',
  sample: 'SAMPLE',
  return: 'RETURN',
  documents: 'DOCUMENTS',
};

const LABEL_FORMATS: Record<string, CarrierLabelFormat> = { GIF: 'gif', PNG: 'png', ZPL: 'zpl' };

/* ----- answers ----- */

const upsAmount = z.object({ CurrencyCode: z.string().min(1), MonetaryValue: carrierMoney });

const shipAnswer = z.object({
  ShipmentResponse: z.object({
    ShipmentResults: z.object({
      ShipmentCharges: z
        .object({ TotalCharges: upsAmount, TotalChargesWithTaxes: upsAmount.optional() })
        .optional(),
      NegotiatedRateCharges: z
        .object({ TotalCharge: upsAmount.optional(), TotalChargesWithTaxes: upsAmount.optional() })
        .optional(),
      ShipmentIdentificationNumber: z.string().min(1),
      PackageResults: z
        .array(
          z.object({
            TrackingNumber: z.string().min(1),
            ShippingLabel: z
              .object({ ImageFormat: z.object({ Code: z.string() }), GraphicImage: z.string() })
              .optional(),
          }),
        )
        .min(1),
    }),
  }),
});
type ShipResults = z.infer<typeof shipAnswer>['ShipmentResponse']['ShipmentResults'];

/** Whether UPS voided the shipment (or had already), and else the status it gave. */
interface VoidOutcome {
  voided: boolean;
  status: string;
}

const voidAnswer = z
  .object({
    VoidShipmentResponse: z.object({
      SummaryResult: z.object({ Status: z.object({ Code: z.string(), Description: z.string().optional() }) }),
    }),
  })
  .transform(({ VoidShipmentResponse }): VoidOutcome => {
    const { Code, Description } = VoidShipmentResponse.SummaryResult.Status;
    // UPS's test environment has answered codes wrapped in carriage-return entities ("&#xD;1").
    return { voided: Code.replace(/&#xD;|\s/g, '') === '1', status: Description ?? `status ${Code}` };
  });

const upsErrorCodes = z.object({
  response: z.object({ errors: z.array(z.object({ code: z.string().optional() })) }),
});

/* ----- Ship ----- */

/**
 * Buys the shipment's labels, billed to the account, at its negotiated price where it has one.
 *
 * UPS has no idempotent Ship: the same request twice buys two shipments. The booking's key goes in
 * `transId`, UPS's id of the transaction, so UPS's records tell a retry from a new purchase; the
 * portal reconciles before it retries a purchase whose answer it never saw.
 */
export async function upsShip(
  connection: CarrierConnection,
  booking: ParcelBooking,
  client: UpsClient = upsClient,
): Promise<CarrierLabel> {
  const body = shipRequest(booking, credentialsOf(connection).accountNumber);
  const answer = await client.call(connection, {
    method: 'POST',
    path: SHIP_PATH,
    headers: { transId: transactionId(booking.idempotencyKey) },
    body: { json: body },
    answer: shipAnswer,
  });
  return labelOf(answer.ShipmentResponse.ShipmentResults);
}

/**
 * Voids the whole shipment. Voiding is safe to repeat: a shipment UPS voided already, or does not
 * know, answers as done. UPS answers both with one code, which also covers a shipment past its void
 * period: that one stays billed, and only the invoice tells it.
 */
export async function upsVoid(
  connection: CarrierConnection,
  shipmentId: string,
  client: UpsClient = upsClient,
): Promise<void> {
  const outcome = await client.call(connection, {
    method: 'DELETE',
    path: `${VOID_PATH}/${encodeURIComponent(shipmentId)}`,
    answer: voidAnswer,
    settle: (status, body): VoidOutcome | undefined => {
      const codes = upsErrorCodes.safeParse(body);
      const unknown =
        codes.success && codes.data.response.errors.some((e) => e.code === UPS_NO_SHIPMENT_TO_VOID);
      return status === 400 && unknown ? { voided: true, status: 'no shipment to void' } : undefined;
    },
  });
  if (!outcome.voided) {
    throw new CarrierCallError(
      'refused',
      `UPS did not void shipment ${shipmentId}: ${outcome.status}`,
      false,
    );
  }
}

/** UPS's transaction id is 32 characters: the key itself when it fits (a UUID without its dashes), else its digest. */
function transactionId(idempotencyKey: string): string {
  const compact = idempotencyKey.replaceAll('-', '');
  if (/^[A-Za-z0-9]{1,32}$/.test(compact)) return compact;
  return createHash('sha256').update(idempotencyKey).digest('hex').slice(0, 32);
}

function shipRequest(booking: ParcelBooking, accountNumber: string) {
  const customs = booking.customs;
  const from = booking.from.country.toUpperCase();
  const to = booking.to.country.toUpperCase();
  // UPS takes the reference on the shipment between countries, and only on the packages within the US or Puerto Rico.
  const domestic = from === to && (from === 'US' || from === 'PR');
  const reference = [{ Value: fit(booking.reference, LENGTH.reference, "the waybill's reference") }];
  const shipper = shipParty(booking.from, 'sender');
  return {
    ShipmentRequest: {
      Request: {
        // No street-level validation either way; this one still checks the postal code against the state.
        RequestOption: 'nonvalidate',
        SubVersion: UPS_SHIPPING_SUBVERSION,
        TransactionReference: { CustomerContext: booking.reference },
      },
      Shipment: {
        ...(customs ? { Description: goodsDescription(customs) } : {}),
        Shipper: {
          ...shipper,
          ...taxId(customs?.senderTaxId, 'sender'),
          ShipperNumber: accountNumber,
        },
        ShipTo: {
          ...shipParty(booking.to, 'recipient', booking.residential),
          ...taxId(customs?.receiverTaxId, 'recipient'),
        },
        ShipFrom: shipper,
        PaymentInformation: { ShipmentCharge: shipmentCharges(accountNumber, customs) },
        ...(domestic ? {} : { ReferenceNumber: reference }),
        Service: { Code: booking.serviceCode },
        ...(customs && from === 'US' && (to === 'CA' || to === 'PR')
          ? {
              InvoiceLineTotal: {
                CurrencyCode: customs.currency.toUpperCase(),
                MonetaryValue: formatCents(invoiceTotal(customs)),
              },
            }
          : {}),
        ShipmentRatingOptions: { NegotiatedRatesIndicator: 'Y' },
        ShipmentDate: booking.shipDate.replaceAll('-', ''),
        Package: booking.parcels.map((parcel) =>
          shipPackage(parcel, booking, domestic ? reference : undefined),
        ),
        ...(customs
          ? { ShipmentServiceOptions: { InternationalForms: commercialInvoice(booking, customs) } }
          : {}),
      },
      LabelSpecification:
        booking.labelFormat === 'zpl'
          ? {
              LabelImageFormat: { Code: 'ZPL', Description: 'ZPL' },
              LabelStockSize: { Height: '6', Width: '4' },
            }
          : // UPS makes no PDF label: it answers a GIF, which the portal sets on a 4×6 PDF page. The
            // document requires a stock size with every format, though UPS reads it for thermal ones only.
            {
              LabelImageFormat: { Code: 'GIF', Description: 'GIF' },
              LabelStockSize: { Height: '6', Width: '4' },
            },
    },
  };
}

/** Transportation to the shipper's account; duties too when the shipper pays them (DDP), else UPS bills the receiver. */
function shipmentCharges(accountNumber: string, customs: ParcelCustoms | undefined) {
  const transportation = { Type: '01', BillShipper: { AccountNumber: accountNumber } };
  if (customs?.incoterm !== 'DDP') return [transportation];
  return [transportation, { Type: '02', BillShipper: { AccountNumber: accountNumber } }];
}

function shipParty(address: ParcelAddress, role: string, residential = false) {
  const phone = address.phone?.replace(/\D/g, '');
  return {
    Name: fit(address.company || address.name, LENGTH.name, `the ${role}'s name`),
    AttentionName: fit(address.name, LENGTH.name, `the ${role}'s contact name`),
    ...(phone ? { Phone: { Number: fit(phone, LENGTH.phone, `the ${role}'s phone number`) } } : {}),
    Address: {
      AddressLine: [address.address1, address.address2]
        .filter((line): line is string => Boolean(line))
        .map((line) => fit(line, LENGTH.addressLine, `a line of the ${role}'s address`)),
      City: fit(address.city, LENGTH.city, `the ${role}'s city`),
      // UPS takes two-letter codes only (US, CA, MX...); elsewhere the postal code places the address.
      ...(address.state.length === 2 ? { StateProvinceCode: address.state.toUpperCase() } : {}),
      PostalCode: fit(address.zipcode, LENGTH.postalCode, `the ${role}'s postal code`),
      CountryCode: address.country.toUpperCase(),
      ...(residential ? { ResidentialAddressIndicator: 'Y' } : {}),
    },
  };
}

/** UPS marks these fields deprecated in favour of GlobalTaxInformation, which also wants each id's type; they are still read. */
function taxId(id: string | undefined, role: string) {
  return id ? { TaxIdentificationNumber: fit(id, LENGTH.taxId, `the ${role}'s tax id`) } : {};
}

function shipPackage(parcel: Parcel, booking: ParcelBooking, reference: { Value: string }[] | undefined) {
  const dimensions = parcel.dimensions;
  return {
    Packaging: { Code: '02', Description: 'Package' },
    ...(dimensions
      ? {
          // Whole units rounded up: Ship's fields take three characters (UPS bills whole inches anyway).
          Dimensions: {
            UnitOfMeasurement: DIMENSION_UNITS[booking.dimensionUnit],
            Length: upsMeasure(dimensions.length, 0, 3, 'length'),
            Width: upsMeasure(dimensions.width, 0, 3, 'width'),
            Height: upsMeasure(dimensions.height, 0, 3, 'height'),
          },
        }
      : {}),
    PackageWeight: {
      UnitOfMeasurement: WEIGHT_UNITS[booking.weightUnit],
      Weight: upsMeasure(parcel.weight, 1, 5, 'weight'),
    },
    ...(reference ? { ReferenceNumber: reference } : {}),
  };
}

/** The commercial invoice (form 01), one product line per customs item. */
function commercialInvoice(booking: ParcelBooking, customs: ParcelCustoms) {
  const terms = UPS_TERMS[customs.incoterm];
  if (!terms) {
    throw new CarrierCallError(
      'refused',
      `UPS's commercial invoice has no term for ${customs.incoterm}`,
      false,
    );
  }
  return {
    FormType: ['01'],
    Product: customs.items.map((item) => ({
      Description: productLines(item.description),
      Unit: {
        Number: String(item.quantity),
        UnitOfMeasurement: { Code: 'PCS' },
        Value: formatCents(item.unitValueCents),
      },
      CommodityCode: hsCode(item.hsCode),
      OriginCountryCode: item.originCountry.toUpperCase(),
    })),
    InvoiceNumber: fit(customs.invoiceNumber ?? booking.reference, LENGTH.reference, 'the invoice number'),
    InvoiceDate: booking.shipDate.replaceAll('-', ''),
    ReasonForExport: REASON_FOR_EXPORT[customs.contentsType],
    CurrencyCode: customs.currency.toUpperCase(),
    TermsOfShipment: terms,
  };
}

/** The shipment's "description of goods": the items' own words, as many as fit in its 50 characters. */
function goodsDescription(customs: ParcelCustoms): string {
  return wrap(customs.items.map((item) => item.description).join(', '), LENGTH.goods)[0] ?? 'Goods';
}

/** A product's description in the up to three 35-character lines UPS takes, split between words. */
function productLines(description: string): string[] {
  const lines = wrap(description, LENGTH.productLine);
  if (lines.length === 0 || lines.length > LENGTH.productLines) {
    throw new CarrierCallError(
      'refused',
      `a customs item's description must fit UPS's ${LENGTH.productLines} lines of ${LENGTH.productLine} characters`,
      false,
    );
  }
  return lines;
}

/** Words into lines of at most `width` characters; a word longer than a line is cut. */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  for (const word of text.trim().split(/\s+/).filter(Boolean)) {
    const last = lines.at(-1);
    if (last !== undefined && last.length + 1 + word.length <= width)
      lines[lines.length - 1] = `${last} ${word}`;
    else
      for (let start = 0; start < word.length; start += width) lines.push(word.slice(start, start + width));
  }
  return lines;
}

function hsCode(code: string): string {
  const compact = code.replace(/[.\s]/g, '');
  if (!/^[A-Za-z0-9]{6,15}$/.test(compact)) {
    throw new CarrierCallError(
      'refused',
      `the HS code ${code} is not the 6 to 15 characters UPS takes`,
      false,
    );
  }
  return compact;
}

function invoiceTotal(customs: ParcelCustoms): number {
  return customs.items.reduce((sum, item) => sum + item.quantity * item.unitValueCents, 0);
}

/** The text when it fits the field; else the booking is refused, as cutting a name or an address would misdeliver. */
function fit(text: string, maxLength: number, what: string): string {
  const trimmed = text.trim();
  if (trimmed.length === 0 || trimmed.length > maxLength) {
    throw new CarrierCallError('refused', `${what} must be 1 to ${maxLength} characters for UPS`, false);
  }
  return trimmed;
}

/* ----- the answer ----- */

function labelOf(results: ShipResults): CarrierLabel {
  const negotiated = results.NegotiatedRateCharges;
  const published = results.ShipmentCharges;
  const charged =
    negotiated?.TotalChargesWithTaxes ??
    negotiated?.TotalCharge ??
    published?.TotalChargesWithTaxes ??
    published?.TotalCharges;
  return {
    trackingNumbers: results.PackageResults.map((result) => result.TrackingNumber),
    shipmentId: results.ShipmentIdentificationNumber,
    label: results.PackageResults.map((result) => {
      const image = result.ShippingLabel;
      const format = image && LABEL_FORMATS[image.ImageFormat.Code.toUpperCase()];
      if (!image || !format) {
        throw new CarrierCallError(
          'malformed',
          `UPS answered no label we read for ${result.TrackingNumber}`,
          false,
        );
      }
      return { format, bytes: base64Bytes(image.GraphicImage, result.TrackingNumber) };
    }),
    chargedCents: charged?.MonetaryValue ?? null,
    currency: charged?.CurrencyCode ?? null,
  };
}

function base64Bytes(text: string, trackingNumber: string): Buffer {
  const compact = text.replace(/\s/g, '');
  if (compact.length === 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(compact)) {
    throw new CarrierCallError('malformed', `the label of ${trackingNumber} is not base64`, false);
  }
  return Buffer.from(compact, 'base64');
}
