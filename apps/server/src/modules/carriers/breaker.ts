import { CarrierCallError } from './connection.ts';

/**
 * A circuit breaker per carrier account, in this process: after a run of failures that say the carrier
 * is down or too slow (timeouts, unreachable, 5xx), its calls fail at once for a while instead of each
 * waiting out its time limit, so a carrier in trouble neither holds up quotes nor piles up label jobs.
 * Then one call is let through: if it succeeds the account is closed again, else it stays open.
 * A refusal (bad credentials, a parcel the carrier will not take) says the carrier is up: it resets
 * the count like a success.
 */

export const BREAKER_FAILURES = 5;
export const BREAKER_OPEN_MS = 30_000;

interface BreakerState {
  failures: number;
  /** While now is before this, calls fail at once; 0 when closed. */
  openUntil: number;
  /** A trial call is out while the breaker is half open. */
  trial: boolean;
}

const states = new Map<string, BreakerState>();

const keyOf = (tenantId: number, accountId: number) => `${tenantId}:${accountId}`;

/** Runs a call to the account's carrier through its breaker. */
export async function throughBreaker<T>(
  tenantId: number,
  accountId: number,
  call: () => Promise<T>,
  now: () => number = Date.now,
): Promise<T> {
  const key = keyOf(tenantId, accountId);
  let state = states.get(key);
  if (!state) {
    state = { failures: 0, openUntil: 0, trial: false };
    states.set(key, state);
  }
  if (state.openUntil > 0) {
    if (now() < state.openUntil || state.trial)
      throw new CarrierCallError(
        'unavailable',
        `the carrier failed ${state.failures} calls in a row; calls are paused until ${new Date(state.openUntil).toISOString()}`,
        true,
      );
    state.trial = true;
  }
  try {
    const answer = await call();
    states.delete(key);
    return answer;
  } catch (error) {
    if (error instanceof CarrierCallError && error.retryable) {
      state.failures += 1;
      state.trial = false;
      if (state.failures >= BREAKER_FAILURES || state.openUntil > 0)
        state.openUntil = now() + BREAKER_OPEN_MS;
    } else states.delete(key);
    throw error;
  }
}

/** Closes every breaker: for tests that start from a carrier that has not failed. */
export function resetBreakers() {
  states.clear();
}
