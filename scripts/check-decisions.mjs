// docs/decisions.md opens with an index by area, one link per `## ` section, so a reader finds a decision
// in a minute. Fails when a section is missing from the index, when an index link points to no section,
// when a section is linked twice, or when two sections share a title (or an anchor). Run by `npm test`
// after the area check; prints every problem.
// Usage: node scripts/check-decisions.mjs [project root]
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(process.argv[2] ?? new URL('..', import.meta.url).pathname);
const file = join(root, 'docs/decisions.md');
const lines = readFileSync(file, 'utf8').split(/\r?\n/);

/**
 * GitHub's anchor for a heading: the text as shown (inline code without its backticks), lower-case,
 * every character but letters, digits, `_`, `-` and spaces dropped, each space a `-`.
 */
function anchorOf(title) {
  return title
    .replace(/`/g, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** The `## ` sections outside code fences, with their line numbers, and the lines before the first. */
function readSections() {
  const sections = [];
  let fence = null;
  let firstSection = lines.length;
  lines.forEach((line, i) => {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker && (!fence || (marker[0] === fence[0] && marker.length >= fence.length))) {
      fence = fence ? null : marker;
      return;
    }
    if (fence) return;
    const heading = /^## +(.+?)\s*#*\s*$/.exec(line);
    if (!heading) return;
    if (!sections.length) firstSection = i;
    sections.push({ title: heading[1], line: i + 1, anchor: anchorOf(heading[1]) });
  });
  return { sections, intro: lines.slice(0, firstSection) };
}

/** Links to an anchor of this file in the lines before the first section, with their line numbers. */
function readIndex(intro) {
  const links = [];
  intro.forEach((line, i) => {
    for (const match of line.matchAll(/\[([^\]]*)\]\(#([^)\s]+)\)/g))
      links.push({ text: match[1], anchor: decodeURIComponent(match[2]), line: i + 1 });
  });
  return links;
}

const problems = [];
const { sections, intro } = readSections();
const links = readIndex(intro);

const byTitle = new Map();
const byAnchor = new Map();
for (const section of sections) {
  const sameTitle = byTitle.get(section.title);
  if (sameTitle)
    problems.push(
      `line ${section.line}: a second section titled "${section.title}" (the first is on line ${sameTitle.line}); give one a title of its own`,
    );
  else byTitle.set(section.title, section);
  const sameAnchor = byAnchor.get(section.anchor);
  if (sameAnchor && sameAnchor.title !== section.title)
    problems.push(
      `line ${section.line}: "${section.title}" has the anchor #${section.anchor} of "${sameAnchor.title}" (line ${sameAnchor.line}); reword one title`,
    );
  else if (!sameAnchor) byAnchor.set(section.anchor, section);
}

const linked = new Map();
for (const link of links) {
  if (!byAnchor.has(link.anchor))
    problems.push(`line ${link.line}: the index links [${link.text}](#${link.anchor}), which is no section`);
  const before = linked.get(link.anchor);
  if (before)
    problems.push(
      `line ${link.line}: #${link.anchor} is linked again (first on line ${before.line}); a section belongs to one area`,
    );
  else linked.set(link.anchor, link);
}

for (const section of sections)
  if (!linked.has(section.anchor))
    problems.push(
      `line ${section.line}: "${section.title}" is missing from the index; add [${section.title}](#${section.anchor}) under its area`,
    );

if (problems.length) {
  console.error(`Decisions index out of line (${problems.length}):`);
  for (const problem of problems) console.error(`  - ${problem}`);
  process.exit(1);
}
console.log(`Decisions index agrees: ${sections.length} sections, each linked once from the index.`);
