import { CloseOutlined, DownOutlined } from '@ant-design/icons';
import { Button, Dropdown, Tabs } from 'antd';
import { useTranslation } from 'react-i18next';

export interface VisitedTab {
  path: string;
  search: string;
  pinned: boolean;
}

/**
 * Tabs of visited routes (SPEC section 2): pinned tabs never close; close others, left, right or all;
 * closing the active tab goes to the last remaining one.
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
  const index = tabs.findIndex((tab) => tab.path === active);
  const closable = (list: VisitedTab[]) => list.filter((tab) => !tab.pinned).map((tab) => tab.path);
  const menu = {
    items: [
      { key: 'others', label: t('shell.closeOthers') },
      { key: 'left', label: t('shell.closeLeft') },
      { key: 'right', label: t('shell.closeRight') },
      { key: 'all', label: t('shell.closeAll') },
    ],
    onClick: ({ key }: { key: string }) => {
      if (key === 'others') onClose(closable(tabs.filter((tab) => tab.path !== active)));
      if (key === 'left') onClose(closable(tabs.slice(0, Math.max(index, 0))));
      if (key === 'right') onClose(closable(tabs.slice(index + 1)));
      if (key === 'all') onClose(closable(tabs));
    },
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
          label: <span data-testid={`tab-${tab.path}`}>{titleOf(tab)}</span>,
          closable: !tab.pinned,
          closeIcon: <CloseOutlined data-testid={`tab-close-${tab.path}`} />,
        }))}
        tabBarExtraContent={
          <Dropdown menu={menu} trigger={['click']}>
            <Button type="text" size="small" icon={<DownOutlined />} data-testid="tabs-actions" />
          </Dropdown>
        }
      />
    </div>
  );
}
