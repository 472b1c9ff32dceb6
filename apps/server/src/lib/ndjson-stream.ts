import type { FastifyReply } from 'fastify';

/** The longest a run of lines that never waits may hold the event loop (and its lines) before they go. */
const SLICE_MS = 10;

/**
 * An `application/x-ndjson` answer written a line at a time (ARCHITECTURE section 7: results stream
 * in). Lines ready together leave in one write: a line is queued, and the queue goes out as soon as
 * the work producing the lines next waits (on a carrier, on the database), or when it ends. A quote
 * priced from memory is then one write, where a write a line cost a system call and a chunk each,
 * while a slow provider's results still show one by one as they come.
 */
export function ndjsonStream(reply: FastifyReply) {
  let started = false;
  let ended = false;
  let queued: string[] = [];
  let flushQueued = false;
  let sliceStart = performance.now();

  const start = (length?: number) => {
    started = true;
    reply.hijack();
    reply.raw.writeHead(200, {
      'content-type': 'application/x-ndjson; charset=utf-8',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      ...(length === undefined ? {} : { 'content-length': length }),
    });
  };
  const flush = () => {
    flushQueued = false;
    if (ended || queued.length === 0) return;
    reply.raw.write(queued.join(''));
    queued = [];
  };

  return {
    /** Whether the 200 and a line have gone: an error can then only be told as a closing line. */
    get started() {
      return started;
    },
    /** Queues one line, serialized; it leaves with the next write, at the latest once the event loop turns. */
    async lineText(text: string): Promise<void> {
      if (!started) start();
      queued.push(`${text}\n`);
      if (!flushQueued) {
        flushQueued = true;
        setImmediate(flush);
      }
      if (performance.now() - sliceStart > SLICE_MS) {
        await new Promise((resolve) => setImmediate(resolve));
        sliceStart = performance.now();
      }
    },
    /** Writes the closing line with whatever is queued, and ends the answer. */
    end(value: unknown): void {
      this.endText(JSON.stringify(value));
    },
    /**
     * The whole answer at once, these bytes (whole lines), when nothing has gone yet: its length is
     * known, and the parts leave in one write without being copied together.
     */
    whole(parts: readonly Buffer[]): void {
      if (started) throw new Error('the answer has started');
      start(parts.reduce((sum, part) => sum + part.length, 0));
      ended = true;
      reply.raw.cork();
      for (const part of parts) reply.raw.write(part);
      reply.raw.end();
    },
    /** Writes the closing line, already serialized, with whatever is queued, and ends the answer. */
    endText(text: string): void {
      if (!started) start();
      queued.push(`${text}\n`);
      ended = true;
      reply.raw.end(queued.join(''));
      queued = [];
    },
  };
}

/**
 * Each result's JSON text, made once per object: a result reaches the closing line as the object it
 * streamed as (all but the cheapest and fastest), and a quote priced again with nothing changed
 * streams the very objects of the last time. Results are never changed once made.
 */
const resultTexts = new WeakMap<object, string>();
function resultText(result: object): string {
  let text = resultTexts.get(result);
  if (text === undefined) {
    text = JSON.stringify(result);
    resultTexts.set(result, text);
  }
  return text;
}

/** The closing line up to its list of results, which follows it, then `}`. */
const doneHead = (expiresAt: Date) => `{"type":"done","expiresAt":${JSON.stringify(expiresAt)},"results":`;
const CLOSE = Buffer.from('}\n');

/**
 * What an answer of results already made says whatever the call: the result lines, and the closing
 * line's list. Made once per array of results (held prices answer with the very array each time).
 */
const answerBytes = new WeakMap<readonly object[], { lines: Buffer; list: Buffer }>();
function bytesOf(results: readonly object[]) {
  let bytes = answerBytes.get(results);
  if (!bytes) {
    const texts = results.map(resultText);
    bytes = {
      lines: Buffer.from(texts.map((text) => `{"type":"result","result":${text}}\n`).join('')),
      list: Buffer.from(`[${texts.join(',')}]`),
    };
    answerBytes.set(results, bytes);
  }
  return bytes;
}

/** A quote's prices as they come: a `result` line each as it is ready, then a `done` line with the expiry and every result again. */
export function resultStream(reply: FastifyReply) {
  const stream = ndjsonStream(reply);
  return {
    get started() {
      return stream.started;
    },
    result(result: object): Promise<void> {
      return stream.lineText(`{"type":"result","result":${resultText(result)}}`);
    },
    done(expiresAt: Date, results: readonly object[]): void {
      stream.endText(`${doneHead(expiresAt)}[${results.map(resultText).join(',')}]}`);
    },
    /**
     * Results worked out before, all at once: their lines and the closing line, as `result` and `done`
     * would write them, from bytes made once for the array.
     */
    all(expiresAt: Date, results: readonly object[]): void {
      const { lines, list } = bytesOf(results);
      stream.whole([lines, Buffer.from(doneHead(expiresAt)), list, CLOSE]);
    },
    /** Ends with one line of its own (a failure told after the first line). */
    end(value: unknown): void {
      stream.end(value);
    },
  };
}
