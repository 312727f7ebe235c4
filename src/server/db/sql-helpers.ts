import { count, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgSelect, PgTable } from 'drizzle-orm/pg-core';
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

/** Whether any row of `table` matches `where` (the first match ends the search). */
export async function anyRow(db: DbOrTx, table: PgTable, where: SQL | undefined): Promise<boolean> {
  const [row] = await db
    .select({ one: sql`1` })
    .from(table)
    .where(where)
    .limit(1);
  return row !== undefined;
}

/** How many rows of `table` match `where`, counted exactly. */
export async function exactTotal(
  db: DbOrTx,
  table: PgTable,
  where: SQL | undefined,
): Promise<{ total: number }> {
  const [row] = await db.select({ n: count() }).from(table).where(where);
  return { total: row?.n ?? 0 };
}

/**
 * One page of a list and the total of its matches, read together: `select` names the list's columns and joins
 * (made `$dynamic()`), `where` filters both the page and what `total` counts of `table`.
 */
export async function readPage<Q extends PgSelect, C extends object>(
  db: DbOrTx,
  table: PgTable,
  where: SQL | undefined,
  order: SQL[],
  page: { limit: number; offset: number },
  select: Q,
  total: (db: DbOrTx, table: PgTable, where: SQL | undefined) => Promise<C>,
): Promise<{ rows: Awaited<Q> } & C> {
  const [rows, counted] = await Promise.all([
    select
      .where(where)
      .orderBy(...order)
      .limit(page.limit)
      .offset(page.offset),
    total(db, table, where),
  ]);
  return { rows, ...counted };
}

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
