import { DownloadOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { CountButton } from '../../components/CountButton.tsx';
import { DOWNLOAD_COUNT_KEY, downloadApi } from './api.ts';

export { DOWNLOAD_CENTER_PATH, DOWNLOAD_COUNT_KEY } from './api.ts';

/**
 * The top bar's shortcut to the download centre, with the count of ready files not seen yet. It asks
 * every 15 s, every 3 s while an export is being written, and again when an export is queued.
 */
export function DownloadCenterButton({ onOpen, label }: { onOpen: () => void; label: string }) {
  const { t } = useTranslation();
  const count = useQuery({
    queryKey: DOWNLOAD_COUNT_KEY,
    queryFn: downloadApi.count,
    refetchInterval: (query) => ((query.state.data?.active ?? 0) > 0 ? 3_000 : 15_000),
    // A failed count leaves the button as it is; the next poll tries again.
    retry: false,
  });
  const ready = count.data?.ready ?? 0;
  return (
    <CountButton
      count={ready}
      countTestId="download-badge"
      hint={ready > 0 ? t('downloads.badge', { count: ready }) : label}
      icon={<DownloadOutlined />}
      onClick={onOpen}
      aria-label={label}
      data-testid="top-downloads"
    />
  );
}
