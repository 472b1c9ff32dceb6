import { ResultCode } from '@freight/contracts/api';
import { carrierWebhookAnswer } from '@freight/contracts/carriers';
import { idField } from '@freight/contracts/fields';
import { okResponse } from '@freight/contracts/responses';
import { BODY_FIELD } from '@freight/contracts/validation';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError, badField } from '../../lib/errors.ts';
import { runPeriodically } from '../../lib/periodic.ts';
import { carrierSettingsOf } from '../carriers/settings.ts';
import {
  KARRIO_SECRET_HEADER,
  KARRIO_SIGNATURE_HEADER,
  karrioWebhookSigned,
  karrioWebhookTracking,
} from '../carriers/tracking.ts';
import { openCarrierWaybill, recordCarrierTracking, runCarrierTracking } from './carrier-tracking.ts';

/** A tracker event is a few kilobytes; anything far larger is not Karrio's. */
const WEBHOOK_MAX_BYTES = 256 * 1024;

/**
 * Tracking from the carrier: the poll of every tenant's carrier accounts on a timer
 * (`CARRIER_TRACKING_MINUTES`, one process at a time), and Karrio's signed tracker webhooks.
 */
const routes: FastifyPluginAsyncZod = async (app) => {
  const db = app.db;
  const settings = carrierSettingsOf(app.config);

  const every = app.config.CARRIER_TRACKING_MINUTES * 60_000;
  // A run at start catches up on what moved while no server was polling.
  if (every > 0)
    runPeriodically(
      app,
      every,
      'carrier tracking run',
      (signal) => runCarrierTracking(app.database, settings, { signal, log: app.log }),
      (run) => {
        if (run === null) app.log.debug('carrier tracking skipped: another run is going on');
        else if (run.accounts > 0) app.log.info({ run }, 'carrier tracking');
      },
    );

  // The signature covers the exact bytes received: this route's JSON is kept raw and read after the check.
  await app.register(async (scope) => {
    const hook = scope.withTypeProvider<ZodTypeProvider>();
    hook.removeContentTypeParser('application/json');
    hook.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) =>
      done(null, body),
    );

    hook.post(
      '/carriers/karrio/webhook/:accountId',
      {
        config: { public: true },
        bodyLimit: WEBHOOK_MAX_BYTES,
        schema: {
          tags: ['carriers'],
          params: z.object({ accountId: z.coerce.number().pipe(idField()) }),
          response: { 200: okResponse(carrierWebhookAnswer) },
        },
      },
      async (request) => {
        const tenantId = request.tenant.id;
        const { accountId } = request.params;
        const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const first = (header: string | string[] | undefined) => (Array.isArray(header) ? header[0] : header);
        const proof = {
          signature: first(request.headers[KARRIO_SIGNATURE_HEADER]),
          eventId: first(request.headers[KARRIO_SECRET_HEADER]),
        };
        if (!(await karrioWebhookSigned(db, settings, tenantId, accountId, body, proof)))
          throw new AppError(ResultCode.SessionInvalid, 'carrier.webhookUnsigned');
        let payload: unknown;
        try {
          payload = JSON.parse(body.toString('utf8'));
        } catch {
          throw badField(BODY_FIELD, 'error.invalidJson');
        }
        const read = karrioWebhookTracking(payload);
        if ('malformed' in read)
          throw badField(BODY_FIELD, 'carrier.webhookMalformed', { detail: read.malformed });
        const { tracking } = read;
        // Another event than a tracker's, or a tracker of no parcel of ours still moving: heard, nothing to do.
        if (!tracking) return { recorded: 0 };
        const waybill = await openCarrierWaybill(db, tenantId, accountId, tracking.trackingNumber);
        if (!waybill) return { recorded: 0 };
        return { recorded: await recordCarrierTracking(db, waybill, tracking) };
      },
    );
  });
};

export default routes;
