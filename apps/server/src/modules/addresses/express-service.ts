import {
  EXPRESS_ADDRESS_KIND_LABELS,
  EXPRESS_ADDRESS_KINDS,
  type ExpressAddressKind,
  type ExpressAddressListQuery,
  type ExpressBookAddress,
  MAX_IMPORT_ROWS,
} from '@freight/contracts/addresses';
import type { Language } from '@freight/contracts/api';
import { expressAddressBody } from '@freight/contracts/express-quotes';
import { type MessageKey, translate } from '@freight/contracts/messages';
import { and, count, desc, eq, ilike, ne, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import {
  columnLabel,
  readFileRecords,
  rowIssueMessage,
  type SheetColumn,
  templateWorkbook,
} from '../../lib/batch-sheet.ts';
import { cappedCount, keysetPages } from '../../lib/keyset.ts';
import type { OrganisationScope } from '../customers/service.ts';
import { expressAddresses } from './schema.ts';
import { oneDefault, placesOfZip, presentBookRows, type SheetOutcome, scopeCondition } from './service.ts';

/**
 * The express address book (`/addressList`): senders, recipients and return addresses of an
 * organisation, in the express quote's fields. The express quote, the express batch and returns pick
 * from it (`express-routes.ts`).
 */

export type ExpressAddressRow = typeof expressAddresses.$inferSelect;
/** An entry as an import brings it. */
type ExpressEntry = { kind: ExpressAddressKind; address: ExpressBookAddress };
type Filter = Omit<ExpressAddressListQuery, 'page' | 'limit'>;

/* ---------- the ZIP / state / city check ---------- */

export interface AddressProblem {
  field: 'zipcode' | 'state' | 'city';
  key: MessageKey;
  params?: Record<string, string>;
}

/**
 * The express line's address check (`address/check`): a US address's ZIP must be known and its state
 * and city must be the ZIP's. Addresses abroad are taken as written. Null when the address passes;
 * `place` is the lookup's spelling of the city and state, which carriers expect on the label.
 */
export function checkExpressAddress(address: {
  zipcode: string;
  city: string;
  state: string;
  country: string;
}): { problem: AddressProblem } | { problem: null; place: { city: string; state: string } | null } {
  if (address.country !== 'US') return { problem: null, place: null };
  const { zipcode } = address;
  if (!/^\d{5}(-\d{4})?$/.test(zipcode)) return { problem: { field: 'zipcode', key: 'validation.zip' } };
  const [place] = placesOfZip(zipcode.slice(0, 5));
  if (!place) return { problem: { field: 'zipcode', key: 'express.addressUnknownZip' } };
  if (address.state.trim().toUpperCase() !== place.state)
    return {
      problem: {
        field: 'state',
        key: 'express.addressStateMismatch',
        params: { zipcode, state: place.state },
      },
    };
  if (address.city.trim().toUpperCase() !== place.city.toUpperCase())
    return {
      problem: { field: 'city', key: 'express.addressCityMismatch', params: { zipcode, city: place.city } },
    };
  return { problem: null, place: { city: place.city, state: place.state } };
}

/** A checked US address takes the lookup's spelling of its city and state. */
function spelled(address: ExpressBookAddress, place: { city: string; state: string } | null) {
  return place ? { ...address, city: place.city, state: place.state } : address;
}

/* ---------- reading ---------- */

function listCondition(db: DbOrTx, scope: OrganisationScope, filter: Filter) {
  const keyword = filter.keyword ? `%${filter.keyword}%` : null;
  return and(
    scopeCondition(db, scope, expressAddresses),
    keyword
      ? or(
          ilike(expressAddresses.name, keyword),
          ilike(expressAddresses.company, keyword),
          ilike(expressAddresses.address1, keyword),
          ilike(expressAddresses.city, keyword),
          ilike(expressAddresses.zipcode, keyword),
          ilike(expressAddresses.phone, keyword),
        )
      : undefined,
    filter.kind ? eq(expressAddresses.kind, filter.kind) : undefined,
    filter.country ? eq(expressAddresses.country, filter.country) : undefined,
    filter.state ? eq(sql`upper(${expressAddresses.state})`, filter.state) : undefined,
    filter.organisationId ? eq(expressAddresses.organisationId, filter.organisationId) : undefined,
  );
}

/** Defaults first, then the newest. */
const LIST_ORDER = [desc(expressAddresses.isDefault), desc(expressAddresses.id)];

/** One page of the book of a scope and filter, defaults first. */
export async function listExpressAddresses(
  db: DbOrTx,
  scope: OrganisationScope,
  filter: Filter,
  page: { page: number; limit: number },
) {
  const condition = listCondition(db, scope, filter);
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(expressAddresses)
      .where(condition)
      .orderBy(...LIST_ORDER)
      .limit(page.limit)
      .offset((page.page - 1) * page.limit),
    db.select({ n: count() }).from(expressAddresses).where(condition),
  ]);
  return { list: await presentBookRows(db, scope.tenantId, rows), total: total?.n ?? 0 };
}

/** The book of a filter for an export, a keyset page at a time on the list's own order. */
export function expressAddressExportRows(db: DbOrTx, scope: OrganisationScope, filter: Filter) {
  const condition = listCondition(db, scope, filter);
  return {
    count: (cap: number) => cappedCount(db, expressAddresses, condition, cap),
    async *pages(size: number) {
      const raw = keysetPages<ExpressAddressRow>(size, (after, limit) =>
        db
          .select()
          .from(expressAddresses)
          .where(
            and(
              condition,
              after
                ? sql`(${expressAddresses.isDefault}, ${expressAddresses.id}) < (${after.isDefault}, ${after.id})`
                : undefined,
            ),
          )
          .orderBy(...LIST_ORDER)
          .limit(limit),
      );
      for await (const rows of raw) yield await presentBookRows(db, scope.tenantId, rows);
    },
  };
}

/** An entry the scope covers, or null: another organisation's id reveals nothing. */
export async function visibleExpressAddress(db: DbOrTx, scope: OrganisationScope, id: number) {
  const [row] = await db
    .select()
    .from(expressAddresses)
    .where(and(scopeCondition(db, scope, expressAddresses), eq(expressAddresses.id, id)))
    .limit(1);
  return row ?? null;
}

/* ---------- writing ---------- */

/** Clears the organisation's default of a kind, except on one entry. */
async function clearDefault(
  db: DbOrTx,
  tenantId: number,
  organisationId: number,
  kind: ExpressAddressKind,
  except?: number,
) {
  await db
    .update(expressAddresses)
    .set({ isDefault: false })
    .where(
      and(
        eq(expressAddresses.tenantId, tenantId),
        eq(expressAddresses.organisationId, organisationId),
        eq(expressAddresses.kind, kind),
        eq(expressAddresses.isDefault, true),
        except ? ne(expressAddresses.id, except) : undefined,
      ),
    );
}

/** Creates or updates an entry; marking it the default of its kind takes the mark from the others. */
export async function saveExpressAddress(
  db: DbOrTx,
  input: {
    tenantId: number;
    organisationId: number;
    id?: number;
    userId: number;
    kind: ExpressAddressKind;
    address: ExpressBookAddress;
    place: { city: string; state: string } | null;
    isDefault: boolean;
  },
): Promise<number | null> {
  const { tenantId, organisationId, id, kind, isDefault } = input;
  const address = spelled(input.address, input.place);
  return oneDefault(() =>
    db.transaction(async (tx) => {
      if (isDefault) await clearDefault(tx, tenantId, organisationId, kind, id);
      if (id) {
        const [row] = await tx
          .update(expressAddresses)
          .set({ ...address, organisationId, kind, isDefault })
          .where(and(eq(expressAddresses.tenantId, tenantId), eq(expressAddresses.id, id)))
          .returning({ id: expressAddresses.id });
        return row?.id ?? null;
      }
      const [row] = await tx
        .insert(expressAddresses)
        .values({ ...address, tenantId, organisationId, kind, isDefault, createdBy: input.userId })
        .returning({ id: expressAddresses.id });
      return row?.id ?? null;
    }),
  );
}

export async function deleteExpressAddress(db: DbOrTx, tenantId: number, id: number) {
  await db
    .delete(expressAddresses)
    .where(and(eq(expressAddresses.tenantId, tenantId), eq(expressAddresses.id, id)));
}

/** Marks an entry the default of its kind (or takes the mark away). */
export async function setExpressDefault(db: DbOrTx, row: ExpressAddressRow, isDefault: boolean) {
  await oneDefault(() =>
    db.transaction(async (tx) => {
      if (isDefault) await clearDefault(tx, row.tenantId, row.organisationId, row.kind, row.id);
      await tx
        .update(expressAddresses)
        .set({ isDefault })
        .where(and(eq(expressAddresses.tenantId, row.tenantId), eq(expressAddresses.id, row.id)));
    }),
  );
}

/** Adds imported entries to one organisation's book in one transaction: all of them or none. */
export async function insertExpressAddresses(
  db: DbOrTx,
  input: {
    tenantId: number;
    organisationId: number;
    userId: number;
    entries: ExpressEntry[];
  },
) {
  await db.transaction(async (tx) => {
    // Batches keep each statement's parameter count well under PostgreSQL's limit.
    for (let i = 0; i < input.entries.length; i += 500) {
      await tx.insert(expressAddresses).values(
        input.entries.slice(i, i + 500).map(({ kind, address }) => ({
          ...address,
          kind,
          tenantId: input.tenantId,
          organisationId: input.organisationId,
          createdBy: input.userId,
        })),
      );
    }
  });
}

/* ---------- spreadsheets ---------- */

const YES = ['yes', 'y', '是', 'true', '1'];
const NO = ['no', 'n', '否', 'false', '0', ''];

/** What a type cell may say: the code or its name in either language. */
const KIND_NAMES = new Map<string, ExpressAddressKind>(
  EXPRESS_ADDRESS_KINDS.flatMap((k) => [
    [k, k],
    [EXPRESS_ADDRESS_KIND_LABELS[k]['zh-CN'].toLowerCase(), k],
    [EXPRESS_ADDRESS_KIND_LABELS[k]['en-US'].toLowerCase(), k],
  ]),
);

/**
 * The columns of the template, the import and the export, in this order. An import finds them by
 * their header in either language.
 */
export const EXPRESS_ADDRESS_COLUMNS: readonly SheetColumn[] = [
  {
    key: 'kind',
    zh: '地址类型',
    en: 'Type',
    required: true,
    // The choices and the example are in the template's language (`kindChoices`).
    example: EXPRESS_ADDRESS_KIND_LABELS.sender['en-US'],
    exampleVaries: true,
    width: 16,
  },
  { key: 'name', zh: '姓名', en: 'Name', required: true, example: 'Pat Lee', width: 20 },
  { key: 'company', zh: '公司', en: 'Company', example: 'Acme Inc', width: 22 },
  { key: 'address1', zh: '地址 1', en: 'Address 1', required: true, example: '100 Main St', width: 30 },
  { key: 'address2', zh: '地址 2', en: 'Address 2', example: 'Suite 5', width: 16 },
  { key: 'city', zh: '城市', en: 'City', required: true, example: 'Los Angeles', width: 18 },
  { key: 'state', zh: '州/省', en: 'State', example: 'CA', width: 10 },
  {
    key: 'zipcode',
    zh: '邮编',
    en: 'ZIP code',
    required: true,
    example: '90001',
    text: true,
    zeroPad: 5,
    width: 12,
  },
  { key: 'country', zh: '国家', en: 'Country', example: 'US', width: 10 },
  { key: 'dialCode', zh: '区号', en: 'Dial code', example: '1', text: true, width: 10 },
  { key: 'phone', zh: '电话', en: 'Phone', required: true, example: '2135550100', text: true, width: 16 },
  { key: 'email', zh: '邮箱', en: 'E-mail', example: '', width: 24 },
  { key: 'residential', zh: '住宅地址', en: 'Residential', example: 'no', exampleVaries: true, width: 12 },
];

/** The import template: headers in the caller's language, a grey example row, and notes. */
export function expressAddressTemplate(language: Language): Promise<Buffer> {
  const en = language === 'en-US';
  const kinds = EXPRESS_ADDRESS_KINDS.map(
    (k) => `${EXPRESS_ADDRESS_KIND_LABELS[k]['en-US']} / ${EXPRESS_ADDRESS_KIND_LABELS[k]['zh-CN']}`,
  ).join(', ');
  const kindChoices = EXPRESS_ADDRESS_KINDS.map((k) => EXPRESS_ADDRESS_KIND_LABELS[k][language]);
  return templateWorkbook({
    language,
    sheetName: en ? 'Express addresses' : '快递地址',
    columns: EXPRESS_ADDRESS_COLUMNS,
    lists: { kind: kindChoices, residential: en ? ['yes', 'no'] : ['是', '否'] },
    examples: { kind: kindChoices[0] as string, residential: en ? 'no' : '否' },
    notesName: en ? 'Notes' : '填写说明',
    notes: en
      ? [
          `Type: ${kinds}.`,
          'A US address (country US or empty) has a five-digit ZIP code and a two-letter state, and they must agree with the city: the ZIP is checked.',
          'Abroad: the two-letter country code; the ZIP and state as the country writes them.',
          'Phone: 7 to 15 digits; dial code: digits, 1 when empty. Residential: yes or no (empty: no).',
          'Fill every field in English. The grey example row is skipped while it is left unchanged.',
          `At most ${MAX_IMPORT_ROWS} rows a file. If any row has an error, no address is imported.`,
        ]
      : [
          `地址类型:${kinds}。`,
          '美国地址(国家为 US 或留空)须填 5 位邮编和两位字母州代码,并与城市一致:系统会核对邮编。',
          '境外地址:填两位字母国家代码,邮编和州/省按当地写法填写。',
          '电话:7 到 15 位数字;区号:数字,留空为 1。住宅地址:yes/是 或 no/否(留空为否)。',
          '请全部使用英文填写。灰色示例行保持不变时不会导入。',
          `每个文件最多 ${MAX_IMPORT_ROWS} 行。有任何一行错误时,不会导入任何地址。`,
        ],
  });
}

/**
 * Reads the first sheet of an import row by row with the batch helpers (null when the file is not
 * an xlsx workbook), checking every row with the express
 * quote's address rules and the ZIP / state / city check. A message names the row's column as the
 * sheet shows it.
 */
export async function readExpressAddressFile(
  bytes: Buffer,
  language: Language,
): Promise<SheetOutcome<ExpressEntry> | null> {
  const read = await readFileRecords(bytes, EXPRESS_ADDRESS_COLUMNS, { language, maxRows: MAX_IMPORT_ROWS });
  if (!read) return null;
  if (!read.ok) return { fileError: read.key, params: read.params };
  const bad: Record<string, string> = {};
  for (const [row, message] of read.errors) bad[String(row)] = message;
  const column = (key: string) => EXPRESS_ADDRESS_COLUMNS.find((c) => c.key === key) as SheetColumn;
  // A message names the column as the sheet shows it: in its text when it has a place for it, else first.
  const named = (key: string, message: MessageKey, params: Record<string, string> = {}) => {
    const label = columnLabel(column(key), language);
    const text = translate(language, message, { ...params, field: label });
    if (text.includes(label)) return text;
    return language === 'zh-CN' ? `${label}:${text}` : `${label}: ${text}`;
  };
  const entries: ExpressEntry[] = [];
  for (const { row, values } of read.records) {
    const kind = KIND_NAMES.get(values.kind?.toLowerCase() ?? '');
    if (!kind) {
      bad[String(row)] = named('kind', 'expressAddress.badKind');
      continue;
    }
    const residential = (values.residential ?? '').toLowerCase();
    if (!YES.includes(residential) && !NO.includes(residential)) {
      bad[String(row)] = named('residential', 'expressBatch.yesNo');
      continue;
    }
    const parsed = expressAddressBody.safeParse({
      name: values.name,
      company: values.company,
      address1: values.address1,
      address2: values.address2,
      city: values.city,
      state: values.state,
      zipcode: values.zipcode,
      country: values.country || 'US',
      dialCode: values.dialCode || '1',
      // Spaces and dashes people type between the digits are not part of the number.
      phone: (values.phone ?? '').replace(/[\s().+-]/g, ''),
      email: values.email,
      residential: YES.includes(residential),
    });
    if (!parsed.success) {
      bad[String(row)] = rowIssueMessage(parsed.error.issues, language, (path) =>
        EXPRESS_ADDRESS_COLUMNS.some((c) => c.key === path) ? column(path) : null,
      );
      continue;
    }
    const checked = checkExpressAddress(parsed.data);
    if (checked.problem) {
      const { field, key, params } = checked.problem;
      bad[String(row)] = named(field, key, params);
      continue;
    }
    entries.push({ kind, address: spelled(parsed.data, checked.place) });
  }
  if (Object.keys(bad).length > 0) return { rows: bad };
  return { entries };
}
