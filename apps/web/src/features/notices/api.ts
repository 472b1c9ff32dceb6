import type { noticeView, userNoticesView } from '@freight/contracts/notices';
import type { Wire } from '@freight/contracts/responses';
import { post } from '../../lib/http.ts';

/** A notice handed to the signed-in user; `order_type` and `order_sn` say what it is about. */
export type Notice = Wire<typeof noticeView>;

export const noticeApi = {
  /** The notices not yet shown to this user; the server hands each out once. */
  userNotices: () => post<Wire<typeof userNoticesView>>('/admin/notice/userNotices', { type: 0 }),
  read: (id: number) => post('/admin/notice/read', { id }),
};
