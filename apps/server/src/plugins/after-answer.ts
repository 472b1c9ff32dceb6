import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/** Runs work the answer must not wait for (or be timed by); its failure is logged, never answered. */
export type Later = (label: string, task: () => Promise<unknown>) => void;

declare module 'fastify' {
  interface FastifyInstance {
    /** Starts `task` once the handler has returned; see `Later`. */
    afterAnswer: Later;
    /** Resolves when every task started so far has finished (tests; shutdown waits for them too). */
    afterAnswerSettled(): Promise<void>;
  }
}

/**
 * Work done after the answer: mail to an address, say, so that the answer and its timing are the same
 * whether or not the address has an account. Closing the app waits for what is under way.
 */
export const afterAnswerPlugin = fp(async (app: FastifyInstance) => {
  const pending = new Set<Promise<void>>();
  app.decorate('afterAnswer', (label: string, task: () => Promise<unknown>) => {
    const run: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
      .then(task)
      .then(
        () => undefined,
        (err: unknown) => app.log.error({ err }, `${label} failed`),
      )
      .finally(() => pending.delete(run));
    pending.add(run);
  });
  app.decorate('afterAnswerSettled', async () => {
    while (pending.size > 0) await Promise.all([...pending]);
  });
  app.addHook('onClose', async () => app.afterAnswerSettled());
});
