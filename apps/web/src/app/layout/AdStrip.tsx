import { useQuery } from '@tanstack/react-query';
import { Carousel, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { get } from '../../lib/http.ts';

/** Ads rotating vertically every 3 s, each with an Ad tag and a link (SPEC section 2); hidden when none. */
export function AdStrip() {
  const { t } = useTranslation();
  const { data } = useQuery({
    queryKey: ['ads'],
    queryFn: () => get<{ list: { title: string; url: string }[] }>('/common/ads'),
    staleTime: 300_000,
  });
  const ads = data?.list ?? [];
  if (ads.length === 0) return null;
  return (
    <div className="ad-strip">
      <Carousel autoplay autoplaySpeed={3000} vertical dots={false}>
        {ads.map((ad) => (
          <div key={ad.url}>
            <Tag color="orange">{t('shell.ad')}</Tag>
            <a href={ad.url} target="_blank" rel="noreferrer noopener">
              {ad.title}
            </a>
          </div>
        ))}
      </Carousel>
    </div>
  );
}
