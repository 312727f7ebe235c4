import type { ServerResponse } from 'node:http';
import type { FastifyReply } from 'fastify';
import { hijackReply } from './hijack.js';

/**
 * Takes the response over from Fastify and starts it as a stream of server-sent events, status 200, its headers
 * sent at once. Proxies are asked not to buffer or transform it, so each event reaches the reader when it is
 * written. The stream counts as open in the metrics until its connection closes, whoever ends it.
 */
export function openEventStream(reply: FastifyReply): ServerResponse {
  const res = hijackReply(reply);
  res.once('close', reply.server.metrics.streamOpened(reply.request.routeOptions.url ?? '(unmatched)'));
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
    'x-content-type-options': 'nosniff',
  });
  // Sent now rather than with the first event: a reader that resumes may wait a while for one, and should know
  // at once that its stream is open.
  res.flushHeaders();
  // A reader who left while the request was being handled (a chat's Stop pressed at once) closed the connection
  // before anyone listened: its 'close' has passed and would not come again. It is emitted once more after the
  // caller has attached its listeners (synchronously after this call), so the stream ends as for any reader who
  // goes away: nothing of a chat reply kept, the events' loop ended, the open-streams gauge down.
  if (res.destroyed) setImmediate(() => res.emit('close'));
  return res;
}
