import { z } from 'zod';
import { pageQuery } from './api.ts';
import { pageOf, timestamp } from './responses.ts';
import { idField, instantField, str } from './validation.ts';

/* Feature updates (SPEC section 1: the top bar's "feature updates" button): staff write, everyone reads. */

export const changelogSaveBody = z.object({
  id: idField().optional(),
  title: str().trim().min(1).max(100),
  /** Plain text: blank lines part paragraphs, lines starting with "- " make a list. Never HTML. */
  body: str().trim().min(1).max(5000),
  publishedAt: instantField(),
});

export const changelogListQuery = pageQuery.extend({ keyword: str().trim().max(100).optional() });
export const changelogIdBody = z.object({ id: idField() });

/* ----- responses ----- */

export const changelogEntryView = z.object({
  id: z.number().int(),
  title: z.string(),
  body: z.string(),
  publishedAt: timestamp,
});
export const changelogRowView = changelogEntryView.extend({ updatedAt: timestamp });
export const changelogListView = pageOf(changelogRowView);

/** What the top bar shows: the published entries, newest first, and whether any came since last seen. */
export const changelogFeedView = z.object({
  list: z.array(changelogEntryView),
  unread: z.boolean(),
});
