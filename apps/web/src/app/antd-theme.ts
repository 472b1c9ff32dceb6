import type { ThemeConfig } from 'antd';
import { readableShade, textOn } from '../context/theme.tsx';

/**
 * The antd theme for a primary colour (docs/decisions.md, "Brand colour and contrast"): the brand
 * colour fills buttons and marks the active items; text in it (links, the active tab and menu item)
 * uses a darker shade that reads on white, and text on it is white or dark, whichever reads. Without
 * `motion`, dialogs, drawers, menus and messages appear and go at once: for a user whose system asks
 * for reduced motion.
 */
export function antdTheme(primary: string, motion = true): ThemeConfig {
  const shade = readableShade(primary);
  return {
    // Components take their styles from antd's stylesheet (main.tsx) instead of writing them while they
    // render: on a phone that had been most of the first render's time. The tokens below still apply,
    // as CSS variables.
    zeroRuntime: true,
    token: {
      colorPrimary: primary,
      colorLink: shade,
      colorLinkHover: primary,
      borderRadius: 6,
      // antd's secondary and tertiary greys (#8c8c8c) read at 3.4:1 on white.
      colorTextSecondary: 'rgba(0, 0, 0, 0.65)',
      colorTextTertiary: 'rgba(0, 0, 0, 0.6)',
      colorTextDescription: 'rgba(0, 0, 0, 0.6)',
      motion,
    },
    components: {
      Button: { primaryColor: textOn(primary) },
      Tabs: { itemSelectedColor: shade, itemActiveColor: shade, itemHoverColor: shade },
      Menu: { itemSelectedColor: shade, horizontalItemSelectedColor: shade },
    },
  };
}
