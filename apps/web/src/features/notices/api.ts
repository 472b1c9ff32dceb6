import type {
  announcementReadersView,
  announcementSaveBody,
  announcementView,
  noticeListItem,
  noticeView,
  organisationOptionsView,
  userNoticesView,
} from '@freight/contracts/notices';
import type { Wire } from '@freight/contracts/responses';
import { post } from '../../lib/http.ts';

/**
 * A notice handed to the signed-in user; `order_type` and `order_sn` say what it is about. A
 * negative id is an announcement staff wrote, a positive one a system notice.
 */
export type Notice = Wire<typeof noticeView>;
export type NoticeListItem = Wire<typeof noticeListItem>;
export type Announcement = Wire<typeof announcementView>;
export type AnnouncementReaders = Wire<typeof announcementReadersView>;
export type AnnouncementInput = Wire<typeof announcementSaveBody>;

export const NOTICE_LIST_URL = '/admin/notice/list';
export const ANNOUNCEMENT_LIST_URL = '/admin/notice/announcementList';

export const noticeApi = {
  /** The notices this user has not read yet; they pop up until read. */
  userNotices: () => post<Wire<typeof userNoticesView>>('/admin/notice/userNotices', { type: 0 }),
  read: (id: number) => post('/admin/notice/read', { id }),
};

export const announcementApi = {
  save: (input: AnnouncementInput) => post<Announcement>('/admin/notice/announcementSave', input),
  publish: (id: number) => post('/admin/notice/announcementPublish', { id }),
  withdraw: (id: number) => post('/admin/notice/announcementWithdraw', { id }),
  remove: (id: number) => post('/admin/notice/announcementDelete', { id }),
  readers: (id: number, page: number, limit: number) =>
    post<AnnouncementReaders>('/admin/notice/announcementReaders', { id, page, limit }),
  organisations: (keyword: string) =>
    post<Wire<typeof organisationOptionsView>>('/admin/notice/organisations', { keyword }),
};
