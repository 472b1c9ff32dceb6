import { type KarrioCredentials, karrioCredentials } from '@freight/contracts/carriers';
import { z } from 'zod';
import {
  CarrierCallError,
  type CarrierClient,
  type CarrierConnection,
  type ConnectionCheck,
} from '../connection.ts';
import { callCarrier, connectionCheck } from '../http.ts';
import {
  type CarrierRateQuote,
  carrierMoney,
  type Parcel,
  type ParcelAddress,
  type ParcelShipment,
  type RateCharge,
} from '../parcel.ts';

/**
 * A Karrio server (karrio.io's cloud or the tenant's own): one API in front of the many carriers the
 * account has connected there. Requests follow the document in test/fixtures/carriers/karrio, which
 * the contract tests play back.
 */

export interface KarrioRateOptions {
  /** Karrio's ids of the account's carrier connections to ask; all of them when absent. */
  carrierIds?: string[];
  /** Karrio's service codes (`ups_ground`, `fedex_express_saver`) to price; all when absent. */
  services?: string[];
}

/* ----- answers ----- */

export const karrioReason = z.object({ message: z.string().optional(), code: z.string().optional() });
const karrioError = z.union([
  z.object({ errors: z.array(karrioReason) }),
  z.object({ messages: z.array(karrioReason) }),
  // What its framework answers for a missing or wrong key.
  z.object({ detail: z.string() }),
]);

/** Karrio's reasons in an error answer: `errors[]` or the carriers' `messages[]`, or a bare `detail`. */
export function karrioErrorText(body: unknown): string | undefined {
  const parsed = karrioError.safeParse(body);
  if (!parsed.success) return undefined;
  if ('detail' in parsed.data) return parsed.data.detail;
  return reasonsText('errors' in parsed.data ? parsed.data.errors : parsed.data.messages);
}

export function reasonsText(reasons: z.infer<typeof karrioReason>[]): string | undefined {
  const text = reasons
    .filter((reason) => reason.message)
    .map((reason) => (reason.code ? `${reason.message} (${reason.code})` : reason.message))
    .join('; ');
  return text || undefined;
}

const connectionsAnswer = z.object({ results: z.array(z.unknown()) });

const karrioRate = z.object({
  carrier_name: z.string().min(1),
  service: z.string().nullish(),
  currency: z.string().min(1),
  total_charge: carrierMoney,
  transit_days: z.number().int().nullish(),
  extra_charges: z.array(z.object({ name: z.string().nullish(), amount: carrierMoney.nullish() })).optional(),
  meta: z.record(z.string(), z.unknown()).nullish(),
});
type KarrioRate = z.infer<typeof karrioRate>;

const ratesAnswer = z.object({
  rates: z.array(karrioRate),
  messages: z.array(karrioReason).optional(),
});

/* ----- the client ----- */

/** Karrio's client; it keeps nothing between calls, the key goes with each. */
export class KarrioClient implements CarrierClient {
  readonly kind = 'karrio';

  /** Lists the account's carrier connections: the cheapest read that needs the key. */
  testConnection(connection: CarrierConnection): Promise<ConnectionCheck> {
    return connectionCheck(() =>
      callCarrier(connection, {
        method: 'GET',
        path: '/v1/connections',
        headers: authorization(connection),
        answer: connectionsAnswer,
        errorText: karrioErrorText,
      }),
    );
  }

  /**
   * The prices of the account's connected carriers for the shipment. An empty list with the carriers'
   * messages means every carrier refused it, which is told as a refusal with their words.
   */
  async rates(
    connection: CarrierConnection,
    shipment: ParcelShipment,
    options: KarrioRateOptions = {},
  ): Promise<CarrierRateQuote[]> {
    const answer = await callCarrier(connection, {
      method: 'POST',
      path: '/v1/proxy/rates',
      headers: authorization(connection),
      body: { json: rateRequest(shipment, options) },
      answer: ratesAnswer,
      errorText: karrioErrorText,
    });
    const refusal = answer.rates.length === 0 ? reasonsText(answer.messages ?? []) : undefined;
    if (refusal) throw new CarrierCallError('refused', refusal, false);
    return answer.rates.map(quoteOf);
  }
}

/** The process's one Karrio client. */
export const karrioClient = new KarrioClient();

export function authorization(connection: CarrierConnection): Record<string, string> {
  const parsed = karrioCredentials.safeParse(connection.credentials);
  if (!parsed.success) {
    throw new CarrierCallError('credentials', "the account's Karrio API key is missing or invalid", false);
  }
  const credentials: KarrioCredentials = parsed.data;
  // The document's `Token` scheme; its other one, Basic with the key as user name, works the same.
  return { authorization: `Token ${credentials.apiKey}` };
}

/* ----- the rate request ----- */

function rateRequest(shipment: ParcelShipment, options: KarrioRateOptions) {
  return {
    shipper: karrioAddress(shipment.from, false),
    recipient: karrioAddress(shipment.to, shipment.residential ?? false),
    parcels: shipment.parcels.map((parcel) => karrioParcel(parcel, shipment)),
    services: options.services ?? [],
    carrier_ids: options.carrierIds ?? [],
    // Karrio's options name the day the parcels ship as a local date and time.
    options: { shipping_date: `${shipment.shipDate}T00:00` },
  };
}

/** Karrio's names are 50 characters at most; the rest is not needed to price. */
const NAME_LENGTH = 50;

export function karrioAddress(address: ParcelAddress, residential: boolean) {
  return {
    person_name: address.name.slice(0, NAME_LENGTH),
    ...(address.company ? { company_name: address.company.slice(0, NAME_LENGTH) } : {}),
    ...(address.phone ? { phone_number: address.phone } : {}),
    address_line1: address.address1,
    ...(address.address2 ? { address_line2: address.address2 } : {}),
    city: address.city,
    state_code: address.state,
    postal_code: address.zipcode,
    country_code: address.country.toUpperCase(),
    residential,
  };
}

export function karrioParcel(parcel: Parcel, shipment: ParcelShipment) {
  return {
    weight: parcel.weight,
    weight_unit: shipment.weightUnit === 'kg' ? 'KG' : 'LB',
    ...(parcel.dimensions
      ? {
          length: parcel.dimensions.length,
          width: parcel.dimensions.width,
          height: parcel.dimensions.height,
          dimension_unit: shipment.dimensionUnit === 'cm' ? 'CM' : 'IN',
        }
      : {}),
  };
}

/* ----- the answer ----- */

/**
 * One rate as a quote. Karrio's extra charges usually itemize the whole total (its base charge
 * among them); what they leave unexplained becomes one more line, so the breakdown always adds up.
 */
function quoteOf(rate: KarrioRate): CarrierRateQuote {
  const charges: RateCharge[] = (rate.extra_charges ?? []).flatMap((charge) =>
    charge.amount == null
      ? []
      : [{ kind: chargeKind(charge.name ?? ''), name: charge.name || 'Charge', amountCents: charge.amount }],
  );
  const rest = rate.total_charge - charges.reduce((sum, charge) => sum + charge.amountCents, 0);
  if (rest !== 0) {
    const hasBase = charges.some((charge) => charge.kind === 'base');
    charges.push(
      hasBase
        ? { kind: 'other', name: 'Other charges', amountCents: rest }
        : { kind: 'base', name: 'Base charge', amountCents: rest },
    );
  }
  const serviceName = rate.meta?.service_name;
  return {
    serviceCode: rate.service ? `${rate.carrier_name}:${rate.service}` : rate.carrier_name,
    serviceName:
      typeof serviceName === 'string' && serviceName ? serviceName : (rate.service ?? rate.carrier_name),
    currency: rate.currency,
    totalCents: rate.total_charge,
    charges,
    // Karrio does not say whether a carrier priced the account's contract or its public tariff.
    negotiated: false,
    transitDays: rate.transit_days ?? null,
  };
}

/** Karrio passes each carrier's own charge names through; these are the words they share. */
function chargeKind(name: string): RateCharge['kind'] {
  if (/fuel/i.test(name)) return 'fuel';
  if (/discount|rebate/i.test(name)) return 'other';
  if (/\b(base|freight|transportation)\b/i.test(name)) return 'base';
  if (/\b(tax|vat|gst|hst|pst|qst|duty|duties)\b/i.test(name)) return 'tax';
  return 'surcharge';
}
