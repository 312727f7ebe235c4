import { existsSync, readdirSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { PGlite } from '@electric-sql/pglite';

/**
 * Copies an embedded database into one gzipped tarball. The directory must not be open in another process
 * (stop the server first): PGlite has no lock that would keep two processes apart.
 */
export async function backupPglite(dataDir: string, outFile: string): Promise<number> {
  if (!existsSync(dataDir)) throw new Error(`No embedded database at ${dataDir}`);
  const db = new PGlite({ dataDir });
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
  const db = new PGlite({ dataDir, loadDataDir: new Blob([await readFile(file)]) });
  await db.waitReady;
  await db.close();
}
