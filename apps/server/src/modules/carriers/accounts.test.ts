import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CARRIER_DOCUMENTS,
  type CarrierMock,
  startCarrierMock,
  unreachableUrl,
} from '../../../test/carrier-mock.ts';
import { useTestApp } from '../../../test/fixture.ts';
import { ConfigError, loadConfig } from '../../config.ts';
import { carrierAccounts, operationLogs } from '../../db/schema.ts';
import { runAsSystem } from '../../db/tenant-scope.ts';
import {
  type CredentialKeys,
  credentialsContext,
  loadCredentialKeys,
  openCredentials,
  parseCredentialKey,
  sealCredentials,
  sealedKeyId,
} from './secrets.ts';
import { resealCarrierCredentials } from './service.ts';

const f = useTestApp({ tenants: 2, signIn: [['admin', 'editor', 'customer'], ['admin']], language: 'en-US' });

const UPS_SECRET = 'ups-secret-f9c1d2e3';
const KARRIO_KEY = 'key_karrio_7a6b5c4d3e2f';

const upsAccount = (label = 'UPS main') => ({
  kind: 'ups',
  label,
  environment: 'test',
  credentials: { clientId: 'client-abc', clientSecret: UPS_SECRET, accountNumber: 'A1B2C3' },
});
const karrioAccount = (label = 'Karrio self-hosted') => ({
  kind: 'karrio',
  label,
  environment: 'custom',
  baseUrl: 'http://127.0.0.1:9/',
  timeoutMs: 2000,
  credentials: { apiKey: KARRIO_KEY },
});

const stored = async (id: number) => {
  const [row] = await f.db
    .select()
    .from(carrierAccounts)
    .where(and(eq(carrierAccounts.tenantId, f.t.tenant.id), eq(carrierAccounts.id, id)));
  if (!row) throw new Error(`no carrier account ${id}`);
  return row;
};

describe('carrier accounts', () => {
  let ups: CarrierMock;
  beforeAll(async () => {
    ups = await startCarrierMock({ documents: CARRIER_DOCUMENTS.ups });
  });
  afterAll(() => ups?.close());

  it('keeps credentials sealed, and no answer ever holds them', async () => {
    const admin = f.as('admin');
    const ups = await admin.ok('/api/admin/carrierAccount/create', upsAccount());
    expect(ups).toMatchObject({
      kind: 'ups',
      label: 'UPS main',
      environment: 'test',
      baseUrl: 'https://wwwcie.ups.com',
      timeoutMs: 10_000,
      enabled: true,
      credentialFields: ['clientId', 'clientSecret', 'accountNumber'],
      lastTest: null,
    });
    const karrio = await admin.ok('/api/admin/carrierAccount/create', karrioAccount());
    expect(karrio.baseUrl).toBe('http://127.0.0.1:9');

    const list = await admin.post('/api/admin/carrierAccount/list', {});
    const text = list.body;
    for (const secret of [UPS_SECRET, 'client-abc', 'A1B2C3', KARRIO_KEY]) expect(text).not.toContain(secret);
    expect(list.json().data.total).toBe(2);

    // At rest: AES-256-GCM, bound to the tenant and kind; the database holds no secret in clear.
    const row = await stored(ups.id);
    expect(row.credentials).toMatch(/^v1\.[A-Za-z0-9_-]{8}\./);
    expect(row.credentials).not.toContain(UPS_SECRET);

    // The operation log keeps that the account was made, not its credentials.
    const logs = await f.db.select().from(operationLogs).where(eq(operationLogs.tenantId, f.t.tenant.id));
    const logged = JSON.stringify(logs.filter((l) => l.action.startsWith('carrierAccount.')));
    expect(logged).toContain('carrierAccount.create');
    for (const secret of [UPS_SECRET, 'client-abc', KARRIO_KEY]) expect(logged).not.toContain(secret);
  });

  it('changes an account and keeps its credentials unless new ones are given whole', async () => {
    const admin = f.as('admin');
    const made = await admin.ok('/api/admin/carrierAccount/create', upsAccount('UPS to change'));
    const before = await stored(made.id);
    const saved = await admin.ok('/api/admin/carrierAccount/update', {
      id: made.id,
      label: 'UPS changed',
      environment: 'production',
      enabled: false,
    });
    expect(saved).toMatchObject({
      label: 'UPS changed',
      baseUrl: 'https://onlinetools.ups.com',
      enabled: false,
    });
    expect((await stored(made.id)).credentials).toBe(before.credentials);

    // Half of the kind's fields, or another kind's, is refused naming the credentials.
    const half = await admin.fail(
      '/api/admin/carrierAccount/update',
      { id: made.id, label: 'UPS changed', environment: 'production', credentials: { apiKey: 'x' } },
      400,
    );
    expect(half.msg).toContain('credentials do not match');
    expect(half.msg).toContain('clientId, clientSecret, accountNumber');

    await admin.ok('/api/admin/carrierAccount/update', {
      id: made.id,
      label: 'UPS changed',
      environment: 'production',
      credentials: { clientId: 'new-client', clientSecret: 'new-secret-123', accountNumber: 'Z9Y8X7' },
    });
    const after = await stored(made.id);
    expect(after.credentials).not.toBe(before.credentials);
    const keys = loadCredentialKeys({
      key: undefined,
      oldKeys: undefined,
      production: false,
      dataDir: f.ctx.app.config.DATA_DIR,
    });
    expect(openCredentials(keys, after.credentials, credentialsContext(f.t.tenant.id, 'ups'))).toEqual({
      clientId: 'new-client',
      clientSecret: 'new-secret-123',
      accountNumber: 'Z9Y8X7',
    });

    await admin.ok('/api/admin/carrierAccount/delete', { id: made.id });
    await admin.fail('/api/admin/carrierAccount/delete', { id: made.id }, 404);
  });

  it("names the wrong field in the reader's language", async () => {
    const admin = f.as('admin');
    const bad = await admin.fail(
      '/api/admin/carrierAccount/create',
      { ...upsAccount('UPS bad'), credentials: { clientId: 'c', clientSecret: 's', accountNumber: '12345' } },
      400,
    );
    expect(bad.msg).toContain('UPS account number');
    const zh = await admin
      .in('zh-CN')
      .fail('/api/admin/carrierAccount/create', { ...karrioAccount('K bad'), baseUrl: undefined }, 400);
    expect(zh.msg).toContain('服务地址');
    const url = await admin.fail(
      '/api/admin/carrierAccount/create',
      { ...karrioAccount('K bad'), baseUrl: 'ftp://x' },
      400,
    );
    expect(url.msg).toContain('Service address');
    const nul = await admin.fail('/api/admin/carrierAccount/create', { ...karrioAccount('K\u0000bad') }, 400);
    expect(nul.msg).toContain('Account name');
    await admin.ok('/api/admin/carrierAccount/create', karrioAccount('Karrio twice'));
    const twice = await admin.fail('/api/admin/carrierAccount/create', karrioAccount('Karrio twice'), 400);
    expect(twice.msg).toContain('already exists');
  });

  it('is for staff who hold the page, within their own tenant', async () => {
    const made = await f.as('admin').ok('/api/admin/carrierAccount/create', karrioAccount('Karrio private'));
    expect((await f.as('editor').ok('/api/admin/carrierAccount/list', {})).total).toBeGreaterThanOrEqual(1);
    await f.as('customer').fail('/api/admin/carrierAccount/list', {}, 401);
    await f.as('customer').fail('/api/admin/carrierAccount/create', karrioAccount('Karrio mine'), 401);
    // Another tenant's administrator neither sees nor touches it.
    const other = f.as('admin', f.tenant(1));
    expect((await other.ok('/api/admin/carrierAccount/list', {})).total).toBe(0);
    await other.fail('/api/admin/carrierAccount/test', { id: made.id }, 404);
    await other.fail(
      '/api/admin/carrierAccount/update',
      { id: made.id, label: 'x', environment: 'test' },
      404,
    );
    await other.fail('/api/admin/carrierAccount/delete', { id: made.id }, 404);
    expect((await stored(made.id)).label).toBe('Karrio private');
  });

  it("tests a UPS account against the carrier and says what is wrong in the reader's language", async () => {
    const admin = f.as('admin');
    const made = await admin.ok('/api/admin/carrierAccount/create', {
      ...upsAccount('UPS tested'),
      environment: 'custom',
      baseUrl: ups.url,
    });
    ups.respond('CreateToken', {
      body: {
        token_type: 'Bearer',
        issued_at: '1',
        client_id: 'client-abc',
        access_token: 'tok-1',
        expires_in: '14399',
        status: 'approved',
      },
    });
    const passed = await admin.ok('/api/admin/carrierAccount/test', { id: made.id });
    expect(passed).toMatchObject({
      ok: true,
      failure: null,
      message: 'Connected: the carrier accepted the credentials',
    });
    const token = ups.requests.find((r) => r.operationId === 'CreateToken');
    expect(token?.headers['x-merchant-id']).toBe('A1B2C3');
    expect(ups.violations).toEqual([]);

    ups.respond('CreateToken', {
      status: 401,
      body: { response: { errors: [{ code: '250003', message: 'Invalid Authentication Information.' }] } },
    });
    const refused = await admin.in('zh-CN').ok('/api/admin/carrierAccount/test', { id: made.id });
    expect(refused).toMatchObject({ ok: false, failure: 'credentials' });
    expect(refused.message).toContain('承运商拒绝了凭证');
    expect(refused.detail).toContain('Invalid Authentication Information');
    // The list keeps the last answer, in the reader's language.
    const listed = await admin.ok('/api/admin/carrierAccount/list', { keyword: 'UPS tested' });
    expect(listed.list[0].lastTest).toMatchObject({ ok: false, failure: 'credentials' });
    expect(listed.list[0].lastTest.message).toContain('refused the credentials');
    expect(JSON.stringify(listed)).not.toContain(UPS_SECRET);

    const karrio = await admin.ok('/api/admin/carrierAccount/create', {
      ...karrioAccount('Karrio away'),
      baseUrl: await unreachableUrl(),
    });
    const away = await admin.ok('/api/admin/carrierAccount/test', { id: karrio.id });
    expect(away).toMatchObject({ ok: false, failure: 'unreachable' });
    expect(away.message).toContain('could not be reached');
    expect(ups.violations).toEqual([]);
  });

  it('filters by name, carrier and state, a page at a time', async () => {
    const admin = f.as('admin');
    await admin.ok('/api/admin/carrierAccount/create', { ...karrioAccount('Filter K'), enabled: false });
    const byName = await admin.ok('/api/admin/carrierAccount/list', { keyword: 'filter' });
    expect(byName.list.map((a: { label: string }) => a.label)).toEqual(['Filter K']);
    const off = await admin.ok('/api/admin/carrierAccount/list', { enabled: false });
    expect(off.list.every((a: { enabled: boolean }) => !a.enabled)).toBe(true);
    const ups = await admin.ok('/api/admin/carrierAccount/list', { kind: 'ups' });
    expect(ups.list.every((a: { kind: string }) => a.kind === 'ups')).toBe(true);
    const paged = await admin.ok('/api/admin/carrierAccount/list', { limit: 10, page: 99 });
    expect(paged.list).toEqual([]);
  });
});

/** As the start runs it: system work, over every tenant's accounts. */
const reseal = (keys: CredentialKeys) => runAsSystem(() => resealCarrierCredentials(f.db, keys));

describe('the credentials key', () => {
  const hexKey = () => randomBytes(32).toString('hex');

  it('is refused at start unless it is 32 bytes, without echoing it', () => {
    expect(() => loadConfig({ CARRIER_CREDENTIALS_KEY: 'too-short-key' })).toThrow(ConfigError);
    try {
      loadConfig({ CARRIER_CREDENTIALS_OLD_KEYS: `${hexKey()},abc123` });
      expect.unreachable();
    } catch (error) {
      expect((error as Error).message).toContain('CARRIER_CREDENTIALS_OLD_KEYS');
      expect((error as Error).message).not.toContain('abc123');
    }
    expect(
      loadConfig({ CARRIER_CREDENTIALS_KEY: randomBytes(32).toString('base64') }).CARRIER_CREDENTIALS_KEY,
    ).toBeTruthy();
  });

  it('is kept in the data folder outside production, and absent in production without the environment', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'carrier-key-'));
    const first = loadCredentialKeys({ key: undefined, oldKeys: undefined, production: false, dataDir });
    const again = loadCredentialKeys({ key: undefined, oldKeys: undefined, production: false, dataDir });
    expect(again.current?.id).toBe(first.current?.id);
    expect(statSync(join(dataDir, 'carrier-credentials.key')).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(dataDir, 'carrier-credentials.key'), 'utf8').trim()).toHaveLength(44);
    expect(
      loadCredentialKeys({ key: undefined, oldKeys: undefined, production: true, dataDir }).current,
    ).toBeNull();
  });

  it('opens only for its tenant and kind', () => {
    const keys = { current: parseCredentialKey(hexKey()), previous: [], source: 'environment' as const };
    const sealed = sealCredentials(keys, { apiKey: 'k' }, credentialsContext(1, 'karrio'));
    expect(openCredentials(keys, sealed, credentialsContext(1, 'karrio'))).toEqual({ apiKey: 'k' });
    expect(() => openCredentials(keys, sealed, credentialsContext(2, 'karrio'))).toThrow(/do not open/);
    const tampered = `${sealed.slice(0, -2)}${sealed.endsWith('A') ? 'B' : 'A'}A`;
    expect(() => openCredentials(keys, tampered, credentialsContext(1, 'karrio'))).toThrow(/do not open/);
  });

  it('rotates: the new key seals, the old one still opens, and the start seals every account again', async () => {
    const admin = f.as('admin');
    const made = await admin.ok('/api/admin/carrierAccount/create', karrioAccount('Karrio rotated'));
    const dataDir = f.ctx.app.config.DATA_DIR;
    const old = loadCredentialKeys({ key: undefined, oldKeys: undefined, production: false, dataDir });
    const oldKey = readFileSync(join(dataDir, 'carrier-credentials.key'), 'utf8').trim();
    const next = hexKey();
    const rotating = loadCredentialKeys({ key: next, oldKeys: oldKey, production: true, dataDir });
    expect(sealedKeyId((await stored(made.id)).credentials)).toBe(old.current?.id);

    const first = await reseal(rotating);
    expect(first.unreadable).toBe(0);
    expect(first.resealed).toBeGreaterThanOrEqual(1);
    const row = await stored(made.id);
    expect(sealedKeyId(row.credentials)).toBe(rotating.current?.id);
    // Once resealed, the new key alone opens it; a second start has nothing left to do.
    const onlyNew = loadCredentialKeys({ key: next, oldKeys: undefined, production: true, dataDir });
    expect(openCredentials(onlyNew, row.credentials, credentialsContext(f.t.tenant.id, 'karrio'))).toEqual({
      apiKey: KARRIO_KEY,
    });
    expect((await reseal(rotating)).resealed).toBe(0);
    // A server without the key that sealed them counts them as unreadable and changes nothing.
    const stranger = loadCredentialKeys({ key: hexKey(), oldKeys: undefined, production: true, dataDir });
    const lost = await reseal(stranger);
    expect(lost).toMatchObject({ resealed: 0 });
    expect(lost.unreadable).toBeGreaterThanOrEqual(1);
    expect((await stored(made.id)).credentials).toBe(row.credentials);
    // Put back as the running app has it, for the tests after this one.
    const back = {
      ...old,
      previous: [...rotating.previous, ...(rotating.current ? [rotating.current] : [])],
    };
    await reseal(back);
  });
});
