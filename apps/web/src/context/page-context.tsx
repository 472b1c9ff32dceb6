import { createContext, useContext } from 'react';

/** What a page knows about itself: its tab path and query, its title, its granted button keys. */
export interface PageContextValue {
  path: string;
  search: string;
  title: string;
  buttons: string[];
}

export const PageContext = createContext<PageContextValue>({ path: '/', search: '', title: '', buttons: [] });

export const useCurrentPage = () => useContext(PageContext);

/** The page's own query string, even while its tab is hidden behind another. */
export function usePageQuery(): URLSearchParams {
  return new URLSearchParams(useCurrentPage().search);
}
