import {
  ACCOUNT_LOG_TYPES,
  accountView,
  adjustmentView,
  type BusinessLine,
  balanceQuery,
  balanceTotalView,
  DEDUCTION_TYPES,
  type LedgerType,
  ledgerListView,
  ledgerQuery,
} from '@freight/contracts/accounts';
import { type Language, ResultCode } from '@freight/contracts/api';
import { accountActionBody, adjustmentBody, creditLimitBody } from '@freight/contracts/customers';
import { isMessageKey, translate } from '@freight/contracts/messages';
import { formatMoney, parseMoney } from '@freight/contracts/money';
import { okResponse, xlsxResponse } from '@freight/contracts/responses';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client.ts';
import { AppError, badField, forbidden, notFound } from '../../lib/errors.ts';
import { sendXlsx } from '../../lib/xlsx.ts';
import { currentUser, type RequestUser } from '../../plugins/context.ts';
import { usersByIds } from '../auth/service.ts';
import {
  canSeeOrganisation,
  organisationIdsMatching,
  organisationNames,
  organisationScope,
  visibleOrganisationIds,
} from '../customers/service.ts';
import {
  type AccountRow,
  accountActions,
  available,
  findAccount,
  freezeAccount,
  InsufficientFundsError,
  listAccounts,
  listLedger,
  moveMoney,
  setCreditLimit,
  unfreezeAccount,
} from './service.ts';

/** An account as the API shows it; `actions` are what the caller may do to it now. */
const present = (a: AccountRow, viewer: RequestUser) => ({
  id: a.id,
  organisationId: a.organisationId,
  line: a.line,
  status: a.status,
  balance: formatMoney(a.balance),
  creditLimit: formatMoney(a.creditLimit),
  frozen: formatMoney(a.frozen),
  deposit: formatMoney(a.deposit),
  available: formatMoney(available(a)),
  actions: accountActions(a, viewer),
});

/** Staff actions on one account: freeze, unfreeze, credit limit, manual adjustment; each with a reason. */
const routes: FastifyPluginAsyncZod = async (app) => {
  const db = app.db;

  async function visibleAccount(user: RequestUser, accountId: number): Promise<AccountRow> {
    const account = await findAccount(db, user.tenantId, accountId);
    if (!account) throw notFound();
    const scope = await organisationScope(db, user);
    if (!(await canSeeOrganisation(db, scope, account.organisationId))) throw notFound();
    return account;
  }

  const DETAILS_PAGES = { truck: '/accountDetails', express: '/deliveryAccountDetails' } as const;
  const BALANCE_PAGES = { truck: '/balanceTotal', express: '/deliveryBalanceTotal' } as const;

  /**
   * The customers module's subquery of what the caller may see; null for staff (the whole tenant).
   * Wrapped, because a query builder handed out of an async function would run there and then.
   */
  async function visibleScope(user: RequestUser, from: Db = db) {
    const scope = await organisationScope(from, user);
    return { ids: scope.kind === 'tenant' ? null : visibleOrganisationIds(from, scope) };
  }

  const ledgerRows = async (
    language: Language,
    user: RequestUser,
    query: typeof ledgerQuery._output,
    paged: boolean,
    pages: Record<BusinessLine, string> = DETAILS_PAGES,
    types?: readonly LedgerType[],
    // Exports read the replica (app.database.reader) when one is configured; the pages read the primary.
    from: Db = db,
  ) => {
    if (!user.grants.has(pages[query.line])) throw forbidden();
    const { page, limit, keyword, ...rest } = query;
    // The details list money; events that move none (rejected recharges, freezes) are the log's.
    const filter = { ...rest, ...(types ? { types } : {}), moneyOnly: pages === DETAILS_PAGES };
    // A keyword narrows the accounts to the organisations in scope whose name or contact matches.
    const visible = keyword
      ? organisationIdsMatching(from, await organisationScope(from, user), keyword)
      : (await visibleScope(user, from)).ids;
    const result = await listLedger(from, user.tenantId, visible, filter, paged ? { page, limit } : null);
    const names = await organisationNames(from, user.tenantId, [
      ...new Set(result.list.map((r) => r.organisationId)),
    ]);
    // Staff see who made each movement; customers are not shown the operator's staff e-mail.
    const operatorIds = [...new Set(result.list.map((r) => r.operatorId).filter((id) => id !== null))];
    const operators = new Map(
      user.identity === 'employee'
        ? (await usersByIds(from, user.tenantId, operatorIds)).map((u) => [u.id, u.email])
        : [],
    );
    return {
      list: result.list.map(({ operatorId, ...r }) => ({
        ...r,
        operator: (operatorId !== null && operators.get(operatorId)) || '',
        // A freeze or credit change refers to the account itself: an internal id nobody looks up.
        refId: r.refType === 'account' ? '' : r.refId,
        // Notes the system writes are message keys, read in the caller's language.
        note:
          r.note.startsWith('ledger.note.') && isMessageKey(r.note) ? translate(language, r.note) : r.note,
        organisationName: names.get(r.organisationId) ?? '',
        amount: formatMoney(r.amount),
        balanceAfter: formatMoney(r.balanceAfter),
      })),
      total: result.total,
      page,
      limit,
      totals: { credits: formatMoney(result.credits), debits: formatMoney(result.debits) },
    };
  };

  app.post(
    '/admin/account/details',
    {
      config: { permission: Object.values(DETAILS_PAGES) },
      schema: { tags: ['accounts'], body: ledgerQuery, response: { 200: okResponse(ledgerListView) } },
    },
    async (request) => ledgerRows(request.language, currentUser(request), request.body, true),
  );

  /** The ledger rows of a view (details, log, deductions) as a spreadsheet. */
  async function sendLedger(
    request: FastifyRequest,
    reply: FastifyReply,
    pages: Record<BusinessLine, string>,
    types: readonly LedgerType[] | undefined,
    names: { en: string; zh: string },
  ) {
    const query = request.body as typeof ledgerQuery._output;
    const { list } = await ledgerRows(
      request.language,
      currentUser(request),
      query,
      false,
      pages,
      types,
      app.database.reader,
    );
    const en = request.language === 'en-US';
    const t = (key: string) => translate(request.language, key as never);
    return sendXlsx(
      reply,
      en ? names.en : names.zh,
      [
        { header: en ? 'Time' : '时间', value: (r) => r.createdAt },
        { header: en ? 'Organisation' : '客户', value: (r) => r.organisationName, width: 26 },
        { header: en ? 'Type' : '类型', value: (r) => t(`ledger.type.${r.type}`) },
        { header: en ? 'Amount' : '金额', value: (r) => r.amount },
        { header: en ? 'Balance after' : '变动后余额', value: (r) => r.balanceAfter },
        { header: en ? 'Reference' : '关联单号', value: (r) => r.refId, width: 24 },
        { header: en ? 'Note' : '备注', value: (r) => r.note, width: 30 },
        { header: en ? 'Operator' : '操作人', value: (r) => r.operator, width: 26 },
      ],
      list,
    );
  }

  app.post(
    '/admin/account/detailsExport',
    {
      config: { permission: ['account:export', 'express-account:export'], raw: true },
      schema: { tags: ['accounts'], body: ledgerQuery, response: { 200: xlsxResponse } },
    },
    (request, reply) =>
      sendLedger(request, reply, DETAILS_PAGES, undefined, {
        en: 'account-details.xlsx',
        zh: '账户明细.xlsx',
      }),
  );

  /** The account log: what happened to accounts other than orders and recharges (SPEC section 2). */
  const LOG_PAGES = { truck: '/accountLog', express: '/deliveryAccountLog' } as const;
  // Reviewed recharges are account events too: an approval is the credit it made, the other
  // outcomes are zero rows the recharge module writes through recordAccountEvent.
  const LOG_TYPES: readonly LedgerType[] = ACCOUNT_LOG_TYPES;
  app.post(
    '/admin/account/log',
    {
      config: { permission: Object.values(LOG_PAGES) },
      schema: { tags: ['accounts'], body: ledgerQuery, response: { 200: okResponse(ledgerListView) } },
    },
    async (request) =>
      ledgerRows(request.language, currentUser(request), request.body, true, LOG_PAGES, LOG_TYPES),
  );
  app.post(
    '/admin/account/logExport',
    {
      config: { permission: Object.values(LOG_PAGES), raw: true },
      schema: { tags: ['accounts'], body: ledgerQuery, response: { 200: xlsxResponse } },
    },
    (request, reply) =>
      sendLedger(request, reply, LOG_PAGES, LOG_TYPES, { en: 'account-log.xlsx', zh: '账户日志.xlsx' }),
  );

  /** Supplementary deduction details: surcharges and work-order deductions, a view over the ledger. */
  const DEDUCTION_PAGES = { truck: '/deductionDetails', express: '/deductionDetails' } as const;
  app.post(
    '/admin/account/deductions',
    {
      config: { permission: '/deductionDetails' },
      schema: { tags: ['accounts'], body: ledgerQuery, response: { 200: okResponse(ledgerListView) } },
    },
    async (request) =>
      ledgerRows(
        request.language,
        currentUser(request),
        request.body,
        true,
        DEDUCTION_PAGES,
        DEDUCTION_TYPES,
      ),
  );
  app.post(
    '/admin/account/deductionsExport',
    {
      config: { permission: '/deductionDetails', raw: true },
      schema: { tags: ['accounts'], body: ledgerQuery, response: { 200: xlsxResponse } },
    },
    (request, reply) =>
      sendLedger(request, reply, DEDUCTION_PAGES, DEDUCTION_TYPES, {
        en: 'deductions.xlsx',
        zh: '补扣明细.xlsx',
      }),
  );

  app.post(
    '/admin/account/balanceTotal',
    {
      config: { permission: Object.values(BALANCE_PAGES) },
      schema: { tags: ['accounts'], body: balanceQuery, response: { 200: okResponse(balanceTotalView) } },
    },
    async (request) => {
      const me = currentUser(request);
      if (!me.grants.has(BALANCE_PAGES[request.body.line])) throw forbidden();
      const rows = await listAccounts(db, me.tenantId, (await visibleScope(me)).ids, request.body.line);
      const names = await organisationNames(
        db,
        me.tenantId,
        rows.map((r) => r.organisationId),
      );
      const sum = (pick: (a: AccountRow) => bigint) => formatMoney(rows.reduce((s, a) => s + pick(a), 0n));
      return {
        list: rows.map((a) => ({ ...present(a, me), organisationName: names.get(a.organisationId) ?? '' })),
        totals: {
          balance: sum((a) => a.balance),
          creditLimit: sum((a) => a.creditLimit),
          frozen: sum((a) => a.frozen),
          deposit: sum((a) => a.deposit),
          available: sum(available),
        },
      };
    },
  );

  app.post(
    '/admin/account/freeze',
    {
      config: { permission: 'account:freeze', audit: 'account.freeze' },
      schema: { tags: ['accounts'], body: accountActionBody, response: { 200: okResponse(accountView) } },
    },
    async (request) => {
      const me = currentUser(request);
      const account = await visibleAccount(me, request.body.accountId);
      request.auditTarget = `account:${account.id}`;
      return present(await freezeAccount(db, me.tenantId, account.id, me.id, request.body.reason), me);
    },
  );

  app.post(
    '/admin/account/unfreeze',
    {
      config: { permission: 'account:freeze', audit: 'account.unfreeze' },
      schema: { tags: ['accounts'], body: accountActionBody, response: { 200: okResponse(accountView) } },
    },
    async (request) => {
      const me = currentUser(request);
      const account = await visibleAccount(me, request.body.accountId);
      request.auditTarget = `account:${account.id}`;
      return present(await unfreezeAccount(db, me.tenantId, account.id, me.id, request.body.reason), me);
    },
  );

  app.post(
    '/admin/account/setCreditLimit',
    {
      config: { permission: 'account:credit', audit: 'account.creditLimit' },
      schema: { tags: ['accounts'], body: creditLimitBody, response: { 200: okResponse(accountView) } },
    },
    async (request) => {
      const me = currentUser(request);
      const account = await visibleAccount(me, request.body.accountId);
      request.auditTarget = `account:${account.id}`;
      const row = await setCreditLimit(db, {
        tenantId: me.tenantId,
        accountId: account.id,
        creditLimit: parseMoney(request.body.creditLimit),
        operatorId: me.id,
        reason: request.body.reason,
      });
      if (!row) throw notFound();
      return present(row, me);
    },
  );

  app.post(
    '/admin/account/adjust',
    {
      config: { permission: ['account:adjust', 'express-account:adjust'], audit: 'account.adjust' },
      schema: { tags: ['accounts'], body: adjustmentBody, response: { 200: okResponse(adjustmentView) } },
    },
    async (request) => {
      const me = currentUser(request);
      const account = await visibleAccount(me, request.body.accountId);
      request.auditTarget = `account:${account.id}`;
      if (!me.grants.has(account.line === 'truck' ? 'account:adjust' : 'express-account:adjust'))
        throw forbidden();
      const amount = parseMoney(request.body.amount);
      if (amount === 0n) throw badField('amount', 'accounts.zeroAdjustment');
      try {
        const result = await moveMoney(db, {
          tenantId: me.tenantId,
          accountId: account.id,
          type: 'manual_adjustment',
          amount,
          operatorId: me.id,
          note: request.body.reason,
          refType: 'manual',
        });
        return { entryId: result.entryId, balanceAfter: formatMoney(result.balanceAfter) };
      } catch (error) {
        if (error instanceof InsufficientFundsError)
          throw new AppError(ResultCode.Conflict, 'accounts.insufficient');
        throw error;
      }
    },
  );
};

export default routes;
