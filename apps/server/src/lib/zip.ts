import yauzl from 'yauzl';

/**
 * Limits on what a zip archive may unpack to. Checked against the archive's own directory before a
 * byte is inflated, and again while inflating: an entry that inflates past the size it declares is
 * cut off there, so a lying archive costs no more than an honest one at the limit.
 */
export interface ZipLimits {
  maxEntries: number;
  maxEntryBytes: number;
  maxTotalBytes: number;
  /** Largest uncompressed / compressed ratio of an entry past `ratioFloorBytes`. */
  maxRatio: number;
  /** Entries smaller than this are not held to the ratio (a blank sheet compresses a hundredfold). */
  ratioFloorBytes: number;
}

export type ZipRefusal =
  | { reason: 'damaged' }
  | { reason: 'entries'; limit: number }
  | { reason: 'entrySize' | 'totalSize'; limit: number }
  | { reason: 'ratio'; limit: number };

export class ZipRefused extends Error {
  constructor(readonly refusal: ZipRefusal) {
    super(`zip refused: ${refusal.reason}`);
  }
}

/** An archive's entries, unpacked (folders left out), in the archive's order. */
export type ZipEntries = Map<string, Buffer>;

function openBuffer(bytes: Buffer): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(
      bytes,
      { lazyEntries: true, validateEntrySizes: true, decodeStrings: true, strictFileNames: false },
      (error, zip) => (error || !zip ? reject(new ZipRefused({ reason: 'damaged' })) : resolve(zip)),
    );
  });
}

function readEntry(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry, (error, stream) => {
      if (error || !stream) return reject(new ZipRefused({ reason: 'damaged' }));
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      // validateEntrySizes ends the stream with an error the moment it passes the declared size.
      stream.on('error', () => reject(new ZipRefused({ reason: 'damaged' })));
      stream.on('end', () => resolve(Buffer.concat(chunks)));
    });
  });
}

/**
 * Unpacks an archive held in memory within `limits`, or throws `ZipRefused`. Every size is judged from
 * the central directory first, so an archive over a limit is refused in milliseconds, having inflated
 * nothing; the directory's sizes are then enforced while inflating.
 */
export async function unpackZip(bytes: Buffer, limits: ZipLimits): Promise<ZipEntries> {
  const zip = await openBuffer(bytes);
  if (zip.entryCount > limits.maxEntries)
    throw new ZipRefused({ reason: 'entries', limit: limits.maxEntries });
  const entries: yauzl.Entry[] = [];
  let total = 0;
  await new Promise<void>((resolve, reject) => {
    zip.on('entry', (entry: yauzl.Entry) => {
      const size = entry.uncompressedSize;
      total += size;
      let refusal: ZipRefusal | null = null;
      if (size > limits.maxEntryBytes) refusal = { reason: 'entrySize', limit: limits.maxEntryBytes };
      else if (total > limits.maxTotalBytes) refusal = { reason: 'totalSize', limit: limits.maxTotalBytes };
      else if (size > limits.ratioFloorBytes && size > limits.maxRatio * Math.max(1, entry.compressedSize))
        refusal = { reason: 'ratio', limit: limits.maxRatio };
      if (refusal) {
        zip.close();
        return reject(new ZipRefused(refusal));
      }
      entries.push(entry);
      zip.readEntry();
    });
    zip.on('end', () => resolve());
    zip.on('error', () => reject(new ZipRefused({ reason: 'damaged' })));
    zip.readEntry();
  });
  const files: ZipEntries = new Map();
  for (const entry of entries) {
    if (entry.fileName.endsWith('/')) continue;
    files.set(entry.fileName.replace(/^\/+/, ''), await readEntry(zip, entry));
  }
  return files;
}
