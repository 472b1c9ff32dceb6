import { Dropdown } from 'antd';
import { type ReactElement, useState } from 'react';
import type { UiLanguage } from '../../i18n/index.ts';

/** The language switch's menu (antd's dropdown and menu), loaded after the page is drawn. */
export default function LanguageMenu({
  onPick,
  openAtOnce,
  children,
}: {
  onPick: (language: UiLanguage) => void;
  /** The button was clicked before the menu arrived: show it now. */
  openAtOnce: boolean;
  children: ReactElement;
}) {
  const [open, setOpen] = useState(openAtOnce);
  return (
    <Dropdown
      trigger={['click']}
      open={open}
      onOpenChange={setOpen}
      menu={{
        items: [
          { key: 'zh-CN', label: <span data-testid="lang-zh">简体中文</span> },
          { key: 'en-US', label: <span data-testid="lang-en">English</span> },
        ],
        onClick: ({ key }) => {
          setOpen(false);
          onPick(key as UiLanguage);
        },
      }}
    >
      {children}
    </Dropdown>
  );
}
