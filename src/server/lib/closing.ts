import type { App } from '#server/types.js';

export interface Wait {
  /** Aborted when the server closes. */
  signal: AbortSignal;
  /** Call when the wait is over, however it ended. */
  done(): void;
}

/**
 * Ends the long waits of a group of routes (event streams, calls that wait for a run's result, streamed
 * replies) when the server closes, so that a shutdown is not held up by them. Each wait gets a controller of
 * its own, kept in a set while it lasts, rather than a listener on one long-lived signal: such a signal would
 * collect one listener per waiting request (hundreds at once by design), and a listener never removed there is
 * a leak that grows with every request.
 */
export class Closing {
  private readonly open = new Set<AbortController>();
  private closed = false;

  constructor(app: App) {
    app.addHook('preClose', async () => this.closeAll());
  }

  begin(): Wait {
    const controller = new AbortController();
    if (this.closed) controller.abort();
    else this.open.add(controller);
    return { signal: controller.signal, done: () => this.open.delete(controller) };
  }

  /** Runs `fn` with a signal that is aborted when the server closes. */
  async during<T>(fn: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const wait = this.begin();
    try {
      return await fn(wait.signal);
    } finally {
      wait.done();
    }
  }

  /** Waits under way. */
  get size(): number {
    return this.open.size;
  }

  private closeAll(): void {
    this.closed = true;
    for (const controller of this.open) controller.abort();
    this.open.clear();
  }
}
