import { defineConfig } from '@playwright/test';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from './chromium.ts';

const port = Number(process.env.E2E_PORT ?? 8093);
// Each port has its own data folder, so two runs on one machine never share a database.
const dataDir = new URL(`./artifacts/data-${port}`, import.meta.url).pathname;

/** The browser suite runs against a fresh portal on the embedded database, as a new user gets it. */
export default defineConfig({
  testDir: './specs',
  // Per port, so two runs at once (`npm test` runs two halves) keep their own traces.
  outputDir: `./artifacts/results-${port}`,
  // Two halves at once keep both cores busy (Chromium alone spends about 1.8 core-seconds on a list page
  // it draws): a step that takes 3 s alone can take 10 s then. The limits leave room for that; an
  // assertion that fails still fails, only later.
  timeout: 120_000,
  expect: { timeout: 20_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list'], ['json']],
  use: {
    baseURL: `http://localhost:${port}`,
    // The portal then draws dialogs, drawers and menus without their animations (app/antd-theme.ts):
    // a step never races one on a slow machine. shell.spec.ts checks both ways.
    reducedMotion: 'reduce',
    screenshot: 'only-on-failure',
    // Traces only when asked (E2E_TRACE=1): recording one costs every passing test too. The DOM
    // snapshot at each step took a seventh of the suite's CPU (measured on the customer's layout sweep:
    // 105 core-seconds with it, 91 without) and the screencast as much as the tests themselves, while a
    // failure keeps its screenshot and error context regardless. To debug one, run its file again with
    // E2E_TRACE=1.
    trace: process.env.E2E_TRACE
      ? { mode: 'retain-on-failure', screenshots: true, snapshots: true, sources: true }
      : 'off',
    // Contexts a spec opens itself get the browser's language: Chinese too, unless they set one.
    launchOptions: { executablePath: CHROMIUM_PATH, args: [...CHROMIUM_FLAGS, '--lang=zh-CN'] },
    viewport: { width: 1440, height: 900 },
    // A Chinese browser, as the portal's users have: a page no one chose a language on follows the
    // browser's (i18n/index.ts), and the suite's first visits read Chinese. Specs of an English
    // browser open a context with `locale: 'en-US'`.
    locale: 'zh-CN',
  },
  webServer: {
    // The server compiled, as `npm start` runs it (`npm test` builds it before the browsers start).
    command: `rm -rf "${dataDir}" && node ../scripts/ensure-server-build.mjs && node --enable-source-maps ../apps/server/dist/server.js`,
    url: `http://localhost:${port}/api/health`,
    timeout: 120_000,
    reuseExistingServer: false,
    env: {
      PORT: String(port),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      NODE_ENV: 'development',
      // Every spec signs in from this one address.
      RATE_LIMIT_SCALE: '100',
    },
    stdout: 'pipe',
  },
});
