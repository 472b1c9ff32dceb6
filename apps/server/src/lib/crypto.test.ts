import { hash } from '@node-rs/argon2';
import { describe, expect, it } from 'vitest';
import {
  hashPassword,
  PASSWORD_HASH_PARAMS,
  passwordHashParams,
  sha256Hex,
  verifyPasswordDigest,
} from './crypto.ts';

describe('password hashing', () => {
  it('uses argon2id at 19 MiB, two passes, one lane outside the test runner', async () => {
    expect(passwordHashParams({ NODE_ENV: 'production' })).toBe(PASSWORD_HASH_PARAMS);
    expect(passwordHashParams({ NODE_ENV: 'development' })).toBe(PASSWORD_HASH_PARAMS);
    // A production process with a stray runner variable still hashes at full cost.
    expect(passwordHashParams({ NODE_ENV: 'production', VITEST: 'true' })).toBe(PASSWORD_HASH_PARAMS);
    const stored = await hash(sha256Hex('Demo@123456'), PASSWORD_HASH_PARAMS);
    expect(stored).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    // Checking reads the settings from the stored hash: a production hash checks whatever made it.
    expect(await verifyPasswordDigest(stored, sha256Hex('Demo@123456'))).toBe(true);
    expect(await verifyPasswordDigest(stored, sha256Hex('Demo@123457'))).toBe(false);
  });

  it('hashes the sign-in form’s digest of the password, with a salt of its own each time', async () => {
    const first = await hashPassword('Secret#2026');
    const second = await hashPassword('Secret#2026');
    expect(first).toMatch(/^\$argon2id\$/);
    expect(first).not.toBe(second);
    expect(await verifyPasswordDigest(first, sha256Hex('Secret#2026'))).toBe(true);
    expect(await verifyPasswordDigest(first, 'Secret#2026')).toBe(false);
    expect(await verifyPasswordDigest('not a hash', sha256Hex('Secret#2026'))).toBe(false);
  });
});
