import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config.js';
import { backupPglite, restorePglite } from '../ops/backup.js';

const USAGE = `Usage:
  npm run backup                      write backups/flujo-<time>.tar.gz from DATA_DIR (stop the server first)
  npm run backup -- --out <file>      choose the file
  npm run backup -- --restore <file>  restore into DATA_DIR (which must hold no database yet)
With DATABASE_URL set, use pg_dump / pg_restore instead (docs/operations.md).`;

async function run(): Promise<number> {
  const { values } = parseArgs({
    options: { out: { type: 'string' }, restore: { type: 'string' }, help: { type: 'boolean' } },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const config = loadConfig();
  if (config.databaseUrl) {
    console.error('DATABASE_URL is set: back PostgreSQL up with pg_dump (see docs/operations.md).');
    return 2;
  }
  const dataDir = join(resolve(config.dataDir), 'pglite');
  if (values.restore) {
    await restorePglite(resolve(values.restore), dataDir);
    console.log(`Restored ${values.restore} into ${dataDir}.`);
    return 0;
  }
  const out = resolve(values.out ?? `backups/flujo-${new Date().toISOString().replace(/[:.]/g, '-')}.tar.gz`);
  const bytes = await backupPglite(dataDir, out);
  console.log(`Backed up ${dataDir} to ${out} (${(bytes / 1024 / 1024).toFixed(2)} MB).`);
  return 0;
}

run().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err instanceof ConfigError || err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
