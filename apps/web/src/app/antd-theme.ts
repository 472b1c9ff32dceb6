import { presetPalettes } from '@ant-design/colors';
import type { ThemeConfig } from 'antd';
import { contrast, DARK_TEXT, readableShade, TEXT_CONTRAST, textOn } from './theme.tsx';

/**
 * Tag text in each preset colour: antd's shade 7 on shade 1 reads below 4.5:1 for several colours
 * (orange 3.3:1), so the first darker shade that reads is used instead.
 */
const PRESET_TEXT: Record<string, string> = Object.fromEntries(
  Object.entries(presetPalettes).flatMap(([name, shades]) => {
    if (!Array.isArray(shades) || shades.length < 10) return [];
    const background = shades[0] as string;
    const text = shades.slice(6).find((s) => contrast(s, background) >= TEXT_CONTRAST) ?? DARK_TEXT;
    return [[`${name}7`, text]];
  }),
);

/**
 * The antd theme for a primary colour (docs/decisions.md, "Brand colour and contrast"): the brand
 * colour fills buttons and marks the active items; text in it (links, the active tab and menu item)
 * uses a darker shade that reads on white, and text on it is white or dark, whichever reads.
 */
export function antdTheme(primary: string): ThemeConfig {
  const shade = readableShade(primary);
  return {
    token: {
      colorPrimary: primary,
      colorLink: shade,
      colorLinkHover: primary,
      borderRadius: 6,
      // antd's secondary and tertiary greys (#8c8c8c) read at 3.4:1 on white.
      colorTextSecondary: 'rgba(0, 0, 0, 0.65)',
      colorTextTertiary: 'rgba(0, 0, 0, 0.6)',
      colorTextDescription: 'rgba(0, 0, 0, 0.6)',
      ...PRESET_TEXT,
    },
    components: {
      Button: { primaryColor: textOn(primary) },
      Tabs: { itemSelectedColor: shade, itemActiveColor: shade, itemHoverColor: shade },
      Menu: { itemSelectedColor: shade, horizontalItemSelectedColor: shade },
    },
  };
}
