// One business area has one name on every side (ARCHITECTURE section 8): `apps/server/src/modules/<area>`,
// `apps/web/src/features/<area>` and `packages/contracts/src/<area>.ts`, and areas meet only through
// their front doors: a web feature uses another through its `api.ts` or `public.ts(x)`, a server module
// reads another's tables only through its service. Run by `npm test` after lint; prints every breach.
// Usage: node scripts/check-areas.mjs [project root]
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

const root = resolve(process.argv[2] ?? new URL('..', import.meta.url).pathname);
const modulesDir = join(root, 'apps/server/src/modules');
const featuresDir = join(root, 'apps/web/src/features');
const webDir = join(root, 'apps/web/src');
const contractsDir = join(root, 'packages/contracts/src');

/** Server modules with no page of their own: plumbing that other modules and pages call. */
const SERVER_ONLY = {
  carriers: 'carrier providers (rate, book, track, cancel) behind the quoting of every line',
  common: 'server time, host lookup, address check and ads, asked for by many pages',
  limits: 'per-client request limits counted in the database, shared by every server process',
  mail: 'sends mail; its dev mailbox is a developer page the server renders itself',
  numbering: 'order, bill and work order numbers for other modules; no routes',
  uploads: 'stores the files behind every upload control',
};

/** Web features with no server module of the same name. */
const WEB_ONLY = {
  errors: 'the 401, 404 and 500 pages of the shell; no data',
  profile: "the signed-in user's own page; its calls are the account's, served by `auth`",
};

/** Contracts that are shared rules rather than one area's: value types, catalogues, the shipment. */
const SHARED_CONTRACTS = {
  api: 'the envelope, result codes and paging of every call',
  'changelog-blocks':
    "a feature update's body as paragraphs and lists, without the changelog's schemas: the shell shows it on every page",
  countries: 'dial codes and countries',
  'express-messages': "the express line's messages, merged into `messages`",
  'express-rating': 'the pure express rating function, used by channels (tables) and quotes',
  'fba-warehouses': 'the Amazon warehouse catalogue for addresses and quotes',
  fields: 'the base field schemas: safe text, strict ids and numbers, dates',
  identity: 'who a user is (staff, branch, agent, customer)',
  menu: 'the menu tree the server sends and the roles grant',
  messages: "the server's messages in both languages",
  money: 'the one money type, parser and formatter',
  phone: 'phone numbers checked by their dial code',
  responses: 'response schemas of every area, shared by the routes and the web',
  'state-machine': 'the table-driven status machine every area uses',
  'truck-rating': 'the pure truck rating function, used by products (tariffs) and quotes',
  'truck-shipment': 'the shipment a truck quote prices and an order carries',
  validation: 'field rules shared by every form and route',
};

const problems = [];
// A folder with no files is not in the repository (a rename's leftover in a working copy): not an area.
const hasFiles = (path) =>
  readdirSync(path, { withFileTypes: true }).some((e) => !e.isDirectory() || hasFiles(join(path, e.name)));
const folders = (dir) =>
  existsSync(dir)
    ? readdirSync(dir).filter((name) => statSync(join(dir, name)).isDirectory() && hasFiles(join(dir, name)))
    : [];

// a. A server module and a web feature of one area share its name.
const modules = folders(modulesDir);
const features = folders(featuresDir);
for (const name of modules)
  if (!features.includes(name) && !(name in SERVER_ONLY))
    problems.push(
      `server module modules/${name} has no web feature features/${name}: rename one side, or list it in SERVER_ONLY with the reason it has no page`,
    );
for (const name of features)
  if (!modules.includes(name) && !(name in WEB_ONLY))
    problems.push(
      `web feature features/${name} has no server module modules/${name}: rename one side, or list it in WEB_ONLY with the reason`,
    );
// An exception for a name that now has both sides would hide the next mismatch of that name.
for (const name of [...Object.keys(SERVER_ONLY), ...Object.keys(WEB_ONLY)])
  if (modules.includes(name) && features.includes(name))
    problems.push(`"${name}" has a server module and a web feature now: drop it from the exceptions`);

// b. A contracts file of an area carries the area's name.
const contracts = existsSync(contractsDir)
  ? readdirSync(contractsDir)
      .filter((name) => !/\.test\.ts$/.test(name))
      .map((name) => name.replace(/\.ts$/, ''))
  : [];
for (const name of contracts)
  if (!(name in SHARED_CONTRACTS) && !modules.includes(name))
    problems.push(
      `contracts ${name}: no server module modules/${name}; name it after its area, or list it in SHARED_CONTRACTS with the reason`,
    );

// c. Imports between areas go through the front doors.
function sourceFiles(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(path);
    return /\.(ts|tsx|mts|js|mjs)$/.test(entry.name) ? [path] : [];
  });
}

/** Relative specifiers of static imports and exports, dynamic imports and side-effect imports. */
function relativeImports(file) {
  const text = readFileSync(file, 'utf8');
  const found = [];
  const pattern =
    /\bfrom\s*['"]([^'"]+)['"]|\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s*['"]([^'"]+)['"]/gm;
  for (const match of text.matchAll(pattern)) {
    const specifier = match[1] ?? match[2] ?? match[3];
    if (specifier?.startsWith('.')) found.push(specifier);
  }
  return found;
}

/** `[area, path inside the area]` when `path` lies in one of `dir`'s area folders. */
function areaOf(dir, path) {
  const inside = relative(dir, path);
  if (inside.startsWith('..') || inside === '') return null;
  const [area, ...rest] = inside.split(sep);
  return rest.length ? [area, rest.join('/')] : null;
}

const show = (file) => relative(root, file).split(sep).join('/');
const FRONT_DOORS = new Set(['api.ts', 'public.ts', 'public.tsx']);

for (const file of sourceFiles(webDir)) {
  const own = areaOf(featuresDir, file);
  const inApp = !relative(join(webDir, 'app'), file).startsWith('..');
  const isMessageRegistry = show(file) === 'apps/web/src/i18n/features.ts';
  for (const specifier of relativeImports(file)) {
    const target = areaOf(featuresDir, resolve(dirname(file), specifier));
    if (!target) continue;
    const [area, path] = target;
    if (own) {
      if (own[0] !== area && !FRONT_DOORS.has(path))
        problems.push(
          `${show(file)} imports ${specifier}: another feature is used only through its api.ts or public.ts(x)`,
        );
    } else if (!inApp && !(isMessageRegistry && path === 'messages.ts')) {
      // app/ composes features into routes; shared code must not lean on any feature.
      problems.push(
        `${show(file)} imports ${specifier}: shared code (components, hooks, lib) must not use a feature`,
      );
    }
  }
}

for (const file of sourceFiles(modulesDir)) {
  if (/\.test\.ts$/.test(file)) continue;
  const own = areaOf(modulesDir, file);
  for (const specifier of relativeImports(file)) {
    const resolved = resolve(dirname(file), specifier);
    // The aggregate of every module's tables (for migrations) would be a way round the rule below.
    if (show(resolved).startsWith('apps/server/src/db/schema'))
      problems.push(
        `${show(file)} imports ${specifier}: a module imports its own schema.ts, not every table`,
      );
    const target = areaOf(modulesDir, resolved);
    if (!target || !own || own[0] === target[0]) continue;
    const [area, path] = target;
    if (/^schema(\.ts|\/|$)/.test(path))
      problems.push(
        `${show(file)} imports ${specifier}: module ${own[0]} reads ${area}'s tables only through ${area}'s service`,
      );
  }
}

if (problems.length) {
  console.error(`Areas out of line (${problems.length}):`);
  for (const problem of problems) console.error(`  - ${problem}`);
  process.exit(1);
}
console.log(
  `Areas agree: ${modules.length} server modules, ${features.length} web features, ${contracts.length} contracts; imports between areas keep to their front doors.`,
);
