import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../test/harness.js';
import type { Database } from './client.js';
import { queryRows } from './sql-helpers.js';
import { adminConfig } from './schema.js';

/**
 * How values come back from the database, on the suite's kind (PGlite, or PostgreSQL with TEST_DATABASE_URL):
 * dates, timestamps and intervals, and their arrays, as the database's own text, which the code and the API pass
 * on as they are; other arrays as arrays. On PGlite the client Drizzle is given sets these parsers once on the
 * instance instead of with every query (decision 194): the same answers outside a transaction, inside one, in a
 * savepoint, and for the raw statements and the query builder alike.
 */
let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.close();
});

const VALUES = sql`select timestamp '2026-01-02 03:04:05' as at, date '2026-01-02' as day,
  interval '1 day 02:00:00' as span, array[timestamp '2026-01-02 03:04:05'] as ats, array[3, 4] as ints,
  array['a', 'b'] as words`;
const EXPECTED = {
  at: '2026-01-02 03:04:05',
  day: '2026-01-02',
  span: '1 day 02:00:00',
  ats: '{"2026-01-02 03:04:05"}',
  ints: [3, 4],
  words: ['a', 'b'],
};

describe('values read from the database', () => {
  it('keeps dates, timestamps and intervals as text and parses other arrays, in and out of transactions', async () => {
    const { db } = database;
    expect(await queryRows(db, VALUES)).toEqual([EXPECTED]);
    const inside = await db.transaction(async (tx) => {
      const first = await queryRows(tx, VALUES);
      const nested = await tx.transaction(async (sp) => await queryRows(sp, VALUES));
      return [first, nested];
    });
    expect(inside).toEqual([[EXPECTED], [EXPECTED]]);
    // Again after the transaction, which must leave the connection's parsing as it found it.
    expect(await queryRows(db, VALUES)).toEqual([EXPECTED]);
  });

  it('reads a timestamp column through the query builder as the instant written', async () => {
    const { db } = database;
    const [row] = await db
      .insert(adminConfig)
      .values({
        key: `parsing-${randomUUID()}`,
        value: 1,
        description: { en: 'A setting of this test', es: 'Un ajuste de esta prueba' },
        createdAt: new Date('2026-05-06T07:08:09.123Z'),
      })
      .returning({ id: adminConfig.id });
    const read = await db.transaction((tx) =>
      tx.select({ createdAt: adminConfig.createdAt }).from(adminConfig).where(eq(adminConfig.id, row!.id)),
    );
    expect(read).toEqual([{ createdAt: new Date('2026-05-06T07:08:09.123Z') }]);
  });
});
