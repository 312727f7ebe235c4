import type { FastifyReply, FastifyRequest } from 'fastify';
import { ZIdParams } from '../../../shared/contract/common.js';
import { ZErrorBody } from '../../../shared/contract/errors.js';
import { ZPublicWorkflowDetail, ZPublicWorkflowList } from '../../../shared/contract/workflows.js';
import type { App, AppDeps } from '../../types.js';
import {
  catalogueSnapshot,
  etagMatches,
  publicWorkflowDetail,
  readyCatalogue,
  type Audience,
  type CatalogueSnapshot,
} from './catalogue.js';

async function audienceOf(request: FastifyRequest): Promise<Audience> {
  const session = await request.session();
  return session?.user.isAdmin ? 'admin' : 'public';
}

function sendCatalogue(request: FastifyRequest, reply: FastifyReply, snapshot: CatalogueSnapshot): void {
  // The answer depends on who asks (admins see more), so shared caches must not mix them up.
  void reply
    .header('etag', snapshot.etag)
    .header('cache-control', 'private, no-cache')
    .header('vary', 'Cookie');
  if (etagMatches(request.headers['if-none-match'], snapshot.etag)) {
    void reply.status(304).send();
    return;
  }
  // Sent as ready bytes: no per-request serialisation.
  void reply.type('application/json; charset=utf-8').send(snapshot.body);
}

/** Catalogue: GET /api/workflows/public[/{id}]. Mounted at /api/workflows. */
export async function workflowRoutes(app: App, deps: AppDeps): Promise<void> {
  app.get(
    '/public',
    {
      schema: {
        tags: ['workflows'],
        summary: 'The catalogue: active public workflows (admins also see private ones)',
        description: 'Carries a strong ETag; If-None-Match with it answers 304.',
        response: { 200: ZPublicWorkflowList },
      },
    },
    (request, typedReply) => {
      // The typed reply only admits the schema's shape; ready bytes and a bodiless 304 go through the plain one.
      const reply: FastifyReply = typedReply;
      // A visitor on the embedded database gets the ready answer without a single await (the hot path of
      // every visit); anyone else waits for the version check and, with a cookie, the session.
      const ready = request.headers.cookie ? null : readyCatalogue(deps.database, 'public');
      if (ready) return sendCatalogue(request, reply, ready);
      return (async () => {
        sendCatalogue(request, reply, await catalogueSnapshot(deps.database, await audienceOf(request)));
      })();
    },
  );

  app.get(
    '/public/:id',
    {
      schema: {
        tags: ['workflows'],
        summary: 'One workflow, with what the execute screen needs',
        params: ZIdParams,
        response: { 200: ZPublicWorkflowDetail, 400: ZErrorBody, 404: ZErrorBody },
      },
    },
    async (request) => publicWorkflowDetail(deps.db, request.params.id, await audienceOf(request)),
  );
}
