import { translate } from '@freight/contracts/messages';
import { okResponse, xlsxResponse } from '@freight/contracts/responses';
import {
  WORK_ORDER_PAGES,
  type WorkOrderListQuery,
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
import { sendXlsx } from '../../lib/xlsx.ts';
import { currentUser } from '../../plugins/context.ts';
import {
  actOnWorkOrderFor,
  exportWorkOrdersFor,
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

  app.post(
    '/admin/workOrder/export',
    {
      config: { ...page, raw: true },
      schema: { tags: ['work-orders'], body: workOrderListQuery, response: { 200: xlsxResponse } },
    },
    async (request, reply) => {
      const query = request.body as WorkOrderListQuery;
      const rows = await exportWorkOrdersFor(db, currentUser(request), query);
      const language = request.language;
      const en = language === 'en-US';
      const express = query.line === 'express';
      return sendXlsx(
        reply,
        express ? (en ? 'express-work-orders.xlsx' : '快递工单.xlsx') : en ? 'work-orders.xlsx' : '工单.xlsx',
        [
          { header: en ? 'Work order' : '工单号', value: (r) => r.workOrderNo, width: 22 },
          {
            header: express ? (en ? 'Waybill number' : '运单号') : en ? 'Order number' : '订单号',
            value: (r) => r.orderNo,
            width: 22,
          },
          { header: en ? 'Customer' : '客户', value: (r) => r.organisationName, width: 26 },
          {
            header: en ? 'Transaction item' : '交易项目',
            value: (r) => translate(language, `workOrder.item.${r.transactionItem}`),
          },
          {
            header: en ? 'Category' : '工单类别',
            value: (r) => translate(language, `workOrder.category.${r.category}`),
          },
          { header: en ? 'Transaction amount' : '交易金额', value: (r) => r.amount },
          {
            header: en ? 'Status' : '状态',
            value: (r) => translate(language, `workOrder.status.${r.status}`),
          },
          {
            header: en ? 'Consumption type' : '消费类型',
            value: (r) => translate(language, `workOrder.consumption.${r.consumptionType}`),
          },
          { header: en ? 'Add/deduct/refund amount' : '加扣退金额', value: (r) => r.resultAmount },
          { header: en ? 'Remark' : '处理说明', value: (r) => r.remark, width: 30 },
          { header: en ? 'Operator' : '操作人', value: (r) => r.operator, width: 26 },
          { header: en ? 'Processing time' : '处理时间', value: (r) => r.processedAt ?? '' },
          { header: en ? 'Proof files' : '凭证文件', value: (r) => r.proofUrls.join('\n'), width: 30 },
          { header: en ? 'Created at' : '创建时间', value: (r) => r.createdAt },
        ],
        rows,
      );
    },
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
