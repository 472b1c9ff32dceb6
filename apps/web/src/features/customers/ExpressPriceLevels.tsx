import { formatPercentBp, parsePercentBp } from '@freight/contracts/customers';
import { formatMoney, parseMoney } from '@freight/contracts/money';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  App,
  Button,
  Card,
  Drawer,
  Empty,
  Form,
  Input,
  InputNumber,
  Space,
  Table,
  Tag,
  Typography,
} from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AmountInput } from '../../components/AmountInput.tsx';
import { useReportError } from '../../hooks/useReportError.ts';
import { ApiError } from '../../lib/http.ts';
import { money } from '../../lib/money.ts';
import { customersApi, type Markup, type OrganisationRow, type PriceSample } from './api.ts';

type Values = Omit<Markup, 'productKey'>;
/** The organisation's markups as edited: '' is the default, every other key a channel's own markup. */
type Draft = Record<string, Values>;
type SampleResult = PriceSample['results'][number];

/** How long edits rest before the sample is priced again. */
const SAMPLE_DELAY_MS = 400;
const DEFAULT_KEY = '';

/** An input as the server takes it: an empty box is nothing, a trailing dot is dropped. */
const plain = (text: string) => (text.endsWith('.') ? text.slice(0, -1) : text) || '0';
/** The server's rules: a percentage up to 999.99, an amount of up to 13 digits, two places each. */
const validValues = (v: Values) =>
  /^\d{1,3}(\.\d{1,2})?$/.test(plain(v.markupPercent)) && /^\d{1,13}(\.\d{1,2})?$/.test(plain(v.markupFixed));
/** Values as the server shows them ("12.50"); ones it would refuse stay as typed. */
const canonical = (v: Values): Values =>
  validValues(v)
    ? {
        markupPercent: formatPercentBp(parsePercentBp(plain(v.markupPercent))),
        markupFixed: formatMoney(parseMoney(plain(v.markupFixed))),
      }
    : v;
const same = (a: Values | undefined, b: Values | undefined) =>
  Boolean(a && b) &&
  canonical(a as Values).markupPercent === canonical(b as Values).markupPercent &&
  canonical(a as Values).markupFixed === canonical(b as Values).markupFixed;
const ZERO: Values = { markupPercent: '0.00', markupFixed: '0.00' };

/** The value that settles once it has not changed for a while. */
function useSettled<T>(value: T, delay: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = window.setTimeout(() => setSettled(value), delay);
    return () => window.clearTimeout(timer);
  }, [value, delay]);
  return settled;
}

interface SampleParcel {
  originZip: string;
  destinationCountry: string;
  destinationZip: string;
  weight: number;
  length: number;
  width: number;
  height: number;
}
/** A 5 lb parcel from Los Angeles to Dallas: zone 5 on the usual US ground charts. */
const SAMPLE: SampleParcel = {
  originZip: '90001',
  destinationCountry: 'US',
  destinationZip: '75201',
  weight: 5,
  length: 10,
  width: 8,
  height: 6,
};

/**
 * An organisation's express markups, the default and each channel's own, edited together and saved
 * at once; beside them a sample parcel priced by the server on every channel open to it, at each
 * level the user may see, with the markups as they stand in the editor.
 */
export function ExpressPriceLevels({ organisationId }: { organisationId: number }) {
  const { t, i18n } = useTranslation();
  const en = i18n.language === 'en-US';
  const { message } = App.useApp();
  const reportError = useReportError();
  const queryClient = useQueryClient();
  const saved = useQuery({
    queryKey: ['org-prices', organisationId],
    queryFn: () => customersApi.priceLevels(organisationId),
  });
  const savedDraft: Draft | null = saved.data
    ? Object.fromEntries(
        saved.data.list
          .filter((l) => l.line === 'express')
          .map((l) => [l.productKey, { markupPercent: l.markupPercent, markupFixed: l.markupFixed }]),
      )
    : null;
  // Null while nothing is edited: the editor shows what is saved (mount it anew for another organisation).
  const [draft, setDraft] = useState<Draft | null>(null);
  const current: Draft = draft ?? savedDraft ?? {};
  const defaultValues = current[DEFAULT_KEY] ?? ZERO;
  const [parcel, setParcel] = useState<SampleParcel>(SAMPLE);
  const [saving, setSaving] = useState(false);

  const allValid = Object.values(current).every(validValues);
  const levels = Object.entries(current).map(([productKey, v]) => ({ productKey, ...canonical(v) }));
  // Unedited (or not yet valid) markups price as saved: the server reads them itself.
  const sampleBody = useSettled(
    { organisationId, ...parcel, levels: draft && allValid ? levels : undefined },
    SAMPLE_DELAY_MS,
  );
  const sample = useQuery({
    queryKey: ['express-price-sample', sampleBody],
    queryFn: () => customersApi.expressPriceSample(sampleBody),
    placeholderData: keepPreviousData,
    enabled: sampleBody.organisationId === organisationId,
    retry: false,
  });

  const changed = (() => {
    if (!savedDraft) return false;
    const keys = new Set([...Object.keys(current), ...Object.keys(savedDraft)]);
    return [...keys].some((key) =>
      key === DEFAULT_KEY
        ? !same(current[key] ?? ZERO, savedDraft[key] ?? ZERO)
        : !same(current[key], savedDraft[key]) && Boolean(current[key] || savedDraft[key]),
    );
  })();

  const edit = (key: string, values: Values | null) =>
    setDraft((d) => {
      const next = { ...(d ?? savedDraft ?? {}) };
      if (values) next[key] = values;
      else delete next[key];
      return next;
    });

  const save = async () => {
    if (!savedDraft) return;
    if (!allValid) return void message.error(t('expressPrice.invalid'));
    setSaving(true);
    try {
      const keys = new Set([...Object.keys(current), ...Object.keys(savedDraft)]);
      for (const key of keys) {
        const now = current[key];
        const before = savedDraft[key];
        if (now && !same(now, before) && !(key === DEFAULT_KEY && !before && same(now, ZERO)))
          await customersApi.savePriceLevel(organisationId, 'express', {
            productKey: key,
            ...canonical(now),
          });
        else if (!now && before) await customersApi.deletePriceLevel(organisationId, 'express', key);
      }
      await queryClient.invalidateQueries({ queryKey: ['org-prices', organisationId] });
      // All saved: the editor shows what is saved again.
      setDraft(null);
      message.success(t('common.saved'));
    } catch (error) {
      // Saved up to a refusal: the edits stay, compared with what is saved now.
      reportError(error);
      await queryClient.invalidateQueries({ queryKey: ['org-prices', organisationId] });
    } finally {
      setSaving(false);
    }
  };

  if (saved.isError)
    return (
      <Alert
        type="error"
        showIcon
        title={t('expressPrice.loadFailed')}
        action={
          <Button size="small" onClick={() => void saved.refetch()}>
            {t('expressPrice.retry')}
          </Button>
        }
      />
    );

  // Rows: the default, each channel open to the organisation, then own markups of channels since closed.
  const channels = sample.data?.results ?? [];
  const channelName = (r: Pick<SampleResult, 'name' | 'nameEn'>) => (en ? r.nameEn || r.name : r.name);
  const rows = [
    { key: DEFAULT_KEY, label: t('expressPrice.default'), open: true },
    ...channels.map((c) => ({ key: c.code, label: channelName(c), open: true })),
    ...Object.keys(current)
      .filter((key) => key !== DEFAULT_KEY && !channels.some((c) => c.code === key))
      .map((key) => ({ key, label: key, open: false })),
  ];

  const input = (key: string, field: keyof Values) => {
    const own = current[key];
    const shown = own ?? defaultValues;
    return (
      <AmountInput
        value={shown[field]}
        suffix={field === 'markupPercent' ? '%' : '$'}
        onChange={(value) => edit(key, { ...shown, [field]: value })}
      />
    );
  };

  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }} data-testid="express-price-levels">
      <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
        {t('expressPrice.tip')}
      </Typography.Paragraph>
      <Table
        rowKey="key"
        size="small"
        loading={saved.isLoading}
        dataSource={rows}
        pagination={false}
        scroll={{ x: 'max-content' }}
        columns={[
          {
            title: t('expressPrice.channel'),
            render: (_, row) => (
              <Space size={4}>
                <span>{row.label}</span>
                {row.key ? <Tag>{row.key}</Tag> : null}
                {row.open ? null : <Tag color="default">{t('expressPrice.closed')}</Tag>}
              </Space>
            ),
          },
          {
            title: t('expressPrice.markupPercent'),
            width: 150,
            render: (_, row) => (
              <div style={{ opacity: row.key && !current[row.key] ? 0.55 : 1 }}>
                {input(row.key, 'markupPercent')}
              </div>
            ),
          },
          {
            title: t('expressPrice.markupFixed'),
            width: 150,
            render: (_, row) => (
              <div style={{ opacity: row.key && !current[row.key] ? 0.55 : 1 }}>
                {input(row.key, 'markupFixed')}
              </div>
            ),
          },
          {
            title: t('expressPrice.setting'),
            render: (_, row) =>
              row.key === DEFAULT_KEY ? null : current[row.key] ? (
                <Space size={4}>
                  <Tag color="blue">{t('expressPrice.own')}</Tag>
                  <Button type="link" size="small" onClick={() => edit(row.key, null)}>
                    {t('expressPrice.useDefault')}
                  </Button>
                </Space>
              ) : (
                <Space size={4}>
                  <Tag>{t('expressPrice.inherits')}</Tag>
                  <Button type="link" size="small" onClick={() => edit(row.key, { ...defaultValues })}>
                    {t('expressPrice.setOwn')}
                  </Button>
                </Space>
              ),
          },
        ]}
      />
      {!allValid ? <Alert type="error" showIcon title={t('expressPrice.invalid')} /> : null}
      <Space>
        <Button
          type="primary"
          loading={saving}
          disabled={!changed || !allValid}
          onClick={() => void save()}
          data-testid="express-price-save"
        >
          {t('common.save')}
        </Button>
        <Button disabled={!changed || saving} onClick={() => setDraft(null)}>
          {t('expressPrice.discard')}
        </Button>
        {changed ? <Typography.Text type="warning">{t('expressPrice.unsaved')}</Typography.Text> : null}
      </Space>
      <SampleCard
        parcel={parcel}
        onParcel={setParcel}
        results={sample.data?.results}
        loading={sample.isFetching}
        failure={sample.isError ? (sample.error instanceof ApiError ? sample.error.message : '') : null}
        channelName={channelName}
      />
    </Space>
  );
}

/** The sample parcel's form and its price on each channel at each level. */
function SampleCard({
  parcel,
  onParcel,
  results,
  loading,
  failure,
  channelName,
}: {
  parcel: SampleParcel;
  onParcel: (parcel: SampleParcel) => void;
  results: SampleResult[] | undefined;
  loading: boolean;
  /** Why the sample could not be priced (a ZIP the server refuses, say); null when it was. */
  failure: string | null;
  channelName: (r: SampleResult) => string;
}) {
  const { t } = useTranslation();
  // Every priced channel has the same levels: the organisations from the top down to this one.
  const columnsOf = results?.find((r) => r.ok)?.levels ?? [];
  const set = (patch: Partial<SampleParcel>) => onParcel({ ...parcel, ...patch });
  const size = (field: 'length' | 'width' | 'height') => (
    <InputNumber
      min={0.1}
      max={1000}
      value={parcel[field]}
      style={{ width: 72 }}
      onChange={(v) => v && set({ [field]: v })}
    />
  );
  return (
    <Card
      size="small"
      title={t('expressPrice.sample')}
      extra={<Typography.Text type="secondary">{t('expressPrice.sampleTip')}</Typography.Text>}
      data-testid="express-price-sample"
    >
      <Form layout="inline" style={{ rowGap: 8, marginBottom: 12 }}>
        <Form.Item label={t('expressPrice.originZip')}>
          <Input
            value={parcel.originZip}
            maxLength={5}
            style={{ width: 90 }}
            onChange={(e) => set({ originZip: e.target.value.replace(/\D/g, '') })}
          />
        </Form.Item>
        <Form.Item label={t('expressPrice.destinationCountry')}>
          <Input
            value={parcel.destinationCountry}
            maxLength={2}
            style={{ width: 60 }}
            onChange={(e) => set({ destinationCountry: e.target.value.toUpperCase() })}
          />
        </Form.Item>
        <Form.Item label={t('expressPrice.destinationZip')}>
          <Input
            value={parcel.destinationZip}
            maxLength={12}
            style={{ width: 100 }}
            onChange={(e) => set({ destinationZip: e.target.value })}
          />
        </Form.Item>
        <Form.Item label={t('expressPrice.weight')}>
          <InputNumber
            min={0.1}
            max={10000}
            value={parcel.weight}
            style={{ width: 80 }}
            onChange={(v) => v && set({ weight: v })}
          />
        </Form.Item>
        <Form.Item label={t('expressPrice.size')}>
          <Space size={4}>
            {size('length')}×{size('width')}×{size('height')}
          </Space>
        </Form.Item>
      </Form>
      {failure !== null ? (
        <Alert
          type="warning"
          showIcon
          title={t('expressPrice.sampleFailed')}
          description={failure || undefined}
          style={{ marginBottom: 12 }}
        />
      ) : null}
      {results && results.length === 0 ? (
        <Empty description={t('expressPrice.noChannels')} />
      ) : (
        <Table
          rowKey="channelId"
          size="small"
          loading={loading}
          dataSource={results ?? []}
          pagination={false}
          scroll={{ x: 'max-content' }}
          columns={[
            { title: t('expressPrice.channel'), render: (_, r) => channelName(r) },
            { title: t('expressPrice.zone'), render: (_, r) => r.zone ?? '-' },
            { title: t('expressPrice.billable'), render: (_, r) => r.billableWeight ?? '-' },
            ...columnsOf.map((level, i) => ({
              key: `level-${i}`,
              title:
                level.type === 'platform'
                  ? t('expressPrice.cost')
                  : `${level.name} · ${t(`identity.${level.type}`)}`,
              render: (_: unknown, r: SampleResult) => {
                if (!r.ok)
                  return i === 0 ? (
                    <Typography.Text type="secondary">
                      {t('expressPrice.refused', { reason: t(`expressQuote.refusal.${r.reason}`) })}
                    </Typography.Text>
                  ) : null;
                const l = r.levels[i];
                if (!l) return '-';
                return (
                  <Space orientation="vertical" size={0}>
                    <Typography.Text strong>{money(l.total, '$')}</Typography.Text>
                    {l.type === 'platform' ? null : (
                      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                        +{l.markupPercent}% +{money(l.markupFixed, '$')} ·{' '}
                        {t(`expressPrice.source.${l.source}`)}
                      </Typography.Text>
                    )}
                  </Space>
                );
              },
            })),
          ]}
        />
      )}
    </Card>
  );
}

/** The express customer pages' price drawer: the organisation's markups per express channel. */
export function ExpressPriceDrawer({ org, onClose }: { org: OrganisationRow; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Drawer open size={980} title={`${t('expressPrice.title')} · ${org.name}`} onClose={onClose}>
      <ExpressPriceLevels organisationId={org.id} />
    </Drawer>
  );
}
