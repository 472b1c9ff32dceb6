import { type ReactNode, useState } from 'react';
import { MenuIcon } from '../../components/MenuIcon.tsx';
import { isMenuNode, type MenuNode } from '../session.tsx';

/**
 * The open side menu (the expanded sidebar and the phone's drawer): links and disclosure buttons in a
 * nav. antd's menu mounts a popup trigger and a motion for every group, which re-render themselves
 * inside React's commit; on a phone that made showing the drawer one long task. The folded sidebar and
 * the top menu open their groups as popups and keep antd's.
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
  // A closed group's items are drawn when it first opens, and then kept for its closing.
  const [drawn, setDrawn] = useState<ReadonlySet<string>>(() => new Set(openKeys));
  if (openKeys.some((key) => !drawn.has(key))) setDrawn(new Set([...drawn, ...openKeys]));

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
            <li key={node.paths} className={`side-menu-group${holds(node) ? ' holds-selected' : ''}`}>
              <button
                type="button"
                className="side-menu-title"
                style={indent}
                aria-expanded={open}
                aria-controls={id}
                onClick={() => onToggle(node.paths)}
              >
                {row(node)}
                <span className="side-menu-arrow" aria-hidden />
              </button>
              {drawn.has(node.paths) ? (
                <ul id={id} className="side-menu-sub" hidden={!open}>
                  {list(node.subList.filter(isMenuNode), depth + 1)}
                </ul>
              ) : null}
            </li>
          );
        }
        const current = node.paths === selected;
        return (
          <li key={node.paths}>
            <a
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
          </li>
        );
      });

  return (
    <nav className="side-menu" aria-label={props.ariaLabel} data-testid="side-menu">
      <ul>{list(props.nodes, 0)}</ul>
    </nav>
  );
}
