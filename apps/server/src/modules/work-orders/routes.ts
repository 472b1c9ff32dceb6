import { translate } from '@freight/contracts/messages';
import { formatMoney, parseMoney } from '@freight/contracts/money';
import { okResponse, xlsxResponse } from '@freight/contracts/responses';
import {
  WORK_ORDER_OPEN,
  type WorkOrderListQuery,
  workOrderActionBody,
  workOrderInfoView,
  workOrderListQuery,
  workOrderListView,
  workOrderMachine,
  workOrderMessageBody,
  workOrderMessageView,
  workOrderSaveBody,
  workOrderSnQuery,
  workOrderView,
} from '@freight/contracts/work-orders';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { forbidden, notFound } from '../../lib/errors.ts';
import { sendXlsx } from '../../lib/xlsx.ts';
import { currentUser, type RequestUser } from '../../plugins/context.ts';
import { usersByIds } from '../auth/service.ts';
import { billNumbers } from '../bounce-bills/service.ts';
import { organisationNames } from '../customers/service.ts';
import {
  actorOf,
  decideVisibleWorkOrder,
  listWorkOrders,
  openWorkOrderOn,
  postMessageTo,
  threadOf,
  visibleWorkOrder,
  type WorkOrderRow,
} from './service.ts';

const PAGES = ['/workOrderList', '/work-order-copy'] as const;
/** Staff steps need the resolve button; a customer only withdraws its own. */
const STAFF_ACTIONS = ['accept', 'resolve', 'reject'];

/** Work orders (`/workOrderList`, `/work-order-copy`): claims on an order, resolved by staff. */
const routes: FastifyPluginAsyncZod = async (app) => {
  const db = app.db;
  const page = { permission: PAGES } as const;

  /** Names the API shows: organisations, staff e-mails (to staff only), bill numbers. */
  async function present(viewer: RequestUser, rows: WorkOrderRow[]) {
    const staff = viewer.identity === 'employee';
    const canResolve = viewer.grants.has('work-order:resolve');
    const [names, operators, bills] = await Promise.all([
      organisationNames(db, viewer.tenantId, [...new Set(rows.map((r) => r.organisationId))]),
      usersByIds(db, viewer.tenantId, [
        ...new Set(rows.flatMap((r) => (r.operatorId ? [r.operatorId] : []))),
      ]),
      billNumbers(db, viewer.tenantId, [...new Set(rows.flatMap((r) => (r.billId ? [r.billId] : [])))]),
    ]);
    const emails = new Map(operators.map((u) => [u.id, u.email]));
    return rows.map((r) => ({
      id: r.id,
      workOrderNo: r.workOrderNo,
      orderId: r.orderId,
      orderNo: r.orderNo,
      organisationId: r.organisationId,
      organisationName: names.get(r.organisationId) ?? '',
      billId: r.billId,
      billNo: (r.billId && bills.get(r.billId)) || null,
      category: r.category,
      transactionItem: r.transactionItem,
      amount: formatMoney(r.amount),
      description: r.description,
      proofUrls: r.proofUrls,
      status: r.status,
      consumptionType: r.consumptionType,
      resultAmount: formatMoney(r.resultAmount),
      remark: r.remark,
      // Customers learn that staff handled it, not which employee.
      operator: staff && r.operatorId ? (emails.get(r.operatorId) ?? '') : '',
      processedAt: r.processedAt,
      createdAt: r.createdAt,
      actions: workOrderMachine
        .actions(r.status, actorOf(viewer))
        .filter((a) => !STAFF_ACTIONS.includes(a) || canResolve),
      canMessage: WORK_ORDER_OPEN.includes(r.status),
    }));
  }

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
      const me = currentUser(request);
      const { page: p, limit, ...filter } = request.body;
      const { list, total } = await listWorkOrders(db, me, filter, { page: p, limit });
      return { list: await present(me, list), total, page: p, limit };
    },
  );

  app.post(
    '/admin/workOrder/export',
    {
      config: { ...page, raw: true },
      schema: { tags: ['work-orders'], body: workOrderListQuery, response: { 200: xlsxResponse } },
    },
    async (request, reply) => {
      const me = currentUser(request);
      const { page: _p, limit: _l, ...filter } = request.body as WorkOrderListQuery;
      const rows = await present(me, (await listWorkOrders(db, me, filter)).list);
      const language = request.language;
      const en = language === 'en-US';
      return sendXlsx(
        reply,
        en ? 'work-orders.xlsx' : '工单.xlsx',
        [
          { header: en ? 'Work order' : '工单号', value: (r) => r.workOrderNo, width: 22 },
          { header: en ? 'Order number' : '订单号', value: (r) => r.orderNo, width: 22 },
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
      const me = currentUser(request);
      const row = await openWorkOrderOn(db, me, { ...request.body, amount: parseMoney(request.body.amount) });
      request.auditTarget = `work-order:${row.workOrderNo}`;
      reply.messageKey = 'workOrder.opened';
      reply.messageParams = { workOrderNo: row.workOrderNo };
      return (await present(me, [row]))[0];
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
      const me = currentUser(request);
      const row = await visibleWorkOrder(db, me, request.query.sn);
      const { messages, events } = await threadOf(db, row);
      const people = await usersByIds(db, me.tenantId, [
        ...new Set([...messages.map((m) => m.authorId), ...events.map((e) => e.operatorId)]),
      ]);
      const staff = me.identity === 'employee';
      const byId = new Map(people.map((u) => [u.id, u]));
      // Customers see their own people by e-mail and the operator's as customer service.
      const nameOf = (id: number, side: 'staff' | 'owner') =>
        staff || side === 'owner'
          ? (byId.get(id)?.email ?? '')
          : translate(request.language, 'workOrder.serviceDesk');
      const [view] = await present(me, [row]);
      if (!view) throw notFound();
      return {
        ...view,
        messages: messages.map((m) => ({
          id: m.id,
          side: m.side,
          author: nameOf(m.authorId, m.side),
          body: m.body,
          attachments: m.attachments,
          createdAt: m.createdAt,
        })),
        events: events.map((e) => ({
          id: e.id,
          action: e.action,
          fromStatus: e.fromStatus,
          toStatus: e.toStatus,
          operator: nameOf(e.operatorId, e.side),
          note: e.note,
          createdAt: e.createdAt,
        })),
      };
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
      const me = currentUser(request);
      const { row, message } = await postMessageTo(db, me, request.body);
      request.auditTarget = `work-order:${row.workOrderNo}`;
      return {
        id: message.id,
        side: message.side,
        author: me.email,
        body: message.body,
        attachments: message.attachments,
        createdAt: message.createdAt,
      };
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
      const me = currentUser(request);
      const { sn, action, consumptionType, resultAmount, remark } = request.body;
      if (STAFF_ACTIONS.includes(action) && !me.grants.has('work-order:resolve')) throw forbidden();
      const updated = await decideVisibleWorkOrder(db, me, sn, {
        action,
        consumptionType,
        resultAmount: parseMoney(resultAmount),
        remark,
      });
      request.auditTarget = `work-order:${updated.workOrderNo}`;
      reply.messageKey = 'workOrder.done';
      return (await present(me, [updated]))[0];
    },
  );
};

export default routes;
