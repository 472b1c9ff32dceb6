import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { post } from '../lib/http.ts';

export interface Branding {
  tenant: string;
  siteName: string;
  buttonColor: string;
  logoUrl: string | null;
  logoCollapsedUrl: string | null;
  faviconUrl: string | null;
  copyright: string;
  filingNumber: string;
}

/** The tenant's branding for this host (SPEC section 1): title, favicon, logo, colour, footer. */
export function useBranding() {
  const query = useQuery({
    queryKey: ['branding'],
    queryFn: () => post<Branding>('/admin/auth/getHostConfig'),
    staleTime: 60_000,
  });
  const branding = query.data;
  useEffect(() => {
    if (!branding) return;
    document.title = branding.siteName;
    const icon = document.getElementById('favicon') as HTMLLinkElement | null;
    if (icon && branding.faviconUrl) icon.href = branding.faviconUrl;
  }, [branding]);
  return branding;
}
