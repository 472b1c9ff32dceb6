import { VerticalAlignTopOutlined } from '@ant-design/icons';
import { FloatButton } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** How far the page scrolls before the control shows (the SPEC's back-to-top control). */
const SHOW_AFTER = 200;

/**
 * The back-to-top control. It reads the scroll position only when the page scrolls: antd's own reads
 * it as it mounts, which lays out the whole page inside the shell's first, longest task.
 */
export function BackToTop() {
  const { t } = useTranslation();
  const [shown, setShown] = useState(false);
  useEffect(() => {
    const onScroll = () => setShown(window.scrollY > SHOW_AFTER);
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, []);
  if (!shown) return null;
  return (
    <FloatButton
      icon={<VerticalAlignTopOutlined />}
      tooltip={t('shell.backToTop')}
      aria-label={t('shell.backToTop')}
      onClick={() => window.scrollTo({ top: 0, behavior: 'smooth' })}
      data-testid="back-to-top"
    />
  );
}
