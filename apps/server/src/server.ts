import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { openDatabase } from './db/client.ts';
import { DEMO_ACCOUNTS, DEMO_PASSWORD, ensureBuiltinRoles, seedDemo, syncReferenceData } from './db/seed.ts';
import { runAsSystem } from './db/tenant-scope.ts';
import { createTenant, DEFAULT_TENANT_CODE } from './modules/site/service.ts';

async function main() {
  const config = loadConfig();
  const database = await openDatabase({
    url: config.DATABASE_URL,
    replicaUrl: config.DATABASE_REPLICA_URL,
    dataDir: config.DATA_DIR,
    poolMax: config.DATABASE_POOL_MAX,
    distribute: config.DATABASE_DISTRIBUTE,
    acquireTimeoutMs: config.DATABASE_ACQUIRE_TIMEOUT_MS,
  });
  // Start-up writes reference data and the first tenants: system work, declared as such. Only this
  // part: the server's own requests each run as their tenant.
  const seeded = await runAsSystem(async () => {
    await syncReferenceData(database.db);
    if (config.SEED_DEMO) return (await seedDemo(database.db)).created;
    const tenant = await createTenant(database.db, { code: DEFAULT_TENANT_CODE, name: 'Freight portal' });
    await ensureBuiltinRoles(database.db, tenant.id);
    return false;
  });

  const app = await buildApp({ config, database });
  // SIGTERM (a deploy, the load balancer's drain): stop taking connections, let the requests in flight
  // finish, close the pool, exit 0. A second signal, or requests still running after the grace
  // period, end the process at once with 1.
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) {
      app.log.warn({ signal }, 'second signal: exiting now');
      process.exit(1);
    }
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    setTimeout(() => {
      app.log.error('shutdown grace period over: exiting with requests unfinished');
      process.exit(1);
    }, config.SHUTDOWN_TIMEOUT_SECONDS * 1000).unref();
    try {
      await app.close();
      await database.close();
    } catch (error) {
      app.log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.PORT, host: config.HOST });
  const url = `http://localhost:${config.PORT}`;
  const lines = [
    '',
    `Freight portal is running at ${url}`,
    `Database: ${database.kind === 'pglite' ? `embedded (${config.DATA_DIR}/db)` : 'PostgreSQL'}`,
    config.SMTP_URL
      ? 'E-mail: SMTP'
      : `E-mail: no SMTP configured; codes and links appear at ${url}/api/dev/mailbox`,
  ];
  if (seeded) {
    lines.push('', `Demo sign-ins (password ${DEMO_PASSWORD} for each):`);
    for (const a of DEMO_ACCOUNTS) lines.push(`  ${a.email.padEnd(24)} ${a.label}`);
  }
  console.log(lines.join('\n'));
}

main().catch((error) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
