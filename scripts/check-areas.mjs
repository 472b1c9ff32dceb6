// One business area has one name on every side (ARCHITECTURE section 8): `apps/server/src/modules/<area>`,
// `apps/web/src/features/<area>` and `packages/contracts/src/<area>.ts`, and areas meet only through
// their front doors: a web feature uses another through its `api.ts` or `public.ts(x)`, a server module
// uses another through its `service.ts` or `public.ts` (so reads its tables only through its service),
// and no server modules import each other round a loop. Run by `npm test` after lint; prints every breach.
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
  'carrier-messages': "the carrier accounts' and carriers' messages, merged into `messages`",
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

/** Files a server module offers others beside `service.ts` and `public.ts`: what they plug into. */
const SERVER_DOORS = {
  'addresses/express-service.ts': "the express address book's service, beside the truck book's `service.ts`",
  'auth/users.ts': 'the user directory: languages, enabling, the staff list, profiles, pickers and counts',
  'customers/price-levels.ts': "price levels: an organisation's markups and the chains a quote applies",
  'carriers/provider.ts': 'the carrier interface and its registry, implemented by each line',
  'carriers/settings.ts':
    "the sealing keys and address rule every carrier call takes, built once from the app's configuration",
  'carriers/tracking.ts':
    "a parcel's tracking from its carrier account and Karrio's signed webhooks, asked by the express line",
  'downloads/runner.ts': 'defines and queues an export: what the download centre offers every list',
  'express-channels/carriers.ts': "the express line's carrier providers, asked by quotes and tracking",
  'express-waybills/stats.ts': "the waybills' dashboard counts, gathered by home",
  'integrations/webhooks.ts': 'the webhook service: the lines emit their status events through it',
  'limits/plugin.ts': 'the request-limit hook a route attaches',
  'site/ads.ts': "the tenant's ads, served by common beside the server time",
  'truck-products/carriers.ts': "the truck line's carrier providers, asked by quotes and orders",
  'truck-quotes/tasks.ts': 'manual quotation tasks: the truck order books a priced task through it',
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

/**
 * Relative specifiers that load the file when this one runs: `import type` and `export type` are
 * erased, a dynamic `import()` read for a type (`import('./x').Row`) too. An import with only inline
 * `type` names still loads the file (the compiler keeps it as written), so it counts.
 */
function valueImports(file) {
  const text = readFileSync(file, 'utf8');
  const found = [];
  const pattern =
    /^\s*(?:import|export)\s+(type\s)?[^'";]*?\bfrom\s*['"]([^'"]+)['"]|\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)(\.(?!then\b)\w)?|^\s*import\s*['"]([^'"]+)['"]/gm;
  for (const match of text.matchAll(pattern)) {
    if (match[1] || match[4]) continue;
    const specifier = match[2] ?? match[3] ?? match[5];
    if (specifier?.startsWith('.')) found.push(specifier);
  }
  return found;
}

const show = (file) => relative(root, file).split(sep).join('/');
const FRONT_DOORS = new Set(['api.ts', 'public.ts', 'public.tsx']);

for (const file of sourceFiles(webDir)) {
  const own = areaOf(featuresDir, file);
  const inApp = !relative(join(webDir, 'app'), file).startsWith('..');
  const isMessageRegistry = show(file) === 'apps/web/src/i18n/features.ts';
  for (const specifier of relativeImports(file)) {
    // app/ is the shell that composes everything: nothing but the entry that mounts it may lean on it. What features share
    // with it (the session, branding, theme, the page in view) lives in context/.
    const isEntry = show(file) === 'apps/web/src/main.tsx';
    if (
      !inApp &&
      !isEntry &&
      !relative(join(webDir, 'app'), resolve(dirname(file), specifier)).startsWith('..')
    )
      problems.push(
        `${show(file)} imports ${specifier}: only app/ itself uses the app shell (shared state is in context/)`,
      );
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

// A server module is used by others through its front door: `service.ts` (the rules), `public.ts`
// (what it offers beside them), or a file listed in SERVER_DOORS.
const isServerDoor = (area, path) =>
  path === 'service.ts' || path === 'public.ts' || `${area}/${path}` in SERVER_DOORS;
/** module -> module it loads -> the first import seen that does it, for the cycle check below. */
const moduleGraph = new Map();

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
    else if (!isServerDoor(area, path))
      problems.push(
        `${show(file)} imports ${specifier}: module ${own[0]} uses ${area} through its service.ts or public.ts (or a file listed in SERVER_DOORS with the reason), not its internals`,
      );
  }
  if (!own) continue;
  for (const specifier of valueImports(file)) {
    const target = areaOf(modulesDir, resolve(dirname(file), specifier));
    if (!target || own[0] === target[0]) continue;
    const edges = moduleGraph.get(own[0]) ?? new Map();
    if (!edges.has(target[0])) edges.set(target[0], `${show(file)} imports ${specifier}`);
    moduleGraph.set(own[0], edges);
  }
}

// d. No cycle between server modules: a module calls the modules below it; news travels up through a
// registry the module above fills, or an event. Each strongly connected group is named with its
// shortest loops and the import that closes each.
function stronglyConnected(graph) {
  const index = new Map();
  const low = new Map();
  const stack = [];
  const groups = [];
  let next = 0;
  const visit = (node) => {
    index.set(node, next);
    low.set(node, next++);
    stack.push(node);
    for (const to of graph.get(node)?.keys() ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node), low.get(to)));
      } else if (stack.includes(to)) low.set(node, Math.min(low.get(node), index.get(to)));
    }
    if (low.get(node) !== index.get(node)) return;
    const group = [];
    let member;
    do {
      member = stack.pop();
      group.push(member);
    } while (member !== node);
    if (group.length > 1) groups.push(group.sort());
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  return groups;
}

/** The shortest loop from `start` back to it inside `group`, as its list of modules. */
function shortestLoop(graph, group, start) {
  const from = new Map([[start, null]]);
  const queue = [start];
  while (queue.length) {
    const node = queue.shift();
    for (const to of [...(graph.get(node)?.keys() ?? [])].sort()) {
      if (!group.includes(to)) continue;
      if (to === start) {
        const loop = [node];
        while (from.get(loop[0]) !== null) loop.unshift(from.get(loop[0]));
        return loop;
      }
      if (!from.has(to)) {
        from.set(to, node);
        queue.push(to);
      }
    }
  }
  return [start];
}

for (const group of stronglyConnected(moduleGraph)) {
  const seen = new Set();
  const loops = [];
  for (const start of group) {
    const loop = shortestLoop(moduleGraph, group, start);
    const key = [...loop].sort().join(',');
    if (seen.has(key)) continue;
    seen.add(key);
    const last = loop[loop.length - 1];
    loops.push(`${[...loop, start].join(' -> ')} (closed by ${moduleGraph.get(last).get(start)})`);
  }
  problems.push(
    `server modules ${group.join(', ')} import each other round a loop; break each by a registry or by moving the code up:\n      ${loops.join('\n      ')}`,
  );
}

if (problems.length) {
  console.error(`Areas out of line (${problems.length}):`);
  for (const problem of problems) console.error(`  - ${problem}`);
  process.exit(1);
}
console.log(
  `Areas agree: ${modules.length} server modules, ${features.length} web features, ${contracts.length} contracts; imports between areas keep to their front doors, and no server modules import each other round a loop.`,
);
