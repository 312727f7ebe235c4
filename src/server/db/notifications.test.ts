import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { postgresTarget } from '../test/template.js';
import { PostgresNotifications } from './notifications.js';

/**
 * The listening connection against the suite's PostgreSQL server, so it runs in the PostgreSQL suite: the
 * embedded run must pass on a machine with no PostgreSQL at all. The embedded database's notifications are
 * PGlite's own; the two-instance tests (multi-instance.test.ts) go through them on both databases.
 */
const SUITE_URL = process.env.TEST_DATABASE_URL ?? '';
/**
 * The server's maintenance database: TEST_DATABASE_URL names the base of the databases the suite creates
 * (global-setup.ts), which need not exist itself, and notifications need no tables.
 */
const POSTGRES_URL = SUITE_URL ? postgresTarget(SUITE_URL).adminUrl : '';

/** A channel no other test listens on. */
const channel = () => `test_${[...randomBytes(8)].map((b) => String.fromCharCode(97 + (b % 26))).join('')}`;

/** Resolves with the next value `subscribe` hands its callback, or fails after `ms`. */
function nextCall<T>(subscribe: (fn: (value: T) => void) => () => void, ms = 10_000): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      stop();
      reject(new Error(`nothing within ${ms} ms`));
    }, ms);
    const stop = subscribe((value) => {
      clearTimeout(timer);
      stop();
      resolve(value);
    });
  });
}

describe.runIf(POSTGRES_URL !== '')('PostgreSQL notifications', () => {
  let sender: pg.Client;
  beforeAll(async () => {
    sender = new pg.Client({ connectionString: POSTGRES_URL });
    await sender.connect();
  });
  afterAll(async () => {
    await sender?.end();
  });

  it('delivers what another connection sends, once its transaction commits', async () => {
    const notifications = new PostgresNotifications({ url: POSTGRES_URL });
    const name = channel();
    const received: string[] = [];
    try {
      const listening = nextCall<void>((fn) => notifications.onListening(fn));
      notifications.listen(name, (payload) => received.push(payload));
      await listening;
      await sender.query('begin');
      await sender.query('select pg_notify($1, $2)', [name, 'in the transaction']);
      // Not before the commit: the notification travels with it.
      await sender.query('select 1');
      expect(received).toEqual([]);
      const arrived = nextCall<string>((fn) => notifications.listen(name, fn));
      await sender.query('commit');
      expect(await arrived).toBe('in the transaction');
      expect(received).toEqual(['in the transaction']);
    } finally {
      await notifications.close();
    }
  });

  it('reconnects after losing its connection, listens again and says so; what was sent meanwhile is lost', async () => {
    // A long first back-off: the notification below is certainly sent while nobody listens.
    const notifications = new PostgresNotifications({ url: POSTGRES_URL, minBackoffMs: 1_500 });
    const name = channel();
    const received: string[] = [];
    let listeningCount = 0;
    notifications.onListening(() => listeningCount++);
    try {
      const first = nextCall<void>((fn) => notifications.onListening(fn));
      notifications.listen(name, (payload) => received.push(payload));
      await first;
      expect(notifications.connected).toBe(true);
      const lost = nextCall<Error>((fn) => notifications.onLost(fn));
      const back = nextCall<void>((fn) => notifications.onListening(fn));
      const { rows } = await sender.query<{ terminated: boolean }>(
        `select pg_terminate_backend(pid) as terminated from pg_stat_activity
          where application_name = 'flujo-listener' and pid <> pg_backend_pid() and query = $1`,
        [`LISTEN ${name}`],
      );
      expect(rows).toEqual([{ terminated: true }]);
      expect(await lost).toBeInstanceOf(Error);
      expect(notifications.connected).toBe(false);
      await sender.query('select pg_notify($1, $2)', [name, 'while away']);
      await back;
      expect(notifications.connected).toBe(true);
      expect(listeningCount).toBe(2);
      const arrived = nextCall<string>((fn) => notifications.listen(name, fn));
      await sender.query('select pg_notify($1, $2)', [name, 'after']);
      expect(await arrived).toBe('after');
      expect(received).toEqual(['after']);
    } finally {
      await notifications.close();
    }
  });

  it('keeps trying while the server cannot be reached, and stops when closed', async () => {
    // Nothing listens on port 1 of loopback: every attempt fails at once.
    const notifications = new PostgresNotifications({
      url: 'postgres://postgres@127.0.0.1:1/postgres',
      minBackoffMs: 10,
      maxBackoffMs: 40,
    });
    const failures: Error[] = [];
    notifications.onLost((err) => failures.push(err));
    notifications.listen(channel(), () => undefined);
    await vi.waitFor(() => expect(failures.length).toBeGreaterThanOrEqual(3), { timeout: 10_000 });
    await notifications.close();
    const after = failures.length;
    // Nothing marks a retry that does not happen: 150 ms holds several of the 40 ms backoffs, so a retry loop
    // that outlived close would have failed again within it.
    await new Promise((r) => setTimeout(r, 150));
    expect(failures.length).toBe(after);
  });
});
