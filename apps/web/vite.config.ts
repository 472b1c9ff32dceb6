import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

/**
 * The page's stylesheet first in the head, ahead of the scripts and their preloads: it is the one file
 * the first paint waits for (the splash in index.html), and last it queued behind all the scripts.
 */
function stylesheetFirst(): Plugin {
  return {
    name: 'stylesheet-first',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html) {
        const links = html.match(/\s*<link rel="stylesheet"[^>]*>/g) ?? [];
        let page = html;
        for (const link of links) page = page.replace(link, '');
        return page.replace(/(\s*)<script /, (_, space: string) => `${links.join('')}${space}<script `);
      },
    },
  };
}

/**
 * The app starts once the browser has painted the page (its splash): `public/start.js` asks for the
 * scripts (the entry and what it imports, named in its `data-entry` and `data-preload`) and the
 * stylesheets of the modules it imports (antd's, `data-styles`) after the first frame, and runs the entry
 * once those are in. With a module script and its preloads in the page, the browser could fetch and run
 * the scripts before it painted, and on a slow phone the page stayed blank meanwhile. The page links
 * only the entry's own stylesheet, which holds the splash's styles: the splash needs none of antd's
 * hundred kilobytes.
 */
function startAfterFirstPaint(): Plugin {
  return {
    name: 'start-after-first-paint',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        const own = new Set([...(ctx.chunk?.viteMetadata?.importedCss ?? [])].map((file) => `/${file}`));
        const preloads = [...html.matchAll(/\s*<link rel="modulepreload" crossorigin href="([^"]+)">/g)];
        let page = html;
        for (const [tag] of preloads) page = page.replace(tag, '');
        const hrefs = preloads.map(([, href]) => href).join(' ');
        const styles = [...page.matchAll(/\s*<link rel="stylesheet" crossorigin href="([^"]+)">/g)].filter(
          ([, href]) => !own.has(href as string),
        );
        for (const [tag] of styles) page = page.replace(tag, '');
        const styleHrefs = styles.map(([, href]) => href).join(' ');
        return page.replace(
          /<script type="module" crossorigin src="([^"]+)"><\/script>/,
          (_, entry: string) =>
            `<script src="/start.js" data-entry="${entry}" data-preload="${hrefs}" data-styles="${styleHrefs}" defer></script>`,
        );
      },
    },
  };
}

export default defineConfig({
  plugins: [react(), stylesheetFirst(), startAfterFirstPaint()],
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
    // (everything the entry imports) goes in three files of similar size rather than some forty small
    // shared ones: each file is a request, and a phone on a slow link waits a round trip for every
    // few of them.
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
            // The signed-in shell and everything it imports, in one file: every signed-in page loads the
            // shell anyway, so a page that shares some of it takes it from there, rather than the shell
            // arriving as some thirty small files, each a request and a module to set up.
            { name: 'shell', test: /src[\\/]app[\\/]layout[\\/]AppLayout\.tsx$/ },
          ],
        },
      },
    },
  },
});
