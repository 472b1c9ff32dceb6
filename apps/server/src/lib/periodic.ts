import type { FastifyInstance } from 'fastify';

/**
 * Runs `pass` once when the server is ready and then every `everyMs`, never two at once in this
 * process; a pass that throws is logged and the next one runs as planned. Closing the server aborts
 * the running pass and waits for it, and the timer keeps no process alive.
 */
export function runPeriodically<T>(
  app: FastifyInstance,
  everyMs: number,
  what: string,
  pass: (signal: AbortSignal) => Promise<T>,
  report: (result: T) => void,
) {
  const stop = new AbortController();
  let current: Promise<unknown> | null = null;
  const tick = () => {
    current ??= pass(stop.signal)
      .then(report)
      .catch((error) => app.log.warn({ err: error }, `${what} failed`))
      .finally(() => {
        current = null;
      });
  };
  let timer: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    tick();
    timer = setInterval(tick, everyMs).unref();
  });
  app.addHook('onClose', async () => {
    clearInterval(timer);
    stop.abort();
    await current;
  });
}
