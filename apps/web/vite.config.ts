import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [react()],
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
    // No hand-made vendor chunks: the bundler splits by what each page imports, so the sign-in page
    // gets the few antd components it uses and the shell's pages their own (charts, editor) on demand.
  },
});
