import { useQuery } from '@tanstack/react-query';
import { Alert, Card, Select, Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { usePageQuery } from '../../context/page-context.tsx';
import {
  ALL_CHANNELS_KEY,
  channelApi,
  channelPricePath,
  type ExpressChannel,
  pricedByCarrier,
  zoneChartPath,
} from './api.ts';
import { UNITS } from './units.ts';

/**
 * The channel a zone or price page works on: it lives in the page's `?channelId=`, so the channel list
 * links straight to it and a reload keeps it.
 */
export function useChosenChannel() {
  const channelId = Number(usePageQuery().get('channelId')) || undefined;
  const channels = useQuery({ queryKey: [ALL_CHANNELS_KEY], queryFn: channelApi.all });
  const channel = channels.data?.list.find((c) => c.id === channelId);
  return { channelId, channel, channels };
}

/**
 * The channel picker at the top of the zone chart and price pages, with what the channel is and links
 * between its two tables. `confirmLeave` may hold the switch back (unsaved prices).
 */
export function ChannelChooser({
  page,
  chosen,
  confirmLeave,
}: {
  page: 'zones' | 'prices';
  chosen: ReturnType<typeof useChosenChannel>;
  confirmLeave?: (leave: () => void) => void;
}) {
  const { t, i18n } = useTranslation();
  const en = i18n.language === 'en-US';
  const navigate = useNavigate();
  const { channel, channels } = chosen;
  const pathOf = page === 'zones' ? zoneChartPath : channelPricePath;
  const choose = (id: number) => {
    const go = () => navigate(pathOf(id), { replace: true });
    if (confirmLeave) confirmLeave(go);
    else go();
  };
  const label = (c: ExpressChannel) =>
    `${c.code} · ${en ? c.nameEn : c.name} (${en ? c.productNameEn : c.productName})`;

  return (
    <Card size="small" style={{ marginBottom: 12 }}>
      <Space wrap size={[16, 8]}>
        <Space wrap>
          <span>{t('expressChannels.channel')}</span>
          <Select
            showSearch={{ optionFilterProp: 'label' }}
            style={{ width: 380, maxWidth: 'calc(100vw - 96px)' }}
            placeholder={t('expressChannels.chooseChannel')}
            loading={channels.isLoading}
            value={channel?.id}
            onChange={choose}
            options={(channels.data?.list ?? []).map((c) => ({ value: c.id, label: label(c) }))}
            notFoundContent={channels.isLoading ? undefined : t('expressChannels.noChannels')}
            data-testid="express-channel-chooser"
          />
        </Space>
        {channel ? (
          <Space size={4} wrap data-testid="express-channel-summary">
            <Tag color={channel.scope === 'domestic' ? 'blue' : 'purple'}>
              {t(`expressChannels.scope.${channel.scope}`)}
            </Tag>
            <Tag>{`${UNITS[channel.unitSystem].weight} / ${UNITS[channel.unitSystem].length}`}</Tag>
            {channel.enabled ? null : <Tag>{t('common.disabled')}</Tag>}
            <Typography.Text type="secondary">
              {channel.carrier} · {channel.service}
            </Typography.Text>
            {page === 'zones' ? (
              <Link to={channelPricePath(channel.id)}>
                {t('expressChannels.priceZonesCount', { count: channel.priceZones })}
              </Link>
            ) : (
              <Link to={zoneChartPath(channel.id)}>
                {t('expressChannels.zoneRowsCount', { count: channel.zoneRows })}
              </Link>
            )}
          </Space>
        ) : null}
      </Space>
      {channel && pricedByCarrier(channel) ? (
        <Alert
          type="warning"
          showIcon
          style={{ marginTop: 12 }}
          title={t('expressChannels.tablesUnusedTip')}
          data-testid="express-channel-tables-unused"
        />
      ) : null}
    </Card>
  );
}
