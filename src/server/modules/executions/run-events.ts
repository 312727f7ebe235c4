import { EventEmitter } from 'node:events';

/**
 * Wakes waiters on this instance as soon as a run changes (a result, a progress message, an expiry), so the
 * complete call and the event stream answer without waiting for their next poll. Changes made by another
 * instance are still seen by the poll; this is only a shortcut.
 */
const emitter = new EventEmitter();
emitter.setMaxListeners(0);

export function notifyRunChanged(runId: string): void {
  emitter.emit(runId);
}

/** Resolves when the run changes on this instance, or after `ms`. */
export function waitForRunChange(runId: string, ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      emitter.off(runId, done);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    emitter.on(runId, done);
    signal?.addEventListener('abort', done);
  });
}
