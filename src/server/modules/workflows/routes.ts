import type { FastifyReply, FastifyRequest } from 'fastify';
import { ZIdParams } from '#shared/contract/common.js';
import {
  ZMyReviewAnswer,
  ZReviewDeleted,
  ZReviewInput,
  ZReviewList,
  ZReviewListQuery,
} from '#shared/contract/reviews.js';
import { ZPublicWorkflowDetail, ZPublicWorkflowList } from '#shared/contract/workflows.js';
import { requireUser } from '#server/plugins/session.js';
import type { App, AppDeps } from '#server/types.js';
import {
  catalogueAnswer,
  catalogueSnapshot,
  publicWorkflowDetail,
  type Audience,
  type CatalogueSnapshot,
} from './catalogue.js';
import { deleteReview, listReviews, putReview } from './reviews.js';
import { errorAnswers } from '#server/lib/errors.js';

/** Admins also see private workflows; everyone else, signed in or not, sees the public ones. */
const audienceOfUser = (user: { isAdmin: boolean } | undefined): Audience =>
  user?.isAdmin ? 'admin' : 'public';

async function audienceOf(request: FastifyRequest): Promise<Audience> {
  return audienceOfUser((await request.session())?.user);
}

/** A signed-in reader or author of reviews, with the workflows they may see. */
async function reviewerOf(request: FastifyRequest): Promise<{ id: string; audience: Audience }> {
  const user = await requireUser(request);
  return { id: user.id, audience: audienceOfUser(user) };
}

function sendCatalogue(
  request: FastifyRequest,
  reply: FastifyReply,
  snapshot: CatalogueSnapshot,
): FastifyReply {
  const answer = catalogueAnswer(
    snapshot,
    request.headers['if-none-match'],
    request.headers['accept-encoding'],
  );
  // Sent as ready bytes: no per-request serialisation.
  return reply
    .status(answer.status)
    .headers(answer.headers)
    .send(answer.body ?? undefined);
}

const reviewErrors = errorAnswers(400, 401, 403, 404);

/**
 * Catalogue: GET /api/workflows/public[/{id}]; reviews: /api/workflows/{id}/reviews[/mine], for signed-in
 * people (the catalogue is blurred for visitors, and reviews name their authors). Mounted at /api/workflows.
 */
export async function workflowRoutes(app: App, deps: AppDeps): Promise<void> {
  app.get(
    '/public',
    {
      schema: {
        tags: ['workflows'],
        summary: 'The catalogue: active public workflows (admins also see private ones)',
        description:
          'Compressed (br, gzip) when accepted; each coding carries its own strong ETag, and If-None-Match with it answers 304.',
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
        response: { 200: ZPublicWorkflowDetail, ...errorAnswers(400, 404) },
      },
    },
    async (request) => ({
      ...(await publicWorkflowDetail(deps.db, request.params.id, await audienceOf(request))),
      demoAssistant: deps.config.llm === undefined,
    }),
  );

  app.get(
    '/:id/reviews',
    {
      schema: {
        tags: ['workflows'],
        operationId: 'listWorkflowReviews',
        summary: "A workflow's visible reviews, newest first, with its rating and the reader's own review",
        params: ZIdParams,
        querystring: ZReviewListQuery,
        response: { 200: ZReviewList, ...reviewErrors },
      },
    },
    async (request) => listReviews(deps.db, request.params.id, await reviewerOf(request), request.query),
  );

  app.put(
    '/:id/reviews/mine',
    {
      schema: {
        tags: ['workflows'],
        operationId: 'putMyWorkflowReview',
        summary: 'Rate a workflow 1-5 with an optional comment, or change that review',
        description: 'Only someone who completed a run of the workflow may review it (403 otherwise).',
        params: ZIdParams,
        body: ZReviewInput,
        response: { 200: ZMyReviewAnswer, ...reviewErrors },
      },
    },
    async (request) =>
      putReview(deps.db, request.params.id, await reviewerOf(request), request.body, deps.now()),
  );

  app.delete(
    '/:id/reviews/mine',
    {
      schema: {
        tags: ['workflows'],
        operationId: 'deleteMyWorkflowReview',
        summary: "Delete one's review of a workflow",
        params: ZIdParams,
        response: { 200: ZReviewDeleted, ...reviewErrors },
      },
    },
    async (request) => deleteReview(deps.db, request.params.id, (await requireUser(request)).id),
  );
}
