// The package has no types of its own; programs that reach this file (the bench too) need its declaration.
/// <reference path="./zipcodes.d.ts" />
import {
  ADDRESS_COLUMNS,
  ADDRESS_TYPE_LABELS,
  type AddressBookEntry,
  type AddressListQuery,
  type BookAddress,
  MAX_IMPORT_ROWS,
  type ZipPlace,
} from '@freight/contracts/addresses';
import type { Language } from '@freight/contracts/api';
import { type MessageKey, translate } from '@freight/contracts/messages';
import { ADDRESS_TYPES, shipmentAddress } from '@freight/contracts/truck-shipment';
import { localizeIssues } from '@freight/contracts/validation';
import { and, count, desc, eq, ilike, inArray, ne, or, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type ExcelJS from 'exceljs';
import type { DbOrTx } from '../../db/client.ts';
import { badField, conflict, isUniqueViolation } from '../../lib/errors.ts';
import { cappedCount, keysetPages } from '../../lib/keyset.ts';
import { excel, zipcodes } from '../../lib/lazy-packages.ts';
import { importCell, readSheetRows } from '../../lib/xlsx.ts';
import type { RequestUser } from '../../plugins/context.ts';
import {
  canSeeOrganisation,
  type OrganisationScope,
  organisationNames,
  organisationScope,
  visibleOrganisationIds,
} from '../customers/service.ts';
import { addressBook } from './schema.ts';

export type AddressRow = typeof addressBook.$inferSelect;

/*
 * What the truck book and the express book (express-service.ts) share: whose rows a caller sees and
 * writes to, how a row is answered, and the one default a database index holds per organisation.
 */

/** The rows of a scope in either book: the whole tenant for staff, the caller's subtree for everyone else. */
export function scopeCondition(
  db: DbOrTx,
  scope: OrganisationScope,
  book: { tenantId: AnyPgColumn; organisationId: AnyPgColumn },
): SQL | undefined {
  return and(
    eq(book.tenantId, scope.tenantId),
    scope.kind === 'subtree' ? inArray(book.organisationId, visibleOrganisationIds(db, scope)) : undefined,
  );
}

/**
 * Whose book a write goes to: the named organisation if the caller's scope covers it, else the
 * caller's own. Staff belong to none, so they must name one.
 */
export async function bookOwner(
  db: DbOrTx,
  user: Pick<RequestUser, 'tenantId' | 'identity' | 'organisationId'>,
  organisationId: number | undefined,
): Promise<number> {
  if (organisationId) {
    const scope = await organisationScope(db, user);
    if (!(await canSeeOrganisation(db, scope, organisationId)))
      throw badField('organisationId', 'customers.parentNotVisible');
    return organisationId;
  }
  if (!user.organisationId) throw badField('organisationId', 'addresses.organisationRequired');
  return user.organisationId;
}

interface BookRow {
  tenantId: number;
  organisationId: number;
  createdBy: number | null;
  createdAt: Date;
  updatedAt: Date;
}

/** Rows of either book as the API gives them: without the tenant and the author, with the owner's name. */
export async function presentBookRows<R extends BookRow>(db: DbOrTx, tenantId: number, rows: R[]) {
  const names = await organisationNames(db, tenantId, [...new Set(rows.map((r) => r.organisationId))]);
  return rows.map(({ tenantId: _t, createdBy: _c, ...r }) => ({
    ...r,
    organisationName: names.get(r.organisationId) ?? '',
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  }));
}

/** Two callers marking defaults of one organisation at once: the unique index refuses the later one. */
export async function oneDefault<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict();
    throw error;
  }
}

function listCondition(
  db: DbOrTx,
  scope: OrganisationScope,
  filter: Omit<AddressListQuery, 'page' | 'limit'>,
) {
  const keyword = filter.keyword ? `%${filter.keyword}%` : null;
  return and(
    scopeCondition(db, scope, addressBook),
    keyword
      ? or(
          ilike(addressBook.name, keyword),
          ilike(addressBook.address1, keyword),
          ilike(addressBook.city, keyword),
          ilike(addressBook.zipcode, keyword),
          ilike(addressBook.contact, keyword),
          ilike(addressBook.phone, keyword),
        )
      : undefined,
    filter.addressType ? eq(addressBook.addressType, filter.addressType) : undefined,
    filter.organisationId ? eq(addressBook.organisationId, filter.organisationId) : undefined,
  );
}

/** One page of the book (or, without a page, every matching row up to an export's limit), default first. */
export async function listAddresses(
  db: DbOrTx,
  scope: OrganisationScope,
  filter: Omit<AddressListQuery, 'page' | 'limit'>,
  page?: { page: number; limit: number },
) {
  const condition = listCondition(db, scope, filter);
  const base = db
    .select()
    .from(addressBook)
    .where(condition)
    .orderBy(desc(addressBook.isDefaultPickup), desc(addressBook.id));
  const [rows, [total]] = await Promise.all([
    page ? base.limit(page.limit).offset((page.page - 1) * page.limit) : base.limit(50_000),
    db.select({ n: count() }).from(addressBook).where(condition),
  ]);
  return { list: await presentBookRows(db, scope.tenantId, rows), total: total?.n ?? 0 };
}

/**
 * The book of a filter for an export, default first then newest, a keyset page at a time (on the
 * list's own order), and its count up to a cap.
 */
export function addressExportRows(
  db: DbOrTx,
  scope: OrganisationScope,
  filter: Omit<AddressListQuery, 'page' | 'limit'>,
) {
  const condition = listCondition(db, scope, filter);
  return {
    count: (cap: number) => cappedCount(db, addressBook, condition, cap),
    async *pages(size: number) {
      const raw = keysetPages<typeof addressBook.$inferSelect>(size, (after, limit) =>
        db
          .select()
          .from(addressBook)
          .where(
            and(
              condition,
              after
                ? sql`(${addressBook.isDefaultPickup}, ${addressBook.id}) < (${after.isDefaultPickup}, ${after.id})`
                : undefined,
            ),
          )
          .orderBy(desc(addressBook.isDefaultPickup), desc(addressBook.id))
          .limit(limit),
      );
      for await (const rows of raw) yield await presentBookRows(db, scope.tenantId, rows);
    },
  };
}

/** An address the scope covers, or null: another organisation's id reveals nothing. */
export async function visibleAddress(db: DbOrTx, scope: OrganisationScope, id: number) {
  const [row] = await db
    .select()
    .from(addressBook)
    .where(and(scopeCondition(db, scope, addressBook), eq(addressBook.id, id)))
    .limit(1);
  return row ?? null;
}

/** Clears the organisation's default pickup mark, except on one address. */
async function clearDefault(db: DbOrTx, tenantId: number, organisationId: number, except?: number) {
  await db
    .update(addressBook)
    .set({ isDefaultPickup: false })
    .where(
      and(
        eq(addressBook.tenantId, tenantId),
        eq(addressBook.organisationId, organisationId),
        eq(addressBook.isDefaultPickup, true),
        except ? ne(addressBook.id, except) : undefined,
      ),
    );
}

/** Creates or updates an address; marking it the default pickup takes the mark from the others. */
export async function saveAddress(
  db: DbOrTx,
  input: {
    tenantId: number;
    organisationId: number;
    id?: number;
    userId: number;
    address: BookAddress;
    isDefaultPickup: boolean;
  },
): Promise<number | null> {
  const { tenantId, organisationId, id, address, isDefaultPickup } = input;
  return oneDefault(() =>
    db.transaction(async (tx) => {
      if (isDefaultPickup) await clearDefault(tx, tenantId, organisationId, id);
      if (id) {
        const [row] = await tx
          .update(addressBook)
          .set({ ...address, organisationId, isDefaultPickup })
          .where(and(eq(addressBook.tenantId, tenantId), eq(addressBook.id, id)))
          .returning({ id: addressBook.id });
        return row?.id ?? null;
      }
      const [row] = await tx
        .insert(addressBook)
        .values({ ...address, tenantId, organisationId, isDefaultPickup, createdBy: input.userId })
        .returning({ id: addressBook.id });
      return row?.id ?? null;
    }),
  );
}

export async function deleteAddress(db: DbOrTx, tenantId: number, id: number) {
  await db.delete(addressBook).where(and(eq(addressBook.tenantId, tenantId), eq(addressBook.id, id)));
}

/** Marks an address its organisation's default pickup address (or takes the mark away). */
export async function setDefaultPickup(db: DbOrTx, row: AddressRow, isDefault: boolean) {
  await oneDefault(() =>
    db.transaction(async (tx) => {
      if (isDefault) await clearDefault(tx, row.tenantId, row.organisationId, row.id);
      await tx
        .update(addressBook)
        .set({ isDefaultPickup: isDefault })
        .where(and(eq(addressBook.tenantId, row.tenantId), eq(addressBook.id, row.id)));
    }),
  );
}

/** The organisation's default pickup address, or null. */
export async function defaultPickup(
  db: DbOrTx,
  tenantId: number,
  organisationId: number,
): Promise<AddressBookEntry | null> {
  const rows = await db
    .select()
    .from(addressBook)
    .where(
      and(
        eq(addressBook.tenantId, tenantId),
        eq(addressBook.organisationId, organisationId),
        eq(addressBook.isDefaultPickup, true),
      ),
    )
    .limit(1);
  const [entry] = await presentBookRows(db, tenantId, rows);
  return entry ?? null;
}

/** Adds imported addresses to one organisation's book in one transaction: all of them or none. */
export async function insertAddresses(
  db: DbOrTx,
  input: { tenantId: number; organisationId: number; userId: number; addresses: BookAddress[] },
) {
  await db.transaction(async (tx) => {
    // Batches keep each statement's parameter count well under PostgreSQL's limit.
    for (let i = 0; i < input.addresses.length; i += 500) {
      await tx.insert(addressBook).values(
        input.addresses.slice(i, i + 500).map((address) => ({
          ...address,
          tenantId: input.tenantId,
          organisationId: input.organisationId,
          createdBy: input.userId,
        })),
      );
    }
  });
}

/* ---------- lookups of SPEC section 7 ---------- */

/** The place of a five-digit US ZIP code; an unknown code gives an empty list. */
export function placesOfZip(zipcode: string): ZipPlace[] {
  const found = zipcodes().lookup(zipcode);
  if (found?.country !== 'US') return [];
  return [{ zipcode: found.zip, city: found.city, state: found.state, country: 'US' }];
}

/* ---------- spreadsheets ---------- */

const XLSX_TEXT = '@';

/** The import template: a text-formatted header row in the caller's language, and a sheet of notes. */
export async function addressTemplate(language: Language): Promise<Buffer> {
  const workbook = new (excel().Workbook)();
  const sheet = workbook.addWorksheet(language === 'en-US' ? 'Addresses' : '地址');
  sheet.columns = ADDRESS_COLUMNS.map((c) => ({
    header: c.label[language],
    key: c.field,
    width: c.field === 'address1' || c.field === 'name' ? 30 : 16,
    // Text cells keep ZIP codes' leading zeros and times as typed.
    style: { numFmt: XLSX_TEXT },
  }));
  sheet.getRow(1).font = { bold: true };
  const notes = workbook.addWorksheet(language === 'en-US' ? 'Notes' : '填写说明');
  notes.columns = [{ width: 24 }, { width: 80 }];
  const en = language === 'en-US';
  const rows: [string, string][] = [
    [en ? 'Column' : '列', en ? 'How to fill it' : '填写说明'],
    [ADDRESS_COLUMNS[3]?.label[language] ?? '', en ? 'Five digits, such as 92551' : '5 位数字,如 92551'],
    [ADDRESS_COLUMNS[5]?.label[language] ?? '', en ? 'Two-letter code, such as CA' : '两位字母州代码,如 CA'],
    [
      ADDRESS_COLUMNS[6]?.label[language] ?? '',
      en ? 'Two letters; US when empty' : '两位字母国家代码,留空为 US',
    ],
    [ADDRESS_COLUMNS[8]?.label[language] ?? '', en ? 'Digits; 1 when empty' : '数字,留空为 1'],
    [ADDRESS_COLUMNS[9]?.label[language] ?? '', en ? '7 to 15 digits' : '7 到 15 位数字'],
    [
      `${ADDRESS_COLUMNS[11]?.label[language]} / ${ADDRESS_COLUMNS[12]?.label[language]}`,
      en ? 'HH:mm, such as 09:00 and 17:00' : 'HH:mm,如 09:00 和 17:00',
    ],
    [
      ADDRESS_COLUMNS[13]?.label[language] ?? '',
      ADDRESS_TYPES.map((t) => `${t} (${ADDRESS_TYPE_LABELS[t][language]})`).join(', '),
    ],
    [
      en ? 'All text' : '所有文字',
      en
        ? `English letters and digits only; at most ${MAX_IMPORT_ROWS} rows`
        : `仅限英文和数字;最多 ${MAX_IMPORT_ROWS} 行`,
    ],
  ];
  for (const row of rows) notes.addRow(row);
  notes.getRow(1).font = { bold: true };
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** A cell read for an address field; times typed into a time-formatted cell come back as HH:mm. */
function cellText(
  cell: ExcelJS.Cell,
  field: keyof BookAddress,
): string | { error: 'formula' | 'cell' } | null {
  const raw = cell.value;
  if (
    (field === 'windowStart' || field === 'windowEnd') &&
    (raw instanceof Date || typeof raw === 'number')
  ) {
    // Excel stores a time as a fraction of a day; exceljs hands it over as a date on 1899-12-30 (UTC).
    const minutes =
      raw instanceof Date ? raw.getUTCHours() * 60 + raw.getUTCMinutes() : Math.round((raw % 1) * 24 * 60);
    return `${String(Math.floor(minutes / 60) % 24).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
  }
  const read = importCell(cell);
  if (!read.ok) return { error: read.reason === 'formula' ? 'formula' : 'cell' };
  if (read.value === null) return null;
  // A ZIP typed into a number cell loses its leading zeros (New Jersey's 08518 becomes 8518).
  if (
    field === 'zipcode' &&
    typeof read.value === 'number' &&
    Number.isInteger(read.value) &&
    read.value < 1e5
  )
    return String(read.value).padStart(5, '0');
  return String(read.value);
}

/** What an address type cell may say: the code or its name in either language. */
const TYPE_NAMES = new Map<string, string>(
  ADDRESS_TYPES.flatMap((t) => [
    [t, t],
    [ADDRESS_TYPE_LABELS[t]['zh-CN'].toLowerCase(), t],
    [ADDRESS_TYPE_LABELS[t]['en-US'].toLowerCase(), t],
  ]),
);

const REQUIRED_COLUMNS: readonly (keyof BookAddress)[] = [
  'name',
  'address1',
  'zipcode',
  'city',
  'state',
  'contact',
  'phone',
];

/** An import's sheet as either book reads it (`book-import.ts`): its entries, or why none go in. */
export type SheetOutcome<T> =
  | { entries: T[] }
  /** A problem of the file as a whole. */
  | { fileError: MessageKey; params?: Record<string, string | number> }
  /** Every bad row, by the row number the spreadsheet shows. */
  | { rows: Record<string, string> };

/**
 * Reads the first sheet of an import row by row (`readSheetRows`: only one row's cells are held at a
 * time, and a sheet past `MAX_IMPORT_ROWS` filled rows is refused as that row is read), checking every
 * row with the quote form's rules. Columns are found by their header in either language, so a
 * template downloaded in Chinese imports in English. Null when the file is not an xlsx workbook.
 */
export async function readAddressFile(
  bytes: Buffer,
  language: Language,
): Promise<SheetOutcome<BookAddress> | null> {
  const headers = new Map<string, keyof BookAddress>();
  for (const c of ADDRESS_COLUMNS)
    for (const l of ['zh-CN', 'en-US'] as const) headers.set(c.label[l].toLowerCase(), c.field);
  const columnOf = new Map<keyof BookAddress, number>();
  let headerRead = false;
  let filledRows = 0;
  let refusal: SheetOutcome<BookAddress> | null = null;
  const addresses: BookAddress[] = [];
  const bad: Record<string, string> = {};

  const readRow = (row: ExcelJS.Row) => {
    const values: Record<string, string> = {};
    const problems: string[] = [];
    for (const [field, column] of columnOf) {
      const text = cellText(row.getCell(column), field);
      if (text === null) continue;
      if (typeof text === 'object') {
        const label = ADDRESS_COLUMNS.find((c) => c.field === field)?.label[language] ?? field;
        problems.push(
          translate(language, text.error === 'formula' ? 'import.formula' : 'import.badCell', {
            cell: row.getCell(column).address,
            field: label,
          }),
        );
        continue;
      }
      values[field] = field === 'addressType' ? (TYPE_NAMES.get(text.trim().toLowerCase()) ?? text) : text;
    }
    if (problems.length === 0 && Object.keys(values).length === 0) return;
    const parsed = shipmentAddress.safeParse(values);
    if (!parsed.success) {
      // Named as `address.<field>`, so the messages say "address name" rather than a person's name.
      const issues = parsed.error.issues.map((i) => ({ ...i, path: ['address', ...i.path] }));
      problems.push(...localizeIssues(issues, language).map((f) => f.message));
    }
    if (problems.length > 0) {
      bad[String(row.number)] = problems.join('; ');
      return;
    }
    if (parsed.success) {
      const { saveToBook: _s, ...address } = parsed.data;
      addresses.push(address);
    }
  };

  const read = await readSheetRows(bytes, (row) => {
    if (!headerRead) {
      // The header is row 1; a sheet whose first row is blank has none.
      headerRead = true;
      if (row.number === 1)
        row.eachCell((cell, column) => {
          const field = headers.get(
            String(cell.value ?? '')
              .trim()
              .toLowerCase(),
          );
          if (field && !columnOf.has(field)) columnOf.set(field, column);
        });
      if (REQUIRED_COLUMNS.some((f) => !columnOf.has(f))) {
        refusal = { fileError: 'addresses.templateMismatch' };
        return 'stop';
      }
      if (row.number === 1) return;
    }
    if (!row.hasValues) return;
    if (++filledRows > MAX_IMPORT_ROWS) {
      refusal = { fileError: 'import.tooMany' };
      return 'stop';
    }
    readRow(row);
  });
  if (!read) return null;
  if (read.sheet === null) return { fileError: 'import.empty' };
  if (refusal) return refusal;
  if (!headerRead) return { fileError: 'addresses.templateMismatch' };
  if (Object.keys(bad).length > 0) return { rows: bad };
  if (addresses.length === 0) return { fileError: 'import.empty' };
  return { entries: addresses };
}
