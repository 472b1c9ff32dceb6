import { exportResponse } from '@freight/contracts/downloads';
import { okResponse } from '@freight/contracts/responses';
import {
  WORK_ORDER_PAGES,
  workOrderActionBody,
  workOrderInfoView,
  workOrderListQuery,
  workOrderListView,
  workOrderMessageBody,
  workOrderMessageView,
  workOrderSaveBody,
  workOrderSnQuery,
  workOrderView,
} from '@freight/contracts/work-orders';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentUser } from '../../plugins/context.ts';
import { answerExport } from '../downloads/runner.ts';
import { workOrderExport } from './export.ts';
import {
  actOnWorkOrderFor,
  listWorkOrdersFor,
  openWorkOrderFor,
  postWorkOrderMessageFor,
  workOrderInfoFor,
} from './service.ts';

const PAGES = [...WORK_ORDER_PAGES.truck, ...WORK_ORDER_PAGES.express];

/**
 * Work orders: claims on an order, resolved by staff. Truck `/workOrderList`, `/work-order-copy`;
 * express `/expressWorkOrderList`, `/expressWorkorderoperate`. The guard lets in any of these pages;
 * the service then holds the caller to the line of the list it asks for or of the work order.
 */
const routes: FastifyPluginAsyncZod = async (app) => {
  const db = app.db;
  const page = { permission: PAGES } as const;

  app.post(
    '/admin/workOrder/list',
    {
      config: page,
      schema: {
        tags: ['work-orders'],
        body: workOrderListQuery,
        response: { 200: okResponse(workOrderListView) },
      },
    },
    async (request) => {
      return listWorkOrdersFor(db, currentUser(request), request.body);
    },
  );

  /** Few rows at once; more written by a job in the download centre (export.ts). */
  app.post(
    '/admin/workOrder/export',
    {
      config: { ...page, raw: true },
      schema: { tags: ['work-orders'], body: workOrderListQuery, response: { 200: exportResponse } },
    },
    (request, reply) => answerExport(app, request, reply, workOrderExport, request.body),
  );

  app.post(
    '/admin/workOrder/save',
    {
      config: { ...page, audit: 'work-order.save' },
      schema: {
        tags: ['work-orders'],
        body: workOrderSaveBody,
        response: { 200: okResponse(workOrderView) },
      },
    },
    async (request, reply) => {
      const view = await openWorkOrderFor(db, currentUser(request), request.body);
      request.auditTarget = `work-order:${view.workOrderNo}`;
      reply.messageKey = 'workOrder.opened';
      reply.messageParams = { workOrderNo: view.workOrderNo };
      return view;
    },
  );

  app.get(
    '/admin/workOrder/info',
    {
      config: page,
      schema: {
        tags: ['work-orders'],
        querystring: workOrderSnQuery,
        response: { 200: okResponse(workOrderInfoView) },
      },
    },
    async (request) => {
      return workOrderInfoFor(db, currentUser(request), request.query.sn, request.language);
    },
  );

  app.post(
    '/admin/workOrder/message',
    {
      config: { ...page, audit: 'work-order.message' },
      schema: {
        tags: ['work-orders'],
        body: workOrderMessageBody,
        response: { 200: okResponse(workOrderMessageView) },
      },
    },
    async (request) => {
      const { workOrderNo, message } = await postWorkOrderMessageFor(db, currentUser(request), request.body);
      request.auditTarget = `work-order:${workOrderNo}`;
      return message;
    },
  );

  app.post(
    '/admin/workOrder/action',
    {
      config: { ...page, audit: 'work-order.action' },
      schema: {
        tags: ['work-orders'],
        body: workOrderActionBody,
        response: { 200: okResponse(workOrderView) },
      },
    },
    async (request, reply) => {
      const view = await actOnWorkOrderFor(db, currentUser(request), request.body);
      request.auditTarget = `work-order:${view.workOrderNo}`;
      reply.messageKey = 'workOrder.done';
      return view;
    },
  );
};

export default routes;
