import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { openDatabase, type Database } from '../db/client.js';
import { seed } from '../db/seed.js';
import { queryRows } from '../db/sql-helpers.js';
import { signup } from '../modules/auth/service.js';
import { backupPglite, restorePglite } from './backup.js';

const dir = mkdtempSync(join(tmpdir(), 'flujo-backup-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function rowCounts(database: Database): Promise<Record<string, number>> {
  const tables = await queryRows<{ table_name: string }>(
    database.db,
    sql`select table_name from information_schema.tables where table_schema = 'public' order by table_name`,
  );
  const counts: Record<string, number> = {};
  for (const { table_name } of tables) {
    const [row] = await queryRows<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from ${sql.identifier(table_name)}`,
    );
    counts[table_name] = row?.n ?? -1;
  }
  return counts;
}

describe('embedded database backup', () => {
  it('restores a backup with every row of every table', async () => {
    const source = join(dir, 'source');
    const original = await openDatabase({ kind: 'pglite', dataDir: source });
    await seed(
      original.db,
      loadConfig({
        ADMIN_EMAIL: 'ops@test.example',
        ADMIN_PASSWORD: 'ops-password-1',
        DEMO_WORKFLOWS: 'false',
      }),
    );
    for (let i = 0; i < 3; i += 1) {
      await signup(original.db, {
        email: `backup-${i}@test.example`,
        password: 'backup-password-1',
        fullName: `B ${i}`,
      });
    }
    const before = await rowCounts(original);
    await original.close();
    expect(before.users).toBe(4);
    expect(before.credit_transactions).toBe(4);

    const file = join(dir, 'backup.tar.gz');
    expect(await backupPglite(source, file)).toBeGreaterThan(1000);
    const target = join(dir, 'restored');
    await restorePglite(file, target);
    const restored = await openDatabase({ kind: 'pglite', dataDir: target });
    try {
      expect(await rowCounts(restored)).toEqual(before);
      const [user] = await queryRows<{ email: string }>(
        restored.db,
        sql`select email from users where email = 'backup-2@test.example'`,
      );
      expect(user?.email).toBe('backup-2@test.example');
    } finally {
      await restored.close();
    }
  });

  it('refuses to restore over a directory that holds data', async () => {
    await expect(restorePglite(join(dir, 'backup.tar.gz'), join(dir, 'restored'))).rejects.toThrow(
      /not empty/,
    );
  });
});
