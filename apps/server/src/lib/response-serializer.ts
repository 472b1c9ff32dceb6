import { isDeepStrictEqual } from 'node:util';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { timestamp } from '@freight/contracts/responses';
import fastJson from 'fast-json-stringify';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import { safeEncode, z } from 'zod';

/**
 * How a route's answer is held to its response schema (ARCHITECTURE section 3).
 * - `strict` (tests, development): an answer that does not match, or carries a field the schema does
 *   not name, fails the call with a 500, so the test suite proves every contract.
 * - `log` (production): the mismatch is logged and the answer goes out as the handler made it; a
 *   user's paid action never fails on the shape of its reply. Undeclared fields are dropped all the
 *   same (and looked for, to be logged, in a sample of the answers).
 *
 * Production writes each answer with a writer compiled from the schema (`compileFastWriter`), and has zod
 * check only the sample: zod's encode of a page of orders took a fifth of the call. Tests run both on
 * every answer and fail when their texts differ, so the writer is held to zod's encoding route by route.
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

/** JSON Schema's `anyOf: [X, null]` as `type: [X, 'null']`, which the writer takes without trying each. */
function nullableAsTypes(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(nullableAsTypes);
  if (!isPlainObject(node)) return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) out[key] = nullableAsTypes(value);
  const anyOf = out.anyOf;
  if (Array.isArray(anyOf) && anyOf.length === 2) {
    const nullAt = anyOf.findIndex(
      (b) => isPlainObject(b) && b.type === 'null' && Object.keys(b).length === 1,
    );
    const other = anyOf[1 - nullAt] as Record<string, unknown> | undefined;
    if (nullAt >= 0 && other && ['string', 'integer', 'number', 'boolean'].includes(other.type as string)) {
      const { anyOf: _a, ...rest } = out;
      // An enum lists null too, or a null would not match it where the writer picks a branch by it.
      const values = Array.isArray(other.enum) ? { enum: [...other.enum, null] } : {};
      return { ...rest, ...other, ...values, type: [other.type, 'null'] };
    }
  }
  return out;
}

/**
 * A writer compiled from the schema's input side (what handlers return): declared fields only, in the
 * schema's order, dates as ISO strings, as zod's encode then JSON would write them. Null where the
 * schema has a part the writer cannot take; that route keeps zod's encode.
 */
export function compileFastWriter(schema: z.ZodType): ((data: unknown) => string) | null {
  try {
    const json = z.toJSONSchema(schema, {
      io: 'input',
      unrepresentable: 'any',
      override: (ctx) => {
        if ((ctx.zodSchema as unknown) !== timestamp) return;
        const target = ctx.jsonSchema as Record<string, unknown>;
        for (const key of Object.keys(target)) delete target[key];
        Object.assign(target, { type: 'string', format: 'date-time' });
      },
    });
    return fastJson(nullableAsTypes(json) as Parameters<typeof fastJson>[0]);
  } catch {
    return null;
  }
}

/** The serializer compiler: zod encodes the answer against its schema, then JSON. */
export function responseSerializerCompiler(mode: ResponseCheck, log: FastifyBaseLogger) {
  return ({ schema, method, url }: { schema: unknown; method: string; url: string }) => {
    const zodSchema = schema as z.ZodType;
    // Compiled at the route's first answer, not at start-up: compiling every route's writer there
    // took longer than the rest of building the app.
    let compiled: ReturnType<typeof compileFastWriter> | undefined;
    const fastWriter = () => {
      if (compiled === undefined) compiled = compileFastWriter(zodSchema);
      return compiled;
    };
    // Encoding drops undeclared fields either way; looking for them only says so. Tests look at every
    // answer; production at the first ones of each route and one in a hundred after, as a large list
    // would spend a tenth of its call on the walk.
    let answers = 0;
    const lookForExtras = () => mode === 'strict' || answers++ < 100 || answers % 100 === 0;
    const encode = (target: z.ZodType, data: unknown): string => {
      const whole = target === zodSchema;
      const examined = !whole || lookForExtras();
      // Production's usual answer: the compiled writer alone, zod's check left to the sample.
      const writer = whole ? fastWriter() : null;
      if (writer && !examined) {
        try {
          return writer(data);
        } catch {
          // An answer the writer cannot take (a required field missing, say): zod says why below.
        }
      }
      const result = safeEncode(target, data);
      const extra = result.success && examined ? undeclaredFields(data, result.data) : [];
      const problem = result.success
        ? extra.length
          ? `fields not in the schema: ${extra.join(', ')}`
          : null
        : describeIssues(result.error);
      if (problem === null) {
        const text = JSON.stringify(result.data);
        if (mode === 'strict' && writer) {
          const fast = writer(data);
          // Key order may differ (a schema built by `extend`); JSON's meaning may not.
          if (fast !== text && !isDeepStrictEqual(JSON.parse(fast), JSON.parse(text))) {
            const message = `${method} ${url}: the compiled writer's text differs from zod's:\n${fast}\n${text}`;
            console.error(message);
            throw new ResponseContractError(message);
          }
        }
        return text;
      }
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
  /** `quick` for data rebuilt often (a page of orders), where the compression's cost recurs. */
  effort: 'best' | 'quick' = 'best',
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
    const best = effort === 'best';
    body =
      encoding === 'br'
        ? brotliCompressSync(text, { params: { [constants.BROTLI_PARAM_QUALITY]: best ? 9 : 4 } })
        : gzipSync(text, { level: best ? 9 : 6 });
    byKey.set(key, body);
  }
  return reply.header('content-encoding', encoding).type('application/json; charset=utf-8').send(body);
}
