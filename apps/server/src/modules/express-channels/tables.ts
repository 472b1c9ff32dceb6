import type { Language } from '@freight/contracts/api';
import { ResultCode } from '@freight/contracts/api';
import {
  deliveryAreaBody,
  type deliveryAreaDeleteBody,
  type deliveryAreaSaveBody,
  type PriceTableBody,
  priceTableBody,
  type scheduledPricesDeleteBody,
  type ZoneRowBody,
  type zoneListQuery,
  zoneRowBody,
} from '@freight/contracts/express-channels';
import {
  DEFAULT_RATING_RULES,
  type DeliveryArea,
  type PriceTable,
  type RatingRules,
  shipDateToday,
  type UnitSystem,
  type ZoneRow,
} from '@freight/contracts/express-rating';
import { type MessageKey, translate } from '@freight/contracts/messages';
import { formatMoney, parseMoney } from '@freight/contracts/money';
import { fieldLabel, localizeIssues } from '@freight/contracts/validation';
import { and, asc, count, eq, gte, ilike, lte, min, or, type SQL, sql } from 'drizzle-orm';
import type ExcelJS from 'exceljs';
import type { z } from 'zod';
import type { DbOrTx } from '../../db/client.ts';
import { AppError, badField, notFound } from '../../lib/errors.ts';
import { containing } from '../../lib/filters.ts';
import { buildWorkbook, readWorkbook } from '../../lib/xlsx.ts';
import { type Caller, requireStaff, staffChannel, surchargesToApi } from './catalogue.ts';
import { rulesToStored } from './rules.ts';
import { parseRulesSheets, type RulesInput, rulesSheets } from './rules-workbook.ts';
import { expressChannels, expressZoneRows } from './schema.ts';
import type { ChannelRow } from './service.ts';
import {
  aboutColumn,
  codeText,
  headerColumns,
  moneyText,
  normalised,
  readCells,
  sheetNamed,
  type TableRowError,
  textsOf,
  weightOf,
} from './workbook-cells.ts';

/*
 * The rating tables of a channel as staff keep them: its zone chart (rows of their own) and its price
 * table with the delivery-area lists (documents on the channel row). Each is edited on its page,
 * or replaced whole from a workbook in one transaction: every row of the file, or none.
 */

/** Rows a zone chart file may hold: a full ZIP3-to-ZIP3 chart of every origin band fits easily. */
export const MAX_ZONE_ROWS = 50_000;
/** Delivery-area lists of one channel ("DAS", "Extended DAS", "Remote"...): a handful in practice. */
export const MAX_DELIVERY_AREAS = 50;
/** A file with thousands of bad rows is answered with the first ones; the rest are alike. */
const MAX_ERRORS = 100;
/** Rows per insert statement, well under PostgreSQL's 65,535 parameters. */
const INSERT_CHUNK = 5_000;

const cents = (money: string) => Number(parseMoney(money));
const money = (value: number) => formatMoney(BigInt(value));

const importFailed = (errors: TableRowError[]) =>
  new AppError(ResultCode.BadInput, 'import.failed', {}, undefined, { errors: errors.slice(0, MAX_ERRORS) });

/**
 * A channel staff change, locked until the transaction ends, so two imports or edits of one channel
 * follow each other rather than mix.
 */
async function lockedChannel(db: DbOrTx, caller: Caller, channelId: number): Promise<ChannelRow> {
  requireStaff(caller);
  const [channel] = await db
    .select()
    .from(expressChannels)
    .where(and(eq(expressChannels.tenantId, caller.tenantId), eq(expressChannels.id, channelId)))
    .for('update');
  if (!channel) throw notFound();
  return channel;
}

/* ---------- zone charts ---------- */

const ZONE_COLUMNS = ['originFrom', 'originTo', 'destFrom', 'destTo', 'country', 'zone'] as const;
type ZoneColumn = (typeof ZONE_COLUMNS)[number];

export function zoneRowToApi({
  id,
  originFrom,
  originTo,
  destFrom,
  destTo,
  country,
  zone,
}: ZoneRow & { id: number }) {
  return { id, originFrom, originTo, destFrom, destTo, country, zone };
}

/**
 * A ZIP3 or ZIP5 typed as the keyword finds the rows whose origin or destination range holds it,
 * each range compared on as many digits as both give (a ZIP3 finds the ZIP5 exceptions under it).
 */
function zoneKeyword(keyword: string): SQL | undefined {
  if (/^\d{3}(\d{2})?$/.test(keyword)) {
    const zip3 = keyword.slice(0, 3);
    const { destFrom } = expressZoneRows;
    const destTo = sql`coalesce(nullif(${expressZoneRows.destTo}, ''), ${destFrom})`;
    const digits = sql`least(length(${destFrom}), ${keyword.length})`;
    const typed = sql`left(${keyword}, ${digits})`;
    return or(
      and(lte(expressZoneRows.originFrom, zip3), gte(expressZoneRows.originTo, zip3)),
      and(
        sql`${destFrom} <> ''`,
        sql`left(${destFrom}, ${digits}) <= ${typed}`,
        sql`left(${destTo}, ${digits}) >= ${typed}`,
      ),
    );
  }
  return or(
    ilike(expressZoneRows.zone, containing(keyword)),
    ilike(expressZoneRows.country, containing(keyword)),
  );
}

/** A page of a channel's zone chart, in its stored order (the first matching row wins in rating). */
export async function listZoneRows(db: DbOrTx, caller: Caller, query: z.infer<typeof zoneListQuery>) {
  const { channelId, keyword, page, limit } = query;
  await staffChannel(db, caller, channelId);
  const condition = and(
    eq(expressZoneRows.tenantId, caller.tenantId),
    eq(expressZoneRows.channelId, channelId),
    keyword ? zoneKeyword(keyword) : undefined,
  );
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(expressZoneRows)
      .where(condition)
      .orderBy(asc(expressZoneRows.id))
      .limit(limit)
      .offset((page - 1) * limit),
    db.select({ n: count() }).from(expressZoneRows).where(condition),
  ]);
  return { list: rows.map(zoneRowToApi), total: total?.n ?? 0, page, limit };
}

/** The name of the sheet that shows a data sheet's example: the import reads only the data sheets. */
const exampleSheet = (language: Language, sheet: MessageKey) =>
  translate(language, 'expressChannel.exampleOf', { sheet: translate(language, sheet) });

/**
 * A zone chart as a workbook: one row per chart row, headers in the caller's language. The template
 * has no rows to import: its examples are on a sheet of their own, which the import never reads, so
 * an example left in cannot be imported as data.
 */
export async function zoneWorkbook(
  rows: readonly ZoneRow[],
  language: Language,
  examples: readonly ZoneRow[] = [],
): Promise<Buffer> {
  const sheet = (name: string, chartRows: readonly ZoneRow[]) => ({
    name,
    header: ZONE_COLUMNS.map((c) => fieldLabel(c, language)),
    // ZIPs are written as text, so a spreadsheet keeps the zeros of "001".
    rows: chartRows.map((row) => ZONE_COLUMNS.map((c) => row[c] || null)),
    widths: [22, 22, 24, 24, 12, 10],
  });
  return buildWorkbook([
    sheet(translate(language, 'expressChannel.sheetZones'), rows),
    ...(examples.length > 0 ? [sheet(exampleSheet(language, 'expressChannel.sheetZones'), examples)] : []),
  ]);
}

/**
 * The rows the template's example sheet shows: a domestic band to two destination ranges, a ZIP5
 * exception, and one country.
 */
export function templateZoneRows(): ZoneRow[] {
  return [
    { originFrom: '900', originTo: '961', destFrom: '900', destTo: '961', country: '', zone: '2' },
    { originFrom: '900', originTo: '961', destFrom: '000', destTo: '299', country: '', zone: '8' },
    { originFrom: '900', originTo: '961', destFrom: '96799', destTo: '96799', country: '', zone: '9' },
    { originFrom: '000', originTo: '999', destFrom: '', destTo: '', country: 'CA', zone: 'A' },
  ];
}

export async function exportZoneChart(db: DbOrTx, caller: Caller, channelId: number, language: Language) {
  const channel = await staffChannel(db, caller, channelId);
  const rows = await db
    .select()
    .from(expressZoneRows)
    .where(and(eq(expressZoneRows.tenantId, caller.tenantId), eq(expressZoneRows.channelId, channel.id)))
    .orderBy(asc(expressZoneRows.id));
  return { name: `zones-${channel.code}.xlsx`, file: await zoneWorkbook(rows, language) };
}

/**
 * Reads a zone chart workbook, checking every row with the zone-row contract. Either every row comes
 * back, in the file's order, or the errors of the bad rows, each naming its row and field.
 */
export function parseZoneWorkbook(
  workbook: ExcelJS.Workbook,
  language: Language,
): { rows: ZoneRowBody[] } | { errors: TableRowError[] } {
  const sheet = sheetNamed(workbook, 'expressChannel.sheetZones') ?? workbook.worksheets[0];
  if (!sheet)
    return { errors: [{ sheet: '', row: 0, field: '', message: translate(language, 'import.empty') }] };
  const { found, missing } = headerColumns(sheet, ZONE_COLUMNS, (l, c) => fieldLabel(c, l));
  if (missing.length > 0)
    return {
      errors: [
        {
          sheet: sheet.name,
          row: 1,
          field: '',
          message: translate(language, 'import.missingColumns', {
            columns: missing.map((c) => fieldLabel(c, language)).join(', '),
          }),
        },
      ],
    };
  const columns = ZONE_COLUMNS.map((c) => found.get(c) as number);
  const rows: ZoneRowBody[] = [];
  const errors: TableRowError[] = [];
  let dataRows = 0;
  sheet.eachRow({ includeEmpty: false }, (row, rowNumber) => {
    if (rowNumber === 1 || dataRows > MAX_ZONE_ROWS) return;
    const cells = readCells(row, columns, language);
    if ('message' in cells) {
      errors.push({ sheet: sheet.name, row: rowNumber, field: '', message: cells.message });
      return;
    }
    if (cells.values.every((v) => v === null)) return;
    if (++dataRows > MAX_ZONE_ROWS) return;
    const text = Object.fromEntries(
      ZONE_COLUMNS.map((c, i) => {
        const value = cells.values[i] ?? null;
        if (c === 'country' || c === 'zone') return [c, codeText(value, 0)];
        // A destination of four or five digits read as a number is a ZIP5 that lost its zero.
        const digits =
          (c === 'destFrom' || c === 'destTo') && typeof value === 'number' && value >= 1_000 ? 5 : 3;
        return [c, codeText(value, digits)];
      }),
    ) as Record<ZoneColumn, string>;
    const parsed = zoneRowBody.safeParse(text);
    if (parsed.success) rows.push(parsed.data);
    else
      for (const { field, message } of localizeIssues(parsed.error.issues, language))
        errors.push({ sheet: sheet.name, row: rowNumber, field, message });
  });
  if (dataRows > MAX_ZONE_ROWS)
    return {
      errors: [
        {
          sheet: sheet.name,
          row: 0,
          field: '',
          message: translate(language, 'import.tooMany', { max: MAX_ZONE_ROWS }),
        },
      ],
    };
  if (errors.length > 0) return { errors };
  if (rows.length === 0)
    return {
      errors: [{ sheet: sheet.name, row: 0, field: '', message: translate(language, 'import.empty') }],
    };
  return { rows };
}

/** Replaces a channel's zone chart with the workbook's rows: all of them, or none when a row is bad. */
export async function importZoneChart(
  db: DbOrTx,
  caller: Caller,
  channelId: number,
  bytes: Buffer,
  language: Language,
): Promise<number> {
  await staffChannel(db, caller, channelId);
  const workbook = await readWorkbook(bytes);
  if (!workbook) throw badField('file', 'import.notXlsx');
  const parsed = parseZoneWorkbook(workbook, language);
  if ('errors' in parsed) throw importFailed(parsed.errors);
  await db.transaction(async (tx) => {
    await lockedChannel(tx, caller, channelId);
    await tx
      .delete(expressZoneRows)
      .where(and(eq(expressZoneRows.tenantId, caller.tenantId), eq(expressZoneRows.channelId, channelId)));
    // In the file's order: ids rise with it, and rating takes the first row that matches.
    for (let i = 0; i < parsed.rows.length; i += INSERT_CHUNK)
      await tx
        .insert(expressZoneRows)
        .values(
          parsed.rows
            .slice(i, i + INSERT_CHUNK)
            .map((row) => ({ tenantId: caller.tenantId, channelId, ...row })),
        );
  });
  return parsed.rows.length;
}

/* ---------- price tables ---------- */

const centsOrNull = (value: string) => (value === '' ? null : cents(value));
const moneyOrNull = (value: number | null) => (value === null ? null : money(value));

/** The price table as stored: cents, null where a zone has no price; no minimums when none is set. */
export function priceTableToStored(
  body: Omit<PriceTableBody, 'channelId' | 'effectiveFrom' | 'cubic'> & { cubic?: PriceTableBody['cubic'] },
): PriceTable {
  const cubic = body.cubic ?? [];
  return {
    zones: body.zones,
    brackets: body.brackets.map((b) => ({ weight: b.weight, prices: b.prices.map(centsOrNull) })),
    additional: body.additional
      ? { unit: body.additional.unit, prices: body.additional.prices.map(centsOrNull) }
      : null,
    minimums: body.minimums.every((m) => m === '') ? [] : body.minimums.map(centsOrNull),
    ...(cubic.length > 0
      ? { cubic: cubic.map((c) => ({ tier: c.tier, prices: c.prices.map(centsOrNull) })) }
      : {}),
  };
}

/**
 * Where a table staff saved or imported goes: a date after today keeps it beside the channel's table
 * until then (replacing one loaded for the same date); otherwise it is the channel's table now.
 */
function placedPrices(channel: ChannelRow, table: PriceTable, effectiveFrom: string | undefined) {
  // A table dated today or before takes over at once.
  if (!effectiveFrom || effectiveFrom <= shipDateToday())
    return { priceTable: table, pricesUpdatedAt: new Date() };
  const scheduledPrices = [
    ...channel.scheduledPrices.filter((s) => s.effectiveFrom !== effectiveFrom),
    { effectiveFrom, prices: table },
  ].sort((a, b) => a.effectiveFrom.localeCompare(b.effectiveFrom));
  return { scheduledPrices };
}

/** Zones of the chart in the order they first appear. */
async function chartZones(db: DbOrTx, tenantId: number, channelId: number): Promise<string[]> {
  const rows = await db
    .select({ zone: expressZoneRows.zone, first: min(expressZoneRows.id) })
    .from(expressZoneRows)
    .where(and(eq(expressZoneRows.tenantId, tenantId), eq(expressZoneRows.channelId, channelId)))
    .groupBy(expressZoneRows.zone)
    .orderBy(asc(min(expressZoneRows.id)));
  return rows.map((r) => r.zone);
}

/** A channel's price table as the API answers it, with the chart's zones it leaves unpriced. */
export async function priceTableView(db: DbOrTx, channel: ChannelRow) {
  const table = channel.priceTable;
  const zones = await chartZones(db, channel.tenantId, channel.id);
  const priced = new Set(table?.zones ?? []);
  return {
    channelId: channel.id,
    zones: table?.zones ?? [],
    brackets: (table?.brackets ?? []).map((b) => ({ weight: b.weight, prices: b.prices.map(moneyOrNull) })),
    additional: table?.additional
      ? { unit: table.additional.unit, prices: table.additional.prices.map(moneyOrNull) }
      : null,
    minimums: (table?.minimums ?? []).map(moneyOrNull),
    cubic: (table?.cubic ?? []).map((c) => ({ tier: c.tier, prices: c.prices.map(moneyOrNull) })),
    unpricedZones: zones.filter((z) => !priced.has(z)),
    updatedAt: channel.pricesUpdatedAt,
    // A table whose day has come prices already (rating picks it by date); it is still listed here
    // until a save or an import folds it in, so staff see which card is in force.
    scheduled: channel.scheduledPrices.map((s) => ({
      effectiveFrom: s.effectiveFrom,
      brackets: s.prices.brackets.length,
      zones: s.prices.zones,
    })),
  };
}

export async function priceTableInfo(db: DbOrTx, caller: Caller, channelId: number) {
  return priceTableView(db, await staffChannel(db, caller, channelId));
}

/**
 * Replaces a channel's price table with the one staff edited on the page, or keeps it for its date
 * when that is still to come.
 */
export async function savePriceTable(db: DbOrTx, caller: Caller, body: PriceTableBody) {
  const { channelId, effectiveFrom, ...table } = body;
  const channel = await db.transaction(async (tx) => {
    const locked = await lockedChannel(tx, caller, channelId);
    const [row] = await tx
      .update(expressChannels)
      .set(placedPrices(locked, priceTableToStored(table), effectiveFrom))
      .where(and(eq(expressChannels.tenantId, caller.tenantId), eq(expressChannels.id, channelId)))
      .returning();
    return row as ChannelRow;
  });
  return priceTableView(db, channel);
}

/** Removes a table loaded ahead of its date; one whose date has come is the price of quotes already. */
export async function deleteScheduledPrices(
  db: DbOrTx,
  caller: Caller,
  { channelId, effectiveFrom }: z.infer<typeof scheduledPricesDeleteBody>,
) {
  const channel = await db.transaction(async (tx) => {
    const locked = await lockedChannel(tx, caller, channelId);
    if (!locked.scheduledPrices.some((s) => s.effectiveFrom === effectiveFrom))
      throw notFound('expressChannel.noScheduledPrices');
    if (effectiveFrom <= shipDateToday()) throw badField('effectiveFrom', 'expressChannel.scheduleBegun');
    const [row] = await tx
      .update(expressChannels)
      .set({ scheduledPrices: locked.scheduledPrices.filter((s) => s.effectiveFrom !== effectiveFrom) })
      .where(and(eq(expressChannels.tenantId, caller.tenantId), eq(expressChannels.id, channelId)))
      .returning();
    return row as ChannelRow;
  });
  return priceTableView(db, channel);
}

/* ---------- delivery areas ---------- */

async function writeDeliveryAreas(db: DbOrTx, channel: ChannelRow, deliveryAreas: DeliveryArea[]) {
  const surcharges = { ...channel.surcharges, deliveryAreas };
  await db
    .update(expressChannels)
    .set({ surcharges })
    .where(and(eq(expressChannels.tenantId, channel.tenantId), eq(expressChannels.id, channel.id)));
  return surchargesToApi(surcharges);
}

/** Adds a delivery-area list to a channel, or replaces the list of the same name. */
export async function saveDeliveryArea(
  db: DbOrTx,
  caller: Caller,
  body: z.infer<typeof deliveryAreaSaveBody>,
) {
  const { channelId, name, fee, zips } = body;
  return db.transaction(async (tx) => {
    const channel = await lockedChannel(tx, caller, channelId);
    const area: DeliveryArea = { name, fee: cents(fee), zips: [...new Set(zips)] };
    const areas = channel.surcharges.deliveryAreas;
    const index = areas.findIndex((a) => a.name === name);
    if (index < 0 && areas.length >= MAX_DELIVERY_AREAS)
      throw badField('name', 'expressChannel.tooManyAreas', { max: MAX_DELIVERY_AREAS });
    return writeDeliveryAreas(
      tx,
      channel,
      index < 0 ? [...areas, area] : areas.map((a, i) => (i === index ? area : a)),
    );
  });
}

export async function deleteDeliveryArea(
  db: DbOrTx,
  caller: Caller,
  body: z.infer<typeof deliveryAreaDeleteBody>,
) {
  const { channelId, name } = body;
  return db.transaction(async (tx) => {
    const channel = await lockedChannel(tx, caller, channelId);
    const areas = channel.surcharges.deliveryAreas;
    if (!areas.some((a) => a.name === name))
      throw new AppError(ResultCode.NotFound, 'expressChannel.deliveryAreaMissing', { name });
    return writeDeliveryAreas(
      tx,
      channel,
      areas.filter((a) => a.name !== name),
    );
  });
}

/* ---------- the price workbook ---------- */

const unitOf = (system: UnitSystem) => (system === 'lb_in' ? 'lb' : 'kg');
/** The rule sheets in the order `rulesSheets` makes them, for their examples' names. */
const RULE_SHEETS = [
  'expressChannel.sheetRules',
  'expressChannel.sheetSurchargeRules',
  'expressChannel.sheetFuel',
];
const AREA_COLUMNS = ['name', 'fee', 'zip'] as const;
type AreaColumn = (typeof AREA_COLUMNS)[number];
const AREA_HEADERS: Record<AreaColumn, MessageKey> = {
  name: 'expressChannel.areaName',
  fee: 'expressChannel.areaFee',
  zip: 'expressChannel.areaZip',
};
const areaHeader = (language: Language, column: AreaColumn) => translate(language, AREA_HEADERS[column]);
/** The longest delivery-area name the contract takes. */
const MAX_AREA_NAME = 40;

/**
 * The price workbook. Sheet "Prices": a header row (the weight column, then one column per zone),
 * a row per weight bracket (its upper bound, then the price in each zone, empty where there is none),
 * then the rows named "Additional unit" (the unit in the second column), "Additional" (the price of
 * each further unit, per zone) and "Minimum" (per zone), each present only when set. Sheet "Delivery
 * areas": name, fee and one ZIP code per row.
 */
export async function priceWorkbook(
  table: PriceTable | null,
  areas: readonly DeliveryArea[],
  unitSystem: UnitSystem,
  language: Language,
  example?: { table: PriceTable; areas: readonly DeliveryArea[]; rules: RatingRules },
  rules?: RatingRules,
): Promise<Buffer> {
  const t = (key: MessageKey) => translate(language, key, { unit: unitOf(unitSystem) });
  const amount = (value: number | null | undefined) => (value == null ? null : Number(money(value)));
  const priceRows = (prices: PriceTable | null) => {
    const rows: (string | number | null)[][] = (prices?.brackets ?? []).map((b) => [
      b.weight,
      ...b.prices.map(amount),
    ]);
    if (prices?.additional) {
      rows.push([t('expressChannel.additionalUnitRow'), prices.additional.unit]);
      rows.push([t('expressChannel.additionalRow'), ...prices.additional.prices.map(amount)]);
    }
    if (prices && prices.minimums.length > 0)
      rows.push([t('expressChannel.minimumRow'), ...prices.minimums.map(amount)]);
    for (const tier of prices?.cubic ?? [])
      rows.push([`${t('expressChannel.cubicRow')} ${tier.tier}`, ...tier.prices.map(amount)]);
    return rows;
  };
  const pricesSheet = (name: string, prices: PriceTable | null, zones: readonly string[]) => ({
    name,
    header: [t('expressChannel.weightColumn'), ...zones],
    rows: priceRows(prices),
    widths: [22],
  });
  const areasSheet = (name: string, lists: readonly DeliveryArea[]) => ({
    name,
    header: AREA_COLUMNS.map((c) => areaHeader(language, c)),
    rows: lists.flatMap((a) => a.zips.map((zip) => [a.name, amount(a.fee), zip])),
  });
  // The template's data sheets hold no rows (its zones head the price sheet as a start); its examples
  // are on sheets of their own, which the import never reads.
  // The template carries no rules to import (a channel's own stay as they are), only their example.
  const exampleRules = example
    ? rulesSheets(example.rules, example.table.zones, language).map((sheet, i) => ({
        ...sheet,
        name: exampleSheet(language, RULE_SHEETS[i] as MessageKey),
      }))
    : [];
  return buildWorkbook([
    pricesSheet(t('expressChannel.sheetPrices'), table, table?.zones ?? example?.table.zones ?? []),
    areasSheet(t('expressChannel.sheetDeliveryAreas'), areas),
    ...(rules ? rulesSheets(rules, table?.zones ?? [], language) : []),
    ...(example
      ? [
          pricesSheet(
            exampleSheet(language, 'expressChannel.sheetPrices'),
            example.table,
            example.table.zones,
          ),
          areasSheet(exampleSheet(language, 'expressChannel.sheetDeliveryAreas'), example.areas),
          ...exampleRules,
        ]
      : []),
  ]);
}

/** What the template shows: three zones, five brackets, additional units, minimums and a DAS list. */
export function templatePrices(): { table: PriceTable; areas: DeliveryArea[]; rules: RatingRules } {
  const zones = ['2', '3', '4'];
  return {
    table: {
      zones,
      brackets: [1, 2, 3, 4, 5].map((weight) => ({
        weight,
        prices: zones.map((_, z) => 850 + z * 120 + (weight - 1) * (60 + z * 15)),
      })),
      additional: { unit: 1, prices: [60, 75, 90] },
      minimums: [850, 970, 1_090],
    },
    areas: [{ name: 'DAS', fee: 395, zips: ['59001', '82001', '99501'] }],
    rules: {
      ...DEFAULT_RATING_RULES,
      dimRounding: 'nearest',
      beyondLastWeight: 'prorate',
      surchargeRules: [
        {
          name: 'Additional Handling - Weight',
          trigger: 'weight',
          over: 50,
          values: [],
          fee: 3_100,
          feeByZone: { '2': 3_100, '3': 3_350, '4': 3_600 },
          fuel: true,
          group: 'ahs',
          replaces: [],
          minBillable: 0,
        },
      ],
      fuel: [{ from: '2026-01-05', bp: 1_850 }],
    },
  };
}

export async function exportPriceTable(db: DbOrTx, caller: Caller, channelId: number, language: Language) {
  const channel = await staffChannel(db, caller, channelId);
  return {
    name: `prices-${channel.code}.xlsx`,
    file: await priceWorkbook(
      channel.priceTable,
      channel.surcharges.deliveryAreas,
      channel.unitSystem,
      language,
      undefined,
      channel.ratingRules ?? DEFAULT_RATING_RULES,
    ),
  };
}

type PriceInput = Omit<PriceTableBody, 'channelId'>;

/**
 * Reads a price workbook. Either the price table and the delivery areas come back (null areas when
 * the file has no delivery-area sheet: the channel keeps its lists), or the errors of the bad rows.
 */
export function parsePriceWorkbook(
  workbook: ExcelJS.Workbook,
  language: Language,
):
  | { table: PriceInput; areas: DeliveryArea[] | null; rules: RulesInput | null }
  | { errors: TableRowError[] } {
  const t = (key: MessageKey, params: Record<string, string | number> = {}) =>
    translate(language, key, params);
  const sheet = sheetNamed(workbook, 'expressChannel.sheetPrices');
  if (!sheet)
    return { errors: [{ sheet: '', row: 0, field: '', message: t('expressChannel.noPriceSheet') }] };
  const errors: TableRowError[] = [];
  const fail = (row: number, field: string, message: string) =>
    errors.push({ sheet: sheet.name, row, field, message });

  const header = readCells(
    sheet.getRow(1),
    Array.from({ length: Math.max(sheet.getRow(1).cellCount - 1, 0) }, (_, i) => i + 2),
    language,
  );
  if ('message' in header) {
    fail(1, 'zones', header.message);
    return { errors };
  }
  const zones = header.values.map((v) => codeText(v, 0));
  // A styled but empty cell after the last zone is not a zone.
  while (zones.length > 0 && zones[zones.length - 1] === '') zones.pop();
  const zoneLabel = fieldLabel('zone', language);
  if (zones.includes(''))
    fail(1, 'zones', aboutColumn(language, fieldLabel('zones', language), 'validation.required'));

  const special = {
    unit: textsOf('expressChannel.additionalUnitRow'),
    additional: textsOf('expressChannel.additionalRow'),
    minimum: textsOf('expressChannel.minimumRow'),
  };
  const rowsOf = { brackets: [] as number[], cubic: [] as number[], unit: 0, additional: 0, minimum: 0 };
  const brackets: PriceInput['brackets'] = [];
  const cubic: NonNullable<PriceInput['cubic']> = [];
  // "Cubic 0.1" in either language: a cubic tier's prices.
  const cubicLabels = [...textsOf('expressChannel.cubicRow')];
  const cubicTier = (label: string): string | null => {
    const prefix = cubicLabels.find((p) => label.startsWith(p));
    return prefix === undefined ? null : label.slice(prefix.length).trim();
  };
  let unit: number | null = null;
  let additional: string[] | null = null;
  let minimums: string[] = [];
  const priceColumns = zones.map((_, i) => i + 2);

  /** The prices of a row, one per zone, or null after naming each cell that is not an amount. */
  const pricesOf = (row: ExcelJS.Row, rowNumber: number): string[] | null => {
    const cells = readCells(row, priceColumns, language);
    if ('message' in cells) {
      fail(rowNumber, '', cells.message);
      return null;
    }
    const prices = cells.values.map(moneyText);
    const bad = prices.indexOf(null);
    if (bad >= 0) {
      fail(rowNumber, 'zones', aboutColumn(language, `${zoneLabel} ${zones[bad]}`, 'validation.money'));
      return null;
    }
    return prices as string[];
  };

  sheet.eachRow({ includeEmpty: false }, (row, rowNumber) => {
    if (rowNumber === 1) return;
    const first = readCells(row, [1], language);
    if ('message' in first) return fail(rowNumber, '', first.message);
    const label = normalised(first.values[0] ?? null);
    const kind = special.unit.has(label)
      ? 'unit'
      : special.additional.has(label)
        ? 'additional'
        : special.minimum.has(label)
          ? 'minimum'
          : null;
    if (kind) {
      if (rowsOf[kind] > 0)
        return fail(rowNumber, '', t('expressChannel.rowTwice', { row: String(first.values[0]) }));
      rowsOf[kind] = rowNumber;
      if (kind === 'unit') {
        const cell = readCells(row, [2], language);
        const value = 'values' in cell ? weightOf(cell.values[0] ?? null) : null;
        if (value === null)
          return fail(
            rowNumber,
            'additional.unit',
            aboutColumn(language, fieldLabel('additional.unit', language), 'validation.invalid'),
          );
        unit = value;
      } else {
        const prices = pricesOf(row, rowNumber);
        if (prices && kind === 'additional') additional = prices;
        if (prices && kind === 'minimum') minimums = prices;
      }
      return;
    }
    const tier = cubicTier(label);
    if (tier !== null) {
      const size = weightOf(tier);
      if (size === null)
        return fail(
          rowNumber,
          'cubic.tier',
          aboutColumn(language, fieldLabel('cubic.tier', language), 'validation.invalid'),
        );
      const prices = pricesOf(row, rowNumber);
      if (!prices) return;
      rowsOf.cubic.push(rowNumber);
      cubic.push({ tier: size, prices });
      return;
    }
    const weight = weightOf(first.values[0] ?? null);
    if (weight === null) {
      // Something typed beside the table (past the last zone) is not a bracket.
      const rest = readCells(row, priceColumns, language);
      if (first.values[0] === null && 'values' in rest && rest.values.every((v) => v === null)) return;
      return fail(
        rowNumber,
        'brackets.weight',
        aboutColumn(language, fieldLabel('brackets.weight', language), 'validation.invalid'),
      );
    }
    const prices = pricesOf(row, rowNumber);
    if (!prices) return;
    rowsOf.brackets.push(rowNumber);
    brackets.push({ weight, prices });
  });
  if (rowsOf.unit > 0 !== rowsOf.additional > 0)
    fail(Math.max(rowsOf.unit, rowsOf.additional), 'additional', t('expressChannel.additionalPair'));

  const areas = parseDeliveryAreaSheet(workbook, language, errors);
  const rules = parseRulesSheets(workbook, language, errors);
  if (errors.length > 0)
    return { errors: errors.sort((a, b) => a.sheet.localeCompare(b.sheet) || a.row - b.row) };

  const body = {
    channelId: 1,
    zones,
    brackets,
    additional: unit !== null && additional ? { unit, prices: additional } : null,
    minimums,
    cubic,
  };
  const parsed = priceTableBody.safeParse(body);
  if (!parsed.success) {
    // Each issue goes back to the row it came from.
    const rowOf = (path: readonly PropertyKey[]) => {
      const [head, index] = path;
      if (head === 'brackets' && typeof index === 'number') return rowsOf.brackets[index] ?? 0;
      if (head === 'cubic' && typeof index === 'number') return rowsOf.cubic[index] ?? 0;
      if (head === 'additional') return index === 'unit' ? rowsOf.unit : rowsOf.additional;
      if (head === 'minimums') return rowsOf.minimum;
      return head === 'zones' ? 1 : 0;
    };
    for (const issue of parsed.error.issues)
      for (const { field, message } of localizeIssues([issue], language))
        fail(rowOf(issue.path), field, message);
    return { errors: errors.sort((a, b) => a.row - b.row) };
  }
  const { channelId: _c, ...table } = parsed.data;
  return { table, areas, rules };
}

/**
 * The delivery-area sheet: rows of name, fee and ZIP, grouped by name in the order names first appear.
 * Null when the workbook has no such sheet; bad rows are added to `errors`.
 */
function parseDeliveryAreaSheet(
  workbook: ExcelJS.Workbook,
  language: Language,
  errors: TableRowError[],
): DeliveryArea[] | null {
  const sheet = sheetNamed(workbook, 'expressChannel.sheetDeliveryAreas');
  if (!sheet) return null;
  const fail = (row: number, field: string, message: string) =>
    errors.push({ sheet: sheet.name, row, field, message });
  const { found, missing } = headerColumns(sheet, AREA_COLUMNS, areaHeader);
  if (missing.length > 0) {
    fail(
      1,
      '',
      translate(language, 'import.missingColumns', {
        columns: missing.map((c) => areaHeader(language, c)).join(', '),
      }),
    );
    return null;
  }
  const groups = new Map<string, { fee: string; zips: string[]; row: number }>();
  sheet.eachRow({ includeEmpty: false }, (row, rowNumber) => {
    if (rowNumber === 1) return;
    const cells = readCells(
      row,
      AREA_COLUMNS.map((c) => found.get(c) as number),
      language,
    );
    if ('message' in cells) return fail(rowNumber, '', cells.message);
    const [nameCell = null, feeCell = null, zipCell = null] = cells.values;
    if (nameCell === null && feeCell === null && zipCell === null) return;
    const name = codeText(nameCell, 0);
    const fee = moneyText(feeCell);
    const zip = codeText(zipCell, 5);
    const problems: [AreaColumn, MessageKey, Record<string, number>?][] = [];
    if (name === '') problems.push(['name', 'validation.required']);
    else if (name.length > MAX_AREA_NAME)
      problems.push(['name', 'validation.maxLength', { max: MAX_AREA_NAME }]);
    if (feeCell === null) problems.push(['fee', 'validation.required']);
    else if (fee === null || fee === '') problems.push(['fee', 'validation.money']);
    if (zip === '') problems.push(['zip', 'validation.required']);
    else if (!/^\d{5}$/.test(zip)) problems.push(['zip', 'validation.zip']);
    for (const [column, key, params] of problems)
      fail(
        rowNumber,
        column === 'zip' ? 'zips' : column,
        aboutColumn(language, areaHeader(language, column), key, params),
      );
    if (problems.length > 0 || fee === null) return;
    const group = groups.get(name);
    if (!group) groups.set(name, { fee, zips: [zip], row: rowNumber });
    else if (cents(group.fee) !== cents(fee))
      fail(rowNumber, 'fee', translate(language, 'expressChannel.feeDiffers'));
    else group.zips.push(zip);
  });
  if (groups.size > MAX_DELIVERY_AREAS)
    fail(0, 'name', translate(language, 'expressChannel.tooManyAreas', { max: MAX_DELIVERY_AREAS }));
  const areas: DeliveryArea[] = [];
  for (const [name, group] of groups) {
    const zips = [...new Set(group.zips)];
    const parsed = deliveryAreaBody.safeParse({ name, fee: group.fee, zips });
    if (!parsed.success) {
      const [first] = localizeIssues(parsed.error.issues, language);
      fail(group.row, first?.field ?? '', first?.message ?? '');
      continue;
    }
    areas.push({ name, fee: cents(group.fee), zips });
  }
  return areas;
}

/** A value as JSON with every object's keys in order: the database keeps a document's keys its own way. */
const canonical = (value: unknown): string =>
  JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b)))
      : v,
  );

/** Delivery-area lists compared as sets: the order of lists and of their ZIPs means nothing. */
const areasKey = (areas: readonly DeliveryArea[]) =>
  JSON.stringify(
    areas.map((a) => [a.name, a.fee, [...a.zips].sort()] as const).sort((a, b) => a[0].localeCompare(b[0])),
  );

/**
 * Replaces a channel's price table, and its delivery areas when the file has that sheet, with the
 * workbook's: in one update, so a quote never sees the new prices with the old areas.
 */
export async function importPriceTable(
  db: DbOrTx,
  caller: Caller,
  channelId: number,
  bytes: Buffer,
  language: Language,
  effectiveFrom?: string,
): Promise<{ brackets: number; areas: number; scheduled: boolean }> {
  await staffChannel(db, caller, channelId);
  const workbook = await readWorkbook(bytes);
  if (!workbook) throw badField('file', 'import.notXlsx');
  const parsed = parsePriceWorkbook(workbook, language);
  if ('errors' in parsed) throw importFailed(parsed.errors);
  const { table, areas, rules } = parsed;
  const scheduled = effectiveFrom !== undefined && effectiveFrom > shipDateToday();
  const storedRules = rules ? rulesToStored({ channelId, ...rules }) : null;
  await db.transaction(async (tx) => {
    const channel = await lockedChannel(tx, caller, channelId);
    // Delivery areas have no date: a card loaded ahead may carry them only as they are today, so
    // none changes before the prices do.
    const areasChange = areas !== null && areasKey(areas) !== areasKey(channel.surcharges.deliveryAreas);
    if (scheduled && areasChange)
      throw importFailed([
        {
          sheet: translate(language, 'expressChannel.sheetDeliveryAreas'),
          row: 0,
          field: 'effectiveFrom',
          message: translate(language, 'expressChannel.areasHaveNoDate'),
        },
      ]);
    // So have the billing rules: a card loaded ahead may carry them only unchanged.
    const current = channel.ratingRules ?? DEFAULT_RATING_RULES;
    if (scheduled && storedRules && canonical(storedRules) !== canonical(current))
      throw importFailed([
        {
          sheet: translate(language, 'expressChannel.sheetRules'),
          row: 0,
          field: 'effectiveFrom',
          message: translate(language, 'expressChannel.rulesHaveNoDate'),
        },
      ]);
    await tx
      .update(expressChannels)
      .set({
        ...placedPrices(channel, priceTableToStored(table), effectiveFrom),
        ...(areas && !scheduled ? { surcharges: { ...channel.surcharges, deliveryAreas: areas } } : {}),
        ...(storedRules && !scheduled ? { ratingRules: storedRules } : {}),
      })
      .where(and(eq(expressChannels.tenantId, caller.tenantId), eq(expressChannels.id, channelId)));
  });
  return { brackets: table.brackets.length, areas: scheduled ? 0 : (areas?.length ?? 0), scheduled };
}
