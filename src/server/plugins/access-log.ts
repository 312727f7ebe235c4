import type { Logger } from 'pino';
import type { App } from '../types.js';

/**
 * One line per answered request. It has a logger of its own, sharing the app log's destination: its fields
 * are fixed and hold no secret, so it skips the app logger's redaction, which on a cached catalogue answer
 * cost more than the rest of the line. The hook is callback-style, since it runs on every request.
 */
export function registerAccessLog(app: App, log: Logger): void {
  if (!log.isLevelEnabled('info')) return;
  app.addHook('onResponse', (request, reply, done) => {
    log.info(
      {
        reqId: request.id,
        method: request.method,
        url: request.url,
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime),
      },
      'request',
    );
    done();
  });
}
