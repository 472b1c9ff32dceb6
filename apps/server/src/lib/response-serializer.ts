import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import { safeEncode, z } from 'zod';

/**
 * How a route's answer is held to its response schema (ARCHITECTURE section 3).
 * - `strict` (tests, development): an answer that does not match, or carries a field the schema does
 *   not name, fails the call with a 500, so the test suite proves every contract.
 * - `log` (production): the mismatch is logged and the answer goes out as the handler made it; a
 *   user's paid action never fails on the shape of its reply. Undeclared fields are dropped all the
 *   same (and looked for, to be logged, in a sample of the answers).
 */
export type ResponseCheck = 'strict' | 'log';

export class ResponseContractError extends Error {}

const isPlainObject = (value: unknown): value is Record<string, unknown> => {
  if (value === null || typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
};

/** Paths of fields the handler returned that the schema does not declare (and so would drop). */
export function undeclaredFields(raw: unknown, encoded: unknown, path = '', found: string[] = []): string[] {
  if (found.length >= 10) return found;
  if (Array.isArray(raw) && Array.isArray(encoded)) {
    raw.forEach((item, i) => {
      undeclaredFields(item, encoded[i], `${path}[${i}]`, found);
    });
  } else if (isPlainObject(raw) && isPlainObject(encoded)) {
    for (const [key, value] of Object.entries(raw)) {
      const at = path ? `${path}.${key}` : key;
      if (!(key in encoded)) {
        if (value !== undefined) found.push(at);
      } else undeclaredFields(value, encoded[key], at, found);
    }
  }
  return found;
}

function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 10)
    .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
    .join('; ');
}

const builtOnce = new WeakSet<object>();

function deepFreeze(value: unknown): void {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const inner of Object.values(value)) deepFreeze(inner);
}

/**
 * Marks an answer's data that is built once and shared by many calls (a menu tree per grant set): each
 * route checks and encodes it the first time and sends the same text after. It is frozen, so nobody
 * can change it under the text kept for it.
 */
export function answerOnce<T extends object>(value: T): T {
  deepFreeze(value);
  builtOnce.add(value);
  return value;
}

/** The serializer compiler: zod encodes the answer against its schema, then JSON. */
export function responseSerializerCompiler(mode: ResponseCheck, log: FastifyBaseLogger) {
  return ({ schema, method, url }: { schema: unknown; method: string; url: string }) => {
    const zodSchema = schema as z.ZodType;
    // Encoding drops undeclared fields either way; looking for them only says so. Tests look at every
    // answer; production at the first ones of each route and one in a hundred after, as a large list
    // would spend a tenth of its call on the walk.
    let answers = 0;
    const lookForExtras = () => mode === 'strict' || answers++ < 100 || answers % 100 === 0;
    const encode = (target: z.ZodType, data: unknown): string => {
      const result = safeEncode(target, data);
      const problem = result.success
        ? (() => {
            if (!lookForExtras()) return null;
            const extra = undeclaredFields(data, result.data);
            return extra.length ? `fields not in the schema: ${extra.join(', ')}` : null;
          })()
        : describeIssues(result.error);
      if (problem === null) return JSON.stringify(result.data);
      const message = `${method} ${url} answered outside its response schema: ${problem}`;
      if (mode === 'strict') {
        // Tests run without a logger; say it where the failing test shows it.
        if (process.env.NODE_ENV !== 'production') console.error(message);
        throw new ResponseContractError(message);
      }
      log.warn({ route: `${method} ${url}` }, message);
      // Extra fields go out dropped, as every unexamined answer has them; an answer the schema cannot
      // encode goes out as the handler made it.
      return JSON.stringify(result.success ? result.data : data);
    };
    // The envelope's data part, for data built once (`answerOnce`): its text is kept per route.
    const dataSchema = (zodSchema as unknown as { shape?: { data?: z.ZodType } }).shape?.data;
    const encodedOnce = new WeakMap<object, string>();
    return (data: unknown): string => {
      if (dataSchema && isEnvelope(data) && builtOnce.has(data.data)) {
        let text = encodedOnce.get(data.data);
        if (text === undefined) {
          text = encode(dataSchema, data.data);
          encodedOnce.set(data.data, text);
        }
        const head = encode(envelopeHead, { code: data.code, msg: data.msg });
        return `${head.slice(0, -1)},"data":${text}}`;
      }
      return encode(zodSchema, data);
    };
  };
}

const envelopeHead = z.object({ code: z.number().int(), msg: z.string() });

function isEnvelope(value: unknown): value is { code: number; msg: string; data: object } {
  if (!isPlainObject(value)) return false;
  const keys = Object.keys(value);
  return (
    keys.length === 3 &&
    'code' in value &&
    'msg' in value &&
    typeof value.data === 'object' &&
    value.data !== null
  );
}

/** The compressed answers of data built once, per data, message and encoding. */
const compressedOnce = new WeakMap<object, Map<string, Buffer>>();

function acceptedEncoding(request: FastifyRequest): 'br' | 'gzip' | null {
  const accepted = String(request.headers['accept-encoding'] ?? '');
  if (/\bbr\b/.test(accepted)) return 'br';
  if (/\bgzip\b/.test(accepted)) return 'gzip';
  return null;
}

/**
 * Answers data built once (`answerOnce`, shared by many calls: a menu tree per grant set) in the
 * envelope, compressed once per message and encoding when the client takes brotli or gzip, as
 * browsers do: a large answer every page asks for then costs a cache read and a few kilobytes on the
 * wire. Answers the data itself (the usual path) to a client that takes neither.
 */
export function sendBuiltOnce<T extends object>(
  request: FastifyRequest,
  reply: FastifyReply,
  schema: z.ZodType,
  data: T,
  msg: string,
): T | FastifyReply {
  const encoding = acceptedEncoding(request);
  reply.header('vary', 'accept-encoding');
  if (!encoding || !builtOnce.has(data)) return data;
  let byKey = compressedOnce.get(data);
  if (!byKey) {
    byKey = new Map();
    compressedOnce.set(data, byKey);
  }
  const key = `${encoding}|${msg}`;
  let body = byKey.get(key);
  if (!body) {
    const encoded = safeEncode(schema, data);
    // Built by code from the release's own tables: an answer off its schema is a bug the tests catch.
    if (!encoded.success) throw new ResponseContractError(describeIssues(encoded.error));
    const text = JSON.stringify({ code: 200, msg, data: encoded.data });
    body =
      encoding === 'br'
        ? brotliCompressSync(text, { params: { [constants.BROTLI_PARAM_QUALITY]: 9 } })
        : gzipSync(text, { level: 9 });
    byKey.set(key, body);
  }
  return reply.header('content-encoding', encoding).type('application/json; charset=utf-8').send(body);
}
