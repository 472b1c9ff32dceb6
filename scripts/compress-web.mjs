// Writes a brotli (.br) and a gzip (.gz) copy beside every compressible file of the built web app, so the
// server sends them as they are (no compression work per request). Usage: node scripts/compress-web.mjs [dir]
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const COMPRESSIBLE = new Set([
  '.js',
  '.mjs',
  '.css',
  '.html',
  '.svg',
  '.json',
  '.txt',
  '.xml',
  '.map',
  '.ico',
]);

function* filesUnder(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(path);
    else if (entry.isFile()) yield path;
  }
}

/** Compresses every compressible file under `dir` whose copies are missing or older; returns the count written. */
export function compressWebBuild(dir) {
  let written = 0;
  for (const path of filesUnder(dir)) {
    if (!COMPRESSIBLE.has(extname(path))) continue;
    const source = statSync(path);
    const copies = [
      [
        '.br',
        (data) =>
          brotliCompressSync(data, {
            params: {
              [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
              [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
            },
          }),
      ],
      ['.gz', (data) => gzipSync(data, { level: 9 })],
    ];
    let data;
    for (const [suffix, compress] of copies) {
      const target = path + suffix;
      let current = false;
      try {
        current = statSync(target).mtimeMs >= source.mtimeMs;
      } catch {
        current = false;
      }
      if (current) continue;
      data ??= readFileSync(path);
      const packed = compress(data);
      // A copy no smaller than the original is not worth a round of decoding in the browser.
      if (packed.length >= data.length) continue;
      writeFileSync(target, packed);
      written += 1;
    }
  }
  return written;
}

/** True when some compressible file of the build has no compressed copy yet. */
export function needsCompression(dir) {
  for (const path of filesUnder(dir)) {
    if (!COMPRESSIBLE.has(extname(path))) continue;
    const size = statSync(path).size;
    if (size < 1024) continue;
    try {
      if (statSync(`${path}.br`).mtimeMs < statSync(path).mtimeMs) return true;
    } catch {
      return true;
    }
  }
  return false;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const dir = process.argv[2] ?? fileURLToPath(new URL('../apps/web/dist/', import.meta.url));
  const written = compressWebBuild(dir);
  console.log(`Compressed copies written: ${written}`);
}
