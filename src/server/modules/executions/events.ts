import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '#server/db/client.js';
import { getOwnRun, isOpen } from './queries.js';
import { waitForRunChange } from './run-events.js';

const POLL_MS = 1_000;
const HEARTBEAT_MS = 15_000;
/** A stream is closed after this long; EventSource reconnects by itself if the run is still open. */
const MAX_STREAM_MS = 20 * 60_000;

/**
 * Server-sent events of one run: its JSON on every change until it ends. The database is polled each
 * second (so changes made by other instances are seen); changes on this instance wake it at once.
 */
export async function streamRunEvents(
  db: Db,
  userId: string,
  runId: string,
  request: FastifyRequest,
  reply: FastifyReply,
  stop: AbortSignal,
): Promise<void> {
  const first = await getOwnRun(db, userId, runId); // 404 before any byte is sent
  reply.hijack();
  const res = reply.raw;
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
    'x-content-type-options': 'nosniff',
  });
  const closed = new AbortController();
  request.raw.on('close', () => closed.abort());
  stop.addEventListener('abort', () => closed.abort());
  if (stop.aborted) closed.abort();
  const started = Date.now();
  let lastSent = '';
  let lastWrite = Date.now();
  let current = first;
  try {
    for (;;) {
      const json = JSON.stringify(current);
      if (json !== lastSent) {
        res.write(`event: execution\ndata: ${json}\n\n`);
        lastSent = json;
        lastWrite = Date.now();
      } else if (Date.now() - lastWrite >= HEARTBEAT_MS) {
        res.write(': keep-alive\n\n');
        lastWrite = Date.now();
      }
      if (!isOpen(current.status) || closed.signal.aborted || Date.now() - started > MAX_STREAM_MS) break;
      await waitForRunChange(runId, POLL_MS, closed.signal);
      if (closed.signal.aborted) break;
      current = await getOwnRun(db, userId, runId);
    }
  } catch {
    // The run was deleted with its workflow, or the database went away: end the stream.
  } finally {
    res.end();
  }
}
