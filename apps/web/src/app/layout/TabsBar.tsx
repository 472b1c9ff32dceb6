import { CloseOutlined, DownOutlined } from '@ant-design/icons';
import { Button, Dropdown, type MenuProps, Tabs } from 'antd';
import { useTranslation } from 'react-i18next';

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
      <Tabs
        type="editable-card"
        hideAdd
        size="small"
        activeKey={active}
        onChange={(key) => {
          const tab = tabs.find((x) => x.path === key);
          if (tab) onSelect(tab);
        }}
        onEdit={(key, action) => {
          if (action === 'remove' && typeof key === 'string') onClose([key]);
        }}
        items={tabs.map((tab) => ({
          key: tab.path,
          label: (
            <Dropdown menu={menuFor(tab.path)} trigger={['contextMenu']}>
              <span data-testid={`tab-${tab.path}`}>{titleOf(tab)}</span>
            </Dropdown>
          ),
          closable: !tab.pinned,
          closeIcon: <CloseOutlined data-testid={`tab-close-${tab.path}`} />,
        }))}
      />
      {/* Beside the tabs rather than in antd's extra slot: a tab list may hold only tabs. */}
      <Dropdown menu={menuFor(active)} trigger={['click']}>
        <Button
          type="text"
          size="small"
          icon={<DownOutlined />}
          aria-label={t('shell.tabActions')}
          data-testid="tabs-actions"
        />
      </Dropdown>
    </div>
  );
}
