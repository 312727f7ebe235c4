import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ZIdParams } from '#shared/contract/common.js';
import { ZRunEventsHeaders } from '#shared/contract/executions.js';
import { AppError } from '#server/lib/errors.js';
import { openEventStream } from '#server/lib/event-stream.js';
import type { AppDeps } from '#server/types.js';
import { getSetting } from '../settings/service.js';
import { accessEndedOf, type StreamAccess } from './access-ended.js';
import { getOwnRun, isOpen } from './queries.js';
import { runEventsOf } from './run-events.js';

const HEARTBEAT_MS = 15_000;
/** A stream is closed after this long; EventSource reconnects by itself (and resumes) if the run is still open. */
const MAX_STREAM_MS = 20 * 60_000;

const RUN_EVENTS_DESCRIPTION =
  'Each `execution` event carries the whole run and an `id`. A reader that reconnects with `Last-Event-ID` ' +
  '(EventSource does so by itself) is sent the run only if it changed since; if the run has ended and that id ' +
  'is its last state, the answer is 204. A quiet stream gets a comment every 15 s; streams close after 20 ' +
  'minutes (reconnect to go on). At most `max_event_streams_per_user` open streams per person on each server ' +
  'instance (429 beyond).';

/**
 * The route schema both event routes (the web's and the public API's) share: one stream, told the same way.
 * Each route adds its tags, its security and its refusals to `response`.
 */
export const RUN_EVENTS_SCHEMA = {
  summary: 'Server-sent events: the run (event `execution`) on every change until it ends',
  description: RUN_EVENTS_DESCRIPTION,
  params: ZIdParams,
  headers: ZRunEventsHeaders,
  response: {
    204: z.null().describe('The run has ended and Last-Event-ID names its last state: nothing to send'),
  },
};

/**
 * An event's id: a digest of the run as the event carries it. Each event is the whole run, so "has this reader
 * seen the current state?" is one comparison, which any instance can make without remembering anything.
 */
function runEventId(json: string): string {
  return createHash('sha256').update(json).digest('base64url').slice(0, 22);
}

/**
 * Server-sent events of one run: `execution` (the run's JSON, with an id) on every change until it ends. The
 * run is read when the stream opens and then only when the database says it changed (run-events.ts), so an
 * open stream costs the database nothing while its run is quiet. A reader that reconnects with Last-Event-ID
 * is sent the run only if it changed since; an ended run it has already seen is answered 204, which tells
 * EventSource to stop reconnecting. A person holds at most `max_event_streams_per_user` streams in this
 * instance (429 beyond). The stream ends when the credential it was opened with does (`access`: a key
 * revoked, a session ended, an account suspended), on whichever instance that happened.
 */
export async function streamRunEvents(
  deps: AppDeps,
  userId: string,
  runId: string,
  access: StreamAccess,
  request: FastifyRequest,
  reply: FastifyReply,
  stop: AbortSignal,
  /** What each event carries: the person's own run, or (an admin following any run) the run's detail. */
  read: () => Promise<{ status: string }> = () => getOwnRun(deps.db, userId, runId),
): Promise<void> {
  const max = await getSetting(deps.db, 'max_event_streams_per_user');
  const events = runEventsOf(deps.database);
  const release = events.openStream(userId, max);
  if (!release) throw new AppError('RATE_LIMITED', { key: 'eventStreams', params: { max } });
  // Watched before the first read: a change committed after that read wakes the watch.
  const watch = events.watch(runId);
  const closed = new AbortController();
  const close = () => closed.abort();
  const accessWatch = accessEndedOf(deps.database);
  const unwatchAccess = accessWatch.watch(access.credential, close);
  try {
    // Gone between the request's check and the watch: refused as if it had been gone before.
    await accessWatch.heard();
    if (!(await access.isLive())) {
      throw new AppError(
        'UNAUTHENTICATED',
        access.credential.startsWith('key:') ? 'apiKeyRequired' : 'default',
      );
    }
    let current = await read(); // 404 before any byte is sent
    let json = JSON.stringify(current);
    const header = request.headers['last-event-id'];
    let lastId = typeof header === 'string' ? header : null;
    if (!isOpen(current.status) && runEventId(json) === lastId) {
      await reply.status(204).send(null);
      return;
    }
    const res = openEventStream(reply);
    res.on('close', close);
    stop.addEventListener('abort', close, { once: true });
    if (stop.aborted) close();
    const started = Date.now();
    try {
      for (;;) {
        const id = runEventId(json);
        if (id !== lastId) {
          res.write(`event: execution\nid: ${id}\ndata: ${json}\n\n`);
          lastId = id;
        }
        const left = MAX_STREAM_MS - (Date.now() - started);
        if (!isOpen(current.status) || closed.signal.aborted || left <= 0) break;
        if (!(await watch.changed(Math.min(HEARTBEAT_MS, left), closed.signal))) {
          if (!closed.signal.aborted) res.write(': keep-alive\n\n');
          continue;
        }
        current = await read();
        json = JSON.stringify(current);
      }
    } catch {
      // The run was deleted with its workflow, or the database went away: end the stream.
    } finally {
      res.end();
    }
  } finally {
    unwatchAccess();
    watch.close();
    release();
    stop.removeEventListener('abort', close);
  }
}
