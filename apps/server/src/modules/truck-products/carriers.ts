import type { RatingBreakdown, RatingRefusal } from '@freight/contracts/truck-rating';
import type { Shipment } from '@freight/contracts/truck-shipment';
import { BUILTIN_PROVIDER, type CarrierProvider, carrierRegistry } from '../carriers/provider.ts';
import { lanesByProduct, type ProductRow, rateFromTables, tenantTariffs } from './service.ts';

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
    // Held lanes cover the enabled products; a product priced outside them reads its own.
    const held = (await tenantTariffs(db, tenantId)).lanes;
    const enabled = new Set((await tenantTariffs(db, tenantId)).products.map((p) => p.id));
    const missing = products.filter((p) => !enabled.has(p.id)).map((p) => p.id);
    const own = missing.length > 0 ? await lanesByProduct(db, tenantId, missing) : new Map();
    return {
      async rate(product, shipment) {
        const lanes = (enabled.has(product.id) ? held.get(product.id) : own.get(product.id)) ?? [];
        const rated = rateFromTables(product, lanes, shipment);
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
