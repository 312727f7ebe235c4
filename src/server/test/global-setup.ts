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
