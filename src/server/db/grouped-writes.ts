import type { Db } from './client.js';

/**
 * A write many callers make one row at a time (a delivery's acknowledgement, its log entry), grouped per
 * database handle: the first item is written at once; items that come while that write is under way go
 * together in the next one (as a database groups commits), so a busy server makes one statement for many
 * items and a quiet one waits for nothing. Each caller's promise settles with the write that carried its item.
 * For the pool's handle only: a transaction's statements run in its own order.
 */
export function groupedWrites<T>(
  write: (db: Db, items: T[]) => Promise<unknown>,
  most: number,
): (db: Db, item: T) => Promise<void> {
  interface Pending {
    item: T;
    done: () => void;
    fail: (err: unknown) => void;
  }
  const queues = new WeakMap<Db, { waiting: Pending[]; writing: boolean }>();
  return (db, item) => {
    let queue = queues.get(db);
    if (!queue) queues.set(db, (queue = { waiting: [], writing: false }));
    const q = queue;
    return new Promise<void>((done, fail) => {
      q.waiting.push({ item, done, fail });
      if (q.writing) return;
      q.writing = true;
      void (async () => {
        while (q.waiting.length > 0) {
          const batch = q.waiting.splice(0, most);
          try {
            await write(
              db,
              batch.map((p) => p.item),
            );
            for (const p of batch) p.done();
          } catch (err) {
            for (const p of batch) p.fail(err);
          }
        }
        q.writing = false;
      })();
    });
  };
}
