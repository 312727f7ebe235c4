import { join, resolve } from 'node:path';
import { ConfigError, loadConfig } from '../config.js';
import { EXIT_USAGE, parseCliArgs, type CliOutput } from './cli.js';
import { backupPglite, restorePglite } from './backup.js';

const BACKUP_USAGE = `Back up or restore the embedded database (PGlite) in DATA_DIR. Stop the server first.

Usage:
  npm run backup                                   same as "create"
  npm run backup -- create [--out <file>]          write backups/flujo-<time>.tar.gz (or <file>)
  npm run backup -- restore <file>                 restore <file> into DATA_DIR, which must hold no database
  npm run backup -- --help                         this text

DATA_DIR comes from the environment (default ./data); result files under DATA_DIR/results are plain files:
copy them alongside. With DATABASE_URL set, use pg_dump / pg_restore instead (docs/operations.md).`;

/** Exit codes: 0 done, 1 failed, 2 wrong database kind, 64 bad usage (as sysexits' EX_USAGE). */
export async function runBackupCli(
  argv: string[],
  env: Record<string, string | undefined> = process.env,
  out: CliOutput = console,
): Promise<number> {
  const parsed = parseCliArgs(argv, { out: { type: 'string' } }, BACKUP_USAGE, out);
  if (typeof parsed === 'number') return parsed;
  const { values, positionals } = parsed;
  const [command = 'create', ...rest] = positionals;
  const usageProblem =
    command !== 'create' && command !== 'restore'
      ? `Unknown command "${command}".`
      : command === 'create' && rest.length > 0
        ? `Unexpected argument "${rest[0]}".`
        : command === 'restore' && (rest.length !== 1 || values.out)
          ? 'restore takes exactly one file.'
          : undefined;
  if (usageProblem) {
    out.error(`${usageProblem}\n\n${BACKUP_USAGE}`);
    return EXIT_USAGE;
  }

  try {
    // Read before the whole configuration, which wants more on PostgreSQL (PAYMENT_PROVIDER): the pointer to
    // pg_dump is the answer whatever else the environment holds.
    if (env.DATABASE_URL) {
      out.error('DATABASE_URL is set: back PostgreSQL up with pg_dump (see docs/operations.md).');
      return 2;
    }
    const config = loadConfig(env);
    const dataDir = join(resolve(config.dataDir), 'pglite');
    if (command === 'restore') {
      const file = resolve(rest[0]!);
      await restorePglite(file, dataDir);
      out.log(`Restored ${file} into ${dataDir}.`);
      return 0;
    }
    const file = resolve(
      values.out ?? `backups/flujo-${new Date().toISOString().replace(/[:.]/g, '-')}.tar.gz`,
    );
    const bytes = await backupPglite(dataDir, file);
    out.log(`Backed up ${dataDir} to ${file} (${(bytes / 1024 / 1024).toFixed(2)} MB).`);
    return 0;
  } catch (err) {
    out.error(err instanceof ConfigError || err instanceof Error ? err.message : String(err));
    return 1;
  }
}
