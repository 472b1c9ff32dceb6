import { CloseOutlined, PlusOutlined } from '@ant-design/icons';
import type { Language } from '@freight/contracts/api';
import { priceTableBody } from '@freight/contracts/express-channels';
import { localizeIssues } from '@freight/contracts/validation';
import { Button, Input, InputNumber, Space, Switch, Table, Typography } from 'antd';
import type { TFunction } from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AmountInput } from '../../components/AmountInput.tsx';
import type { PriceTable, PriceTableInput } from './api.ts';

/** What the grid edits: zones across, weight brackets down, a price (decimal string, empty for none) per cell. */
export interface Grid {
  zones: string[];
  brackets: { weight: number | null; prices: string[] }[];
  additional: { unit: number | null; prices: string[] } | null;
  minimums: string[];
}

/** The API's limits on a table (priceTableBody). */
const MAX_ZONES = 50;
const MAX_BRACKETS = 500;
/** Brackets shown at once: a full table is 500 rows of 50 inputs. */
const BRACKETS_PER_PAGE = 50;

const blanks = (n: number) => Array.from({ length: n }, () => '');

export function gridOf(table: PriceTable): Grid {
  const n = table.zones.length;
  return {
    zones: [...table.zones],
    brackets: table.brackets.map((b) => ({ weight: b.weight, prices: b.prices.map((p) => p ?? '') })),
    additional: table.additional
      ? { unit: table.additional.unit, prices: table.additional.prices.map((p) => p ?? '') }
      : null,
    minimums: table.minimums.length === n ? table.minimums.map((p) => p ?? '') : blanks(n),
  };
}

/** A first table for a channel without one: the chart's zones (or one), one bracket to fill. */
export function starterGrid(zones: readonly string[]): Grid {
  const names = zones.length > 0 ? zones.slice(0, MAX_ZONES) : ['1'];
  return {
    zones: [...names],
    brackets: [{ weight: 1, prices: blanks(names.length) }],
    additional: null,
    minimums: blanks(names.length),
  };
}

/** Adds zones the table has no column for yet (the chart's unpriced ones) as empty columns. */
export function withZones(grid: Grid, zones: readonly string[]): Grid {
  const added = zones.filter((z) => !grid.zones.includes(z)).slice(0, MAX_ZONES - grid.zones.length);
  const pad = (row: string[]) => [...row, ...blanks(added.length)];
  return {
    zones: [...grid.zones, ...added],
    brackets: grid.brackets.map((b) => ({ ...b, prices: pad(b.prices) })),
    additional: grid.additional ? { ...grid.additional, prices: pad(grid.additional.prices) } : null,
    minimums: pad(grid.minimums),
  };
}

/** The grid as `/admin/channelPrice/save` takes it; a minimum row left empty is sent as none. */
export function gridBody(grid: Grid, channelId: number): PriceTableInput {
  return {
    channelId,
    zones: grid.zones.map((z) => z.trim()),
    brackets: grid.brackets.map((b) => ({ weight: b.weight ?? 0, prices: b.prices })),
    additional: grid.additional ? { unit: grid.additional.unit ?? 0, prices: grid.additional.prices } : null,
    minimums: grid.minimums.every((m) => m === '') ? [] : grid.minimums,
  };
}

/** Where a path of the save body is on the grid, in words ("5 lb, zone 3"). */
export function gridPlace(grid: Grid, path: readonly PropertyKey[], unit: string, t: TFunction): string {
  const [head, a, b, c] = path;
  const zone = (j: unknown) => {
    const name = grid.zones[Number(j)]?.trim();
    return name
      ? t('channelPrices.zoneNamed', { zone: name })
      : t('channelPrices.zoneN', { n: Number(j) + 1 });
  };
  const bracket = (i: unknown) => {
    const w = grid.brackets[Number(i)]?.weight;
    return w === null || w === undefined
      ? t('channelPrices.bracketN', { n: Number(i) + 1 })
      : t('channelPrices.upTo', { weight: w, unit });
  };
  if (head === 'zones')
    return a === undefined ? t('channelPrices.zones') : t('channelPrices.zoneN', { n: Number(a) + 1 });
  if (head === 'brackets') {
    if (a === undefined) return t('channelPrices.brackets');
    if (b === 'prices' && c !== undefined) return `${bracket(a)} · ${zone(c)}`;
    return b === 'weight' ? t('channelPrices.bracketN', { n: Number(a) + 1 }) : bracket(a);
  }
  if (head === 'additional') {
    if (a === 'unit') return t('channelPrices.additionalUnit');
    return b === undefined ? t('channelPrices.additional') : `${t('channelPrices.additional')} · ${zone(b)}`;
  }
  if (head === 'minimums')
    return a === undefined ? t('channelPrices.minimum') : `${t('channelPrices.minimum')} · ${zone(a)}`;
  return path.map(String).join('.');
}

/** What stops the grid from being saved, worded as the server would and placed on the grid; empty when none. */
export function gridProblems(grid: Grid, unit: string, t: TFunction, language: Language): string[] {
  const required = (place: string) => t('validation.required', { field: place });
  const problems: string[] = [];
  grid.zones.forEach((z, j) => {
    if (!z.trim()) problems.push(required(t('channelPrices.zoneN', { n: j + 1 })));
  });
  grid.brackets.forEach((b, i) => {
    if (b.weight === null) problems.push(required(t('channelPrices.bracketN', { n: i + 1 })));
  });
  if (grid.additional && grid.additional.unit === null)
    problems.push(required(t('channelPrices.additionalUnit')));
  if (problems.length > 0) return problems;
  const parsed = priceTableBody.safeParse(gridBody(grid, 1));
  if (parsed.success) return [];
  // The shared wording, with the field named by its place on the grid rather than its path.
  return localizeIssues(
    parsed.error.issues.map((issue) => ({ ...issue, path: [gridPlace(grid, issue.path, unit, t)] })),
    language,
  ).map((p) => p.message);
}

type GridRow = { index: number };

/**
 * A channel's price table, edited in place: zones across (renamed, added, removed), weight brackets
 * down (each price covers billable weights up to its weight), then the price of each further unit past
 * the last bracket and the least a parcel costs in each zone.
 */
export function PriceGrid({
  value: grid,
  onChange,
  unit,
  currency,
}: {
  value: Grid;
  onChange: (grid: Grid) => void;
  /** The channel's weight unit, lb or kg. */
  unit: string;
  currency: string;
}) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const n = grid.zones.length;
  const pages = Math.max(1, Math.ceil(grid.brackets.length / BRACKETS_PER_PAGE));
  const setAt = <T,>(row: T[], j: number, value: T) => row.map((v, k) => (k === j ? value : v));

  const setZone = (j: number, name: string) => onChange({ ...grid, zones: setAt(grid.zones, j, name) });
  const addZone = () => {
    const numbers = grid.zones.map(Number).filter((z) => Number.isInteger(z));
    let next = numbers.length > 0 ? Math.max(...numbers) + 1 : n + 1;
    while (grid.zones.includes(String(next))) next += 1;
    onChange(withZones(grid, [String(next)]));
  };
  const removeZone = (j: number) => {
    const drop = (row: string[]) => row.filter((_, k) => k !== j);
    onChange({
      zones: drop(grid.zones),
      brackets: grid.brackets.map((b) => ({ ...b, prices: drop(b.prices) })),
      additional: grid.additional ? { ...grid.additional, prices: drop(grid.additional.prices) } : null,
      minimums: drop(grid.minimums),
    });
  };
  const setWeight = (i: number, weight: number | null) =>
    onChange({ ...grid, brackets: grid.brackets.map((b, k) => (k === i ? { ...b, weight } : b)) });
  const addBracket = () => {
    const last = grid.brackets[grid.brackets.length - 1]?.weight ?? 0;
    onChange({ ...grid, brackets: [...grid.brackets, { weight: last + 1, prices: blanks(n) }] });
    setPage(Math.ceil((grid.brackets.length + 1) / BRACKETS_PER_PAGE));
  };
  const removeBracket = (i: number) => {
    onChange({ ...grid, brackets: grid.brackets.filter((_, k) => k !== i) });
    setPage((p) => Math.min(p, Math.max(1, Math.ceil((grid.brackets.length - 1) / BRACKETS_PER_PAGE))));
  };
  const setBracketPrice = (i: number, j: number, price: string) =>
    onChange({
      ...grid,
      brackets: grid.brackets.map((b, k) => (k === i ? { ...b, prices: setAt(b.prices, j, price) } : b)),
    });
  const setAdditional = (on: boolean) =>
    onChange({ ...grid, additional: on ? { unit: 1, prices: blanks(n) } : null });

  const priceCell = (value: string, onPrice: (price: string) => void, testId: string) => (
    <div data-testid={testId} style={{ minWidth: 90 }}>
      <AmountInput value={value} onChange={onPrice} />
    </div>
  );

  return (
    <div data-testid="price-grid">
      <Table<GridRow>
        size="small"
        bordered
        rowKey="index"
        dataSource={grid.brackets.map((_, index) => ({ index }))}
        pagination={
          grid.brackets.length > BRACKETS_PER_PAGE
            ? {
                current: Math.min(page, pages),
                pageSize: BRACKETS_PER_PAGE,
                showSizeChanger: false,
                onChange: setPage,
                showTotal: (total) => t('channelPrices.bracketCount', { count: total }),
              }
            : false
        }
        scroll={{ x: 'max-content' }}
        columns={[
          {
            key: 'weight',
            title: t('channelPrices.weightUpTo', { unit }),
            fixed: 'left',
            width: 170,
            render: (_, { index }) => (
              <Space size={2}>
                <InputNumber
                  size="small"
                  min={0.01}
                  max={10_000}
                  precision={2}
                  value={grid.brackets[index]?.weight}
                  suffix={unit}
                  style={{ width: 116 }}
                  onChange={(v) => setWeight(index, v)}
                  aria-label={t('channelPrices.bracketN', { n: index + 1 })}
                  data-testid={`price-weight-${index}`}
                />
                <Button
                  type="text"
                  size="small"
                  icon={<CloseOutlined />}
                  disabled={grid.brackets.length <= 1}
                  aria-label={t('channelPrices.removeBracket', { n: index + 1 })}
                  onClick={() => removeBracket(index)}
                />
              </Space>
            ),
          },
          ...grid.zones.map((zone, j) => ({
            key: `zone-${j}`,
            width: 120,
            title: (
              <Space size={2}>
                <Input
                  size="small"
                  maxLength={10}
                  value={zone}
                  status={zone.trim() ? undefined : 'error'}
                  style={{ width: 72 }}
                  onChange={(e) => setZone(j, e.target.value)}
                  aria-label={t('channelPrices.zoneN', { n: j + 1 })}
                  data-testid={`price-zone-${j}`}
                />
                <Button
                  type="text"
                  size="small"
                  icon={<CloseOutlined />}
                  disabled={n <= 1}
                  aria-label={t('channelPrices.removeZone', { zone: zone || j + 1 })}
                  onClick={() => removeZone(j)}
                />
              </Space>
            ),
            render: (_: unknown, { index }: GridRow) =>
              priceCell(
                grid.brackets[index]?.prices[j] ?? '',
                (price) => setBracketPrice(index, j, price),
                `price-cell-${index}-${j}`,
              ),
          })),
          {
            key: 'add-zone',
            width: 56,
            title: (
              <Button
                size="small"
                icon={<PlusOutlined />}
                disabled={n >= MAX_ZONES}
                onClick={addZone}
                aria-label={t('channelPrices.addZone')}
                data-testid="price-add-zone"
              />
            ),
          },
        ]}
        summary={() => (
          <Table.Summary>
            {grid.additional ? (
              <Table.Summary.Row>
                <Table.Summary.Cell index={0}>
                  <Space size={4} wrap>
                    <span>{t('channelPrices.each')}</span>
                    <InputNumber
                      size="small"
                      min={0.01}
                      max={100}
                      precision={2}
                      value={grid.additional.unit}
                      suffix={unit}
                      style={{ width: 96 }}
                      onChange={(v) =>
                        grid.additional && onChange({ ...grid, additional: { ...grid.additional, unit: v } })
                      }
                      aria-label={t('channelPrices.additionalUnit')}
                      data-testid="price-additional-unit"
                    />
                  </Space>
                </Table.Summary.Cell>
                {grid.zones.map((_, j) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: a cell is its column's, and zone names may repeat while typed
                  <Table.Summary.Cell key={`additional-${j}`} index={j + 1}>
                    {priceCell(
                      grid.additional?.prices[j] ?? '',
                      (price) =>
                        grid.additional &&
                        onChange({
                          ...grid,
                          additional: { ...grid.additional, prices: setAt(grid.additional.prices, j, price) },
                        }),
                      `price-additional-${j}`,
                    )}
                  </Table.Summary.Cell>
                ))}
                <Table.Summary.Cell index={n + 1} />
              </Table.Summary.Row>
            ) : null}
            <Table.Summary.Row>
              <Table.Summary.Cell index={0}>{t('channelPrices.minimum')}</Table.Summary.Cell>
              {grid.zones.map((_, j) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: a cell is its column's, and zone names may repeat while typed
                <Table.Summary.Cell key={`minimum-${j}`} index={j + 1}>
                  {priceCell(
                    grid.minimums[j] ?? '',
                    (price) => onChange({ ...grid, minimums: setAt(grid.minimums, j, price) }),
                    `price-minimum-${j}`,
                  )}
                </Table.Summary.Cell>
              ))}
              <Table.Summary.Cell index={n + 1} />
            </Table.Summary.Row>
          </Table.Summary>
        )}
      />
      <Space style={{ marginTop: 8 }} wrap size={[16, 8]}>
        <Button
          size="small"
          icon={<PlusOutlined />}
          disabled={grid.brackets.length >= MAX_BRACKETS}
          onClick={addBracket}
          data-testid="price-add-bracket"
        >
          {t('channelPrices.addBracket')}
        </Button>
        <Space size={6}>
          <Switch
            size="small"
            checked={grid.additional !== null}
            onChange={setAdditional}
            aria-label={t('channelPrices.additional')}
            data-testid="price-additional-toggle"
          />
          <span>{t('channelPrices.additional')}</span>
        </Space>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {t('channelPrices.gridTip', { unit, currency })}
        </Typography.Text>
      </Space>
    </div>
  );
}
