import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { loadConfig } from '../config.js';
import { openDatabase, type Database } from '../db/client.js';
import { seed } from '../db/seed.js';
import { queryRows } from '../db/sql-helpers.js';
import { createAccount } from '../modules/auth/service.js';
import { backupPglite, restorePglite } from './backup.js';
import { runBackupCli } from './backup-cli.js';
import { Metrics } from '../lib/metrics.js';
import { compiled } from '../test/compiled-server.js';

// Opening PGlite data directories (and compiling the server, for the first process test) is slow on a busy
// 2-core machine.
const SLOW = 180_000;
/**
 * `npm run backup` is the embedded database's (a PostgreSQL deployment uses pg_dump): these tests open their
 * own PGlite directories whatever the suite's database is, so the embedded runs (both Node versions) cover
 * them and the PostgreSQL run leaves them out rather than repeat them.
 */
const EMBEDDED_RUN = !process.env.TEST_DATABASE_URL;

const dir = mkdtempSync(join(tmpdir(), 'flujo-backup-test-'));
const dataDir = join(dir, 'data');
const source = join(dataDir, 'pglite');
let before: Record<string, string>;

/** Per table: its row count and a digest of every row's content, so "every row came back" is checked. */
async function rowCounts(database: Database): Promise<Record<string, string>> {
  const tables = await queryRows<{ table_name: string }>(
    database.db,
    sql`select table_name from information_schema.tables where table_schema = 'public' order by table_name`,
  );
  const counts: Record<string, string> = {};
  for (const { table_name } of tables) {
    const [row] = await queryRows<{ n: number; digest: string }>(
      database.db,
      sql`select count(*)::int as n, md5(coalesce(string_agg(t::text, ',' order by t::text), '')) as digest
          from ${sql.identifier(table_name)} t`,
    );
    counts[table_name] = `${row?.n ?? -1} rows, ${row?.digest ?? ''}`;
  }
  return counts;
}

async function countsIn(pgliteDir: string): Promise<Record<string, string>> {
  const database = await openDatabase({ kind: 'pglite', dataDir: pgliteDir });
  try {
    return await rowCounts(database);
  } finally {
    await database.close();
  }
}

beforeAll(async () => {
  // Start from the suite's migrated template when there is one: creating a PGlite cluster costs seconds.
  const template = inject('pgliteTemplateFile');
  if (template) await restorePglite(template, source);
  const original = await openDatabase({ kind: 'pglite', dataDir: source });
  try {
    const deps = { db: original.db, metrics: new Metrics() };
    await seed({
      ...deps,
      config: loadConfig({
        ADMIN_EMAIL: 'ops@test.example',
        ADMIN_PASSWORD: 'ops-password-1',
        DEMO_WORKFLOWS: 'false',
      }),
    });
    for (let i = 0; i < 3; i += 1) {
      await createAccount(deps, {
        email: `backup-${i}@test.example`,
        password: 'backup-password-1',
        fullName: `B ${i}`,
      });
    }
    before = await rowCounts(original);
  } finally {
    await original.close();
  }
  expect(before.users).toMatch(/^4 rows/);
  expect(before.credit_transactions).toMatch(/^4 rows/);
}, SLOW);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.runIf(EMBEDDED_RUN)('embedded database backup: refusals', () => {
  it('refuses to restore over a directory that holds data, and leaves it as it was', async () => {
    const occupied = join(dir, 'occupied');
    mkdirSync(occupied);
    writeFileSync(join(occupied, 'keep.txt'), 'mine');
    await expect(restorePglite(join(dir, 'any.tar.gz'), occupied)).rejects.toThrow(/not empty/);
    expect(readdirSync(occupied)).toEqual(['keep.txt']);
  });

  it(
    'refuses a file that is not a backup and leaves no database behind',
    async () => {
      const bogus = join(dir, 'bogus.tar.gz');
      writeFileSync(bogus, 'this is not a tarball');
      const target = join(dir, 'bogus-target');
      await expect(restorePglite(bogus, target)).rejects.toThrow(/not a usable Flujo backup/);
      expect(existsSync(join(target, 'PG_VERSION'))).toBe(false);
    },
    SLOW,
  );

  it('refuses to back up a directory that holds no database instead of backing up an empty one', async () => {
    const empty = join(dir, 'empty');
    mkdirSync(empty);
    await expect(backupPglite(empty, join(dir, 'empty.tar.gz'))).rejects.toThrow(/No embedded database/);
    expect(existsSync(join(dir, 'empty.tar.gz'))).toBe(false);
  });
});

describe.runIf(EMBEDDED_RUN)('npm run backup: the round trip through the real CLI', () => {
  const cli = (args: string[], env: Record<string, string>) =>
    promisify(execFile)(process.execPath, [compiled('cli/backup'), ...args], {
      env: { ...process.env, DATABASE_URL: '', ...env },
    }).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (err: { code: number; stdout: string; stderr: string }) => err,
    );

  it(
    'creates a backup of DATA_DIR and restores it into another DATA_DIR with every row',
    async () => {
      const file = join(dir, 'cli', 'flujo.tar.gz');
      const created = await cli(['create', '--out', file], { DATA_DIR: dataDir });
      expect(created.stderr).toBe('');
      expect(created.code).toBe(0);
      expect(created.stdout).toMatch(/Backed up .* to .*flujo\.tar\.gz/);

      const restoredDir = join(dir, 'cli-restored');
      const restored = await cli(['restore', file], { DATA_DIR: restoredDir });
      expect(restored.code).toBe(0);
      expect(restored.stdout).toMatch(/Restored/);
      // Every row of every table came back.
      expect(await countsIn(join(restoredDir, 'pglite'))).toEqual(before);

      // A second restore into the same place would overwrite a live database: refused.
      const again = await cli(['restore', file], { DATA_DIR: restoredDir });
      expect(again.code).toBe(1);
      expect(again.stderr).toMatch(/not empty/);
    },
    SLOW,
  );

  it('explains its usage, and refuses unknown commands and PostgreSQL with a pointer to pg_dump', async () => {
    const run = async (args: string[], env: Record<string, string> = {}) => {
      const lines = { stdout: '', stderr: '' };
      const code = await runBackupCli(
        args,
        { DATA_DIR: join(dir, 'never-used'), ...env },
        {
          log: (m) => (lines.stdout += `${m}\n`),
          error: (m) => (lines.stderr += `${m}\n`),
        },
      );
      return { code, ...lines };
    };
    const help = await run(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/create \[--out <file>\]/);
    expect(help.stdout).toMatch(/restore <file>/);

    for (const args of [['obliterate'], ['restore'], ['restore', 'a', 'b'], ['create', 'x'], ['--nope']]) {
      const res = await run(args);
      expect(res.code, args.join(' ')).toBe(64);
      expect(res.stderr).toMatch(/Usage:/);
    }
    expect((await run(['obliterate'])).stderr).toMatch(/Unknown command "obliterate"/);

    const postgres = await run([], { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' });
    expect(postgres.code).toBe(2);
    expect(postgres.stderr).toMatch(/pg_dump/);
    expect(existsSync(join(dir, 'never-used'))).toBe(false);
  });
});
