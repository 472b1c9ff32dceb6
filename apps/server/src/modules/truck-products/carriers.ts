import type { RatingBreakdown, RatingRefusal } from '@freight/contracts/truck-rating';
import type { Shipment } from '@freight/contracts/truck-shipment';
import { BUILTIN_PROVIDER, type CarrierProvider, carrierRegistry } from '../carriers/provider.ts';
import { lanesByProduct, type ProductRow, rateFromTables } from './service.ts';

/** Why a truck provider cannot carry a shipment with a product. */
export type TruckRefusal = RatingRefusal | 'no_lane';

export type TruckCarrierProvider = CarrierProvider<ProductRow, Shipment, RatingBreakdown, TruckRefusal>;

/**
 * The tenant's own tables: a product's lanes and terms price the shipment. The tenant carries the
 * freight itself, so there is nobody outside to tell: booking is the order entering the order
 * machine, tracking is the order's own timeline, cancelling is the order's cancel or reject.
 */
export const tenantTablesProvider: TruckCarrierProvider = {
  name: BUILTIN_PROVIDER,
  async rater(db, tenantId, products) {
    const lanes = await lanesByProduct(
      db,
      tenantId,
      products.map((p) => p.id),
    );
    return {
      async rate(product, shipment) {
        const rated = rateFromTables(product, lanes.get(product.id) ?? [], shipment);
        return rated.ok ? { ok: true, cost: rated.breakdown } : rated;
      },
    };
  },
  // No carrier reference: the order number is the only one.
  book: async () => ({ reference: null }),
  // Every event is on the order's timeline already; no carrier adds any.
  track: async () => [],
  cancel: async () => {},
};

/** The truck line's carrier providers: products name theirs in `truck_products.provider`. */
export const truckCarriers = carrierRegistry<TruckCarrierProvider>('truck', [tenantTablesProvider]);
