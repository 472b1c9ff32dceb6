import { useQuery } from '@tanstack/react-query';
import { Tag } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { get } from '../../lib/http.ts';

/** SPEC section 9: the ad carousel moves every 3000 ms. */
const ROTATE_MS = 3_000;
const ROW_HEIGHT = 28;

/**
 * Ads rotating vertically every 3 s, each with an Ad tag and a link opening in a new tab (SPEC
 * section 2). The server answers an empty list when there are none or the feed failed: then, as on
 * any failure of the call, the strip is not shown at all.
 */
export function AdStrip() {
  const { t } = useTranslation();
  const { data } = useQuery({
    queryKey: ['ads'],
    queryFn: () => get<{ list: { title: string; url: string }[] }>('/common/ads'),
    staleTime: 300_000,
    retry: false,
  });
  const ads = data?.list ?? [];
  const [index, setIndex] = useState(0);
  useEffect(() => {
    if (ads.length < 2) return;
    const timer = window.setInterval(() => setIndex((i) => (i + 1) % ads.length), ROTATE_MS);
    return () => window.clearInterval(timer);
  }, [ads.length]);
  if (ads.length === 0) return null;
  const shown = index % ads.length;
  return (
    <div className="ad-strip" data-testid="ad-strip">
      <div
        className="ad-strip-track"
        style={{ transform: `translateY(-${shown * ROW_HEIGHT}px)` }}
        aria-live="polite"
      >
        {ads.map((ad, i) => (
          <div
            // biome-ignore lint/suspicious/noArrayIndexKey: a feed may list one link twice; its place is its identity
            key={`${i}:${ad.url}`}
            className="ad-strip-item"
            data-testid="ad-item"
            data-active={i === shown}
            aria-hidden={i !== shown}
          >
            <Tag color="orange">{t('shell.ad')}</Tag>
            <a href={ad.url} target="_blank" rel="noopener noreferrer" tabIndex={i === shown ? 0 : -1}>
              {ad.title}
            </a>
          </div>
        ))}
      </div>
    </div>
  );
}
