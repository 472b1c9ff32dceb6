import { useEffect, useState, useSyncExternalStore } from 'react';

/** SPEC section 9: the progress bar moves at 500 ms a step. */
export const PROGRESS_SPEED_MS = 500;

/**
 * The thin bar across the top while a page is on its way (SPEC section 9). Anything waiting for a page
 * holds it open (`useProgressWhile`); a route change alone runs it once from start to end.
 */
let holders = 0;
let runs = 0;
const listeners = new Set<() => void>();
const emit = () => {
  for (const listener of listeners) listener();
};
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};
const snapshot = () => `${holders}:${runs}`;

/** Holds the bar open while the calling component is mounted (e.g. a Suspense fallback). */
export function useProgressWhile(): void {
  useEffect(() => {
    holders++;
    emit();
    return () => {
      holders--;
      emit();
    };
  }, []);
}

/** Runs the bar once (a navigation to a page already loaded). */
export function progressPulse(): void {
  runs++;
  emit();
}

export function TopProgress() {
  const state = useSyncExternalStore(subscribe, snapshot);
  const busy = holders > 0;
  // `run` renews the bar's element for each start, so it grows from the left rather than shrinking back.
  const [bar, setBar] = useState<{ run: number; width: number } | null>(null);

  // A run or a hold starts the bar; each step of 500 ms takes it part of the way left, never to the end.
  // biome-ignore lint/correctness/useExhaustiveDependencies: `state` is the change that starts a run
  useEffect(() => {
    setBar((b) => (b && b.width < 100 ? b : { run: (b?.run ?? 0) + 1, width: 8 }));
    const step = window.setInterval(
      () => setBar((b) => (b && b.width < 100 ? { ...b, width: b.width + (94 - b.width) * 0.3 } : b)),
      PROGRESS_SPEED_MS,
    );
    return () => window.clearInterval(step);
  }, [state]);

  // Nothing holds it: it runs to the end, then fades.
  const running = bar !== null && bar.width < 100;
  useEffect(() => {
    if (busy || !running) return;
    const finish = window.setTimeout(() => setBar((b) => b && { ...b, width: 100 }), PROGRESS_SPEED_MS / 2);
    return () => window.clearTimeout(finish);
  }, [busy, running]);
  const finished = bar?.width === 100;
  useEffect(() => {
    if (!finished) return;
    const hide = window.setTimeout(() => setBar(null), PROGRESS_SPEED_MS);
    return () => window.clearTimeout(hide);
  }, [finished]);

  if (!bar) return null;
  return (
    <div
      key={bar.run}
      className="top-progress"
      data-testid="top-progress"
      data-state={finished ? 'done' : 'loading'}
      style={{
        width: `${bar.width}%`,
        opacity: finished ? 0 : 1,
        transition: `width ${PROGRESS_SPEED_MS}ms ease, opacity ${PROGRESS_SPEED_MS}ms ease`,
      }}
    />
  );
}
