import { type Language, ResultCode } from '@freight/contracts/api';
import { type MessageKey, translate } from '@freight/contracts/messages';
import { TRUCK_MODES } from '@freight/contracts/truck-products';
import type { QuoteResult } from '@freight/contracts/truck-quotes';
import { ACCESSORIALS, type Accessorial, FREIGHT_CLASSES } from '@freight/contracts/truck-rating';
import {
  ADDRESS_TYPES,
  type Shipment,
  type ShipmentAddress,
  shipmentBody,
} from '@freight/contracts/truck-shipment';
import type { Db } from '../../db/client.ts';
import {
  columnLabel,
  readFileRecords,
  rowIssueMessage,
  type SheetColumn,
  type SheetRecord,
  type SheetRecords,
  templateWorkbook,
} from '../../lib/batch-sheet.ts';
import { AppError, badField } from '../../lib/errors.ts';
import type { RequestUser } from '../../plugins/context.ts';
import { visibleAddress } from '../addresses/service.ts';
import { findOrganisation, type OrganisationRow, organisationScope } from '../customers/service.ts';
import { enabledProducts, productOpenTo } from '../truck-products/service.ts';
import { quoteOrganisation, truckPricer } from '../truck-quotes/service.ts';
import { type BookInput, bookOrders, bookOrdersAsMade } from './service.ts';

type Caller = Pick<RequestUser, 'id' | 'tenantId' | 'identity' | 'organisationId'>;

/** A file of more rows than this is refused whole: split it. */
export const MAX_BATCH_ROWS = 10_000;

interface AddressExample {
  name: string;
  address1: string;
  zip: string;
  city: string;
  state: string;
  contact: string;
  phone: string;
}

const address = (end: 'pickup' | 'delivery', zhEnd: string, enEnd: string, example: AddressExample) =>
  [
    { key: `${end}Name`, zh: `${zhEnd}名称`, en: `${enEnd} name`, required: true, example: example.name },
    {
      key: `${end}Address1`,
      zh: `${zhEnd}地址1`,
      en: `${enEnd} address 1`,
      required: true,
      width: 24,
      example: example.address1,
    },
    { key: `${end}Address2`, zh: `${zhEnd}地址2`, en: `${enEnd} address 2`, example: '' },
    {
      key: `${end}Zip`,
      zh: `${zhEnd}邮编`,
      en: `${enEnd} ZIP`,
      required: true,
      text: true,
      width: 10,
      example: example.zip,
    },
    { key: `${end}City`, zh: `${zhEnd}城市`, en: `${enEnd} city`, required: true, example: example.city },
    {
      key: `${end}State`,
      zh: `${zhEnd}州`,
      en: `${enEnd} state`,
      required: true,
      width: 8,
      example: example.state,
    },
    {
      key: `${end}Contact`,
      zh: `${zhEnd}联系人`,
      en: `${enEnd} contact`,
      required: true,
      example: example.contact,
    },
    {
      key: `${end}Phone`,
      zh: `${zhEnd}电话`,
      en: `${enEnd} phone`,
      required: true,
      text: true,
      width: 14,
      example: example.phone,
    },
    {
      key: `${end}Type`,
      zh: `${zhEnd}地址类型`,
      en: `${enEnd} address type`,
      list: ADDRESS_TYPES,
      example: 'business',
    },
  ] satisfies SheetColumn[];

/** The template's columns, in order; the header may be in either language. */
export const BATCH_COLUMNS: SheetColumn[] = [
  { key: 'customerOrderNo', zh: '客户单号', en: 'Customer order no.', text: true, example: 'PO-1001' },
  { key: 'productCode', zh: '产品代码', en: 'Product code', exampleVaries: true, example: '' },
  { key: 'mode', zh: '运输方式', en: 'Mode', required: true, list: ['LTL', 'FTL'], width: 8, example: 'LTL' },
  ...address('pickup', '提货', 'Pickup', {
    name: 'Acme Dock',
    address1: '100 Main St',
    zip: '90001',
    city: 'Los Angeles',
    state: 'CA',
    contact: 'Pat Lee',
    phone: '2135550100',
  }),
  ...address('delivery', '送货', 'Delivery', {
    name: 'Dallas DC',
    address1: '500 Commerce St',
    zip: '75201',
    city: 'Dallas',
    state: 'TX',
    contact: 'Sam Ray',
    phone: '2145550100',
  }),
  { key: 'goodsName', zh: '品名', en: 'Goods name', required: true, example: 'Auto parts' },
  { key: 'quantity', zh: '件数', en: 'Quantity', required: true, width: 8, example: 40 },
  { key: 'palletCount', zh: '托数', en: 'Pallets', required: true, width: 8, example: 2 },
  { key: 'length', zh: '长(英寸)', en: 'Length (in)', required: true, width: 10, example: 48 },
  { key: 'width', zh: '宽(英寸)', en: 'Width (in)', required: true, width: 10, example: 40 },
  { key: 'height', zh: '高(英寸)', en: 'Height (in)', required: true, width: 10, example: 48 },
  { key: 'totalWeight', zh: '总重(磅)', en: 'Total weight (lb)', required: true, width: 12, example: 800 },
  { key: 'freightClass', zh: '货物等级', en: 'Freight class', list: FREIGHT_CLASSES, width: 10, example: '' },
  { key: 'accessorials', zh: '附加服务', en: 'Extra services', width: 28, example: 'liftgate_delivery' },
  { key: 'insuredValue', zh: '投保金额', en: 'Insured value', width: 12, example: '' },
  { key: 'note', zh: '备注', en: 'Note', width: 24, example: '' },
];

/**
 * The batch template: the order sheet with its header in the caller's language, dropdowns for the
 * fixed choices, one example row (skipped on import while left as it is), and a sheet of notes.
 */
export async function batchTemplate(language: Language, productCodes: readonly string[]): Promise<Buffer> {
  const zh = language === 'zh-CN';
  const notes = zh
    ? [
        '每行一票订单;灰色的示例行不修改时导入会跳过,可以直接覆盖它。',
        '带 * 的列必填(见下);请全部使用英文填写,邮编为 5 位数字,电话 7 到 15 位数字。',
        '产品代码留空时选最便宜的可用产品。附加服务填写代码,多个用逗号分隔:',
        ACCESSORIALS.join(', '),
        `一次最多 ${MAX_BATCH_ROWS} 行;任何一行有误时整个文件都不会导入。`,
        `必填列:${BATCH_COLUMNS.filter((c) => c.required)
          .map((c) => c.zh)
          .join('、')}`,
      ]
    : [
        'One order per row; the grey example row is skipped while left unchanged: overwrite it.',
        'Fill every field in English; ZIP codes have 5 digits, phones 7 to 15 digits.',
        'An empty product code takes the cheapest product that can carry the order. Extra services are codes, comma separated:',
        ACCESSORIALS.join(', '),
        `At most ${MAX_BATCH_ROWS} rows a file; if any row is wrong, nothing in the file is imported.`,
        `Required columns: ${BATCH_COLUMNS.filter((c) => c.required)
          .map((c) => c.en)
          .join(', ')}`,
      ];
  return templateWorkbook({
    language,
    sheetName: zh ? '订单' : 'Orders',
    columns: BATCH_COLUMNS,
    lists: { productCode: productCodes },
    examples: { productCode: productCodes[0] ?? '' },
    notesName: zh ? '说明' : 'Notes',
    notes,
  });
}

/** The template for a caller: the products it may book fill the product column's dropdown. */
export async function batchTemplateFor(db: Db, caller: Caller, language: Language): Promise<Buffer> {
  const organisation = caller.organisationId
    ? await findOrganisation(db, caller.tenantId, caller.organisationId)
    : null;
  const products = [
    ...(await enabledProducts(db, caller.tenantId, 'LTL')),
    ...(await enabledProducts(db, caller.tenantId, 'FTL')),
  ]
    .filter((p) => caller.identity === 'employee' || productOpenTo(p, organisation?.path ?? null))
    .map((p) => p.code);
  return batchTemplate(language, products);
}

/** The columns of a row that are not its shipment: its own number, its product choice, its note. */
const ROW_COLUMNS = new Set(['customerOrderNo', 'productCode', 'note']);
/** The columns a row's shipment is made of (with the file's chosen pickup, if any, the same for all). */
const SHIPMENT_COLUMNS = BATCH_COLUMNS.map((c) => c.key).filter((key) => !ROW_COLUMNS.has(key));

export interface BatchRow {
  /** The row number as the spreadsheet shows it. */
  row: number;
  customerOrderNo: string;
  productCode: string;
  note: string;
  shipment: Shipment;
}

export type BatchSheet =
  | { ok: true; rows: BatchRow[]; errors: Map<number, string> }
  | { ok: false; key: MessageKey; params?: Record<string, string | number> };

/** A batch file's rows as read, each checked when asked for (`rowOf`): its order's input, or its message. */
type BatchSheetReader =
  | {
      ok: true;
      records: readonly SheetRecord[];
      /** Cells that could not be read, by row. */
      errors: Map<number, string>;
      rowOf(record: SheetRecord): BatchRow | { row: number; error: string };
    }
  | { ok: false; key: MessageKey; params?: Record<string, string | number> };

/** How a batch file's sheet is read into records: with a chosen pickup, its columns may be left out. */
export const batchRecordOptions = (language: Language, pickupOverride: ShipmentAddress | null) => ({
  language,
  maxRows: MAX_BATCH_ROWS,
  // A chosen shipping address is every row's pickup: the pickup columns may be left out.
  mayOmit: (c: SheetColumn) => pickupOverride !== null && c.key.startsWith('pickup'),
});

/** Checks every row of a batch file's records; bad rows come back with their message, good ones parsed. */
export function readBatchSheet(
  records: SheetRecords,
  language: Language,
  today: string,
  pickupOverride: ShipmentAddress | null,
): BatchSheet {
  const sheet = batchSheetReader(records, language, today, pickupOverride);
  return sheet.ok ? { ok: true, ...readAll(sheet) } : sheet;
}

/** Every row of a read file checked: the good ones parsed, the bad ones' messages by row. */
function readAll(sheet: Extract<BatchSheetReader, { ok: true }>): {
  rows: BatchRow[];
  errors: Map<number, string>;
} {
  const rows: BatchRow[] = [];
  const errors = new Map(sheet.errors);
  for (const record of sheet.records) {
    const row = sheet.rowOf(record);
    if ('error' in row) errors.set(row.row, row.error);
    else rows.push(row);
  }
  return { rows, errors };
}

/**
 * A batch file's records, read with `batchRecordOptions`; its rows are checked one by one as asked
 * for, so a file being booked checks each chunk's rows while the chunk before is written.
 */
function batchSheetReader(
  sheet: SheetRecords,
  language: Language,
  today: string,
  pickupOverride: ShipmentAddress | null,
): BatchSheetReader {
  if (!sheet.ok) return sheet;

  const t = (key: MessageKey, params: Record<string, string | number> = {}) =>
    translate(language, key, params);
  const labelOf = (key: string) => {
    const c = BATCH_COLUMNS.find((col) => col.key === key);
    return c ? columnLabel(c, language) : key;
  };
  /** A row's shipment from its cells, or the message of the first thing wrong with them. */
  const checkShipment = (values: Record<string, string>): { shipment: Shipment } | { error: string } => {
    const number = (key: string) => (values[key] === '' ? undefined : Number(values[key]));
    const notNumber = ['quantity', 'palletCount', 'length', 'width', 'height', 'totalWeight'].find(
      (key) => values[key] !== '' && !Number.isFinite(Number(values[key])),
    );
    if (notNumber) return { error: t('validation.invalid', { field: labelOf(notNumber) }) };
    const services = (values.accessorials ?? '').split(/[,,、;\s]+/).filter(Boolean);
    const unknown = services.find(
      (part) => !(ACCESSORIALS as readonly string[]).includes(part.toLowerCase()),
    );
    if (unknown)
      return { error: `${labelOf('accessorials')}: ${t('import.unknownService', { value: unknown })}` };
    const accessorials = services.map((part) => part.toLowerCase() as Accessorial);
    const end = (prefix: 'pickup' | 'delivery') => ({
      name: values[`${prefix}Name`],
      address1: values[`${prefix}Address1`],
      address2: values[`${prefix}Address2`],
      zipcode: values[`${prefix}Zip`],
      city: values[`${prefix}City`],
      state: values[`${prefix}State`],
      contact: values[`${prefix}Contact`],
      phone: values[`${prefix}Phone`]?.replace(/[\s()+-]/g, ''),
      ...(values[`${prefix}Type`] ? { addressType: values[`${prefix}Type`] } : {}),
    });
    const insured = values.insuredValue ?? '';
    const parsed = shipmentBody.safeParse({
      mode: values.mode?.toUpperCase(),
      pickup: pickupOverride ?? end('pickup'),
      delivery: end('delivery'),
      quoteDate: today,
      lines: [
        {
          name: values.goodsName,
          quantity: number('quantity'),
          palletCount: number('palletCount'),
          length: number('length'),
          width: number('width'),
          height: number('height'),
          totalWeight: number('totalWeight'),
          ...(values.freightClass ? { freightClass: values.freightClass } : {}),
        },
      ],
      accessorials,
      insurance: insured ? { included: true, insuredValue: insured } : { included: false },
    });
    if (parsed.success) return { shipment: parsed.data };
    return {
      error: rowIssueMessage(parsed.error.issues, language, (path) => {
        const key = columnOfPath(path);
        return BATCH_COLUMNS.find((c) => c.key === key) ?? null;
      }),
    };
  };

  // Rows whose shipment cells are the same (a file often repeats a lane and its goods) are checked
  // once and share the parsed shipment, and with it one pricing in `bookSheet`.
  const checked = new Map<string, ReturnType<typeof checkShipment>>();
  const rowOf = ({ row, values }: SheetRecord) => {
    const key = SHIPMENT_COLUMNS.map((column) => values[column] ?? '').join('\u0000');
    let outcome = checked.get(key);
    if (!outcome) {
      outcome = checkShipment(values);
      checked.set(key, outcome);
    }
    if ('error' in outcome) return { row, error: outcome.error };
    if ((values.customerOrderNo ?? '').length > 60)
      return {
        row,
        error: `${labelOf('customerOrderNo')}: ${t('validation.maxLength', { field: labelOf('customerOrderNo'), max: 60 })}`,
      };
    return {
      row,
      customerOrderNo: values.customerOrderNo ?? '',
      productCode: values.productCode ?? '',
      note: (values.note ?? '').slice(0, 500),
      shipment: outcome.shipment,
    };
  };
  return { ok: true, records: sheet.records, errors: new Map(sheet.errors), rowOf };
}

/** The template column a shipment field came from, to name it in the row's message. */
function columnOfPath(path: string): string | null {
  const [head, field] = path.split('.');
  if (head === 'pickup' || head === 'delivery') {
    const suffix: Record<string, string> = {
      name: 'Name',
      address1: 'Address1',
      address2: 'Address2',
      zipcode: 'Zip',
      city: 'City',
      state: 'State',
      contact: 'Contact',
      phone: 'Phone',
      addressType: 'Type',
    };
    return field && suffix[field] ? `${head}${suffix[field]}` : null;
  }
  if (head === 'lines') {
    const leaf = path.split('.')[2] ?? '';
    return leaf === 'name' ? 'goodsName' : leaf;
  }
  if (head === 'insurance') return 'insuredValue';
  return head ?? null;
}

/** The product a row books: the one it names, or the cheapest that priced it. */
export function chooseResult(
  results: readonly QuoteResult[],
  productCode: string,
): Extract<QuoteResult, { ok: true }> | { reason: string } {
  const priced = results.filter((r): r is Extract<QuoteResult, { ok: true }> => r.ok);
  if (productCode) {
    const named = results.find((r) => r.code.toUpperCase() === productCode.toUpperCase());
    if (!named) return { reason: 'import.unknownProduct' };
    return named.ok ? named : { reason: `quoteRefusal.${named.reason}` };
  }
  if (priced.length === 0) {
    const first = results[0];
    return { reason: first && !first.ok ? `quoteRefusal.${first.reason}` : 'import.noProduct' };
  }
  const total = (r: (typeof priced)[number]) => r.levels[r.levels.length - 1]?.total ?? 0;
  return priced.reduce((best, r) => (total(r) < total(best) ? r : best));
}

/* ---------- checking and booking a file ---------- */

export interface BatchRequest {
  caller: Caller;
  language: Language;
  /** The organisation the caller books for; its own when not given. */
  organisationId?: number;
  /** An address of the caller's book to use as every row's pickup (SPEC section 5), or 0 for none. */
  pickupAddressId: number;
  bytes: Buffer;
  /** Books the rows when every one passes; otherwise only checks them. */
  commit: boolean;
}

export interface BatchOutcome {
  /** Each row number as the sheet shows it: `success` or the row's message. */
  rows: Record<string, string>;
  failed: number;
  ok: number;
  orders?: { id: number; orderNo: string }[];
}

/**
 * Checks a batch file row by row, prices each row by the same path as a quote, and with `commit`
 * books every row as an unpaid order in one transaction. Any bad row books none: a commit with bad
 * rows is a 400 carrying each row's message.
 */
export async function bookBatch(db: Db, request: BatchRequest): Promise<BatchOutcome> {
  const { caller, language } = request;
  const organisationId = await quoteOrganisation(db, caller, request.organisationId);
  if (!organisationId) throw badField('organisationId', 'quote.organisationRequired');
  const organisation = await findOrganisation(db, caller.tenantId, organisationId);
  if (!organisation) throw badField('organisationId', 'quote.organisationRequired');

  let pickup: ShipmentAddress | null = null;
  if (request.pickupAddressId > 0) {
    const row = await visibleAddress(db, await organisationScope(db, caller), request.pickupAddressId);
    if (!row) throw badField('address_id', 'batch.addressNotFound');
    const {
      id: _i,
      tenantId: _t,
      organisationId: _o,
      isDefaultPickup: _d,
      createdAt: _c,
      updatedAt: _u,
      ...address
    } = row as Record<string, unknown>;
    pickup = { ...(address as unknown as ShipmentAddress), saveToBook: false };
  }

  // Read row by row: a sheet past the row limit is refused without being read to its end.
  const sheet = await readFileRecords(request.bytes, BATCH_COLUMNS, batchRecordOptions(language, pickup));
  if (!sheet) throw badField('file', 'import.notXlsx');
  return bookSheet(db, { caller, language, organisation, pickup, sheet, commit: request.commit });
}

/**
 * The read file's part of `bookBatch`: checks and prices every row of its records (read with
 * `batchRecordOptions`) against what was loaded once for the file, and with `commit` books them all in
 * one transaction, or none.
 */
export async function bookSheet(
  db: Db,
  input: {
    caller: Caller;
    language: Language;
    organisation: OrganisationRow;
    pickup: ShipmentAddress | null;
    sheet: SheetRecords;
    commit: boolean;
  },
): Promise<BatchOutcome> {
  const { caller, language, organisation, pickup, commit } = input;
  const organisationId = organisation.id;
  const today = new Date().toISOString().slice(0, 10);
  const reader = batchSheetReader(input.sheet, language, today, pickup);
  if (!reader.ok)
    throw new AppError(ResultCode.BadInput, reader.key, reader.params ?? {}, [
      { field: 'file', key: reader.key, params: reader.params ?? {} },
    ]);

  const pricer = truckPricer(db, caller.tenantId, organisation);
  // Rows of the same shipment share its parsed object (`batchSheetReader`) and so one pricing: the same
  // shipment against the same tariffs prices the same, to the cent.
  const priced = new Map<Shipment, Promise<QuoteResult[]>>();
  const priceOnce = (shipment: Shipment) => {
    let results = priced.get(shipment);
    if (!results) {
      results = pricer.priceAll(shipment);
      priced.set(shipment, results);
    }
    return results;
  };
  const chosenFor = new Map<Shipment, Map<string, ReturnType<typeof chooseResult>>>();
  const answers = new Map<number, string>(reader.errors);
  /** A row's order to book, or null when it cannot be booked (its answer says why). */
  const check = async (row: (typeof sheet.rows)[number]): Promise<BookInput | null> => {
    let byProduct = chosenFor.get(row.shipment);
    if (!byProduct) {
      byProduct = new Map();
      chosenFor.set(row.shipment, byProduct);
    }
    let chosen = byProduct.get(row.productCode);
    if (!chosen) {
      chosen = chooseResult(await priceOnce(row.shipment), row.productCode);
      byProduct.set(row.productCode, chosen);
    }
    if ('reason' in chosen) {
      answers.set(row.row, translate(language, chosen.reason as MessageKey));
      return null;
    }
    answers.set(row.row, 'success');
    return {
      tenantId: caller.tenantId,
      organisationId,
      userId: caller.id,
      quoteId: null,
      taskId: null,
      shipment: row.shipment,
      result: chosen,
      customerOrderNo: row.customerOrderNo,
      orderType: 'regular',
      shippingNote: '',
      receivingNote: '',
      extraNote: row.note,
    };
  };
  const report = () => {
    const rows = Object.fromEntries(
      [...answers.entries()].sort((a, b) => a[0] - b[0]).map(([k, v]) => [String(k), v]),
    );
    const failed = [...answers.values()].filter((v) => v !== 'success').length;
    return { rows, failed };
  };
  const refused = (rows: Record<string, string>, failed: number) =>
    new AppError(ResultCode.BadInput, 'batch.rowsFailed', { count: failed }, undefined, rows);

  if (commit && reader.errors.size === 0) {
    // Each chunk of rows is read, checked and priced while the chunk before is written; a row that
    // fails rolls the whole file back, after every row was checked so the answer names them all.
    // Pricing reads the tenant's tariffs once per mode: that happens first, outside the transaction,
    // whose one connection the chunks keep busy (and PGlite has no other).
    await Promise.all(TRUCK_MODES.map((mode) => pricer.prepare(mode)));
    const { records } = reader;
    return db.transaction(async (tx) => {
      const orders = await bookOrdersAsMade(
        tx,
        caller.tenantId,
        records.length,
        async (from, to) => {
          const inputs: BookInput[] = [];
          let whole = true;
          for (let i = from; i < to; i++) {
            const row = reader.rowOf(records[i] as SheetRecord);
            const input = 'error' in row ? null : await check(row);
            if ('error' in row) answers.set(row.row, row.error);
            if (input) inputs.push(input);
            else whole = false;
          }
          return whole ? inputs : null;
        },
        'batch',
      );
      const { rows, failed } = report();
      if (!orders) throw refused(rows, failed);
      return { rows, failed: 0, ok: orders.length, orders };
    });
  }

  const sheet = readAll(reader);
  for (const [row, message] of sheet.errors) answers.set(row, message);
  const inputs: BookInput[] = [];
  for (const row of sheet.rows) {
    const input = await check(row);
    if (input) inputs.push(input);
  }
  const { rows, failed } = report();
  if (failed > 0) {
    if (commit) throw refused(rows, failed);
    return { rows, failed, ok: inputs.length };
  }
  if (!commit) return { rows, failed: 0, ok: inputs.length };
  const orders = await db.transaction((tx) => bookOrders(tx, caller.tenantId, inputs, 'batch'));
  return { rows, failed: 0, ok: orders.length, orders };
}
