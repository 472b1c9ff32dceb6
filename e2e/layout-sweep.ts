import { expect as baseExpect, type Page } from '@playwright/test';
import { api, bookPaidOrder, bookWaybill, screenshotDir, switchLanguage, truckShipment } from './fixtures.ts';

/**
 * The layout sweep of list-layout.spec.ts and list-layout-staff.spec.ts: every list page of a user's
 * menu, on a phone and a desktop, in both languages, looked at for cells under pinned columns.
 */

// A page loads slowly on a machine the whole team shares: each step may take a while to show.
const expect = baseExpect.configure({ timeout: 30_000 });

interface MenuNode {
  paths: string;
  component: string;
  is_show: 0 | 1;
  subList?: (MenuNode | { component: string })[];
}

/** Every page the user's menu shows, depth first. */
function menuPages(nodes: MenuNode[]): string[] {
  return nodes.flatMap((node) => {
    const children = (node.subList ?? []).filter((child): child is MenuNode => 'paths' in child);
    if (node.component === 'Layout' || node.component === 'EmptyLayout') return menuPages(children);
    return node.is_show === 1 ? [node.paths] : [];
  });
}

/**
 * Opens a page inside the running app (as the menu does), and waits until its lists have answered. The
 * page left keeps showing until the next one has loaded: its tables are marked, and looked at no more
 * once hidden, so a page's faults are never another's.
 */
export async function visit(page: Page, path: string) {
  await page.evaluate((to) => {
    for (const table of Array.from(document.querySelectorAll<HTMLElement>('.app-content .ant-table'))) {
      if (table.offsetParent === null) table.removeAttribute('data-page-left');
      else table.setAttribute('data-page-left', '');
    }
    history.pushState({}, '', to);
    dispatchEvent(new PopStateEvent('popstate'));
  }, path);
  await expect(page).toHaveURL(new RegExp(`${path.replace(/[?]/g, '\\?')}$`));
  await expect(page.locator('.app-content .ant-table[data-page-left]:visible')).toHaveCount(0);
  await page.waitForLoadState('networkidle');
  // The page's chunk, then its rows: no spinner left in the visible page.
  await expect(page.locator('.app-content .ant-spin-spinning:visible')).toHaveCount(0, { timeout: 20_000 });
}

const PINNED =
  '.ant-table-cell-fix-start, .ant-table-cell-fix-end, .ant-table-cell-fix-left, .ant-table-cell-fix-right';

/**
 * What is wrong with the visible tables as drawn: a pinned cell over a pinned cell of the other side, a
 * cell beneath a pinned neighbour (looked at scrolled to the start, where the left-pinned columns sit
 * beside their neighbours and the list opens, and to the end, where the right-pinned ones sit beside
 * theirs), text running out of its cell, or a number (order, waybill, tracking) broken over two lines.
 */
export async function tableFaults(page: Page, root = '.app-content'): Promise<string[]> {
  return page.evaluate(
    async ({ root, pinned }) => {
      const faults: string[] = [];
      const overlap = (a: DOMRect, b: DOMRect) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 1;
      const label = (cell: Element) => (cell.textContent ?? '').trim().slice(0, 24) || '(empty)';
      const frame = () =>
        new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
      const isStart = (cell: Element) => cell.matches('.ant-table-cell-fix-start, .ant-table-cell-fix-left');
      const isEnd = (cell: Element) => cell.matches('.ant-table-cell-fix-end, .ant-table-cell-fix-right');
      // A pinned cell is pinned only while it sticks; a phone's layout may let it scroll with the rest.
      const sticks = (cell: Element) => getComputedStyle(cell).position === 'sticky';
      for (const table of Array.from(document.querySelectorAll<HTMLElement>(`${root} .ant-table`))) {
        if (table.offsetParent === null) continue;
        const scroller =
          table.querySelector<HTMLElement>('.ant-table-content') ??
          table.querySelector<HTMLElement>('.ant-table-body');
        const rows = Array.from(table.querySelectorAll('tr')).filter((row) => row.querySelector('td'));
        for (const end of ['start', 'end'] as const) {
          if (scroller) scroller.scrollLeft = end === 'start' ? 0 : scroller.scrollWidth;
          await frame();
          for (const row of rows) {
            const cells = Array.from(row.children) as HTMLTableCellElement[];
            if (cells.some((cell) => cell.colSpan > 1)) continue;
            cells.forEach((cell, index) => {
              const box = cell.getBoundingClientRect();
              if (box.width === 0) return;
              const start = isStart(cell) && sticks(cell);
              const finish = isEnd(cell) && sticks(cell);
              if (start)
                for (const other of cells.filter((c) => isEnd(c) && sticks(c)))
                  if (overlap(box, other.getBoundingClientRect()))
                    faults.push(`pinned "${label(cell)}" covers pinned "${label(other)}"`);
              const next = cells[index + 1];
              const previous = cells[index - 1];
              if (start && end === 'start' && next && !next.matches(pinned))
                if (overlap(box, next.getBoundingClientRect()))
                  faults.push(`"${label(next)}" runs under pinned "${label(cell)}"`);
              if (finish && end === 'end' && previous && !previous.matches(pinned))
                if (overlap(box, previous.getBoundingClientRect()))
                  faults.push(`"${label(previous)}" runs under pinned "${label(cell)}"`);
              // As the list opens the right-pinned column sticks to the screen's edge: a table wider
              // than the screen leaves its last ordinary column beneath it.
              if (finish && end === 'start' && previous && !previous.matches(pinned))
                if (overlap(box, previous.getBoundingClientRect()))
                  faults.push(`"${label(previous)}" sits under pinned "${label(cell)}" as the list opens`);
              if (end !== 'start') return;
              // The cell's text stays inside the cell (an ellipsis cuts it on purpose).
              const range = document.createRange();
              range.selectNodeContents(cell);
              const text = range.getBoundingClientRect();
              const cut = '.ant-table-cell-ellipsis, .ant-typography-ellipsis';
              if (text.width > 0 && !cell.matches(cut) && !cell.querySelector(cut))
                if (text.right > box.right + 1 || text.left < box.left - 1)
                  faults.push(`"${label(cell)}" runs out of its cell`);
              // A number reads on one line.
              const words = (cell.textContent ?? '').trim();
              if (/^[A-Z]{0,4}\d[\dA-Z-]{7,}$/.test(words)) {
                const lines = new Set(Array.from(range.getClientRects(), (r) => Math.round(r.top)));
                if (lines.size > 1) faults.push(`number ${words} breaks over ${lines.size} lines`);
              }
            });
          }
        }
        if (scroller) scroller.scrollLeft = 0;
      }
      return Array.from(new Set(faults));
    },
    { root, pinned: PINNED },
  );
}

/**
 * Rows for the order and key lists, made by the customer on `page`: a truck order, a paid waybill and
 * one still to pay (its number is returned), and a key with every scope and a long name, used once and
 * revoked (its widest row on the key list).
 */
export async function seedListRows(page: Page): Promise<string> {
  await bookPaidOrder(page);
  await bookWaybill(page, true);
  const unpaid = await bookWaybill(page, false);
  const key = await api(page, '/admin/apiKey/create', {
    name: 'Warehouse system integration key for the night shift',
    scopes: ['quote', 'book', 'pay', 'track', 'upload'],
  });
  const used = await page.request.post('/api/admin/quotation/save', {
    data: truckShipment(),
    headers: { apiId: key.prefix, userKey: key.key },
  });
  expect((await used.json()).code).toBe(200);
  await api(page, '/admin/apiKey/revoke', { id: key.id });
  return unpaid;
}

/**
 * Visits every list page of the signed-in user's menu at 390 px in Chinese and at 1440 px in Chinese
 * and in English (English words run longer), and expects no table fault on any; the express order
 * list must have had rows to look at.
 */
export async function sweepMenu(page: Page, who: string) {
  const pages = menuPages(await api(page, '/menu/navigate', {}));
  expect(pages).toContain('/expressOrderList');
  const found: Record<string, string[]> = {};
  for (const [width, language] of [
    [390, 'zh'],
    [1440, 'zh'],
    [1440, 'en'],
  ] as const) {
    await page.setViewportSize({ width, height: 900 });
    if (language === 'en') await switchLanguage(page, 'en');
    for (const path of pages) {
      await visit(page, path);
      const faults = await tableFaults(page);
      if (faults.length === 0) continue;
      found[`${path} at ${width} px in ${language}`] = faults.slice(0, 4);
      await page.screenshot({
        path: `${screenshotDir}list-fault-${who}${path.replaceAll('/', '-')}-${width}-${language}.png`,
      });
    }
  }
  await switchLanguage(page, 'zh');
  await visit(page, '/expressOrderList');
  await expect(page.locator('.app-content tr.ant-table-row:visible').first()).toBeVisible();
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `${screenshotDir}list-express-orders-${who}-390.png` });
  expect(found).toEqual({});
  await page.setViewportSize({ width: 1440, height: 900 });
}
