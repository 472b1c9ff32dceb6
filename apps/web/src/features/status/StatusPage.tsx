import { useQuery } from '@tanstack/react-query';
import { Badge, Card, Descriptions, Spin } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { get } from '../../lib/http.ts';

interface Health {
  version: string;
  serverTime: string;
  uptimeSeconds: number;
  database: { kind: 'pglite' | 'postgres'; ok: boolean; latencyMs: number };
}

/** The public status page behind /test, /test2 and /ceshi: version, server time, database health. */
export default function StatusPage() {
  const { t } = useTranslation();
  const { data, isLoading, isError } = useQuery({
    queryKey: ['health'],
    queryFn: () => get<Health>('/health'),
    refetchInterval: 10_000,
  });
  return (
    <div style={{ maxWidth: 640, margin: '64px auto', padding: 16 }}>
      <Card title={t('status.title')}>
        {isError ? (
          <Badge status="error" text={t('error.network')} />
        ) : isLoading || !data ? (
          <Spin />
        ) : (
          <Descriptions column={1} bordered size="small" data-testid="status">
            <Descriptions.Item label={t('status.version')}>{data.version}</Descriptions.Item>
            <Descriptions.Item label={t('status.serverTime')}>
              {dayjs(data.serverTime).format('YYYY-MM-DD HH:mm:ss Z')}
            </Descriptions.Item>
            <Descriptions.Item label={t('status.uptime')}>
              {t('status.minutes', { count: Math.round(data.uptimeSeconds / 60) })}
            </Descriptions.Item>
            <Descriptions.Item label={t('status.database')}>
              <Badge
                status={data.database.ok ? 'success' : 'error'}
                text={`${data.database.kind === 'pglite' ? t('status.embedded') : t('status.postgres')} · ${
                  data.database.ok ? t('status.healthy') : t('status.unhealthy')
                }`}
              />
            </Descriptions.Item>
            <Descriptions.Item label={t('status.latency')}>{data.database.latencyMs} ms</Descriptions.Item>
          </Descriptions>
        )}
      </Card>
    </div>
  );
}
