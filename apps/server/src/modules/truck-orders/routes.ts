import { exportResponse } from '@freight/contracts/downloads';
import { translate } from '@freight/contracts/messages';
import { okResponse } from '@freight/contracts/responses';
import {
  type OrderAction,
  orderBulkPayBody,
  orderBulkReviewBody,
  orderBulkView,
  orderDetailView,
  orderEditAddressBody,
  orderFileBody,
  orderIdBody,
  orderIdView,
  orderListQuery,
  orderListView,
  orderPaidView,
  orderPaymentInfoView,
  orderSaveBody,
  orderSavedView,
  orderStatusView,
  orderTransitionBody,
} from '@freight/contracts/truck-orders';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { forbidden } from '../../lib/errors.ts';
import { sendBuiltOnce } from '../../lib/response-serializer.ts';
import { currentUser, type RequestUser } from '../../plugins/context.ts';
import { answerExport } from '../downloads/runner.ts';
import { registerRecordAccess } from '../uploads/service.ts';
import { runHandoffJob } from './carrier-handoff.ts';
import { truckOrderExport } from './export.ts';
import { HANDOFF_QUEUE, type HandoffJob, handoffQueue } from './handoff-queue.ts';
import { listOrdersFor, orderActionButton } from './list.ts';
import {
  attachUploadedFile,
  bookQuote,
  editVisibleAddresses,
  orderDetail,
  paymentInfo,
  payOrders,
  payVisibleOrder,
  reviewOrders,
  transitionVisibleOrder,
  visibleOrder,
} from './service.ts';

const ORDER_PAGES = ['/orderList', '/orderInfo', '/addAddress', '/order45Pay'];
const BOOK_PAGES = ['/mail', '/quoteList', '/quotationList'];

function checkButton(me: RequestUser, action: OrderAction) {
  const button = orderActionButton(action, me.identity === 'employee');
  if (button && !me.grants.has(button)) throw forbidden();
}

const routes: FastifyPluginAsyncZod = async (app) => {
  const db = app.db;
  // A batch's carrier orders are handed to their carriers after it commits (carrier-handoff.ts).
  handoffQueue.lend(app.jobs, app.config.CARRIER_LABEL_RETRY_SECONDS);
  app.addHook('onClose', async () => handoffQueue.giveBack(app.jobs));
  app.jobs.work<HandoffJob>(HANDOFF_QUEUE, (job) => runHandoffJob(db, job, app.log), { concurrency: 2 });

  // An order's file loads for whoever may open the order.
  registerRecordAccess('truck-order', async (db, user, id) => {
    if (!ORDER_PAGES.some((page) => user.grants.has(page))) return false;
    return visibleOrder(db, user, id).then(
      () => true,
      () => false,
    );
  });

  /** `order/save`: books a priced product of a quote (or an accepted manual quotation), then pays it. */
  app.post(
    '/admin/order/save',
    {
      config: { permission: BOOK_PAGES, apiKey: 'book', audit: 'order.book' },
      schema: { tags: ['orders'], body: orderSaveBody, response: { 200: okResponse(orderSavedView) } },
    },
    async (request, reply) => {
      const { order, status, payment } = await bookQuote(
        db,
        currentUser(request),
        request.body,
        request.language,
      );
      request.auditTarget = `order:${order.orderNo}`;
      reply.messageKey = status === 'unpaid' ? 'order.bookedUnpaid' : 'order.booked';
      return { id: order.id, orderNo: order.orderNo, status, payment };
    },
  );

  /** Order payment (`/addAddress`, `/order45Pay`): pays an unpaid order from the truck balance. */
  app.post(
    '/admin/order/pay',
    {
      config: { permission: ORDER_PAGES, apiKey: 'pay', audit: 'order.pay' },
      schema: { tags: ['orders'], body: orderIdBody, response: { 200: okResponse(orderPaidView) } },
    },
    async (request, reply) => {
      const { order, repeated, status } = await payVisibleOrder(db, currentUser(request), request.body.id);
      request.auditTarget = `order:${order.orderNo}`;
      reply.messageKey = repeated ? 'order.alreadyPaid' : 'order.paid';
      return { id: order.id, status, repeated };
    },
  );

  /** What the payment page shows: the order and the truck account that pays it. */
  app.post(
    '/admin/order/payInfo',
    {
      config: { permission: ORDER_PAGES, apiKey: 'pay' },
      schema: { tags: ['orders'], body: orderIdBody, response: { 200: okResponse(orderPaymentInfoView) } },
    },
    async (request) => {
      return paymentInfo(db, currentUser(request), request.body.id);
    },
  );

  /** `order/info`: the whole order, its timeline and the ledger rows that name it. */
  app.post(
    '/admin/order/info',
    {
      config: { permission: ORDER_PAGES, apiKey: 'track' },
      schema: { tags: ['orders'], body: orderIdBody, response: { 200: okResponse(orderDetailView) } },
    },
    async (request) => {
      return orderDetail(db, currentUser(request), request.body.id);
    },
  );

  app.post(
    '/admin/order/list',
    {
      config: { permission: ORDER_PAGES, apiKey: 'track' },
      schema: { tags: ['orders'], body: orderListQuery, response: { 200: okResponse(orderListView) } },
    },
    // The page as the list opens is kept between calls while its orders stay as they were
    // (listOrdersFor), and so is its compressed text.
    async (request, reply) =>
      sendBuiltOnce(
        request,
        reply,
        orderListView,
        await listOrdersFor(db, currentUser(request), request.body),
        translate(request.language, 'ok'),
        'quick',
      ),
  );

  /** Few rows: the file at once; more: a job writes it in the download centre (modules/downloads). */
  app.post(
    '/admin/order/export',
    {
      config: { permission: 'order:export', raw: true },
      schema: { tags: ['orders'], body: orderListQuery, response: { 200: exportResponse } },
    },
    (request, reply) => answerExport(app, request, reply, truckOrderExport, request.body),
  );

  app.post(
    '/admin/order/transition',
    {
      config: { permission: ORDER_PAGES, audit: 'order.transition' },
      schema: { tags: ['orders'], body: orderTransitionBody, response: { 200: okResponse(orderStatusView) } },
    },
    async (request) => {
      const me = currentUser(request);
      checkButton(me, request.body.action);
      const { order, status } = await transitionVisibleOrder(db, me, request.body);
      request.auditTarget = `order:${order.orderNo}`;
      return { id: order.id, status };
    },
  );

  /** Staff approve or reject many orders at once; each succeeds or fails on its own. */
  app.post(
    '/admin/order/bulkReview',
    {
      config: { permission: 'order:review', audit: 'order.bulkReview' },
      schema: { tags: ['orders'], body: orderBulkReviewBody, response: { 200: okResponse(orderBulkView) } },
    },
    async (request) => {
      const me = currentUser(request);
      const results = await reviewOrders(db, me, request.body, request.language);
      request.auditTarget = `orders:${request.body.ids.length}`;
      return { results };
    },
  );

  /** Pays many unpaid orders (a batch import's, say) one by one; each succeeds or fails on its own. */
  app.post(
    '/admin/order/bulkPay',
    {
      config: { permission: ORDER_PAGES, audit: 'order.bulkPay' },
      schema: { tags: ['orders'], body: orderBulkPayBody, response: { 200: okResponse(orderBulkView) } },
    },
    async (request) => {
      const results = await payOrders(db, currentUser(request), request.body.ids, request.language);
      request.auditTarget = `orders:${request.body.ids.length}`;
      return { results };
    },
  );

  /** `order/editAddress`: the addresses of an order not yet picked up. */
  app.post(
    '/admin/order/editAddress',
    {
      config: { permission: ORDER_PAGES, audit: 'order.editAddress' },
      schema: { tags: ['orders'], body: orderEditAddressBody, response: { 200: okResponse(orderIdView) } },
    },
    async (request) => {
      const order = await editVisibleAddresses(db, currentUser(request), request.body);
      request.auditTarget = `order:${order.orderNo}`;
      return { id: order.id };
    },
  );

  /** Attaches an uploaded document (the upload call returns its URL) to an order. */
  app.post(
    '/admin/order/file',
    {
      config: { permission: ORDER_PAGES, audit: 'order.file' },
      schema: { tags: ['orders'], body: orderFileBody, response: { 200: okResponse(orderIdView) } },
    },
    async (request) => {
      const order = await attachUploadedFile(db, currentUser(request), request.body.id, request.body.url);
      request.auditTarget = `order:${order.orderNo}`;
      return { id: order.id };
    },
  );
};

export default routes;
