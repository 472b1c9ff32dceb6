import { type Language, ResultCode } from '@freight/contracts/api';
import { formatPercentBp } from '@freight/contracts/customers';
import {
  type ExpressChannelSaveBody,
  type expressChannelExportQuery,
  expressChannelSaveBody,
} from '@freight/contracts/express-channels';
import { EXPRESS_SCOPES, type SurchargeTerms, UNIT_SYSTEMS } from '@freight/contracts/express-rating';
import { type MessageKey, translate } from '@freight/contracts/messages';
import { formatMoney } from '@freight/contracts/money';
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type ExcelJS from 'exceljs';
import type { z } from 'zod';
import type { DbOrTx } from '../../db/client.ts';
import {
  columnLabel,
  readSheetRecords,
  rowIssueMessage,
  type SheetColumn,
  templateWorkbook,
  YES_NO,
  yesNoCell,
} from '../../lib/batch-sheet.ts';
import { AppError, badField } from '../../lib/errors.ts';
import { buildWorkbook, readWorkbook } from '../../lib/xlsx.ts';
import {
  type Caller,
  channelListCondition,
  productOfChannel,
  requireStaff,
  saveChannel,
} from './catalogue.ts';
import { expressChannels, expressProducts } from './schema.ts';
import type { TableRowError } from './workbook-cells.ts';

/*
 * The channel list as a workbook (the /expressChannelManag page): a template, an export of the
 * list's filters in the same columns, and an import that adds a channel for each new code and
 * updates the channel of an existing one, every row or none. What the sheet does not carry (the
 * organisations a channel is open to, its delivery areas, zone chart and price table) an import
 * leaves as it is: each has its own page.
 */

/** A file of more rows than this is refused whole; a tenant's channels are a few dozen. */
export const MAX_CHANNEL_ROWS = 1_000;

/** The columns of the template, the export and the import, in this order; headers in either language. */
export const CHANNEL_COLUMNS: SheetColumn[] = [
  { key: 'code', zh: '渠道代码', en: 'Channel code', required: true, text: true, example: 'EXAMPLE-GND' },
  {
    key: 'productCode',
    zh: '产品代码',
    en: 'Product code',
    required: true,
    exampleVaries: true,
    example: '',
  },
  { key: 'name', zh: '中文名称', en: 'Chinese name', required: true, example: '陆运示例' },
  { key: 'nameEn', zh: '英文名称', en: 'English name', required: true, example: 'Ground example' },
  { key: 'carrier', zh: '承运商', en: 'Carrier', required: true, example: 'UPS' },
  { key: 'service', zh: '服务', en: 'Service', required: true, example: 'Ground' },
  {
    key: 'scope',
    zh: '范围',
    en: 'Scope',
    required: true,
    list: EXPRESS_SCOPES,
    width: 12,
    example: 'domestic',
  },
  {
    key: 'unitSystem',
    zh: '单位制',
    en: 'Unit system',
    required: true,
    list: UNIT_SYSTEMS,
    width: 10,
    example: 'lb_in',
  },
  { key: 'dimDivisor', zh: '体积重除数', en: 'DIM divisor', required: true, width: 10, example: 139 },
  { key: 'transitDaysMin', zh: '最短时效(工作日)', en: 'Transit days min', required: true, example: 2 },
  { key: 'transitDaysMax', zh: '最长时效(工作日)', en: 'Transit days max', required: true, example: 5 },
  { key: 'maxWeight', zh: '单件最大重量', en: 'Max weight', required: true, example: 150 },
  { key: 'maxLength', zh: '单件最大长度', en: 'Max length', required: true, example: 108 },
  { key: 'maxLengthGirth', zh: '最大长度加围长', en: 'Max length + girth', required: true, example: 165 },
  { key: 'enabled', zh: '启用', en: 'Enabled', width: 8, exampleVaries: true, example: '' },
  { key: 'fuelPercent', zh: '燃油附加费率(%)', en: 'Fuel surcharge (%)', example: 10 },
  { key: 'residential', zh: '住宅地址附加费', en: 'Residential fee', example: 4.5 },
  { key: 'signature', zh: '签名服务费', en: 'Signature fee', example: 0 },
  { key: 'handlingFee', zh: '额外处理费', en: 'Additional handling fee', example: 18 },
  { key: 'handlingLongest', zh: '额外处理:最长边超过', en: 'Handling: longest over', example: 48 },
  {
    key: 'handlingSecondLongest',
    zh: '额外处理:次长边超过',
    en: 'Handling: second longest over',
    example: 30,
  },
  { key: 'handlingWeight', zh: '额外处理:重量超过', en: 'Handling: weight over', example: 50 },
  { key: 'largeFee', zh: '超大件附加费', en: 'Large package fee', example: '' },
  { key: 'largeLongest', zh: '超大件:最长边超过', en: 'Large: longest over', example: '' },
  { key: 'largeLengthGirth', zh: '超大件:长度加围长超过', en: 'Large: length + girth over', example: '' },
  { key: 'largeMinBillable', zh: '超大件:最低计费重量', en: 'Large: minimum billable weight', example: '' },
  { key: 'declaredFree', zh: '保价:免费额度', en: 'Declared value: free up to', example: 100 },
  { key: 'declaredPer100', zh: '保价:每 100 收费', en: 'Declared value: per 100', example: 1 },
  { key: 'declaredMinimum', zh: '保价:最低收费', en: 'Declared value: minimum', example: 3 },
];

const column = (key: string) => CHANNEL_COLUMNS.find((c) => c.key === key) as SheetColumn;
const NUMBER_COLUMNS = [
  'dimDivisor',
  'transitDaysMin',
  'transitDaysMax',
  'maxWeight',
  'maxLength',
  'maxLengthGirth',
  'handlingLongest',
  'handlingSecondLongest',
  'handlingWeight',
  'largeLongest',
  'largeLengthGirth',
  'largeMinBillable',
];
/** The optional surcharges: a group of columns each, all filled to charge it or all empty not to. */
const SURCHARGE_GROUPS = {
  additionalHandling: {
    fee: 'handlingFee',
    longest: 'handlingLongest',
    secondLongest: 'handlingSecondLongest',
    weight: 'handlingWeight',
  },
  largePackage: {
    fee: 'largeFee',
    longest: 'largeLongest',
    lengthGirth: 'largeLengthGirth',
    minBillable: 'largeMinBillable',
  },
  declaredValue: { free: 'declaredFree', per100: 'declaredPer100', minimum: 'declaredMinimum' },
} as const;

/** The column a field of the save body came from, so a row's message names the column. */
const COLUMN_OF_PATH: Record<string, string> = {
  code: 'code',
  productId: 'productCode',
  name: 'name',
  nameEn: 'nameEn',
  carrier: 'carrier',
  service: 'service',
  scope: 'scope',
  unitSystem: 'unitSystem',
  dimDivisor: 'dimDivisor',
  transitDaysMin: 'transitDaysMin',
  transitDaysMax: 'transitDaysMax',
  maxWeight: 'maxWeight',
  maxLength: 'maxLength',
  maxLengthGirth: 'maxLengthGirth',
  enabled: 'enabled',
  'surcharges.fuelPercent': 'fuelPercent',
  'surcharges.residential': 'residential',
  'surcharges.signature': 'signature',
  ...Object.fromEntries(
    Object.entries(SURCHARGE_GROUPS).flatMap(([group, fields]) =>
      Object.entries(fields).map(([field, key]) => [`surcharges.${group}.${field}`, key]),
    ),
  ),
};
const columnOfPath = (path: string) => {
  const key = COLUMN_OF_PATH[path];
  return key ? column(key) : null;
};

/* ---------- template and export ---------- */

/** The notes sheet's lines in the caller's language. */
function notes(language: Language, productCodes: readonly string[]): string[] {
  const t = (key: MessageKey, params: Record<string, string | number> = {}) =>
    translate(language, key, params);
  return [
    t('expressChannel.note.rows'),
    t('expressChannel.note.code'),
    t('expressChannel.note.products', { products: productCodes.join(', ') }),
    t('expressChannel.note.choices'),
    t('expressChannel.note.surcharges'),
    t('expressChannel.note.limit', { max: MAX_CHANNEL_ROWS }),
    t('expressChannel.note.required', {
      columns: CHANNEL_COLUMNS.filter((c) => c.required)
        .map((c) => columnLabel(c, language))
        .join(language === 'zh-CN' ? '、' : ', '),
    }),
  ];
}

async function productCodesOf(db: DbOrTx, tenantId: number): Promise<string[]> {
  const rows = await db
    .select({ code: expressProducts.code })
    .from(expressProducts)
    .where(eq(expressProducts.tenantId, tenantId))
    .orderBy(asc(expressProducts.id));
  return rows.map((r) => r.code);
}

/** The template: headers in the caller's language, a grey example row on the tenant's first product, notes. */
export async function channelTemplate(db: DbOrTx, caller: Caller, language: Language): Promise<Buffer> {
  requireStaff(caller);
  const productCodes = await productCodesOf(db, caller.tenantId);
  return templateWorkbook({
    language,
    sheetName: translate(language, 'expressChannel.sheetChannels'),
    columns: CHANNEL_COLUMNS,
    lists: { productCode: productCodes, enabled: YES_NO[language] },
    examples: { productCode: productCodes[0] ?? '', enabled: YES_NO[language][0] },
    notesName: translate(language, 'expressBatch.notesSheet'),
    notes: notes(language, productCodes),
  });
}

const amount = (cents: number) => Number(formatMoney(BigInt(cents)));

type StoredTerms = Omit<SurchargeTerms, 'deliveryAreas'>;

/** A channel as one row of the sheet, in the columns' order: money and measures as numbers. */
function channelCells(
  row: Record<string, string | number | boolean | StoredTerms> & {
    enabled: boolean;
    surcharges: StoredTerms;
  },
  language: Language,
): (string | number | null)[] {
  const s = row.surcharges;
  const values: Record<string, string | number | null> = {
    enabled: YES_NO[language][row.enabled ? 0 : 1],
    fuelPercent: Number(formatPercentBp(s.fuelBp)),
    residential: amount(s.residential),
    signature: amount(s.signature),
    handlingFee: s.additionalHandling ? amount(s.additionalHandling.fee) : null,
    handlingLongest: s.additionalHandling?.longest ?? null,
    handlingSecondLongest: s.additionalHandling?.secondLongest ?? null,
    handlingWeight: s.additionalHandling?.weight ?? null,
    largeFee: s.largePackage ? amount(s.largePackage.fee) : null,
    largeLongest: s.largePackage?.longest ?? null,
    largeLengthGirth: s.largePackage?.lengthGirth ?? null,
    largeMinBillable: s.largePackage?.minBillable ?? null,
    declaredFree: s.declaredValue ? amount(s.declaredValue.freeCents) : null,
    declaredPer100: s.declaredValue ? amount(s.declaredValue.per100) : null,
    declaredMinimum: s.declaredValue ? amount(s.declaredValue.minimum) : null,
  };
  return CHANNEL_COLUMNS.map((c) => {
    if (c.key in values) return values[c.key] ?? null;
    const plain = row[c.key];
    return typeof plain === 'string' || typeof plain === 'number' ? plain : null;
  });
}

const exportColumns = {
  code: expressChannels.code,
  productCode: expressProducts.code,
  name: expressChannels.name,
  nameEn: expressChannels.nameEn,
  carrier: expressChannels.carrier,
  service: expressChannels.service,
  scope: expressChannels.scope,
  unitSystem: expressChannels.unitSystem,
  dimDivisor: expressChannels.dimDivisor,
  transitDaysMin: expressChannels.transitDaysMin,
  transitDaysMax: expressChannels.transitDaysMax,
  maxWeight: expressChannels.maxWeight,
  maxLength: expressChannels.maxLength,
  maxLengthGirth: expressChannels.maxLengthGirth,
  enabled: expressChannels.enabled,
  // Without the delivery areas: their ZIP lists can be long, and the sheet does not carry them.
  surcharges: sql<StoredTerms>`${expressChannels.surcharges} - 'deliveryAreas'`,
};

/**
 * The channels of the list's filters (every page, in the list's order) as a workbook of the template's
 * columns, so an edited export imports back.
 */
export async function exportChannels(
  db: DbOrTx,
  caller: Caller,
  query: z.infer<typeof expressChannelExportQuery>,
  language: Language,
): Promise<Buffer> {
  requireStaff(caller);
  const rows = await db
    .select(exportColumns)
    .from(expressChannels)
    .innerJoin(expressProducts, productOfChannel)
    .where(channelListCondition(caller.tenantId, query))
    .orderBy(desc(expressChannels.id));
  return buildWorkbook([
    {
      name: translate(language, 'expressChannel.sheetChannels'),
      header: CHANNEL_COLUMNS.map((c) => columnLabel(c, language)),
      rows: rows.map((row) => channelCells(row, language)),
      widths: CHANNEL_COLUMNS.map((c) => c.width ?? 16),
      text: CHANNEL_COLUMNS.map((c) => c.text ?? false),
    },
  ]);
}

/* ---------- import ---------- */

/** A row of the file that reads as a channel: the save body and the product code it names. */
interface ChannelSheetRow {
  row: number;
  productCode: string;
  body: Omit<ExpressChannelSaveBody, 'productId' | 'organisationIds'>;
}

/**
 * Reads every row of a channel workbook against the channel form's own schema. Either every row comes
 * back, or the errors of the bad ones, each naming its row and column in the caller's language.
 * Product codes are checked against `productIds` (the tenant's products by code).
 */
export function readChannelSheet(
  workbook: ExcelJS.Workbook,
  language: Language,
  productIds: ReadonlyMap<string, number>,
): { rows: ChannelSheetRow[] } | { errors: TableRowError[] } {
  const sheetName = workbook.worksheets[0]?.name ?? '';
  const read = readSheetRecords(workbook, CHANNEL_COLUMNS, { language, maxRows: MAX_CHANNEL_ROWS });
  if (!read.ok)
    return {
      errors: [
        {
          sheet: sheetName,
          row: read.key === 'import.missingColumns' ? 1 : 0,
          field: '',
          message: translate(language, read.key, read.params ?? {}),
        },
      ],
    };
  const t = (key: MessageKey, params: Record<string, string | number> = {}) =>
    translate(language, key, params);
  const label = (key: string) => columnLabel(column(key), language);
  const errors: TableRowError[] = [...read.errors].map(([row, message]) => ({
    sheet: sheetName,
    row,
    field: '',
    message,
  }));
  const fail = (row: number, field: string, message: string) =>
    errors.push({ sheet: sheetName, row, field, message });
  const rows: ChannelSheetRow[] = [];
  const codeRows = new Map<string, number>();

  for (const { row, values } of read.records) {
    const value = (key: string) => values[key] ?? '';
    let bad = false;
    for (const key of NUMBER_COLUMNS)
      if (value(key) !== '' && !Number.isFinite(Number(value(key)))) {
        fail(row, key, t('validation.invalid', { field: label(key) }));
        bad = true;
      }
    const enabled = yesNoCell(value('enabled'));
    if (enabled === null) {
      fail(row, 'enabled', t('expressBatch.yesNo', { field: label('enabled') }));
      bad = true;
    }
    const productCode = value('productCode');
    if (productCode !== '' && !productIds.has(productCode)) {
      fail(
        row,
        'productCode',
        t('expressChannel.noProductCode', { field: label('productCode'), code: productCode }),
      );
      bad = true;
    }
    // Codes are compared as the unique index compares them: exactly.
    const code = value('code');
    const firstRow = codeRows.get(code);
    if (code !== '' && firstRow !== undefined) {
      fail(row, 'code', t('expressChannel.codeTwice', { field: label('code'), code, row: firstRow }));
      bad = true;
    } else if (code !== '') codeRows.set(code, row);
    if (bad) continue;

    const number = (key: string) => (value(key) === '' ? undefined : Number(value(key)));
    const text = (key: string) => (value(key) === '' ? undefined : value(key));
    /** An optional surcharge: null when its columns are all empty, else its fields for the schema. */
    const group = (fields: Record<string, string>, money: readonly string[]) => {
      if (Object.values(fields).every((key) => value(key) === '')) return null;
      return Object.fromEntries(
        Object.entries(fields).map(([field, key]) => [
          field,
          money.includes(field) ? text(key) : number(key),
        ]),
      );
    };
    const parsed = expressChannelSaveBody.safeParse({
      // The product is checked above by its code; any id satisfies the schema here.
      productId: 1,
      code,
      name: value('name'),
      nameEn: value('nameEn'),
      carrier: value('carrier'),
      service: value('service'),
      scope: value('scope').toLowerCase(),
      unitSystem: value('unitSystem').toLowerCase(),
      dimDivisor: number('dimDivisor'),
      transitDaysMin: number('transitDaysMin'),
      transitDaysMax: number('transitDaysMax'),
      maxWeight: number('maxWeight'),
      maxLength: number('maxLength'),
      maxLengthGirth: number('maxLengthGirth'),
      enabled: enabled ?? undefined,
      surcharges: {
        fuelPercent: text('fuelPercent'),
        residential: text('residential'),
        signature: text('signature'),
        additionalHandling: group(SURCHARGE_GROUPS.additionalHandling, ['fee']),
        largePackage: group(SURCHARGE_GROUPS.largePackage, ['fee']),
        declaredValue: group(SURCHARGE_GROUPS.declaredValue, ['free', 'per100', 'minimum']),
      },
    });
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const path = issue.path.map(String).join('.');
        fail(row, COLUMN_OF_PATH[path] ?? '', rowIssueMessage([issue], language, columnOfPath));
      }
      continue;
    }
    const { productId: _p, organisationIds: _o, id: _i, ...body } = parsed.data;
    rows.push({ row, productCode, body });
  }
  if (errors.length > 0) return { errors: errors.sort((a, b) => a.row - b.row) };
  return { rows };
}

/**
 * Imports a channel workbook: a row whose code the tenant has updates that channel (keeping its
 * organisations, delivery areas and tables), any other adds a channel. In one transaction: a file
 * with any bad row changes nothing.
 */
export async function importChannels(
  db: DbOrTx,
  caller: Caller,
  bytes: Buffer,
  language: Language,
): Promise<{ imported: number; created: number; updated: number }> {
  requireStaff(caller);
  const workbook = await readWorkbook(bytes);
  if (!workbook) throw badField('file', 'import.notXlsx');
  const products = await db
    .select({ id: expressProducts.id, code: expressProducts.code })
    .from(expressProducts)
    .where(eq(expressProducts.tenantId, caller.tenantId));
  const productIds = new Map(products.map((p) => [p.code, p.id]));
  const read = readChannelSheet(workbook, language, productIds);
  if ('errors' in read)
    throw new AppError(ResultCode.BadInput, 'import.failed', {}, undefined, {
      errors: read.errors.slice(0, 100),
    });
  return db.transaction(async (tx) => {
    // Locked, so a concurrent import or edit of one of these channels waits for this one.
    const existing = await tx
      .select({
        id: expressChannels.id,
        code: expressChannels.code,
        organisationIds: expressChannels.organisationIds,
      })
      .from(expressChannels)
      .where(
        and(
          eq(expressChannels.tenantId, caller.tenantId),
          inArray(
            expressChannels.code,
            read.rows.map((r) => r.body.code),
          ),
        ),
      )
      .for('update');
    const byCode = new Map(existing.map((c) => [c.code, c]));
    let created = 0;
    for (const { productCode, body } of read.rows) {
      const current = byCode.get(body.code);
      // The same checks and writes as the channel form; its errors roll the whole file back.
      await saveChannel(tx, caller, {
        ...body,
        id: current?.id,
        productId: productIds.get(productCode) as number,
        organisationIds: current?.organisationIds ?? [],
      });
      if (!current) created++;
    }
    return { imported: read.rows.length, created, updated: read.rows.length - created };
  });
}
