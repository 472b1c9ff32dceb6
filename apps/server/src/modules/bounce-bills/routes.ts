import {
  BILL_PAGES,
  BILL_SAVE_KEY,
  type BounceBillListQuery,
  bounceBillCancelBody,
  bounceBillIdBody,
  bounceBillListQuery,
  bounceBillListView,
  bounceBillSaveBody,
  bounceBillView,
} from '@freight/contracts/bounce-bills';
import { translate } from '@freight/contracts/messages';
import { formatMoney, parseMoney } from '@freight/contracts/money';
import { okResponse, xlsxResponse } from '@freight/contracts/responses';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sendXlsx } from '../../lib/xlsx.ts';
import { currentUser, type RequestUser } from '../../plugins/context.ts';
import { organisationNames } from '../customers/service.ts';
import {
  type BillRow,
  billActions,
  cancelBill,
  LINE_WORDS,
  listBills,
  payBill,
  raiseBillOnOrder,
  visibleBill,
} from './service.ts';

/** A bill as the API shows it; `actions` are what the caller may do with it now. */
const present = (b: BillRow, viewer: RequestUser, organisationName = '') => ({
  id: b.id,
  billNo: b.billNo,
  line: b.line,
  orderId: b.orderId,
  orderNo: b.orderNo,
  organisationId: b.organisationId,
  organisationName,
  type: b.type,
  amount: formatMoney(b.amount),
  declared: b.declared,
  actual: b.actual,
  description: b.description,
  proofUrl: b.proofUrl,
  status: b.status,
  chargedAt: b.chargedAt,
  cancelReason: b.cancelReason,
  workOrderNo: b.workOrderNo,
  createdAt: b.createdAt,
  actions: billActions(b, viewer),
});

/**
 * Bounce bills: surcharges found once the carrier has the goods, charged to the balance of their line.
 * Truck `/bounceBill`; express `/abnormalBilling` (the customer's) and `/expressBounceBill` (staff's).
 * The guard lets in any of these pages; the service then holds the caller to the line it asks for.
 */
const routes: FastifyPluginAsyncZod = async (app) => {
  const db = app.db;
  const page = { permission: [...BILL_PAGES.truck, ...BILL_PAGES.express] } as const;
  const save = { permission: Object.values(BILL_SAVE_KEY) } as const;

  async function presentAll(user: RequestUser, rows: BillRow[]) {
    const names = await organisationNames(db, user.tenantId, [...new Set(rows.map((r) => r.organisationId))]);
    return rows.map((r) => present(r, user, names.get(r.organisationId)));
  }

  app.post(
    '/admin/bounceBill/list',
    {
      config: page,
      schema: {
        tags: ['bounce-bills'],
        body: bounceBillListQuery,
        response: { 200: okResponse(bounceBillListView) },
      },
    },
    async (request) => {
      const me = currentUser(request);
      const { page: p, limit, ...filter } = request.body;
      const { list, total } = await listBills(db, me, filter, { page: p, limit });
      return { list: await presentAll(me, list), total, page: p, limit };
    },
  );

  app.post(
    '/admin/bounceBill/export',
    {
      config: { ...page, raw: true },
      schema: { tags: ['bounce-bills'], body: bounceBillListQuery, response: { 200: xlsxResponse } },
    },
    async (request, reply) => {
      const me = currentUser(request);
      const { page: _p, limit: _l, ...filter } = request.body as BounceBillListQuery;
      const rows = await presentAll(me, (await listBills(db, me, filter)).list);
      const language = request.language;
      const en = language === 'en-US';
      const express = filter.line === 'express';
      return sendXlsx(
        reply,
        express
          ? en
            ? 'abnormal-billing.xlsx'
            : '异常计费.xlsx'
          : en
            ? 'bounce-bills.xlsx'
            : '异常账单.xlsx',
        [
          { header: en ? 'Bill number' : '账单号', value: (r) => r.billNo, width: 22 },
          {
            header: express ? (en ? 'Waybill number' : '运单号') : en ? 'Order number' : '订单号',
            value: (r) => r.orderNo,
            width: 22,
          },
          { header: en ? 'Customer' : '客户', value: (r) => r.organisationName, width: 26 },
          { header: en ? 'Type' : '类型', value: (r) => translate(language, `bounceBill.type.${r.type}`) },
          { header: en ? 'Amount' : '金额', value: (r) => r.amount },
          { header: en ? 'Declared' : '申报值', value: (r) => r.declared },
          { header: en ? 'Found' : '实际值', value: (r) => r.actual },
          { header: en ? 'Description' : '说明', value: (r) => r.description, width: 40 },
          {
            header: en ? 'Status' : '状态',
            value: (r) => translate(language, `bounceBill.status.${r.status}`),
          },
          { header: en ? 'Charged at' : '扣款时间', value: (r) => r.chargedAt ?? '' },
          { header: en ? 'Work order' : '工单', value: (r) => r.workOrderNo ?? '', width: 22 },
          { header: en ? 'Cancel reason' : '取消原因', value: (r) => r.cancelReason, width: 26 },
          { header: en ? 'Created at' : '创建时间', value: (r) => r.createdAt },
        ],
        rows,
      );
    },
  );

  app.post(
    '/admin/bounceBill/save',
    {
      config: { ...save, audit: 'bounce-bill.save' },
      schema: {
        tags: ['bounce-bills'],
        body: bounceBillSaveBody,
        response: { 200: okResponse(bounceBillView) },
      },
    },
    async (request, reply) => {
      const me = currentUser(request);
      const bill = await raiseBillOnOrder(db, me, {
        ...request.body,
        amount: parseMoney(request.body.amount),
      });
      request.auditTarget = `bounce-bill:${bill.billNo}`;
      reply.messageKey =
        bill.status === 'charged' ? LINE_WORDS[bill.line].charged : 'bounceBill.awaitingPayment';
      reply.messageParams = { billNo: bill.billNo, amount: formatMoney(bill.amount) };
      return (await presentAll(me, [bill]))[0];
    },
  );

  app.post(
    '/admin/bounceBill/pay',
    {
      config: { ...page, audit: 'bounce-bill.pay' },
      schema: {
        tags: ['bounce-bills'],
        body: bounceBillIdBody,
        response: { 200: okResponse(bounceBillView) },
      },
    },
    async (request, reply) => {
      const me = currentUser(request);
      const bill = await payBill(db, me, await visibleBill(db, me, request.body.id));
      request.auditTarget = `bounce-bill:${bill.billNo}`;
      reply.messageKey = 'bounceBill.paid';
      return (await presentAll(me, [bill]))[0];
    },
  );

  app.post(
    '/admin/bounceBill/cancel',
    {
      config: { ...save, audit: 'bounce-bill.cancel' },
      schema: {
        tags: ['bounce-bills'],
        body: bounceBillCancelBody,
        response: { 200: okResponse(bounceBillView) },
      },
    },
    async (request, reply) => {
      const me = currentUser(request);
      const bill = await visibleBill(db, me, request.body.id);
      const row = await cancelBill(db, me, bill, request.body.reason);
      request.auditTarget = `bounce-bill:${bill.billNo}`;
      reply.messageKey = 'bounceBill.cancelled';
      return (await presentAll(me, [row]))[0];
    },
  );
};

export default routes;
