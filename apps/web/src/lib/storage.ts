/** Keys kept in local storage (SPEC section 3 "Locally stored"). */
export const STORAGE = {
  token: 'token',
  roles: 'roles',
  menus: 'menus',
  language: 'language',
  title: 'title',
  userInfo: 'userInfo',
  userConfig: 'userConfig',
  theme: 'theme',
  tabs: 'tabs',
} as const;

export function readJson<T>(key: string, fallback: T): T {
  try {
    const raw = localStorage.getItem(key);
    return raw ? (JSON.parse(raw) as T) : fallback;
  } catch {
    return fallback;
  }
}

export function writeJson(key: string, value: unknown): void {
  localStorage.setItem(key, JSON.stringify(value));
}

export const getToken = () => localStorage.getItem(STORAGE.token);
export const setToken = (token: string) => localStorage.setItem(STORAGE.token, token);

export function clearSession(): void {
  for (const key of [
    STORAGE.token,
    STORAGE.roles,
    STORAGE.menus,
    STORAGE.title,
    STORAGE.userInfo,
    STORAGE.userConfig,
    STORAGE.tabs,
  ])
    localStorage.removeItem(key);
}
