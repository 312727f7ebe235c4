import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

/**
 * The database's change notifications (LISTEN/NOTIFY) as this process receives them: one listening connection
 * per database handle, whatever the number of listeners in the process. A notification is delivered when the
 * transaction that sent it commits, to every server instance listening on the channel.
 */
export interface Notifications {
  /** Calls `onMessage` with the payload of every notification on `channel`. Answers a function that stops. */
  listen(channel: string, onMessage: (payload: string) => void): () => void;
  /**
   * Calls `onListening` each time the process starts listening: on the first connection and after every
   * reconnection. Notifications sent before that moment were not received, so whoever waits on one should
   * look at the database again.
   */
  onListening(onListening: () => void): () => void;
  /** Calls `onLost` when the listening connection is lost (it is then re-opened with back-off). */
  onLost(onLost: (err: Error) => void): () => void;
  close(): Promise<void>;
}

/** Channel names come from the code; a name that needs quoting is a mistake there. */
function checkChannel(channel: string): string {
  if (!/^[a-z_]{1,63}$/.test(channel)) throw new Error(`not a channel name: ${channel}`);
  return channel;
}

/** Listeners by channel, and the calls to make when listening starts or the connection is lost. */
class Subscribers {
  readonly channels = new Map<string, Set<(payload: string) => void>>();
  readonly listening = new Set<() => void>();
  readonly lost = new Set<(err: Error) => void>();

  /** Adds a listener; true when it is the channel's first (so the channel must be listened to). */
  add(channel: string, onMessage: (payload: string) => void): boolean {
    let set = this.channels.get(channel);
    const first = !set;
    if (!set) this.channels.set(channel, (set = new Set()));
    set.add(onMessage);
    return first;
  }

  remove(channel: string, onMessage: (payload: string) => void): void {
    this.channels.get(channel)?.delete(onMessage);
  }

  deliver(channel: string, payload: string): void {
    for (const onMessage of this.channels.get(channel) ?? []) onMessage(payload);
  }

  startedListening(): void {
    for (const fn of this.listening) fn();
  }

  lostConnection(err: Error): void {
    for (const fn of this.lost) fn(err);
  }
}

/** The embedded database: one process, no connection to lose; PGlite's own listen API. */
export function pgliteNotifications(client: PGlite): Notifications {
  const subscribers = new Subscribers();
  const stops: Array<Promise<(() => Promise<void>) | null>> = [];
  return {
    listen(channel, onMessage) {
      if (subscribers.add(checkChannel(channel), onMessage)) {
        stops.push(
          client
            .listen(channel, (payload) => subscribers.deliver(channel, payload))
            .then((stop) => {
              subscribers.startedListening();
              return stop;
            })
            .catch(() => null),
        );
      }
      return () => subscribers.remove(channel, onMessage);
    },
    onListening(fn) {
      subscribers.listening.add(fn);
      return () => subscribers.listening.delete(fn);
    },
    onLost(fn) {
      subscribers.lost.add(fn);
      return () => subscribers.lost.delete(fn);
    },
    async close() {
      for (const stop of await Promise.all(stops)) await stop?.().catch(() => undefined);
    },
  };
}

export interface PostgresNotificationOptions {
  url: string;
  /** The first wait before reconnecting; each failure doubles it, up to `maxBackoffMs`. */
  minBackoffMs?: number;
  maxBackoffMs?: number;
  /**
   * How often the idle connection is checked with a query, and how long that query may take: a connection
   * that died without a word (a dropped route, a firewall forgetting it) is noticed this way.
   */
  pingMs?: number;
  pingTimeoutMs?: number;
}

/**
 * PostgreSQL: a dedicated connection outside the pool (a pooled one would go back to the pool and stop
 * listening), opened on the first listen and kept for the life of the handle. Lost, it is re-opened with
 * exponential back-off (jittered, so that instances do not reconnect in step after a database restart), listens
 * again to every channel, and then tells `onListening`.
 */
export class PostgresNotifications implements Notifications {
  private readonly subscribers = new Subscribers();
  private client: pg.Client | null = null;
  private readonly dropped = new WeakSet<pg.Client>();
  /** A connection is being opened or a reconnection is scheduled. */
  private pending = false;
  private closed = false;
  private failures = 0;
  private retryTimer: NodeJS.Timeout | null = null;
  private pingTimer: NodeJS.Timeout | null = null;
  private readonly minBackoffMs: number;
  private readonly maxBackoffMs: number;
  private readonly pingMs: number;
  private readonly pingTimeoutMs: number;

  constructor(private readonly options: PostgresNotificationOptions) {
    this.minBackoffMs = options.minBackoffMs ?? 250;
    this.maxBackoffMs = options.maxBackoffMs ?? 10_000;
    this.pingMs = options.pingMs ?? 30_000;
    this.pingTimeoutMs = options.pingTimeoutMs ?? 10_000;
  }

  listen(channel: string, onMessage: (payload: string) => void): () => void {
    if (this.subscribers.add(checkChannel(channel), onMessage) && this.client) {
      const client = this.client;
      client.query(`LISTEN ${channel}`).then(
        () => this.subscribers.startedListening(),
        (err: Error) => this.drop(client, err),
      );
    }
    if (!this.client && !this.pending && !this.closed) void this.connect();
    return () => this.subscribers.remove(channel, onMessage);
  }

  onListening(fn: () => void): () => void {
    this.subscribers.listening.add(fn);
    return () => this.subscribers.listening.delete(fn);
  }

  onLost(fn: (err: Error) => void): () => void {
    this.subscribers.lost.add(fn);
    return () => this.subscribers.lost.delete(fn);
  }

  /** Whether the connection is up and listening (for tests and health reports). */
  get connected(): boolean {
    return this.client !== null;
  }

  private async connect(): Promise<void> {
    this.pending = true;
    this.retryTimer = null;
    const client = new pg.Client({
      connectionString: this.options.url,
      application_name: 'flujo-listener',
      keepAlive: true,
    });
    client.on('notification', (message) => {
      if (!this.dropped.has(client)) this.subscribers.deliver(message.channel, message.payload ?? '');
    });
    client.on('error', (err) => this.drop(client, err));
    client.on('end', () => this.drop(client, new Error('the listening connection ended')));
    try {
      await client.connect();
      // A channel added while these run is listened to by listen() itself once the client is set below; a
      // second LISTEN of the same channel is harmless.
      for (const channel of [...this.subscribers.channels.keys()]) await client.query(`LISTEN ${channel}`);
    } catch (err) {
      this.drop(client, err instanceof Error ? err : new Error(String(err)));
      return;
    }
    if (this.closed || this.dropped.has(client)) {
      void client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    this.pending = false;
    this.failures = 0;
    this.startPing(client);
    this.subscribers.startedListening();
  }

  /** Forgets a connection that failed (once per connection) and schedules the next one. */
  private drop(client: pg.Client, err: Error): void {
    if (this.dropped.has(client)) return;
    this.dropped.add(client);
    // A connection that died silently may never answer the goodbye: it is not waited for.
    void client.end().catch(() => undefined);
    if (this.client === client) {
      this.client = null;
      this.stopPing();
    }
    if (this.closed) return;
    this.subscribers.lostConnection(err);
    this.pending = true;
    const backoff = Math.min(this.maxBackoffMs, this.minBackoffMs * 2 ** this.failures);
    this.failures += 1;
    this.retryTimer = setTimeout(() => void this.connect(), backoff * (0.8 + Math.random() * 0.4));
    this.retryTimer.unref();
  }

  private startPing(client: pg.Client): void {
    this.pingTimer = setInterval(() => {
      const timeout = setTimeout(
        () => this.drop(client, new Error('the listening connection did not answer')),
        this.pingTimeoutMs,
      );
      client.query('select 1').then(
        () => clearTimeout(timeout),
        (err: Error) => {
          clearTimeout(timeout);
          this.drop(client, err);
        },
      );
    }, this.pingMs);
    this.pingTimer.unref();
  }

  private stopPing(): void {
    if (this.pingTimer) clearInterval(this.pingTimer);
    this.pingTimer = null;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.stopPing();
    const client = this.client;
    this.client = null;
    if (client) {
      this.dropped.add(client);
      await client.end().catch(() => undefined);
    }
  }
}
