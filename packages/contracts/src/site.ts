import { z } from 'zod';
import { colorField } from './validation.ts';

const imageUrl = z.string().trim().max(500).nullable();

export const siteConfigBody = z.object({
  siteName: z.string().trim().min(1).max(20, { error: 'validation.siteName' }),
  buttonColor: colorField,
  logoUrl: imageUrl,
  logoCollapsedUrl: imageUrl,
  faviconUrl: imageUrl,
  copyright: z.string().trim().max(200),
  filingNumber: z.string().trim().max(100),
  filingHosts: z.array(z.string().trim().toLowerCase().min(1).max(253)).max(20),
});
export type SiteConfig = z.infer<typeof siteConfigBody>;

/** The accounts for which the top bar hides its batch-order buttons (SPEC section 1). */
export const batchOrderHiddenBody = z.object({
  userIds: z.array(z.number().int().positive()).max(500),
});

export const userOptionsQuery = z.object({ keyword: z.string().trim().max(100).default('') });
