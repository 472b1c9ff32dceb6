import type { KeyboardEvent, ReactNode } from 'react';
import { MenuIcon } from '../../components/MenuIcon.tsx';
import { isMenuNode, type MenuNode } from '../../context/session.tsx';
import { focusByArrows } from '../../lib/arrow-keys.ts';

/**
 * The open side menu (the expanded sidebar and the phone's drawer): a menu of links to each page's
 * address and of groups that open in place, with antd's menu roles and keys (arrows move, right and
 * left open and fold a group). antd's menu mounts a popup trigger and a motion for every group, which
 * re-render themselves inside React's commit; on a phone that made showing the drawer one long task.
 * The folded sidebar and the top menu open their groups as popups and keep antd's.
 */
export function SideMenu(props: {
  nodes: MenuNode[];
  selected: string;
  openKeys: string[];
  onToggle: (key: string) => void;
  onGo: (path: string) => void;
  label: (node: MenuNode) => string;
  badgeFor: (node: MenuNode) => ReactNode;
  ariaLabel: string;
}) {
  const { selected, openKeys, onToggle, onGo, label, badgeFor } = props;
  const holds = (node: MenuNode): boolean =>
    node.paths === selected || node.subList.some((child) => isMenuNode(child) && holds(child));

  const row = (node: MenuNode) => (
    <>
      <MenuIcon name={node.icon} />
      <span className="menu-label" title={label(node)} data-testid={`menu-${node.paths}`}>
        <span className="menu-text">{label(node)}</span>
        {badgeFor(node)}
      </span>
    </>
  );

  const list = (nodes: MenuNode[], depth: number): ReactNode =>
    nodes
      .filter((node) => node.is_show === 1)
      .map((node) => {
        const indent = { paddingInlineStart: 24 * (depth + 1) };
        if (node.haveChildMenu === 1) {
          const open = openKeys.includes(node.paths);
          const id = `side-menu-${node.id}`;
          return (
            <div
              key={node.paths}
              role="none"
              className={`side-menu-group${holds(node) ? ' holds-selected' : ''}`}
            >
              <button
                type="button"
                role="menuitem"
                className="side-menu-title"
                style={indent}
                aria-haspopup="true"
                aria-expanded={open}
                aria-controls={open ? id : undefined}
                data-group={node.paths}
                onClick={() => onToggle(node.paths)}
              >
                {row(node)}
                <span className="side-menu-arrow" aria-hidden />
              </button>
              {/* A group's items are drawn only while it is open. */}
              {open ? (
                <div id={id} role="menu" className="side-menu-sub">
                  {list(node.subList.filter(isMenuNode), depth + 1)}
                </div>
              ) : null}
            </div>
          );
        }
        const current = node.paths === selected;
        return (
          <div key={node.paths} role="none">
            <a
              role="menuitem"
              href={node.paths}
              className={`side-menu-item${current ? ' selected' : ''}`}
              style={indent}
              aria-current={current ? 'page' : undefined}
              onClick={(event) => {
                // A click with a modifier opens the page in a new tab, as a link does.
                if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
                event.preventDefault();
                onGo(node.paths);
              }}
            >
              {row(node)}
            </a>
          </div>
        );
      });

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (focusByArrows(event, '[role="menuitem"]', { previous: 'ArrowUp', next: 'ArrowDown' })) return;
    const group = (document.activeElement as HTMLElement | null)?.dataset.group;
    if (!group) return;
    const open = openKeys.includes(group);
    if ((event.key === 'ArrowRight' && !open) || (event.key === 'ArrowLeft' && open)) {
      event.preventDefault();
      onToggle(group);
    }
  };

  return (
    <nav className="side-menu" aria-label={props.ariaLabel} data-testid="side-menu">
      <div role="menu" onKeyDown={onKeyDown}>
        {list(props.nodes, 0)}
      </div>
    </nav>
  );
}
