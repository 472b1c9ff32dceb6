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

/** A body as blocks to show: paragraphs and bulleted lists, from the plain text staff wrote. */
export type ChangelogBlock = { kind: 'paragraph'; text: string } | { kind: 'list'; items: string[] };

export function changelogBlocks(body: string): ChangelogBlock[] {
  const blocks: ChangelogBlock[] = [];
  for (const chunk of body.replace(/\r\n?/g, '\n').split(/\n\s*\n/)) {
    const lines = chunk
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean);
    if (lines.length === 0) continue;
    if (lines.every((l) => /^[-*•]\s+/.test(l)))
      blocks.push({ kind: 'list', items: lines.map((l) => l.replace(/^[-*•]\s+/, '')) });
    else blocks.push({ kind: 'paragraph', text: lines.join('\n') });
  }
  return blocks;
}
