/**
 * zod (loaded later by the forms) probes `new Function` once to decide whether to compile its parsers;
 * the server's CSP allows no eval, so the browser reports that probe as a violation. Telling zod to stay
 * jitless before it loads skips the probe. Imported first by main.tsx.
 */
const holder = globalThis as { __zod_globalConfig?: { jitless?: boolean } };
holder.__zod_globalConfig = { ...holder.__zod_globalConfig, jitless: true };
