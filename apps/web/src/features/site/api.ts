import { post } from '../../lib/http.ts';

export interface SiteConfig {
  siteName: string;
  siteNameEn: string;
  buttonColor: string;
  logoUrl: string | null;
  logoCollapsedUrl: string | null;
  faviconUrl: string | null;
  copyright: string;
  copyrightEn: string;
  filingNumber: string;
  /** Hosts on which the filing number shows (SPEC section 1). */
  filingHosts: string[];
}

export const siteApi = {
  info: () => post<SiteConfig>('/admin/site/info'),
  save: (config: SiteConfig) => post('/admin/site/save', config),
};

export interface AccountOption {
  id: number;
  email: string;
  name: string;
  company: string;
}

export const batchOrderApi = {
  info: () => post<{ users: AccountOption[] }>('/admin/site/batchOrder/info'),
  save: (userIds: number[]) => post('/admin/site/batchOrder/save', { userIds }),
  search: (keyword: string) => post<{ list: AccountOption[] }>('/admin/site/userOptions', { keyword }),
};
