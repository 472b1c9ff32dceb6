import type { KeyboardEvent } from 'react';

/**
 * Moves the focus among a container's shown items by the arrow keys given, Home and End, as the
 * keyboard does in a menu or a tab list. Returns whether it moved.
 */
export function focusByArrows(
  event: KeyboardEvent<HTMLElement>,
  selector: string,
  keys: { previous: string; next: string },
): boolean {
  const items = [...event.currentTarget.querySelectorAll<HTMLElement>(selector)].filter(
    (item) => item.offsetParent !== null,
  );
  const at = items.indexOf(document.activeElement as HTMLElement);
  if (at < 0) return false;
  const target = {
    [keys.previous]: items[at - 1] ?? items[items.length - 1],
    [keys.next]: items[at + 1] ?? items[0],
    Home: items[0],
    End: items[items.length - 1],
  }[event.key];
  if (!target) return false;
  event.preventDefault();
  target.focus();
  return true;
}
