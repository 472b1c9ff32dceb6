import { createReadStream } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { and, eq } from 'drizzle-orm';
import { fileTypeFromBuffer } from 'file-type';
import type { DbOrTx } from '../../db/client.ts';
import { randomToken } from '../../lib/crypto.ts';
import { badField } from '../../lib/errors.ts';
import { uploads } from './schema.ts';

export const MAX_IMAGE_BYTES = 2 * 1024 * 1024;
const IMAGE_TYPES = new Set([
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/x-icon',
  'image/vnd.microsoft.icon',
]);

export const MAX_DOCUMENT_BYTES = 10 * 1024 * 1024;
/** Order files and proofs: PDF scans or photos. */
const DOCUMENT_TYPES = new Set(['application/pdf', 'image/png', 'image/jpeg', 'image/webp']);

/** Local upload store under DATA_DIR; an object store is the same two calls against S3. */
export interface UploadStore {
  put(key: string, bytes: Buffer): Promise<void>;
  open(key: string): NodeJS.ReadableStream;
}

export function localUploadStore(dataDir: string): UploadStore {
  const root = resolve(dataDir, 'uploads');
  return {
    async put(key, bytes) {
      await mkdir(root, { recursive: true });
      await writeFile(join(root, key), bytes);
    },
    open: (key) => createReadStream(join(root, key)),
  };
}

/** Stores an image after checking its size and, by its content rather than its name, its type. */
export async function saveImage(
  db: DbOrTx,
  store: UploadStore,
  input: { tenantId: number; userId: number | null; bytes: Buffer; originalName: string },
) {
  if (input.bytes.length > MAX_IMAGE_BYTES) throw badField('file', 'validation.imageTooLarge');
  const detected = await fileTypeFromBuffer(input.bytes);
  const mime = detected?.mime ?? (isIco(input.bytes) ? 'image/x-icon' : '');
  if (!IMAGE_TYPES.has(mime)) throw badField('file', 'validation.imageType');
  const ext = mime === 'image/jpeg' ? 'jpg' : mime.includes('icon') ? 'ico' : mime.split('/')[1];
  const key = `${randomToken()}.${ext}`;
  await store.put(key, input.bytes);
  await db.insert(uploads).values({
    tenantId: input.tenantId,
    key,
    userId: input.userId,
    kind: 'image',
    mime,
    size: input.bytes.length,
    originalName: input.originalName.slice(0, 200),
  });
  return { key, url: `/api/uploads/${key}` };
}

/** Stores a document (PDF or photo) after checking its size and, by its content, its type. */
export async function saveDocument(
  db: DbOrTx,
  store: UploadStore,
  input: { tenantId: number; userId: number; bytes: Buffer; originalName: string },
) {
  if (input.bytes.length > MAX_DOCUMENT_BYTES) throw badField('file', 'validation.documentTooLarge');
  const mime = (await fileTypeFromBuffer(input.bytes))?.mime ?? '';
  if (!DOCUMENT_TYPES.has(mime)) throw badField('file', 'validation.documentType');
  const ext = mime === 'image/jpeg' ? 'jpg' : (mime.split('/')[1] as string);
  const key = `${randomToken()}.${ext}`;
  await store.put(key, input.bytes);
  await db.insert(uploads).values({
    tenantId: input.tenantId,
    key,
    userId: input.userId,
    kind: 'document',
    mime,
    size: input.bytes.length,
    originalName: input.originalName.slice(0, 200),
  });
  return { key, url: `/api/uploads/${key}` };
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

/** Whether a URL names a file uploaded to this tenant: only those may be attached, never outside links. */
export async function isOwnUpload(db: DbOrTx, tenantId: number, url: string): Promise<boolean> {
  const key = /^\/api\/uploads\/([A-Za-z0-9_-]+\.[a-z]{2,4})$/.exec(url)?.[1];
  return Boolean(key && (await findUpload(db, tenantId, key)));
}
