import {
  BILL_PAGES,
  BILL_SAVE_KEY,
  bounceBillCancelBody,
  bounceBillIdBody,
  bounceBillListQuery,
  bounceBillListView,
  bounceBillSaveBody,
  bounceBillView,
} from '@freight/contracts/bounce-bills';
import { exportResponse } from '@freight/contracts/downloads';
import { formatMoney, parseMoney } from '@freight/contracts/money';
import { okResponse } from '@freight/contracts/responses';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentUser, type RequestUser } from '../../plugins/context.ts';
import { answerExport } from '../downloads/runner.ts';
import { bounceBillExport } from './export.ts';
import {
  type BillRow,
  cancelBill,
  LINE_WORDS,
  listBills,
  payBill,
  presentBills,
  raiseBillOnOrder,
  visibleBill,
} from './service.ts';

/**
 * Bounce bills: surcharges found once the carrier has the goods, charged to the balance of their line.
 * Truck `/bounceBill`; express `/abnormalBilling` (the customer's) and `/expressBounceBill` (staff's).
 * The guard lets in any of these pages; the service then holds the caller to the line it asks for.
 */
const routes: FastifyPluginAsyncZod = async (app) => {
  const db = app.db;
  const page = { permission: [...BILL_PAGES.truck, ...BILL_PAGES.express] } as const;
  const save = { permission: Object.values(BILL_SAVE_KEY) } as const;

  /** One bill as the API shows it to the caller. */
  const presentOne = async (user: RequestUser, bill: BillRow) =>
    (await presentBills(db, user, [bill]))[0] as Awaited<ReturnType<typeof presentBills>>[number];

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
      return { list: await presentBills(db, me, list), total, page: p, limit };
    },
  );

  app.post(
    '/admin/bounceBill/export',
    {
      config: { ...page, raw: true },
      schema: { tags: ['bounce-bills'], body: bounceBillListQuery, response: { 200: exportResponse } },
    },
    (request, reply) => answerExport(app, request, reply, bounceBillExport, request.body),
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
      return presentOne(me, bill);
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
      return presentOne(me, bill);
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
      return presentOne(me, row);
    },
  );
};

export default routes;
