import { constants, generateKeyPairSync, privateDecrypt } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { serverKeys } from './schema.ts';

const KEY_NAME = 'login-rsa';
type KeyPair = { publicKey: string; privateKey: string };
const cache = new WeakMap<Db, KeyPair>();

/** One RSA pair for every copy of the server, made on first use and kept in the database. */
export async function loginKeyPair(db: Db): Promise<KeyPair> {
  const hit = cache.get(db);
  if (hit) return hit;
  const [row] = await db.select().from(serverKeys).where(eq(serverKeys.name, KEY_NAME)).limit(1);
  if (row) {
    const pair = { publicKey: row.publicKey, privateKey: row.privateKey };
    cache.set(db, pair);
    return pair;
  }
  const pair = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  await db
    .insert(serverKeys)
    .values({ name: KEY_NAME, ...pair })
    .onConflictDoNothing();
  // Another copy may have won the race: read back whatever is stored.
  const [stored] = await db.select().from(serverKeys).where(eq(serverKeys.name, KEY_NAME)).limit(1);
  const kept = stored ? { publicKey: stored.publicKey, privateKey: stored.privateKey } : pair;
  cache.set(db, kept);
  return kept;
}

/** Decrypts a base64 RSA-OAEP (SHA-256) payload into JSON; null when it is not one. */
export function decryptParam(privateKey: string, param: string): unknown {
  try {
    const plain = privateDecrypt(
      { key: privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
      Buffer.from(param, 'base64'),
    );
    return JSON.parse(plain.toString('utf8'));
  } catch {
    return null;
  }
}
