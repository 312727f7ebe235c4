import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Database } from '#server/db/client.js';
import type { Notifications } from '#server/db/notifications.js';
import { AppError } from '#server/lib/errors.js';
import { openEventStream } from '#server/lib/event-stream.js';
import type { AppDeps } from '#server/types.js';
import { accessEndedOf, runEventsOf, type StreamAccess } from '../executions/service.js';
import { getSetting } from '../settings/service.js';
import { unreadCount } from './bell.js';

/** The channel migration 0025's trigger notifies, with the person's id, when their bell changes. */
const NOTIFICATION_CHANGED = 'notification_changed';
const HEARTBEAT_MS = 15_000;
/** Streams close after this long; EventSource reconnects by itself. */
const MAX_STREAM_MS = 20 * 60_000;

/**
 * Who follows whose bell in this server instance, woken by the database's notifications through the
 * instance's one listening connection. After a reconnection every follower is woken once: a change made while
 * the connection was away sent a notification nobody received.
 */
class BellEvents {
  private readonly followers = new Map<string, Set<() => void>>();
  private listening = false;

  constructor(private readonly notifications: Notifications) {}

  follow(userId: string, wake: () => void): () => void {
    if (!this.listening) {
      this.listening = true;
      this.notifications.listen(NOTIFICATION_CHANGED, (id) => {
        for (const fn of this.followers.get(id) ?? []) fn();
      });
      this.notifications.onListening(() => {
        for (const set of this.followers.values()) for (const fn of set) fn();
      });
    }
    let set = this.followers.get(userId);
    if (!set) this.followers.set(userId, (set = new Set()));
    set.add(wake);
    return () => {
      set.delete(wake);
      if (set.size === 0) this.followers.delete(userId);
    };
  }
}

const instances = new WeakMap<Database, BellEvents>();
function bellEventsOf(database: Database): BellEvents {
  let events = instances.get(database);
  if (!events) instances.set(database, (events = new BellEvents(database.notifications)));
  return events;
}

/**
 * Server-sent events of a person's bell: `unread` (`{ "unread": n }`) when the stream opens and whenever a
 * notification is added or read, on any instance. The stream counts against `max_event_streams_per_user` with
 * the run streams, and ends with the session it was opened with.
 */
export async function streamBell(
  deps: AppDeps,
  userId: string,
  access: StreamAccess,
  request: FastifyRequest,
  reply: FastifyReply,
  stop: AbortSignal,
): Promise<void> {
  const max = await getSetting(deps.db, 'max_event_streams_per_user');
  const release = runEventsOf(deps.database).openStream(userId, max);
  if (!release) throw new AppError('RATE_LIMITED', { key: 'eventStreams', params: { max } });
  let dirty = true;
  let wake: (() => void) | null = null;
  const unfollow = bellEventsOf(deps.database).follow(userId, () => {
    dirty = true;
    wake?.();
  });
  const closed = new AbortController();
  const close = () => {
    closed.abort();
    wake?.();
  };
  const accessWatch = accessEndedOf(deps.database);
  const unwatchAccess = accessWatch.watch(access.credential, close);
  try {
    await accessWatch.heard();
    if (!(await access.isLive())) throw new AppError('UNAUTHENTICATED', 'default');
    const res = openEventStream(reply);
    res.on('close', close);
    stop.addEventListener('abort', close, { once: true });
    if (stop.aborted) close();
    const started = Date.now();
    let last: number | null = null;
    try {
      while (!closed.signal.aborted) {
        if (dirty) {
          dirty = false;
          const unread = await unreadCount(deps.db, userId);
          if (unread !== last) res.write(`event: unread\ndata: ${JSON.stringify({ unread })}\n\n`);
          last = unread;
          continue;
        }
        const left = MAX_STREAM_MS - (Date.now() - started);
        if (left <= 0) break;
        const woken = await new Promise<boolean>((resolve) => {
          const timer = setTimeout(() => resolve(false), Math.min(HEARTBEAT_MS, left));
          wake = () => {
            clearTimeout(timer);
            resolve(true);
          };
        });
        wake = null;
        if (!woken && !closed.signal.aborted) res.write(': keep-alive\n\n');
      }
    } catch {
      // The database went away: end the stream; the reader reconnects.
    } finally {
      res.end();
    }
  } finally {
    unwatchAccess();
    unfollow();
    release();
    stop.removeEventListener('abort', close);
  }
}
