import { join, resolve } from 'node:path';
import type { Config } from '../config.js';
import { openDatabase, type Database } from './client.js';

/** PostgreSQL when DATABASE_URL is set, else the embedded PGlite in DATA_DIR. */
export function openConfiguredDatabase(config: Config): Promise<Database> {
  return config.databaseUrl
    ? openDatabase({ kind: 'postgres', url: config.databaseUrl })
    : openDatabase({ kind: 'pglite', dataDir: join(resolve(config.dataDir), 'pglite') });
}
