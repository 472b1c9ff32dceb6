import { z } from 'zod';
import { colorField } from './validation.ts';

const imageUrl = z.string().trim().max(500).nullable();

export const siteConfigBody = z.object({
  siteName: z.string().trim().min(1).max(20, { error: 'validation.siteName' }),
  /** The site name on the English interface; empty shows `siteName` there too. */
  siteNameEn: z.string().trim().max(40).default(''),
  buttonColor: colorField,
  logoUrl: imageUrl,
  logoCollapsedUrl: imageUrl,
  faviconUrl: imageUrl,
  copyright: z.string().trim().max(200),
  copyrightEn: z.string().trim().max(200).default(''),
  filingNumber: z.string().trim().max(100),
  filingHosts: z.array(z.string().trim().toLowerCase().min(1).max(253)).max(20),
});
export type SiteConfig = z.infer<typeof siteConfigBody>;

/** The accounts for which the top bar hides its batch-order buttons (SPEC section 1). */
export const batchOrderHiddenBody = z.object({
  userIds: z.array(z.number().int().positive()).max(500),
});

export const userOptionsQuery = z.object({ keyword: z.string().trim().max(100).default('') });

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
