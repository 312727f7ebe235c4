import type { DbOrTx } from './client.js';

/**
 * A statement on a hot path, prepared once per database handle through Drizzle's public `.prepare(name)`:
 * `make` builds it with the query builder (a raw SQL statement of CTEs goes through `db.with(...)`, each CTE a
 * `db.$with(alias, selection).as(sql)`), Drizzle turns it into text and a parameter list once, and the driver
 * sends it by name, so PostgreSQL parses and plans it once per connection. Building a large statement on every
 * call costs more CPU than the round trip itself (about a quarter of an API start's, before). The name passed to
 * `.prepare` must be unique in the process; statements that differ need names of their own.
 */
export function preparedPerHandle<Prepared>(make: (db: DbOrTx) => Prepared): (db: DbOrTx) => Prepared {
  // One per database handle: a prepared query holds the handle's client (the pool, or a transaction's).
  const perHandle = new WeakMap<DbOrTx, Prepared>();
  return (db) => {
    let prepared = perHandle.get(db);
    if (!prepared) {
      prepared = make(db);
      perHandle.set(db, prepared);
    }
    return prepared;
  };
}
