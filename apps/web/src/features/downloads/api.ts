import type { downloadCountView, downloadListView, downloadView } from '@freight/contracts/downloads';
import type { Wire } from '@freight/contracts/responses';
import { download, post } from '../../lib/http.ts';

export const DOWNLOAD_LIST_URL = '/admin/download/list';
/** The top bar's count, shared by the badge and the pages that refresh it. */
export const DOWNLOAD_COUNT_KEY = ['downloads', 'count'] as const;
export const DOWNLOAD_CENTER_PATH = '/downloadCenter';

export type DownloadView = Wire<typeof downloadView>;
export type DownloadList = Wire<typeof downloadListView>;
export type DownloadCount = Wire<typeof downloadCountView>;

export const downloadApi = {
  count: () => post<DownloadCount>('/admin/download/count'),
  seen: (ids?: number[]) => post<null>('/admin/download/seen', ids ? { ids } : {}),
  retry: (id: number) => post<DownloadView>('/admin/download/retry', { id }),
  remove: (id: number) => post<null>('/admin/download/delete', { id }),
  file: (id: number) => download('/admin/download/file', { id }, `export-${id}.xlsx`),
};
