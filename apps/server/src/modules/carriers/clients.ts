import type { CarrierKind } from '@freight/contracts/carriers';
import type { CarrierClient, CarrierConnection } from './connection.ts';
import { karrioClient } from './karrio/client.ts';
import type { CarrierRateQuote, ParcelShipment } from './parcel.ts';
import { upsClient } from './ups/client.ts';

/** Each kind of carrier account's client: adding a carrier is its folder and one line here. */
const CLIENTS: Record<CarrierKind, CarrierClient> = { ups: upsClient, karrio: karrioClient };

export const clientFor = (kind: CarrierKind): CarrierClient => CLIENTS[kind];

/**
 * Every service's rate in one call, where the carrier offers that (UPS's Shop): the answer several
 * channels on one account share. Null for a carrier asked one service at a time.
 */
export async function shopOf(
  kind: CarrierKind,
  connection: CarrierConnection,
  shipment: ParcelShipment,
): Promise<CarrierRateQuote[] | null> {
  return kind === 'ups' ? upsClient.rateShop(connection, shipment) : null;
}

/**
 * The rate of one service: UPS shops every service in one call and the one asked for is kept; Karrio
 * is asked for that service (`carrier:service`, as its rates name them). Null when the carrier
 * offers none for the shipment.
 */
export async function ratesOf(
  kind: CarrierKind,
  connection: CarrierConnection,
  shipment: ParcelShipment,
  serviceCode: string,
): Promise<CarrierRateQuote | null> {
  if (kind === 'ups') {
    const quotes = await upsClient.rateShop(connection, shipment);
    return quotes.find((quote) => quote.serviceCode === serviceCode) ?? null;
  }
  const service = serviceCode.includes(':') ? serviceCode.slice(serviceCode.indexOf(':') + 1) : serviceCode;
  const quotes = await karrioClient.rates(connection, shipment, { services: [service] });
  return (
    quotes.find(
      (quote) => quote.serviceCode === serviceCode || quote.serviceCode.endsWith(`:${serviceCode}`),
    ) ?? null
  );
}
