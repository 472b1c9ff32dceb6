import { App, ConfigProvider } from 'antd';
import type { ReactNode } from 'react';
import { DEFAULT_COLOUR } from '../../context/theme.tsx';

/**
 * SPEC section 2: the express-quote pages keep the default colour (#FF6D1F) whatever theme or brand
 * colour the user has. The inner `App` makes the page's dialogs and toasts take the same colour.
 */
export function FixedTheme({ children }: { children: ReactNode }) {
  return (
    <ConfigProvider theme={{ token: { colorPrimary: DEFAULT_COLOUR, colorLink: DEFAULT_COLOUR } }}>
      <App component={false} message={{ duration: 3 }}>
        {children}
      </App>
    </ConfigProvider>
  );
}
