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

const rgbOf = (colour: string): [number, number, number] => {
  const hex = colour.replace('#', '');
  const full = hex.length === 3 ? [...hex].map((c) => c + c).join('') : hex;
  return [0, 2, 4].map((i) => Number.parseInt(full.slice(i, i + 2), 16) || 0) as [number, number, number];
};
const toHex = (rgb: number[]) => `#${rgb.map((v) => Math.round(v).toString(16).padStart(2, '0')).join('')}`;

/** WCAG 2 relative luminance. */
function luminance(colour: string): number {
  const [r, g, b] = rgbOf(colour).map((v) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG 2 contrast ratio of two colours. */
export function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** Normal text needs 4.5:1 (WCAG 2 AA). */
export const TEXT_CONTRAST = 4.5;
/** The dark text used on fills that white does not read on. */
export const DARK_TEXT = '#1f1f1f';

/**
 * The colour, darkened just enough for text in it to read on `background` (docs/decisions.md, "Brand
 * colour and contrast"): the brand stays the fill colour, its text and links use this shade.
 */
export function readableShade(colour: string, background = '#ffffff'): string {
  const rgb = rgbOf(colour);
  for (let f = 1; f > 0; f -= 0.02) {
    const shade = toHex(rgb.map((v) => v * f));
    if (contrast(shade, background) >= TEXT_CONTRAST) return shade;
  }
  return DARK_TEXT;
}

/** White or dark text on a fill of this colour, whichever reads (white when both do). */
export function textOn(colour: string): string {
  return contrast('#ffffff', colour) >= TEXT_CONTRAST ||
    contrast('#ffffff', colour) >= contrast(DARK_TEXT, colour)
    ? '#ffffff'
    : DARK_TEXT;
}

/** Light shades 1..9 of the primary colour as CSS variables, opacity steps of 0.1 (SPEC section 2). */
export function applyShades(colour: string): void {
  const [r, g, b] = rgbOf(colour);
  const root = document.documentElement.style;
  root.setProperty('--primary', colour);
  root.setProperty('--primary-text', readableShade(colour));
  root.setProperty('--primary-on', textOn(colour));
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
