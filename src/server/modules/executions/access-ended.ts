import type { Database } from '#server/db/client.js';
import type { Notifications } from '#server/db/notifications.js';

/**
 * The channel triggers on api_keys and sessions notify when a row goes (migration 0017), with `key:<id>` or
 * `session:<id>`: a key revoked, a session ended, by whoever and on whichever instance.
 */
const ACCESS_ENDED = 'access_ended';

/** A credential an event stream was opened with. */
export type Credential = `key:${string}` | `session:${string}`;

/** What a stream needs to end with its credential: which one, and a read of whether it still lives. */
export interface StreamAccess {
  credential: Credential;
  /** Read once the watch is on, so that a revocation between the request's check and the watch is seen. */
  isLive: () => Promise<boolean>;
}

/**
 * The event streams of this server instance, by the credential each was opened with, ended when the database
 * says that credential went. Nothing is polled: an open stream costs the database nothing until then. When
 * the listening connection is lost, a revocation may go unheard until it is back, so every watched stream is
 * ended then, and again once it listens again (streams opened in between): readers reconnect and are checked.
 */
export class AccessEnded {
  private readonly ends = new Map<string, Set<() => void>>();
  private listening = false;
  private lost = false;
  private listened = false;
  private first: Promise<void> = Promise.resolve();

  constructor(private readonly notifications: Notifications) {}

  /** Starts listening now, so that a stream opened later is watched from its first moment. */
  start(): void {
    if (this.listening) return;
    this.listening = true;
    let heard = () => {};
    this.first = new Promise<void>((resolve) => (heard = resolve)).then(() => {
      this.listened = true;
    });
    this.notifications.onLost(() => {
      this.lost = true;
      this.endEvery();
    });
    this.notifications.onListening(() => {
      heard();
      if (!this.lost) return;
      this.lost = false;
      this.endEvery();
    });
    this.notifications.listen(ACCESS_ENDED, (payload) => this.endAll(this.ends.get(payload)));
  }

  /**
   * Settles once this process listens (the first connection's LISTEN confirmed), or after `waitMs`. A stream
   * reads whether its credential lives after this: a revocation before the read is seen by the read, one after
   * it is heard. Until the first LISTEN is confirmed, a notification would be missed (a lost connection is
   * covered otherwise: every stream is ended when listening resumes).
   */
  async heard(waitMs = 5_000): Promise<void> {
    this.start();
    if (this.listened) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      this.first,
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, waitMs);
        timer.unref();
      }),
    ]).finally(() => clearTimeout(timer));
  }

  /** Calls `end` once when the credential goes; answers the function that stops watching. */
  watch(credential: Credential, end: () => void): () => void {
    this.start();
    let set = this.ends.get(credential);
    if (!set) this.ends.set(credential, (set = new Set()));
    const watched = set;
    const once = () => {
      stop();
      end();
    };
    const stop = () => {
      watched.delete(once);
      if (watched.size === 0 && this.ends.get(credential) === watched) this.ends.delete(credential);
    };
    watched.add(once);
    return stop;
  }

  /** Streams watched in this instance. */
  get size(): number {
    let n = 0;
    for (const set of this.ends.values()) n += set.size;
    return n;
  }

  private endEvery(): void {
    for (const set of [...this.ends.values()]) this.endAll(set);
  }

  private endAll(set: Set<() => void> | undefined): void {
    for (const end of [...(set ?? [])]) end();
  }
}

const instances = new WeakMap<Database, AccessEnded>();

/** The access watch of one database handle: one per server instance, shared by all its streams. */
export function accessEndedOf(database: Database): AccessEnded {
  let watch = instances.get(database);
  if (!watch) instances.set(database, (watch = new AccessEnded(database.notifications)));
  return watch;
}
