import {
  createContext,
  lazy,
  type ReactNode,
  Suspense,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
} from 'react';
import { setHttpHooks } from '../lib/http.ts';

export interface ErrorEntry {
  id: number;
  route: string;
  message: string;
  details: string;
}

const ErrorLogContext = createContext<{ entries: ErrorEntry[]; clear(): void }>({
  entries: [],
  clear: () => undefined,
});

let nextId = 1;

/** Collects script errors, unhandled rejections and refused API calls for the floating error-log panel. */
export function ErrorLogProvider({ children }: { children: ReactNode }) {
  const [entries, setEntries] = useState<ErrorEntry[]>([]);
  const add = useCallback((message: string, details: string) => {
    setEntries((list) =>
      [{ id: nextId++, route: window.location.pathname, message, details }, ...list].slice(0, 100),
    );
  }, []);
  useEffect(() => {
    const onError = (event: ErrorEvent) => add(event.message, event.error?.stack ?? '');
    const onRejection = (event: PromiseRejectionEvent) =>
      add(String(event.reason?.message ?? event.reason), String(event.reason?.stack ?? ''));
    window.addEventListener('error', onError);
    window.addEventListener('unhandledrejection', onRejection);
    setHttpHooks({ onApiError: (e) => add(e.message, `${e.url} ${e.details}`) });
    return () => {
      window.removeEventListener('error', onError);
      window.removeEventListener('unhandledrejection', onRejection);
    };
  }, [add]);
  const value = useMemo(() => ({ entries, clear: () => setEntries([]) }), [entries]);
  return <ErrorLogContext.Provider value={value}>{children}</ErrorLogContext.Provider>;
}

// The panel (a table in a drawer) is only needed once something has gone wrong: its own chunk.
const ErrorLogPanel = lazy(() => import('./layout/ErrorLogPanel.tsx'));

export function ErrorLogButton() {
  const { entries, clear } = useContext(ErrorLogContext);
  const [open, setOpen] = useState(false);
  if (entries.length === 0 && !open) return null;
  return (
    <Suspense fallback={null}>
      <ErrorLogPanel entries={entries} clear={clear} open={open} setOpen={setOpen} />
    </Suspense>
  );
}
