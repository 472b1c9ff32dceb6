import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { resetBreakers } from '../src/modules/carriers/breaker.ts';
import { CarrierCallError, type CarrierConnection } from '../src/modules/carriers/connection.ts';
import type { ParcelAddress } from '../src/modules/carriers/parcel.ts';
import { type CarrierMock, type CarrierMockOptions, startCarrierMock } from './carrier-stand-in.ts';

export * from './carrier-stand-in.ts';

/**
 * The mock of a test file: started before its first test and closed after its last; after each test
 * every request it had is checked to keep to the documents (a test that provokes violations clears
 * them). The answer stands for the live mock from the first test on.
 */
export function useCarrierMock(options: CarrierMockOptions): CarrierMock {
  let live: CarrierMock | undefined;
  beforeAll(async () => {
    live = await startCarrierMock(options);
  });
  afterEach(() => {
    // A test's failing carrier must not leave the next test's calls paused.
    resetBreakers();
    if (!live) return;
    const violations = [...live.violations];
    live.reset();
    expect(violations).toEqual([]);
  });
  afterAll(() => live?.close());
  return new Proxy({} as CarrierMock, {
    get(_target, key) {
      if (!live) throw new Error('the carrier mock starts before the first test');
      const value = Reflect.get(live, key);
      return typeof value === 'function' ? value.bind(live) : value;
    },
  });
}

let lastAccountId = 70_000;

/** A connection to the mock for an account of its own, so no token kept for another test is reused. */
export function mockConnection(
  mock: CarrierMock,
  credentials: Record<string, string>,
  changes: Partial<CarrierConnection> = {},
): CarrierConnection {
  lastAccountId += 1;
  return {
    accountId: lastAccountId,
    tenantId: 1,
    baseUrl: mock.url,
    credentials,
    timeoutMs: 2_000,
    allowPrivate: true,
    ...changes,
  };
}

/** The shipper of the carrier tests: a dock in Los Angeles. */
export const LOS_ANGELES_SHIPPER: ParcelAddress = {
  name: 'Pat Shipper',
  company: 'Acme Parts',
  phone: '2135550100',
  address1: '100 Main St',
  city: 'Los Angeles',
  state: 'CA',
  zipcode: '90001',
  country: 'US',
};

/** The failure of a carrier call that must fail, checked to hold none of the given secrets. */
export async function carrierFailure(
  call: Promise<unknown>,
  secrets: readonly string[],
): Promise<CarrierCallError> {
  const error = await call.then(
    () => expect.unreachable('the call succeeded'),
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(CarrierCallError);
  const detail = (error as CarrierCallError).detail;
  for (const secret of secrets) expect(detail).not.toContain(secret);
  return error as CarrierCallError;
}
