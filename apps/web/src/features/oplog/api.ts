import type { Wire } from '@freight/contracts/responses';
import type { operationLogRowView } from '@freight/contracts/roles';
import { download } from '../../lib/http.ts';

export type OperationLogRow = Wire<typeof operationLogRowView>;

export interface OperationLogFilters {
  keyword?: string;
  action?: string;
  result?: 'success' | 'failure';
  /** ISO instants: from the start of the first day to the start of the day after the last. */
  from?: string;
  to?: string;
}

export const OPERATION_LOG_LIST_URL = '/admin/operationLog/list';

export const operationLogApi = {
  export: (filters: OperationLogFilters) =>
    download('/admin/operationLog/export', filters, 'operation-log.xlsx'),
};
