import { startTransition, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { get } from '../lib/http.ts';
import { getToken } from '../lib/storage.ts';

const POLL_MS = 10_000;

/** SPEC section 3 "Waiting-count state" (the timer lives in a ref). */
export interface WaitCounts {
  waitNum: number;
  expressWaitNum: number;
  pollingError: boolean;
}

const fetchCounts = () => get<{ waitNum: number; expressWaitNum: number }>('/admin/recharge/waitNum');

/**
 * SPEC section 4: fetched once on load (200 stores both counts and clears the error flag, anything else
 * sets it); with a token a poll repeats every 10 s and updates only the counts; a failed poll stops
 * polling silently; no token, no timer. `refresh` re-reads at once, e.g. after a review.
 */
export function useWaitCountsPoll(token: string | null): WaitCounts & { refresh(): void } {
  const [counts, setCounts] = useState<WaitCounts>({ waitNum: 0, expressWaitNum: 0, pollingError: false });
  // The shell's badges read the counts: a poll that finds them unchanged renders nothing, and a change
  // renders as a transition, in slices, never in one long task.
  const update = useCallback((patch: Partial<WaitCounts>) => {
    startTransition(() =>
      setCounts((c) =>
        (Object.keys(patch) as (keyof WaitCounts)[]).every((key) => c[key] === patch[key])
          ? c
          : { ...c, ...patch },
      ),
    );
  }, []);
  const timer = useRef<number | null>(null);
  useEffect(() => {
    const stop = () => {
      if (timer.current !== null) window.clearInterval(timer.current);
      timer.current = null;
    };
    if (!token) {
      stop();
      update({ waitNum: 0, expressWaitNum: 0, pollingError: false });
      return;
    }
    let cancelled = false;
    fetchCounts()
      .then((data) => {
        if (!cancelled)
          update({ waitNum: data.waitNum, expressWaitNum: data.expressWaitNum, pollingError: false });
      })
      .catch(() => {
        if (!cancelled) update({ pollingError: true });
      });
    timer.current = window.setInterval(() => {
      if (!getToken()) return stop();
      fetchCounts()
        .then((data) => {
          if (!cancelled) update({ waitNum: data.waitNum, expressWaitNum: data.expressWaitNum });
        })
        .catch(stop);
    }, POLL_MS);
    return () => {
      cancelled = true;
      stop();
    };
  }, [token, update]);
  const refresh = useCallback(() => {
    if (!getToken()) return;
    fetchCounts()
      .then((data) => update({ waitNum: data.waitNum, expressWaitNum: data.expressWaitNum }))
      .catch(() => undefined);
  }, [update]);
  return useMemo(() => ({ ...counts, refresh }), [counts, refresh]);
}
