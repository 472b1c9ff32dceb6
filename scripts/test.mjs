// `npm test`: lint, the area check, typecheck, the server suite on the embedded database and on
// PostgreSQL, then the browser suite. Prints one closing line with the totals.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import pg from 'pg';

const root = new URL('..', import.meta.url).pathname;
const reports = join(root, 'test-results');
rmSync(reports, { recursive: true, force: true });
mkdirSync(reports, { recursive: true });
const pgUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const totals = { passed: 0, failed: 0 };
/** Steps that exited non-zero: a step can fail with every test passed (an unhandled error, a lint). */
const failedSteps = [];
/** Tests that failed, by file and name. */
const failedTestNames = [];
const firstLine = (text) => (text ?? '').split('\n')[0].slice(0, 300);

/** How long each step took, printed at the end. */
const stepTimes = [];

function run(title, command, args, env = {}) {
  console.log(`\n=== ${title} ===`);
  const started = Date.now();
  const result = spawnSync(command, args, { stdio: 'inherit', cwd: root, env: { ...process.env, ...env } });
  stepTimes.push({ title, seconds: (Date.now() - started) / 1000 });
  if (result.status !== 0) failedSteps.push(`${title} (exit ${result.status ?? result.signal})`);
  return result.status === 0;
}

/** Seconds each test file took, by run: the slowest are printed at the end. */
const fileTimes = [];

function countVitest(file, label) {
  if (!existsSync(file)) return;
  const report = JSON.parse(readFileSync(file, 'utf8'));
  totals.passed += report.numPassedTests;
  totals.failed += report.numFailedTests;
  // A file that fails outside its tests (at load, or in a hook) fails no test but still fails the run.
  for (const suite of report.testResults ?? []) {
    const file = suite.name.replace(root, '');
    if (suite.startTime && suite.endTime)
      fileTimes.push({ label, file, seconds: (suite.endTime - suite.startTime) / 1000 });
    const failedTests = (suite.assertionResults ?? []).filter((t) => t.status === 'failed');
    // Named above the closing line, which is what a CI log's tail keeps.
    for (const t of failedTests)
      failedTestNames.push(`${label}: ${file} › ${t.fullName}: ${firstLine(t.failureMessages?.[0])}`);
    const testsFailed = failedTests.length > 0;
    if (suite.status === 'failed' && !testsFailed) {
      totals.failed += 1;
      failedSteps.push(`${file}: ${firstLine(suite.message)}`);
    }
  }
}

function countPlaywright(file) {
  if (!existsSync(file)) return;
  const report = JSON.parse(readFileSync(file, 'utf8'));
  const { stats, errors } = report;
  totals.passed += stats.expected + stats.flaky;
  totals.failed += stats.unexpected;
  // Errors outside any test (the web server, a global setup) fail the run without failing a test.
  for (const error of errors ?? []) failedSteps.push(`browser suite: ${firstLine(error.message)}`);
  const specTimes = new Map();
  const walk = (suite) => {
    for (const spec of suite.specs ?? [])
      for (const test of spec.tests ?? []) {
        const took = (test.results ?? []).reduce((sum, r) => sum + (r.duration ?? 0), 0);
        specTimes.set(spec.file, (specTimes.get(spec.file) ?? 0) + took);
        if (test.status === 'unexpected')
          failedTestNames.push(
            `browser: ${spec.file}:${spec.line} › ${spec.title}: ${firstLine(test.results?.at(-1)?.error?.message)}`,
          );
      }
    for (const child of suite.suites ?? []) walk(child);
  };
  for (const suite of report.suites ?? []) walk(suite);
  for (const [file, ms] of specTimes) fileTimes.push({ label: 'browser', file, seconds: ms / 1000 });
}

/**
 * The browser suite in two halves at once, each against its own portal on its own port and data
 * folder: one half leaves a core mostly idle while a page waits on the network. The spec files are
 * dealt to the halves by how long each took when last measured (`e2e/spec-seconds.json`; a new file
 * counts as a minute), longest first to the lighter half; a half runs its files in name order, each
 * file's tests in turn. Lines are prefixed with their half.
 */
const BROWSER_HALVES = 2;

function dealSpecs() {
  const specs = readdirSync(join(root, 'e2e', 'specs')).filter((name) => name.endsWith('.spec.ts'));
  const seconds = JSON.parse(readFileSync(join(root, 'e2e', 'spec-seconds.json'), 'utf8'));
  const halves = Array.from({ length: BROWSER_HALVES }, () => ({ seconds: 0, specs: [] }));
  for (const spec of specs.sort((a, b) => (seconds[b] ?? 60) - (seconds[a] ?? 60) || a.localeCompare(b))) {
    const lighter = halves.reduce((low, half) => (half.seconds < low.seconds ? half : low));
    lighter.specs.push(spec);
    lighter.seconds += seconds[spec] ?? 60;
  }
  return halves.map((half) => half.specs.sort());
}

async function browserHalves() {
  console.log('\n=== browser tests ===');
  const started = Date.now();
  const runs = dealSpecs().map((specs, index) => {
    const half = index + 1;
    return new Promise((resolve) => {
      const child = spawn(
        'npx',
        // Each name anchored to its folder, so one spec's name never picks up another's.
        ['playwright', 'test', '--config', 'e2e/playwright.config.ts', ...specs.map((s) => `specs/${s}`)],
        {
          cwd: root,
          stdio: ['ignore', 'pipe', 'pipe'],
          env: {
            ...process.env,
            E2E_PORT: String(8093 + index),
            PLAYWRIGHT_JSON_OUTPUT_NAME: join(reports, `e2e-${half}.json`),
          },
        },
      );
      for (const stream of [child.stdout, child.stderr])
        createInterface({ input: stream }).on('line', (line) => console.log(`[${half}] ${line}`));
      child.on('close', (code, signal) => {
        if (code !== 0) failedSteps.push(`browser tests, half ${half} (exit ${code ?? signal})`);
        resolve(code === 0);
      });
    });
  });
  const results = await Promise.all(runs);
  stepTimes.push({ title: 'browser tests', seconds: (Date.now() - started) / 1000 });
  return results.every(Boolean);
}

async function postgresAnswers() {
  const client = new pg.Client({ connectionString: pgUrl, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

let ok = run('lint', 'npx', ['biome', 'check', '--error-on-warnings', '.']);
// One name per area on every side, and imports between areas through their front doors only.
ok = run('areas', 'node', ['scripts/check-areas.mjs']) && ok;
ok = run('decisions index', 'node', ['scripts/check-decisions.mjs']) && ok;
ok = run('typecheck', 'npm', ['run', 'typecheck']) && ok;

const vitest = (name, env) =>
  run(
    `server tests (${name})`,
    'npx',
    [
      'vitest',
      'run',
      '--root',
      'apps/server',
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${join(reports, `server-${name}.json`)}`,
    ],
    env,
  );

ok =
  run('contract tests', 'npx', [
    'vitest',
    'run',
    '--root',
    'packages/contracts',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${join(reports, 'contracts.json')}`,
  ]) && ok;
countVitest(join(reports, 'contracts.json'), 'contracts');

const postgres = await postgresAnswers();
if (!postgres && process.env.CI) {
  console.error(`\nPostgreSQL does not answer at ${pgUrl}; CI needs it for the money tests.`);
  ok = false;
}
if (postgres) {
  ok = vitest('postgres', { TEST_DB: 'pg', TEST_DATABASE_URL: pgUrl }) && ok;
  countVitest(join(reports, 'server-postgres.json'), 'PostgreSQL');
  // What can differ on the embedded database (apps/server/vitest.config.ts).
  ok = vitest('pglite', { TEST_DB: 'pglite' }) && ok;
  countVitest(join(reports, 'server-pglite.json'), 'embedded database');
} else {
  console.warn(`\nWARNING: PostgreSQL does not answer at ${pgUrl}: the whole server suite runs embedded.`);
  console.warn('Set TEST_DATABASE_URL to a server (trust or password in the URL) to run it there.');
  ok = vitest('pglite', {}) && ok;
  countVitest(join(reports, 'server-pglite.json'), 'embedded database');
}

ok = run('web build', 'node', ['scripts/ensure-web-build.mjs']) && ok;
ok = run('server build', 'node', ['scripts/ensure-server-build.mjs']) && ok;
ok = (await browserHalves()) && ok;
for (let half = 1; half <= BROWSER_HALVES; half++) countPlaywright(join(reports, `e2e-${half}.json`));

// The next slowdown shows where it landed.
const slowest = fileTimes.sort((a, b) => b.seconds - a.seconds).slice(0, 15);
if (slowest.length > 0)
  console.log(
    `\nSlowest test files:\n${slowest.map((t) => `  ${t.seconds.toFixed(1).padStart(6)} s  ${t.label}: ${t.file}`).join('\n')}`,
  );
const steps = stepTimes.map((t) => `${t.title} ${t.seconds.toFixed(0)} s`).join(', ');
console.log(`\nSteps: ${steps}`);
if (failedTestNames.length > 0)
  console.log(`\nTests that failed:\n  ${failedTestNames.slice(0, 20).join('\n  ')}`);
if (failedSteps.length > 0) console.log(`\nSteps that failed: ${failedSteps.join('; ')}`);
console.log(`\n${totals.passed} passed, ${totals.failed} failed`);
process.exit(ok && totals.failed === 0 ? 0 : 1);
