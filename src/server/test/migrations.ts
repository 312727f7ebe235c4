import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MIGRATIONS_FOLDER } from '#server/db/client.js';

/**
 * The data part of a migration (its UPDATE statements, comments stripped), for a test to run again on rows
 * written the way they were before it.
 */
export function migrationUpdates(file: string): string[] {
  return migrationStatements(file, 'UPDATE');
}

/** A migration's statements that start with `prefix` (its backfill's INSERTs, say), comments stripped. */
export function migrationStatements(file: string, prefix: string): string[] {
  return readFileSync(join(MIGRATIONS_FOLDER, file), 'utf8')
    .split('--> statement-breakpoint')
    .map((s) => s.replace(/^\s*--.*$/gm, '').trim())
    .filter((s) => s.startsWith(prefix));
}
