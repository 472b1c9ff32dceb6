import { useCallback, useState } from 'react';

/**
 * A drawer or dialog whose code loads when it is first opened: whether it is open, and whether it has
 * been opened at all. It mounts on its first opening and stays mounted, so it animates as it closes.
 */
export function useOpenedOnce() {
  const [open, setOpen] = useState(false);
  const [opened, setOpened] = useState(false);
  const show = useCallback(() => {
    setOpened(true);
    setOpen(true);
  }, []);
  const hide = useCallback(() => setOpen(false), []);
  return { open, opened, show, hide };
}
