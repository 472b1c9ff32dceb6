import type { ReactNode } from 'react';
import { useCurrentPage } from '../context/page-context.tsx';

/** SPEC section 5: a button with a permission key shows only if the current page's buttons include it. */
export function useAuth(): (key: string) => boolean {
  const page = useCurrentPage();
  return (key) => page.buttons.includes(key);
}

export function Auth({ code, children }: { code: string; children: ReactNode }) {
  const allowed = useAuth();
  return allowed(code) ? children : null;
}
