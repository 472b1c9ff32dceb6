import { Drawer, Timeline } from 'antd';
import { useTranslation } from 'react-i18next';

const RELEASES = [
  { version: '0.2', title: 'updates.r2.title', body: 'updates.r2.body' },
  { version: '0.1', title: 'updates.r1.title', body: 'updates.r1.body' },
] as const;

export function FeatureUpdates({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Drawer title={t('updates.title')} open={open} onClose={onClose} size={420}>
      <Timeline
        items={RELEASES.map((r) => ({
          content: (
            <>
              <strong>
                {r.version} · {t(r.title)}
              </strong>
              <div style={{ color: '#666' }}>{t(r.body)}</div>
            </>
          ),
        }))}
      />
    </Drawer>
  );
}
