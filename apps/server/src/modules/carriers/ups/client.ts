import { createHash, randomUUID } from 'node:crypto';
import { type UpsCredentials, upsCredentials } from '@freight/contracts/carriers';
import { z } from 'zod';
import {
  CarrierCallError,
  type CarrierClient,
  type CarrierConnection,
  type ConnectionCheck,
} from '../connection.ts';
import { type CarrierRequest, callCarrier, connectionCheck } from '../http.ts';
import {
  type CarrierRateQuote,
  carrierMoney,
  type Parcel,
  type ParcelAddress,
  type ParcelShipment,
  type RateCharge,
} from '../parcel.ts';

/**
 * UPS's own API (developer.ups.com): OAuth client credentials, then the Rating API's Shop request,
 * which prices every UPS service between two addresses in one call. Requests follow the documents
 * in test/fixtures/carriers/ups, which the contract tests play back.
 */

/** The Rating release the requests are written for; UPS keeps answers' shapes stable within one. */
export const UPS_RATING_VERSION = 'v2409';
/** The same release as the body states it: itemized and negotiated base charges need 1701 and 2201 or later. */
const UPS_RATING_SUBVERSION = '2409';
const TOKEN_PATH = '/security/v1/oauth/token';
const SHOP_PATH = `/api/rating/${UPS_RATING_VERSION}/Shop`;
/** A token is renewed this long before UPS says it expires, so a call never carries one that lapses mid-way. */
const TOKEN_RENEWAL_MARGIN_MS = 60_000;
/** Names the portal in UPS's logs of each call (the `transactionSrc` header). */
const TRANSACTION_SOURCE = 'freight-portal';
const UPS_FUEL_SURCHARGE = '375';

export const UPS_SERVICE_NAMES: Record<string, string> = {
  '01': 'UPS Next Day Air',
  '02': 'UPS 2nd Day Air',
  '03': 'UPS Ground',
  '07': 'UPS Worldwide Express',
  '08': 'UPS Worldwide Expedited',
  '11': 'UPS Standard',
  '12': 'UPS 3 Day Select',
  '13': 'UPS Next Day Air Saver',
  '14': 'UPS Next Day Air Early',
  '54': 'UPS Worldwide Express Plus',
  '59': 'UPS 2nd Day Air A.M.',
  '65': 'UPS Worldwide Saver',
};

export const WEIGHT_UNITS = {
  lb: { Code: 'LBS', Description: 'Pounds' },
  kg: { Code: 'KGS', Description: 'Kilograms' },
} as const;
export const DIMENSION_UNITS = {
  in: { Code: 'IN', Description: 'Inches' },
  cm: { Code: 'CM', Description: 'Centimeters' },
} as const;

/* ----- answers ----- */

const upsError = z.object({
  response: z.object({
    errors: z.array(z.object({ code: z.string().optional(), message: z.string().optional() })),
  }),
});

/** UPS's reasons in an error answer (`{ response: { errors: [{ code, message }] } }`), every API alike. */
function upsErrorText(body: unknown): string | undefined {
  const parsed = upsError.safeParse(body);
  if (!parsed.success) return undefined;
  const reasons = parsed.data.response.errors
    .filter((error) => error.message)
    .map((error) => (error.code ? `${error.message} (${error.code})` : error.message));
  return reasons.length > 0 ? reasons.join('; ') : undefined;
}

const tokenAnswer = z.object({
  access_token: z.string().min(1),
  /** Seconds, which the document gives as a string. */
  expires_in: z.coerce.number().int().positive(),
});

const upsAmount = z.object({ CurrencyCode: z.string().min(1), MonetaryValue: carrierMoney });
const upsItemizedCharge = z.object({
  Code: z.string(),
  Description: z.string().optional(),
  MonetaryValue: carrierMoney,
});
const upsTaxCharge = z.object({ Type: z.string(), MonetaryValue: carrierMoney });

const ratedShipment = z.object({
  Service: z.object({ Code: z.string().min(1), Description: z.string().optional() }),
  TotalCharges: upsAmount,
  TotalChargesWithTaxes: upsAmount.optional(),
  ServiceOptionsCharges: upsAmount.optional(),
  ItemizedCharges: z.array(upsItemizedCharge).optional(),
  TaxCharges: z.array(upsTaxCharge).optional(),
  NegotiatedRateCharges: z
    .object({
      TotalCharge: upsAmount,
      TotalChargesWithTaxes: upsAmount.optional(),
      ItemizedCharges: z.array(upsItemizedCharge).optional(),
      TaxCharges: z.array(upsTaxCharge).optional(),
    })
    .optional(),
  GuaranteedDelivery: z.object({ BusinessDaysInTransit: z.string().optional() }).optional(),
});
type RatedShipment = z.infer<typeof ratedShipment>;

const shopAnswer = z.object({ RateResponse: z.object({ RatedShipment: z.array(ratedShipment) }) });

/* ----- the client ----- */

/** A call to one of UPS's APIs: the client adds the token, `transactionSrc` and UPS's error words. */
export type UpsCall<T> = Omit<CarrierRequest<T>, 'headers' | 'errorText'> & {
  /** `transId` among them when the call has its own; a random one otherwise. */
  headers?: Record<string, string>;
};

interface AccessToken {
  value: string;
  /** When it is renewed: shortly before UPS's own expiry. */
  renewAt: number;
}

/**
 * UPS's client. It keeps each account's OAuth token in memory until shortly before it expires, under
 * a fingerprint of the credentials and base URL, so changed credentials never reuse an old token.
 * Calls that need a token at the same moment share one request for it.
 */
export class UpsClient implements CarrierClient {
  readonly kind = 'ups';
  readonly #tokens = new Map<number, { fingerprint: string; token: Promise<AccessToken> }>();
  readonly #now: () => number;

  constructor(options: { now?: () => number } = {}) {
    this.#now = options.now ?? Date.now;
  }

  /**
   * Whether UPS gives the account a token for its credentials and account number; always asked anew,
   * as a kept token would not tell whether the credentials still work.
   */
  testConnection(connection: CarrierConnection): Promise<ConnectionCheck> {
    return connectionCheck(() => this.#accessToken(connection, credentialsOf(connection), { reuse: false }));
  }

  /**
   * Every UPS service's price for the shipment, the account's negotiated price where it has one. A
   * kept token that UPS no longer takes (revoked before its time) is replaced once.
   */
  async rateShop(connection: CarrierConnection, shipment: ParcelShipment): Promise<CarrierRateQuote[]> {
    const answer = await this.call(connection, {
      method: 'POST',
      path: SHOP_PATH,
      body: { json: shopRequest(shipment, credentialsOf(connection).accountNumber) },
      answer: shopAnswer,
    });
    return answer.RateResponse.RatedShipment.map(quoteOf);
  }

  /**
   * One call with the account's token. A kept token that UPS no longer takes (revoked before its
   * time) is replaced and the call made once more: UPS refused it before acting on it.
   */
  async call<T>(connection: CarrierConnection, request: UpsCall<T>): Promise<T> {
    const credentials = credentialsOf(connection);
    const send = (token: string) =>
      callCarrier(connection, {
        ...request,
        headers: {
          transId: randomUUID().replaceAll('-', ''),
          transactionSrc: TRANSACTION_SOURCE,
          ...request.headers,
          authorization: `Bearer ${token}`,
        },
        errorText: upsErrorText,
      });
    const token = await this.#accessToken(connection, credentials);
    return send(token.value).catch(async (error: unknown) => {
      if (!token.kept || !(error instanceof CarrierCallError) || error.failure !== 'credentials') throw error;
      return send((await this.#accessToken(connection, credentials, { reuse: false })).value);
    });
  }

  /** The account's token, `kept` when it was already held rather than asked for by this call. */
  async #accessToken(connection: CarrierConnection, credentials: UpsCredentials, { reuse = true } = {}) {
    const fingerprint = createHash('sha256')
      .update(JSON.stringify([connection.baseUrl, credentials]))
      .digest('hex');
    const cached = this.#tokens.get(connection.accountId);
    if (reuse && cached?.fingerprint === fingerprint) {
      const token = await cached.token;
      if (token.renewAt > this.#now()) return { value: token.value, kept: true };
    }
    const entry = { fingerprint, token: this.#requestToken(connection, credentials) };
    this.#tokens.set(connection.accountId, entry);
    // A failed request is not kept: the next call asks again.
    entry.token.catch(() => {
      if (this.#tokens.get(connection.accountId) === entry) this.#tokens.delete(connection.accountId);
    });
    return { value: (await entry.token).value, kept: false };
  }

  async #requestToken(connection: CarrierConnection, credentials: UpsCredentials): Promise<AccessToken> {
    const askedAt = this.#now();
    const basic = Buffer.from(`${credentials.clientId}:${credentials.clientSecret}`).toString('base64');
    const answer = await callCarrier(connection, {
      method: 'POST',
      path: TOKEN_PATH,
      headers: { authorization: `Basic ${basic}`, 'x-merchant-id': credentials.accountNumber },
      body: { form: { grant_type: 'client_credentials' } },
      answer: tokenAnswer,
      errorText: upsErrorText,
    });
    const lifetimeMs = answer.expires_in * 1000;
    return {
      value: answer.access_token,
      renewAt: askedAt + lifetimeMs - Math.min(TOKEN_RENEWAL_MARGIN_MS, lifetimeMs / 2),
    };
  }
}

/** The process's one UPS client, which keeps the accounts' tokens. */
export const upsClient = new UpsClient();

export function credentialsOf(connection: CarrierConnection): UpsCredentials {
  const parsed = upsCredentials.safeParse(connection.credentials);
  if (parsed.success) return parsed.data;
  const fields = [...new Set(parsed.error.issues.map((issue) => issue.path.join('.')))].join(', ');
  throw new CarrierCallError(
    'credentials',
    `the account's UPS credentials are incomplete or invalid: ${fields}`,
    false,
  );
}

/* ----- the Shop request ----- */

function shopRequest(shipment: ParcelShipment, accountNumber: string) {
  const from = party(shipment.from);
  return {
    RateRequest: {
      Request: { RequestOption: 'Shop', SubVersion: UPS_RATING_SUBVERSION },
      Shipment: {
        // The shipper number is what makes UPS answer the account's negotiated rates.
        Shipper: { ...from, ShipperNumber: accountNumber },
        ShipFrom: from,
        ShipTo: party(shipment.to, shipment.residential),
        PaymentDetails: { ShipmentCharge: [{ Type: '01', BillShipper: { AccountNumber: accountNumber } }] },
        Package: shipment.parcels.map((parcel) => upsPackage(parcel, shipment)),
        ShipmentRatingOptions: { NegotiatedRatesIndicator: 'Y' },
        // Rates change on set dates (fuel weekly, tariffs yearly): price the day it ships.
        DeliveryTimeInformation: {
          PackageBillType: '03',
          Pickup: { Date: shipment.shipDate.replaceAll('-', '') },
        },
      },
    },
  };
}

/** UPS's names are 35 characters at most; the rest is not needed to price. */
const NAME_LENGTH = 35;

function party(address: ParcelAddress, residential = false) {
  return {
    Name: (address.company || address.name).slice(0, NAME_LENGTH),
    AttentionName: address.name.slice(0, NAME_LENGTH),
    Address: {
      AddressLine: [address.address1, address.address2].filter((line): line is string => Boolean(line)),
      City: address.city,
      // UPS takes two-letter codes only (US, CA, MX...); elsewhere the postal code places the address.
      ...(address.state.length === 2 ? { StateProvinceCode: address.state.toUpperCase() } : {}),
      PostalCode: address.zipcode,
      CountryCode: address.country.toUpperCase(),
      ...(residential ? { ResidentialAddressIndicator: 'Y' } : {}),
    },
  };
}

function upsPackage(parcel: Parcel, shipment: ParcelShipment) {
  const dimensions = parcel.dimensions;
  return {
    PackagingType: { Code: '02', Description: 'Package' },
    ...(dimensions
      ? {
          Dimensions: {
            UnitOfMeasurement: DIMENSION_UNITS[shipment.dimensionUnit],
            Length: upsMeasure(dimensions.length, 2, 9, 'length'),
            Width: upsMeasure(dimensions.width, 2, 9, 'width'),
            Height: upsMeasure(dimensions.height, 2, 9, 'height'),
          },
        }
      : {}),
    PackageWeight: {
      UnitOfMeasurement: WEIGHT_UNITS[shipment.weightUnit],
      Weight: upsMeasure(parcel.weight, 1, 6, 'weight'),
    },
  };
}

/**
 * A weight or length as UPS's text field takes it: rounded up (never under-declared) to the places
 * UPS reads, within the field's length; one that does not fit is refused before any call.
 */
export function upsMeasure(value: number, places: number, maxLength: number, what: string): string {
  const scale = 10 ** places;
  // 1.1 × 10 is 11.000000000000002 in floating point: the allowance keeps it at 11, not 12.
  const units = Math.ceil(value * scale - 1e-9);
  const text = String(units / scale);
  if (!(value > 0) || text.length > maxLength) {
    throw new CarrierCallError('refused', `a parcel's ${what} of ${value} is beyond what UPS takes`, false);
  }
  return text;
}

/* ----- the answer ----- */

/**
 * One rated service as a quote: the account's negotiated total when UPS gives one, else the published
 * total. UPS itemizes surcharges (fuel, residential...) that its transportation charge already holds,
 * so the base charge is what the total leaves once the itemized charges, the service options and the
 * taxes are taken out: the breakdown always adds up to the total.
 */
function quoteOf(rated: RatedShipment): CarrierRateQuote {
  const negotiated = rated.NegotiatedRateCharges;
  const total = negotiated
    ? (negotiated.TotalChargesWithTaxes ?? negotiated.TotalCharge)
    : (rated.TotalChargesWithTaxes ?? rated.TotalCharges);
  const extras: RateCharge[] = [
    ...((negotiated ? negotiated.ItemizedCharges : rated.ItemizedCharges) ?? []).map(itemizedCharge),
    // The negotiated charges give no service options of their own; their total holds them.
    ...(!negotiated && rated.ServiceOptionsCharges && rated.ServiceOptionsCharges.MonetaryValue !== 0
      ? [
          {
            kind: 'surcharge' as const,
            name: 'Service options',
            amountCents: rated.ServiceOptionsCharges.MonetaryValue,
          },
        ]
      : []),
    ...((negotiated ? negotiated.TaxCharges : rated.TaxCharges) ?? []).map((tax) => ({
      kind: 'tax' as const,
      name: tax.Type,
      amountCents: tax.MonetaryValue,
    })),
  ];
  const code = rated.Service.Code;
  const baseCents = total.MonetaryValue - extras.reduce((sum, charge) => sum + charge.amountCents, 0);
  if (baseCents < 0) {
    throw new CarrierCallError('malformed', `UPS service ${code}: its charges exceed its total`, false);
  }
  const days = rated.GuaranteedDelivery?.BusinessDaysInTransit;
  return {
    serviceCode: code,
    serviceName: UPS_SERVICE_NAMES[code] ?? rated.Service.Description ?? `UPS service ${code}`,
    currency: total.CurrencyCode,
    totalCents: total.MonetaryValue,
    charges: [{ kind: 'base', name: 'Transportation', amountCents: baseCents }, ...extras],
    negotiated: Boolean(negotiated),
    transitDays: days && /^\d+$/.test(days) ? Number(days) : null,
  };
}

function itemizedCharge(charge: z.infer<typeof upsItemizedCharge>): RateCharge {
  const fuel = charge.Code === UPS_FUEL_SURCHARGE || /fuel/i.test(charge.Description ?? '');
  return {
    kind: fuel ? 'fuel' : 'surcharge',
    name: charge.Description ?? (fuel ? 'Fuel surcharge' : `UPS surcharge ${charge.Code}`),
    amountCents: charge.MonetaryValue,
  };
}
