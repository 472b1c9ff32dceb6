import { useCallback, useMemo, useSyncExternalStore } from 'react';

/**
 * Whether the page matches a media query, read while rendering. The first render already has the right
 * answer, where antd's breakpoint hook answers after mounting and then renders everything below it
 * again, synchronously, in one long task.
 */
export function useMediaQuery(query: string): boolean {
  const list = useMemo(() => window.matchMedia(query), [query]);
  const subscribe = useCallback(
    (changed: () => void) => {
      list.addEventListener('change', changed);
      return () => list.removeEventListener('change', changed);
    },
    [list],
  );
  return useSyncExternalStore(subscribe, () => list.matches);
}
