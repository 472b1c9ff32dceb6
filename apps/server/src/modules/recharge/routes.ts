import type { BusinessLine } from '@freight/contracts/accounts';
import { formatMoney, parseMoney } from '@freight/contracts/money';
import { idBody } from '@freight/contracts/rbac';
import {
  receivingAccountBody,
  rechargeListQuery,
  rechargeReviewBody,
  rechargeSubmitBody,
} from '@freight/contracts/recharge';
import { and, eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { conflict, forbidden, notFound } from '../../lib/errors.ts';
import { sendXlsx } from '../../lib/xlsx.ts';
import { currentUser, type RequestUser } from '../../plugins/context.ts';
import { canSeeOrganisation, findOrganisation, organisationScope } from '../customers/service.ts';
import { receivingAccounts } from './schema.ts';
import {
  findRecharge,
  listReceivingAccounts,
  listRecharges,
  type RechargeRow,
  reviewRecharge,
  reviewsOf,
  submitRecharge,
  waitingCounts,
} from './service.ts';

const SUBMIT_PAGE: Record<BusinessLine, string> = { truck: '/recharge', express: '/expressrecharge' };
const REVIEW_KEY: Record<BusinessLine, string> = {
  truck: 'recharge:review',
  express: 'express-recharge:review',
};
const RECHARGE_PAGES = [
  '/recharge',
  '/expressrecharge',
  '/rechargeMGT',
  '/deliveryRechargeMGT',
  '/rechargeReview',
  '/deliveryRechargeReview',
];
const MANAGE_PAGES = ['/rechargeMGT', '/deliveryRechargeMGT'];

/** Card numbers are shown with all but the last four digits hidden. */
const maskCard = (card: string) => `${'*'.repeat(Math.max(0, card.length - 4))}${card.slice(-4)}`;

function present(row: RechargeRow, organisationName?: string) {
  return {
    id: row.id,
    serial: row.serial,
    organisationId: row.organisationId,
    organisationName: organisationName ?? '',
    line: row.line,
    amount: formatMoney(row.amount),
    currency: row.currency,
    method: row.method,
    payerName: row.payerName,
    payerCardNumber: maskCard(row.payerCardNumber),
    screenshotUrl: row.screenshotUrl,
    note: row.note,
    status: row.status,
    creditedAmount: row.creditedAmount === null ? null : formatMoney(row.creditedAmount),
    fee: row.fee === null ? null : formatMoney(row.fee),
    reviewNote: row.reviewNote,
    reviewedAt: row.reviewedAt,
    settledAt: row.settledAt,
    createdAt: row.createdAt,
  };
}

const routes: FastifyPluginAsyncZod = async (app) => {
  const db = app.db;

  async function visibleRecharge(user: RequestUser, id: number) {
    const row = await findRecharge(db, user.tenantId, id);
    if (!row) throw notFound();
    if (!(await canSeeOrganisation(db, await organisationScope(db, user), row.organisationId)))
      throw notFound();
    return row;
  }

  /* ----- receiving accounts ----- */
  const receivingList = async (request: { user: RequestUser | null; tenant: { id: number } }) => {
    const rows = await listReceivingAccounts(db, request.tenant.id, true);
    return { list: rows.map(({ tenantId: _t, ...r }) => r) };
  };
  app.post('/admin/recharge/receivingAccounts', { schema: { tags: ['recharge'] } }, receivingList);
  app.post('/admin/admin/getAdminAccount', { schema: { tags: ['recharge'] } }, receivingList);

  app.post(
    '/admin/recharge/receivingAccountsAll',
    { config: { permission: MANAGE_PAGES }, schema: { tags: ['recharge'] } },
    async (request) => ({
      list: (await listReceivingAccounts(db, request.tenant.id, false)).map(({ tenantId: _t, ...r }) => r),
    }),
  );

  app.post(
    '/admin/recharge/receivingAccount/save',
    {
      config: { permission: MANAGE_PAGES, audit: 'recharge.receivingAccount' },
      schema: { tags: ['recharge'], body: receivingAccountBody },
    },
    async (request) => {
      if (currentUser(request).identity !== 'employee') throw forbidden();
      const { id, ...fields } = request.body;
      if (id) {
        const [row] = await db
          .update(receivingAccounts)
          .set(fields)
          .where(and(eq(receivingAccounts.tenantId, request.tenant.id), eq(receivingAccounts.id, id)))
          .returning({ id: receivingAccounts.id });
        if (!row) throw notFound();
        return { id };
      }
      const [row] = await db
        .insert(receivingAccounts)
        .values({ tenantId: request.tenant.id, ...fields })
        .returning({ id: receivingAccounts.id });
      request.auditTarget = `receivingAccount:${row?.id}`;
      return { id: row?.id };
    },
  );

  /* ----- submit and list ----- */
  app.post(
    '/admin/recharge/submit',
    {
      config: { permission: ['/recharge', '/expressrecharge'], audit: 'recharge.submit' },
      schema: { tags: ['recharge'], body: rechargeSubmitBody },
    },
    async (request, reply) => {
      const me = currentUser(request);
      if (!me.grants.has(SUBMIT_PAGE[request.body.line])) throw forbidden();
      if (!me.organisationId) throw conflict('recharge.staffCannotSubmit');
      const row = await submitRecharge(db, {
        ...request.body,
        amount: parseMoney(request.body.amount),
        tenantId: me.tenantId,
        organisationId: me.organisationId,
        userId: me.id,
      });
      request.auditTarget = `recharge:${row.serial}`;
      reply.messageKey = 'recharge.submitted';
      return present(row);
    },
  );

  const rows = async (
    request: { user: RequestUser | null },
    query: typeof rechargeListQuery._output,
    paged: boolean,
  ) => {
    const me = currentUser(request);
    const scope = await organisationScope(db, me);
    const { page, limit, ...filter } = query;
    const result = await listRecharges(db, scope, filter, paged ? { page, limit } : undefined);
    const names = new Map<number, string>();
    for (const id of new Set(result.list.map((r) => r.organisationId))) {
      names.set(id, (await findOrganisation(db, me.tenantId, id))?.name ?? '');
    }
    return {
      list: result.list.map((r) => present(r, names.get(r.organisationId))),
      total: result.total,
      page,
      limit,
    };
  };

  app.post(
    '/admin/recharge/list',
    { config: { permission: RECHARGE_PAGES }, schema: { tags: ['recharge'], body: rechargeListQuery } },
    async (request) => rows(request, request.body, true),
  );

  app.post(
    '/admin/recharge/export',
    {
      config: { permission: RECHARGE_PAGES, raw: true },
      schema: { tags: ['recharge'], body: rechargeListQuery },
    },
    async (request, reply) => {
      const { list } = await rows(request, request.body, false);
      const en = request.language === 'en-US';
      return sendXlsx(
        reply,
        en ? 'recharges.xlsx' : '充值记录.xlsx',
        [
          { header: en ? 'Serial' : '流水号', value: (r) => r.serial, width: 22 },
          { header: en ? 'Organisation' : '客户', value: (r) => r.organisationName, width: 26 },
          { header: en ? 'Line' : '业务', value: (r) => r.line },
          { header: en ? 'Amount' : '提交金额', value: (r) => r.amount },
          { header: en ? 'Currency' : '币种', value: (r) => r.currency },
          { header: en ? 'Credited' : '到账金额', value: (r) => r.creditedAmount ?? '' },
          { header: en ? 'Fee' : '手续费', value: (r) => r.fee ?? '' },
          { header: en ? 'Status' : '状态', value: (r) => r.status },
          { header: en ? 'Payer' : '付款人', value: (r) => r.payerName },
          { header: en ? 'Submitted' : '提交时间', value: (r) => r.createdAt },
          { header: en ? 'Reviewed' : '审核时间', value: (r) => r.reviewedAt },
        ],
        list,
      );
    },
  );

  app.post(
    '/admin/recharge/info',
    { config: { permission: RECHARGE_PAGES }, schema: { tags: ['recharge'], body: idBody } },
    async (request) => {
      const me = currentUser(request);
      const row = await visibleRecharge(me, request.body.id);
      const org = await findOrganisation(db, me.tenantId, row.organisationId);
      const audit = await reviewsOf(db, me.tenantId, row.id);
      return {
        ...present(row, org?.name),
        reviews: audit.map((r) => ({
          auditor: r.auditorEmail,
          time: r.createdAt,
          action: r.action,
          result: r.toStatus,
          amount: r.creditedAmount === null ? null : formatMoney(r.creditedAmount),
          fee: r.fee === null ? null : formatMoney(r.fee),
          note: r.note,
        })),
      };
    },
  );

  /* ----- review ----- */
  app.post(
    '/admin/recharge/review',
    {
      config: { permission: Object.values(REVIEW_KEY), audit: 'recharge.review' },
      schema: { tags: ['recharge'], body: rechargeReviewBody },
    },
    async (request) => {
      const me = currentUser(request);
      const row = await visibleRecharge(me, request.body.id);
      request.auditTarget = `recharge:${row.serial}`;
      if (me.identity !== 'employee' || !me.grants.has(REVIEW_KEY[row.line])) throw forbidden();
      const updated = await reviewRecharge(db, {
        tenantId: me.tenantId,
        rechargeId: row.id,
        action: request.body.action,
        creditedAmount: request.body.creditedAmount ? parseMoney(request.body.creditedAmount) : undefined,
        fee: parseMoney(request.body.fee),
        note: request.body.note,
        auditor: { id: me.id, email: me.email },
      });
      return present(updated);
    },
  );

  app.post(
    '/admin/recharge/settle',
    {
      config: { permission: Object.values(REVIEW_KEY), audit: 'recharge.settle' },
      schema: { tags: ['recharge'], body: idBody },
    },
    async (request) => {
      const me = currentUser(request);
      const row = await visibleRecharge(me, request.body.id);
      request.auditTarget = `recharge:${row.serial}`;
      if (me.identity !== 'employee' || !me.grants.has(REVIEW_KEY[row.line])) throw forbidden();
      const updated = await reviewRecharge(db, {
        tenantId: me.tenantId,
        rechargeId: row.id,
        action: 'settle',
        fee: 0n,
        note: '',
        auditor: { id: me.id, email: me.email },
      });
      return present(updated);
    },
  );

  /** SPEC section 4: polled every 10 s by every signed-in user, so one grouped count and no more. */
  app.get('/admin/recharge/waitNum', { schema: { tags: ['recharge'] } }, async (request) => {
    const me = currentUser(request);
    if (me.identity !== 'employee') return { waitNum: 0, expressWaitNum: 0 };
    const lines = (['truck', 'express'] as const).filter((line) => me.grants.has(REVIEW_KEY[line]));
    const counts = await waitingCounts(db, me.tenantId, lines);
    return { waitNum: counts.truck, expressWaitNum: counts.express };
  });
};

export default routes;
