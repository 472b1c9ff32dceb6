import { Dropdown, type DropdownProps, Tooltip } from 'antd';
import {
  cloneElement,
  type MouseEvent,
  type PointerEvent,
  type ReactElement,
  type ReactNode,
  useState,
} from 'react';

/*
 * antd's tooltips and dropdowns each mount a popup trigger that, as it mounts, re-renders itself
 * synchronously inside React's commit; a dozen of them in the top bar and the tabs made the shell's
 * first commit one long task. These mount theirs only when first wanted, and open at once then.
 */

type Handlers = {
  onPointerEnter?: (event: PointerEvent) => void;
  onClick?: (event: MouseEvent) => void;
  onContextMenu?: (event: MouseEvent) => void;
};

/** A tooltip that mounts on the mouse's first visit to its element (hover tooltips are mouse-only). */
export function Hint({ title, children }: { title: ReactNode; children: ReactElement<Handlers> }) {
  const [wanted, setWanted] = useState(false);
  if (wanted)
    return (
      <Tooltip title={title} defaultOpen>
        {children}
      </Tooltip>
    );
  return cloneElement(children, {
    onPointerEnter: (event: PointerEvent) => {
      children.props.onPointerEnter?.(event);
      if (event.pointerType === 'mouse') setWanted(true);
    },
  });
}

/**
 * A dropdown menu that mounts on the first click (or right-click, for a context menu) on its element,
 * opening as it mounts; after that it is antd's own.
 */
export function MenuOnDemand({
  menu,
  trigger = ['click'],
  getPopupContainer,
  children,
}: Pick<DropdownProps, 'menu' | 'getPopupContainer'> & {
  trigger?: ('click' | 'contextMenu')[];
  children: ReactElement<Handlers>;
}) {
  const [wanted, setWanted] = useState(false);
  const [open, setOpen] = useState(false);
  if (wanted)
    return (
      <Dropdown
        menu={menu}
        trigger={trigger}
        open={open}
        onOpenChange={setOpen}
        getPopupContainer={getPopupContainer}
      >
        {children}
      </Dropdown>
    );
  const want = (event: MouseEvent) => {
    event.preventDefault();
    setWanted(true);
    setOpen(true);
  };
  return cloneElement(
    children,
    trigger.includes('contextMenu')
      ? { onContextMenu: want }
      : {
          onClick: (event: MouseEvent) => {
            children.props.onClick?.(event);
            want(event);
          },
        },
  );
}
