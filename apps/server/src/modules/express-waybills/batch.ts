import { type Language, ResultCode } from '@freight/contracts/api';
import {
  CUSTOMS_CONTENTS,
  customsIssues,
  type ExpressAddress,
  type ExpressQuoteRefusal,
  type ExpressQuoteResult,
  type ExpressShipmentInput,
  expressAddressBody,
  expressShipmentBody,
  INCOTERMS,
  markBestExpress,
} from '@freight/contracts/express-quotes';
import { PACKAGINGS, UNIT_SYSTEMS } from '@freight/contracts/express-rating';
import { type MessageKey, translate } from '@freight/contracts/messages';
import { localizeIssues } from '@freight/contracts/validation';
import type { z } from 'zod';
import type { Db } from '../../db/client.ts';
import {
  columnLabel,
  readFileRecords,
  rowIssueMessage,
  type SheetColumn,
  type SheetRecords,
  templateWorkbook,
  YES_NO,
  yesNoCell,
} from '../../lib/batch-sheet.ts';
import { AppError, badField } from '../../lib/errors.ts';
import type { RequestUser } from '../../plugins/context.ts';
import { type ExpressAddressRow, visibleExpressAddress } from '../addresses/express-service.ts';
import { hiddenExpressChannelIds } from '../auth/service.ts';
import { findOrganisation, organisationScope } from '../customers/service.ts';
import {
  expressPricer,
  insertBookedExpressQuotes,
  quotableChannels,
  quoteOrganisation,
} from '../express-quotes/service.ts';
import { writeWaybills } from './service.ts';

type Caller = Pick<RequestUser, 'id' | 'tenantId' | 'identity' | 'organisationId'>;
type PricedResult = Extract<ExpressQuoteResult, { ok: true }>;

/** A file of more rows than this is refused whole: split it. */
export const MAX_EXPRESS_BATCH_ROWS = 10_000;

/**
 * The template's columns, in order; the header may be in either language. One row is one waybill of
 * one kind of parcel (`quantity` identical pieces); the sender is the address chosen in the dialog.
 */
export const EXPRESS_BATCH_COLUMNS: SheetColumn[] = [
  { key: 'reference', zh: '参考号', en: 'Reference', text: true, example: 'PO-1001' },
  { key: 'channelCode', zh: '渠道代码', en: 'Channel code', width: 12, example: '' },
  { key: 'recipientName', zh: '收件人', en: 'Recipient name', required: true, example: 'Sam Ray' },
  { key: 'recipientCompany', zh: '收件公司', en: 'Recipient company', example: 'Dallas DC' },
  {
    key: 'recipientAddress1',
    zh: '收件地址1',
    en: 'Recipient address 1',
    required: true,
    width: 24,
    example: '500 Commerce St',
  },
  { key: 'recipientAddress2', zh: '收件地址2', en: 'Recipient address 2', width: 16, example: '' },
  { key: 'recipientCity', zh: '收件城市', en: 'Recipient city', required: true, example: 'Dallas' },
  { key: 'recipientState', zh: '收件州', en: 'Recipient state', width: 8, example: 'TX' },
  {
    key: 'recipientZip',
    zh: '收件邮编',
    en: 'Recipient ZIP',
    required: true,
    text: true,
    zeroPad: 5,
    width: 10,
    example: '75201',
  },
  { key: 'recipientCountry', zh: '收件国家', en: 'Recipient country', width: 8, example: 'US' },
  {
    key: 'recipientPhone',
    zh: '收件电话',
    en: 'Recipient phone',
    required: true,
    text: true,
    width: 14,
    example: '2145550100',
  },
  { key: 'recipientEmail', zh: '收件邮箱', en: 'Recipient e-mail', width: 20, example: '' },
  { key: 'residential', zh: '住宅地址', en: 'Residential', width: 10, exampleVaries: true, example: 'no' },
  { key: 'quantity', zh: '件数', en: 'Quantity', width: 8, example: 1 },
  { key: 'length', zh: '长(英寸/厘米)', en: 'Length (in or cm)', required: true, width: 10, example: 10 },
  { key: 'width', zh: '宽(英寸/厘米)', en: 'Width (in or cm)', required: true, width: 10, example: 8 },
  { key: 'height', zh: '高(英寸/厘米)', en: 'Height (in or cm)', required: true, width: 10, example: 6 },
  {
    key: 'weight',
    zh: '单件重量(磅/千克)',
    en: 'Weight per piece (lb or kg)',
    required: true,
    width: 12,
    example: 4,
  },
  { key: 'declaredValue', zh: '单件申报价值', en: 'Declared value per piece', width: 12, example: '' },
  { key: 'description', zh: '品名', en: 'Description', width: 20, example: 'Auto parts' },
  { key: 'packaging', zh: '包装', en: 'Packaging', list: PACKAGINGS, width: 12, example: 'box' },
  { key: 'unitSystem', zh: '计量单位', en: 'Units', list: UNIT_SYSTEMS, width: 10, example: 'lb_in' },
  { key: 'signature', zh: '签名服务', en: 'Signature', width: 10, exampleVaries: true, example: 'no' },
  { key: 'shipDate', zh: '发货日期', en: 'Ship date', text: true, date: true, width: 12, example: '' },
  // Customs of a parcel going abroad: one kind of goods a row, described by `description`, valued by
  // `declaredValue` a piece, `quantity` pieces of `weight` each.
  {
    key: 'customsContents',
    zh: '报关内容类型',
    en: 'Customs contents',
    list: CUSTOMS_CONTENTS,
    width: 12,
    example: '',
  },
  { key: 'hsCode', zh: 'HS 编码', en: 'HS code', text: true, width: 12, example: '' },
  { key: 'originCountry', zh: '原产国', en: 'Country of origin', width: 8, example: '' },
  { key: 'incoterm', zh: '贸易条款', en: 'Incoterm', list: INCOTERMS, width: 8, example: '' },
  { key: 'receiverTaxId', zh: '收件人税号', en: "Receiver's tax id", text: true, width: 14, example: '' },
];

const column = (key: string) => EXPRESS_BATCH_COLUMNS.find((c) => c.key === key) as SheetColumn;
const NUMBER_COLUMNS = ['quantity', 'length', 'width', 'height', 'weight'];

/** The template: the parcel sheet in the caller's language and notes naming the channels it may use. */
export async function expressBatchTemplate(language: Language, channelCodes: readonly string[]) {
  const t = (key: MessageKey, params: Record<string, string | number> = {}) =>
    translate(language, key, params);
  const no = YES_NO[language][1] as string;
  return templateWorkbook({
    language,
    sheetName: t('expressBatch.sheet'),
    columns: EXPRESS_BATCH_COLUMNS,
    lists: { channelCode: channelCodes, residential: YES_NO[language], signature: YES_NO[language] },
    examples: { residential: no, signature: no },
    notesName: t('expressBatch.notesSheet'),
    notes: [
      t('expressBatch.note.rows'),
      t('expressBatch.note.sender'),
      t('expressBatch.note.english'),
      t('expressBatch.note.channel', { channels: channelCodes.join(', ') }),
      t('expressBatch.note.choices'),
      t('expressBatch.note.customs'),
      t('expressBatch.note.limit', { max: MAX_EXPRESS_BATCH_ROWS }),
      t('expressBatch.note.required', {
        columns: EXPRESS_BATCH_COLUMNS.filter((c) => c.required)
          .map((c) => columnLabel(c, language))
          .join(language === 'zh-CN' ? '、' : ', '),
      }),
    ],
  });
}

/**
 * The template for a caller: the channels open to its organisation, less those its quotation settings
 * hide, fill the channel dropdown.
 */
export async function expressBatchTemplateFor(db: Db, caller: Caller, language: Language) {
  const [channels, hidden] = await Promise.all([
    quotableChannels(db, caller.tenantId, caller.organisationId),
    hiddenExpressChannelIds(db, caller.tenantId, caller.id),
  ]);
  return expressBatchTemplate(
    language,
    channels.filter((c) => !hidden.includes(c.id)).map((c) => c.code),
  );
}

/* ---------- reading a file ---------- */

export interface ExpressBatchRow {
  /** The row number as the spreadsheet shows it. */
  row: number;
  channelCode: string;
  shipment: ExpressShipmentInput;
}

export type ExpressBatchSheet =
  | { ok: true; rows: ExpressBatchRow[]; errors: Map<number, string> }
  | { ok: false; key: MessageKey; params?: Record<string, string | number> };

/** The template column a shipment field came from, to name it in the row's message. */
function columnOfPath(path: string): SheetColumn | null {
  const [head, field, leaf] = path.split('.');
  if (head === 'recipient') {
    const byField: Record<string, string> = {
      name: 'recipientName',
      company: 'recipientCompany',
      address1: 'recipientAddress1',
      address2: 'recipientAddress2',
      city: 'recipientCity',
      state: 'recipientState',
      zipcode: 'recipientZip',
      country: 'recipientCountry',
      phone: 'recipientPhone',
      dialCode: 'recipientPhone',
      email: 'recipientEmail',
      residential: 'residential',
    };
    return field && byField[field] ? column(byField[field]) : null;
  }
  if (head === 'parcels') return leaf ? (EXPRESS_BATCH_COLUMNS.find((c) => c.key === leaf) ?? null) : null;
  if (head === 'unitSystem' || head === 'signature' || head === 'reference' || head === 'shipDate')
    return column(head);
  if (head === 'customs') {
    // The row's one customs item is made of its parcel columns and its own.
    const byField: Record<string, string> = {
      contentsType: 'customsContents',
      incoterm: 'incoterm',
      receiverTaxId: 'receiverTaxId',
      items: 'hsCode',
    };
    const byLeaf: Record<string, string> = {
      description: 'description',
      hsCode: 'hsCode',
      originCountry: 'originCountry',
      quantity: 'quantity',
      unitValue: 'declaredValue',
      weight: 'weight',
    };
    const itemField = path.split('.')[3];
    const key = field === 'items' && itemField ? byLeaf[itemField] : field ? byField[field] : undefined;
    return key ? column(key) : column('customsContents');
  }
  return null;
}

/** A row's customs, when it names any: its one item is the row's goods. */
function rowCustoms(value: (key: string) => string, optional: (key: string) => string | undefined) {
  const contents = value('customsContents').toLowerCase();
  if (!contents && !value('hsCode') && !value('originCountry')) return undefined;
  const number = (key: string) => (value(key) === '' ? undefined : Number(value(key)));
  return {
    contentsType: contents || undefined,
    items:
      contents === 'documents' && !value('hsCode')
        ? []
        : [
            {
              description: value('description'),
              hsCode: value('hsCode'),
              originCountry: value('originCountry'),
              quantity: number('quantity') ?? 1,
              unitValue: value('declaredValue'),
              weight: number('weight'),
            },
          ],
    incoterm: optional('incoterm')?.toUpperCase(),
    receiverTaxId: optional('receiverTaxId'),
  };
}

/**
 * Checks every row of an express batch file's records against the quote form's own schema, with
 * `sender` as every row's sender; bad rows come back with their message naming the column.
 */
export function readExpressBatchSheet(
  sheet: SheetRecords,
  language: Language,
  sender: ExpressAddress,
): ExpressBatchSheet {
  if (!sheet.ok) return sheet;
  const t = (key: MessageKey, params: Record<string, string | number> = {}) =>
    translate(language, key, params);
  const label = (key: string) => columnLabel(column(key), language);
  const rows: ExpressBatchRow[] = [];
  const errors = new Map<number, string>(sheet.errors);
  for (const { row, values } of sheet.records) {
    const value = (key: string) => values[key] ?? '';
    const notNumber = NUMBER_COLUMNS.find((key) => value(key) !== '' && !Number.isFinite(Number(value(key))));
    if (notNumber) {
      errors.set(row, t('validation.invalid', { field: label(notNumber) }));
      continue;
    }
    const notYesNo = ['residential', 'signature'].find((key) => yesNoCell(value(key)) === null);
    if (notYesNo) {
      errors.set(row, t('expressBatch.yesNo', { field: label(notYesNo) }));
      continue;
    }
    const number = (key: string) => (value(key) === '' ? undefined : Number(value(key)));
    const yes = (key: string) => yesNoCell(value(key)) ?? undefined;
    const optional = (key: string) => (value(key) === '' ? undefined : value(key));
    const parsed = expressShipmentBody.safeParse({
      sender,
      recipient: {
        name: value('recipientName'),
        company: optional('recipientCompany'),
        address1: value('recipientAddress1'),
        address2: optional('recipientAddress2'),
        city: value('recipientCity'),
        state: optional('recipientState'),
        zipcode: value('recipientZip'),
        country: optional('recipientCountry'),
        phone: value('recipientPhone').replace(/[\s().+-]/g, ''),
        email: optional('recipientEmail'),
        residential: yes('residential'),
      },
      unitSystem: optional('unitSystem')?.toLowerCase(),
      parcels: [
        {
          quantity: number('quantity'),
          length: number('length'),
          width: number('width'),
          height: number('height'),
          weight: number('weight'),
          declaredValue: optional('declaredValue'),
          description: optional('description'),
          packaging: optional('packaging')?.toLowerCase(),
        },
      ],
      signature: yes('signature'),
      reference: optional('reference'),
      shipDate: optional('shipDate'),
      customs: rowCustoms(value, optional),
    });
    if (!parsed.success) {
      errors.set(row, rowIssueMessage(parsed.error.issues, language, columnOfPath));
      continue;
    }
    // A parcel going abroad declares its contents, as on the quote form.
    const missing = customsIssues(parsed.data);
    if (missing.length > 0) {
      errors.set(
        row,
        rowIssueMessage(
          missing.map((issue) => ({ code: 'custom', input: undefined, ...issue }) as z.core.$ZodIssue),
          language,
          columnOfPath,
        ),
      );
      continue;
    }
    rows.push({ row, channelCode: value('channelCode'), shipment: parsed.data });
  }
  return { ok: true, rows, errors };
}

/** Of several refusals, the one that tells the shipper most about what to change. */
const REFUSAL_ORDER: readonly ExpressQuoteRefusal[] = [
  'overweight',
  'oversize',
  'no_price',
  'no_zone',
  'wrong_scope',
  'no_carrier',
  'carrier_failed',
];

/**
 * The channel a row books: the one its code names, or, left blank, the cheapest that can carry the
 * parcel (the fastest of equally cheap ones). Otherwise the row's message, in the caller's language.
 */
export function chooseChannel(
  results: readonly ExpressQuoteResult[],
  channelCode: string,
  language: Language,
): { ok: true; result: PricedResult } | { ok: false; message: string } {
  const refusal = (reason: ExpressQuoteRefusal) => translate(language, `expressQuote.refusal.${reason}`);
  if (channelCode) {
    const named = results.find((r) => r.code.toUpperCase() === channelCode.toUpperCase());
    if (!named)
      return {
        ok: false,
        message: translate(language, 'expressBatch.unknownChannel', { code: channelCode }),
      };
    if (named.ok) return { ok: true, result: named };
    const sep = language === 'zh-CN' ? ':' : ': ';
    return {
      ok: false,
      message: `${columnLabel(column('channelCode'), language)} ${named.code}${sep}${refusal(named.reason)}`,
    };
  }
  const priced = results.filter((r): r is PricedResult => r.ok);
  if (priced.length === 0) {
    const reasons = new Set(results.flatMap((r) => (r.ok ? [] : [r.reason])));
    const reason = REFUSAL_ORDER.find((r) => reasons.has(r));
    return {
      ok: false,
      message: reason
        ? translate(language, 'expressBatch.noChannelBecause', { reason: refusal(reason) })
        : translate(language, 'expressBatch.noChannel'),
    };
  }
  const total = (r: PricedResult) => r.levels[r.levels.length - 1]?.total ?? 0;
  const best = priced.reduce((a, b) =>
    total(b) < total(a) || (total(b) === total(a) && b.transitDaysMax < a.transitDaysMax) ? b : a,
  );
  return { ok: true, result: best };
}

/* ---------- checking and booking a file ---------- */

/**
 * An express address-book entry as the quote form takes it, checked by the form's own rules; a bad entry
 * is refused naming `field`. The batch's sender and a return's recipient are made this way.
 */
export function bookAddress(
  entry: ExpressAddressRow,
  language: Language,
  field = 'address_id',
): ExpressAddress {
  const parsed = expressAddressBody.safeParse({
    name: entry.name,
    company: entry.company,
    address1: entry.address1,
    address2: entry.address2,
    city: entry.city,
    state: entry.state,
    zipcode: entry.zipcode,
    country: entry.country || 'US',
    dialCode: entry.dialCode || '1',
    phone: entry.phone.replace(/[\s().+-]/g, ''),
    email: entry.email,
    residential: entry.residential,
  });
  if (parsed.success) return parsed.data;
  const [first] = localizeIssues(parsed.error.issues, language);
  throw badField(field, 'expressBatch.senderInvalid', { reason: first?.message ?? '' });
}

export interface ExpressBatchRequest {
  caller: Caller;
  language: Language;
  /** The organisation the caller books for; its own when not given. */
  organisationId?: number;
  /** The express book's sender every parcel ships from (SPEC section 5: required for express). */
  addressId?: number;
  bytes: Buffer;
  /** Books the rows when every one passes; otherwise only checks them. */
  commit: boolean;
}

export interface ExpressBatchOutcome {
  /** Each row number as the sheet shows it: `success` or the row's message. */
  rows: Record<string, string>;
  failed: number;
  ok: number;
  waybills?: { id: number; waybillNo: string }[];
}

/**
 * Checks an express batch file row by row, prices each row by the quotes' one pricing path, and with
 * `commit` books every row as a booked quote and an unpaid waybill, all in one transaction. Any bad
 * row books none: a commit with bad rows is a 400 carrying each row's message.
 */
export async function bookExpressBatch(db: Db, request: ExpressBatchRequest): Promise<ExpressBatchOutcome> {
  const { caller, language } = request;
  const organisationId = await quoteOrganisation(db, caller, request.organisationId);
  if (!organisationId) throw badField('organisationId', 'quote.organisationRequired');
  const organisation = await findOrganisation(db, caller.tenantId, organisationId);
  if (!organisation) throw badField('organisationId', 'quote.organisationRequired');
  if (!request.addressId) throw badField('address_id', 'expressBatch.addressRequired');
  const entry = await visibleExpressAddress(db, await organisationScope(db, caller), request.addressId);
  // A sender of the express book: its recipients and return addresses are not where parcels ship from.
  if (entry?.kind !== 'sender') throw badField('address_id', 'batch.addressNotFound');
  const sender = bookAddress(entry, language);

  // Read row by row: a sheet past the row limit is refused without being read to its end.
  const records = await readFileRecords(request.bytes, EXPRESS_BATCH_COLUMNS, {
    language,
    maxRows: MAX_EXPRESS_BATCH_ROWS,
  });
  if (!records) throw badField('file', 'import.notXlsx');
  const sheet = readExpressBatchSheet(records, language, sender);
  if (!sheet.ok)
    throw new AppError(ResultCode.BadInput, sheet.key, sheet.params ?? {}, [
      { field: 'file', key: sheet.key, params: sheet.params ?? {} },
    ]);

  // Channels, tables and markups are read once for the whole file; the channels the caller's
  // quotation settings hide are left out, as a quote on the page leaves them out.
  const hiddenChannelIds = await hiddenExpressChannelIds(db, caller.tenantId, caller.id);
  // A file of thousands of rows is priced from the tables: channels a carrier's API prices are not
  // booked in batches (each row would be a call to the carrier).
  const pricer = expressPricer(db, caller.tenantId, organisation, { hiddenChannelIds, tablesOnly: true });
  const answers = new Map<number, string>(sheet.errors);
  const booked: { shipment: ExpressShipmentInput; chosen: PricedResult }[] = [];
  for (const row of sheet.rows) {
    const results = await pricer.priceAll(row.shipment);
    const chosen = chooseChannel(results, row.channelCode, language);
    if (!chosen.ok) {
      answers.set(row.row, chosen.message);
      continue;
    }
    answers.set(row.row, 'success');
    booked.push({ shipment: row.shipment, chosen: chosen.result });
  }
  const rows = Object.fromEntries(
    [...answers.entries()].sort((a, b) => a[0] - b[0]).map(([k, v]) => [String(k), v]),
  );
  const failed = answers.size - booked.length;
  if (failed > 0) {
    if (request.commit)
      throw new AppError(ResultCode.BadInput, 'batch.rowsFailed', { count: failed }, undefined, rows);
    return { rows, failed, ok: booked.length };
  }
  if (!request.commit) return { rows, failed: 0, ok: booked.length };

  const waybills = await db.transaction(async (tx) => {
    const quotes = await insertBookedExpressQuotes(
      tx,
      caller.tenantId,
      booked.map((b) => ({
        organisationId,
        userId: caller.id,
        shipment: b.shipment,
        // The channel the row books is what its quote keeps: a file's quotes are never priced or
        // chosen again, and twenty channels' prices on each of thousands of rows cost more to write
        // than the waybills themselves. Its marks are those of what the quote holds, so the quote list
        // shows its price as the quote's cheapest.
        results: markBestExpress([b.chosen]),
        channelId: b.chosen.channelId,
      })),
    );
    return writeWaybills(
      tx,
      caller.tenantId,
      booked.map((b, i) => ({
        organisationId,
        userId: caller.id,
        quoteId: quotes[i]?.id as number,
        shipment: b.shipment,
        result: b.chosen,
      })),
    );
  });
  return {
    rows,
    failed: 0,
    ok: waybills.length,
    waybills: waybills.map((w) => ({ id: w.id, waybillNo: w.waybillNo })),
  };
}
