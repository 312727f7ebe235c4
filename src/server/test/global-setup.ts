import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../db/client.js';
import { ident, postgresTarget, templateName, withAdminClient } from './template.js';

/**
 * Migrates one database per test run; each test file then starts from a copy of it
 * (a PostgreSQL template clone, or a PGlite data-directory dump), which is far cheaper than migrating each time.
 */
export default async function setup(project: TestProject) {
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    const { adminUrl, base, urlFor } = postgresTarget(url);
    const tpl = templateName(base);
    await withAdminClient(adminUrl, async (c) => {
      await c.query(`DROP DATABASE IF EXISTS ${ident(tpl)} WITH (FORCE)`);
      await c.query(`CREATE DATABASE ${ident(tpl)}`);
    });
    const database = await openDatabase({ kind: 'postgres', url: urlFor(tpl), poolSize: 1 });
    await database.close();
    project.provide('pgTemplate', tpl);
    return async () => {
      await withAdminClient(adminUrl, (c) => c.query(`DROP DATABASE IF EXISTS ${ident(tpl)} WITH (FORCE)`));
    };
  }
  const database = await openDatabase({ kind: 'pglite' });
  // Each test database starts from this copy, and its start costs in proportion to the copy's size. The app uses
  // the database `postgres` alone; template0 and template1 (read only by CREATE DATABASE, which the embedded
  // database never runs) are two fifths of the copy, so they are dropped from it (decision 183).
  for (const template of ['template0', 'template1']) {
    await database.pglite!.query(`ALTER DATABASE ${template} IS_TEMPLATE false`);
    await database.pglite!.query(`DROP DATABASE ${template}`);
  }
  // A PGlite start zero-fills all of shared_buffers in its WebAssembly memory: at initdb's 128 MB that was about two
  // thirds of a test database's start (1.5 s CPU; 0.55 s at 16 MB). A test database is a few MB held in memory, so
  // a small buffer pool costs its queries nothing. Set in the copy (postgresql.auto.conf), so every database
  // started from it, the process tests' too, has it (decision 184).
  await database.pglite!.query(`ALTER SYSTEM SET shared_buffers = '16MB'`);
  await database.pglite!.query('CHECKPOINT');
  const dump = await database.pglite!.dumpDataDir('none');
  await database.close();
  const file = join(tmpdir(), `flujo-pglite-template-${process.pid}.tar`);
  await writeFile(file, Buffer.from(await dump.arrayBuffer()));
  project.provide('pgliteTemplateFile', file);
  return undefined;
}

declare module 'vitest' {
  export interface ProvidedContext {
    pgTemplate?: string;
    pgliteTemplateFile?: string;
  }
}
