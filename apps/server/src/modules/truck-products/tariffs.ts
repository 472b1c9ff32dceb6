import type { Language } from '@freight/contracts/api';
import { formatPercentBp, parsePercentBp } from '@freight/contracts/customers';
import { type MessageKey, translate } from '@freight/contracts/messages';
import { formatMoney, isMoneyString, parseMoney } from '@freight/contracts/money';
import { type LaneSaveBody, laneSaveBody } from '@freight/contracts/truck-products';
import { FREIGHT_CLASSES, type FreightClass, type LtlTariff } from '@freight/contracts/truck-rating';
import type ExcelJS from 'exceljs';
import { buildWorkbook, importCell } from '../../lib/xlsx.ts';
import type { LaneFtl } from './schema.ts';
import type { LaneRow } from './service.ts';

const cents = (money: string) => Number(parseMoney(money));
const money = (value: number) => formatMoney(BigInt(value));

/** The lane terms as stored: cents and basis points. */
export function laneTerms(body: Pick<LaneSaveBody, 'ltl' | 'ftl'>): {
  ltl: LtlTariff | null;
  ftl: LaneFtl | null;
} {
  const ltl: LtlTariff | null = body.ltl
    ? {
        breaks: body.ltl.breaks.map((minWeight) => ({ minWeight })),
        rates: Object.fromEntries(
          Object.entries(body.ltl.rates).map(([cls, rates]) => [cls, (rates ?? []).map(cents)]),
        ),
        minimumCharge: cents(body.ltl.minimumCharge),
        discountBp: parsePercentBp(body.ltl.discountPercent),
        fuelBp: parsePercentBp(body.ltl.fuelPercent),
      }
    : null;
  const ftl: LaneFtl | null = body.ftl
    ? {
        ...(body.ftl.flatRate !== undefined ? { flatRate: cents(body.ftl.flatRate) } : {}),
        ...(body.ftl.ratePerMile !== undefined ? { ratePerMile: cents(body.ftl.ratePerMile) } : {}),
        ...(body.ftl.miles !== undefined ? { miles: body.ftl.miles } : {}),
        minimumCharge: cents(body.ftl.minimumCharge),
        fuelBp: parsePercentBp(body.ftl.fuelPercent),
        maxWeight: body.ftl.maxWeight,
      }
    : null;
  return { ltl, ftl };
}

/** A stored lane as the API answers it. */
export function laneToApi(row: LaneRow) {
  return {
    id: row.id,
    productId: row.productId,
    origin: row.origin,
    destination: row.destination,
    ltl: row.ltl
      ? {
          breaks: row.ltl.breaks.map((b) => b.minWeight),
          rates: Object.fromEntries(
            Object.entries(row.ltl.rates).map(([cls, rates]) => [cls, (rates ?? []).map(money)]),
          ),
          minimumCharge: money(row.ltl.minimumCharge),
          discountPercent: formatPercentBp(row.ltl.discountBp),
          fuelPercent: formatPercentBp(row.ltl.fuelBp),
        }
      : null,
    ftl: row.ftl
      ? {
          ...(row.ftl.flatRate !== undefined ? { flatRate: money(row.ftl.flatRate) } : {}),
          ...(row.ftl.ratePerMile !== undefined ? { ratePerMile: money(row.ftl.ratePerMile) } : {}),
          ...(row.ftl.miles !== undefined ? { miles: row.ftl.miles } : {}),
          minimumCharge: money(row.ftl.minimumCharge),
          fuelPercent: formatPercentBp(row.ftl.fuelBp),
          maxWeight: row.ftl.maxWeight,
        }
      : null,
    updatedAt: row.updatedAt,
  };
}

/* ---------- the tariff workbook ---------- */

const LTL_COLUMNS = [
  'origin',
  'destination',
  'minimumCharge',
  'discountPercent',
  'fuelPercent',
  'class',
] as const;
const FTL_COLUMNS = [
  'origin',
  'destination',
  'flatRate',
  'ratePerMile',
  'miles',
  'minimumCharge',
  'fuelPercent',
  'maxWeight',
] as const;

const header = (language: Language, column: string) => translate(language, `tariff.${column}` as MessageKey);
const sheetName = (language: Language, mode: 'LTL' | 'FTL') =>
  translate(language, `tariff.sheet${mode}` as MessageKey);

/**
 * Every lane of a product in two sheets, LTL (a row per lane and class) and FTL (a row per lane). The
 * template's data sheets hold no lanes (its example's weight breaks head the LTL sheet as a start); its
 * example lanes are on sheets of their own, which the import never reads.
 */
export async function tariffWorkbook(
  lanes: readonly LaneRow[],
  language: Language,
  examples: readonly LaneRow[] = [],
): Promise<Buffer> {
  const breaks = weightBreaks(lanes.length > 0 ? lanes : examples);
  const data = laneSheets(lanes, breaks, language, (mode) => sheetName(language, mode));
  const example =
    examples.length > 0
      ? laneSheets(examples, breaks, language, (mode) =>
          translate(language, 'tariff.exampleOf', { sheet: sheetName(language, mode) }),
        )
      : [];
  return buildWorkbook([...data, ...example]);
}

/** One sheet has one set of weight-break columns: the union of every lane's breaks. */
const weightBreaks = (lanes: readonly LaneRow[]) =>
  [...new Set(lanes.flatMap((l) => l.ltl?.breaks.map((b) => b.minWeight) ?? []))].sort((a, b) => a - b);

function laneSheets(
  lanes: readonly LaneRow[],
  breaks: readonly number[],
  language: Language,
  nameOf: (mode: 'LTL' | 'FTL') => string,
) {
  const ltlLanes = lanes.filter((l) => l.ltl);
  const ltlRows: (string | number | null)[][] = [];
  for (const lane of ltlLanes) {
    const ltl = lane.ltl as LtlTariff;
    for (const cls of FREIGHT_CLASSES) {
      const rates = ltl.rates[cls];
      if (!rates) continue;
      ltlRows.push([
        lane.origin,
        lane.destination,
        Number(money(ltl.minimumCharge)),
        Number(formatPercentBp(ltl.discountBp)),
        Number(formatPercentBp(ltl.fuelBp)),
        cls,
        ...breaks.map((w) => {
          const index = ltl.breaks.findIndex((b) => b.minWeight === w);
          const rate = index >= 0 ? rates[index] : undefined;
          return rate === undefined ? null : Number(money(rate));
        }),
      ]);
    }
  }
  const ftlRows = lanes
    .filter((l) => l.ftl)
    .map((lane) => {
      const ftl = lane.ftl as LaneFtl;
      return [
        lane.origin,
        lane.destination,
        ftl.flatRate !== undefined ? Number(money(ftl.flatRate)) : null,
        ftl.ratePerMile !== undefined ? Number(money(ftl.ratePerMile)) : null,
        ftl.miles ?? null,
        Number(money(ftl.minimumCharge)),
        Number(formatPercentBp(ftl.fuelBp)),
        ftl.maxWeight,
      ];
    });
  return [
    {
      name: nameOf('LTL'),
      header: [...LTL_COLUMNS.map((c) => header(language, c)), ...breaks.map(String)],
      rows: ltlRows,
    },
    { name: nameOf('FTL'), header: FTL_COLUMNS.map((c) => header(language, c)), rows: ftlRows },
  ];
}

/** The empty workbook with one example lane of each kind. */
export function templateLanes(): LaneRow[] {
  const now = new Date();
  const rates = (base: number) => [0, 1, 2, 3].map((i) => Math.round(base * (1 - i * 0.12)));
  return [
    {
      tenantId: 0,
      id: 0,
      productId: 0,
      origin: '900-935',
      destination: 'TX',
      ltl: {
        breaks: [{ minWeight: 0 }, { minWeight: 500 }, { minWeight: 1000 }, { minWeight: 2000 }],
        rates: { '50': rates(4_000), '70': rates(5_200), '100': rates(7_000) },
        minimumCharge: 9_500,
        discountBp: 6_500,
        fuelBp: 2_850,
      },
      ftl: null,
      createdAt: now,
      updatedAt: now,
    },
    {
      tenantId: 0,
      id: 0,
      productId: 0,
      origin: 'CA',
      destination: 'NJ',
      ltl: null,
      ftl: { ratePerMile: 285, minimumCharge: 150_000, fuelBp: 2_000, maxWeight: 45_000 },
      createdAt: now,
      updatedAt: now,
    },
  ];
}

export interface TariffRowError {
  sheet: string;
  /** The row number as the spreadsheet shows it. */
  row: number;
  message: string;
}

type LaneInput = Pick<LaneSaveBody, 'origin' | 'destination' | 'ltl' | 'ftl'>;

/** Every header name a column may carry, in either language, lower-cased. */
function headerIndex(sheet: ExcelJS.Worksheet, columns: readonly string[]) {
  const names = new Map<string, string>();
  for (const column of columns)
    for (const language of ['zh-CN', 'en-US'] as const)
      names.set(header(language, column).toLowerCase(), column);
  const found = new Map<string, number>();
  const breaks: { column: number; weight: number }[] = [];
  sheet.getRow(1).eachCell((cell, column) => {
    const text = String(cell.value ?? '')
      .trim()
      .toLowerCase();
    const known = names.get(text);
    if (known) found.set(known, column);
    else if (/^\d+$/.test(text)) breaks.push({ column, weight: Number(text) });
  });
  return { found, breaks };
}

/**
 * Reads a tariff workbook into lanes, checking every row. Either all lanes come back or the errors
 * of every bad row, each named by sheet and row number as the spreadsheet shows them.
 */
export function parseTariffWorkbook(
  workbook: ExcelJS.Workbook,
  language: Language,
): { lanes: LaneInput[] } | { errors: TariffRowError[] } {
  const errors: TariffRowError[] = [];
  const t = (key: MessageKey, params: Record<string, string | number> = {}) =>
    translate(language, key, params);
  const sheets = new Map(workbook.worksheets.map((s) => [s.name.trim().toLowerCase(), s]));
  const find = (mode: 'LTL' | 'FTL') =>
    sheets.get(sheetName('zh-CN', mode).toLowerCase()) ?? sheets.get(sheetName('en-US', mode).toLowerCase());
  const ltlSheet = find('LTL');
  const ftlSheet = find('FTL');
  if (!ltlSheet && !ftlSheet) return { errors: [{ sheet: '', row: 0, message: t('tariff.noSheets') }] };

  const lanes = new Map<string, LaneInput>();
  const laneOf = (origin: string, destination: string) => {
    const key = `${origin}\u0000${destination}`;
    const lane = lanes.get(key) ?? { origin, destination, ltl: null, ftl: null };
    lanes.set(key, lane);
    return lane;
  };

  const readSheet = (
    sheet: ExcelJS.Worksheet,
    columns: readonly string[],
    onRow: (get: (column: string) => string | null, breakCells: (string | null)[], rowNumber: number) => void,
    breaks?: { column: number; weight: number }[],
  ) => {
    const { found, breaks: breakColumns } = headerIndex(sheet, columns);
    const missing = columns.filter(
      (c) => !found.has(c) && c !== 'flatRate' && c !== 'ratePerMile' && c !== 'miles',
    );
    if (missing.length > 0) {
      errors.push({
        sheet: sheet.name,
        row: 1,
        message: t('tariff.missingColumns', { columns: missing.map((c) => header(language, c)).join(', ') }),
      });
      return;
    }
    if (breaks) breaks.push(...breakColumns.sort((a, b) => a.weight - b.weight));
    sheet.eachRow({ includeEmpty: false }, (row, rowNumber) => {
      if (rowNumber === 1) return;
      let bad: string | null = null;
      const text = (column: number): string | null => {
        const cell = importCell(row.getCell(column));
        if (!cell.ok) {
          bad = t(cell.reason === 'formula' ? 'import.formula' : 'import.badCell', {
            cell: row.getCell(column).address,
          });
          return null;
        }
        return cell.value === null ? null : String(cell.value).trim();
      };
      const values = new Map(columns.map((c) => [c, found.has(c) ? text(found.get(c) as number) : null]));
      const breakCells = (breaks ?? []).map((b) => text(b.column));
      if (bad) {
        errors.push({ sheet: sheet.name, row: rowNumber, message: bad });
        return;
      }
      if ([...values.values(), ...breakCells].every((v) => v === null)) return;
      onRow((c) => values.get(c) ?? null, breakCells, rowNumber);
    });
  };

  const asMoney = (value: string | null) => {
    if (value === null) return undefined;
    const n = Number(value);
    if (!Number.isFinite(n) || n < 0) return null;
    const fixed = String(Math.round(n * 100) / 100);
    return isMoneyString(fixed) && Math.abs(n * 100 - Math.round(n * 100)) < 1e-6 ? fixed : null;
  };

  if (ltlSheet) {
    const breaks: { column: number; weight: number }[] = [];
    const grouped = new Map<string, { rows: number[]; body: NonNullable<LaneInput['ltl']> }>();
    readSheet(
      ltlSheet,
      LTL_COLUMNS,
      (get, breakCells, rowNumber) => {
        const fail = (key: MessageKey, params: Record<string, string | number> = {}) =>
          errors.push({ sheet: ltlSheet.name, row: rowNumber, message: t(key, params) });
        const cls = get('class') as FreightClass | null;
        if (!cls || !(FREIGHT_CLASSES as readonly string[]).includes(cls))
          return fail('tariff.badValue', { column: header(language, 'class') });
        const rates: string[] = [];
        const weights: number[] = [];
        for (const [i, cell] of breakCells.entries()) {
          const value = asMoney(cell);
          if (value === null) return fail('tariff.badValue', { column: String(breaks[i]?.weight) });
          if (value !== undefined) {
            rates.push(value);
            weights.push(breaks[i]?.weight as number);
          }
        }
        const minimumCharge = asMoney(get('minimumCharge'));
        if (!minimumCharge) return fail('tariff.badValue', { column: header(language, 'minimumCharge') });
        const percent = (column: 'discountPercent' | 'fuelPercent') => {
          const value = asMoney(get(column) ?? '0');
          return value && Number(value) <= 100 ? value : null;
        };
        const discountPercent = percent('discountPercent');
        if (!discountPercent) return fail('tariff.badValue', { column: header(language, 'discountPercent') });
        const fuelPercent = percent('fuelPercent');
        if (!fuelPercent) return fail('tariff.badValue', { column: header(language, 'fuelPercent') });
        const origin = get('origin') ?? '';
        const destination = get('destination') ?? '';
        const key = `${origin.toUpperCase()}\u0000${destination.toUpperCase()}`;
        const group = grouped.get(key) ?? {
          rows: [],
          body: { breaks: weights, rates: {}, minimumCharge, discountPercent, fuelPercent },
        };
        if (group.body.breaks.join() !== weights.join()) return fail('tariff.breaksDiffer');
        group.rows.push(rowNumber);
        group.body.rates[cls] = rates;
        grouped.set(key, group);
      },
      breaks,
    );
    for (const [key, group] of grouped) {
      const [origin = '', destination = ''] = key.split('\u0000');
      const lane = laneOf(origin, destination);
      lane.ltl = group.body;
    }
    for (const [key, group] of grouped) {
      const [origin = '', destination = ''] = key.split('\u0000');
      checkLane({ origin, destination, ltl: group.body, ftl: null }, ltlSheet.name, group.rows[0] as number);
    }
  }

  if (ftlSheet)
    readSheet(ftlSheet, FTL_COLUMNS, (get, _breaks, rowNumber) => {
      const fail = (column: string) =>
        errors.push({
          sheet: ftlSheet.name,
          row: rowNumber,
          message: t('tariff.badValue', { column: header(language, column) }),
        });
      const optionalMoney = (column: string) => asMoney(get(column));
      const flatRate = optionalMoney('flatRate');
      const ratePerMile = optionalMoney('ratePerMile');
      const minimumCharge = optionalMoney('minimumCharge') ?? '0';
      const fuelPercent = optionalMoney('fuelPercent') ?? '0';
      const milesText = get('miles');
      const maxWeightText = get('maxWeight');
      if (flatRate === null) return fail('flatRate');
      if (ratePerMile === null) return fail('ratePerMile');
      if (minimumCharge === null) return fail('minimumCharge');
      if (fuelPercent === null || Number(fuelPercent) > 100) return fail('fuelPercent');
      if (milesText !== null && !/^\d+$/.test(milesText)) return fail('miles');
      if (maxWeightText !== null && !/^\d+$/.test(maxWeightText)) return fail('maxWeight');
      const ftl = {
        ...(flatRate !== undefined ? { flatRate } : {}),
        ...(ratePerMile !== undefined ? { ratePerMile } : {}),
        ...(milesText !== null ? { miles: Number(milesText) } : {}),
        minimumCharge,
        fuelPercent,
        maxWeight: maxWeightText !== null ? Number(maxWeightText) : 45_000,
      };
      const origin = (get('origin') ?? '').toUpperCase();
      const destination = (get('destination') ?? '').toUpperCase();
      if (checkLane({ origin, destination, ltl: null, ftl }, ftlSheet.name, rowNumber))
        laneOf(origin, destination).ftl = ftl;
    });

  function checkLane(lane: LaneInput, sheet: string, row: number): boolean {
    const parsed = laneSaveBody.safeParse({ productId: 1, ...lane });
    if (parsed.success) return true;
    const issue = parsed.error.issues[0];
    const field = String(issue?.path[0] ?? '');
    const key = issue?.message ?? '';
    const message =
      field === 'origin' || field === 'destination'
        ? t('tariff.badValue', { column: header(language, field) })
        : key.includes('.')
          ? t(key as MessageKey, { field })
          : t('tariff.badValue', { column: field });
    errors.push({ sheet, row, message });
    return false;
  }

  if (errors.length > 0)
    return { errors: errors.sort((a, b) => a.sheet.localeCompare(b.sheet) || a.row - b.row) };
  const result = [...lanes.values()].map((l) => ({
    ...l,
    origin: l.origin.toUpperCase(),
    destination: l.destination.toUpperCase(),
  }));
  if (result.length === 0) return { errors: [{ sheet: '', row: 0, message: t('import.empty') }] };
  return { lanes: result };
}
