import { sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from './client.js';

/** A Date as a timestamptz parameter (a bare Date inside sql`` would be sent as its locale string). */
export const ts = (date: Date): SQL => sql`${date.toISOString()}::timestamptz`;

/** Runs raw SQL and returns its rows; both drivers answer `{ rows }`. */
export async function queryRows<T>(db: DbOrTx, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}
