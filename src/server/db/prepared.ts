import type { DbOrTx } from './client.js';

/**
 * The connection a handle's queries go to: the pool (or PGlite) for the database handle, the checked-out
 * client for a transaction, the same client for every savepoint in it. Drizzle builds a new handle for each
 * transaction and savepoint but hands its prepared queries the session's client, so a query prepared through
 * one handle runs on any later handle of the same connection. The client is private to Drizzle's session
 * classes (node-postgres and PGlite alike keep it as `session.client`), hence the structural read; a handle
 * without one is its own key.
 */
function connectionOf(db: DbOrTx): object {
  const session = (db as unknown as { session?: { client?: unknown } }).session;
  const client = session?.client;
  return typeof client === 'object' && client !== null ? client : db;
}

/**
 * A statement on a hot path, prepared once per connection through Drizzle's public `.prepare(name)`:
 * `make` builds it with the query builder (a raw SQL statement of CTEs goes through `db.with(...)`, each CTE a
 * `db.$with(alias, selection).as(sql)`), Drizzle turns it into text and a parameter list once, and the driver
 * sends it by name, so PostgreSQL parses and plans it once per connection. Building a large statement on every
 * call costs more CPU than the round trip itself (about a quarter of an API start's, before). Kept per
 * connection rather than per handle: every transaction and savepoint is a new handle, and a job starting runs
 * in savepoints (the schedules job) would otherwise build the statement again for each (decision 173). The
 * name passed to `.prepare` must be unique in the process; statements that differ need names of their own.
 */
export function preparedPerHandle<Prepared>(make: (db: DbOrTx) => Prepared): (db: DbOrTx) => Prepared {
  // A prepared query holds the connection's client (the pool, PGlite, or a transaction's client).
  const perConnection = new WeakMap<object, Prepared>();
  return (db) => {
    const connection = connectionOf(db);
    let prepared = perConnection.get(connection);
    if (!prepared) {
      prepared = make(db);
      perConnection.set(connection, prepared);
    }
    return prepared;
  };
}
