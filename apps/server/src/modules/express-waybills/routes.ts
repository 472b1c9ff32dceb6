import { exportResponse } from '@freight/contracts/downloads';
import {
  trackingAddBody,
  trackingAddedView,
  trackingImportedView,
  trackingListQuery,
  trackingListView,
  trackNowView,
  waybillBulkView,
  waybillCreateBody,
  waybillCreatedView,
  waybillDetailView,
  waybillExportQuery,
  waybillIdBody,
  waybillIdsBody,
  waybillListQuery,
  waybillListView,
  waybillPaymentInfoView,
  waybillPrintBody,
  waybillRefundBody,
  waybillReturnBody,
  waybillStatusView,
  waybillTransitionBody,
} from '@freight/contracts/express-waybills';
import { formatMoney } from '@freight/contracts/money';
import { okResponse, rawResponse, xlsxResponse } from '@freight/contracts/responses';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { readUploadedFile } from '../../lib/multipart.ts';
import { sendFile } from '../../lib/xlsx.ts';
import { currentUser } from '../../plugins/context.ts';
import { carrierSettingsOf } from '../carriers/settings.ts';
import { answerExport } from '../downloads/runner.ts';
import { localUploadStore } from '../uploads/service.ts';
import { LABEL_QUEUE, type LabelJob, labelQueue } from './carrier-booking.ts';
import { runLabelJob } from './carrier-labels.ts';
import { trackVisibleWaybillNow } from './carrier-tracking.ts';
import { waybillExport } from './export.ts';
import { createReturnFor } from './returns.ts';
import {
  createWaybillFor,
  customsPapersFor,
  listWaybillsFor,
  payVisibleWaybill,
  payWaybillsFor,
  printWaybillsFor,
  refundVisibleWaybill,
  transitionVisibleWaybill,
  waybillDetailFor,
  waybillPaymentInfoFor,
} from './service.ts';
import { addTrackingEventFor, importTrackingFor, listTrackingFor, trackingTemplate } from './tracking.ts';

const MAX_SHEET_BYTES = 10 * 1024 * 1024;

/** Pages from which waybills are booked and paid, and those that list and move them. */
const BOOKING_PAGES = ['/onlineQuotation', '/queryQuotation', '/waybillValuation'];
const WAYBILL_PAGES = ['/expressOrderList', '/waybillValuation', '/waybillTracking', '/expressReturnsList'];

const routes: FastifyPluginAsyncZod = async (app) => {
  const db = app.db;
  const store = localUploadStore(app.config.DATA_DIR);
  const carrierSettings = carrierSettingsOf(app.config);

  // Paying a carrier's waybill sends its label job; the worker buys the label (carrier-labels.ts).
  labelQueue.lend(app.jobs, app.config.CARRIER_LABEL_RETRY_SECONDS);
  app.addHook('onClose', async () => labelQueue.giveBack(app.jobs));
  app.jobs.work<LabelJob>(LABEL_QUEUE, (job) => runLabelJob(db, store, job, app.log), { concurrency: 2 });

  /** `order/create`: a waybill from the channel selected on a quote; paid at once when asked. */
  app.post(
    '/express/order/create',
    {
      config: { permission: BOOKING_PAGES, apiKey: 'book', audit: 'express.waybill.create' },
      schema: {
        tags: ['express'],
        body: waybillCreateBody,
        response: { 200: okResponse(waybillCreatedView) },
      },
    },
    async (request) => {
      const { waybill, payment } = await createWaybillFor(
        db,
        currentUser(request),
        request.body,
        request.language,
      );
      request.auditTarget = `expressWaybill:${waybill.waybillNo}`;
      return {
        id: waybill.id,
        waybillNo: waybill.waybillNo,
        status: waybill.status,
        total: formatMoney(waybill.total),
        payment,
      };
    },
  );

  /** The payment page's call: pays an unpaid waybill from the express account, once. */
  app.post(
    '/express/order/pay',
    {
      config: { permission: WAYBILL_PAGES, apiKey: 'pay', audit: 'express.waybill.pay' },
      schema: { tags: ['express'], body: waybillIdBody, response: { 200: okResponse(waybillStatusView) } },
    },
    async (request) => {
      request.auditTarget = `expressWaybill:${request.body.id}`;
      return payVisibleWaybill(db, currentUser(request), request.body.id);
    },
  );

  app.post(
    '/express/order/bulkPay',
    {
      config: { permission: '/expressOrderList', audit: 'express.waybill.bulkPay' },
      schema: { tags: ['express'], body: waybillIdsBody, response: { 200: okResponse(waybillBulkView) } },
    },
    async (request) => ({
      results: await payWaybillsFor(db, currentUser(request), request.body.ids, request.language),
    }),
  );

  /** `order/refund`: voids an unshipped waybill and refunds its account once. */
  app.post(
    '/express/order/refund',
    {
      config: { permission: WAYBILL_PAGES, audit: 'express.waybill.refund' },
      schema: {
        tags: ['express'],
        body: waybillRefundBody,
        response: { 200: okResponse(waybillStatusView) },
      },
    },
    async (request) => {
      request.auditTarget = `expressWaybill:${request.body.id}`;
      return refundVisibleWaybill(db, currentUser(request), request.body.id, request.body.reason);
    },
  );

  app.post(
    '/express/order/transition',
    {
      config: { permission: WAYBILL_PAGES, audit: 'express.waybill.transition' },
      schema: {
        tags: ['express'],
        body: waybillTransitionBody,
        response: { 200: okResponse(waybillStatusView) },
      },
    },
    async (request) => {
      request.auditTarget = `expressWaybill:${request.body.id}`;
      return transitionVisibleWaybill(db, currentUser(request), request.body);
    },
  );

  /**
   * Labels, one by one or many at once: a PDF of 4 × 6 inch pages, or (`format: 'zpl'`) ZPL II for
   * thermal printers, one `^XA … ^XZ` label per waybill.
   */
  app.post(
    '/express/order/print',
    {
      config: { permission: WAYBILL_PAGES, raw: true, audit: 'express.waybill.print' },
      schema: {
        tags: ['express'],
        body: waybillPrintBody,
        response: {
          200: rawResponse(
            ['application/pdf', 'application/x-zpl'],
            "4 × 6 inch labels: a PDF page per waybill (a carrier's own label, a page per parcel), or ZPL II (203 dpi)",
          ),
        },
      },
    },
    async (request, reply) => {
      const { ids, format } = request.body;
      const { name, contentType, body } = await printWaybillsFor(
        db,
        currentUser(request),
        ids,
        format,
        store,
      );
      request.auditTarget = `expressWaybill:${ids.join(',')}`;
      return sendPrintable(reply, name, contentType, body);
    },
  );

  /** The customs papers of waybills crossing a border, as one PDF, for labels printed as ZPL. */
  app.post(
    '/express/order/customsPapers',
    {
      config: { permission: WAYBILL_PAGES, raw: true, audit: 'express.waybill.customsPapers' },
      schema: {
        tags: ['express'],
        body: waybillIdsBody,
        response: {
          200: rawResponse(
            ['application/pdf'],
            "4 × 6 inch pages: each waybill's commercial invoice, and the postal declaration (CN 22 or CN 23) on the portal's own label",
          ),
        },
      },
    },
    async (request, reply) => {
      const { ids } = request.body;
      const { name, contentType, body } = await customsPapersFor(db, currentUser(request), ids);
      request.auditTarget = `expressWaybill:${ids.join(',')}`;
      return sendPrintable(reply, name, contentType, body);
    },
  );

  /**
   * The carrier asked about a waybill now (at most once a minute each), its new scans recorded: for a
   * customer waiting on a parcel between two polls.
   */
  app.post(
    '/express/order/trackNow',
    {
      config: { permission: WAYBILL_PAGES, apiKey: 'track' },
      schema: { tags: ['express'], body: waybillIdBody, response: { 200: okResponse(trackNowView) } },
    },
    async (request) =>
      trackVisibleWaybillNow(db, carrierSettings, currentUser(request), request.body.id, request.language),
  );

  app.post(
    '/express/order/list',
    {
      config: { permission: WAYBILL_PAGES, apiKey: 'track' },
      schema: { tags: ['express'], body: waybillListQuery, response: { 200: okResponse(waybillListView) } },
    },
    async (request) => listWaybillsFor(db, currentUser(request), request.body),
  );

  app.post(
    '/express/order/info',
    {
      config: { permission: WAYBILL_PAGES, apiKey: 'track' },
      schema: { tags: ['express'], body: waybillIdBody, response: { 200: okResponse(waybillDetailView) } },
    },
    async (request) => waybillDetailFor(db, currentUser(request), request.body.id),
  );

  app.post(
    '/express/order/payInfo',
    {
      config: { permission: WAYBILL_PAGES, apiKey: 'pay' },
      schema: {
        tags: ['express'],
        body: waybillIdBody,
        response: { 200: okResponse(waybillPaymentInfoView) },
      },
    },
    async (request) => waybillPaymentInfoFor(db, currentUser(request), request.body.id),
  );

  /**
   * The list's filters as a spreadsheet in the caller's language (export.ts): few rows at once, more
   * written by a job in the download centre.
   */
  app.post(
    '/express/order/export',
    {
      config: { permission: ['express-order:export', 'express-return:export'], raw: true },
      schema: { tags: ['express'], body: waybillExportQuery, response: { 200: exportResponse } },
    },
    (request, reply) => answerExport(app, request, reply, waybillExport, request.body),
  );

  /** A return waybill: the parcel comes back from a waybill's recipient to a return address. */
  app.post(
    '/express/order/createReturn',
    {
      config: { permission: ['/expressReturnsList', '/expressOrderList'], audit: 'express.waybill.return' },
      schema: {
        tags: ['express'],
        body: waybillReturnBody,
        response: { 200: okResponse(waybillCreatedView) },
      },
    },
    async (request) => {
      const { waybill, payment } = await createReturnFor(
        db,
        currentUser(request),
        request.body,
        request.language,
      );
      request.auditTarget = `expressWaybill:${waybill.waybillNo}`;
      return {
        id: waybill.id,
        waybillNo: waybill.waybillNo,
        status: waybill.status,
        total: formatMoney(waybill.total),
        payment,
      };
    },
  );

  /* ---------- tracking (`/waybillTracking`) ---------- */

  app.post(
    '/express/tracking/list',
    {
      config: { permission: WAYBILL_PAGES, apiKey: 'track' },
      schema: { tags: ['express'], body: trackingListQuery, response: { 200: okResponse(trackingListView) } },
    },
    async (request) => listTrackingFor(db, currentUser(request), request.body),
  );

  /** Staff record a scan; the waybill follows it to the status it shows. */
  app.post(
    '/express/tracking/add',
    {
      config: { permission: '/waybillTracking', audit: 'express.tracking.add' },
      schema: { tags: ['express'], body: trackingAddBody, response: { 200: okResponse(trackingAddedView) } },
    },
    async (request) => {
      request.auditTarget = `expressWaybill:${request.body.id}`;
      return addTrackingEventFor(db, currentUser(request), request.body);
    },
  );

  app.get(
    '/express/tracking/template',
    {
      config: { permission: '/waybillTracking', raw: true },
      schema: { tags: ['express'], response: { 200: xlsxResponse } },
    },
    async (request, reply) =>
      sendFile(reply, 'tracking-template.xlsx', await trackingTemplate(request.language)),
  );

  /** A sheet of scans: every row recorded, or none when one is bad. */
  app.post(
    '/express/tracking/import',
    {
      config: { permission: '/waybillTracking', audit: 'express.tracking.import' },
      schema: { tags: ['express'], response: { 200: okResponse(trackingImportedView) } },
    },
    async (request, reply) => {
      const bytes = await readUploadedFile(request, MAX_SHEET_BYTES, 'import.tooLarge');
      const result = await importTrackingFor(db, currentUser(request), bytes, request.language);
      reply.messageKey = 'expressTracking.imported';
      reply.messageParams = { count: result.imported };
      return result;
    },
  );
};

export default routes;

/** A file to print, shown by the browser (inline) under its name, never kept by a cache. */
function sendPrintable(reply: FastifyReply, name: string, contentType: string, body: Buffer | string) {
  return reply
    .header('content-type', contentType)
    .header('content-disposition', `inline; filename*=UTF-8''${encodeURIComponent(name)}`)
    .header('cache-control', 'no-store')
    .send(body);
}
