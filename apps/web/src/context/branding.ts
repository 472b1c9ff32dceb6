import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { post } from '../lib/http.ts';

export interface Branding {
  tenant: string;
  siteName: string;
  /** The English site name; empty means `siteName` in both languages. */
  siteNameEn?: string;
  buttonColor: string;
  logoUrl: string | null;
  logoCollapsedUrl: string | null;
  faviconUrl: string | null;
  copyright: string;
  copyrightEn?: string;
  filingNumber: string;
}

/** The branding the server wrote into the page; none from the dev server. */
function brandingInPage(): Branding | undefined {
  const text = document.getElementById('host-config')?.textContent;
  if (!text) return undefined;
  try {
    return JSON.parse(text) as Branding;
  } catch {
    return undefined;
  }
}
const inPage = brandingInPage();
const pageLoadedAt = Date.now();

/** The tenant's branding for this host (SPEC section 1): title, favicon, logo, colour, footer, in the UI language. */
export function useBranding() {
  const query = useQuery({
    queryKey: ['branding'],
    queryFn: () => post<Branding>('/admin/auth/getHostConfig'),
    staleTime: 60_000,
    // Held from the page: the app's first render already has the tenant's colour and names, and the
    // whole app is not drawn a second time when the answer arrives.
    initialData: inPage,
    initialDataUpdatedAt: pageLoadedAt,
  });
  const { i18n } = useTranslation();
  const en = i18n.language === 'en-US';
  const branding = useMemo(
    () =>
      query.data && {
        ...query.data,
        siteName: (en && query.data.siteNameEn) || query.data.siteName,
        copyright: (en && query.data.copyrightEn) || query.data.copyright,
      },
    [query.data, en],
  );
  useEffect(() => {
    if (!branding) return;
    document.title = branding.siteName;
    const icon = document.getElementById('favicon') as HTMLLinkElement | null;
    if (icon && branding.faviconUrl) icon.href = branding.faviconUrl;
  }, [branding]);
  return branding;
}
