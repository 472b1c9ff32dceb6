import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { openDatabase } from '../src/db/client.ts';

/**
 * Every test file gets a database of its own, already migrated: the migrations run once per run (once
 * per change of them, across runs), into a template that each file's database is copied from. On
 * PostgreSQL the template is a database (`CREATE DATABASE … TEMPLATE`), on the embedded database a
 * dump of its data folder (`loadDataDir`). A copy costs a fraction of running 40 migrations again.
 */
const migrationsFolder = join(dirname(fileURLToPath(import.meta.url)), '../src/db/migrations');

/** What the template depends on: every migration's name and text. */
export function migrationsDigest(): string {
  const hash = createHash('sha256');
  for (const name of readdirSync(migrationsFolder).sort())
    if (name.endsWith('.sql')) hash.update(name).update(readFileSync(join(migrationsFolder, name)));
  hash.update(readFileSync(join(migrationsFolder, 'meta', '_journal.json')));
  return hash.digest('hex').slice(0, 16);
}

export const pgliteTemplatePath = (digest: string) => join(tmpdir(), `fp-pglite-template-${digest}.tar`);
export const postgresTemplateName = (digest: string) => `fp_template_${digest}`;

/** The embedded database's template file, made if missing (written aside, then moved into place). */
export async function ensurePgliteTemplate(digest: string): Promise<string> {
  const path = pgliteTemplatePath(digest);
  if (existsSync(path)) return path;
  const database = await openDatabase({ dataDir: null });
  const dump = await database.pglite?.dumpDataDir('none');
  await database.close();
  if (!dump) throw new Error('the embedded database gave no dump');
  const aside = `${path}.${process.pid}`;
  writeFileSync(aside, Buffer.from(await dump.arrayBuffer()));
  renameSync(aside, path);
  return path;
}

/** The PostgreSQL template database, made if missing; templates of older migrations are dropped. */
export async function ensurePostgresTemplate(adminUrl: string, digest: string): Promise<string> {
  const name = postgresTemplateName(digest);
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ datname: string }>(
      "select datname from pg_database where datname like 'fp\\_template\\_%'",
    );
    for (const { datname } of rows)
      if (datname !== name) await admin.query(`drop database if exists ${datname}`).catch(() => {});
    if (rows.some((r) => r.datname === name)) return name;
    // Made under a name of its own and renamed when whole: a run stopped halfway leaves no template.
    const making = `fp_making_${process.pid}`;
    await admin.query(`drop database if exists ${making}`);
    await admin.query(`create database ${making}`);
    const url = new URL(adminUrl);
    url.pathname = `/${making}`;
    const database = await openDatabase({ url: url.toString(), poolMax: 2 });
    await database.close();
    // The pool's sockets leave a moment after it ends; a template takes no connections.
    for (let i = 0; i < 50; i++) {
      const busy = await admin.query('select count(*)::int as n from pg_stat_activity where datname = $1', [
        making,
      ]);
      if (busy.rows[0]?.n === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    try {
      await admin.query(`alter database ${making} rename to ${name}`);
    } catch {
      // Another run made it meanwhile: theirs serves.
      await admin.query(`drop database if exists ${making}`);
    }
    return name;
  } finally {
    await admin.end();
  }
}
