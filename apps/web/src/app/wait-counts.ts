import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
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
export function useWaitCounts(token: string | null): WaitCounts & { refresh(): void } {
  const [counts, setCounts] = useState<WaitCounts>({ waitNum: 0, expressWaitNum: 0, pollingError: false });
  const timer = useRef<number | null>(null);
  useEffect(() => {
    const stop = () => {
      if (timer.current !== null) window.clearInterval(timer.current);
      timer.current = null;
    };
    if (!token) {
      stop();
      setCounts({ waitNum: 0, expressWaitNum: 0, pollingError: false });
      return;
    }
    let cancelled = false;
    fetchCounts()
      .then((data) => {
        if (!cancelled)
          setCounts({ waitNum: data.waitNum, expressWaitNum: data.expressWaitNum, pollingError: false });
      })
      .catch(() => {
        if (!cancelled) setCounts((c) => ({ ...c, pollingError: true }));
      });
    timer.current = window.setInterval(() => {
      if (!getToken()) return stop();
      fetchCounts()
        .then((data) => {
          if (!cancelled)
            setCounts((c) => ({ ...c, waitNum: data.waitNum, expressWaitNum: data.expressWaitNum }));
        })
        .catch(stop);
    }, POLL_MS);
    return () => {
      cancelled = true;
      stop();
    };
  }, [token]);
  const refresh = useCallback(() => {
    if (!getToken()) return;
    fetchCounts()
      .then((data) =>
        setCounts((c) => ({ ...c, waitNum: data.waitNum, expressWaitNum: data.expressWaitNum })),
      )
      .catch(() => undefined);
  }, []);
  return useMemo(() => ({ ...counts, refresh }), [counts, refresh]);
}
