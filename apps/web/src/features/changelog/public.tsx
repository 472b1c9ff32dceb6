import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Badge, Drawer, Empty, Spin, Timeline } from 'antd';
import dayjs from 'dayjs';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CHANGELOG_FEED_KEY, changelogApi } from './api.ts';
import { ChangelogBody } from './ChangelogBody.tsx';

/**
 * The top bar's "feature updates" (SPEC section 1): the button, with a dot while an entry was published
 * since the user last opened them, and the drawer listing them newest first. Opening marks them read.
 */
export function FeatureUpdatesEntry({ children }: { children: (open: () => void) => ReactNode }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const feed = useQuery({
    queryKey: CHANGELOG_FEED_KEY,
    queryFn: changelogApi.feed,
    staleTime: 60_000,
    refetchInterval: 300_000,
  });
  const seen = useMutation({
    mutationFn: changelogApi.seen,
    onSuccess: () =>
      queryClient.setQueryData(
        CHANGELOG_FEED_KEY,
        (old: typeof feed.data) => old && { ...old, unread: false },
      ),
  });
  const show = () => {
    setOpen(true);
    void feed.refetch();
    if (feed.data?.unread !== false) seen.mutate();
  };
  const entries = feed.data?.list ?? [];
  return (
    <>
      <span
        data-testid="updates-badge"
        data-unread={String(feed.data?.unread === true)}
        title={feed.data?.unread ? t('changelog.unread') : undefined}
      >
        <Badge dot={feed.data?.unread === true} offset={[-2, 2]}>
          {children(show)}
        </Badge>
      </span>
      <Drawer
        title={t('updates.title')}
        open={open}
        onClose={() => setOpen(false)}
        size={460}
        data-testid="updates-drawer"
      >
        {feed.isLoading ? (
          <Spin />
        ) : entries.length === 0 ? (
          <Empty description={t('changelog.empty')} />
        ) : (
          <Timeline
            items={entries.map((entry) => ({
              key: entry.id,
              content: (
                <div data-testid="updates-entry">
                  <strong>{entry.title}</strong>
                  <div style={{ color: '#999', fontSize: 12, margin: '2px 0 6px' }}>
                    {dayjs(entry.publishedAt).format('YYYY-MM-DD')}
                  </div>
                  <ChangelogBody body={entry.body} />
                </div>
              ),
            }))}
          />
        )}
      </Drawer>
    </>
  );
}
