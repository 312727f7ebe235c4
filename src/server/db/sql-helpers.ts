import { sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { DbOrTx } from './client.js';

/** A Date as a timestamptz parameter (a bare Date inside sql`` would be sent as its locale string). */
export const ts = (date: Date): SQL => sql`${date.toISOString()}::timestamptz`;

/**
 * Newest first, in the order of the `(..., created_at desc nulls last)` indexes: a plain `desc` means
 * `nulls first`, which such an index cannot serve (the planner does not use NOT NULL to equate the two),
 * so the database would sort instead of reading the index in order.
 */
export const newestFirst = (column: AnyPgColumn): SQL => sql`${column} desc nulls last`;

/**
 * A column's bare name. `${column}` renders as "table"."column", which SQL refuses in an UPDATE's SET and an
 * INSERT's column list; naming it through the schema still makes a renamed column a type error.
 */
export const columnName = (column: AnyPgColumn): SQL => sql`${sql.identifier(column.name)}`;

/** An INSERT's column list, `(a, b, c)`, from the schema's columns. */
export const columnList = (...columns: AnyPgColumn[]): SQL =>
  sql`(${sql.join(columns.map(columnName), sql`, `)})`;

/** Runs raw SQL and returns its rows; both drivers answer `{ rows }`. */
export async function queryRows<T>(db: DbOrTx, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

/** Whether an error is PostgreSQL's unique violation (23505), directly or as the cause of a failed query. */
export function isUniqueViolation(err: unknown): boolean {
  for (let e: unknown = err; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === '23505') return true;
  }
  return false;
}
