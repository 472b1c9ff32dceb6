import { Dropdown, type DropdownProps, Tooltip } from 'antd';
import {
  cloneElement,
  type MouseEvent,
  type PointerEvent,
  type ReactElement,
  type ReactNode,
  useEffect,
  useRef,
  useState,
} from 'react';

/*
 * antd's tooltips and dropdowns each mount a popup trigger that, as it mounts, re-renders itself
 * synchronously inside React's commit; a dozen of them in the top bar and the tabs made the shell's
 * first commit one long task. These mount theirs only when first wanted, and open at once then.
 */

type Handlers = {
  onPointerEnter?: (event: PointerEvent) => void;
  onPointerDown?: (event: PointerEvent) => void;
  onPointerLeave?: (event: PointerEvent) => void;
  onClick?: (event: MouseEvent) => void;
  onContextMenu?: (event: MouseEvent) => void;
};

/**
 * A tooltip that mounts on the mouse's first visit to its element (hover tooltips are mouse-only),
 * after antd's own delay of 0.1 s. Mounting it puts a new element in the old one's place, so never while
 * a press is under way: a click pressed on the old element and released on the new one would be lost.
 */
export function Hint({ title, children }: { title: ReactNode; children: ReactElement<Handlers> }) {
  const [wanted, setWanted] = useState(false);
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);
  if (wanted)
    return (
      <Tooltip title={title} defaultOpen>
        {children}
      </Tooltip>
    );
  const cancel = () => window.clearTimeout(timer.current);
  return cloneElement(children, {
    onPointerEnter: (event: PointerEvent) => {
      children.props.onPointerEnter?.(event);
      cancel();
      if (event.pointerType === 'mouse') timer.current = window.setTimeout(() => setWanted(true), 100);
    },
    onPointerDown: (event: PointerEvent) => {
      children.props.onPointerDown?.(event);
      cancel();
    },
    onPointerLeave: (event: PointerEvent) => {
      children.props.onPointerLeave?.(event);
      cancel();
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
