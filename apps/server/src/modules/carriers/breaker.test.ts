import { afterEach, describe, expect, it } from 'vitest';
import { BREAKER_FAILURES, BREAKER_OPEN_MS, resetBreakers, throughBreaker } from './breaker.ts';
import { CarrierCallError } from './connection.ts';

afterEach(() => resetBreakers());

const down = () => Promise.reject(new CarrierCallError('timeout', 'no answer in 1 s', true));
const refused = () => Promise.reject(new CarrierCallError('refused', 'bad ZIP', false));
const up = () => Promise.resolve('rated');

/** The failure a call through the breaker ended with. */
async function failureOf(call: Promise<unknown>) {
  const error = await call.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(CarrierCallError);
  return (error as CarrierCallError).failure;
}

describe('the circuit breaker of a carrier account', () => {
  it('opens after a run of timeouts: calls fail at once, then one trial call closes it again', async () => {
    let now = 1_000_000;
    const clock = () => now;
    for (let i = 0; i < BREAKER_FAILURES; i++)
      expect(await failureOf(throughBreaker(1, 7, down, clock))).toBe('timeout');
    let called = false;
    const watched = () => {
      called = true;
      return up();
    };
    // Open: the carrier is not called at all.
    expect(await failureOf(throughBreaker(1, 7, watched, clock))).toBe('unavailable');
    expect(called).toBe(false);
    // Another account of the tenant, and the same id in another tenant, are not held up.
    await expect(throughBreaker(1, 8, up, clock)).resolves.toBe('rated');
    await expect(throughBreaker(2, 7, up, clock)).resolves.toBe('rated');
    // After the pause one trial call goes through; it succeeds, and calls flow again.
    now += BREAKER_OPEN_MS;
    await expect(throughBreaker(1, 7, watched, clock)).resolves.toBe('rated');
    expect(called).toBe(true);
    await expect(throughBreaker(1, 7, up, clock)).resolves.toBe('rated');
  });

  it('opens again at once when the trial call fails', async () => {
    let now = 0;
    const clock = () => now;
    for (let i = 0; i < BREAKER_FAILURES; i++) await failureOf(throughBreaker(1, 7, down, clock));
    now += BREAKER_OPEN_MS;
    expect(await failureOf(throughBreaker(1, 7, down, clock))).toBe('timeout');
    expect(await failureOf(throughBreaker(1, 7, up, clock))).toBe('unavailable');
  });

  it('counts refusals as answers: a carrier that says no is up', async () => {
    for (let i = 0; i < BREAKER_FAILURES * 2; i++) {
      await failureOf(throughBreaker(1, 7, i % 2 === 0 ? down : refused));
    }
    await expect(throughBreaker(1, 7, up)).resolves.toBe('rated');
  });
});
