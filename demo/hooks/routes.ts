import type { FastifyPluginAsync, RawServerDefault } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZErrorBody } from '#shared/contract/errors.js';
import { ZDemoResult, ZReceived, ZWebhookCall } from './contract.js';
import { DEMO_SLUGS, runDemo } from './demos.js';
import { demoKeyring } from './keyring.js';
import { flujoHeaderToken, verifyWebhookSignature } from './verify.js';

const BODY_LIMIT = 1024 * 1024;

export interface DemoServiceOptions {
  /** Milliseconds between the slow demo's progress messages (DEMO_SLOW_STEP_MS). */
  slowStepMs: number;
  /** The clock the signature's five-minute window is measured against. */
  now: () => Date;
}

/**
 * The built-in demo workflow services, speaking only the public webhook contract: they parse the call,
 * check it against the secret they were handed when the workflow was seeded, and answer or call back over
 * HTTP. Registered under /demo-hooks in demo mode.
 */
export const demoServices: FastifyPluginAsync<DemoServiceOptions, RawServerDefault, ZodTypeProvider> = async (
  app,
  options,
) => {
  // The signature covers the exact bytes sent, so this scope keeps JSON bodies as raw text.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'string', bodyLimit: BODY_LIMIT },
    (_req, body, done) => done(null, body),
  );

  const timers = new Set<NodeJS.Timeout>();
  app.addHook('onClose', async () => {
    for (const timer of timers) clearTimeout(timer);
    timers.clear();
  });

  app.post(
    '/:slug',
    {
      schema: {
        tags: ['demo'],
        summary: 'A built-in demo workflow service (signed webhook call in, result or {received:true} out)',
        params: z.object({ slug: z.enum(DEMO_SLUGS) }),
        response: { 200: ZDemoResult, 202: ZReceived, 400: ZErrorBody, 401: ZErrorBody, 404: ZErrorBody },
      },
    },
    async (request, reply) => {
      const raw = typeof request.body === 'string' ? request.body : '';
      let json: unknown;
      try {
        json = JSON.parse(raw);
      } catch {
        return reply
          .status(400)
          .send({ error: 'The body must be JSON', code: 'VALIDATION_ERROR', key: 'default' });
      }
      const parsed = ZWebhookCall.safeParse(json);
      if (!parsed.success) {
        return reply
          .status(400)
          .send({ error: 'The body is not a webhook call', code: 'VALIDATION_ERROR', key: 'default' });
      }
      const call = parsed.data;

      const secret = demoKeyring.secretFor(call.workflow_id);
      const header = (name: string) => {
        const value = request.headers[name];
        return typeof value === 'string' ? value : undefined;
      };
      const signed =
        secret !== undefined &&
        verifyWebhookSignature(
          [secret],
          {
            id: header('webhook-id'),
            timestamp: header('webhook-timestamp'),
            signature: header('webhook-signature'),
            body: raw,
          },
          options.now(),
        );
      // Like an n8n Header Auth: X-Flujo-Token, when sent, must be the workflow's fixed header value.
      const flujoToken = header('x-flujo-token');
      if (!signed || (flujoToken !== undefined && flujoToken !== flujoHeaderToken(secret))) {
        return reply
          .status(401)
          .send({ error: 'Invalid webhook signature', code: 'UNAUTHENTICATED', key: 'default' });
      }

      const answer = runDemo(request.params.slug, {
        call,
        now: options.now,
        log: request.log,
        slowStepMs: options.slowStepMs,
        later: (delayMs, task) => {
          const timer = setTimeout(() => {
            timers.delete(timer);
            void task();
          }, delayMs);
          timers.add(timer);
        },
      });
      if (answer.kind === 'sync') return reply.status(200).send(answer.result);
      return reply.status(202).send({ received: true as const });
    },
  );
};
