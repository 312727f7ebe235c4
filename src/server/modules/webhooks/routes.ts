import { ZIdParams, ZOk } from '#shared/contract/common.js';
import {
  ZAccountWebhookSecret,
  ZWebhook,
  ZWebhookCreate,
  ZWebhookCreated,
  ZWebhookDeliveryList,
  ZWebhookDeliveryParams,
  ZWebhookDeliveryQueued,
  ZWebhookList,
} from '#shared/contract/webhooks.js';
import { errorAnswers } from '#server/lib/errors.js';
import { requireApiKey } from '#server/plugins/api-key.js';
import { requireUser } from '#server/plugins/session.js';
import type { App, AppDeps } from '#server/types.js';
import {
  createWebhook,
  deleteWebhook,
  enableWebhook,
  listDeliveries,
  listWebhooks,
  queueTestEvent,
  redeliver,
  rotateAccountWebhookSecret,
  rotateWebhookSecret,
} from './service.js';

/**
 * The routes both doors share, each behind its own check: the session cookie (with its CSRF check) for the
 * settings screen under /api/account/webhooks, an API key under /api/v1/webhooks. Someone else's endpoint is
 * 404 either way.
 */
function webhookRoutes(app: App, deps: AppDeps, door: 'cookie' | 'apiKey'): void {
  const api = door === 'apiKey';
  const who = async (
    request: Parameters<typeof requireUser>[0],
    reply: Parameters<typeof requireApiKey>[1],
  ) => (api ? (await requireApiKey(request, reply, deps)).user.id : (await requireUser(request)).id);
  const common = api ? { tags: ['public API'], security: [{ apiKey: [] }] } : { tags: ['account'] };
  const op = (name: string) => (api ? { operationId: name } : {});
  const denied = api ? ([401, 429] as const) : ([401, 403] as const);

  app.post(
    '/webhooks',
    {
      schema: {
        ...common,
        ...op('createWebhook'),
        summary: 'Add a webhook endpoint; its signing secret (whsec_...) is in this answer only',
        body: ZWebhookCreate,
        response: { 201: ZWebhookCreated, ...errorAnswers(400, 409, ...denied) },
      },
    },
    async (request, reply) => {
      const userId = await who(request, reply);
      return reply.status(201).send(await createWebhook(deps, userId, request.body));
    },
  );

  app.get(
    '/webhooks',
    {
      schema: {
        ...common,
        ...op('listWebhooks'),
        summary: 'Your webhook endpoints (never their secrets), oldest first',
        response: { 200: ZWebhookList, ...errorAnswers(...denied) },
      },
    },
    async (request, reply) => ({ webhooks: await listWebhooks(deps, await who(request, reply)) }),
  );

  app.delete(
    '/webhooks/:id',
    {
      schema: {
        ...common,
        ...op('deleteWebhook'),
        summary: 'Remove a webhook endpoint and its delivery log',
        params: ZIdParams,
        response: { 200: ZOk, ...errorAnswers(400, 404, ...denied) },
      },
    },
    async (request, reply) => {
      await deleteWebhook(deps.db, await who(request, reply), request.params.id);
      return { ok: true as const };
    },
  );

  app.post(
    '/webhooks/:id/test',
    {
      schema: {
        ...common,
        ...op('testWebhook'),
        summary: 'Send the endpoint a webhook.test event (queued, sent within seconds; see its deliveries)',
        params: ZIdParams,
        response: { 202: ZWebhookDeliveryQueued, ...errorAnswers(400, 404, ...denied) },
      },
    },
    async (request, reply) => {
      const userId = await who(request, reply);
      return reply.status(202).send(await queueTestEvent(deps, userId, request.params.id));
    },
  );

  app.get(
    '/webhooks/:id/deliveries',
    {
      schema: {
        ...common,
        ...op('listWebhookDeliveries'),
        summary: "The endpoint's latest 50 deliveries, newest first",
        params: ZIdParams,
        response: { 200: ZWebhookDeliveryList, ...errorAnswers(400, 404, ...denied) },
      },
    },
    async (request, reply) => ({
      deliveries: await listDeliveries(deps.db, await who(request, reply), request.params.id),
    }),
  );

  app.post(
    '/webhooks/:id/deliveries/:deliveryId/redeliver',
    {
      schema: {
        ...common,
        ...op('redeliverWebhook'),
        summary: 'Send a delivery again, with the same webhook-id and body',
        params: ZWebhookDeliveryParams,
        response: { 202: ZWebhookDeliveryQueued, ...errorAnswers(400, 404, ...denied) },
      },
    },
    async (request, reply) => {
      const userId = await who(request, reply);
      const { id, deliveryId } = request.params;
      return reply.status(202).send(await redeliver(deps, userId, id, deliveryId));
    },
  );

  app.post(
    '/webhooks/:id/rotate-secret',
    {
      schema: {
        ...common,
        ...op('rotateWebhookSecret'),
        summary:
          'A new signing secret (in this answer only); the old one keeps signing beside it for 24 hours',
        params: ZIdParams,
        response: { 200: ZWebhookCreated, ...errorAnswers(400, 404, ...denied) },
      },
    },
    async (request, reply) => rotateWebhookSecret(deps, await who(request, reply), request.params.id),
  );

  app.post(
    '/webhooks/:id/enable',
    {
      schema: {
        ...common,
        ...op('enableWebhook'),
        summary: 'Turn a disabled endpoint back on',
        params: ZIdParams,
        response: { 200: ZWebhook, ...errorAnswers(400, 404, ...denied) },
      },
    },
    async (request, reply) => enableWebhook(deps, await who(request, reply), request.params.id),
  );

  app.post(
    '/webhooks/run-secret',
    {
      schema: {
        ...common,
        ...op('rotateRunWebhookSecret'),
        summary:
          'A new secret for the webhookUrl of single runs (in this answer only); the old one keeps signing beside it for 24 hours',
        response: { 200: ZAccountWebhookSecret, ...errorAnswers(...denied) },
      },
    },
    async (request, reply) => rotateAccountWebhookSecret(deps, await who(request, reply)),
  );
}

/** Mounted at /api/account (the settings screen). */
export async function accountWebhookRoutes(app: App, deps: AppDeps): Promise<void> {
  webhookRoutes(app, deps, 'cookie');
}

/** Mounted at /api/v1 (the public API). */
export async function apiWebhookRoutes(app: App, deps: AppDeps): Promise<void> {
  webhookRoutes(app, deps, 'apiKey');
}
