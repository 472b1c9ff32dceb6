import type { Envelope } from '@freight/contracts/api';
import i18n from '../i18n/index.ts';
import { clearSession, getToken } from './storage.ts';

/** SPEC section 8: 200 and 0 succeed, 300 is a dead session, 401 is not allowed. */
const SUCCESS = new Set([200, 0]);
const INVALID = 300;
const NO_PERMISSION = 401;
/** The client's own code for "no answer" (network down, timeout, a body that is not the envelope). */
export const NO_ANSWER = -1;
const TIMEOUT_MS = 60_000;

export interface FieldError {
  field: string;
  message: string;
}

/** A call the server refused (or never answered). `notified` means the client already told the user. */
export class ApiError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly fields: FieldError[] = [],
    readonly data: unknown = null,
    readonly notified = false,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

interface Hooks {
  navigate(path: string): void;
  error(text: string): void;
  loading(on: boolean): void;
  onApiError?(entry: { url: string; message: string; details: string }): void;
  /** An export too big to answer at once was queued for the download centre under this id. */
  exportQueued?(id: number): void;
}
let hooks: Hooks = {
  navigate: (path) => window.location.assign(path),
  error: (text) => console.error(text),
  loading: () => undefined,
};
/** The app shell plugs in navigation, toasts and the loading mask once it is mounted. */
export function setHttpHooks(next: Partial<Hooks>): void {
  hooks = { ...hooks, ...next };
}

const TIME_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

function headers(json: boolean): Record<string, string> {
  const h: Record<string, string> = {
    'Accept-Language': i18n.language === 'en-US' ? 'en-US' : 'zh-CN',
    // Exports write times on the clock the pages show them in (docs/decisions.md).
    'X-Time-Zone': TIME_ZONE,
  };
  if (json) h['Content-Type'] = 'application/json;charset=UTF-8';
  const token = getToken();
  if (token) h.accessToken = token;
  return h;
}

// Several masked calls may overlap; the mask goes when the last one ends.
let maskedCalls = 0;

function noAnswer(url: string, details: string): ApiError {
  const text = i18n.t('error.network');
  hooks.error(text);
  hooks.onApiError?.({ url, message: text, details });
  return new ApiError(NO_ANSWER, text, [], null, true);
}

async function send(url: string, init: RequestInit): Promise<Response> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), TIMEOUT_MS);
  // SPEC section 7: calls whose URL says doEdit show a loading mask.
  const masked = url.includes('doEdit');
  if (masked && maskedCalls++ === 0) hooks.loading(true);
  try {
    return await fetch(`/api${url}`, { ...init, signal: controller.signal });
  } catch (error) {
    throw noAnswer(url, controller.signal.aborted ? `timeout after ${TIMEOUT_MS} ms` : String(error));
  } finally {
    clearTimeout(timer);
    if (masked && --maskedCalls === 0) hooks.loading(false);
  }
}

async function unwrap<T>(url: string, response: Response): Promise<T> {
  let body: Envelope<T> | null = null;
  try {
    body = (await response.json()) as Envelope<T>;
  } catch {
    body = null;
  }
  if (!body || typeof body.code !== 'number') throw noAnswer(url, `HTTP ${response.status}, not an envelope`);
  if (SUCCESS.has(body.code)) return body.data;
  const fields = ((body.data as { fields?: FieldError[] } | null)?.fields ?? []) as FieldError[];
  hooks.onApiError?.({ url, message: body.msg, details: JSON.stringify(body.data ?? null) });
  if (body.code === INVALID) {
    hooks.error(body.msg || i18n.t('shell.backendError', { code: body.code }));
    clearSession();
    hooks.navigate('/login');
    throw new ApiError(body.code, body.msg, fields, body.data, true);
  }
  if (body.code === NO_PERMISSION) {
    hooks.navigate('/401');
    throw new ApiError(body.code, body.msg, fields, body.data, true);
  }
  throw new ApiError(body.code, body.msg, fields, body.data);
}

export async function post<T = unknown>(url: string, payload: unknown = {}): Promise<T> {
  const response = await send(url, {
    method: 'POST',
    headers: headers(true),
    body: JSON.stringify(payload ?? {}),
  });
  return unwrap<T>(url, response);
}

export async function get<T = unknown>(url: string): Promise<T> {
  const response = await send(url, { method: 'GET', headers: headers(false) });
  return unwrap<T>(url, response);
}

/**
 * Posts and reads an answer of JSON lines as they arrive (quotes stream one product at a time). An
 * envelope instead of a stream is a refusal and surfaces like any other call's.
 */
export async function postStream<T>(url: string, payload: unknown, onLine: (line: T) => void): Promise<void> {
  const response = await send(url, {
    method: 'POST',
    headers: headers(true),
    body: JSON.stringify(payload ?? {}),
  });
  const type = response.headers.get('content-type') ?? '';
  if (!type.includes('ndjson') || !response.body) {
    await unwrap(url, response);
    return;
  }
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (value) buffered += value;
    const lines = buffered.split('\n');
    buffered = lines.pop() ?? '';
    for (const line of lines) if (line.trim()) onLine(JSON.parse(line) as T);
    if (done) break;
  }
  if (buffered.trim()) onLine(JSON.parse(buffered) as T);
}

/**
 * Multipart upload of one file (the images endpoint answers with the stored URLs); `fields` go before
 * the file, as the batch import's `address_id` does.
 */
export async function upload<T = string[]>(
  url: string,
  file: File,
  field = 'file',
  fields: Record<string, string> = {},
): Promise<T> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append(field, file);
  const response = await send(url, { method: 'POST', headers: headers(false), body: form });
  return unwrap<T>(url, response);
}

/** The file name a Content-Disposition header gives, preferring the UTF-8 form (RFC 6266). */
export function fileNameFrom(disposition: string | null, fallback: string): string {
  if (!disposition) return fallback;
  const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(disposition)?.[1];
  if (extended) {
    try {
      return decodeURIComponent(extended.trim());
    } catch {
      // A malformed escape: fall through to the plain form.
    }
  }
  const plain = /filename\s*=\s*"?([^";]+)"?/.exec(disposition)?.[1];
  return plain?.trim() || fallback;
}

/**
 * Posts filters and saves the file the server answers with (exports). A JSON answer instead of a file
 * is an envelope: a refusal surfaces like any other call's, and `{ queued: true, id }` means the export
 * is too big to answer at once and is being written in the download centre (the shell says so and
 * refreshes the top bar's count). Answers whether it was queued.
 */
export async function download(
  url: string,
  payload: unknown,
  fallbackName: string,
): Promise<{ queued: boolean }> {
  const response = await send(url, {
    method: 'POST',
    headers: headers(true),
    body: JSON.stringify(payload ?? {}),
  });
  const type = response.headers.get('content-type') ?? '';
  if (type.includes('application/json') || !response.ok) {
    const data = await unwrap<{ queued?: boolean; id?: number } | null>(url, response);
    if (data?.queued && typeof data.id === 'number') {
      hooks.exportQueued?.(data.id);
      return { queued: true };
    }
    return { queued: false };
  }
  saveBlob(await response.blob(), fileNameFrom(response.headers.get('content-disposition'), fallbackName));
  return { queued: false };
}

/** Saves a file the server answers a GET with (templates, tariff exports). */
export async function downloadGet(url: string, fallbackName: string): Promise<void> {
  const response = await send(url, { method: 'GET', headers: headers(false) });
  const type = response.headers.get('content-type') ?? '';
  if (type.includes('application/json') || !response.ok) {
    await unwrap(url, response);
    return;
  }
  saveBlob(await response.blob(), fileNameFrom(response.headers.get('content-disposition'), fallbackName));
}

/**
 * An uploaded file (`/api/uploads/...`), fetched with the session: files are private to whoever may see
 * their record, so a plain `src` or `href` would not load them. A refusal surfaces like any call's.
 */
export async function getFile(url: string): Promise<{ blob: Blob; name: string }> {
  const path = url.startsWith('/api/') ? url.slice('/api'.length) : url;
  const response = await send(path, { method: 'GET', headers: headers(false) });
  const type = response.headers.get('content-type') ?? '';
  if (type.includes('application/json') || !response.ok) {
    await unwrap(path, response);
    throw new ApiError(response.status, i18n.t('upload.loadFailed'));
  }
  const fallback = path.split('/').pop() ?? 'file';
  return {
    blob: await response.blob(),
    name: fileNameFrom(response.headers.get('content-disposition'), fallback),
  };
}

export function saveBlob(blob: Blob, name: string) {
  const link = document.createElement('a');
  link.href = URL.createObjectURL(blob);
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
}

/** Marks form fields from a 400 answer; returns true when there were any. */
export function applyFieldErrors(error: unknown, setFields: (fields: never) => void): boolean {
  if (!(error instanceof ApiError) || error.fields.length === 0) return false;
  const fields = error.fields.map((f) => ({
    name: f.field.split('.').map((part) => (/^\d+$/.test(part) ? Number(part) : part)),
    errors: [f.message],
  }));
  setFields(fields as never);
  return true;
}
