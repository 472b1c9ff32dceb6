import type { changelogEntryView, changelogFeedView, changelogRowView } from '@freight/contracts/changelog';
import type { Wire } from '@freight/contracts/responses';
import { post } from '../../lib/http.ts';

export type ChangelogEntry = Wire<typeof changelogEntryView>;
export type ChangelogRow = Wire<typeof changelogRowView>;

export interface ChangelogInput {
  id?: number;
  title: string;
  body: string;
  publishedAt: string;
}

export const CHANGELOG_LIST_URL = '/admin/changelog/list';
export const CHANGELOG_FEED_KEY = ['changelog-feed'] as const;

export const changelogApi = {
  feed: () => post<Wire<typeof changelogFeedView>>('/admin/changelog/feed'),
  seen: () => post('/admin/changelog/seen'),
  save: (input: ChangelogInput) => post<{ id: number }>('/admin/changelog/save', input),
  remove: (id: number) => post('/admin/changelog/delete', { id }),
};
