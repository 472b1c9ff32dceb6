import { TranslationOutlined } from '@ant-design/icons';
import { Button, Dropdown } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Branding } from '../../context/branding.ts';
import { useSession } from '../../context/session.tsx';

/** The frame of the sign-in, registration and reset pages: brand on the left, the form on the right. */
export function AuthFrame({
  branding,
  children,
  wide = false,
}: {
  branding: Branding | undefined;
  children: ReactNode;
  /** The registration form needs more room than the sign-in form. */
  wide?: boolean;
}) {
  const { t } = useTranslation();
  const { language, setLanguage } = useSession();
  return (
    <div className={`auth-page${wide ? ' wide' : ''}`}>
      <div className="auth-hero">
        {branding?.logoUrl ? (
          <img src={branding.logoUrl} alt="" className="auth-logo" />
        ) : (
          <span className="logo-mark auth-logo">{(branding?.siteName ?? '').slice(0, 1)}</span>
        )}
        <h1 data-testid="auth-welcome">{t('login.welcome', { site: branding?.siteName ?? '' })}</h1>
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
            <Button
              type="text"
              icon={<TranslationOutlined />}
              // The accessible name starts with the visible text, as speech input expects.
              aria-label={`${language === 'en-US' ? 'English' : '简体中文'} - ${t('shell.language')}`}
              data-testid="lang-switch"
            >
              {language === 'en-US' ? 'English' : '简体中文'}
            </Button>
          </Dropdown>
        </div>
        <div className="auth-form">{children}</div>
        <div className="auth-footer">
          {branding?.copyright ? <div>{branding.copyright}</div> : null}
          {branding?.filingNumber ? <div data-testid="filing-number">{branding.filingNumber}</div> : null}
        </div>
      </div>
    </div>
  );
}
