import type { ExpressBreakdown, ExpressRefusal, ExpressShipment } from '@freight/contracts/express-rating';
import { rateExpress } from '@freight/contracts/express-rating';
import { BUILTIN_PROVIDER, type CarrierProvider, carrierRegistry } from '../carriers/provider.ts';
import { type ChannelRow, cachedZoneCharts, channelTerms, zoneChartsOf } from './service.ts';

export type ExpressCarrierProvider = CarrierProvider<
  ChannelRow,
  ExpressShipment,
  ExpressBreakdown,
  ExpressRefusal
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

/** The express line's carrier providers: channels name theirs in `express_channels.provider`. */
export const expressCarriers = carrierRegistry<ExpressCarrierProvider>('express', [tenantTablesProvider]);
