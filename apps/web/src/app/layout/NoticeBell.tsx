import { BellOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { CountButton } from '../../components/CountButton.tsx';
import { NOTICE_LIST_URL } from '../../features/notices/api.ts';
import { post } from '../../lib/http.ts';

/**
 * The top bar's bell: opens the user's notices (`/notification`) and shows how many are unread. The
 * count is the notices list's own total under its unread filter; the key starts with that list's URL,
 * so marking a notice read there (which refreshes the list) refreshes the bell too. Any other change
 * shows on the next page the user opens, or within 30 s.
 */
export function NoticeBell({ path, onOpen }: { path: string; onOpen: () => void }) {
  const { t } = useTranslation();
  const unread = useQuery({
    queryKey: [NOTICE_LIST_URL, 'unread-count'],
    queryFn: () => post<{ total: number }>(NOTICE_LIST_URL, { read: 'unread', page: 1, limit: 10 }),
    select: (data) => data.total,
    refetchInterval: 30_000,
    retry: false,
  });
  const { refetch } = unread;
  // Opening another page (a popup's link, a notice read elsewhere) is the moment to count again.
  const shownFor = useRef(path);
  useEffect(() => {
    if (shownFor.current === path) return;
    shownFor.current = path;
    void refetch();
  }, [path, refetch]);
  const count = unread.data ?? 0;
  const label = count > 0 ? t('shell.unreadNotices', { count }) : t('shell.notices');
  return (
    <CountButton
      count={count}
      countTestId="notice-bell-count"
      hint={label}
      icon={<BellOutlined />}
      onClick={onOpen}
      aria-label={label}
      data-testid="notice-bell"
      data-unread={count}
    />
  );
}
