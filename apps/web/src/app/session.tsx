import { createContext, type ReactNode, useCallback, useContext, useMemo, useState } from 'react';
import i18n, { type UiLanguage } from '../i18n/index.ts';
import { post } from '../lib/http.ts';
import { clearSession, getToken, readJson, STORAGE, setToken, writeJson } from '../lib/storage.ts';

/** One node of the server menu (SPEC section 3 "Menu item"). */
export interface MenuNode {
  id: number;
  name: string;
  name_en: string;
  icon: string;
  paths: string;
  is_show: 0 | 1;
  haveChildMenu: 0 | 1;
  component: string;
  meta?: { title: string; title_en: string; icon: string; keepAlive: boolean; permissions: string[] };
  subList: (MenuNode | MenuButton)[];
}
export interface MenuButton {
  name: string;
  name_en: string;
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
  permissions: string[];
  menus: MenuNode[];
  config: UserConfig;
}

interface SessionApi extends SessionState {
  loaded: boolean;
  /** Stores the token and loads the user and the menu for it. */
  signIn(token: string): Promise<void>;
  loadSession(): Promise<void>;
  signOut(): Promise<void>;
  setLanguage(language: UiLanguage): Promise<void>;
  refreshUser(): Promise<void>;
}

const SessionContext = createContext<SessionApi | null>(null);

export function isMenuNode(item: MenuNode | MenuButton): item is MenuNode {
  return 'paths' in item;
}

export function SessionProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<SessionState>(() => ({
    token: getToken(),
    userInfo: readJson<UserInfo | null>(STORAGE.userInfo, null),
    permissions: [],
    menus: readJson<MenuNode[]>(STORAGE.menus, []),
    config: readJson<UserConfig>(STORAGE.userConfig, { showBatchOrder: true }),
  }));

  const loadSession = useCallback(async () => {
    const [info, menus] = await Promise.all([
      post<InfoAnswer>('/admin/admin/info'),
      post<MenuNode[]>('/menu/navigate'),
    ]);
    // SPEC section 4: the server language `en` means en-US, anything else zh-CN.
    const language: UiLanguage = info.language === 'en' ? 'en-US' : 'zh-CN';
    writeJson(STORAGE.language, language);
    if (i18n.language !== language) await i18n.changeLanguage(language);
    writeJson(STORAGE.userInfo, info.userInfo);
    writeJson(STORAGE.roles, info.permissions);
    writeJson(STORAGE.menus, menus);
    writeJson(STORAGE.userConfig, info.config);
    localStorage.setItem(STORAGE.title, info.userInfo.company);
    setState({
      token: getToken(),
      userInfo: info.userInfo,
      permissions: info.permissions,
      menus,
      config: info.config,
    });
  }, []);

  const signIn = useCallback(
    async (token: string) => {
      setToken(token);
      await loadSession();
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
    setState({ token: null, userInfo: null, permissions: [], menus: [], config: { showBatchOrder: true } });
  }, []);

  const setLanguage = useCallback(async (language: UiLanguage) => {
    writeJson(STORAGE.language, language);
    await i18n.changeLanguage(language);
    document.documentElement.lang = language;
    if (getToken()) await post('/admin/auth/setLocale', { locale: language === 'en-US' ? 'en' : 'zh_CN' });
  }, []);

  const api = useMemo<SessionApi>(
    () => ({
      ...state,
      loaded: state.permissions.length > 0,
      signIn,
      loadSession,
      signOut,
      setLanguage,
      refreshUser: loadSession,
    }),
    [state, signIn, loadSession, signOut, setLanguage],
  );
  return <SessionContext.Provider value={api}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionApi {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession outside SessionProvider');
  return value;
}

/** Every page node of the menu, depth first, with its group chain for the breadcrumb. */
export function flattenPages(
  menus: MenuNode[],
  parents: MenuNode[] = [],
): { node: MenuNode; parents: MenuNode[] }[] {
  return menus.flatMap((node) =>
    node.haveChildMenu === 1
      ? flattenPages(node.subList.filter(isMenuNode), [...parents, node])
      : [{ node, parents }],
  );
}

/** SPEC section 5: a route passes when the user holds any permission it lists, or it lists none. */
export function routeAllowed(node: MenuNode, permissions: string[]): boolean {
  const needed = node.meta?.permissions ?? [];
  return needed.length === 0 || needed.some((p) => permissions.includes(p));
}
