import { labelContent } from './label.ts';
import type { WaybillRow } from './service.ts';

/**
 * Labels in ZPL II for thermal printers (Zebra and compatibles), which print it without a driver: the
 * PDF label's content on 4 × 6 inches at 203 dots an inch, the resolution of most such printers (a
 * 300 dpi printer prints it smaller, not wrong).
 */
const WIDTH = 812;
const LENGTH = 1218;
const MARGIN = 30;
const INNER = WIDTH - 2 * MARGIN;

/**
 * Characters of font 0 (a condensed sans) that fit a line, by its width in dots: 0.6 of the width is
 * wider than its average letter, so a line of ordinary text cut here stays inside the block.
 */
const fitting = (fontWidth: number) => Math.floor(INNER / (fontWidth * 0.6));

const hexByte = (byte: number) => `_${byte.toString(16).toUpperCase().padStart(2, '0')}`;

/** `^` and `~` start commands, and `_` starts a hex escape in a field with `^FH_`. */
const COMMAND_CHARACTERS = new Set(['^', '~', '_']);

/**
 * Field data that prints as it reads and never as commands: command characters and every byte
 * outside printable ASCII (UTF-8, read so by `^CI28`) go as `_XX`; `own` names the field's own
 * escapes of characters that are plain elsewhere.
 */
function fieldData(text: string, own: Readonly<Record<string, string>>): string {
  let out = '';
  for (const char of text) {
    const ownEscape = own[char];
    if (ownEscape !== undefined) out += ownEscape;
    else if (char >= ' ' && char <= '~' && !COMMAND_CHARACTERS.has(char)) out += char;
    else for (const byte of Buffer.from(char, 'utf8')) out += hexByte(byte);
  }
  return out;
}

/** Text for a `^FB` block, which reads `\&` as a line break, so `\` is doubled. */
const zplText = (text: string) => fieldData(text, { '\\': '\\\\' });

/**
 * Code 128 data in mode N, where `>` starts an invocation, so a literal one is `><`. Tracking numbers
 * are letters and digits; this only keeps an odd one inert.
 */
const barcodeData = (text: string) => fieldData(text, { '>': '><' });

/** Control characters (a pasted line break, a tab) would print as nothing useful: a space instead. */
const printable = (text: string) => text.replace(/\p{Cc}+/gu, ' ').trim();

/**
 * Lines word-wrapped to `budget` characters, each into at most `linesEach` and all into at most
 * `maxLines`: what does not fit is cut rather than left to run off the label or over the block's last
 * line, and one long line cannot push the others out.
 */
function fitLines(lines: readonly string[], budget: number, linesEach: number, maxLines: number): string[] {
  return lines.flatMap((line) => wrap(printable(line), budget, linesEach)).slice(0, maxLines);
}

/** Breaks at the last space that fits (mid-word when none does); the last line allowed is cut. */
function wrap(line: string, budget: number, maxLines: number): string[] {
  const wrapped: string[] = [];
  let rest = line;
  while (rest && wrapped.length < maxLines) {
    const chars = [...rest];
    if (chars.length <= budget || wrapped.length === maxLines - 1) {
      wrapped.push(chars.slice(0, budget).join('').trimEnd());
      break;
    }
    // Indexes in `rest`: the first `budget` characters (plus the one after, a space allowed) as text.
    const space = chars
      .slice(0, budget + 1)
      .join('')
      .lastIndexOf(' ');
    const cut = space > 0 ? space : chars.slice(0, budget).join('').length;
    wrapped.push(rest.slice(0, cut).trimEnd());
    rest = rest.slice(cut).trimStart();
  }
  return wrapped;
}

interface Block {
  y: number;
  /** Font height and width in dots. */
  font: [number, number];
  lines: readonly string[];
  /** Lines of the block, and lines each of `lines` may wrap into (1: cut to one). */
  maxLines?: number;
  linesEach?: number;
  /** Dots between lines. */
  spacing?: number;
  justify?: 'L' | 'C';
}

/** A text block the width of the label: `^FB` holds its lines to the width and to their count. */
function textBlock(block: Block) {
  const { y, font, lines, maxLines = 1, linesEach = 1, spacing = 0, justify = 'L' } = block;
  const [height, width] = font;
  const fitted = fitLines(lines, fitting(width), linesEach, maxLines);
  if (fitted.length === 0) return '';
  const data = fitted.map(zplText).join('\\&');
  return `^FO${MARGIN},${y}^A0N,${height},${width}^FB${INNER},${fitted.length},${spacing},${justify},0^FH_^FD${data}^FS`;
}

const rule = (y: number) => `^FO${MARGIN},${y}^GB${INNER},3,3^FS`;

/**
 * A Code 128 barcode centred on the label: the widest bars (2 to 4 dots) that fit the number with
 * its quiet zones, counted as subset B (11 modules a character, 35 for start, check and stop).
 */
function barcode(trackingNo: string, y: number, height: number) {
  const modules = 11 * [...trackingNo].length + 35;
  const bar = Math.max(2, Math.min(4, Math.floor(INNER / (modules + 20))));
  const x = Math.max(MARGIN, Math.floor((WIDTH - modules * bar) / 2));
  return `^FO${x},${y}^BY${bar}^BCN,${height},N,N,N^FH_^FD${barcodeData(trackingNo)}^FS`;
}

/** One label, `^XA` to `^XZ`, laid out as the PDF's page is (its points times 2.82 dots). */
function labelZpl(waybill: WaybillRow): string {
  const label = labelContent(waybill);
  return [
    '^XA',
    // UTF-8 for the hex-escaped bytes, the label's size, and the origin at its corner.
    '^CI28',
    `^PW${WIDTH}`,
    `^LL${LENGTH}`,
    '^LH0,0',
    textBlock({ y: 30, font: [50, 40], lines: [label.heading] }),
    textBlock({ y: 92, font: [28, 28], lines: [label.channel] }),
    rule(134),
    textBlock({ y: 146, font: [22, 22], lines: ['FROM'] }),
    textBlock({ y: 172, font: [26, 26], lines: label.from, maxLines: 7, linesEach: 2, spacing: 4 }),
    rule(392),
    textBlock({ y: 404, font: [22, 22], lines: ['SHIP TO'] }),
    textBlock({ y: 430, font: [40, 40], lines: label.to, maxLines: 8, linesEach: 2, spacing: 6 }),
    rule(806),
    textBlock({ y: 818, font: [26, 26], lines: label.details, maxLines: 3, spacing: 6 }),
    barcode(label.trackingNo, 935, 160),
    textBlock({ y: 1105, font: [40, 40], lines: [label.trackingNo], justify: 'C' }),
    textBlock({ y: 1152, font: [22, 22], lines: ['TRACKING #'], justify: 'C' }),
    '^XZ',
  ]
    .filter(Boolean)
    .join('\n');
}

/** The labels of many waybills in one file, in the order given: a printer prints them one after another. */
export function waybillZpl(waybills: readonly WaybillRow[]): string {
  return `${waybills.map(labelZpl).join('\n')}\n`;
}
