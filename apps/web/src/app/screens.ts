import { useSyncExternalStore } from 'react';

/** antd's default breakpoints that the shell switches on (SPEC section 9: below 992 px is mobile). */
const QUERIES = { lg: '(min-width: 992px)', xxl: '(min-width: 1600px)' } as const;
type Screen = keyof typeof QUERIES;

const lists = new Map<Screen, MediaQueryList>();
const list = (screen: Screen) => {
  let mql = lists.get(screen);
  if (!mql) {
    mql = window.matchMedia(QUERIES[screen]);
    lists.set(screen, mql);
  }
  return mql;
};

/**
 * Whether the window is at least this breakpoint, known on the first render. antd's `Grid.useBreakpoint`
 * starts empty and learns the screen in a layout effect, which made the shell render twice on first
 * paint, the second time as one long synchronous task (and first as a desktop layout on a phone).
 */
export function useScreen(screen: Screen): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const mql = list(screen);
      mql.addEventListener('change', onChange);
      return () => mql.removeEventListener('change', onChange);
    },
    () => list(screen).matches,
  );
}
