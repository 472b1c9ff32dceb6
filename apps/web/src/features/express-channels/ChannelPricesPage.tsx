import type { Language } from '@freight/contracts/api';
import { ResultCode } from '@freight/contracts/api';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, DatePicker, Empty, List, Space, Tag, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useReportError } from '../../hooks/useReportError.ts';
import { ApiError } from '../../lib/http.ts';
import { ALL_CHANNELS_KEY, CHANNEL_INFO_KEY, type ExpressChannel, PRICE_TABLE_KEY, priceApi } from './api.ts';
import { ChannelChooser, useChosenChannel } from './ChannelChooser.tsx';
import { DeliveryAreas } from './DeliveryAreas.tsx';
import {
  type Grid,
  gridBody,
  gridOf,
  gridPlace,
  gridProblems,
  PriceGrid,
  starterGrid,
  withZones,
} from './PriceGrid.tsx';
import { RatingRulesCard } from './RatingRulesCard.tsx';
import { SamplePriceCard } from './SamplePriceCard.tsx';
import { UNITS } from './units.ts';
import { WorkbookActions } from './WorkbookActions.tsx';

/** Unsaved edits of one channel's price table. */
interface Draft {
  channelId: number;
  grid: Grid;
}

/**
 * `/channelPrice`: a channel's price table (edited in place or as a workbook) and its delivery-area
 * lists. Edits stay on the page until saved; switching channels with unsaved edits asks first.
 */
export default function ChannelPricesPage() {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const chosen = useChosenChannel();
  const { channel, channelId } = chosen;
  const [draft, setDraft] = useState<Draft | null>(null);
  // A link from elsewhere may change the channel under the edits: they belonged to the other one.
  if (draft && draft.channelId !== channelId) setDraft(null);
  const dirty = draft !== null;

  const confirmLeave = (leave: () => void) => {
    if (!dirty) return leave();
    modal.confirm({
      title: t('shell.dialogTitle'),
      content: t('channelPrices.leaveConfirm'),
      okText: t('shell.ok'),
      cancelText: t('shell.cancel'),
      onOk: () => {
        setDraft(null);
        leave();
      },
    });
  };

  return (
    <div className="page-card">
      <ChannelChooser page="prices" chosen={chosen} confirmLeave={confirmLeave} />
      {channel ? (
        <Space orientation="vertical" size={12} style={{ width: '100%' }}>
          <PriceTableCard
            key={channel.id}
            channel={channel}
            draft={draft?.grid ?? null}
            setDraft={(grid) => setDraft(grid ? { channelId: channel.id, grid } : null)}
          />
          <DeliveryAreas key={`areas-${channel.id}`} channel={channel} />
          <RatingRulesCard key={`rules-${channel.id}`} channel={channel} />
          <SamplePriceCard key={`sample-${channel.id}`} channel={channel} />
        </Space>
      ) : (
        <Card loading={chosen.channels.isLoading}>
          <Empty description={t('expressChannels.chooseChannel')} />
        </Card>
      )}
    </div>
  );
}

function PriceTableCard({
  channel,
  draft,
  setDraft,
}: {
  channel: ExpressChannel;
  draft: Grid | null;
  setDraft: (grid: Grid | null) => void;
}) {
  const { t, i18n } = useTranslation();
  const { message, modal } = App.useApp();
  const reportError = useReportError();
  const queryClient = useQueryClient();
  const tableKey = [PRICE_TABLE_KEY, channel.id];
  // A workbook imported with a later date waits beside the table in force until that day.
  const [effectiveFrom, setEffectiveFrom] = useState<Dayjs | null>(null);
  const unschedule = useMutation({
    mutationFn: (date: string) => priceApi.unschedule(channel.id, date),
    onSuccess: (answer) => {
      queryClient.setQueryData(tableKey, answer);
      message.success(t('channelPrices.unscheduled'));
    },
    onError: (error) => reportError(error),
  });
  const confirmUnschedule = (date: string) =>
    modal.confirm({
      title: t('shell.dialogTitle'),
      content: t('channelPrices.unscheduleConfirm', { date }),
      okText: t('shell.ok'),
      cancelText: t('shell.cancel'),
      okButtonProps: { danger: true, 'data-testid': 'price-unschedule-ok' },
      onOk: () => unschedule.mutateAsync(date),
    });
  const table = useQuery({ queryKey: tableKey, queryFn: () => priceApi.info(channel.id) });
  const [problems, setProblems] = useState<string[]>([]);
  const unit = UNITS[channel.unitSystem].weight;
  const saved =
    table.data && table.data.zones.length > 0 && table.data.brackets.length > 0 ? gridOf(table.data) : null;
  const grid = draft ?? saved;
  const unpriced = (table.data?.unpricedZones ?? []).filter((z) => !grid?.zones.includes(z));

  // The channel list shows how many zones are priced; the chart page which are not.
  const refreshCounts = () => {
    void queryClient.invalidateQueries({ queryKey: [ALL_CHANNELS_KEY] });
    void queryClient.invalidateQueries({ queryKey: [CHANNEL_INFO_KEY, channel.id] });
  };

  const save = useMutation({
    mutationFn: (g: Grid) => priceApi.save(gridBody(g, channel.id)),
    onSuccess: (answer) => {
      queryClient.setQueryData(tableKey, answer);
      setDraft(null);
      setProblems([]);
      message.success(t('common.saved'));
      refreshCounts();
    },
    onError: (error) => {
      if (error instanceof ApiError && error.code === ResultCode.BadInput && grid) {
        // The server names cells by their path in the body; say where they are on the grid.
        const placed = error.fields.map((f) => {
          const place = gridPlace(
            grid,
            f.field.split('.').map((p) => (/^\d+$/.test(p) ? Number(p) : p)),
            unit,
            t,
          );
          return f.message.includes(place) ? f.message : `${place}: ${f.message}`;
        });
        setProblems(placed.length > 0 ? [...new Set(placed)] : [error.message]);
      } else reportError(error);
    },
  });
  const submit = () => {
    if (!grid) return;
    const found = gridProblems(grid, unit, t, i18n.language as Language);
    setProblems([...new Set(found)]);
    if (found.length === 0) save.mutate(grid);
  };
  const edit = (next: Grid) => setDraft(next);

  return (
    <Card
      size="small"
      title={
        <Space wrap size={[8, 4]}>
          <span>{t('channelPrices.title')}</span>
          {draft ? <Tag color="orange">{t('channelPrices.unsaved')}</Tag> : null}
          {table.data?.updatedAt && !draft ? (
            <Typography.Text type="secondary" style={{ fontSize: 12, fontWeight: 'normal' }}>
              {t('channelPrices.savedAt', { time: dayjs(table.data.updatedAt).format('YYYY-MM-DD HH:mm') })}
            </Typography.Text>
          ) : null}
        </Space>
      }
      loading={table.isLoading}
      data-testid="price-table"
    >
      <Space wrap style={{ marginBottom: 12, width: '100%', justifyContent: 'space-between' }}>
        <Space wrap>
          <WorkbookActions
            channel={channel}
            api={{
              ...priceApi,
              import: (channelId, file) =>
                priceApi.import(channelId, file, effectiveFrom?.format('YYYY-MM-DD')),
            }}
            kind="prices"
            onImported={() => {
              setDraft(null);
              setProblems([]);
              setEffectiveFrom(null);
              void table.refetch();
              refreshCounts();
            }}
          />
          <DatePicker
            value={effectiveFrom}
            onChange={setEffectiveFrom}
            disabledDate={(d) => d.isBefore(dayjs(), 'day')}
            placeholder={t('channelPrices.effectiveFrom')}
            data-testid="price-effective-from"
          />
        </Space>
        {grid ? (
          <Space wrap>
            <Button
              disabled={!draft}
              onClick={() => {
                setDraft(null);
                setProblems([]);
              }}
              data-testid="price-discard"
            >
              {t('channelPrices.discard')}
            </Button>
            <Button
              type="primary"
              disabled={!draft}
              loading={save.isPending}
              onClick={submit}
              data-testid="price-save"
            >
              {t('common.save')}
            </Button>
          </Space>
        ) : null}
      </Space>
      <Alert type="info" showIcon style={{ marginBottom: 12 }} title={t('channelPrices.importTip')} />
      {table.data && table.data.scheduled.length > 0 ? (
        <Alert
          type="info"
          style={{ marginBottom: 12 }}
          title={t('channelPrices.scheduledTitle')}
          description={
            <List
              size="small"
              dataSource={table.data.scheduled}
              renderItem={(s) => (
                <List.Item
                  actions={
                    // A card whose day has come prices already: it is no longer removed, only replaced.
                    s.effectiveFrom > dayjs().format('YYYY-MM-DD')
                      ? [
                          <Button
                            key="remove"
                            size="small"
                            danger
                            onClick={() => confirmUnschedule(s.effectiveFrom)}
                            data-testid={`price-unschedule-${s.effectiveFrom}`}
                          >
                            {t('common.delete')}
                          </Button>,
                        ]
                      : []
                  }
                >
                  {t('channelPrices.scheduledRow', {
                    date: s.effectiveFrom,
                    brackets: s.brackets,
                    zones: s.zones.join(', '),
                  })}
                </List.Item>
              )}
            />
          }
          data-testid="price-scheduled"
        />
      ) : null}
      {unpriced.length > 0 ? (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 12 }}
          title={t('channelPrices.unpriced', { zones: unpriced.join(', '), count: unpriced.length })}
          description={t('channelPrices.unpricedTip')}
          action={
            grid ? (
              <Button
                size="small"
                onClick={() => edit(withZones(grid, unpriced))}
                data-testid="price-add-unpriced"
              >
                {t('channelPrices.addUnpriced')}
              </Button>
            ) : undefined
          }
          data-testid="price-unpriced"
        />
      ) : null}
      {problems.length > 0 ? (
        <Alert
          type="error"
          showIcon
          closable={{ onClose: () => setProblems([]) }}
          style={{ marginBottom: 12 }}
          title={t('channelPrices.notSaved')}
          description={
            <ul style={{ margin: 0, paddingInlineStart: 20, maxHeight: 200, overflow: 'auto' }}>
              {problems.slice(0, 20).map((p) => (
                <li key={p}>{p}</li>
              ))}
            </ul>
          }
          data-testid="price-problems"
        />
      ) : null}
      {grid ? (
        <PriceGrid value={grid} onChange={edit} unit={unit} currency={channel.currency} />
      ) : (
        <Empty description={t('channelPrices.empty')}>
          <Button
            type="primary"
            onClick={() => edit(starterGrid(table.data?.unpricedZones ?? []))}
            data-testid="price-start"
          >
            {t('channelPrices.start')}
          </Button>
        </Empty>
      )}
    </Card>
  );
}
