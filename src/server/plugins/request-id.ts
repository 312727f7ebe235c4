import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { REQUEST_ID_PATTERN } from '#shared/contract/request-id.js';
import { trustedPeer } from '../lib/trusted-proxy.js';
import type { App } from '../types.js';

/**
 * Fastify's `genReqId`: a random UUID per request, unique across instances and restarts (a process counter
 * repeats in every process). A request that comes straight from a trusted proxy (TRUST_PROXY, the list
 * Fastify itself believes X-Forwarded-For from) keeps the proxy's `X-Request-Id` when it is a sane token, so
 * the proxy's log and ours name the request alike; from anyone else the header is ignored, since a client
 * could otherwise pick ids that collide with other people's requests in the logs.
 */
export function requestIdGenerator(trustProxy: string | false): (req: IncomingMessage) => string {
  if (trustProxy === false) return () => randomUUID();
  const trusted = trustedPeer(trustProxy);
  return (req) => {
    const given = req.headers['x-request-id'];
    if (typeof given === 'string' && REQUEST_ID_PATTERN.test(given) && trusted(req.socket.remoteAddress)) {
      return given;
    }
    return randomUUID();
  };
}

/**
 * Every answer says its request id in `X-Request-Id`, kept with the answer's other headers in Fastify until it
 * writes them all at once (answers taken over from Fastify get them through `hijackReply`). Set on the raw
 * response instead, it would send every later header through Node's one-by-one `setHeader` path: about 5% of
 * a catalogue answer's CPU.
 */
export function registerRequestIdHeader(app: App): void {
  // Callback-style: it runs on every request.
  app.addHook('onRequest', (request, reply, done) => {
    void reply.header('x-request-id', request.id);
    done();
  });
}
