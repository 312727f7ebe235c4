import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { DbOrTx } from './client.js';

const dialect = new PgDialect();

type Prepared = ReturnType<DbOrTx['_']['session']['prepareQuery']>;

/**
 * A raw SQL statement for a hot path, made once: Drizzle turns `build()` (its values as `sql.placeholder`s)
 * into text and a parameter list the first time, and the driver sends it by name, so PostgreSQL parses and
 * plans it once per connection. Building a large statement with Drizzle's `sql` on every call costs more
 * CPU than the round trip itself (about a quarter of an API start's, before). `name` must be unique in
 * the process; statements that differ need names of their own.
 */
export function preparedStatement<Row, Values extends Record<string, unknown>>(
  name: string,
  build: () => SQL,
): (db: DbOrTx, values: Values) => Promise<Row[]> {
  let query: ReturnType<PgDialect['sqlToQuery']> | undefined;
  // One per database handle: a prepared query holds the handle's client (the pool, or a transaction's).
  const perHandle = new WeakMap<DbOrTx, Prepared>();
  return async (db, values) => {
    let prepared = perHandle.get(db);
    if (!prepared) {
      query ??= dialect.sqlToQuery(build());
      prepared = db._.session.prepareQuery(query, undefined, name, false);
      perHandle.set(db, prepared);
    }
    // Without selected fields both drivers answer their raw result, whose rows are objects by column name.
    const result = (await prepared.execute(values)) as { rows: Row[] };
    return result.rows;
  };
}
