import { post } from '../../lib/http.ts';

/** A notice handed to the signed-in user; `order_type` and `order_sn` say what it is about. */
export interface Notice {
  id: number;
  type: number;
  title: string;
  content: string;
  pop_theme?: string;
  order_type: number;
  order_sn: string;
}

export const noticeApi = {
  /** The notices not yet shown to this user; the server hands each out once. */
  userNotices: () => post<{ list: Notice[] }>('/admin/notice/userNotices', { type: 0 }),
  read: (id: number) => post('/admin/notice/read', { id }),
};
