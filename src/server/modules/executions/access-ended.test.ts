import { describe, expect, it } from 'vitest';
import type { Notifications } from '#server/db/notifications.js';
import { AccessEnded } from './access-ended.js';

/** A database's notifications whose first LISTEN is confirmed only when the test says so. */
function slowToListen() {
  const messages: Array<(payload: string) => void> = [];
  const listening: Array<() => void> = [];
  const notifications: Notifications = {
    listen: (_channel, onMessage) => {
      messages.push(onMessage);
      return () => undefined;
    },
    onListening: (fn) => {
      listening.push(fn);
      return () => undefined;
    },
    onLost: () => () => undefined,
    close: async () => undefined,
  };
  return {
    notifications,
    confirm: () => listening.forEach((fn) => fn()),
    notify: (payload: string) => messages.forEach((fn) => fn(payload)),
  };
}

const settledSoon = async (promise: Promise<void>) => {
  let settled = false;
  void promise.then(() => (settled = true));
  // Every promise callback queued by now runs before the next turn of the event loop.
  await new Promise((resolve) => setImmediate(resolve));
  return settled;
};

describe('the access watch of event streams', () => {
  it('lets a stream read its credential only once the database listens, so no revocation falls between', async () => {
    const db = slowToListen();
    const watch = new AccessEnded(db.notifications);
    let ended = 0;
    watch.watch('key:k1', () => (ended += 1));
    const heard = watch.heard(60_000);
    expect(await settledSoon(heard)).toBe(false);
    db.confirm();
    expect(await settledSoon(heard)).toBe(true);
    db.notify('key:k1');
    expect(ended).toBe(1);
  });

  it('does not hold a stream for ever when the database never confirms', async () => {
    const watch = new AccessEnded(slowToListen().notifications);
    await expect(watch.heard(10)).resolves.toBeUndefined();
  });
});
