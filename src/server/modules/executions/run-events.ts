import type { Database } from '#server/db/client.js';
import type { Notifications } from '#server/db/notifications.js';

/**
 * The channel a trigger on workflow_executions notifies, with the run's id, whenever a change to an open run
 * commits (migration 0014): a result, a progress message, the complete call, an expiry, a deletion, whoever
 * made it and on whichever instance.
 */
const RUN_CHANGED = 'run_changed';

/** One waiter's view of one run: told when the run changed, so that it reads the run only then. */
export interface RunWatch {
  /**
   * Resolves true once the run changed since the watch began or since the last call that answered true (at
   * once if it already has), or false after `ms` or when a signal aborts. Only one call at a time.
   */
  changed(ms: number, ...signals: AbortSignal[]): Promise<boolean>;
  close(): void;
}

class Watch implements RunWatch {
  private dirty = false;
  private wake: (() => void) | null = null;

  constructor(
    readonly runId: string,
    private readonly onClose: (watch: Watch) => void,
  ) {}

  notify(): void {
    this.dirty = true;
    this.wake?.();
  }

  changed(ms: number, ...signals: AbortSignal[]): Promise<boolean> {
    if (this.dirty || signals.some((s) => s.aborted)) return Promise.resolve(this.take());
    return new Promise((resolve) => {
      // Every listener added here is removed when the wait ends, however it ends: the signals are the
      // request's own, but a wait per change must never pile listeners up on them.
      const finish = () => {
        clearTimeout(timer);
        for (const signal of signals) signal.removeEventListener('abort', finish);
        this.wake = null;
        resolve(this.take());
      };
      const timer = setTimeout(finish, ms);
      for (const signal of signals) signal.addEventListener('abort', finish, { once: true });
      this.wake = finish;
    });
  }

  private take(): boolean {
    const dirty = this.dirty;
    this.dirty = false;
    return dirty;
  }

  close(): void {
    this.wake?.();
    this.onClose(this);
  }
}

/**
 * Who follows which run in this server instance, woken by the database's notifications through the one
 * listening connection of the instance's database handle: the database does no work for a run nobody changes,
 * however many streams and waiting calls follow it. When that connection (re)starts listening, every watch is
 * woken once, since a change made while it was away sent a notification nobody received.
 */
export class RunEvents {
  private readonly watches = new Map<string, Set<Watch>>();
  private readonly streamsByUser = new Map<string, number>();
  private listening = false;

  constructor(private readonly notifications: Notifications) {}

  /** Starts following a run; take it before reading the run, so that a change after the read wakes it. */
  watch(runId: string): RunWatch {
    this.listen();
    const watch = new Watch(runId, (w) => this.unwatch(w));
    let set = this.watches.get(runId);
    if (!set) this.watches.set(runId, (set = new Set()));
    set.add(watch);
    return watch;
  }

  /**
   * Counts one more open event stream of a person, unless they already hold `max` in this instance: answers
   * the function that gives the place back, or null. Synchronous with the check, so concurrent openings
   * cannot pass the bound together.
   */
  openStream(userId: string, max: number): (() => void) | null {
    const open = this.streamsByUser.get(userId) ?? 0;
    if (open >= max) return null;
    this.streamsByUser.set(userId, open + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.streamsByUser.get(userId) ?? 1) - 1;
      if (left > 0) this.streamsByUser.set(userId, left);
      else this.streamsByUser.delete(userId);
    };
  }

  /** Open event streams in this instance. */
  get streamCount(): number {
    let n = 0;
    for (const count of this.streamsByUser.values()) n += count;
    return n;
  }

  private listen(): void {
    if (this.listening) return;
    this.listening = true;
    this.notifications.listen(RUN_CHANGED, (runId) => {
      for (const watch of this.watches.get(runId) ?? []) watch.notify();
    });
    this.notifications.onListening(() => {
      for (const set of this.watches.values()) for (const watch of set) watch.notify();
    });
  }

  private unwatch(watch: Watch): void {
    const set = this.watches.get(watch.runId);
    set?.delete(watch);
    if (set?.size === 0) this.watches.delete(watch.runId);
  }
}

const instances = new WeakMap<Database, RunEvents>();

/** The run events of one database handle: one per server instance, shared by all its routes. */
export function runEventsOf(database: Database): RunEvents {
  let events = instances.get(database);
  if (!events) instances.set(database, (events = new RunEvents(database.notifications)));
  return events;
}
