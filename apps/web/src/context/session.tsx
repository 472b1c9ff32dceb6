import { useQueryClient } from '@tanstack/react-query';
import { App } from 'antd';
import { createContext, type ReactNode, useCallback, useContext, useMemo, useState } from 'react';
import i18n, { type UiLanguage } from '../i18n/index.ts';
import { ApiError, post } from '../lib/http.ts';
import { clearSession, getToken, readJson, STORAGE, setToken, writeJson } from '../lib/storage.ts';
import { useWaitCountsPoll, type WaitCounts } from './wait-counts.ts';

/** One node of the server menu (SPEC section 3 "Menu item"). */
export interface MenuNode {
  id: number;
  name: string;
  name_en: string;
  icon: string;
  paths: string;
  is_show: 0 | 1;
  haveChildMenu: 0 | 1;
  /** `Layout` (or `EmptyLayout`) for a group, otherwise the view name of `views.ts`. */
  component: string;
  meta?: { title: string; title_en: string; icon: string; keepAlive: boolean; permissions: string[] };
  /** Children of a group, or the buttons of a page. */
  subList: (MenuNode | MenuButton)[];
}
export interface MenuButton {
  name: string;
  name_en: string;
  /** The button's permission key, e.g. `role:save`. */
  component: string;
}

export interface UserInfo {
  id: number;
  email: string;
  name: string;
  company: string;
  phone: string;
  identity: 'employee' | 'branch' | 'agent' | 'customer';
  organisationId: number | null;
  avatar: string | null;
}

export interface UserConfig {
  showBatchOrder: boolean;
}

interface InfoAnswer {
  userInfo: UserInfo;
  language: string;
  permissions: string[];
  config: UserConfig;
}

interface SessionState {
  token: string | null;
  userInfo: UserInfo | null;
  /** Role codes (`admin`, `editor`, `agent`...) that route permissions are matched against. */
  permissions: string[];
  menus: MenuNode[];
  config: UserConfig;
  /** User info and menu were fetched for this token in this page's life. */
  loaded: boolean;
}

interface SessionApi extends SessionState {
  language: UiLanguage;
  /** Stores the token and loads the user and the menu for it; on failure nothing stays stored. */
  signIn(token: string): Promise<void>;
  loadSession(): Promise<void>;
  signOut(): Promise<void>;
  setLanguage(language: UiLanguage): Promise<void>;
  refreshUser(): Promise<void>;
}

const SessionContext = createContext<SessionApi | null>(null);
// Apart from the session: a count that changes re-renders the badges, not every page that reads the user.
const WaitCountsContext = createContext<(WaitCounts & { refresh(): void }) | null>(null);

export function isMenuNode(item: MenuNode | MenuButton): item is MenuNode {
  return 'paths' in item;
}

const SIGNED_OUT: SessionState = {
  token: null,
  userInfo: null,
  permissions: [],
  menus: [],
  config: { showBatchOrder: true },
  loaded: false,
};

export function SessionProvider({ children }: { children: ReactNode }) {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [state, setState] = useState<SessionState>(() => ({
    token: getToken(),
    userInfo: readJson<UserInfo | null>(STORAGE.userInfo, null),
    permissions: readJson<string[]>(STORAGE.roles, []),
    menus: readJson<MenuNode[]>(STORAGE.menus, []),
    config: readJson<UserConfig>(STORAGE.userConfig, { showBatchOrder: true }),
    loaded: false,
  }));
  const [language, setLanguageState] = useState<UiLanguage>(i18n.language as UiLanguage);
  const waitCounts = useWaitCountsPoll(state.token);

  const loadSession = useCallback(async () => {
    const [info, menus] = await Promise.all([
      post<InfoAnswer>('/admin/admin/info'),
      post<MenuNode[]>('/menu/navigate'),
    ]);
    // SPEC section 4: the server language `en` means en-US, anything else zh-CN.
    const serverLanguage: UiLanguage = info.language === 'en' ? 'en-US' : 'zh-CN';
    writeJson(STORAGE.language, serverLanguage);
    if (i18n.language !== serverLanguage) await i18n.changeLanguage(serverLanguage);
    setLanguageState(serverLanguage);
    writeJson(STORAGE.userInfo, info.userInfo);
    writeJson(STORAGE.roles, info.permissions);
    writeJson(STORAGE.menus, menus);
    writeJson(STORAGE.userConfig, info.config);
    // SPEC section 4: the title is the company.
    localStorage.setItem(STORAGE.title, info.userInfo.company);
    setState({
      token: getToken(),
      userInfo: info.userInfo,
      permissions: info.permissions,
      menus,
      config: info.config,
      loaded: true,
    });
  }, []);

  const signIn = useCallback(
    async (token: string) => {
      setToken(token);
      try {
        await loadSession();
      } catch (error) {
        clearSession();
        setState(SIGNED_OUT);
        throw error;
      }
    },
    [loadSession],
  );

  const signOut = useCallback(async () => {
    try {
      await post('/logout');
    } catch {
      // The session may already be gone; signing out locally is what matters.
    }
    clearSession();
    // Nothing cached for this user may show to the next one; the host's branding stays.
    queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== 'branding' });
    setState(SIGNED_OUT);
  }, [queryClient]);

  const setLanguage = useCallback(
    async (next: UiLanguage) => {
      writeJson(STORAGE.language, next);
      await i18n.changeLanguage(next);
      setLanguageState(next);
      if (!getToken()) return;
      try {
        // SPEC section 7: setLocale speaks `en` / `zh_CN`. (Written here rather than imported from the
        // contracts' api module, which would bring zod into the first bundle.)
        await post('/admin/auth/setLocale', { locale: next === 'en-US' ? 'en' : 'zh_CN' });
        // What the server words for the user (a staff member's company is the site's name) follows.
        await loadSession();
      } catch (error) {
        // SPEC section 8: the server's message shows when the language switch fails.
        if (error instanceof ApiError && !error.notified) void message.error(error.message);
      }
    },
    [message, loadSession],
  );

  const api = useMemo<SessionApi>(
    () => ({
      ...state,
      language,
      signIn,
      loadSession,
      signOut,
      setLanguage,
      refreshUser: loadSession,
    }),
    [state, language, signIn, loadSession, signOut, setLanguage],
  );
  return (
    <SessionContext.Provider value={api}>
      <WaitCountsContext.Provider value={waitCounts}>{children}</WaitCountsContext.Provider>
    </SessionContext.Provider>
  );
}

export function useSession(): SessionApi {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession outside SessionProvider');
  return value;
}

/** The signed-in user's waiting counts (SPEC section 4) and a way to read them again at once. */
export function useWaitCounts(): WaitCounts & { refresh(): void } {
  const value = useContext(WaitCountsContext);
  if (!value) throw new Error('useWaitCounts outside SessionProvider');
  return value;
}

/** SPEC section 5: a route passes when the user holds any permission it lists, or it lists none. */
export function routeAllowed(node: MenuNode, permissions: string[]): boolean {
  const needed = node.meta?.permissions ?? [];
  return needed.length === 0 || needed.some((p) => permissions.includes(p));
}

const isGroup = (node: MenuNode) => node.haveChildMenu === 1;

/** SPEC section 2: the menu keeps the routes the user may enter, filtered recursively; empty groups go. */
export function allowedMenus(menus: MenuNode[], permissions: string[]): MenuNode[] {
  return menus.flatMap((node) => {
    if (!routeAllowed(node, permissions)) return [];
    if (!isGroup(node)) return [node];
    const children = allowedMenus(node.subList.filter(isMenuNode), permissions);
    return children.length > 0 ? [{ ...node, subList: children }] : [];
  });
}

/** Every page node of the menu, depth first, with its group chain for the breadcrumb. */
export function flattenPages(
  menus: MenuNode[],
  parents: MenuNode[] = [],
): { node: MenuNode; parents: MenuNode[] }[] {
  return menus.flatMap((node) =>
    isGroup(node) ? flattenPages(node.subList.filter(isMenuNode), [...parents, node]) : [{ node, parents }],
  );
}
