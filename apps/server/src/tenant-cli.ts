import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { LANGUAGES, type Language } from '@freight/contracts/api';
import { translate } from '@freight/contracts/messages';
import { tenantCreateBody } from '@freight/contracts/tenants';
import { fieldMessage, localizeIssues } from '@freight/contracts/validation';
import { ConfigError, loadConfig } from './config.ts';
import { announceCacheChange } from './db/cache-events.ts';
import { type Db, openDatabase } from './db/client.ts';
import { syncReferenceData } from './db/seed.ts';
import { runAsSystem } from './db/tenant-scope.ts';
import { AppError } from './lib/errors.ts';
import { createMailer, type Mailer } from './modules/mail/service.ts';
import {
  createTenantWithAdmin,
  findTenantByCodeForPlatform,
  listAllTenants,
  setTenantStatus,
} from './modules/tenants/service.ts';

/*
 * `npm run tenant -- <command>`: the platform operator's tenant commands, against DATABASE_URL or the
 * embedded database in DATA_DIR (stop the server first then: the embedded database is one process's).
 *
 *   create <code> --host <host> [--host <host>...] --admin <email> [--name <name>] [--name-en <name>]
 *          [--language zh-CN|en-US] [--scheme https|http]
 *   list
 *   disable <code>
 *   enable <code>
 */

export const USAGE = `Usage: npm run tenant -- <command>
  create <code> --host <host> [--host <host>...] --admin <email> [--name <name>] [--name-en <name>]
         [--language zh-CN|en-US] [--scheme https|http]
  list
  disable <code>
  enable <code>`;

export class CommandError extends Error {}

export interface CommandDeps {
  db: Db;
  mailer: Mailer;
  /** Where the command writes its report. */
  print(line: string): void;
  /** The scheme of the mailed set-password link unless `--scheme` says (PUBLIC_URL's, else https). */
  scheme?: 'http' | 'https';
}

/** Runs one command; throws CommandError (or AppError) with a message for the operator. */
export async function runTenantCommand(argv: string[], deps: CommandDeps): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      host: { type: 'string', multiple: true },
      admin: { type: 'string' },
      name: { type: 'string' },
      'name-en': { type: 'string' },
      language: { type: 'string' },
      scheme: { type: 'string' },
    },
  });
  const [command, code] = positionals;
  switch (command) {
    case 'create': {
      const language = (values.language ?? 'zh-CN') as Language;
      if (!LANGUAGES.includes(language)) throw new CommandError('--language must be zh-CN or en-US');
      const scheme = values.scheme ?? deps.scheme ?? 'https';
      if (scheme !== 'http' && scheme !== 'https') throw new CommandError('--scheme must be http or https');
      const parsed = tenantCreateBody.safeParse({
        code: code ?? '',
        name: values.name ?? code ?? '',
        nameEn: values['name-en'] ?? '',
        hosts: values.host ?? [],
        adminEmail: values.admin ?? '',
      });
      if (!parsed.success) {
        const problems = localizeIssues(parsed.error.issues, 'en-US', 'tenant');
        throw new CommandError(problems.map((p) => `${optionOf(p.field)}: ${p.message}`).join('\n'));
      }
      const created = await createTenantWithAdmin(
        deps.db,
        deps.mailer,
        { ...parsed.data, language },
        (host) => `${scheme}://${host}`,
      );
      const t = created.tenant;
      deps.print(`Created tenant ${t.code} (id ${t.id}) on ${t.hosts.join(', ')}.`);
      deps.print(`A set-password link was mailed to ${parsed.data.adminEmail}.`);
      return;
    }
    case 'list': {
      const { list } = await listAllTenants(deps.db, {}, { page: 1, limit: 200 });
      deps.print(['id', 'code', 'status', 'name', 'hosts'].join('\t'));
      for (const t of list)
        deps.print([t.id, t.code, t.enabled ? 'enabled' : 'disabled', t.name, t.hosts.join(',')].join('\t'));
      return;
    }
    case 'disable':
    case 'enable': {
      if (!code) throw new CommandError(`${command} needs a tenant code\n${USAGE}`);
      const tenant = await findTenantByCodeForPlatform(deps.db, code.trim().toLowerCase());
      if (!tenant) throw new CommandError(`code: no tenant ${code}`);
      const { sessionsEnded } = await setTenantStatus(deps.db, tenant.id, command === 'enable');
      await announceCacheChange(deps.db, 'tenants');
      deps.print(
        command === 'enable'
          ? `Enabled tenant ${tenant.code}.`
          : `Disabled tenant ${tenant.code}; ${sessionsEnded} session(s) ended.`,
      );
      return;
    }
    default:
      throw new CommandError(USAGE);
  }
}

/** The option the operator typed for a field of the create body. */
function optionOf(field: string): string {
  const head = field.split('.')[0] ?? field;
  return (
    { code: 'code', name: '--name', nameEn: '--name-en', hosts: '--host', adminEmail: '--admin' }[head] ??
    field
  );
}

/** A service error as the operator reads it: the field named, in English. */
function describe(error: AppError): string {
  const fields = error.fields ?? [];
  if (fields.length === 0) return translate('en-US', error.key, error.params);
  return fields
    .map((f) => `${optionOf(f.field)}: ${fieldMessage(f.field, f.key, 'en-US', f.params, 'tenant')}`)
    .join('\n');
}

/** The platform operator's command: system work across tenants, declared as such. */
function main() {
  return runAsSystem(command);
}

async function command() {
  const config = loadConfig();
  const database = await openDatabase({
    url: config.DATABASE_URL,
    dataDir: config.DATA_DIR,
    poolMax: 2,
    // On Citus its system work must reach the shards as the server's does.
    distribute: config.DATABASE_DISTRIBUTE,
  });
  try {
    await syncReferenceData(database.db);
    await runTenantCommand(process.argv.slice(2), {
      db: database.db,
      mailer: createMailer(config.SMTP_URL, config.MAIL_FROM),
      print: (line) => console.log(line),
      scheme: config.PUBLIC_URL?.startsWith('http:') ? 'http' : 'https',
    });
  } finally {
    await database.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    if (error instanceof AppError) console.error(describe(error));
    else if (error instanceof CommandError || error instanceof ConfigError) console.error(error.message);
    else if (error instanceof TypeError && (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS'))
      console.error(`${error.message}\n${USAGE}`);
    else console.error(error);
    process.exit(1);
  });
}
