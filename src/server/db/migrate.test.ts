import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { ident, postgresTarget, withAdminClient } from '../test/template.js';
import { openDatabase, type Database } from './client.js';

/**
 * Instances that start together on an empty PostgreSQL database (a scaled deployment's first start) must all
 * come up: one migrates, the others wait for it and then find nothing to do. PostgreSQL only: the embedded
 * database belongs to one process.
 */
const POSTGRES_URL = process.env.TEST_DATABASE_URL ?? '';

describe.runIf(POSTGRES_URL !== '')('migrations on PostgreSQL', () => {
  // Read when the tests run: on the embedded run the block is collected but skipped, without a URL.
  const target = () => postgresTarget(POSTGRES_URL);
  const suffix = randomBytes(4).toString('hex');
  const name = () => `${target().base}_migrate_${suffix}`;
  const opened: Database[] = [];

  afterAll(async () => {
    for (const database of opened) await database.close();
    await withAdminClient(target().adminUrl, (c) =>
      c.query(`DROP DATABASE IF EXISTS ${ident(name())} WITH (FORCE)`),
    );
  });

  it('three instances opening an empty database at once all start, and each migration is applied once', async () => {
    await withAdminClient(target().adminUrl, (c) => c.query(`CREATE DATABASE ${ident(name())}`));
    const url = target().urlFor(name());
    const results = await Promise.allSettled(
      [0, 1, 2].map(() => openDatabase({ kind: 'postgres', url, poolSize: 2 })),
    );
    for (const result of results) if (result.status === 'fulfilled') opened.push(result.value);
    expect(results.map((r) => (r.status === 'rejected' ? String(r.reason) : 'started'))).toEqual([
      'started',
      'started',
      'started',
    ]);
    const applied = await withAdminClient(url, (c) =>
      c.query<{ hash: string; n: string }>(
        'SELECT hash, count(*) AS n FROM drizzle.__drizzle_migrations GROUP BY hash',
      ),
    );
    expect(applied.rows.length).toBeGreaterThan(10);
    expect(applied.rows.filter((row) => row.n !== '1')).toEqual([]);
    // The lock is given back: a fourth instance opens at once.
    opened.push(await openDatabase({ kind: 'postgres', url, poolSize: 1 }));
  });
});
