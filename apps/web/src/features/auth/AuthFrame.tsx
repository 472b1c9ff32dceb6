import { TranslationOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { lazy, type ReactNode, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Branding } from '../../app/branding.ts';
import { useSession } from '../../app/session.tsx';

const LanguageMenu = lazy(() => import('./LanguageMenu.tsx'));

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
  // The switch's menu (antd's dropdown and menu, a good part of the page's script) loads once the page
  // is drawn, or as soon as the pointer reaches the button; until then the button is the same, and a click on
  // it opens the menu when it arrives.
  const [menuReady, setMenuReady] = useState(false);
  const [clicked, setClicked] = useState(false);
  useEffect(() => {
    const load = () => setMenuReady(true);
    if (typeof window.requestIdleCallback !== 'function') return void setTimeout(load, 200);
    const id = window.requestIdleCallback(load, { timeout: 1_500 });
    return () => window.cancelIdleCallback(id);
  }, []);
  const button = (
    <Button
      onPointerEnter={() => setMenuReady(true)}
      onClick={() => {
        setMenuReady(true);
        setClicked(true);
      }}
      type="text"
      icon={<TranslationOutlined />}
      // The accessible name starts with the visible text, as speech input expects.
      aria-label={`${language === 'en-US' ? 'English' : '简体中文'} - ${t('shell.language')}`}
      data-testid="lang-switch"
    >
      {language === 'en-US' ? 'English' : '简体中文'}
    </Button>
  );
  return (
    <div className={`auth-page${wide ? ' wide' : ''}`}>
      <div className="auth-hero">
        {branding?.logoUrl ? (
          <img src={branding.logoUrl} alt="" className="auth-logo" />
        ) : (
          <span className="logo-mark auth-logo">{(branding?.siteName ?? '').slice(0, 1)}</span>
        )}
        <h1>
          {t('login.welcome')} {branding?.siteName}
        </h1>
        <p style={{ fontSize: 16, opacity: 0.9 }}>{t('login.subtitle')}</p>
      </div>
      <div className="auth-panel">
        <div className="auth-top">
          {menuReady ? (
            <Suspense fallback={button}>
              <LanguageMenu openAtOnce={clicked} onPick={(language) => void setLanguage(language)}>
                {button}
              </LanguageMenu>
            </Suspense>
          ) : (
            button
          )}
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
