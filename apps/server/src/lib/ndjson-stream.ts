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

  const start = () => {
    started = true;
    reply.hijack();
    reply.raw.writeHead(200, {
      'content-type': 'application/x-ndjson; charset=utf-8',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
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
    /** Queues one line; it leaves with the next write, at the latest once the event loop turns. */
    async line(value: unknown): Promise<void> {
      if (!started) start();
      queued.push(`${JSON.stringify(value)}\n`);
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
      if (!started) start();
      queued.push(`${JSON.stringify(value)}\n`);
      ended = true;
      reply.raw.end(queued.join(''));
      queued = [];
    },
  };
}
