import { Button, Divider, Drawer, Radio, Space, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { type ThemeName, useTheme } from '../../context/theme.tsx';

export function ThemeDrawer({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const { settings, update, reset } = useTheme();
  return (
    <Drawer title={t('theme.title')} open={open} onClose={onClose} size={320} data-testid="theme-drawer">
      <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
        <div>{t('theme.name')}</div>
        <Radio.Group
          value={settings.theme}
          onChange={(e) => update({ theme: e.target.value as ThemeName })}
          optionType="button"
          options={[
            { value: 'default', label: <span data-testid="theme-default">{t('theme.default')}</span> },
            { value: 'green', label: <span data-testid="theme-green">{t('theme.green')}</span> },
            { value: 'glory', label: <span data-testid="theme-glory">{t('theme.glory')}</span> },
          ]}
        />
        <Divider style={{ margin: '4px 0' }} />
        <div>{t('theme.layout')}</div>
        <Radio.Group
          value={settings.layout}
          onChange={(e) => update({ layout: e.target.value })}
          optionType="button"
          options={[
            { value: 'vertical', label: <span data-testid="layout-vertical">{t('theme.vertical')}</span> },
            {
              value: 'horizontal',
              label: <span data-testid="layout-horizontal">{t('theme.horizontal')}</span>,
            },
          ]}
        />
        <Space>
          <Switch
            checked={settings.fixedHeader}
            onChange={(fixedHeader) => update({ fixedHeader })}
            data-testid="theme-fixed-header-switch"
          />
          {t('theme.fixedHeader')}
        </Space>
        <Space>
          <Switch
            checked={settings.tabs}
            onChange={(tabs) => update({ tabs })}
            data-testid="theme-tabs-switch"
          />
          {t('theme.tabs')}
        </Space>
        <Button onClick={reset} data-testid="theme-reset">
          {t('theme.reset')}
        </Button>
      </Space>
    </Drawer>
  );
}
