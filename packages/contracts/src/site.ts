import { z } from 'zod';
import { colorField, str } from './validation.ts';

const imageUrl = str().trim().max(500).nullable();

export const siteConfigBody = z.object({
  siteName: str().trim().min(1).max(20, { error: 'validation.siteName' }),
  /** The site name on the English interface; empty shows `siteName` there too. */
  siteNameEn: str().trim().max(40).default(''),
  buttonColor: colorField,
  logoUrl: imageUrl,
  logoCollapsedUrl: imageUrl,
  faviconUrl: imageUrl,
  copyright: str().trim().max(200),
  copyrightEn: str().trim().max(200).default(''),
  filingNumber: str().trim().max(100),
  filingHosts: z.array(str().trim().toLowerCase().min(1).max(253)).max(20),
});
export type SiteConfig = z.infer<typeof siteConfigBody>;

/** One ad of the top strip: a title and an http(s) link. */
export const adItem = z.object({
  title: str().trim().min(1).max(100),
  url: str()
    .trim()
    .max(500)
    .regex(/^https?:\/\/[^\s]+$/i, { error: 'site.adUrlInvalid' }),
});
/** The tenant's own ads, shown while no external ad service is configured. */
export const adsBody = z.object({ ads: z.array(adItem).max(20) });
export const adsConfigView = z.object({
  ads: z.array(z.object({ title: z.string(), url: z.string() })),
  /** An external feed is configured: the tenant's own list is kept but not shown. */
  externalFeed: z.boolean(),
});

/** The accounts for which the top bar hides its batch-order buttons (SPEC section 1). */
export const batchOrderHiddenBody = z.object({
  userIds: z.array(z.number().int().positive()).max(500),
});

export const userOptionsQuery = z.object({ keyword: str().trim().max(100).default('') });

/* ----- responses ----- */

/** What any visitor's browser learns of the tenant before sign-in (`getHostConfig`, `getInfoByDomain`). */
export const publicBrandingView = z.object({
  tenant: z.string(),
  siteName: z.string(),
  siteNameEn: z.string(),
  color_data: z.object({ button: z.string() }),
  buttonColor: z.string(),
  logoUrl: z.string().nullable(),
  logoCollapsedUrl: z.string().nullable(),
  faviconUrl: z.string().nullable(),
  copyright: z.string(),
  copyrightEn: z.string(),
  filingNumber: z.string(),
});

/** The site settings as staff edit them. */
export const siteConfigView = z.object({
  siteName: z.string(),
  siteNameEn: z.string(),
  buttonColor: z.string(),
  logoUrl: z.string().nullable(),
  logoCollapsedUrl: z.string().nullable(),
  faviconUrl: z.string().nullable(),
  copyright: z.string(),
  copyrightEn: z.string(),
  filingNumber: z.string(),
  filingHosts: z.array(z.string()),
});

/** An account as a picker shows it. */
export const userOption = z.object({
  id: z.number().int(),
  email: z.string(),
  name: z.string(),
  company: z.string(),
});
export const batchOrderHiddenView = z.object({ users: z.array(userOption) });
export const userOptionsView = z.object({ list: z.array(userOption) });
