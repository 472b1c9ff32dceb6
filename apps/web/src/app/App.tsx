import { useQueryClient } from '@tanstack/react-query';
import { App as AntApp, Spin, Typography } from 'antd';
import { lazy, type ReactNode, Suspense, useDeferredValue, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BrowserRouter, Navigate, Route, Routes, useLocation, useNavigate } from 'react-router';
import type { Branding } from '../context/branding.ts';
import { flattenPages, useSession } from '../context/session.tsx';
// The sign-in page is the first page of most visits: it is part of the entry, not a second round of
// downloads behind a spinner.
import LoginPage from '../features/auth/LoginPage.tsx';
import { DOWNLOAD_CENTER_PATH, DOWNLOAD_COUNT_KEY } from '../features/downloads/public.tsx';
import { loadFeatureMessages } from '../i18n/index.ts';
import { ApiError, setHttpHooks } from '../lib/http.ts';
import { clearSession, getToken, STORAGE } from '../lib/storage.ts';
import { progressPulse, TopProgress, useProgressWhile } from './progress.tsx';
import { preloadView } from './views.ts';

const RegisterPage = lazy(() => import('../features/auth/RegisterPage.tsx'));
const ForgotPasswordPage = lazy(() => import('../features/auth/ForgotPasswordPage.tsx'));
const StatusPage = lazy(() => import('../features/status/StatusPage.tsx'));
const ErrorPage = lazy(() => import('../features/errors/ErrorPage.tsx'));

/**
 * The signed-in shell (layout, menu, views) and every feature's strings, in their own chunks: the
 * public pages never load them. Started as soon as there is a token, alongside the session calls.
 */
let shell: Promise<{ default: typeof import('./layout/AppLayout.tsx').AppLayout }> | undefined;
function loadShell() {
  if (!shell) {
    shell = Promise.all([import('./layout/AppLayout.tsx'), loadFeatureMessages()]).then(([m]) => ({
      default: m.AppLayout,
    }));
    shell.catch(() => {
      shell = undefined;
    });
  }
  return shell;
}
const AppLayout = lazy(loadShell);

function Loading() {
  const { t } = useTranslation();
  useProgressWhile();
  return (
    <div style={{ display: 'grid', placeItems: 'center', height: '100vh' }}>
      <Spin size="large" description={t('app.loading')}>
        <div style={{ width: 120, height: 60 }} />
      </Spin>
    </div>
  );
}

/** Lets the HTTP client navigate, toast and mask the page from outside React. */
function HttpBridge() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { message } = AntApp.useApp();
  const queryClient = useQueryClient();
  const [masked, setMasked] = useState(false);
  useEffect(() => {
    setHttpHooks({
      navigate: (path) => navigate(path),
      error: (text) => void message.error(text),
      loading: setMasked,
      // A big export is written in the download centre: say where, and count it on the top bar.
      exportQueued: () => {
        void queryClient.invalidateQueries({ queryKey: DOWNLOAD_COUNT_KEY });
        void message.info({
          key: 'export-queued',
          duration: 6,
          content: (
            <span data-testid="export-queued">
              {t('downloads.queued')}{' '}
              <Typography.Link
                onClick={() => navigate(DOWNLOAD_CENTER_PATH)}
                data-testid="export-queued-link"
              >
                {t('downloads.openCenter')}
              </Typography.Link>
            </span>
          ),
        });
      },
    });
  }, [navigate, message, queryClient, t]);
  return <Spin fullscreen spinning={masked} description={t('app.loading')} />;
}

/** SPEC section 9: each route change runs the top progress bar; a page still loading holds it. */
function RouteProgress() {
  const { pathname } = useLocation();
  // biome-ignore lint/correctness/useExhaustiveDependencies: the path is the trigger, not an input
  useEffect(() => progressPulse(), [pathname]);
  return <TopProgress />;
}

/** SPEC section 4, session guard: no token goes to login; with one, user info and menus load first. */
function Guard({ branding }: { branding: Branding | undefined }) {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const { loaded: sessionLoaded, loadSession, menus } = useSession();
  // The shell's first render is the largest of the app: deferred, React renders it in slices.
  const loaded = useDeferredValue(sessionLoaded);
  const location = useLocation();
  const [failed, setFailed] = useState(false);
  const loading = useRef(false);
  const token = getToken();
  if (token) void loadShell();
  // The page this visit opens on, found in the menu kept from the last visit, asked for with the shell.
  useEffect(() => {
    if (token)
      preloadView(flattenPages(menus).find((page) => page.node.paths === location.pathname)?.node.component);
  }, [token, menus, location.pathname]);
  useEffect(() => {
    if (!token || sessionLoaded || failed || loading.current) return;
    loading.current = true;
    loadSession()
      .catch((error: unknown) => {
        // SPEC sections 4 and 8: a failed info call resets the token and asks for a new sign-in.
        if (!(error instanceof ApiError && error.notified)) void message.error(t('shell.infoFailed'));
        clearSession();
        setFailed(true);
      })
      .finally(() => {
        loading.current = false;
      });
  }, [token, sessionLoaded, failed, loadSession, message, t]);
  if (!token || failed) return <Navigate to="/login" replace state={{ from: location.pathname }} />;
  if (!loaded) return <Loading />;
  return <AppLayout branding={branding} />;
}

/** /login with a live token goes to the root. */
function PublicOnly({ children }: { children: ReactNode }) {
  return getToken() ? <Navigate to="/" replace /> : children;
}

export function AppRoutes({ branding }: { branding: Branding | undefined }) {
  // SPEC section 4: a change to the stored token (another tab signed in or out) reloads the page.
  useEffect(() => {
    const onStorage = (event: StorageEvent) => {
      if (event.key === STORAGE.token) window.location.reload();
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, []);
  return (
    <BrowserRouter>
      <HttpBridge />
      <RouteProgress />
      <Suspense fallback={<Loading />}>
        <Routes>
          <Route
            path="/login"
            element={
              <PublicOnly>
                <LoginPage branding={branding} />
              </PublicOnly>
            }
          />
          <Route path="/register" element={<RegisterPage branding={branding} />} />
          <Route path="/forgotPassword" element={<ForgotPasswordPage branding={branding} />} />
          <Route path="/test" element={<StatusPage />} />
          <Route path="/test2" element={<StatusPage />} />
          <Route path="/ceshi" element={<StatusPage />} />
          <Route path="/401" element={<ErrorPage code={401} />} />
          <Route path="/404" element={<ErrorPage code={404} />} />
          <Route path="/error">
            <Route index element={<Navigate to="/404" replace />} />
            <Route path="401" element={<ErrorPage code={401} />} />
            <Route path="404" element={<ErrorPage code={404} />} />
          </Route>
          <Route path="/" element={<Navigate to="/home" replace />} />
          <Route path="*" element={<Guard branding={branding} />} />
        </Routes>
      </Suspense>
    </BrowserRouter>
  );
}
