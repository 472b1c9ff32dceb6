import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createJobQueue, type JobQueue } from './queue.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The job queue (jobs/queue.ts): `send` a job, `work` a queue, `settled` to wait for one. */
    jobs: JobQueue;
  }
}

/**
 * The job queue on the app: registered before the modules so they can register their workers; the
 * workers start when the app is ready and stop (letting running jobs finish) when it closes.
 */
export const jobsPlugin = fp(async (app: FastifyInstance) => {
  const { queue, start, stop } = createJobQueue(app.database, {
    pollingIntervalSeconds: app.config.JOB_POLL_SECONDS,
    log: app.log,
  });
  app.decorate('jobs', queue);
  app.addHook('onReady', async () => {
    await start();
  });
  // Half the shutdown grace: what is still running then is failed (and retried elsewhere) before the
  // process's own grace timer ends it.
  app.addHook('onClose', async () => {
    await stop((app.config.SHUTDOWN_TIMEOUT_SECONDS * 1000) / 2);
  });
});
