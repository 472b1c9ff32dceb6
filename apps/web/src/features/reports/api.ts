import type { BusinessLine } from '@freight/contracts/accounts';
import type { ReportDimension, ReportPeriod, reportView } from '@freight/contracts/reports';
import type { Wire } from '@freight/contracts/responses';
import { download, post } from '../../lib/http.ts';

export const REPORT_SUMMARY_URL = '/admin/reports/summary';

export type ReportView = Wire<typeof reportView>;
export type ReportRow = ReportView['rows'][number];

export interface ReportFilters {
  from: string;
  to: string;
  line?: BusinessLine;
  period: ReportPeriod;
  dimension: ReportDimension;
}

export const reportApi = {
  summary: (filters: ReportFilters) => post<ReportView>(REPORT_SUMMARY_URL, filters),
  export: (filters: ReportFilters) =>
    download(
      '/admin/reports/export',
      filters,
      `report-${filters.dimension}-${filters.from}-${filters.to}.xlsx`,
    ),
};
