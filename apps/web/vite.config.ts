import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

/** Top-level rules of a stylesheet, at-rule blocks whole. */
function rulesOf(css: string): string[] {
  const rules: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < css.length; i++) {
    if (css[i] === '{') depth++;
    else if (css[i] === '}' && --depth === 0) {
      rules.push(css.slice(start, i + 1).trim());
      start = i + 1;
    }
  }
  return rules;
}

/**
 * antd components the sign-in page draws (with the message, notification and dialog holders every page
 * has, and antd's motions): their styles come with the first page, every other component's with the
 * signed-in shell or the other public pages.
 */
const FIRST_PAGE_COMPONENTS = new Set([
  'app',
  'btn',
  'wave',
  'form',
  'row',
  'col',
  'input',
  'space',
  'typography',
  'spin',
  'message',
  'notification',
  'modal',
  'dropdown',
  'menu',
  'tooltip',
  'motion',
  'fade',
  'move',
  'slide',
  'zoom',
]);

/** The component a rule styles, from its first antd class (`.ant-btn-primary` → `btn`); none for base rules. */
const componentOf = (selector: string) => /\.ant-([a-z]+)/.exec(selector)?.[1];

/** Splits antd's stylesheet into the first page's part and the rest; at-rule blocks are split by their rules. */
function splitAntdStyles(css: string): { first: string; rest: string } {
  const first: string[] = [];
  const rest: string[] = [];
  for (const rule of rulesOf(css)) {
    const brace = rule.indexOf('{');
    const head = rule.slice(0, brace).trim();
    // The `.css-var-…` blocks carry antd's default theme under class names of antd's own build (the
    // ConfigProvider registers the app's theme in the page); the cache-path rule marks server rendering.
    if (head.startsWith('.css-var-') || head.startsWith('.data-ant-cssinjs-cache-path')) continue;
    if (head.startsWith('@media') || head.startsWith('@supports') || head.startsWith('@container')) {
      const inner = splitAntdStyles(rule.slice(brace + 1, -1));
      if (inner.first) first.push(`${head}{${inner.first}}`);
      if (inner.rest) rest.push(`${head}{${inner.rest}}`);
      continue;
    }
    const component = head.startsWith('@') ? undefined : componentOf(head);
    (component === undefined || FIRST_PAGE_COMPONENTS.has(component) ? first : rest).push(rule);
  }
  return { first: first.join(''), rest: rest.join('') };
}

const ANTD_FIRST = 'virtual:antd-first.css';
const ANTD_REST = 'virtual:antd-rest.css';

/**
 * antd's prebuilt stylesheet for its zero-runtime mode (docs/decisions.md, "antd styles built, not
 * generated") in two parts: `virtual:antd-first.css` with the sign-in page's components (main.tsx),
 * `virtual:antd-rest.css` with the others (the shell and the other public pages import it). The rest
 * loads after the app's own stylesheet, so it carries a second copy of it at its end: the app's rules
 * still come after antd's, as they do on the first page.
 */
function antdStaticStyles(): Plugin {
  let parts: { first: string; rest: string } | undefined;
  const require = createRequire(import.meta.url);
  const antdCss = () => require.resolve('antd/dist/antd.css');
  const appCss = fileURLToPath(new URL('./src/styles.css', import.meta.url));
  return {
    name: 'antd-static-styles',
    resolveId(id) {
      return id === ANTD_FIRST || id === ANTD_REST ? `\0${id}` : null;
    },
    load(id) {
      if (id !== `\0${ANTD_FIRST}` && id !== `\0${ANTD_REST}`) return null;
      parts ??= splitAntdStyles(readFileSync(antdCss(), 'utf8'));
      if (id === `\0${ANTD_FIRST}`) return parts.first;
      this.addWatchFile(appCss);
      return `${parts.rest}\n${readFileSync(appCss, 'utf8')}`;
    },
  };
}

export default defineConfig({
  plugins: [antdStaticStyles(), react()],
  // SPEC section 9: the dev server listens on 83; the API (and anything it stores) is on 8083.
  server: {
    port: 83,
    proxy: {
      '/api': 'http://127.0.0.1:8083',
      '/uploads': 'http://127.0.0.1:8083',
    },
  },
  build: {
    outDir: 'dist',
    // The bundler splits by what each page imports, so the sign-in page gets the few antd components
    // it uses and the shell's pages their own (charts, editor) on demand. What the first page needs
    // (everything the entry imports) goes in one file rather than some thirty small shared ones: each
    // file is a request, and a phone on a slow link waits a round trip for every few of them.
    // Three files of similar size rather than one: the browser fetches them side by side.
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            {
              name: 'react',
              tags: ['$initial'],
              test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/,
              priority: 2,
            },
            {
              name: 'antd',
              tags: ['$initial'],
              test: /node_modules[\\/](antd|@rc-component|@ant-design)[\\/]/,
              priority: 1,
            },
            { name: 'start', tags: ['$initial'] },
            // The charts' drawing library in a file of its own beside echarts (together over 500 kB);
            // both come only with the pages that draw charts.
            { name: 'chart-canvas', test: /node_modules[\\/]zrender[\\/]/ },
          ],
        },
      },
    },
  },
});
