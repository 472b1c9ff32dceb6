import { useQueryClient } from '@tanstack/react-query';
import { Alert, Card, Empty, Form, Input, Table, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FilterBar, listTableProps, useServerList } from '../../components/list.tsx';
import {
  ALL_CHANNELS_KEY,
  CHANNEL_INFO_KEY,
  type ExpressChannel,
  PRICE_TABLE_KEY,
  ZONE_LIST_URL,
  type ZoneRow,
  zoneApi,
} from './api.ts';
import { ChannelChooser, useChosenChannel } from './ChannelChooser.tsx';
import { WorkbookActions } from './WorkbookActions.tsx';

/** A ZIP3 range as the chart reads: one prefix when both ends are the same. */
const range = (from: string, to: string) => (to && to !== from ? `${from}–${to}` : from);

/** `/partitionTable`: a channel's zone chart, origin ZIP3 ranges to destination ranges or countries. */
export default function ZoneChartsPage() {
  const { t } = useTranslation();
  const chosen = useChosenChannel();
  const { channel } = chosen;
  return (
    <div className="page-card">
      <ChannelChooser page="zones" chosen={chosen} />
      {channel ? (
        <ZoneChart key={channel.id} channel={channel} />
      ) : (
        <Card loading={chosen.channels.isLoading}>
          <Empty description={t('expressChannels.chooseChannel')} />
        </Card>
      )}
    </div>
  );
}

function ZoneChart({ channel }: { channel: ExpressChannel }) {
  const { t } = useTranslation();
  const [filterForm] = Form.useForm<{ keyword?: string }>();
  const [keyword, setKeyword] = useState<string | undefined>();
  const list = useServerList<ZoneRow>(ZONE_LIST_URL, { channelId: channel.id, keyword });
  const queryClient = useQueryClient();
  // A new chart changes the channel's row count and which of its zones the price table lacks.
  const imported = () => {
    void list.refetch();
    void queryClient.invalidateQueries({ queryKey: [ALL_CHANNELS_KEY] });
    void queryClient.invalidateQueries({ queryKey: [CHANNEL_INFO_KEY, channel.id] });
    void queryClient.invalidateQueries({ queryKey: [PRICE_TABLE_KEY, channel.id] });
  };

  return (
    <>
      <FilterBar<{ keyword?: string }>
        form={filterForm}
        onSearch={(v) => {
          setKeyword(v.keyword?.trim() || undefined);
          list.resetPage();
        }}
        extra={<WorkbookActions channel={channel} api={zoneApi} kind="zones" onImported={imported} />}
      >
        <Form.Item name="keyword" label={t('common.keyword')}>
          <Input allowClear maxLength={20} placeholder={t('zoneCharts.keywordTip')} style={{ width: 220 }} />
        </Form.Item>
      </FilterBar>
      <Alert
        type="info"
        showIcon
        style={{ marginBottom: 12 }}
        title={t('zoneCharts.importTip')}
        description={t(`zoneCharts.scopeTip.${channel.scope}`)}
      />
      <Table<ZoneRow>
        rowKey="id"
        size="middle"
        loading={list.loading}
        dataSource={list.rows}
        pagination={list.pagination}
        {...listTableProps(560)}
        locale={{
          emptyText: (
            <Empty
              image={Empty.PRESENTED_IMAGE_SIMPLE}
              description={keyword ? t('zoneCharts.noMatch') : t('zoneCharts.empty')}
            />
          ),
        }}
        data-testid="zone-rows-table"
        columns={[
          {
            title: t('zoneCharts.origin'),
            render: (_, r) => range(r.originFrom, r.originTo),
          },
          {
            title: t('zoneCharts.destination'),
            render: (_, r) =>
              r.country ? (
                <span>
                  <Tag>{t('zoneCharts.country')}</Tag>
                  {r.country}
                </span>
              ) : (
                range(r.destFrom, r.destTo)
              ),
          },
          {
            title: t('zoneCharts.zone'),
            render: (_, r) => <Tag color="geekblue">{r.zone}</Tag>,
          },
        ]}
      />
    </>
  );
}
