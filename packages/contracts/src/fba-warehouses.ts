/** An Amazon fulfilment centre that shipments are delivered to (SPEC section 7 `address/getAmazonAddress`). */
export interface FbaWarehouse {
  /** Amazon's site code, as sellers write it on a shipment plan. */
  code: string;
  name: string;
  address1: string;
  city: string;
  state: string;
  zipcode: string;
  country: string;
}

const fc = (code: string, address1: string, city: string, state: string, zipcode: string): FbaWarehouse => ({
  code,
  name: `Amazon ${code}`,
  address1,
  city,
  state,
  zipcode,
  country: 'US',
});

/**
 * Well-known US fulfilment centres that truck freight goes to. The list ships with each release (no
 * feed of Amazon's is read at run time); see docs/decisions.md.
 */
export const FBA_WAREHOUSES: readonly FbaWarehouse[] = [
  fc('ONT8', '24300 Nandina Ave', 'Moreno Valley', 'CA', '92551'),
  fc('ONT6', '24208 San Michele Rd', 'Moreno Valley', 'CA', '92551'),
  fc('LGB8', '1568 N Linden Ave', 'Rialto', 'CA', '92376'),
  fc('LAX9', '11263 Oleander Ave', 'Fontana', 'CA', '92337'),
  fc('SBD1', '1494 S Waterman Ave', 'San Bernardino', 'CA', '92408'),
  fc('OAK4', '1555 N Chrisman Rd', 'Tracy', 'CA', '95304'),
  fc('SMF1', '4900 W Elkhorn Blvd', 'Sacramento', 'CA', '95835'),
  fc('PHX6', '4750 W Mohave St', 'Phoenix', 'AZ', '85043'),
  fc('PHX7', '800 N 75th Ave', 'Phoenix', 'AZ', '85043'),
  fc('LAS1', '12300 Bermuda Rd', 'Henderson', 'NV', '89044'),
  fc('BFI4', '21005 64th Ave S', 'Kent', 'WA', '98032'),
  fc('FTW1', '33333 LBJ Fwy', 'Dallas', 'TX', '75241'),
  fc('DFW7', '700 Westport Pkwy', 'Fort Worth', 'TX', '76177'),
  fc('SAT1', '6000 Enterprise Ave', 'Schertz', 'TX', '78154'),
  fc('MDW2', '250 Emerald Dr', 'Joliet', 'IL', '60433'),
  fc('MKE1', '3501 120th Ave', 'Kenosha', 'WI', '53144'),
  fc('IND9', '1151 S Graham Rd', 'Greenwood', 'IN', '46143'),
  fc('SDF8', '900 Patrol Rd', 'Jeffersonville', 'IN', '47130'),
  fc('BNA3', '2020 Joe B Jackson Pkwy', 'Murfreesboro', 'TN', '37127'),
  fc('CHA2', '7200 Discovery Dr', 'Chattanooga', 'TN', '37416'),
  fc('ABE8', '401 Independence Rd', 'Florence', 'NJ', '08518'),
  fc('EWR4', '50 New Canton Way', 'Robbinsville', 'NJ', '08691'),
  fc('AVP1', '550 Oak Ridge Rd', 'Hazleton', 'PA', '18202'),
  fc('BWI2', '2010 Broening Hwy', 'Baltimore', 'MD', '21224'),
  fc('RIC2', '1901 Meadowville Technology Pkwy', 'Chester', 'VA', '23836'),
  fc('CLT2', '10240 Old Dowd Rd', 'Charlotte', 'NC', '28214'),
  fc('ATL6', '4200 N Commerce Dr', 'East Point', 'GA', '30344'),
  fc('JAX3', '13333 103rd St', 'Jacksonville', 'FL', '32221'),
  fc('TPA1', '3350 Laurel Ridge Ave', 'Ruskin', 'FL', '33570'),
  fc('MCO1', '12340 Boggy Creek Rd', 'Orlando', 'FL', '32824'),
];

/** Warehouses whose code, city, state or ZIP contains the keyword (all of them without one). */
export function findFbaWarehouses(keyword?: string): FbaWarehouse[] {
  const k = keyword?.trim().toUpperCase();
  if (!k) return [...FBA_WAREHOUSES];
  return FBA_WAREHOUSES.filter((w) =>
    [w.code, w.city.toUpperCase(), w.state, w.zipcode, w.address1.toUpperCase()].some((v) => v.includes(k)),
  );
}

/** The warehouse of a code, case-insensitive. */
export function fbaWarehouse(code: string): FbaWarehouse | undefined {
  const c = code.trim().toUpperCase();
  return FBA_WAREHOUSES.find((w) => w.code === c);
}
