import { createReadStream } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { inflate } from 'node:zlib';
import { and, count, eq, inArray, lt, sql } from 'drizzle-orm';
import { fileTypeFromBuffer } from 'file-type';
import { imageSize } from 'image-size';
import type { DbOrTx } from '../../db/client.ts';
import { type BatchOptions, DELETE_BATCH } from '../../lib/batched-delete.ts';
import { randomToken } from '../../lib/crypto.ts';
import { badField, tooMany } from '../../lib/errors.ts';
import type { RequestUser } from '../../plugins/context.ts';
import { uploads } from './schema.ts';

export type UploadRow = typeof uploads.$inferSelect;

export const MAX_IMAGE_BYTES = 2 * 1024 * 1024;
/** The registration licence, the one file taken without a session. */
export const MAX_LICENCE_BYTES = 2 * 1024 * 1024;
/** The raster images taken as images, and the only files served inline. */
export const IMAGE_TYPES: ReadonlySet<string> = new Set([
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/x-icon',
  'image/vnd.microsoft.icon',
]);
/** A photo of a document is far below this; a header declaring more is a decompression bomb. */
const MAX_IMAGE_PIXELS = 40_000_000;
const MAX_IMAGE_SIDE = 20_000;

export const MAX_DOCUMENT_BYTES = 10 * 1024 * 1024;
/** Order files and proofs: PDF scans or photos. */
const DOCUMENT_TYPES = new Set(['application/pdf', 'image/png', 'image/jpeg', 'image/webp']);

/** The record of an anonymous upload until a registration claims it (or the sweep removes it). */
export const PENDING_LICENCE = 'licence:pending';
/** How long an unclaimed licence upload is kept. */
export const PENDING_LICENCE_HOURS = 24;

/** Local upload store under DATA_DIR; an object store is the same three calls against S3. */
export interface UploadStore {
  put(key: string, bytes: Buffer): Promise<void>;
  open(key: string): NodeJS.ReadableStream;
  remove(key: string): Promise<void>;
}

export function localUploadStore(dataDir: string): UploadStore {
  const root = resolve(dataDir, 'uploads');
  return {
    async put(key, bytes) {
      await mkdir(root, { recursive: true });
      await writeFile(join(root, key), bytes);
    },
    open: (key) => createReadStream(join(root, key)),
    remove: (key) => rm(join(root, key), { force: true }),
  };
}

/** Refuses an image whose header declares absurd dimensions, read by a maintained parser. */
function checkImageDimensions(bytes: Buffer) {
  let size: { width?: number; height?: number };
  try {
    size = imageSize(bytes);
  } catch {
    throw badField('file', 'validation.imageType');
  }
  const width = size.width ?? 0;
  const height = size.height ?? 0;
  if (
    width < 1 ||
    height < 1 ||
    width > MAX_IMAGE_SIDE ||
    height > MAX_IMAGE_SIDE ||
    width * height > MAX_IMAGE_PIXELS
  )
    throw badField('file', 'validation.imageDimensions');
}

/**
 * Names that make a PDF run something when opened (JavaScript, launching a program), searched in the
 * file and in every compressed stream (object streams hide them there); `#xx` escapes in names are
 * undone first. An encrypted file cannot be searched, so it is refused too.
 */
const ACTIVE_PDF_NAMES = /\/(JavaScript|JS|Launch|Encrypt)(?![A-Za-z0-9])/;

/**
 * How far a PDF's compressed streams may unpack while they are searched: a stream past either limit
 * refuses the file (what it hides cannot be searched), so a deflate bomb costs at most this much.
 * Photos and scans are JPEG streams, which are not inflated at all.
 */
const PDF_STREAM_MAX_BYTES = 32 * 1024 * 1024;
const PDF_TOTAL_MAX_BYTES = 96 * 1024 * 1024;
const inflateAsync = promisify(inflate);

/** A zlib stream's two header bytes: deflate, a window of at most 32 KB, and their check. */
const isZlibHeader = (data: Buffer) =>
  data.length > 2 &&
  ((data[0] as number) & 0x0f) === 8 &&
  (data[0] as number) >> 4 <= 7 &&
  (((data[0] as number) << 8) | (data[1] as number)) % 31 === 0;

async function pdfHasActiveContent(bytes: Buffer): Promise<boolean> {
  const texts = [bytes.toString('latin1')];
  const raw = texts[0] as string;
  let budget = PDF_TOTAL_MAX_BYTES;
  const streamPattern = /stream\r?\n/g;
  for (let match = streamPattern.exec(raw); match; match = streamPattern.exec(raw)) {
    const start = match.index + match[0].length;
    const end = raw.indexOf('endstream', start);
    if (end < 0) break;
    const data = bytes.subarray(start, end);
    // Only zlib streams are inflated; the rest are searched as they are.
    if (isZlibHeader(data)) {
      let inflated: Buffer | null = null;
      try {
        // Off the event loop, and stopped at what is left of the budget.
        inflated = await inflateAsync(data, { maxOutputLength: Math.min(PDF_STREAM_MAX_BYTES, budget) });
      } catch (error) {
        if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE')
          throw badField('file', 'validation.documentUnpacksTooLarge', {
            limit: Math.round(PDF_STREAM_MAX_BYTES / 1024 / 1024),
          });
        // Damaged or not deflate after all: its bytes were searched as they are.
      }
      if (inflated) {
        budget -= inflated.length;
        texts.push(inflated.toString('latin1'));
      }
    }
    streamPattern.lastIndex = end;
  }
  return texts.some((text) =>
    ACTIVE_PDF_NAMES.test(
      text.replace(/#([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
    ),
  );
}

const extensionOf = (mime: string) =>
  mime === 'image/jpeg' ? 'jpg' : mime.includes('icon') ? 'ico' : (mime.split('/')[1] as string);

/**
 * Licences one address may keep waiting for a registration to claim them: a registration sends one or
 * two, and a few more cover a retry. Past it the address gets a 429 until one is claimed or swept.
 */
export const MAX_PENDING_PER_CLIENT = 5;

/** Who sent a file with no session, and how many of theirs may wait (the cap times the limits' scale). */
export interface AnonymousClient {
  key: string;
  maxPending: number;
}

/** A file as a route received it: whose, and who sent it when nobody is signed in. */
interface UploadInput {
  tenantId: number;
  userId: number | null;
  bytes: Buffer;
  originalName: string;
  client?: AnonymousClient;
}

/**
 * Records a file's row. Without a session it is a pending licence, and the address's count is checked
 * and the row written under a lock held for that tenant and address until commit: a burst of uploads
 * from one address is counted one at a time, so no more than its cap pass together.
 */
async function recordUpload(
  db: DbOrTx,
  row: typeof uploads.$inferInsert,
  client: AnonymousClient | undefined,
) {
  if (row.userId !== null) {
    await db.insert(uploads).values(row);
    return;
  }
  const key = client?.key ?? '';
  const max = client?.maxPending ?? MAX_PENDING_PER_CLIENT;
  await db.transaction(async (tx) => {
    await tx.execute(
      sql`select pg_advisory_xact_lock(hashtext('pending-uploads'), hashtext(${`${row.tenantId}:${key}`}))`,
    );
    const [pending] = await tx
      .select({ n: count() })
      .from(uploads)
      .where(
        and(eq(uploads.tenantId, row.tenantId), eq(uploads.client, key), eq(uploads.record, PENDING_LICENCE)),
      );
    if ((pending?.n ?? 0) >= max) throw tooMany('upload.pendingLimit', { max });
    await tx.insert(uploads).values(row);
  });
}

async function store_(
  db: DbOrTx,
  store: UploadStore,
  input: UploadInput,
  kind: 'image' | 'document',
  mime: string,
) {
  const key = `${randomToken()}.${extensionOf(mime)}`;
  const anonymous = input.userId === null;
  // The row is written first, so a file over the cap is never stored; its URL is given out only once
  // the file is, and a file that could not be stored takes its row with it.
  await recordUpload(
    db,
    {
      tenantId: input.tenantId,
      key,
      userId: input.userId,
      kind,
      mime,
      size: input.bytes.length,
      originalName: input.originalName.slice(0, 200),
      // Without a session only the registration licence may come in; unclaimed, it is swept after a day.
      record: anonymous ? PENDING_LICENCE : null,
      client: anonymous ? (input.client?.key ?? '') : null,
    },
    input.client,
  );
  try {
    await store.put(key, input.bytes);
  } catch (error) {
    await db.delete(uploads).where(and(eq(uploads.tenantId, input.tenantId), eq(uploads.key, key)));
    throw error;
  }
  return { key, url: `/api/uploads/${key}` };
}

/**
 * Stores an image after checking its size, its type by its content rather than its name, and the
 * dimensions its header declares. An image sent without a session is a pending registration licence.
 */
export async function saveImage(db: DbOrTx, store: UploadStore, input: UploadInput) {
  const limit = input.userId === null ? MAX_LICENCE_BYTES : MAX_IMAGE_BYTES;
  if (input.bytes.length > limit) throw badField('file', 'validation.imageTooLarge');
  const detected = await fileTypeFromBuffer(input.bytes);
  const mime = detected?.mime ?? (isIco(input.bytes) ? 'image/x-icon' : '');
  if (!IMAGE_TYPES.has(mime)) throw badField('file', 'validation.imageType');
  checkImageDimensions(input.bytes);
  return store_(db, store, input, 'image', mime);
}

/** Stores a document (PDF or photo) after checking its size, its type by its content, and what it carries. */
export async function saveDocument(
  db: DbOrTx,
  store: UploadStore,
  input: { tenantId: number; userId: number; bytes: Buffer; originalName: string },
) {
  if (input.bytes.length > MAX_DOCUMENT_BYTES) throw badField('file', 'validation.documentTooLarge');
  const mime = (await fileTypeFromBuffer(input.bytes))?.mime ?? '';
  if (!DOCUMENT_TYPES.has(mime)) throw badField('file', 'validation.documentType');
  if (mime === 'application/pdf') {
    if (await pdfHasActiveContent(input.bytes)) throw badField('file', 'validation.documentActive');
  } else checkImageDimensions(input.bytes);
  return store_(db, store, input, 'document', mime);
}

function isIco(bytes: Buffer): boolean {
  return bytes.length > 4 && bytes[0] === 0 && bytes[1] === 0 && bytes[2] === 1 && bytes[3] === 0;
}

export async function findUpload(db: DbOrTx, tenantId: number, key: string) {
  const [row] = await db
    .select()
    .from(uploads)
    .where(and(eq(uploads.tenantId, tenantId), eq(uploads.key, key)))
    .limit(1);
  return row ?? null;
}

const keyOfUrl = (url: string) => /^\/api\/uploads\/([A-Za-z0-9_-]+\.[a-z]{2,4})$/.exec(url)?.[1];

/** `kind:id`, the record a file belongs to. */
export const recordOf = (kind: string, id: number) => `${kind}:${id}`;

export interface ClaimOptions {
  /** The field the URL came in, named by the error. */
  field: string;
  /** Who attaches it: they must have uploaded it; `null` for a registration's anonymous licence. */
  by: number | null;
  /** Branding anyone may load. */
  public?: boolean;
}

/**
 * Ties an uploaded file to the record that carries its URL, inside the transaction that saves the
 * record. Refuses anything but the caller's own upload in this tenant that no other record holds
 * (outside links, another tenant's or another user's file, a file already attached elsewhere).
 */
export async function claimUpload(
  tx: DbOrTx,
  tenantId: number,
  url: string,
  record: string,
  options: ClaimOptions,
): Promise<void> {
  const key = keyOfUrl(url);
  const [row] = key
    ? await tx
        .select()
        .from(uploads)
        .where(and(eq(uploads.tenantId, tenantId), eq(uploads.key, key)))
        .for('update')
        .limit(1)
    : [];
  const refused = () => badField(options.field, 'upload.notOurs');
  if (!row) throw refused();
  if (row.record === record) {
    if (options.public && !row.public)
      await tx
        .update(uploads)
        .set({ public: true })
        .where(and(eq(uploads.tenantId, tenantId), eq(uploads.id, row.id)));
    return;
  }
  const mine =
    options.by === null
      ? row.userId === null && row.record === PENDING_LICENCE
      : row.userId === options.by && row.record === null;
  if (!mine) throw refused();
  await tx
    .update(uploads)
    .set({ record, claimedAt: new Date(), public: options.public ?? false })
    .where(and(eq(uploads.tenantId, tenantId), eq(uploads.id, row.id)));
}

/** Claims each URL of a list (files of one record) under one field. */
export async function claimUploads(
  tx: DbOrTx,
  tenantId: number,
  urls: readonly string[],
  record: string,
  options: ClaimOptions,
): Promise<void> {
  for (const url of urls) await claimUpload(tx, tenantId, url, record, options);
}

/**
 * Whether the caller may see a record of one kind, answered by the module that owns the record with
 * its own visibility rules (organisation tree, staff grants). Each owning module registers its kinds.
 */
export type RecordAccess = (db: DbOrTx, caller: RequestUser, recordId: number) => Promise<boolean>;
const recordAccess = new Map<string, RecordAccess>();

export function registerRecordAccess(kind: string, access: RecordAccess) {
  recordAccess.set(kind, access);
}

/**
 * Whether a signed-in caller may load a private file: its uploader always, anyone else only when the
 * module owning its record says they may see that record. Files of no record are their uploader's.
 */
export async function maySeeUpload(db: DbOrTx, caller: RequestUser, row: UploadRow): Promise<boolean> {
  if (row.tenantId !== caller.tenantId) return false;
  if (row.public || (row.userId !== null && row.userId === caller.id)) return true;
  const match = row.record ? /^([a-z-]+):(\d+)$/.exec(row.record) : null;
  const access = match ? recordAccess.get(match[1] as string) : undefined;
  if (!match || !access) return false;
  return access(db, caller, Number(match[2]));
}

/**
 * Removes licence uploads no registration claimed within a day, rows and bytes, a bounded batch at a
 * time; run by the housekeeping pass. The row's state is checked again as it is deleted, so a licence
 * claimed meanwhile stays.
 */
export async function sweepPendingLicences(
  db: DbOrTx,
  store: UploadStore,
  options: BatchOptions = {},
): Promise<number> {
  const batch = options.batch ?? DELETE_BATCH;
  const cutoff = new Date(Date.now() - PENDING_LICENCE_HOURS * 3_600_000);
  const stale = and(eq(uploads.record, PENDING_LICENCE), lt(uploads.createdAt, cutoff));
  let total = 0;
  while (!options.signal?.aborted) {
    const gone = await db
      .delete(uploads)
      .where(
        and(
          inArray(uploads.key, db.select({ key: uploads.key }).from(uploads).where(stale).limit(batch)),
          stale,
        ),
      )
      .returning({ key: uploads.key });
    // Bytes go after the rows: a file without a row is never served, a row without bytes would be.
    for (const { key } of gone) await store.remove(key);
    total += gone.length;
    if (gone.length < batch) break;
  }
  return total;
}

/**
 * A carrier's label for a record (`express-waybill:12`): the file is put in the store first and its
 * row written by `recordCarrierLabel` in the transaction that gives the record its label, so a label
 * is found only once its bytes are there. A file whose transaction did not commit is removed.
 */
export async function putCarrierLabel(store: UploadStore, bytes: Buffer, mime: string) {
  const key = `${randomToken()}.${mime === 'application/pdf' ? 'pdf' : 'zpl'}`;
  await store.put(key, bytes);
  return key;
}

export async function recordCarrierLabel(
  tx: DbOrTx,
  input: { tenantId: number; key: string; mime: string; size: number; record: string; name: string },
) {
  await tx.insert(uploads).values({
    tenantId: input.tenantId,
    key: input.key,
    userId: null,
    kind: 'label',
    mime: input.mime,
    size: input.size,
    originalName: input.name,
    record: input.record,
    claimedAt: new Date(),
  });
}

/** A stored file's bytes, read whole (labels are a few hundred KB at most). */
export async function readStoredFile(store: UploadStore, key: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of store.open(key)) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}
