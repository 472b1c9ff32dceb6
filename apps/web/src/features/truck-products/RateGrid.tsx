import { CloseOutlined, PlusOutlined } from '@ant-design/icons';
import { ltlTermsBody } from '@freight/contracts/truck-products';
import { FREIGHT_CLASSES, type FreightClass } from '@freight/contracts/truck-rating';
import { Button, InputNumber, Select, Space, Table, Tag } from 'antd';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { AmountInput } from '../../components/AmountInput.tsx';
import type { LtlTerms } from './api.ts';

/** What the grid edits: weight breaks as columns, classes as rows, a rate per cell. */
export interface Grid {
  breaks: (number | null)[];
  /** Dollars per hundredweight, aligned with `breaks`; the keys are the rows. */
  rates: Partial<Record<FreightClass, (string | undefined)[]>>;
}

export const DEFAULT_GRID: Grid = {
  breaks: [0, 500, 1000, 2000, 5000],
  rates: { '50': [], '70': [], '100': [] },
};

export function gridOf(ltl: LtlTerms | null): Grid {
  return ltl ? { breaks: [...ltl.breaks], rates: structuredClone(ltl.rates) } : structuredClone(DEFAULT_GRID);
}

/** Classes in the order of the freight-class scale, whatever order they were added in. */
const classesOf = (grid: Grid) => FREIGHT_CLASSES.filter((cls) => grid.rates[cls] !== undefined);

/** The grid as the API takes it; call only once `gridProblem` found nothing. */
export function gridTerms(grid: Grid): Pick<LtlTerms, 'breaks' | 'rates'> {
  return {
    breaks: grid.breaks as number[],
    rates: Object.fromEntries(
      classesOf(grid).map((cls) => [cls, grid.breaks.map((_, i) => grid.rates[cls]?.[i] as string)]),
    ),
  };
}

/** The first thing wrong with the grid, worded as the server would; null when it may be saved. */
export function gridProblem(grid: Grid | undefined, t: TFunction): string | null {
  if (!grid || classesOf(grid).length === 0) return t('freightRules.classNeeded');
  const incomplete =
    grid.breaks.some((b) => b === null) ||
    classesOf(grid).some((cls) => grid.breaks.some((_, i) => !grid.rates[cls]?.[i]));
  if (incomplete) return t('freightRules.gridIncomplete');
  const parsed = ltlTermsBody.safeParse({ ...gridTerms(grid), minimumCharge: '0' });
  if (parsed.success) return null;
  const key = parsed.error.issues[0]?.message ?? '';
  return key.includes('.') ? t(key, { field: t('freightRules.rate') }) : t('freightRules.gridIncomplete');
}

/**
 * The LTL rate table of a lane: weight breaks across (the first 0, rising), freight classes down, each
 * cell a rate in dollars per hundredweight. Adding or removing a break adds or removes its column in
 * every class.
 */
export function RateGrid({ value, onChange }: { value?: Grid; onChange?: (grid: Grid) => void }) {
  const { t } = useTranslation();
  const grid = value ?? DEFAULT_GRID;
  const classes = classesOf(grid);
  const change = (next: Grid) => onChange?.(next);
  const mapRates = (f: (row: (string | undefined)[]) => (string | undefined)[]) =>
    Object.fromEntries(classes.map((cls) => [cls, f([...(grid.rates[cls] ?? [])])]));

  const setBreak = (index: number, weight: number | null) =>
    change({ ...grid, breaks: grid.breaks.map((b, i) => (i === index ? weight : b)) });
  const addBreak = () => {
    const last = grid.breaks[grid.breaks.length - 1] ?? 0;
    change({ breaks: [...grid.breaks, last === null ? null : last + 1000], rates: grid.rates });
  };
  const removeBreak = (index: number) =>
    change({
      breaks: grid.breaks.filter((_, i) => i !== index),
      rates: mapRates((row) => row.filter((_, i) => i !== index)),
    });
  const setRate = (cls: FreightClass, index: number, rate: string) =>
    change({
      ...grid,
      rates: {
        ...grid.rates,
        [cls]: grid.breaks.map((_, i) => (i === index ? rate : grid.rates[cls]?.[i])),
      },
    });
  const addClass = (cls: FreightClass) => change({ ...grid, rates: { ...grid.rates, [cls]: [] } });
  const removeClass = (cls: FreightClass) =>
    change({
      ...grid,
      rates: Object.fromEntries(classes.filter((c) => c !== cls).map((c) => [c, grid.rates[c]])),
    });

  return (
    <div data-testid="rate-grid">
      <Table<{ cls: FreightClass }>
        size="small"
        bordered
        pagination={false}
        rowKey="cls"
        dataSource={classes.map((cls) => ({ cls }))}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: t('freightRules.classNeeded') }}
        columns={[
          {
            title: t('tariff.class'),
            fixed: 'left',
            width: 96,
            render: (_, { cls }) => (
              <Space size={2}>
                <Tag style={{ marginInlineEnd: 0 }}>{cls}</Tag>
                <Button
                  type="text"
                  size="small"
                  icon={<CloseOutlined />}
                  aria-label={t('freightRules.removeClass', { cls })}
                  onClick={() => removeClass(cls)}
                />
              </Space>
            ),
          },
          ...grid.breaks.map((weight, index) => ({
            key: `break-${index}`,
            width: 128,
            title: (
              <Space size={2}>
                <InputNumber
                  size="small"
                  min={0}
                  max={100_000}
                  precision={0}
                  value={weight}
                  // The first break is where rating starts: always 0 lb.
                  disabled={index === 0}
                  suffix="lb"
                  style={{ width: 96 }}
                  onChange={(v) => setBreak(index, v)}
                  aria-label={t('freightRules.breakN', { n: index + 1 })}
                  data-testid={`grid-break-${index}`}
                />
                {index > 0 ? (
                  <Button
                    type="text"
                    size="small"
                    icon={<CloseOutlined />}
                    aria-label={t('freightRules.removeBreak', { n: index + 1 })}
                    onClick={() => removeBreak(index)}
                  />
                ) : null}
              </Space>
            ),
            render: (_: unknown, { cls }: { cls: FreightClass }) => (
              <div data-testid={`grid-rate-${cls}-${index}`}>
                <AmountInput
                  value={grid.rates[cls]?.[index] ?? ''}
                  onChange={(rate) => setRate(cls, index, rate)}
                />
              </div>
            ),
          })),
          {
            key: 'add-break',
            width: 56,
            title: (
              <Button
                size="small"
                icon={<PlusOutlined />}
                disabled={grid.breaks.length >= 12}
                onClick={addBreak}
                aria-label={t('freightRules.addBreak')}
                data-testid="grid-add-break"
              />
            ),
          },
        ]}
      />
      <Space style={{ marginTop: 8 }} wrap>
        <Select<FreightClass>
          size="small"
          style={{ width: 200 }}
          placeholder={t('freightRules.addClass')}
          value={null}
          options={FREIGHT_CLASSES.filter((cls) => !classes.includes(cls)).map((cls) => ({
            value: cls,
            label: `${t('tariff.class')} ${cls}`,
          }))}
          onChange={addClass}
          data-testid="grid-add-class"
        />
        <span style={{ color: '#999', fontSize: 12 }}>{t('freightRules.gridTip')}</span>
      </Space>
    </div>
  );
}
