import { createContext, type ReactNode, useContext, useEffect, useMemo, useState } from 'react';
import { readJson, STORAGE, writeJson } from '../lib/storage.ts';

export type ThemeName = 'default' | 'green' | 'glory';
export interface ThemeSettings {
  theme: ThemeName;
  layout: 'vertical' | 'horizontal';
  fixedHeader: boolean;
  tabs: boolean;
  collapsed: boolean;
}

export const DEFAULT_THEME: ThemeSettings = {
  theme: 'default',
  layout: 'vertical',
  fixedHeader: true,
  tabs: true,
  collapsed: false,
};

/** SPEC section 2: default is the tenant's colour (#FF6D1F unless branded), then green and glory. */
export const THEME_COLOURS: Record<Exclude<ThemeName, 'default'>, string> = {
  green: '#13A66C',
  glory: '#2F54EB',
};
export const DEFAULT_COLOUR = '#FF6D1F';

interface ThemeApi {
  settings: ThemeSettings;
  update(patch: Partial<ThemeSettings>): void;
  reset(): void;
  primaryFor(brandColour: string | undefined): string;
}

const ThemeContext = createContext<ThemeApi | null>(null);

/** Light shades 1..9 of the primary colour as CSS variables, opacity steps of 0.1 (SPEC section 2). */
export function applyShades(colour: string): void {
  const hex = colour.replace('#', '');
  const [r, g, b] = [0, 2, 4].map((i) => Number.parseInt(hex.slice(i, i + 2), 16));
  const root = document.documentElement.style;
  root.setProperty('--primary', colour);
  for (let i = 1; i <= 9; i++)
    root.setProperty(`--primary-light-${i}`, `rgba(${r}, ${g}, ${b}, ${(i / 10).toFixed(1)})`);
}

export function ThemeProvider({ children }: { children: ReactNode }) {
  const [settings, setSettings] = useState<ThemeSettings>(() => ({
    ...DEFAULT_THEME,
    ...readJson<Partial<ThemeSettings>>(STORAGE.theme, {}),
  }));
  useEffect(() => writeJson(STORAGE.theme, settings), [settings]);
  const api = useMemo<ThemeApi>(
    () => ({
      settings,
      update: (patch) => setSettings((s) => ({ ...s, ...patch })),
      reset: () => setSettings(DEFAULT_THEME),
      primaryFor: (brand) =>
        settings.theme === 'default' ? brand || DEFAULT_COLOUR : THEME_COLOURS[settings.theme],
    }),
    [settings],
  );
  return <ThemeContext.Provider value={api}>{children}</ThemeContext.Provider>;
}

export function useTheme(): ThemeApi {
  const value = useContext(ThemeContext);
  if (!value) throw new Error('useTheme outside ThemeProvider');
  return value;
}
