// First, before anything allocates much: see the module.
import './lib/tick-classes.js';
import { resolve } from 'node:path';
import { buildApp } from './app.js';
import { ConfigError, loadConfig, startupWarnings, type Config } from './config.js';
import { openConfiguredDatabase } from './db/open.js';
import { seed } from './db/seed.js';
import { JOBS } from './jobs/index.js';
import { startJobs } from './jobs/scheduler.js';
import { Metrics } from './lib/metrics.js';

const SHUTDOWN_DRAIN_MS = 1000;

async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  const database = await openConfiguredDatabase(config);
  const deps = { config, database, db: database.db, now: () => new Date(), metrics: new Metrics() };
  const seeded = await seed(deps);
  const app = await buildApp(deps);
  const stopJobs = startJobs(deps, JOBS, app.log);

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: finishing requests in flight');
    // First a short drain: /readyz turns 503 so a load balancer stops sending, and requests already on the
    // wire get parsed (close() would drop a connection whose request it has not read yet as idle).
    app.draining = true;
    await new Promise((r) => setTimeout(r, SHUTDOWN_DRAIN_MS));
    // close() stops accepting connections and resolves once in-flight requests are answered.
    await app.close();
    await stopJobs();
    await database.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  const metricsListener = await app.listenForMetrics();
  const url = config.publicUrl;
  console.log(
    `\n  Flujo is running at ${url}  (database: ${database.kind === 'pglite' ? `embedded, in ${resolve(config.dataDir)}` : 'PostgreSQL'})`,
  );
  if (metricsListener) console.log(`  Metrics: http://${config.host}:${metricsListener.port}/metrics`);
  // To stderr and framed, so they stand out in a process manager's log as well as in a terminal.
  for (const warning of startupWarnings(config)) {
    console.warn(`\n  ${'!'.repeat(100)}\n  WARNING: ${warning}\n  ${'!'.repeat(100)}\n`);
    app.log.warn(warning);
  }
  if (seeded.adminRefused) {
    console.error(`\n  ERROR: ${seeded.adminRefused}\n`);
    app.log.error(seeded.adminRefused);
  }
  if (seeded.demoAdmin) {
    console.log(
      `\n  A demo admin was created. Sign in with:\n    email:    ${seeded.demoAdmin.email}\n    password: ${seeded.demoAdmin.password}\n  (shown only this once; create another with npm run admin -- create --email ... --password ...)\n`,
    );
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
