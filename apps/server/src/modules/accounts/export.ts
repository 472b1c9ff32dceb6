import {
  ACCOUNT_LOG_TYPES,
  type BusinessLine,
  DEDUCTION_TYPES,
  type LedgerType,
  ledgerQuery,
} from '@freight/contracts/accounts';
import type { Language } from '@freight/contracts/api';
import type { ExportKindName } from '@freight/contracts/downloads';
import { isMessageKey, translate } from '@freight/contracts/messages';
import { formatMoney } from '@freight/contracts/money';
import type { DbOrTx } from '../../db/client.ts';
import { forbidden } from '../../lib/errors.ts';
import type { RequestUser } from '../../plugins/context.ts';
import { usersByIds } from '../auth/users.ts';
import {
  organisationIdsMatching,
  organisationNames,
  organisationScope,
  visibleOrganisationIds,
} from '../customers/service.ts';
import { defineExport, type ExportColumn } from '../downloads/runner.ts';
import { type LedgerListRow, ledgerExportPages } from './service.ts';

/** One view over the ledger: the pages that show it, the types it keeps, its export. */
export interface LedgerView {
  pages: Record<BusinessLine, string>;
  types?: readonly LedgerType[];
  /** Money movements only (the details); the log keeps the events that move none. */
  moneyOnly: boolean;
  kind: ExportKindName;
  fileName: Record<Language, string>;
}

export const DETAILS_VIEW: LedgerView = {
  pages: { truck: '/accountDetails', express: '/deliveryAccountDetails' },
  moneyOnly: true,
  kind: 'account-details',
  fileName: { 'zh-CN': '账户明细.xlsx', 'en-US': 'account-details.xlsx' },
};
/** The account log: what happened to accounts other than orders and recharges (SPEC section 2). */
export const LOG_VIEW: LedgerView = {
  pages: { truck: '/accountLog', express: '/deliveryAccountLog' },
  // Reviewed recharges are account events too: an approval is the credit it made, the other
  // outcomes are zero rows the recharge module writes through recordAccountEvent.
  types: ACCOUNT_LOG_TYPES,
  moneyOnly: false,
  kind: 'account-log',
  fileName: { 'zh-CN': '账户日志.xlsx', 'en-US': 'account-log.xlsx' },
};
/** Supplementary deduction details: surcharges and work-order deductions, a view over the ledger. */
export const DEDUCTIONS_VIEW: LedgerView = {
  pages: { truck: '/deductionDetails', express: '/deductionDetails' },
  types: DEDUCTION_TYPES,
  moneyOnly: false,
  kind: 'account-deductions',
  fileName: { 'zh-CN': '补扣明细.xlsx', 'en-US': 'deductions.xlsx' },
};

type LedgerQuery = typeof ledgerQuery._output;

/** The view's filter for this caller: refused without the line's page; the organisations in scope. */
export async function ledgerScope(db: DbOrTx, user: RequestUser, query: LedgerQuery, view: LedgerView) {
  if (!user.grants.has(view.pages[query.line])) throw forbidden();
  const { page: _page, limit: _limit, keyword, ...rest } = query;
  const filter = { ...rest, ...(view.types ? { types: view.types } : {}), moneyOnly: view.moneyOnly };
  // A keyword narrows the accounts to the organisations in scope whose name or contact matches.
  const scope = await organisationScope(db, user);
  const visible = keyword
    ? organisationIdsMatching(db, scope, keyword)
    : scope.kind === 'tenant'
      ? null
      : visibleOrganisationIds(db, scope);
  return { filter, visible };
}

/** Ledger rows as the lists and exports show them, in the caller's language. */
export async function presentLedger(
  db: DbOrTx,
  user: RequestUser,
  language: Language,
  list: LedgerListRow[],
) {
  const names = await organisationNames(db, user.tenantId, [...new Set(list.map((r) => r.organisationId))]);
  // Staff see who made each movement; customers are not shown the operator's staff e-mail.
  const operatorIds = [...new Set(list.map((r) => r.operatorId).filter((id) => id !== null))];
  const operators = new Map(
    user.identity === 'employee'
      ? (await usersByIds(db, user.tenantId, operatorIds)).map((u) => [u.id, u.email])
      : [],
  );
  return list.map(({ operatorId, ...r }) => ({
    ...r,
    operator: (operatorId !== null && operators.get(operatorId)) || '',
    // A freeze or credit change refers to the account itself: an internal id nobody looks up.
    refId: r.refType === 'account' ? '' : r.refId,
    // Notes the system writes are message keys, read in the caller's language.
    note: r.note.startsWith('ledger.note.') && isMessageKey(r.note) ? translate(language, r.note) : r.note,
    organisationName: names.get(r.organisationId) ?? '',
    amount: formatMoney(r.amount),
    balanceAfter: formatMoney(r.balanceAfter),
  }));
}

type Presented = Awaited<ReturnType<typeof presentLedger>>[number];

/** The ledger views' exports: few rows at once, more written by a job in the download centre. */
function ledgerExport(view: LedgerView, permission: string | readonly string[]) {
  return defineExport({
    name: view.kind,
    fileName: view.fileName,
    params: ledgerQuery,
    permission,
    async source(db, user, params, language) {
      const { filter, visible } = await ledgerScope(db, user, params, view);
      const rows = ledgerExportPages(db, user.tenantId, visible, filter);
      const en = language === 'en-US';
      const t = (key: string) => translate(language, key as never);
      const columns: ExportColumn<Presented>[] = [
        { header: en ? 'Time' : '时间', type: 'time', value: (r) => r.createdAt },
        { header: en ? 'Organisation' : '客户', value: (r) => r.organisationName, width: 26 },
        { header: en ? 'Type' : '类型', value: (r) => t(`ledger.type.${r.type}`) },
        { header: en ? 'Amount' : '金额', type: 'money', value: (r) => r.amount },
        { header: en ? 'Balance after' : '变动后余额', type: 'money', value: (r) => r.balanceAfter },
        { header: en ? 'Reference' : '关联单号', value: (r) => r.refId, width: 24 },
        { header: en ? 'Note' : '备注', value: (r) => r.note, width: 30 },
        { header: en ? 'Operator' : '操作人', value: (r) => r.operator, width: 26 },
      ];
      return {
        columns: columns as ExportColumn<unknown>[],
        count: rows.count,
        async *pages(size: number) {
          for await (const page of rows.pages(size)) yield await presentLedger(db, user, language, page);
        },
      };
    },
  });
}

export const ledgerDetailsExport = ledgerExport(DETAILS_VIEW, ['account:export', 'express-account:export']);
export const ledgerLogExport = ledgerExport(LOG_VIEW, Object.values(LOG_VIEW.pages));
export const ledgerDeductionsExport = ledgerExport(DEDUCTIONS_VIEW, '/deductionDetails');
