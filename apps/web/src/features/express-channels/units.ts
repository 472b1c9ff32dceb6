import type { UnitSystem } from '@freight/contracts/express-rating';

/** The weight and length units a channel's limits, brackets and surcharge thresholds are written in. */
export const UNITS: Record<UnitSystem, { weight: 'lb' | 'kg'; length: 'in' | 'cm'; volume: string }> = {
  lb_in: { weight: 'lb', length: 'in', volume: 'in³' },
  kg_cm: { weight: 'kg', length: 'cm', volume: 'cm³' },
};
