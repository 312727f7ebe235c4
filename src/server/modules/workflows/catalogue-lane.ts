import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { Database } from '../../db/client.js';
import type { AccessLog } from '../../plugins/access-log.js';
import { nextRequestId } from '../../plugins/access-log.js';
import {
  CATALOGUE_PATH,
  catalogueAnswer,
  catalogueSnapshot,
  readyCatalogue,
  type CatalogueSnapshot,
} from './catalogue.js';

/**
 * A request listener that answers some requests before Fastify's routing; it calls `route` for every
 * request it does not answer, and never writes anything before deciding.
 */
export type EarlyAnswer = (req: IncomingMessage, res: ServerResponse, route: () => void) => void;

export interface CatalogueLaneOptions {
  database: Database;
  /** The security headers of an API answer, as the router's hook sets them. */
  securityHeaders: Readonly<Record<string, string>>;
  accessLog: AccessLog | null;
  /** True while the server shuts down: its answers must then close their connections (the router does). */
  draining: () => boolean;
}

/**
 * The visitor's catalogue, answered before the router. Every visit asks for it, and for a visitor without a
 * session it is the same cached bytes every time; going through Fastify's routing, request and reply objects
 * and hooks cost more than the answer itself (the budget in bench/catalogue.ts). The lane takes only a plain
 * `GET /api/workflows/public` without a cookie (a cookie may carry an admin's session, who sees more) while
 * the server is not draining; the route answers everything else, and anything the lane cannot answer (a
 * failed database read), with the same status, headers and bytes, which a test compares. It writes the same
 * request log line.
 */
export function catalogueLane(options: CatalogueLaneOptions): EarlyAnswer {
  const { database, securityHeaders, accessLog, draining } = options;
  return (req, res, route) => {
    if (
      req.method !== 'GET' ||
      req.url !== CATALOGUE_PATH ||
      req.headers.cookie !== undefined ||
      draining()
    ) {
      route();
      return;
    }
    const started = performance.now();
    const answer = (snapshot: CatalogueSnapshot) => {
      const { status, headers, body } = catalogueAnswer(snapshot, req.headers['if-none-match']);
      const all: OutgoingHttpHeaders = { ...securityHeaders, ...headers };
      if (body) all['content-length'] = body.length;
      res.writeHead(status, all);
      res.end(body);
      accessLog?.write({
        reqId: nextRequestId(),
        method: 'GET',
        url: CATALOGUE_PATH,
        status,
        ms: Math.round(performance.now() - started),
      });
    };
    // On the embedded database the snapshot is usually ready, without an await.
    const ready = readyCatalogue(database, 'public');
    if (ready) answer(ready);
    else {
      catalogueSnapshot(database, 'public')
        .then(answer, () => route())
        .catch(() => res.destroy());
    }
  };
}
