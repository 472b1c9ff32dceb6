import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import addFormats from 'ajv-formats';
import { GifWriter } from 'omggif';
import { type Context, type Document, OpenAPIBackend, type Operation } from 'openapi-backend';
import { parse as parseYaml } from 'yaml';

/**
 * A carrier's API played from its own OpenAPI documents, in the process of the test that starts it (a
 * server test or a browser spec): every request is routed and checked against the documents (body,
 * parameters, media type, the credentials its security asks for), so a client that breaks the
 * carrier's contract fails its test. A request the documents refuse
 * is answered 400 (401 without credentials, 404 when no operation answers it) and recorded in
 * `violations`; a valid one gets the test's answer for its operation, else the document's own example.
 */

const fixture = (path: string) => fileURLToPath(new URL(`fixtures/carriers/${path}`, import.meta.url));

/** The carriers' documents the clients are tested against (fixtures/carriers/README.md). */
export const CARRIER_DOCUMENTS = {
  ups: [
    fixture('ups/OAuthClientCredentials.yaml'),
    fixture('ups/Rating.yaml'),
    fixture('ups/Shipping.yaml'),
    fixture('ups/Tracking.yaml'),
  ],
  karrio: [fixture('karrio/openapi.yml')],
};

export interface CarrierMockRequest {
  /** The operation the request was routed to; null when none of the documents has one. */
  operationId: string | null;
  method: string;
  path: string;
  /** The query string's parameters, as the documents' operations read them. */
  query: Record<string, unknown>;
  headers: Record<string, string>;
  /** JSON and form bodies parsed; anything else as text. */
  body: unknown;
}

export interface CarrierMockAnswer {
  status?: number;
  /** A string is sent as it is (for an answer that is not JSON); anything else as JSON. */
  body?: unknown;
  contentType?: string;
  /** Waits this long before answering, to outlast a client's timeout. */
  delayMs?: number;
}

export type CarrierMockResponder =
  | CarrierMockAnswer
  | ((request: CarrierMockRequest) => CarrierMockAnswer | Promise<CarrierMockAnswer>);

export interface CarrierMock {
  /** Where the documents' paths start, without a trailing slash: a connection's base URL. */
  url: string;
  requests: CarrierMockRequest[];
  violations: string[];
  /**
   * The answer to an operation's valid requests from now on. A JSON answer with a status the document
   * describes is checked against it too, so a test cannot feed the client what the carrier never sends.
   */
  respond(operationId: string, responder: CarrierMockResponder): void;
  /**
   * A file the carrier serves outside its documented API (Karrio's label downloads, whose URL a
   * shipment answers), at a path under the mock's URL; GETs of it are recorded with no operation.
   */
  serveFile(path: string, file: { body: Buffer | string; contentType: string }): void;
  /** Forgets the answers set, the files served, the requests and the violations. */
  reset(): void;
  close(): Promise<void>;
}

export interface CarrierMockOptions {
  /** The OpenAPI documents (YAML) the mock plays. */
  documents: string[];
  /** A path the whole API sits under, as on a self-hosted server (`/karrio`). */
  prefix?: string;
}

type PathItem = NonNullable<Document['paths']>[string];
type SecurityScheme = NonNullable<NonNullable<Document['components']>['securitySchemes']>[string];
interface ServerEntry {
  url: string;
  variables?: Record<string, { default: string }>;
}

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

export async function startCarrierMock(options: CarrierMockOptions): Promise<CarrierMock> {
  const requests: CarrierMockRequest[] = [];
  const violations: string[] = [];
  const responders = new Map<string, CarrierMockResponder>();
  const files = new Map<string, { body: Buffer | string; contentType: string }>();
  const apis = await Promise.all(
    options.documents.map((file) =>
      backendFor(loadDocument(file, options.prefix ?? ''), { requests, violations, responders }),
    ),
  );
  refuseSharedOperationIds(apis, options.documents);

  const server = createServer((req, res) => {
    serve(apis, req, res, { violations, requests, files }).catch((error: unknown) => {
      violations.push(`the mock failed on ${req.method} ${req.url}: ${String(error)}`);
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}${options.prefix ?? ''}`,
    requests,
    violations,
    respond(operationId, responder) {
      if (!apis.some((api) => api.getOperation(operationId))) {
        throw new Error(`no document has an operation ${operationId}`);
      }
      responders.set(operationId, responder);
    },
    serveFile(path, file) {
      files.set(`${options.prefix ?? ''}${path}`, file);
    },
    reset() {
      responders.clear();
      files.clear();
      requests.length = 0;
      violations.length = 0;
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  };
}

/**
 * A document whose paths are the full paths the service answers: its server's path (UPS Rating's
 * `https://onlinetools.ups.com/api`) goes in front of each, so requests route as the real service
 * routes them, and several documents served from one host can share the mock.
 */
function loadDocument(file: string, prefix: string): Document {
  const document = parseYaml(reindentQuotedLines(readFileSync(file, 'utf8'))) as Document;
  const paths: Record<string, PathItem> = {};
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    paths[`${prefix}${servedPath(document, item, file, path)}${path}`] = item;
  }
  document.paths = paths;
  dropRefSiblings(document);
  dropTypelessNullable(document);
  closeObjectSchemas(document);
  return document;
}

/**
 * UPS's Shipping document is not strict YAML: a few long descriptions in quotes go on over lines
 * indented with tabs, or no deeper than their key, and the parser refuses it. Those lines are indented
 * under their key in memory; the words are the same once the lines are folded. A valid document is left
 * as it is, since its continuation lines already sit deeper than their key with spaces.
 */
function reindentQuotedLines(text: string): string {
  const lines = text.split(/\r?\n/);
  let open: { quote: string; indent: number } | null = null;
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index] ?? '';
    if (open) {
      const content = line.replace(/^[ \t]*/, '');
      const indent = line.length - content.length;
      if (content && (indent <= open.indent || line.slice(0, indent).includes('\t'))) {
        lines[index] = `${' '.repeat(open.indent + 2)}${content}`;
      }
      if (closesQuote(content, open.quote)) open = null;
      continue;
    }
    const start = /^( *)(?:- |(?:"[^"]*"|'[^']*'|[^\s"'#-][^:]*):[ ]+)(["'])(.*)$/.exec(line);
    if (start?.[1] !== undefined && start[2] && !closesQuote(start[3] ?? '', start[2])) {
      open = { quote: start[2], indent: start[1].length };
    }
  }
  return lines.join('\n');
}

/** Whether a quoted scalar's text (after its opening quote) holds its closing quote. */
function closesQuote(text: string, quote: string): boolean {
  // Inside single quotes '' is a quote; inside double quotes \" is one.
  const unescaped = quote === "'" ? text.replaceAll("''", '') : text.replace(/\\./g, '');
  return unescaped.includes(quote);
}

/** The server path an item's operations are served under; operation servers override the item's and the document's. */
function servedPath(document: Document, item: PathItem, file: string, path: string): string {
  const itemServers = (item?.servers ?? document.servers ?? []) as ServerEntry[];
  const found = new Set<string>();
  for (const method of HTTP_METHODS) {
    const operation = item?.[method];
    if (!operation) continue;
    const servers = (operation.servers ?? itemServers) as ServerEntry[];
    if (servers.length === 0) found.add('');
    for (const server of servers) found.add(serverPath(server));
  }
  if (found.size > 1) {
    throw new Error(`${file} ${path}: its servers sit under different paths (${[...found].join(', ')})`);
  }
  return [...found][0] ?? '';
}

function serverPath(server: ServerEntry): string {
  const url = server.url.replace(
    /\{([^}]+)\}/g,
    (_, name: string) => server.variables?.[name]?.default ?? '',
  );
  return new URL(url, 'http://localhost').pathname.replace(/\/+$/, '');
}

/**
 * OpenAPI 3.0 ignores what sits beside a `$ref`, and the check of the document itself refuses it: UPS
 * Shipping's WorldEase port of entry gives its `Address` reference a description.
 */
function dropRefSiblings(node: unknown): void {
  if (Array.isArray(node)) {
    for (const child of node) dropRefSiblings(child);
  } else if (node !== null && typeof node === 'object') {
    const object = node as Record<string, unknown>;
    if (typeof object.$ref === 'string') {
      for (const key of Object.keys(object)) if (key !== '$ref') delete object[key];
      return;
    }
    for (const child of Object.values(object)) dropRefSiblings(child);
  }
}

/**
 * OpenAPI 3.0.3 says `nullable` without a `type` beside it has no effect, and Ajv refuses to compile
 * such a schema: Karrio's document writes `{ allOf: [...], nullable: true }` for optional objects.
 */
function dropTypelessNullable(node: unknown): void {
  if (Array.isArray(node)) {
    for (const child of node) dropTypelessNullable(child);
  } else if (node !== null && typeof node === 'object') {
    const schema = node as Record<string, unknown>;
    if (schema.nullable === true && schema.type === undefined) delete schema.nullable;
    for (const child of Object.values(schema)) dropTypelessNullable(child);
  }
}

/**
 * The carriers' documents leave objects open to properties they do not name; the mock closes them,
 * so a misspelt or misplaced field (which the carrier would silently ignore) is a violation too. The
 * test's own answers are held to the same. Objects composed with allOf/anyOf/oneOf stay as written.
 */
function closeObjectSchemas(document: Document): void {
  const seen = new Set<object>();
  const close = (schema: unknown): void => {
    if (schema === null || typeof schema !== 'object' || seen.has(schema)) return;
    seen.add(schema);
    const node = schema as Record<string, unknown>;
    const composed = node.allOf !== undefined || node.anyOf !== undefined || node.oneOf !== undefined;
    if (node.properties !== undefined && node.additionalProperties === undefined && !composed) {
      node.additionalProperties = false;
      // A property the schema requires but does not describe (UPS Rating's `Request.RequestOption`) is named all the same.
      const properties = node.properties as Record<string, unknown>;
      for (const name of (node.required ?? []) as string[]) properties[name] ??= {};
    }
    for (const child of Object.values((node.properties ?? {}) as Record<string, unknown>)) close(child);
    for (const key of ['allOf', 'anyOf', 'oneOf'] as const) {
      for (const child of (node[key] ?? []) as unknown[]) close(child);
    }
    close(node.items);
    close(node.additionalProperties);
  };
  const withSchemas = (holder: unknown) => {
    const content = (holder as { content?: Record<string, { schema?: unknown }> } | undefined)?.content;
    for (const media of Object.values(content ?? {})) close(media.schema);
  };
  for (const schema of Object.values(document.components?.schemas ?? {})) close(schema);
  for (const item of Object.values(document.paths ?? {})) {
    for (const method of HTTP_METHODS) {
      const operation = item?.[method];
      if (!operation) continue;
      withSchemas(operation.requestBody);
      for (const response of Object.values(operation.responses ?? {})) withSchemas(response);
    }
  }
}

interface MockState {
  requests: CarrierMockRequest[];
  violations: string[];
  responders: Map<string, CarrierMockResponder>;
}

/** What a handler answers; `serve` writes it. */
interface Answer {
  status: number;
  body: unknown;
  contentType?: string;
  delayMs?: number;
}

async function backendFor(document: Document, state: MockState): Promise<OpenAPIBackend> {
  const api = new OpenAPIBackend({
    definition: document,
    // Validators compile on first use: eagerly, Karrio's 82 operations take seconds to start.
    quick: true,
    strict: true,
    // Every problem of a request at once, not only the first.
    ajvOpts: { allErrors: true },
    customizeAjv: (ajv) => addFormats(ajv),
    handlers: {
      postRoutingHandler: (c: Context) => {
        state.requests.push(recorded(c));
        const mediaTypeIssue = unexpectedMediaType(c);
        if (mediaTypeIssue) state.violations.push(mediaTypeIssue);
      },
      validationFail: (c: Context): Answer => {
        const issues = (c.validation.errors ?? []).map((error) => {
          const extra =
            error.keyword === 'additionalProperties' ? ` (${error.params.additionalProperty})` : '';
          return `${c.operation.operationId} ${error.instancePath || '/'} ${error.message ?? error.keyword}${extra}`;
        });
        state.violations.push(...issues);
        return { status: 400, body: { violations: issues } };
      },
      unauthorizedHandler: (c: Context): Answer => {
        const schemes = (c.operation.security ?? []).flatMap((requirement) => Object.keys(requirement));
        state.violations.push(
          `${c.operation.operationId}: no credentials of the kinds its security asks for (${schemes.join(', ')})`,
        );
        return { status: 401, body: {} };
      },
      notImplemented: (c: Context) => answerFor(c, state),
    },
  });
  await api.init();
  // Quick start skips the check of the document itself; it is still made, once.
  await api.loadDocument();
  api.validateDefinition();
  for (const [name, scheme] of Object.entries(document.components?.securitySchemes ?? {})) {
    api.registerSecurityHandler(name, (c: Context) => presentsCredentials(scheme, c));
  }
  return api;
}

function recorded(c: Context): CarrierMockRequest {
  return {
    operationId: c.operation?.operationId ?? null,
    method: c.request.method.toUpperCase(),
    path: c.request.path,
    query: { ...(c.request.query as Record<string, unknown>) },
    headers: flatHeaders(c.request.headers as Record<string, string | string[]>),
    body: c.request.requestBody,
  };
}

function flatHeaders(headers: Record<string, string | string[]>): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers))
    flat[name] = Array.isArray(value) ? value.join(', ') : value;
  return flat;
}

/** A body sent as a media type the operation does not take (Ajv checks the body, not its type). */
function unexpectedMediaType(c: Context): string | undefined {
  const requestBody = c.operation?.requestBody;
  if (c.request.requestBody === undefined || !requestBody || !('content' in requestBody)) return undefined;
  const sent = String((c.request.headers as Record<string, unknown>)['content-type'] ?? '')
    .split(';')[0]
    ?.trim()
    .toLowerCase();
  const taken = Object.keys(requestBody.content);
  if (sent && taken.includes(sent)) return undefined;
  return `${c.operation.operationId}: body sent as ${sent || 'no media type'}, the operation takes ${taken.join(', ')}`;
}

/** Whether the request carries credentials of the scheme's kind; their value is the test's to check. */
function presentsCredentials(scheme: SecurityScheme, c: Context): boolean {
  if ('$ref' in scheme) return false;
  const headers = c.request.headers as Record<string, string | undefined>;
  const authorization = headers.authorization ?? '';
  switch (scheme.type) {
    case 'http':
      if (scheme.scheme.toLowerCase() === 'basic') {
        const match = /^Basic ([A-Za-z0-9+/]+=*)$/.exec(authorization);
        return Boolean(match?.[1] && Buffer.from(match[1], 'base64').toString('utf8').includes(':'));
      }
      return new RegExp(`^${scheme.scheme} \\S+$`, 'i').test(authorization);
    case 'oauth2':
    case 'openIdConnect':
      return /^Bearer \S+$/.test(authorization);
    case 'apiKey': {
      const source: Record<string, unknown> | undefined =
        scheme.in === 'header' ? headers : scheme.in === 'query' ? c.request.query : c.request.cookies;
      const value = source?.[scheme.in === 'header' ? scheme.name.toLowerCase() : scheme.name];
      return typeof value === 'string' && value.trim().length > 0;
    }
    default:
      return false;
  }
}

async function answerFor(c: Context, state: MockState): Promise<Answer> {
  const operation: Operation = c.operation;
  const operationId = operation.operationId ?? '';
  const responder = state.responders.get(operationId);
  if (!responder) {
    const { status, mock } = c.api.mockResponseForOperation(operationId);
    return { status, body: mock };
  }
  const answer = typeof responder === 'function' ? await responder(recorded(c)) : responder;
  const status = answer.status ?? 200;
  if (typeof answer.body !== 'string') {
    const check = c.api.validateResponse(answer.body, operation, status);
    for (const error of check.errors ?? []) {
      state.violations.push(
        `the test's ${status} answer to ${operationId} breaks the document: ${error.instancePath || '/'} ${error.message}`,
      );
    }
  }
  return { status, body: answer.body, contentType: answer.contentType, delayMs: answer.delayMs };
}

function refuseSharedOperationIds(apis: OpenAPIBackend[], files: string[]): void {
  const seen = new Map<string, string>();
  apis.forEach((api, index) => {
    for (const operation of api.getOperations()) {
      const id = operation.operationId ?? '';
      const other = seen.get(id);
      if (other) throw new Error(`operation ${id} is in both ${other} and ${files[index]}`);
      seen.set(id, files[index] ?? '');
    }
  });
}

async function serve(
  apis: OpenAPIBackend[],
  req: IncomingMessage,
  res: ServerResponse,
  state: Pick<MockState, 'violations' | 'requests'> & {
    files: Map<string, { body: Buffer | string; contentType: string }>;
  },
) {
  const { violations } = state;
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(req.headers)) if (value !== undefined) headers[name] = value;
  const url = new URL(req.url ?? '/', 'http://localhost');
  const request = {
    method: req.method ?? 'GET',
    path: url.pathname,
    query: url.search.slice(1),
    headers,
    body: parsedBody(text, headers['content-type']),
  };

  const file = request.method === 'GET' ? state.files.get(url.pathname) : undefined;
  if (file) {
    state.requests.push({
      operationId: null,
      method: 'GET',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: flatHeaders(headers),
      body: undefined,
    });
    res.writeHead(200, { 'content-type': file.contentType }).end(file.body);
    return;
  }
  const api = apis.find((candidate) => candidate.matchOperation(request));
  if (!api) {
    violations.push(`no operation of the documents answers ${request.method} ${request.path}`);
    res.writeHead(404, { 'content-type': 'application/json' }).end('{}');
    return;
  }
  const answer = (await api.handleRequest(request)) as Answer;
  if (answer.delayMs) {
    // The client may give up first; its closing the connection ends the wait.
    const gone = new AbortController();
    res.once('close', () => gone.abort());
    await sleep(answer.delayMs, undefined, { signal: gone.signal }).catch(() => undefined);
    if (res.destroyed) return;
  }
  const raw = typeof answer.body === 'string';
  res.writeHead(answer.status, {
    'content-type': answer.contentType ?? (raw ? 'text/plain' : 'application/json'),
  });
  res.end(raw ? answer.body : JSON.stringify(answer.body ?? null));
}

/** Form bodies parsed into fields (openapi-backend parses JSON itself, and reports a broken one). */
function parsedBody(text: string, contentType: string | string[] | undefined): unknown {
  if (text === '') return undefined;
  const mediaType = String(contentType ?? '')
    .split(';')[0]
    ?.trim()
    .toLowerCase();
  if (mediaType === 'application/x-www-form-urlencoded') {
    return Object.fromEntries(new URLSearchParams(text));
  }
  return text;
}

/** A base URL on this machine where nothing listens: the port was free a moment ago and is closed again. */
export async function unreachableUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}`;
}

/** UPS's token answer as its OAuth document describes it (every field a string). */
export function upsTokenAnswer(
  clientId: string,
  accessToken: string,
  expiresInSeconds = '14399',
): CarrierMockAnswer {
  return {
    body: {
      token_type: 'Bearer',
      issued_at: '1767225600000',
      client_id: clientId,
      access_token: accessToken,
      scope: '',
      expires_in: expiresInSeconds,
      refresh_count: '0',
      status: 'approved',
    },
  };
}

const usd = (value: string) => ({ CurrencyCode: 'USD', MonetaryValue: value });

/** A real GIF, drawn lying down as UPS draws its 4 × 6 labels: wider than tall. */
export function upsLabelGif(): Buffer {
  const width = 120;
  const height = 80;
  const buffer = Buffer.alloc(1024 + width * height);
  const writer = new GifWriter(buffer, width, height, { palette: [0x000000, 0xffffff] });
  const pixels = Array.from({ length: width * height }, (_, i) => (i % width < width / 2 ? 0 : 1));
  writer.addFrame(0, 0, width, height, pixels);
  return buffer.subarray(0, writer.end());
}

/** A charge UPS itemizes on a rate, under its code and, for most, its own name. */
export interface UpsCharge {
  code: string;
  description?: string;
  value: string;
}

/** UPS's Shop answer pricing one service of a 4 lb parcel, its surcharges itemized as UPS names them. */
export function upsRateAnswer(service: string, total: string, itemized: UpsCharge[] = []): CarrierMockAnswer {
  return {
    body: {
      RateResponse: {
        Response: { ResponseStatus: { Code: '1', Description: 'Success' } },
        RatedShipment: [
          {
            Service: { Code: service },
            BillingWeight: { UnitOfMeasurement: { Code: 'LBS', Description: 'Pounds' }, Weight: '4.0' },
            TransportationCharges: usd(total),
            ...(itemized.length > 0
              ? {
                  ItemizedCharges: itemized.map((charge) => ({
                    Code: charge.code,
                    ...(charge.description ? { Description: charge.description } : {}),
                    ...usd(charge.value),
                  })),
                }
              : {}),
            ServiceOptionsCharges: usd('0.00'),
            TotalCharges: usd(total),
            RatedPackage: [{ Weight: '4.0' }],
          },
        ],
      },
    },
  };
}

/** UPS's Ship answer for one 4 lb package: its tracking number and its label, a GIF unless another is given. */
export function upsShipAnswer(
  tracking: string,
  total: string,
  label: { code: 'GIF' | 'ZPL'; image: Buffer } = { code: 'GIF', image: upsLabelGif() },
): CarrierMockAnswer {
  return {
    body: {
      ShipmentResponse: {
        Response: { ResponseStatus: { Code: '1', Description: 'Success' } },
        ShipmentResults: {
          ShipmentCharges: {
            TransportationCharges: usd(total),
            ServiceOptionsCharges: usd('0.00'),
            TotalCharges: usd(total),
          },
          BillingWeight: { UnitOfMeasurement: { Code: 'LBS', Description: 'Pounds' }, Weight: '000004.0' },
          ShipmentIdentificationNumber: tracking,
          PackageResults: [
            {
              TrackingNumber: tracking,
              ShippingLabel: {
                ImageFormat: { Code: label.code, Description: label.code },
                GraphicImage: label.image.toString('base64'),
              },
            },
          ],
        },
      },
    },
  };
}

/** One scan of a package, as UPS's Tracking document shapes it (a Texas time). */
export const upsActivity = (
  type: string,
  code: string,
  description: string,
  date: string,
  time: string,
  city = 'Dallas',
) => ({
  date,
  time,
  gmtOffset: '-06:00',
  location: { address: { city, stateProvince: 'TX', countryCode: 'US' } },
  status: { type, code, description },
});
export type UpsActivity = ReturnType<typeof upsActivity>;

/** UPS's answer for one package, its activity newest first as UPS lists it. */
export function upsTrackAnswer(trackingNumber: string, activities: UpsActivity[]): CarrierMockAnswer {
  const newest = activities[0]?.status;
  return {
    body: {
      trackResponse: {
        shipment: [
          {
            package: [
              {
                trackingNumber,
                ...(newest
                  ? {
                      currentStatus: {
                        type: newest.type,
                        code: newest.code,
                        description: newest.description,
                      },
                    }
                  : {}),
                activity: activities,
              },
            ],
          },
        ],
      },
    },
  };
}
