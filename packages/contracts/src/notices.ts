import { z } from 'zod';
import { listOf } from './responses.ts';

/** A system notice popped up to its user (SPEC section 2 "Notice popups"), in the names SPEC section 7 uses. */
export const noticeView = z.object({
  id: z.number().int(),
  type: z.number().int(),
  title: z.string(),
  content: z.string(),
  pop_theme: z.string(),
  order_type: z.number().int(),
  /** The number of the order (or bill, work order) the notice is about. */
  order_sn: z.string(),
});
export const userNoticesView = listOf(noticeView);
