import { CloseOutlined, DownOutlined } from '@ant-design/icons';
import { Button, type MenuProps } from 'antd';
import { useCallback, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { MenuOnDemand } from '../../components/OnDemand.tsx';
import { focusByArrows } from '../../lib/arrow-keys.ts';

export interface VisitedTab {
  path: string;
  search: string;
  pinned: boolean;
}

type CloseAction = 'others' | 'left' | 'right' | 'all';

/**
 * Tabs of visited routes (SPEC section 2): pinned tabs never close; close others, left, right or all,
 * from the bar's menu (relative to the active tab) or a tab's right-click menu (relative to that tab).
 * Where the user goes after the active tab closes is the caller's business.
 */
export function TabsBar({
  tabs,
  titleOf,
  active,
  onSelect,
  onClose,
}: {
  tabs: VisitedTab[];
  titleOf: (tab: VisitedTab) => string;
  active: string;
  onSelect: (tab: VisitedTab) => void;
  onClose: (paths: string[]) => void;
}) {
  const { t } = useTranslation();
  // The active tab scrolls into sight when it changes, not as the bar first draws (the page's first
  // layout would be forced inside the shell's first task).
  const shownActive = useRef(active);
  const showActive = useCallback(
    (element: HTMLDivElement | null) => {
      if (!element || shownActive.current === active) return;
      shownActive.current = active;
      element.scrollIntoView({ block: 'nearest', inline: 'nearest' });
    },
    [active],
  );
  const closable = (list: VisitedTab[]) => list.filter((tab) => !tab.pinned).map((tab) => tab.path);

  const pathsFor = (action: CloseAction, around: string): string[] => {
    const index = tabs.findIndex((tab) => tab.path === around);
    if (action === 'others') return closable(tabs.filter((tab) => tab.path !== around));
    if (action === 'left') return closable(tabs.slice(0, Math.max(index, 0)));
    if (action === 'right') return closable(tabs.slice(index + 1));
    return closable(tabs);
  };

  const menuFor = (around: string): MenuProps => {
    const index = tabs.findIndex((tab) => tab.path === around);
    return {
      items: [
        { key: 'others', label: t('shell.closeOthers'), disabled: pathsFor('others', around).length === 0 },
        {
          key: 'left',
          label: t('shell.closeLeft'),
          disabled: index <= 0 || !pathsFor('left', around).length,
        },
        { key: 'right', label: t('shell.closeRight'), disabled: !pathsFor('right', around).length },
        { key: 'all', label: t('shell.closeAll'), disabled: pathsFor('all', around).length === 0 },
      ],
      onClick: ({ key, domEvent }) => {
        domEvent.stopPropagation();
        onClose(pathsFor(key as CloseAction, around));
      },
    };
  };

  return (
    <div className="tabs-bar" data-testid="tabs-bar">
      {/* Plain buttons with antd's tab roles rather than antd's tabs, which measure every tab inside
          React's commit. */}
      <div
        className="tabs-strip"
        role="tablist"
        aria-label={t('shell.openPages')}
        onKeyDown={(event) =>
          focusByArrows(event, '[role="tab"]', { previous: 'ArrowLeft', next: 'ArrowRight' })
        }
      >
        {tabs.map((tab) => {
          const current = tab.path === active;
          const title = titleOf(tab);
          return (
            <div
              key={tab.path}
              className={`tabs-tab${current ? ' active' : ''}`}
              ref={current ? showActive : undefined}
            >
              <MenuOnDemand menu={menuFor(tab.path)} trigger={['contextMenu']}>
                <button
                  type="button"
                  role="tab"
                  className="tabs-tab-title"
                  aria-selected={current}
                  onClick={() => (current ? undefined : onSelect(tab))}
                  data-testid={`tab-${tab.path}`}
                >
                  {title}
                </button>
              </MenuOnDemand>
              {tab.pinned ? null : (
                <button
                  type="button"
                  className="tabs-tab-close"
                  aria-label={t('shell.closeTab', { title })}
                  onClick={() => onClose([tab.path])}
                >
                  <CloseOutlined data-testid={`tab-close-${tab.path}`} />
                </button>
              )}
            </div>
          );
        })}
      </div>
      <MenuOnDemand menu={menuFor(active)}>
        <Button
          type="text"
          size="small"
          icon={<DownOutlined />}
          aria-label={t('shell.tabActions')}
          data-testid="tabs-actions"
        />
      </MenuOnDemand>
    </div>
  );
}
