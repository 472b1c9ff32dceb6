import './app/zod-csp.ts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App as AntApp, ConfigProvider } from 'antd';
import enUS from 'antd/locale/en_US';
import zhCN from 'antd/locale/zh_CN';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import { StrictMode, startTransition, useEffect, useMemo } from 'react';
import { createRoot } from 'react-dom/client';
import { useTranslation } from 'react-i18next';
import { AppRoutes } from './app/App.tsx';
import { antdTheme } from './app/antd-theme.ts';
import { ErrorLogProvider } from './app/error-log.tsx';
import { useBranding } from './context/branding.ts';
import { SessionProvider } from './context/session.tsx';
import { applyShades, ThemeProvider, useTheme } from './context/theme.tsx';
import { useMediaQuery } from './hooks/useMediaQuery.ts';
import './i18n/index.ts';
// antd's component styles as one stylesheet (zero-runtime theme, app/antd-theme.ts), before the app's own.
import 'antd/dist/antd.css';
import './styles.css';

const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } },
});

function Root() {
  const { i18n } = useTranslation();
  const branding = useBranding();
  const { primaryFor } = useTheme();
  const primary = primaryFor(branding?.buttonColor);
  const en = i18n.language === 'en-US';
  const reducedMotion = useMediaQuery('(prefers-reduced-motion: reduce)');
  const theme = useMemo(() => antdTheme(primary, !reducedMotion), [primary, reducedMotion]);
  useEffect(() => applyShades(primary), [primary]);
  useEffect(() => {
    dayjs.locale(en ? 'en' : 'zh-cn');
    document.documentElement.lang = en ? 'en' : 'zh-CN';
  }, [en]);
  return (
    <ConfigProvider locale={en ? enUS : zhCN} theme={theme}>
      <AntApp message={{ duration: 3 }}>
        <ErrorLogProvider>
          <SessionProvider>
            <AppRoutes branding={branding} />
          </SessionProvider>
        </ErrorLogProvider>
      </AntApp>
    </ConfigProvider>
  );
}

const container = document.getElementById('root');
// A transition lets React render in slices that give the main thread back every few milliseconds,
// so a slow phone stays responsive while the first page builds.
if (container)
  startTransition(() =>
    createRoot(container).render(
      <StrictMode>
        <QueryClientProvider client={queryClient}>
          <ThemeProvider>
            <Root />
          </ThemeProvider>
        </QueryClientProvider>
      </StrictMode>,
    ),
  );
