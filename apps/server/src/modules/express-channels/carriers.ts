import { CARRIER_KINDS, type CarrierKind } from '@freight/contracts/carriers';
import type {
  ExpressBreakdown,
  ExpressRefusal,
  ExpressShipment,
  ParcelBreakdown,
  ShipmentParty,
} from '@freight/contracts/express-rating';
import { rateExpress, shipDateToday } from '@freight/contracts/express-rating';
import { and, eq } from 'drizzle-orm';
import { placesOfZip } from '../addresses/service.ts';
import { BUILTIN_PROVIDER, type CarrierProvider, carrierRegistry } from '../carriers/provider.ts';
import {
  type CarrierRateQuote,
  type CarrierShops,
  carrierShops,
  type ParcelAddress,
  type ParcelShipment,
  rateWithCarrier,
  registerCarrierAccountUses,
} from '../carriers/service.ts';
import { expressChannels } from './schema.ts';
import { type ChannelRow, cachedZoneCharts, channelTerms, zoneChartsOf } from './service.ts';

export type ExpressCarrierProvider = CarrierProvider<
  ChannelRow,
  ExpressShipment,
  ExpressBreakdown,
  ExpressRefusal | 'carrier_failed'
>;

/**
 * The tenant's own tables: a channel's zone chart, price table and surcharge terms price the parcels
 * at the operator's cost. Booking hands nothing outside: the waybill and its tracking number are the
 * operator's, and its scan events are the ones staff record or import.
 */
export const tenantTablesProvider: ExpressCarrierProvider = {
  name: BUILTIN_PROVIDER,
  async rater(db, tenantId, channels) {
    // Held charts cover the enabled channels; a channel priced outside them reads its own.
    const held = await cachedZoneCharts(db, tenantId);
    const missing = channels.filter((c) => !held.has(c.id)).map((c) => c.id);
    const charts = missing.length > 0 ? await zoneChartsOf(db, tenantId, missing) : held;
    return {
      async rate(channel, shipment) {
        const chart = held.get(channel.id) ?? charts.get(channel.id) ?? [];
        const rated = rateExpress(channelTerms(channel, chart), shipment);
        return rated.ok ? { ok: true, cost: rated.breakdown } : rated;
      },
    };
  },
  book: async () => ({ reference: null }),
  track: async () => [],
  cancel: async () => {},
};

/**
 * One end of a parcel as a carrier's rate takes it: the shipment's own where it has them (a quote's
 * sender and recipient), else the country and code with the ZIP's place at home.
 */
function rateAddress(party: ShipmentParty | undefined, zipcode: string, country: string): ParcelAddress {
  if (party)
    return {
      name: party.name || party.company,
      company: party.company || undefined,
      phone: party.phone || undefined,
      address1: party.address1,
      address2: party.address2 || undefined,
      city: party.city,
      state: party.state,
      zipcode: party.zipcode,
      country: party.country,
    };
  const place = country === 'US' ? placesOfZip(zipcode)[0] : undefined;
  return {
    name: 'Shipping desk',
    address1: '-',
    city: place?.city ?? '-',
    state: place?.state ?? '',
    zipcode,
    country,
  };
}

/**
 * The shipment as a carrier's API takes it: one parcel per piece, in the shipment's units, on the day
 * it ships (the carrier prices that day's tariff and fuel). A day already past, such as a booking made
 * after the quote's date, ships today: no carrier takes a pickup in the past.
 */
export function parcelShipmentOf(shipment: ExpressShipment): ParcelShipment {
  const metric = shipment.unitSystem === 'kg_cm';
  const today = shipDateToday();
  return {
    shipDate: shipment.shipDate && shipment.shipDate > today ? shipment.shipDate : today,
    from: rateAddress(shipment.parties?.from, shipment.originZip, 'US'),
    to: rateAddress(shipment.parties?.to, shipment.destinationZip, shipment.destinationCountry),
    parcels: shipment.parcels.flatMap((p) =>
      Array.from({ length: p.quantity }, () => ({
        weight: p.weight,
        dimensions: { length: p.length, width: p.width, height: p.height },
      })),
    ),
    weightUnit: metric ? 'kg' : 'lb',
    dimensionUnit: metric ? 'cm' : 'in',
    residential: shipment.residential,
  };
}

const display = (value: number) => Math.round(value * 100) / 100;

/**
 * A carrier's rate in the breakdown every quote shows: its base charge is the freight, its fuel the
 * fuel, and each other charge it names (surcharges, taxes) a `carrier` line under its own name. The
 * carrier bills the shipment whole: the freight is spread over the pieces by billable weight (whole
 * cents, the rest on the last piece; cents that do not divide stay in the total), and the weights are
 * the channel's own reckoning.
 */
export function carrierBreakdown(
  channel: ChannelRow,
  shipment: ExpressShipment,
  quote: CarrierRateQuote,
): ExpressBreakdown {
  const sum = (kind: string) =>
    quote.charges.filter((c) => c.kind === kind).reduce((total, c) => total + c.amountCents, 0);
  const freight = sum('base');
  const fuel = sum('fuel');
  const surcharges = quote.charges
    .filter((c) => c.kind !== 'base' && c.kind !== 'fuel' && c.amountCents !== 0)
    .map((c) => ({ code: 'carrier' as const, fee: c.amountCents, name: c.name }));
  const weights = shipment.parcels.map((p) => {
    const dim = channel.dimDivisor > 0 ? (p.length * p.width * p.height) / channel.dimDivisor : 0;
    return { actual: p.weight, dim, billable: Math.max(p.weight, dim), quantity: p.quantity };
  });
  const totalBillable = weights.reduce((total, w) => total + w.billable * w.quantity, 0);
  let left = freight;
  const parcels: ParcelBreakdown[] = weights.map((w, i) => {
    const share = totalBillable > 0 ? w.billable / totalBillable : 1 / weights.length;
    const perPiece = i === weights.length - 1 ? Math.floor(left / w.quantity) : Math.floor(freight * share);
    left -= perPiece * w.quantity;
    return {
      actualWeight: display(w.actual),
      dimWeight: display(w.dim),
      billableWeight: display(w.billable),
      quantity: w.quantity,
      freight: perPiece,
      minimumApplied: false,
      surcharges: [],
    };
  });
  return {
    zone: '',
    unitSystem: shipment.unitSystem,
    parcels,
    freight,
    surcharges,
    fuel,
    total: quote.totalCents,
    billableWeight: display(totalBillable),
  };
}

/**
 * A carrier's API through one of the tenant's accounts: each channel names its account and the
 * carrier's service. The quote asks the carrier with no transaction open, within the account's time
 * limit; a carrier that fails says why on the channel's own line. The label is bought after payment
 * (express-waybills/carrier-labels.ts), and tracking comes from the carrier (carrier-tracking.ts).
 */
function carrierAccountProvider(kind: CarrierKind): ExpressCarrierProvider {
  return {
    name: kind,
    async rater(db, tenantId) {
      // Per shipment priced (the quote's channels get the same one): one Shop call per account.
      const asked = new WeakMap<object, { parcel: ParcelShipment; shops: CarrierShops }>();
      return {
        async rate(channel, shipment) {
          if (!channel.carrierAccountId) return { ok: false, reason: 'carrier_failed', failure: 'refused' };
          let ask = asked.get(shipment);
          if (!ask) {
            ask = { parcel: parcelShipmentOf(shipment), shops: carrierShops() };
            asked.set(shipment, ask);
          }
          const rated = await rateWithCarrier(
            db,
            tenantId,
            channel.carrierAccountId,
            channel.carrierService,
            ask.parcel,
            ask.shops,
          );
          if (!rated.ok) return { ok: false, reason: 'carrier_failed', failure: rated.failure };
          if (rated.quote.currency !== channel.currency)
            return { ok: false, reason: 'carrier_failed', failure: 'malformed' };
          return { ok: true, cost: carrierBreakdown(channel, shipment, rated.quote) };
        },
      };
    },
    book: async () => ({ reference: null }),
    track: async () => [],
    cancel: async () => {},
  };
}

/** The express line's carrier providers: channels name theirs in `express_channels.provider`. */
export const expressCarriers = carrierRegistry<ExpressCarrierProvider>('express', [
  tenantTablesProvider,
  ...CARRIER_KINDS.map(carrierAccountProvider),
]);

// A carrier account serving channels is not deleted from under them.
registerCarrierAccountUses(async (db, tenantId, accountId) => {
  const rows = await db
    .select({ code: expressChannels.code })
    .from(expressChannels)
    .where(and(eq(expressChannels.tenantId, tenantId), eq(expressChannels.carrierAccountId, accountId)));
  return rows.map((row) => row.code);
});
