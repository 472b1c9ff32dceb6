import { createHash } from 'node:crypto';
import { type Language, ResultCode } from '@freight/contracts/api';
import {
  CARRIER_BASE_URLS,
  CARRIER_CREDENTIAL_FIELDS,
  CARRIER_TIMEOUT_MS,
  type CarrierAccountCreateBody,
  type CarrierAccountListQuery,
  type CarrierAccountUpdateBody,
  type CarrierAccountView,
  type CarrierConnectionTestView,
  type CarrierEnvironment,
  type CarrierFailure,
  type CarrierKind,
  carrierCredentialSchemas,
} from '@freight/contracts/carriers';
import { translate } from '@freight/contracts/messages';
import { and, count, desc, eq, ilike, ne, notLike } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { DbOrTx } from '../../db/client.ts';
import { AppError, badField, conflict, isUniqueViolation, notFound } from '../../lib/errors.ts';
import { containing } from '../../lib/filters.ts';
import { reachesOnlyPublic } from '../../lib/public-address.ts';
import { throughBreaker } from './breaker.ts';
import { clientFor, ratesOf, shopOf } from './clients.ts';
import { CarrierCallError, type CarrierConnection, type ConnectionCheck } from './connection.ts';
import { karrioCancel, karrioFindPurchase, karrioShip } from './karrio/ship.ts';
import { karrioCreateWebhook, karrioDeleteWebhook } from './karrio/webhooks.ts';
import { labelPdf } from './label-pdf.ts';
import type { CarrierLabel, CarrierRateQuote, ParcelBooking, ParcelShipment } from './parcel.ts';
import { upsRecover } from './ups/recover.ts';
import { upsShip, upsVoid } from './ups/ship.ts';

/** Many PDFs as one, for a print of many labels. */
export { joinPdfs } from './label-pdf.ts';
export type {
  CarrierRateQuote,
  ParcelAddress,
  ParcelBooking,
  ParcelCustoms,
  ParcelShipment,
} from './parcel.ts';

import { carrierAccounts } from './schema.ts';
import {
  type CredentialKeys,
  CredentialsKeyMissingError,
  CredentialsUnreadableError,
  credentialsContext,
  openCredentials,
  sealCredentials,
  sealedWithPrefix,
} from './secrets.ts';

type AccountRow = typeof carrierAccounts.$inferSelect;

/** Where an account's calls go. */
export function baseUrlOf(row: Pick<AccountRow, 'kind' | 'environment' | 'baseUrl'>): string {
  const url =
    row.environment === 'custom' ? (row.baseUrl ?? '') : CARRIER_BASE_URLS[row.kind][row.environment];
  return url.replace(/\/+$/, '');
}

function present(row: AccountRow, language: Language): CarrierAccountView {
  return {
    id: row.id,
    kind: row.kind,
    label: row.label,
    environment: row.environment,
    baseUrl: baseUrlOf(row),
    timeoutMs: row.timeoutMs,
    enabled: row.enabled,
    credentialFields: [...CARRIER_CREDENTIAL_FIELDS[row.kind]],
    credentialsUpdatedAt: row.credentialsUpdatedAt,
    lastTest: row.lastTestAt
      ? testView(
          row.lastTestFailure
            ? { ok: false, failure: row.lastTestFailure, detail: row.lastTestDetail ?? '' }
            : { ok: true },
          row.lastTestAt,
          row.lastTestTookMs ?? 0,
          row.timeoutMs,
          language,
        )
      : null,
    webhook:
      row.webhookId && row.webhookUrl && row.webhookRegisteredAt
        ? { url: row.webhookUrl, registeredAt: row.webhookRegisteredAt }
        : null,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/** A failure as the reader is told it. */
export function failureMessage(
  failure: CarrierFailure,
  detail: string,
  timeoutMs: number,
  language: Language,
): string {
  return translate(language, `carrier.${failure}`, {
    seconds: Math.round(timeoutMs / 100) / 10,
    detail: detail.slice(0, 300),
  });
}

function testView(
  check: ConnectionCheck,
  testedAt: Date,
  tookMs: number,
  timeoutMs: number,
  language: Language,
): CarrierConnectionTestView {
  return check.ok
    ? {
        ok: true,
        failure: null,
        message: translate(language, 'carrier.connected'),
        detail: null,
        testedAt,
        tookMs,
      }
    : {
        ok: false,
        failure: check.failure,
        message: failureMessage(check.failure, check.detail, timeoutMs, language),
        detail: check.detail || null,
        testedAt,
        tookMs,
      };
}

/** Seals credentials, or refuses in the reader's language when the server has no key. */
function seal(
  keys: CredentialKeys,
  tenantId: number,
  kind: CarrierKind,
  credentials: Record<string, string>,
) {
  try {
    return sealCredentials(keys, credentials, credentialsContext(tenantId, kind));
  } catch (error) {
    if (error instanceof CredentialsKeyMissingError)
      throw new AppError(ResultCode.Unavailable, 'carrier.keyMissing');
    throw error;
  }
}

/** The kind's credentials, all of its fields and nothing else, or the field error naming what it needs. */
function credentialsOf(kind: CarrierKind, credentials: unknown): Record<string, string> {
  const parsed = carrierCredentialSchemas[kind].strict().safeParse(credentials);
  if (!parsed.success)
    throw badField('credentials', 'carrierAccount.credentialsKind', {
      kind: kind.toUpperCase(),
      fields: CARRIER_CREDENTIAL_FIELDS[kind].join(', '),
    });
  return parsed.data;
}

/** What the server lends every carrier account call: the sealing keys and where accounts may point. */
export interface CarrierSettings {
  keys: CredentialKeys;
  /** Whether a custom base URL may reach loopback or private addresses. */
  allowPrivate: boolean;
}

async function checkBaseUrl(
  settings: CarrierSettings,
  body: { environment: CarrierEnvironment; baseUrl?: string | undefined },
) {
  if (body.environment !== 'custom' || !body.baseUrl || settings.allowPrivate) return;
  if (!(await reachesOnlyPublic(body.baseUrl))) throw badField('baseUrl', 'carrierAccount.urlPrivate');
}

async function labelTaken(db: DbOrTx, tenantId: number, label: string, except?: number) {
  const [row] = await db
    .select({ id: carrierAccounts.id })
    .from(carrierAccounts)
    .where(
      and(
        eq(carrierAccounts.tenantId, tenantId),
        eq(carrierAccounts.label, label),
        except ? ne(carrierAccounts.id, except) : undefined,
      ),
    )
    .limit(1);
  return Boolean(row);
}

const endpointFields = (body: { environment: CarrierEnvironment; baseUrl?: string | undefined }) => ({
  environment: body.environment,
  baseUrl: body.environment === 'custom' ? (body.baseUrl ?? null) : null,
});

export interface CarrierCaller {
  tenantId: number;
  id: number;
  language: Language;
}

export async function listCarrierAccounts(db: DbOrTx, caller: CarrierCaller, query: CarrierAccountListQuery) {
  const { page, limit, keyword, kind, enabled } = query;
  const where = and(
    eq(carrierAccounts.tenantId, caller.tenantId),
    keyword ? ilike(carrierAccounts.label, containing(keyword)) : undefined,
    kind ? eq(carrierAccounts.kind, kind) : undefined,
    enabled === undefined ? undefined : eq(carrierAccounts.enabled, enabled),
  );
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(carrierAccounts)
      .where(where)
      .orderBy(desc(carrierAccounts.createdAt), desc(carrierAccounts.id))
      .limit(limit)
      .offset((page - 1) * limit),
    db.select({ n: count() }).from(carrierAccounts).where(where),
  ]);
  return { list: rows.map((row) => present(row, caller.language)), total: total?.n ?? 0, page, limit };
}

async function accountRow(db: DbOrTx, tenantId: number, id: number): Promise<AccountRow | undefined> {
  const [row] = await db
    .select()
    .from(carrierAccounts)
    .where(and(eq(carrierAccounts.tenantId, tenantId), eq(carrierAccounts.id, id)));
  return row;
}

async function findAccount(db: DbOrTx, tenantId: number, id: number) {
  const row = await accountRow(db, tenantId, id);
  if (!row) throw notFound();
  return row;
}

export async function createCarrierAccount(
  db: DbOrTx,
  settings: CarrierSettings,
  caller: CarrierCaller,
  body: CarrierAccountCreateBody,
) {
  const credentials = credentialsOf(body.kind, body.credentials);
  await checkBaseUrl(settings, body);
  if (await labelTaken(db, caller.tenantId, body.label)) throw badField('label', 'carrierAccount.labelTaken');
  try {
    const [row] = await db
      .insert(carrierAccounts)
      .values({
        tenantId: caller.tenantId,
        kind: body.kind,
        label: body.label,
        ...endpointFields(body),
        timeoutMs: body.timeoutMs ?? CARRIER_TIMEOUT_MS.default,
        enabled: body.enabled ?? true,
        credentials: seal(settings.keys, caller.tenantId, body.kind, credentials),
        createdBy: caller.id,
      })
      .returning();
    if (!row) throw new Error('carrier account not stored');
    return present(row, caller.language);
  } catch (error) {
    // Two saves of one name at once: the unique index answers as the check before it does.
    if (isUniqueViolation(error)) throw badField('label', 'carrierAccount.labelTaken');
    throw error;
  }
}

export async function updateCarrierAccount(
  db: DbOrTx,
  settings: CarrierSettings,
  caller: CarrierCaller,
  body: CarrierAccountUpdateBody,
) {
  const before = await findAccount(db, caller.tenantId, body.id);
  const credentials = body.credentials && credentialsOf(before.kind, body.credentials);
  await checkBaseUrl(settings, body);
  if (await labelTaken(db, caller.tenantId, body.label, before.id))
    throw badField('label', 'carrierAccount.labelTaken');
  const endpoint = endpointFields(body);
  // A new address or new credentials make the last test's answer stale.
  const retest = Boolean(credentials) || baseUrlOf({ kind: before.kind, ...endpoint }) !== baseUrlOf(before);
  try {
    const [row] = await db
      .update(carrierAccounts)
      .set({
        label: body.label,
        ...endpoint,
        timeoutMs: body.timeoutMs ?? before.timeoutMs,
        enabled: body.enabled ?? before.enabled,
        ...(credentials
          ? {
              credentials: seal(settings.keys, caller.tenantId, before.kind, credentials),
              credentialsUpdatedAt: new Date(),
            }
          : {}),
        ...(retest
          ? { lastTestAt: null, lastTestFailure: null, lastTestDetail: null, lastTestTookMs: null }
          : {}),
        updatedAt: new Date(),
      })
      .where(and(eq(carrierAccounts.tenantId, caller.tenantId), eq(carrierAccounts.id, before.id)))
      .returning();
    if (!row) throw notFound();
    return present(row, caller.language);
  } catch (error) {
    if (isUniqueViolation(error)) throw badField('label', 'carrierAccount.labelTaken');
    throw error;
  }
}

/**
 * What uses a carrier account, asked before it is deleted: each line that lets a channel or product be
 * served by an account registers how to name those that are (this module reads no other's tables).
 */
type AccountUses = (db: DbOrTx, tenantId: number, accountId: number) => Promise<string[]>;
const accountUses: AccountUses[] = [];
export function registerCarrierAccountUses(uses: AccountUses) {
  accountUses.push(uses);
}

export async function deleteCarrierAccount(db: DbOrTx, caller: CarrierCaller, id: number) {
  const account = await findAccount(db, caller.tenantId, id);
  const uses = (await Promise.all(accountUses.map((named) => named(db, caller.tenantId, id)))).flat();
  if (uses.length > 0) throw conflict('carrierAccount.inUse', { uses: uses.slice(0, 5).join(', ') });
  // The account's webhook at Karrio would post to nothing: ended there first, as far as Karrio lets
  // it (a Karrio that refuses or is away disables a webhook that keeps failing on its own).
  if (account.webhookId && serverSettings) {
    const settings = serverSettings;
    await Promise.resolve()
      .then(() => karrioDeleteWebhook(connectionOf(settings, account), account.webhookId as string))
      .catch(() => undefined);
  }
  const [row] = await db
    .delete(carrierAccounts)
    .where(and(eq(carrierAccounts.tenantId, caller.tenantId), eq(carrierAccounts.id, id)))
    .returning({ id: carrierAccounts.id, label: carrierAccounts.label });
  if (!row) throw notFound();
  return row;
}

/**
 * How to reach an account: its address, its credentials opened for the call, its time limit. Read
 * before any call goes out, so no network call is made while a transaction is open.
 */
export async function carrierConnection(
  db: DbOrTx,
  settings: CarrierSettings,
  tenantId: number,
  id: number,
): Promise<{ kind: CarrierKind; connection: CarrierConnection }> {
  const row = await findAccount(db, tenantId, id);
  return { kind: row.kind, connection: connectionOf(settings, row) };
}

function connectionOf(settings: CarrierSettings, row: AccountRow): CarrierConnection {
  return {
    accountId: row.id,
    tenantId: row.tenantId,
    baseUrl: baseUrlOf(row),
    credentials: openCredentials(settings.keys, row.credentials, credentialsContext(row.tenantId, row.kind)),
    timeoutMs: row.timeoutMs,
    // The standard carriers' own services are public; only an account's own address may be private.
    allowPrivate: row.environment === 'custom' && settings.allowPrivate,
  };
}

/**
 * Signs in to the carrier with the account's credentials and keeps the answer on the account. The
 * call goes out with no transaction open; the answer is written after it.
 */
export async function testCarrierAccount(
  db: DbOrTx,
  settings: CarrierSettings,
  caller: CarrierCaller,
  id: number,
): Promise<CarrierConnectionTestView> {
  const row = await findAccount(db, caller.tenantId, id);
  let connection: CarrierConnection;
  try {
    connection = connectionOf(settings, row);
  } catch (error) {
    if (error instanceof CredentialsUnreadableError)
      throw badField('credentials', 'carrier.credentialsUnreadable');
    throw error;
  }
  const started = performance.now();
  const check = await clientFor(row.kind).testConnection(connection);
  const tookMs = Math.round(performance.now() - started);
  const testedAt = new Date();
  await db
    .update(carrierAccounts)
    .set({
      lastTestAt: testedAt,
      lastTestFailure: check.ok ? null : check.failure,
      lastTestDetail: check.ok ? null : check.detail.slice(0, 1000),
      lastTestTookMs: tookMs,
    })
    .where(and(eq(carrierAccounts.tenantId, caller.tenantId), eq(carrierAccounts.id, id)));
  return testView(check, testedAt, tookMs, row.timeoutMs, caller.language);
}

/** What recognises a webhook secret without keeping it: its SHA-256, in hex. */
export const webhookSecretHash = (secret: string) => createHash('sha256').update(secret).digest('hex');

/** A Karrio account's connection for a webhook call, refused in the reader's terms when it cannot be had. */
async function karrioAccount(db: DbOrTx, settings: CarrierSettings, tenantId: number, id: number) {
  const row = await findAccount(db, tenantId, id);
  if (row.kind !== 'karrio') throw badField('id', 'carrierAccount.noWebhook');
  try {
    return { row, connection: connectionOf(settings, row) };
  } catch (error) {
    if (error instanceof CredentialsUnreadableError)
      throw badField('credentials', 'carrier.credentialsUnreadable');
    throw error;
  }
}

/** A webhook call Karrio failed, told in the reader's language with Karrio's words kept in it. */
function webhookRefusal(error: unknown, row: AccountRow, language: Language): never {
  if (!(error instanceof CarrierCallError)) throw error;
  const reason = failureMessage(error.failure, error.detail, row.timeoutMs, language);
  throw new AppError(ResultCode.BadInput, 'carrierAccount.webhookFailed', { reason });
}

/**
 * Subscribes the portal to a Karrio account's tracker events at `url` (the tenant's own host): Karrio
 * answers the secret it will send with each event, of which only the hash is kept. A webhook the
 * portal had registered before is ended at Karrio once the new one stands (its secret no longer
 * opens anything either way). The calls go out with no transaction open.
 */
export async function registerKarrioWebhook(
  db: DbOrTx,
  settings: CarrierSettings,
  caller: CarrierCaller,
  id: number,
  url: string,
): Promise<CarrierAccountView> {
  const { row, connection } = await karrioAccount(db, settings, caller.tenantId, id);
  const created = await karrioCreateWebhook(connection, url, `Freight portal tracking: ${row.label}`).catch(
    (error) => webhookRefusal(error, row, caller.language),
  );
  const [kept] = await db
    .update(carrierAccounts)
    .set({
      webhookId: created.id,
      webhookSecretHash: webhookSecretHash(created.secret),
      webhookUrl: url,
      webhookRegisteredAt: new Date(),
      updatedAt: new Date(),
    })
    .where(and(eq(carrierAccounts.tenantId, caller.tenantId), eq(carrierAccounts.id, id)))
    .returning();
  if (!kept) {
    // The account went while Karrio answered: its new webhook would post to nothing.
    await karrioDeleteWebhook(connection, created.id).catch(() => undefined);
    throw notFound();
  }
  if (row.webhookId && row.webhookId !== created.id)
    await karrioDeleteWebhook(connection, row.webhookId).catch(() => undefined);
  return present(kept, caller.language);
}

/**
 * Ends the account's webhook at Karrio, then forgets it here, so its events are no longer taken. A
 * failed call changes nothing and says why.
 */
export async function removeKarrioWebhook(
  db: DbOrTx,
  settings: CarrierSettings,
  caller: CarrierCaller,
  id: number,
): Promise<CarrierAccountView> {
  const { row, connection } = await karrioAccount(db, settings, caller.tenantId, id);
  if (row.webhookId)
    await karrioDeleteWebhook(connection, row.webhookId).catch((error) =>
      webhookRefusal(error, row, caller.language),
    );
  const [kept] = await db
    .update(carrierAccounts)
    .set({
      webhookId: null,
      webhookSecretHash: null,
      webhookUrl: null,
      webhookRegisteredAt: null,
      updatedAt: new Date(),
    })
    .where(and(eq(carrierAccounts.tenantId, caller.tenantId), eq(carrierAccounts.id, id)))
    .returning();
  if (!kept) throw notFound();
  return present(kept, caller.language);
}

/**
 * Seals again, with the current key, every account sealed with an older one (a key rotation), and
 * counts those no key opens. Run at start as system work; a row is rewritten only if it still holds
 * what was read, so two servers starting at once do not undo each other.
 */
export async function resealCarrierCredentials(
  db: DbOrTx,
  keys: CredentialKeys,
  log?: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>,
): Promise<{ resealed: number; unreadable: number }> {
  const rows = await db
    .select({
      tenantId: carrierAccounts.tenantId,
      id: carrierAccounts.id,
      kind: carrierAccounts.kind,
      credentials: carrierAccounts.credentials,
    })
    .from(carrierAccounts)
    // Only what the current key did not seal is read: at an ordinary start, nothing.
    .where(
      keys.current ? notLike(carrierAccounts.credentials, sealedWithPrefix(keys.current.id)) : undefined,
    );
  let resealed = 0;
  let unreadable = 0;
  for (const row of rows) {
    const context = credentialsContext(row.tenantId, row.kind);
    let open: Record<string, string>;
    try {
      open = openCredentials(keys, row.credentials, context);
    } catch {
      unreadable++;
      continue;
    }
    if (!keys.current) continue;
    const updated = await db
      .update(carrierAccounts)
      .set({ credentials: sealCredentials(keys, open, context) })
      .where(
        and(
          eq(carrierAccounts.tenantId, row.tenantId),
          eq(carrierAccounts.id, row.id),
          eq(carrierAccounts.credentials, row.credentials),
        ),
      )
      .returning({ id: carrierAccounts.id });
    resealed += updated.length;
  }
  if (resealed > 0)
    log?.info(`Carrier credentials: ${resealed} account(s) sealed again with the current key`);
  if (unreadable > 0)
    log?.error(
      `Carrier credentials: ${unreadable} account(s) sealed with a key this server does not have; set it in CARRIER_CREDENTIALS_OLD_KEYS or enter their credentials again`,
    );
  if (!keys.current && rows.length > 0)
    log?.warn('Carrier credentials: CARRIER_CREDENTIALS_KEY is not set; carrier accounts cannot be used');
  return { resealed, unreadable };
}

/**
 * The settings the running server lends carrier calls made outside this module's routes (a quote
 * pricing a channel a carrier serves): set when the routes are registered.
 */
let serverSettings: CarrierSettings | null = null;
export function useCarrierSettings(settings: CarrierSettings) {
  serverSettings = settings;
}
/** An app closing takes its settings back, unless another app of the process set its own since. */
export function forgetCarrierSettings(settings: CarrierSettings) {
  if (serverSettings === settings) serverSettings = null;
}

/** The kind of a tenant's account, or null when it has none of that id. */
export async function carrierAccountKind(
  db: DbOrTx,
  tenantId: number,
  id: number,
): Promise<CarrierKind | null> {
  return (await accountRow(db, tenantId, id))?.kind ?? null;
}

/** What a Karrio account's webhook events are checked against; null for an account that is not Karrio's. */
export async function karrioWebhookTrust(
  db: DbOrTx,
  tenantId: number,
  id: number,
): Promise<{ secretHash: string | null } | null> {
  const row = await accountRow(db, tenantId, id);
  return row?.kind === 'karrio' ? { secretHash: row.webhookSecretHash } : null;
}

export type CarrierRating =
  | { ok: true; quote: CarrierRateQuote }
  | { ok: false; failure: CarrierFailure; detail: string };

/** A call to a carrier that did not go through: why, in the carrier's words, and whether to try again. */
export interface CarrierRefusal {
  ok: false;
  failure: CarrierFailure;
  detail: string;
  /** Whether trying again later may succeed (a timeout, a 5xx, a breaker open) rather than a refusal. */
  retryable: boolean;
}

/**
 * Opens an enabled account of the tenant and runs one call to its carrier through the account's
 * breaker, with no transaction open. Every failure is answered, never thrown.
 */
async function withAccount<T>(
  db: DbOrTx,
  tenantId: number,
  accountId: number,
  call: (kind: CarrierKind, connection: CarrierConnection) => Promise<T>,
): Promise<{ ok: true; value: T } | CarrierRefusal> {
  const settings = serverSettings;
  if (!settings)
    return {
      ok: false,
      failure: 'unavailable',
      detail: 'carrier accounts are not set up on this server',
      retryable: true,
    };
  const row = await accountRow(db, tenantId, accountId);
  if (!row?.enabled)
    return {
      ok: false,
      failure: 'unavailable',
      detail: 'the carrier account is disabled or gone',
      retryable: false,
    };
  let connection: CarrierConnection;
  try {
    connection = connectionOf(settings, row);
  } catch (error) {
    if (error instanceof CredentialsUnreadableError)
      return {
        ok: false,
        failure: 'credentials',
        detail: "the stored credentials do not open with this server's key",
        retryable: false,
      };
    throw error;
  }
  try {
    return { ok: true, value: await throughBreaker(tenantId, accountId, () => call(row.kind, connection)) };
  } catch (error) {
    if (error instanceof CarrierCallError)
      return { ok: false, failure: error.failure, detail: error.detail, retryable: error.retryable };
    throw error;
  }
}

/**
 * What a tenant's account would charge for a shipment with one service. A failure of any kind is
 * answered, never thrown, so one carrier's trouble stays on its own line of a quote.
 */
export async function rateWithCarrier(
  db: DbOrTx,
  tenantId: number,
  accountId: number,
  serviceCode: string,
  shipment: ParcelShipment,
  shops?: CarrierShops,
): Promise<CarrierRating> {
  const rated = shops
    ? await shopOnce(db, tenantId, accountId, shipment, serviceCode, shops)
    : await withAccount(db, tenantId, accountId, (kind, connection) =>
        ratesOf(kind, connection, shipment, serviceCode),
      );
  if (!rated.ok) return { ok: false, failure: rated.failure, detail: rated.detail };
  if (!rated.value)
    return {
      ok: false,
      failure: 'refused',
      detail: `the carrier offered no rate for service ${serviceCode}`,
    };
  return { ok: true, quote: rated.value };
}

/**
 * What one quote has asked each account so far: channels on one UPS account share its one Shop call
 * (every service in one answer) rather than calling once each. Keep one per shipment priced.
 */
export type CarrierShops = Map<number, ReturnType<typeof shopCall>>;

export const carrierShops = (): CarrierShops => new Map();

function shopCall(db: DbOrTx, tenantId: number, accountId: number, shipment: ParcelShipment) {
  return withAccount(db, tenantId, accountId, async (kind, connection) => ({
    kind,
    quotes: await shopOf(kind, connection, shipment),
  }));
}

async function shopOnce(
  db: DbOrTx,
  tenantId: number,
  accountId: number,
  shipment: ParcelShipment,
  serviceCode: string,
  shops: CarrierShops,
): Promise<{ ok: true; value: CarrierRateQuote | null } | CarrierRefusal> {
  let shop = shops.get(accountId);
  if (!shop) {
    shop = shopCall(db, tenantId, accountId, shipment);
    shops.set(accountId, shop);
  }
  const shopped = await shop;
  if (!shopped.ok) return shopped;
  const { quotes } = shopped.value;
  // A carrier asked one service at a time: this channel's own call.
  if (!quotes)
    return withAccount(db, tenantId, accountId, (kind, connection) =>
      ratesOf(kind, connection, shipment, serviceCode),
    );
  return { ok: true, value: quotes.find((quote) => quote.serviceCode === serviceCode) ?? null };
}

/** A bought label, as one file to keep and print. */
export interface BoughtLabel {
  trackingNumbers: string[];
  /** The carrier's id of the shipment, which voids it. */
  shipmentId: string;
  /** PDF pages of 4 × 6 inches, or ZPL when the booking asked for it. */
  file: { mime: 'application/pdf' | 'application/x-zpl'; bytes: Buffer };
  chargedCents: number | null;
  currency: string | null;
}

async function keptLabel(label: CarrierLabel, format: ParcelBooking['labelFormat']): Promise<BoughtLabel> {
  const zpl = format === 'zpl' && label.label.every((part) => part.format === 'zpl');
  return {
    trackingNumbers: label.trackingNumbers,
    shipmentId: label.shipmentId,
    file: zpl
      ? { mime: 'application/x-zpl', bytes: Buffer.concat(label.label.map((part) => part.bytes)) }
      : { mime: 'application/pdf', bytes: await labelPdf(label.label) },
    chargedCents: label.chargedCents,
    currency: label.currency,
  };
}

/** A label the carrier already made for this booking (by its key, or its reference at UPS), or null. */
function earlierPurchase(kind: CarrierKind, connection: CarrierConnection, booking: ParcelBooking) {
  return kind === 'ups' ? upsRecover(connection, booking) : karrioFindPurchase(connection, booking);
}

async function kept(
  label: CarrierLabel,
  booking: ParcelBooking,
): Promise<{ ok: true; label: BoughtLabel } | CarrierRefusal> {
  try {
    return { ok: true, label: await keptLabel(label, booking.labelFormat) };
  } catch (error) {
    if (error instanceof CarrierCallError)
      return { ok: false, failure: error.failure, detail: error.detail, retryable: false };
    throw error;
  }
}

/**
 * Buys the booking's label through the account, with no transaction open. With `reconcile` (an
 * earlier attempt of the same purchase may have reached the carrier and its answer was lost) the
 * carrier is first asked for a label it already made for the booking, which is then the answer: a
 * label is never bought twice for one booking.
 */
export async function buyCarrierLabel(
  db: DbOrTx,
  tenantId: number,
  accountId: number,
  booking: ParcelBooking,
  options: { reconcile: boolean; carrierId?: string },
): Promise<{ ok: true; label: BoughtLabel; recovered: boolean } | CarrierRefusal> {
  const bought = await withAccount(db, tenantId, accountId, async (kind, connection) => {
    const earlier = options.reconcile ? await earlierPurchase(kind, connection, booking) : null;
    if (earlier) return { label: earlier, recovered: true };
    const label =
      kind === 'ups'
        ? await upsShip(connection, booking)
        : await karrioShip(connection, booking, options.carrierId);
    return { label, recovered: false };
  });
  if (!bought.ok) return bought;
  const file = await kept(bought.value.label, booking);
  return file.ok ? { ...file, recovered: bought.value.recovered } : file;
}

/** The label the carrier already made for the booking, if any: what a void looks for before a refund. */
export async function findCarrierLabel(
  db: DbOrTx,
  tenantId: number,
  accountId: number,
  booking: ParcelBooking,
): Promise<{ ok: true; label: { shipmentId: string } | null } | CarrierRefusal> {
  const found = await withAccount(db, tenantId, accountId, (kind, connection) =>
    earlierPurchase(kind, connection, booking),
  );
  if (!found.ok) return found;
  return { ok: true, label: found.value ? { shipmentId: found.value.shipmentId } : null };
}

/** Voids a bought label at the carrier (safe to repeat: a shipment already voided answers as done). */
export async function voidCarrierLabel(
  db: DbOrTx,
  tenantId: number,
  accountId: number,
  shipmentId: string,
): Promise<{ ok: true } | CarrierRefusal> {
  const voided = await withAccount(db, tenantId, accountId, (kind, connection) =>
    kind === 'ups' ? upsVoid(connection, shipmentId) : karrioCancel(connection, shipmentId),
  );
  return voided.ok ? { ok: true } : voided;
}
