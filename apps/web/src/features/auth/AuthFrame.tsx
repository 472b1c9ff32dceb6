import { TranslationOutlined } from '@ant-design/icons';
import { Button, Dropdown } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Branding } from '../../app/branding.ts';
import { useSession } from '../../app/session.tsx';

/** The frame of the sign-in, registration and reset pages: brand on the left, the form on the right. */
export function AuthFrame({ branding, children }: { branding: Branding | undefined; children: ReactNode }) {
  const { t } = useTranslation();
  const { setLanguage } = useSession();
  return (
    <div className="auth-page">
      <div className="auth-hero">
        {branding?.logoUrl ? (
          <img src={branding.logoUrl} alt="" style={{ maxHeight: 56, alignSelf: 'flex-start' }} />
        ) : null}
        <h1>
          {t('login.welcome')} {branding?.siteName}
        </h1>
        <p style={{ fontSize: 16, opacity: 0.9 }}>{t('login.subtitle')}</p>
      </div>
      <div className="auth-panel">
        <div className="auth-top">
          <Dropdown
            trigger={['click']}
            menu={{
              items: [
                { key: 'zh-CN', label: <span data-testid="lang-zh">简体中文</span> },
                { key: 'en-US', label: <span data-testid="lang-en">English</span> },
              ],
              onClick: ({ key }) => void setLanguage(key as 'zh-CN' | 'en-US'),
            }}
          >
            <Button type="text" icon={<TranslationOutlined />} data-testid="lang-switch">
              {t('shell.language')}
            </Button>
          </Dropdown>
        </div>
        {children}
        <div style={{ marginTop: 32, color: '#999', fontSize: 12, textAlign: 'center' }}>
          {branding?.copyright ? <div>{branding.copyright}</div> : null}
          {branding?.filingNumber ? <div data-testid="filing-number">{branding.filingNumber}</div> : null}
        </div>
      </div>
    </div>
  );
}
