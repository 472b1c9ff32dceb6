/**
 * `npm run lighthouse -w @freight/bench` (and the last part of `npm run bench`): Lighthouse's default
 * mobile profile in Debian's Chromium against the built web app as the real server sends it (compressed
 * copies, cache headers), on a scratch data folder: the sign-in page, and the home page signed in as the
 * demo administrator. Each page is audited `LIGHTHOUSE_RUNS` times (default 3) and the run with the
 * median performance score is the one reported, as Lighthouse advises for its run-to-run variance.
 * Prints the scores and the metrics behind them; exits 1 when performance, accessibility or best
 * practices is below 90 on either page. Reports: bench/artifacts/lighthouse-*.html and .json.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { type Flags, type RunnerResult } from 'lighthouse';
import puppeteer, { type Page } from 'puppeteer-core';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from '../e2e/chromium.ts';

const root = new URL('..', import.meta.url).pathname;
const artifacts = new URL('./artifacts/', import.meta.url).pathname;
const CHROME_FLAGS = ['--headless', ...CHROMIUM_FLAGS];
const MIN_SCORE = 90;
const CATEGORIES = ['performance', 'accessibility', 'best-practices'] as const;
const ADMIN = 'admin@example.com';
const DEMO_PASSWORD = 'Demo@123456';

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

async function waitForHealth(base: string, server: ChildProcess): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`the server exited with ${server.exitCode}`);
    try {
      if ((await fetch(`${base}/api/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error('the server did not answer /api/health within 120 s');
}

async function call<T>(base: string, path: string, body: unknown): Promise<T> {
  const res = await fetch(`${base}/api${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as { code: number; msg: string; data: T };
  if (json.code !== 200) throw new Error(`${path}: ${json.code} ${json.msg}`);
  return json.data;
}

/** Signs the demo administrator in as a person does: a mailed code (from the dev mailbox), then the password. */
async function signIn(base: string): Promise<string> {
  await call(base, '/admin/auth/getVerificationCode', { email: ADMIN, purpose: 'login' });
  let code: string | undefined;
  for (let attempt = 0; attempt < 50 && !code; attempt++) {
    const res = await fetch(`${base}/api/dev/mailbox?to=${encodeURIComponent(ADMIN)}`);
    const mail = (await res.json()) as { data: { list: { text: string }[] } };
    code = /\b(\d{6})\b/.exec(mail.data.list[0]?.text ?? '')?.[1];
    if (!code) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  if (!code) throw new Error(`no sign-in code mailed to ${ADMIN}`);
  const password = createHash('sha256').update(DEMO_PASSWORD).digest('hex');
  const { token } = await call<{ token: string }>(base, '/admin/auth/login', {
    email: ADMIN,
    password,
    code,
  });
  return token;
}

interface PageResult {
  name: string;
  scores: Record<(typeof CATEGORIES)[number], number>;
  lhr: RunnerResult['lhr'];
  /** The performance score of every run, the reported one being their median. */
  runs?: number[];
  /** The report as HTML and as JSON. */
  report: string[];
}

const RUNS = Math.max(1, Number(process.env.LIGHTHOUSE_RUNS ?? 3));

/** The run with the median performance score, carrying every run's score. */
function median(runs: PageResult[]): PageResult {
  const sorted = [...runs].sort((a, b) => a.scores.performance - b.scores.performance);
  const middle = sorted[Math.floor((sorted.length - 1) / 2)] as PageResult;
  return { ...middle, runs: runs.map((r) => r.scores.performance) };
}

async function audit(name: string, url: string, page: Page, port: number, signedIn: boolean) {
  const flags: Flags = {
    port,
    output: ['html', 'json'],
    logLevel: 'error',
    onlyCategories: [...CATEGORIES],
    // The signed-in run keeps the token set below; the browser cache is emptied by hand instead.
    disableStorageReset: signedIn,
  };
  const result = await lighthouse(url, flags, undefined, page);
  if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
  const failure = result.lhr.runtimeError;
  if (failure) console.warn(`${name}: a run failed (${failure.code}): ${failure.message}`);
  const scores = Object.fromEntries(
    CATEGORIES.map((c) => [c, Math.round((result.lhr.categories[c]?.score ?? 0) * 100)]),
  ) as PageResult['scores'];
  return { name, scores, lhr: result.lhr, report: result.report as string[] };
}

function describe({ name, scores, lhr, runs }: PageResult): string {
  const audit = (id: string) => lhr.audits[id];
  const ms = (id: string) => `${((audit(id)?.numericValue ?? 0) / 1000).toFixed(1)} s`;
  const kb = (bytes: number | undefined) => `${Math.round((bytes ?? 0) / 1024)} KB`;
  const items = (
    audit('network-requests')?.details as { items?: { resourceType?: string; transferSize?: number }[] }
  )?.items;
  const scriptBytes = (items ?? [])
    .filter((i) => i.resourceType === 'Script')
    .reduce((sum, i) => sum + (i.transferSize ?? 0), 0);
  const failing = Object.values(lhr.categories)
    .flatMap((c) => c.auditRefs)
    .filter((ref) => ref.weight > 0)
    .map((ref) => lhr.audits[ref.id])
    .filter((a) => a && a.score !== null && a.score < 0.9 && a.scoreDisplayMode !== 'informative')
    .map((a) => a?.id);
  return [
    `${name.padEnd(8)} performance ${scores.performance}${runs && runs.length > 1 ? ` (median of ${runs.join(', ')})` : ''}  accessibility ${scores.accessibility}  best practices ${scores['best-practices']}`,
    `         FCP ${ms('first-contentful-paint')}  LCP ${ms('largest-contentful-paint')}  TBT ${Math.round(audit('total-blocking-time')?.numericValue ?? 0)} ms  CLS ${(audit('cumulative-layout-shift')?.numericValue ?? 0).toFixed(3)}  SI ${ms('speed-index')}`,
    `         transferred ${kb(audit('total-byte-weight')?.numericValue)} (JavaScript ${kb(scriptBytes)}), unused JavaScript ${kb((audit('unused-javascript')?.details as { overallSavingsBytes?: number })?.overallSavingsBytes)}`,
    ...(failing.length > 0 ? [`         below 90: ${failing.join(', ')}`] : []),
    ...(lhr.runtimeError
      ? [`         run failed: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`]
      : []),
  ].join('\n');
}

async function main(): Promise<number> {
  // The build the server sends, with its brotli and gzip copies.
  execFileSync(process.execPath, ['scripts/ensure-web-build.mjs'], { cwd: root, stdio: 'inherit' });
  mkdirSync(artifacts, { recursive: true });
  const dataDir = mkdtempSync(join(tmpdir(), 'fp-lighthouse-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  execFileSync(process.execPath, ['scripts/ensure-server-build.mjs'], { cwd: root, stdio: 'inherit' });
  const server = spawn(process.execPath, ['--enable-source-maps', 'apps/server/dist/server.js'], {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  let chrome: chromeLauncher.LaunchedChrome | undefined;
  try {
    await waitForHealth(base, server);
    const token = await signIn(base);
    chrome = await chromeLauncher.launch({ chromePath: CHROMIUM_PATH, chromeFlags: CHROME_FLAGS });
    const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}` });
    const page = await browser.newPage();
    const signInRuns: PageResult[] = [];
    const homeRuns: PageResult[] = [];
    for (let run = 0; run < RUNS; run++) {
      // Signed out: the token of the run before goes.
      await page.goto(`${base}/api/health`);
      await page.evaluate(`localStorage.removeItem('token')`);
      signInRuns.push(await audit('sign-in', `${base}/login`, page, chrome.port, false));
      // The token goes in on a page of the origin that loads none of the app; one visit lets the app keep
      // what it keeps of a session (the user, the menu), as after a sign-in; then the cache is emptied,
      // so the home page is measured as a signed-in user's visit with nothing of the app downloaded.
      await page.goto(`${base}/api/health`);
      // A string rather than a function: the bench is compiled without the browser's types.
      await page.evaluate(`localStorage.setItem('token', ${JSON.stringify(token)})`);
      await page.goto(`${base}/home`, { waitUntil: 'networkidle0' });
      const cdp = await page.createCDPSession();
      await cdp.send('Network.clearBrowserCache');
      await cdp.detach();
      homeRuns.push(await audit('home', `${base}/home`, page, chrome.port, true));
    }
    await browser.disconnect();
    const results = [median(signInRuns), median(homeRuns)];
    for (const { name, report } of results) {
      writeFileSync(join(artifacts, `lighthouse-${name}.html`), report[0] ?? '');
      writeFileSync(join(artifacts, `lighthouse-${name}.json`), report[1] ?? '');
    }
    console.log('\nLighthouse (mobile profile, Debian Chromium)');
    for (const result of results) console.log(describe(result));
    const low = results.flatMap((r) =>
      CATEGORIES.filter((c) => r.scores[c] < MIN_SCORE).map((c) => `${r.name} ${c} ${r.scores[c]}`),
    );
    if (low.length > 0) {
      console.error(`\nLIGHTHOUSE BELOW ${MIN_SCORE}: ${low.join('; ')} (reports in ${artifacts})`);
      return 1;
    }
    return 0;
  } finally {
    chrome?.kill();
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

process.exitCode = await main();
