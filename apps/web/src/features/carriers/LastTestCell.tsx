import { Popover, Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Wrapped } from '../../components/list.tsx';
import type { ConnectionTest } from './api.ts';
import { formatTime } from './labels.ts';

/**
 * An account's last connection test: whether it worked, why not in the reader's language, and when. The
 * carrier's own words are for staff who dig further: a click (or a hover) away, so the row stays short.
 */
export function LastTestCell({ accountId, test }: { accountId: number; test: ConnectionTest | null }) {
  const { t } = useTranslation();
  if (!test)
    return (
      <Typography.Text type="secondary" data-testid={`carrier-last-test-${accountId}`}>
        {t('carrierAccounts.neverTested')}
      </Typography.Text>
    );
  return (
    <Wrapped width={260}>
      {/* Chinese breaks between any two characters: without a floor a phone squeezes it to a sliver. */}
      <div style={{ minWidth: 180 }} data-testid={`carrier-last-test-${accountId}`}>
        <Space size={4} wrap>
          <Tag color={test.ok ? 'green' : 'red'} style={{ marginInlineEnd: 0 }}>
            {test.ok ? t('carrierAccounts.testOk') : t('carrierAccounts.testFailed')}
          </Tag>
          {test.detail ? (
            <Popover
              trigger={['hover', 'click']}
              title={t('carrierAccounts.detail')}
              content={
                <div
                  style={{ maxWidth: 360, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
                  data-testid={`carrier-detail-${accountId}`}
                >
                  {test.detail}
                </div>
              }
            >
              <Typography.Link style={{ fontSize: 12 }}>{t('carrierAccounts.detail')}</Typography.Link>
            </Popover>
          ) : null}
        </Space>
        <div>{test.message}</div>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {t('carrierAccounts.testedAt', { time: formatTime(test.testedAt), ms: test.tookMs })}
        </Typography.Text>
      </div>
    </Wrapped>
  );
}
