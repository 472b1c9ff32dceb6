// Apart from the changelog's schemas: the shell shows feature updates on every page, without zod.

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
