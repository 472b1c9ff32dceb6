import type { Wire } from '@freight/contracts/responses';
import type {
  adsConfigView,
  batchOrderHiddenView,
  siteConfigView,
  userOption,
  userOptionsView,
} from '@freight/contracts/site';
import { post } from '../../lib/http.ts';

/** The site settings as staff edit them; the save takes the same shape. */
export type SiteConfig = Wire<typeof siteConfigView>;

export const siteApi = {
  info: () => post<SiteConfig>('/admin/site/info'),
  save: (config: SiteConfig) => post('/admin/site/save', config),
};

export type AccountOption = Wire<typeof userOption>;

export const batchOrderApi = {
  info: () => post<Wire<typeof batchOrderHiddenView>>('/admin/site/batchOrder/info'),
  save: (userIds: number[]) => post('/admin/site/batchOrder/save', { userIds }),
  search: (keyword: string) => post<Wire<typeof userOptionsView>>('/admin/site/userOptions', { keyword }),
};

export type Ad = { title: string; url: string };

export const adsApi = {
  info: () => post<Wire<typeof adsConfigView>>('/admin/site/ads/info'),
  save: (ads: Ad[]) => post('/admin/site/ads/save', { ads }),
};
