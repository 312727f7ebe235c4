import type { FastifyReply, FastifyRequest } from 'fastify';
import { ZIdParams } from '#shared/contract/common.js';
import { ZErrorBody } from '#shared/contract/errors.js';
import { ZPublicWorkflowDetail, ZPublicWorkflowList } from '#shared/contract/workflows.js';
import type { App, AppDeps } from '#server/types.js';
import {
  catalogueAnswer,
  catalogueSnapshot,
  publicWorkflowDetail,
  type Audience,
  type CatalogueSnapshot,
} from './catalogue.js';

async function audienceOf(request: FastifyRequest): Promise<Audience> {
  const session = await request.session();
  return session?.user.isAdmin ? 'admin' : 'public';
}

function sendCatalogue(
  request: FastifyRequest,
  reply: FastifyReply,
  snapshot: CatalogueSnapshot,
): FastifyReply {
  const answer = catalogueAnswer(snapshot, request.headers['if-none-match']);
  // Sent as ready bytes: no per-request serialisation.
  return reply
    .status(answer.status)
    .headers(answer.headers)
    .send(answer.body ?? undefined);
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
    async (request, typedReply) => {
      // The typed reply only admits the schema's shape; ready bytes and a bodiless 304 go through the plain one.
      const reply: FastifyReply = typedReply;
      return sendCatalogue(request, reply, await catalogueSnapshot(deps.database, await audienceOf(request)));
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
