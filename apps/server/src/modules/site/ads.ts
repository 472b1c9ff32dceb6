import { adItem } from '@freight/contracts/site';
import { z } from 'zod';
import type { RequestTenant } from '../../plugins/context.ts';

export interface Ad {
  title: string;
  url: string;
}

/** How long the strip waits for the external feed before it shows nothing. */
export const AD_FEED_TIMEOUT_MS = 2_000;
/** How long one process keeps the feed's answer (or its failure) before asking again. */
export const AD_FEED_TTL_MS = 60_000;
const MAX_ADS = 20;

/** The feed answers a list of `{title, url}`, bare or inside `list` or `data` (SPEC section 7). */
const feedShape = z.union([
  z.array(z.unknown()),
  z.object({ list: z.array(z.unknown()) }).transform((f) => f.list),
  z.object({ data: z.array(z.unknown()) }).transform((f) => f.data),
  z.object({ data: z.object({ list: z.array(z.unknown()) }) }).transform((f) => f.data.list),
]);

const feedCache = new Map<string, { until: number; ads: Promise<Ad[]> }>();

/** Forgets the feed's answers (tests start each case afresh). */
export function forgetCachedAds(): void {
  feedCache.clear();
}

/**
 * The ads of the top strip: the external feed's when `AD_SERVICE_URL` is set, else the tenant's own
 * list. A feed that is slow, down, or answers anything but a list gives no ads, never an error: the
 * strip is then hidden. Items whose link is not http(s) are dropped, so a feed cannot plant a script link.
 */
export function adsFor(tenant: Pick<RequestTenant, 'settings'>, feedUrl: string | undefined): Promise<Ad[]> {
  if (!feedUrl) return Promise.resolve(tenant.settings.ads ?? []);
  const now = Date.now();
  const hit = feedCache.get(feedUrl);
  if (hit && hit.until > now) return hit.ads;
  // Parallel requests share one fetch; its answer, good or bad, is kept for a minute.
  const ads = fetchFeed(feedUrl);
  feedCache.set(feedUrl, { until: now + AD_FEED_TTL_MS, ads });
  return ads;
}

async function fetchFeed(url: string): Promise<Ad[]> {
  try {
    const res = await fetch(url, {
      headers: { accept: 'application/json' },
      signal: AbortSignal.timeout(AD_FEED_TIMEOUT_MS),
      redirect: 'follow',
    });
    if (!res.ok) return [];
    const parsed = feedShape.safeParse(await res.json());
    if (!parsed.success) return [];
    const ads: Ad[] = [];
    for (const item of parsed.data) {
      const ad = adItem.safeParse(item);
      if (ad.success) ads.push(ad.data);
      if (ads.length === MAX_ADS) break;
    }
    return ads;
  } catch {
    return [];
  }
}
