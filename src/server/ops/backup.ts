import { existsSync, readdirSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pgliteExtensions } from '#server/db/client.js';

/**
 * Copies an embedded database into one gzipped tarball. The directory must not be open in another process
 * (stop the server first): PGlite has no lock that would keep two processes apart.
 */
export async function backupPglite(dataDir: string, outFile: string): Promise<number> {
  // PGlite would quietly create an empty database in a directory without one, and back that up.
  if (!existsSync(join(dataDir, 'PG_VERSION'))) throw new Error(`No embedded database at ${dataDir}`);
  const db = new PGlite({ dataDir, extensions: await pgliteExtensions() });
  try {
    await db.waitReady;
    const dump = await db.dumpDataDir('gzip');
    const bytes = Buffer.from(await dump.arrayBuffer());
    await mkdir(dirname(outFile), { recursive: true });
    await writeFile(outFile, bytes);
    return bytes.length;
  } finally {
    await db.close();
  }
}

/** Restores a tarball made by backupPglite into an empty (or new) data directory. */
export async function restorePglite(file: string, dataDir: string): Promise<void> {
  if (existsSync(dataDir) && readdirSync(dataDir).length > 0) {
    throw new Error(`${dataDir} is not empty: move it aside before restoring into it`);
  }
  const existed = existsSync(dataDir);
  const bytes = await readFile(file);
  try {
    await mkdir(dataDir, { recursive: true });
    const db = new PGlite({ dataDir, loadDataDir: new Blob([bytes]), extensions: await pgliteExtensions() });
    await db.waitReady;
    // Proves the restored cluster opens and holds the schema, before anyone starts a server on it.
    await db.query('select 1 from user_profiles limit 1');
    await db.close();
  } catch (err) {
    // Leave no half-written directory that a server start would take for a database.
    await rm(dataDir, { recursive: true, force: true });
    if (existed) await mkdir(dataDir);
    throw new Error(
      `${file} is not a usable Flujo backup: ${err instanceof Error ? err.message : String(err)}`,
      { cause: err },
    );
  }
}
