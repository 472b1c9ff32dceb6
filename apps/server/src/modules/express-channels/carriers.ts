import type { ExpressBreakdown, ExpressRefusal, ExpressShipment } from '@freight/contracts/express-rating';
import { rateExpress } from '@freight/contracts/express-rating';
import { BUILTIN_PROVIDER, type CarrierProvider, carrierRegistry } from '../carriers/provider.ts';
import { type ChannelRow, channelTerms, zoneChartsOf } from './service.ts';

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
    const charts = await zoneChartsOf(
      db,
      tenantId,
      channels.map((c) => c.id),
    );
    return {
      async rate(channel, shipment) {
        const rated = rateExpress(channelTerms(channel, charts.get(channel.id) ?? []), shipment);
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
