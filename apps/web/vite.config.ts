import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

/**
 * antd's prebuilt stylesheet for its zero-runtime mode (docs/decisions.md, "antd styles built, not
 * generated"), less what the app supplies at run time: the `.css-var-…` blocks carry antd's default
 * theme values under class names of antd's own build, and the cache-path rule is a marker for
 * server rendering. The theme's values (brand colour, radius, greys) stay CSS variables that the
 * ConfigProvider registers in the page.
 */
function antdStaticStyles(): Plugin {
  return {
    name: 'antd-static-styles',
    enforce: 'pre',
    transform(code, id) {
      if (!id.replace(/\\/g, '/').endsWith('/antd/dist/antd.css')) return null;
      const rules: string[] = [];
      let depth = 0;
      let start = 0;
      for (let i = 0; i < code.length; i++) {
        if (code[i] === '{') depth++;
        else if (code[i] === '}' && --depth === 0) {
          rules.push(code.slice(start, i + 1));
          start = i + 1;
        }
      }
      const kept = rules.filter((rule) => {
        const selector = rule.trimStart();
        return !selector.startsWith('.css-var-') && !selector.startsWith('.data-ant-cssinjs-cache-path');
      });
      return { code: kept.join(''), map: null };
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
          ],
        },
      },
    },
  },
});
