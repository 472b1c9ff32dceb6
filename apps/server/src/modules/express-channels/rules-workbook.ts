import type { Language } from '@freight/contracts/api';
import { formatPercentBp } from '@freight/contracts/customers';
import { type RatingRulesBody, ratingRulesBody } from '@freight/contracts/express-channels';
import type { RatingRules } from '@freight/contracts/express-rating';
import { type MessageKey, translate } from '@freight/contracts/messages';
import { formatMoney } from '@freight/contracts/money';
import { fieldLabel, localizeIssues } from '@freight/contracts/validation';
import type ExcelJS from 'exceljs';
import { YES_NO, yesNoCell } from '../../lib/batch-sheet.ts';
import {
  aboutColumn,
  type CellValue,
  codeText,
  headerColumns,
  moneyText,
  normalised,
  readCells,
  sheetNamed,
  type TableRowError,
  weightOf,
} from './workbook-cells.ts';

/*
 * A channel's billing rules in its price workbook, beside the tables they bill by: a sheet of settings
 * (a setting and its value a row), a sheet of surcharge rules (a rule a row, a column per zone fee)
 * and a sheet of fuel rates by date. Choices are written as the codes the rules card offers.
 */

export type RulesInput = Omit<RatingRulesBody, 'channelId'>;
type Sheet = { name: string; header: string[]; rows: (string | number | null)[][]; widths?: number[] };

const SETTINGS = [
  'dimRounding',
  'dimThreshold',
  'underOneUnit',
  'beyondLastWeight',
  'cubicRoundDown',
  'cubicMaxWeight',
  'cubicMaxLongest',
] as const;
type Setting = (typeof SETTINGS)[number];

/** The setting's name in the sheet: its field's label, a cubic one after the cubic tiers' label. */
function settingLabel(setting: Setting, language: Language): string {
  const cubic: Partial<Record<Setting, string>> = {
    cubicRoundDown: 'roundDown',
    cubicMaxWeight: 'maxWeight',
    cubicMaxLongest: 'maxLongest',
  };
  const field = cubic[setting];
  if (!field) return fieldLabel(setting, language);
  return `${fieldLabel('cubic', language)}: ${fieldLabel(field, language)}`;
}

const RULE_COLUMNS = [
  'name',
  'trigger',
  'over',
  'values',
  'fee',
  'fuel',
  'group',
  'replaces',
  'minBillable',
] as const;
type RuleColumn = (typeof RULE_COLUMNS)[number];
const ruleHeader = (language: Language, column: RuleColumn) =>
  translate(language, `expressChannel.ruleColumn.${column}` as MessageKey);
const FUEL_COLUMNS = ['from', 'percent'] as const;
type FuelColumn = (typeof FUEL_COLUMNS)[number];
const fuelHeader = (language: Language, column: FuelColumn) =>
  translate(language, `expressChannel.fuelColumn.${column}` as MessageKey);
/** A zone's fee column: "Zone 5" in either language. */
const zoneHeader = (language: Language, zone: string) => `${fieldLabel('zone', language)} ${zone}`;

const listOf = (value: CellValue) =>
  codeText(value, 0)
    .split(/[\s,;,、]+/)
    .filter(Boolean);

/** The three rule sheets of a channel's rules, the zones of its table heading the zone fee columns. */
export function rulesSheets(rules: RatingRules, zones: readonly string[], language: Language): Sheet[] {
  const money = (cents: number) => Number(formatMoney(BigInt(cents)));
  const yesNo = (value: boolean) => YES_NO[language][value ? 0 : 1];
  const values: Record<Setting, string | number | null> = {
    dimRounding: rules.dimRounding,
    dimThreshold: rules.dimThreshold,
    underOneUnit: rules.underOneUnit?.step ?? null,
    beyondLastWeight: rules.beyondLastWeight,
    cubicRoundDown: rules.cubic?.roundDown ?? null,
    cubicMaxWeight: rules.cubic?.maxWeight ?? null,
    cubicMaxLongest: rules.cubic?.maxLongest ?? null,
  };
  // Every zone a rule prices, the table's first, in order.
  const feeZones = [...zones];
  for (const rule of rules.surchargeRules)
    for (const zone of Object.keys(rule.feeByZone)) if (!feeZones.includes(zone)) feeZones.push(zone);
  return [
    {
      name: translate(language, 'expressChannel.sheetRules'),
      header: [
        translate(language, 'expressChannel.settingColumn'),
        translate(language, 'expressChannel.valueColumn'),
      ],
      rows: SETTINGS.map((s) => [settingLabel(s, language), values[s]]),
      widths: [34, 16],
    },
    {
      name: translate(language, 'expressChannel.sheetSurchargeRules'),
      header: [
        ...RULE_COLUMNS.map((c) => ruleHeader(language, c)),
        ...feeZones.map((z) => zoneHeader(language, z)),
      ],
      rows: rules.surchargeRules.map((rule) => [
        rule.name,
        rule.trigger,
        rule.over || null,
        rule.values.join(', ') || null,
        money(rule.fee),
        yesNo(rule.fuel),
        rule.group || null,
        rule.replaces.join(', ') || null,
        rule.minBillable || null,
        ...feeZones.map((z) => (rule.feeByZone[z] === undefined ? null : money(rule.feeByZone[z]))),
      ]),
      widths: [30, 14],
    },
    {
      name: translate(language, 'expressChannel.sheetFuel'),
      header: FUEL_COLUMNS.map((c) => fuelHeader(language, c)),
      rows: rules.fuel.map((f) => [f.from, Number(formatPercentBp(f.bp))]),
    },
  ];
}

/**
 * The rules of a price workbook, or null when it has no settings sheet (the channel keeps its rules).
 * Bad rows are added to `errors`, each on its sheet and row.
 */
export function parseRulesSheets(
  workbook: ExcelJS.Workbook,
  language: Language,
  errors: TableRowError[],
): RulesInput | null {
  const settingsSheet = sheetNamed(workbook, 'expressChannel.sheetRules');
  if (!settingsSheet) return null;
  const before = errors.length;
  const fail = (sheet: ExcelJS.Worksheet, row: number, field: string, message: string) =>
    errors.push({ sheet: sheet.name, row, field, message });

  // Settings, by the label in their first cell.
  const byLabel = new Map<string, Setting>();
  for (const setting of SETTINGS)
    for (const l of ['zh-CN', 'en-US'] as const) byLabel.set(settingLabel(setting, l).toLowerCase(), setting);
  const settings = new Map<Setting, { value: CellValue; row: number }>();
  settingsSheet.eachRow({ includeEmpty: false }, (row, rowNumber) => {
    if (rowNumber === 1) return;
    const cells = readCells(row, [1, 2], language);
    if ('message' in cells) return fail(settingsSheet, rowNumber, '', cells.message);
    const [label = null, value = null] = cells.values;
    if (label === null && value === null) return;
    const setting = byLabel.get(normalised(label));
    if (!setting)
      return fail(
        settingsSheet,
        rowNumber,
        '',
        translate(language, 'expressChannel.unknownSetting', { name: String(label ?? '') }),
      );
    settings.set(setting, { value, row: rowNumber });
  });
  const text = (s: Setting) => codeText(settings.get(s)?.value ?? null, 0).toLowerCase();
  const number = (s: Setting): number | null | undefined => {
    const value = settings.get(s)?.value ?? null;
    if (value === null || value === '') return null;
    const n = weightOf(value);
    if (n === null)
      fail(
        settingsSheet,
        settings.get(s)?.row ?? 0,
        s,
        aboutColumn(language, settingLabel(s, language), 'validation.invalid'),
      );
    return n ?? undefined;
  };
  const dimThreshold = number('dimThreshold');
  const step = number('underOneUnit');
  const roundDown = number('cubicRoundDown');
  const maxWeight = number('cubicMaxWeight');
  const maxLongest = number('cubicMaxLongest');

  // Surcharge rules: the fixed columns, then a fee column per zone.
  const surchargeRules: unknown[] = [];
  const ruleRows: number[] = [];
  const rulesSheet = sheetNamed(workbook, 'expressChannel.sheetSurchargeRules');
  if (rulesSheet) {
    const { found, missing } = headerColumns(rulesSheet, RULE_COLUMNS, ruleHeader);
    if (missing.length > 0)
      fail(
        rulesSheet,
        1,
        '',
        missingColumns(
          language,
          missing.map((c) => ruleHeader(language, c)),
        ),
      );
    else {
      const zonePrefixes = (['zh-CN', 'en-US'] as const).map((l) => fieldLabel('zone', l).toLowerCase());
      const zoneColumns: { zone: string; column: number }[] = [];
      rulesSheet.getRow(1).eachCell((cell, column) => {
        const header = normalised(typeof cell.value === 'string' ? cell.value : null);
        const prefix = zonePrefixes.find((p) => header.startsWith(`${p} `));
        if (prefix) zoneColumns.push({ zone: header.slice(prefix.length).trim().toUpperCase(), column });
      });
      rulesSheet.eachRow({ includeEmpty: false }, (row, rowNumber) => {
        if (rowNumber === 1) return;
        const cells = readCells(
          row,
          [...RULE_COLUMNS.map((c) => found.get(c) as number), ...zoneColumns.map((z) => z.column)],
          language,
        );
        if ('message' in cells) return fail(rulesSheet, rowNumber, '', cells.message);
        if (cells.values.every((v) => v === null)) return;
        const cell = (c: RuleColumn) => cells.values[RULE_COLUMNS.indexOf(c)] ?? null;
        const fuel = yesNoCell(codeText(cell('fuel'), 0));
        if (fuel === null)
          return fail(
            rulesSheet,
            rowNumber,
            'fuel',
            translate(language, 'expressBatch.yesNo', { field: ruleHeader(language, 'fuel') }),
          );
        const amounts = zoneColumns.map((z, i) => ({
          zone: z.zone,
          fee: moneyText(cells.values[RULE_COLUMNS.length + i] ?? null),
        }));
        const badZone = amounts.find((a) => a.fee === null);
        if (badZone)
          return fail(
            rulesSheet,
            rowNumber,
            'feeByZone',
            aboutColumn(language, zoneHeader(language, badZone.zone), 'validation.money'),
          );
        const numeric = (c: RuleColumn) => (cell(c) === null ? undefined : (weightOf(cell(c)) ?? -1));
        ruleRows.push(rowNumber);
        surchargeRules.push({
          name: codeText(cell('name'), 0),
          trigger: normalised(cell('trigger')),
          over: numeric('over'),
          values: listOf(cell('values')),
          fee: moneyText(cell('fee')) || undefined,
          feeByZone: amounts.filter((a) => a.fee !== '').map((a) => ({ zone: a.zone, fee: a.fee })),
          fuel,
          group: codeText(cell('group'), 0),
          replaces: listOf(cell('replaces')),
          minBillable: numeric('minBillable'),
        });
      });
    }
  }

  // Fuel: a date and a percentage a row.
  const fuel: unknown[] = [];
  const fuelRows: number[] = [];
  const fuelSheet = sheetNamed(workbook, 'expressChannel.sheetFuel');
  if (fuelSheet) {
    const { found, missing } = headerColumns(fuelSheet, FUEL_COLUMNS, fuelHeader);
    if (missing.length > 0)
      fail(
        fuelSheet,
        1,
        '',
        missingColumns(
          language,
          missing.map((c) => fuelHeader(language, c)),
        ),
      );
    else
      fuelSheet.eachRow({ includeEmpty: false }, (row, rowNumber) => {
        if (rowNumber === 1) return;
        const date = row.getCell(found.get('from') as number).value;
        const cells = readCells(row, [found.get('percent') as number], language);
        if ('message' in cells) return fail(fuelSheet, rowNumber, '', cells.message);
        // A date typed into a spreadsheet is a date cell: that day.
        const from = date instanceof Date ? date.toISOString().slice(0, 10) : codeText(date as CellValue, 0);
        const [percent = null] = cells.values;
        if (from === '' && percent === null) return;
        fuelRows.push(rowNumber);
        fuel.push({ from, percent: percent === null ? '' : String(percent) });
      });
  }
  if (errors.length > before) return null;

  const parsed = ratingRulesBody.safeParse({
    channelId: 1,
    dimRounding: text('dimRounding') || undefined,
    dimThreshold: dimThreshold ?? undefined,
    underOneUnit: step === null || step === undefined ? null : { step },
    beyondLastWeight: text('beyondLastWeight') || undefined,
    cubic:
      roundDown === null && maxWeight === null
        ? null
        : { roundDown, maxWeight, maxLongest: maxLongest ?? undefined },
    surchargeRules,
    fuel,
  });
  if (!parsed.success) {
    // Each issue on the sheet and row it came from.
    for (const issue of parsed.error.issues) {
      const [head, index] = issue.path;
      const at: [ExcelJS.Worksheet, number] =
        head === 'surchargeRules' && rulesSheet && typeof index === 'number'
          ? [rulesSheet, ruleRows[index] ?? 0]
          : head === 'fuel' && fuelSheet && typeof index === 'number'
            ? [fuelSheet, fuelRows[index] ?? 0]
            : [settingsSheet, settingRow(head, settings)];
      for (const { field, message } of localizeIssues([issue], language)) fail(at[0], at[1], field, message);
    }
    return null;
  }
  const { channelId: _c, ...rules } = parsed.data;
  return rules;
}

const missingColumns = (language: Language, headers: string[]) =>
  translate(language, 'import.missingColumns', { columns: headers.join(', ') });

/** The settings row an issue of a setting came from; 0 (the sheet) when the setting is not there. */
function settingRow(head: PropertyKey | undefined, settings: Map<Setting, { row: number }>): number {
  const setting: Setting | undefined = head === 'cubic' ? 'cubicRoundDown' : SETTINGS.find((s) => s === head);
  return setting ? (settings.get(setting)?.row ?? 0) : 0;
}
