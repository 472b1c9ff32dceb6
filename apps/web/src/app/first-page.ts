import { startTransition, useEffect, useState } from 'react';

/**
 * The top bar's counts and feeds (waiting counts, the bell, downloads, feature updates, ads, notice
 * popups) start once the signed-in shell has drawn its first page and the browser has a moment, so
 * on load they neither compete with the page's own scripts and calls nor re-render it half drawn.
 */
let ready = false;
let scheduled = false;
const listeners = new Set<() => void>();

function open() {
  if (ready) return;
  ready = true;
  for (const listener of listeners) listener();
}

/** The first page has rendered (or the shell gave up waiting for it): start the rest when idle. */
export function firstPageShown(): void {
  if (scheduled) return;
  scheduled = true;
  if (typeof window.requestIdleCallback === 'function') window.requestIdleCallback(open, { timeout: 2_000 });
  else setTimeout(open, 200);
}

/**
 * Whether the shell's first page has been drawn; false until then, then true for the page's life. The
 * change is a transition: what it starts (the top bar redrawn, the mobile menu) renders in slices.
 */
export function useFirstPageShown(): boolean {
  const [shown, setShown] = useState(ready);
  useEffect(() => {
    if (ready) {
      setShown(true);
      return;
    }
    const listener = () => startTransition(() => setShown(true));
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  }, []);
  return shown;
}

/** Rendered beside a page's content: its mount means the content is on screen. */
export function FirstPageMark(): null {
  useEffect(firstPageShown, []);
  return null;
}

/** A page that never shows (an error, a slow chunk) must not hold the top bar back for long. */
export const FIRST_PAGE_WAIT_MS = 5_000;
