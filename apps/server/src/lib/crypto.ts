import { createHash, randomBytes, randomInt } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

export const sha256Hex = (text: string) => createHash('sha256').update(text).digest('hex');
export const randomToken = () => randomBytes(32).toString('base64url');
export const randomDigits = (length: number) =>
  Array.from({ length }, () => randomInt(0, 10).toString()).join('');

// OWASP's argon2id settings: 19 MiB, two passes, one lane.
// `algorithm: 2` is Argon2id (the library's const enum cannot be imported under verbatimModuleSyntax).
export const PASSWORD_HASH_PARAMS = { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;
// The test suite makes and checks hundreds of passwords; inside its runner only, and never in
// production, it uses the cheapest argon2id there is. A test checks the production settings.
const TEST_RUNNER_PARAMS = { algorithm: 2, memoryCost: 64, timeCost: 1, parallelism: 1 } as const;

export const passwordHashParams = (env: NodeJS.ProcessEnv) =>
  env.VITEST && env.NODE_ENV === 'test' ? TEST_RUNNER_PARAMS : PASSWORD_HASH_PARAMS;
const ARGON2 = passwordHashParams(process.env);

/**
 * Passwords arrive from the sign-in form as a SHA-256 hex digest (SPEC section 3, "sent hashed");
 * argon2id is applied to that digest, so setting a password hashes the plain text the same way first.
 */
export const hashPassword = (plain: string) => hash(sha256Hex(plain), ARGON2);
export const verifyPasswordDigest = (stored: string, digest: string) =>
  verify(stored, digest).catch(() => false);
