import { isIP } from 'node:net';
import type { z } from 'zod';
import { AddressRefused, checkedAddresses, checkedLookup, hostOf } from '../../lib/public-address.ts';
import { CarrierCallError, type CarrierConnection, type ConnectionCheck } from './connection.ts';

/** One call to a carrier's API, with the shape its successful answer must have. */
export interface CarrierRequest<T> {
  method: 'GET' | 'POST' | 'DELETE';
  /** Appended to the connection's base URL, from its first slash. */
  path: string;
  headers: Record<string, string>;
  body?: { json: unknown } | { form: Record<string, string> };
  answer: z.ZodType<T>;
  /** The carrier's own words in an error answer (a 4xx's reason), when the body says any. */
  errorText: (body: unknown) => string | undefined;
  /**
   * The result of an error answer that is an outcome rather than a failure (a void of a shipment the
   * carrier no longer knows); undefined lets it fail as usual.
   */
  settle?: (status: number, body: unknown) => T | undefined;
}

/** A file the carrier serves (a label), fetched with the same timeout, reach, failure mapping and redaction. */
export interface CarrierFileRequest {
  /** Where the carrier's answer said the file is: on the connection's own server, or the call is refused. */
  url: string;
  headers: Record<string, string>;
  errorText: (body: unknown) => string | undefined;
}

/** How many of an answer's shape problems the detail names. */
const SHAPE_ISSUES_SHOWN = 3;
/** Shorter credential values are left in details (see `secretsOf`). */
const MIN_SECRET_LENGTH = 4;

/**
 * Calls the carrier and answers its body in the expected shape, or throws a CarrierCallError saying
 * why not in the terms the reader is told (`CarrierFailure`). Every detail has the connection's
 * credentials and the call's authorization blanked, whatever the carrier or the network put in it.
 */
export async function callCarrier<T>(connection: CarrierConnection, request: CarrierRequest<T>): Promise<T> {
  const secrets = secretsOf(connection, request.headers);
  const fail = (failure: CarrierCallError['failure'], detail: string, retryable: boolean) =>
    new CarrierCallError(failure, redact(detail, secrets), retryable);

  const { status, contentType, bytes } = await send(connection, request).catch((error: unknown) => {
    throw networkFailure(error, connection.timeoutMs, fail);
  });
  const text = bytes.toString('utf8');

  if (status < 200 || status > 299) {
    const settled = request.settle?.(status, parseJson(text));
    if (settled !== undefined) return settled;
    throw statusFailure(status, request.errorText(parseJson(text)), fail);
  }
  const body = parseJson(text);
  if (body === undefined) {
    throw fail('malformed', `HTTP ${status} answer is not JSON (${contentType || 'no content type'})`, false);
  }
  const parsed = request.answer.safeParse(body);
  if (!parsed.success) throw fail('malformed', `unexpected answer: ${shapeIssues(parsed.error)}`, false);
  return parsed.data;
}

/** The bytes of a file the carrier serves, or a CarrierCallError as `callCarrier` throws them. */
export async function fetchCarrierFile(
  connection: CarrierConnection,
  request: CarrierFileRequest,
): Promise<{ contentType: string; bytes: Buffer }> {
  const secrets = secretsOf(connection, request.headers);
  const fail = (failure: CarrierCallError['failure'], detail: string, retryable: boolean) =>
    new CarrierCallError(failure, redact(detail, secrets), retryable);
  const origin = new URL(connection.baseUrl).origin;
  const target = URL.canParse(request.url) ? new URL(request.url) : null;
  // The account's credentials go to its own server only, whatever an answer names.
  if (target?.origin !== origin) {
    throw fail('malformed', `the file ${request.url} is not on the carrier's server ${origin}`, false);
  }
  const { status, contentType, bytes } = await send(
    { ...connection, baseUrl: origin },
    {
      method: 'GET',
      path: `${target.pathname}${target.search}`,
      headers: { accept: '*/*', ...request.headers },
    },
  ).catch((error: unknown) => {
    throw networkFailure(error, connection.timeoutMs, fail);
  });
  if (status < 200 || status > 299) {
    throw statusFailure(status, request.errorText(parseJson(bytes.toString('utf8'))), fail);
  }
  if (bytes.length === 0) throw fail('malformed', `HTTP ${status} answer is empty`, false);
  return { contentType, bytes };
}

/** An error answer in the reader's terms: refused credentials, a carrier that may answer later, or a refusal. */
function statusFailure(
  status: number,
  words: string | undefined,
  fail: (failure: CarrierCallError['failure'], detail: string, retryable: boolean) => CarrierCallError,
): CarrierCallError {
  if (status === 401 || status === 403) return fail('credentials', words ?? `HTTP ${status}`, false);
  if (status === 429 || status >= 500) {
    return fail('unavailable', words ? `HTTP ${status}: ${words}` : `HTTP ${status}`, true);
  }
  return fail('refused', words ?? `HTTP ${status}`, false);
}

/** A connection test's answer from the call that tests it: its failure told, anything else thrown. */
export async function connectionCheck(call: () => Promise<unknown>): Promise<ConnectionCheck> {
  try {
    await call();
    return { ok: true };
  } catch (error) {
    if (error instanceof CarrierCallError) return { ok: false, failure: error.failure, detail: error.detail };
    throw error;
  }
}

async function send(
  connection: CarrierConnection,
  request: Pick<CarrierRequest<unknown>, 'method' | 'path' | 'headers' | 'body'>,
) {
  const headers: Record<string, string> = { accept: 'application/json', ...request.headers };
  let body: string | undefined;
  if (request.body && 'json' in request.body) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(request.body.json);
  } else if (request.body) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(request.body.form).toString();
  }
  const target = new URL(`${connection.baseUrl}${request.path}`);
  // A socket given an address connects without a lookup: it is judged here instead.
  const literal = hostOf(target.hostname);
  if (isIP(literal)) await checkedAddresses(literal, connection.allowPrivate);
  const { fetch } = await import('undici');
  // The signal covers the body as well as the headers: a carrier that stalls mid-answer times out too.
  const response = await fetch(target, {
    method: request.method,
    headers,
    body,
    signal: AbortSignal.timeout(connection.timeoutMs),
    redirect: 'error',
    dispatcher: await dispatcherFor(connection.allowPrivate),
  });
  return {
    status: response.status,
    contentType: response.headers.get('content-type') ?? '',
    bytes: await cappedBytes(response),
  };
}

/** The most of an answer read: a label sheet of many parcels fits; an endless answer does not. */
const MAX_ANSWER_BYTES = 20 * 1024 * 1024;

class AnswerTooLarge extends Error {
  constructor() {
    super(`the answer is larger than ${MAX_ANSWER_BYTES} bytes`);
  }
}

async function cappedBytes(response: import('undici').Response): Promise<Buffer> {
  if (!response.body) return Buffer.alloc(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body) {
    size += chunk.byteLength;
    if (size > MAX_ANSWER_BYTES) {
      await response.body.cancel().catch(() => {});
      throw new AnswerTooLarge();
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/**
 * One connection pool per rule of reach, whose every socket connects only to the addresses its lookup
 * checked (lib/public-address.ts). Loaded on the first carrier call, as the carriers are not needed to
 * start.
 */
const dispatchers = new Map<boolean, Promise<import('undici').Dispatcher>>();
function dispatcherFor(allowPrivate: boolean) {
  let dispatcher = dispatchers.get(allowPrivate);
  if (!dispatcher) {
    dispatcher = import('undici').then(
      ({ Agent }) => new Agent({ connect: { lookup: checkedLookup(allowPrivate) } }),
    );
    dispatchers.set(allowPrivate, dispatcher);
  }
  return dispatcher;
}

function networkFailure(
  error: unknown,
  timeoutMs: number,
  fail: (failure: CarrierCallError['failure'], detail: string, retryable: boolean) => CarrierCallError,
): CarrierCallError {
  if (error instanceof AnswerTooLarge) return fail('malformed', error.message, false);
  if (error instanceof AddressRefused || (error instanceof Error && error.cause instanceof AddressRefused))
    return fail('refused', 'the address is private or local, which this server does not allow', false);
  if (error instanceof DOMException && error.name === 'TimeoutError') {
    return fail('timeout', `no answer within ${timeoutMs} ms`, true);
  }
  // fetch reports a refused connection, an unknown host or a reset as a TypeError whose cause says which.
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  const code = typeof cause === 'object' && cause !== null && 'code' in cause ? String(cause.code) : '';
  const message = cause instanceof Error ? cause.message : String(cause);
  return fail('unreachable', code && !message.includes(code) ? `${code}: ${message}` : message, true);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function shapeIssues(error: z.ZodError): string {
  const shown = error.issues
    .slice(0, SHAPE_ISSUES_SHOWN)
    .map((issue) => `${issue.path.join('.') || '(answer)'}: ${issue.message}`);
  const more = error.issues.length - shown.length;
  return more > 0 ? `${shown.join('; ')} (and ${more} more)` : shown.join('; ');
}

/** The credentials' values and the authorization sent, whole and without its scheme word. */
function secretsOf(connection: CarrierConnection, headers: Record<string, string>): string[] {
  const secrets = Object.values(connection.credentials);
  for (const [name, value] of Object.entries(headers)) {
    if (name.toLowerCase() !== 'authorization') continue;
    secrets.push(value, value.slice(value.indexOf(' ') + 1));
  }
  // Longest first, so a secret that holds another is blanked whole. A value of a few characters is no
  // secret worth hiding, and blanking it everywhere would leave the detail unreadable.
  return secrets.filter((secret) => secret.length >= MIN_SECRET_LENGTH).sort((a, b) => b.length - a.length);
}

function redact(detail: string, secrets: string[]): string {
  return secrets.reduce((text, secret) => text.replaceAll(secret, '***'), detail);
}
