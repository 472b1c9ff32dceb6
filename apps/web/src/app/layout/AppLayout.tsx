import {
  BgColorsOutlined,
  CarOutlined,
  ExpandOutlined,
  FileExcelOutlined,
  MenuFoldOutlined,
  MenuUnfoldOutlined,
  NotificationOutlined,
  ProfileOutlined,
  ReloadOutlined,
  TranslationOutlined,
} from '@ant-design/icons';
import { flattenMenu } from '@freight/contracts/menu';
import type { MenuProps } from 'antd';
import { App, Badge, Breadcrumb, Button, Drawer, Layout, Menu, Space, Spin } from 'antd';
import {
  Activity,
  lazy,
  memo,
  type ReactNode,
  Suspense,
  startTransition,
  useEffect,
  useMemo,
  useState,
} from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { ComingSoon } from '../../components/ComingSoon.tsx';
import { ErrorBoundary } from '../../components/ErrorBoundary.tsx';
import { MenuIcon } from '../../components/MenuIcon.tsx';
import { Hint, MenuOnDemand } from '../../components/OnDemand.tsx';
import { PrivateAvatar } from '../../components/PrivateAvatar.tsx';
import type { Branding } from '../../context/branding.ts';
import { PageContext } from '../../context/page-context.tsx';
import {
  allowedMenus,
  flattenPages,
  isMenuNode,
  type MenuNode,
  routeAllowed,
  useSession,
  useWaitCounts,
} from '../../context/session.tsx';
import { useTheme } from '../../context/theme.tsx';
import { FeatureUpdatesEntry } from '../../features/changelog/public.tsx';
import { DOWNLOAD_CENTER_PATH, DownloadCenterButton } from '../../features/downloads/public.tsx';
import { useNoticePopups } from '../../features/notices/NoticePopups.ts';
import { FreightRulesEntry } from '../../features/truck-products/FreightRulesEntry.tsx';
import { useMediaQuery } from '../../hooks/useMediaQuery.ts';
import { useOpenedOnce } from '../../hooks/useOpenedOnce.ts';
import { ErrorLogButton } from '../error-log.tsx';
import { useProgressWhile } from '../progress.tsx';
import { VIEWS } from '../views.ts';
import { AdStrip } from './AdStrip.tsx';
import { BackToTop } from './BackToTop.tsx';
import { NoticeBell } from './NoticeBell.tsx';
import { SideMenu } from './SideMenu.tsx';
import { TabsBar, type VisitedTab } from './TabsBar.tsx';

const { Header, Sider, Content, Footer } = Layout;

/** A page whose code is still on its way: the loading text, and the top bar held open. */
function PageLoading() {
  const { t } = useTranslation();
  useProgressWhile();
  return <Spin style={{ display: 'block', margin: 48 }} description={t('app.loading')} />;
}
// The batch dialogs (sheets, tables, uploads) load when first opened, not with every page of the shell.
const TruckBatchDialog = lazy(() =>
  import('../../features/truck-orders/TruckBatchDialog.tsx').then((m) => ({ default: m.TruckBatchDialog })),
);
const ExpressBatchDialog = lazy(() =>
  import('../../features/express-waybills/ExpressBatchDialog.tsx').then((m) => ({
    default: m.ExpressBatchDialog,
  })),
);
// So does the theme drawer.
const ThemeDrawer = lazy(() => import('./ThemeDrawer.tsx').then((m) => ({ default: m.ThemeDrawer })));
const HOME = '/home';
const KEEP_ALIVE_MAX = 99;
const PRODUCT_PATHS = new Set(flattenMenu().map((m) => m.path));

/** Ids that carry waiting-count badges (SPEC section 2). */
const DOT_FOR = { 8: 'waitNum', 110: 'expressWaitNum' } as const;
const COUNT_FOR = { 26: 'waitNum', 122: 'expressWaitNum' } as const;

/**
 * The visited tab list after a visit to `path`: home always first and pinned, the visited page added or
 * its query renewed, at most 99 kept pages (SPEC section 9) with the oldest unpinned one making room.
 * The same list when nothing changes, so a repeated visit renders nothing.
 */
function visited(list: VisitedTab[], path: string, search: string, homeTab: boolean): VisitedTab[] {
  let next = list;
  if (homeTab && !next.some((tab) => tab.path === HOME))
    next = [{ path: HOME, search: '', pinned: true }, ...next];
  const at = next.findIndex((tab) => tab.path === path);
  if (at >= 0 && next[at]?.search === search) return next;
  const entry = { path, search, pinned: path === HOME };
  if (at >= 0) return next.map((tab, i) => (i === at ? entry : tab));
  next = [...next, entry];
  if (next.length > KEEP_ALIVE_MAX) {
    const oldest = next.findIndex((tab) => !tab.pinned);
    next = next.filter((_, i) => i !== oldest);
  }
  return next;
}

type Page = { node: MenuNode; parents: MenuNode[] };

/**
 * The pages of the visited tabs. Visited pages stay mounted but hidden (keep-alive), except the ones the
 * SPEC says are not cached. Memoised: the shell around them (badges, notices, menus) re-renders without
 * rendering the pages again.
 */
const PageStack = memo(function PageStack(props: {
  tabs: VisitedTab[];
  path: string;
  search: string;
  reloadKey: number;
  byPath: Map<string, Page>;
  en: boolean;
}) {
  const { tabs, path, search, reloadKey, byPath, en } = props;
  const label = (node: MenuNode) => (en ? node.name_en : node.name);
  const renderPage = (tab: VisitedTab) => {
    const page = byPath.get(tab.path);
    if (!page) return null;
    const View = VIEWS[page.node.component]?.Component;
    const buttons = page.node.subList.filter((b) => !isMenuNode(b)).map((b) => b.component);
    return (
      <PageContext.Provider value={{ path: tab.path, search: tab.search, title: label(page.node), buttons }}>
        <ErrorBoundary>
          <Suspense fallback={<PageLoading />}>
            {View ? <View /> : <ComingSoon title={label(page.node)} />}
          </Suspense>
        </ErrorBoundary>
      </PageContext.Provider>
    );
  };
  const activeTab = tabs.find((tab) => tab.path === path) ?? { path, search, pinned: false };
  const kept = tabs.filter((tab) => byPath.get(tab.path)?.node.meta?.keepAlive !== false);
  return (
    <>
      {kept.map((tab) => (
        <Activity
          key={tab.path === path ? `${tab.path}#${reloadKey}` : tab.path}
          mode={tab.path === path ? 'visible' : 'hidden'}
        >
          {renderPage(tab)}
        </Activity>
      ))}
      {kept.some((tab) => tab.path === path) ? null : (
        <div key={`${path}#${reloadKey}`}>{renderPage(activeTab)}</div>
      )}
    </>
  );
});

/** A top-bar button: icon and label, or the icon alone with the label as its tooltip. */
function TopAction(props: {
  compact: boolean;
  primary?: boolean;
  icon: ReactNode;
  label: string;
  onClick: () => void;
  testId: string;
}) {
  const button = (
    <Button
      size="small"
      type={props.primary ? 'primary' : 'default'}
      ghost={props.primary}
      icon={props.icon}
      onClick={props.onClick}
      data-testid={props.testId}
      aria-label={props.label}
    >
      {props.compact ? null : props.label}
    </Button>
  );
  return props.compact ? <Hint title={props.label}>{button}</Hint> : button;
}

export function AppLayout({ branding }: { branding: Branding | undefined }) {
  const { t, i18n } = useTranslation();
  const en = i18n.language === 'en-US';
  const { modal, message } = App.useApp();
  const session = useSession();
  const { settings, update } = useTheme();
  const location = useLocation();
  const navigate = useNavigate();
  // SPEC section 9: below 992 px the layout is mobile.
  const mobile = !useMediaQuery('(min-width: 992px)');
  const wide = useMediaQuery('(min-width: 1600px)');
  const counts = useWaitCounts();
  useNoticePopups(session.token);

  const menus = useMemo(
    () => allowedMenus(session.menus, session.permissions),
    [session.menus, session.permissions],
  );
  const pages = useMemo(() => flattenPages(menus), [menus]);
  const byPath = useMemo(() => new Map(pages.map((p) => [p.node.paths, p])), [pages]);
  const label = (node: MenuNode) => (en ? node.name_en : node.name);
  const path = location.pathname === '/' ? HOME : location.pathname;
  const current = byPath.get(path);
  const area = current?.parents[0]?.paths;
  // The first render already holds what the effects below would set, so mounting the shell does not
  // render it all a second time.
  const [tabs, setTabs] = useState<VisitedTab[]>(() =>
    current ? visited([], path, location.search, byPath.has(HOME)) : [],
  );
  const [reloadKey, setReloadKey] = useState(0);
  const [pulsing, setPulsing] = useState(false);
  // Open submenus of the inline (expanded side) menu; a collapsed or top menu opens popups on hover.
  const [openKeys, setOpenKeys] = useState<string[]>(area ? [area] : []);
  const [popupKeys, setPopupKeys] = useState<string[]>([]);
  const themeDrawer = useOpenedOnce();
  const [batch, setBatch] = useState<'truck' | 'express' | null>(null);
  // The phone's menu drawer: not shown yet (and not mounted: a closed antd drawer still re-renders
  // itself as it mounts), shown by itself on arrival (a glimpse that leaves the page usable), opened by
  // the user (over a mask that shuts it when the page is touched), or shut.
  const [mobileMenu, setMobileMenu] = useState<'unseen' | 'glimpse' | 'open' | 'shut'>('unseen');

  // A visited page becomes a tab; home is always there and pinned. Titles are looked up when drawn,
  // so they follow the language.
  useEffect(() => {
    if (current) setTabs((list) => visited(list, path, location.search, byPath.has(HOME)));
  }, [path, location.search, current, byPath]);

  // SPEC section 2: one submenu open at a time.
  // biome-ignore lint/correctness/useExhaustiveDependencies: each page visited closes the popups
  useEffect(() => {
    if (area) setOpenKeys((keys) => (keys.length === 1 && keys[0] === area ? keys : [area]));
    setPopupKeys((keys) => (keys.length === 0 ? keys : []));
  }, [current, area]);

  // SPEC sections 2 and 9: below 992 px the sidebar becomes a drawer that shows, then folds itself after
  // 2 s. The desktop collapse setting is left as the user chose it.
  useEffect(() => {
    if (!mobile) {
      // A desktop that never was a phone renders nothing more for it.
      setMobileMenu((shown) => (shown === 'unseen' ? shown : 'shut'));
      return;
    }
    // Transitions: the drawer and its menu are drawn after the page, in slices, rather than in the
    // same long task as the rest of the shell.
    startTransition(() => setMobileMenu('glimpse'));
    const timer = window.setTimeout(
      () => startTransition(() => setMobileMenu((shown) => (shown === 'glimpse' ? 'shut' : shown))),
      2000,
    );
    return () => window.clearTimeout(timer);
  }, [mobile]);

  if (!current) {
    // A product page this user was not granted is a 401; anything else does not exist.
    return <Navigate to={PRODUCT_PATHS.has(path) ? '/401' : '/404'} replace />;
  }
  if (!routeAllowed(current.node, session.permissions)) return <Navigate to="/401" replace />;

  const badgeFor = (node: MenuNode) => {
    const dot = DOT_FOR[node.id as keyof typeof DOT_FOR];
    const count = COUNT_FOR[node.id as keyof typeof COUNT_FOR];
    // Badges sit in the label's own row, after text that may wrap, never over the expand arrow.
    if (dot)
      return <Badge dot={counts[dot] > 0} className="menu-badge" data-testid={`menu-dot-${node.id}`} />;
    if (count)
      return (
        <Badge
          count={counts[count]}
          size="small"
          className="menu-badge"
          data-testid={`menu-count-${node.id}`}
        />
      );
    return null;
  };

  const menuItems = (nodes: MenuNode[]): MenuProps['items'] =>
    nodes
      .filter((node) => node.is_show === 1)
      .map((node) => ({
        key: node.paths,
        icon: <MenuIcon name={node.icon} />,
        label: (
          <span className="menu-label" title={label(node)} data-testid={`menu-${node.paths}`}>
            <span className="menu-text">{label(node)}</span>
            {badgeFor(node)}
          </span>
        ),
        children: node.haveChildMenu === 1 ? menuItems(node.subList.filter(isMenuNode)) : undefined,
      }));

  const go = (target: string) => {
    navigate(target);
    if (mobile) setMobileMenu('shut');
  };

  const closeTabs = (paths: string[]) => {
    const remaining = tabs.filter((tab) => !paths.includes(tab.path) || tab.pinned);
    setTabs(remaining);
    if (paths.includes(path)) {
      const last = remaining[remaining.length - 1];
      navigate(last ? `${last.path}${last.search}` : '/');
    }
  };

  const logout = () =>
    modal.confirm({
      title: t('shell.dialogTitle'),
      content: t('shell.logoutConfirm'),
      okText: t('shell.ok'),
      cancelText: t('shell.cancel'),
      okButtonProps: { className: 'logout-confirm' },
      onOk: async () => {
        await session.signOut();
        navigate('/login');
      },
    });

  const toggleFullscreen = async () => {
    try {
      if (document.fullscreenElement) await document.exitFullscreen();
      else await document.documentElement.requestFullscreen();
    } catch {
      message.error(t('shell.fullscreenFailed'));
    }
  };

  const reload = () => {
    setReloadKey((k) => k + 1);
    setPulsing(true);
    window.setTimeout(() => setPulsing(false), 1000);
  };

  const horizontalMenu = settings.layout === 'horizontal' && !mobile;
  const inlineMenu = !horizontalMenu && (mobile || !settings.collapsed);
  const menu = inlineMenu ? (
    <SideMenu
      nodes={menus}
      selected={path}
      openKeys={openKeys}
      // SPEC section 2: one submenu open at a time.
      onToggle={(key) => setOpenKeys((keys) => (keys.includes(key) ? [] : [key]))}
      onGo={go}
      label={label}
      badgeFor={badgeFor}
      ariaLabel={t('shell.menu')}
    />
  ) : (
    <Menu
      mode={horizontalMenu ? 'horizontal' : 'inline'}
      theme={horizontalMenu ? 'light' : 'dark'}
      selectedKeys={[path]}
      openKeys={popupKeys}
      onOpenChange={setPopupKeys}
      onClick={({ key }) => go(key)}
      items={menuItems(menus)}
      style={{ borderInlineEnd: 0, flex: 1, minWidth: 0 }}
      className={horizontalMenu ? undefined : 'app-menu'}
      data-testid="side-menu"
    />
  );

  const logo = (collapsed: boolean) => (
    <a
      className="logo"
      href="/home"
      onClick={(e) => {
        e.preventDefault();
        go(HOME);
      }}
      data-testid="logo"
    >
      {collapsed ? (
        branding?.logoCollapsedUrl ? (
          <img src={branding.logoCollapsedUrl} alt="" />
        ) : (
          <span className="logo-mark">{(branding?.siteName ?? '').slice(0, 1)}</span>
        )
      ) : branding?.logoUrl ? (
        <img src={branding.logoUrl} alt={branding.siteName} />
      ) : (
        <span className="logo-text">{branding?.siteName}</span>
      )}
    </a>
  );

  const breadcrumb = (
    <Breadcrumb
      data-testid="breadcrumb"
      items={[
        {
          title: t('shell.home'),
          href: '/home',
          onClick: (e) => {
            e.preventDefault();
            go(HOME);
          },
        },
        ...current.parents.map((p) => ({ title: label(p) })),
        ...(path === HOME ? [] : [{ title: label(current.node) }]),
      ]}
    />
  );

  // Header menus open inside the header, so they stay put under a fixed header when the page scrolls.
  const inHeader = (trigger: HTMLElement) => trigger.closest<HTMLElement>('.app-header') ?? document.body;

  const languageMenu = {
    items: [
      { key: 'zh-CN', label: <span data-testid="lang-zh">简体中文</span> },
      { key: 'en-US', label: <span data-testid="lang-en">English</span> },
    ],
    onClick: ({ key }: { key: string }) => void session.setLanguage(key as 'zh-CN' | 'en-US'),
  };

  // The top menu and the breadcrumb need the room: on the horizontal layout and below 1600 px the
  // top-bar buttons show icons only.
  const compact = settings.layout === 'horizontal' || !wide;
  const header = (
    <Header className={`app-header${settings.fixedHeader ? ' fixed' : ''}`}>
      {settings.layout === 'horizontal' && !mobile ? (
        <>
          {logo(false)}
          {menu}
        </>
      ) : (
        <Space style={{ flex: 1, minWidth: 0, overflow: 'hidden' }}>
          <Button
            type="text"
            aria-label={settings.collapsed ? t('shell.expand') : t('shell.collapse')}
            icon={settings.collapsed && !mobile ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
            onClick={() => (mobile ? setMobileMenu('open') : update({ collapsed: !settings.collapsed }))}
            data-testid="menu-toggle"
          />
          {mobile ? null : breadcrumb}
        </Space>
      )}
      <Space className="header-actions" size={4} wrap={false}>
        {mobile ? null : (
          <>
            <TopAction
              compact={compact}
              primary
              icon={<CarOutlined />}
              label={t('shell.truckQuote')}
              onClick={() => go('/mail')}
              testId="top-truck-quote"
            />
            {session.config.showBatchOrder ? (
              <>
                <TopAction
                  compact={compact}
                  icon={<FileExcelOutlined />}
                  label={t('shell.truckBatch')}
                  onClick={() => setBatch('truck')}
                  testId="top-truck-batch"
                />
                <TopAction
                  compact={compact}
                  icon={<FileExcelOutlined />}
                  label={t('shell.expressBatch')}
                  onClick={() => setBatch('express')}
                  testId="top-express-batch"
                />
              </>
            ) : null}
            <FreightRulesEntry onStaff={() => go('/freightRule')}>
              {(open) => (
                <TopAction
                  compact={compact}
                  icon={<ProfileOutlined />}
                  label={t('shell.freightRules')}
                  onClick={open}
                  testId="top-freight-rules"
                />
              )}
            </FreightRulesEntry>
            <FeatureUpdatesEntry>
              {(open) => (
                <TopAction
                  compact={compact}
                  icon={<NotificationOutlined />}
                  label={t('shell.featureUpdates')}
                  onClick={open}
                  testId="top-updates"
                />
              )}
            </FeatureUpdatesEntry>
          </>
        )}
        <MenuOnDemand menu={languageMenu} getPopupContainer={inHeader}>
          <Button
            type="text"
            icon={<TranslationOutlined />}
            data-testid="lang-switch"
            aria-label={t('shell.language')}
          />
        </MenuOnDemand>
        <NoticeBell path={path} onOpen={() => go('/notification')} />
        <DownloadCenterButton label={t('shell.downloadCenter')} onOpen={() => go(DOWNLOAD_CENTER_PATH)} />
        <Hint title={t('shell.fullscreen')}>
          <Button
            type="text"
            icon={<ExpandOutlined />}
            onClick={() => void toggleFullscreen()}
            aria-label={t('shell.fullscreen')}
          />
        </Hint>
        <Hint title={t('shell.theme')}>
          <Button
            type="text"
            icon={<BgColorsOutlined />}
            onClick={themeDrawer.show}
            aria-label={t('shell.theme')}
            data-testid="theme-open"
          />
        </Hint>
        <Hint title={t('shell.reload')}>
          <Button
            type="text"
            icon={<ReloadOutlined spin={pulsing} />}
            onClick={reload}
            aria-label={t('shell.reload')}
            data-testid="reload-route"
          />
        </Hint>
        <MenuOnDemand
          getPopupContainer={inHeader}
          menu={{
            items: [
              { key: 'profile', label: <span data-testid="menu-profile">{t('shell.personalCenter')}</span> },
              { key: 'logout', label: <span data-testid="logout">{t('shell.logout')}</span> },
            ],
            onClick: ({ key }) => (key === 'profile' ? go('/profile') : logout()),
          }}
        >
          <Space style={{ cursor: 'pointer', paddingInline: 8 }} data-testid="avatar-menu">
            <PrivateAvatar size="small" url={session.userInfo?.avatar} />
            {mobile ? null : <span>{session.userInfo?.name}</span>}
          </Space>
        </MenuOnDemand>
      </Space>
    </Header>
  );

  const siderWidth = settings.collapsed ? 70 : 200;
  const vertical = settings.layout === 'vertical' || mobile;
  return (
    <Layout style={{ minHeight: '100vh' }}>
      {vertical && !mobile ? (
        <Sider
          width={200}
          collapsedWidth={70}
          collapsed={settings.collapsed}
          className="app-sider"
          theme="dark"
        >
          {logo(settings.collapsed)}
          {menu}
        </Sider>
      ) : null}
      {mobile && mobileMenu !== 'unseen' ? (
        <Drawer
          placement="left"
          open={mobileMenu === 'glimpse' || mobileMenu === 'open'}
          mask={mobileMenu === 'open'}
          // The glimpse leaves the focus where it is: it folds itself away.
          autoFocus={mobileMenu === 'open'}
          onClose={() => setMobileMenu('shut')}
          size={200}
          closable={false}
          title={null}
          styles={{ body: { padding: 0, background: '#001529' } }}
        >
          {logo(false)}
          {menu}
        </Drawer>
      ) : null}
      <Layout style={{ marginInlineStart: vertical && !mobile ? siderWidth : 0, transition: 'margin 0.2s' }}>
        {header}
        <AdStrip />
        {settings.tabs ? (
          <TabsBar
            tabs={tabs}
            titleOf={(tab) => {
              const page = byPath.get(tab.path);
              return page ? label(page.node) : tab.path;
            }}
            active={path}
            onSelect={(tab) => navigate(`${tab.path}${tab.search}`)}
            onClose={closeTabs}
          />
        ) : null}
        <Content className={`app-content${vertical ? '' : ' top-menu'}`}>
          {/* The horizontal top bar has no room for the breadcrumb: it heads the page instead. */}
          {vertical ? null : <div className="content-breadcrumb">{breadcrumb}</div>}
          <PageStack
            tabs={tabs}
            path={path}
            search={location.search}
            reloadKey={reloadKey}
            byPath={byPath}
            en={en}
          />
        </Content>
        <Footer className="app-footer">
          {branding?.copyright ? <div>{branding.copyright}</div> : null}
          {branding?.filingNumber ? <div data-testid="filing-number">{branding.filingNumber}</div> : null}
        </Footer>
      </Layout>
      <BackToTop />
      <ErrorLogButton />
      {themeDrawer.opened ? (
        <Suspense fallback={null}>
          <ThemeDrawer open={themeDrawer.open} onClose={themeDrawer.hide} />
        </Suspense>
      ) : null}
      <Suspense fallback={null}>
        {batch === 'truck' ? <TruckBatchDialog open onClose={() => setBatch(null)} /> : null}
        {batch === 'express' ? <ExpressBatchDialog open onClose={() => setBatch(null)} /> : null}
      </Suspense>
    </Layout>
  );
}
