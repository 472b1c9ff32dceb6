import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Carrier credentials sealed at rest: AES-256-GCM under the server's key, with the tenant and the kind
 * of account as associated data, so a sealed text copied onto another tenant's row does not open.
 * A sealed text names the key it was sealed with (the first bytes of the key's SHA-256, which tell
 * nothing of the key), so the key can be rotated: the new key seals, the old ones still open until
 * every row was sealed again (`resealCarrierCredentials`, run at start).
 */

export interface CredentialKey {
  /** base64url of the first 6 bytes of the key's SHA-256. */
  id: string;
  bytes: Buffer;
}

export interface CredentialKeys {
  /** Null in production without `CARRIER_CREDENTIALS_KEY`: credentials can then not be saved or used. */
  current: CredentialKey | null;
  /** Keys rows may still be sealed with, during a rotation (`CARRIER_CREDENTIALS_OLD_KEYS`). */
  previous: CredentialKey[];
  /** Where the current key came from, for the start-up line. */
  source: 'environment' | 'data folder' | 'none';
}

/** A sealed text that does not open: sealed with a key the server no longer has, or tampered with. */
export class CredentialsUnreadableError extends Error {
  constructor(readonly keyId: string) {
    super(`carrier credentials sealed with key ${keyId} do not open`);
  }
}

/** No key to seal with (production without `CARRIER_CREDENTIALS_KEY`). */
export class CredentialsKeyMissingError extends Error {
  constructor() {
    super('CARRIER_CREDENTIALS_KEY is not set');
  }
}

const VERSION = 'v1';

/**
 * A key as the environment gives it: 32 bytes in base64 (44 characters, or 43 unpadded base64url) or
 * in hex (64 characters). Anything else is refused, so a typo never becomes a weak key.
 */
export function parseCredentialKey(text: string): CredentialKey {
  const trimmed = text.trim();
  let bytes: Buffer | null = null;
  if (/^[0-9a-fA-F]{64}$/.test(trimmed)) bytes = Buffer.from(trimmed, 'hex');
  else if (/^[A-Za-z0-9+/_-]{43}=?$/.test(trimmed)) bytes = Buffer.from(trimmed, 'base64');
  if (bytes?.length !== 32) throw new Error('must be 32 bytes, as 64 hex digits or 44 base64 characters');
  return { id: keyIdOf(bytes), bytes };
}

const keyIdOf = (bytes: Buffer) =>
  createHash('sha256').update(bytes).digest().subarray(0, 6).toString('base64url');

/**
 * The server's keys. Without `CARRIER_CREDENTIALS_KEY`, a server that is not in production keeps a key
 * of its own in its data folder, made on first start, so `npm start` can connect a carrier account at
 * once; in production the key must come from the environment (where it can be kept apart from the
 * database and its backups).
 */
export function loadCredentialKeys(options: {
  key: string | undefined;
  oldKeys: string | undefined;
  production: boolean;
  dataDir: string;
}): CredentialKeys {
  const previous = (options.oldKeys ?? '')
    .split(',')
    .map((text) => text.trim())
    .filter(Boolean)
    .map(parseCredentialKey);
  if (options.key) return { current: parseCredentialKey(options.key), previous, source: 'environment' };
  if (options.production) return { current: null, previous, source: 'none' };
  return { current: dataFolderKey(options.dataDir), previous, source: 'data folder' };
}

function dataFolderKey(dataDir: string): CredentialKey {
  const file = join(dataDir, 'carrier-credentials.key');
  try {
    return parseCredentialKey(readFileSync(file, 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(dataDir, { recursive: true });
  try {
    // `wx`: of two processes starting on one data folder, the second reads the first one's key.
    writeFileSync(file, `${randomBytes(32).toString('base64')}\n`, { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return parseCredentialKey(readFileSync(file, 'utf8'));
}

/** What a sealed text is bound to: its tenant and kind of account. */
export const credentialsContext = (tenantId: number, kind: string) => `carrier:${tenantId}:${kind}`;

export function sealCredentials(
  keys: CredentialKeys,
  credentials: Record<string, string>,
  context: string,
): string {
  const key = keys.current;
  if (!key) throw new CredentialsKeyMissingError();
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key.bytes, iv);
  cipher.setAAD(Buffer.from(context));
  const text = Buffer.concat([cipher.update(JSON.stringify(credentials), 'utf8'), cipher.final()]);
  const parts = [iv, cipher.getAuthTag(), text].map((part) => part.toString('base64url'));
  return [VERSION, key.id, ...parts].join('.');
}

/** The key a sealed text names. */
export const sealedKeyId = (sealed: string) => sealed.split('.')[1] ?? '';

/**
 * The LIKE pattern of texts sealed with a key: a key id is base64url, whose `_` LIKE takes for any one
 * character, so it is escaped.
 */
export const sealedWithPrefix = (keyId: string) => `${VERSION}.${keyId.replaceAll('_', '\\_')}.%`;

export function openCredentials(
  keys: CredentialKeys,
  sealed: string,
  context: string,
): Record<string, string> {
  const [version, keyId = '', iv, tag, text] = sealed.split('.');
  const key = [keys.current, ...keys.previous].find((k) => k?.id === keyId);
  if (version !== VERSION || !key || !iv || !tag || text === undefined)
    throw new CredentialsUnreadableError(keyId);
  try {
    const decipher = createDecipheriv('aes-256-gcm', key.bytes, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(context));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    const plain = Buffer.concat([decipher.update(Buffer.from(text, 'base64url')), decipher.final()]);
    return JSON.parse(plain.toString('utf8')) as Record<string, string>;
  } catch {
    throw new CredentialsUnreadableError(keyId);
  }
}
