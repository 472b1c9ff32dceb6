import { useEffect, useRef, useState } from 'react';
import { get } from '../lib/http.ts';
import { getToken } from '../lib/storage.ts';

const POLL_MS = 10_000;

export interface WaitCounts {
  waitNum: number;
  expressWaitNum: number;
  pollingError: boolean;
}

/**
 * SPEC section 4: fetched once on load; with a token a poll repeats every 10 s and updates only the
 * counts; a failed poll stops polling silently; no token, no timer.
 */
export function useWaitCounts(signedIn: boolean): WaitCounts {
  const [counts, setCounts] = useState<WaitCounts>({ waitNum: 0, expressWaitNum: 0, pollingError: false });
  const timer = useRef<number | null>(null);
  useEffect(() => {
    const stop = () => {
      if (timer.current !== null) window.clearInterval(timer.current);
      timer.current = null;
    };
    if (!signedIn || !getToken()) {
      stop();
      return;
    }
    let cancelled = false;
    const fetchCounts = () => get<{ waitNum: number; expressWaitNum: number }>('/admin/recharge/waitNum');
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
        .then((data) =>
          setCounts((c) => ({ ...c, waitNum: data.waitNum, expressWaitNum: data.expressWaitNum })),
        )
        .catch(stop);
    }, POLL_MS);
    return () => {
      cancelled = true;
      stop();
    };
  }, [signedIn]);
  return counts;
}
