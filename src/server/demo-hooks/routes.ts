import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { ZErrorBody } from '../../shared/contract/errors.js';
import { userWorkflows } from '../db/schema.js';
import { AppError, badRequest } from '../lib/errors.js';
import { headerTokenFor } from '../modules/workflows/secrets.js';
import type { App, AppDeps } from '../types.js';
import { ZDemoResult, ZReceived, ZWebhookCall } from './contract.js';
import { DEMO_SLUGS, runDemo } from './demos.js';
import { verifyWebhookSignature } from './verify.js';

const BODY_LIMIT = 1024 * 1024;

/** The built-in demo workflow services, speaking the public webhook contract. Mounted at /demo-hooks. */
export async function demoHookRoutes(app: App, deps: AppDeps): Promise<void> {
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
        throw badRequest('The body must be JSON');
      }
      const parsed = ZWebhookCall.safeParse(json);
      if (!parsed.success) throw badRequest('The body is not a webhook call');
      const call = parsed.data;

      const [workflow] = await deps.db
        .select({
          secret: userWorkflows.secretToken,
          previous: userWorkflows.previousSecretToken,
          previousUntil: userWorkflows.previousSecretExpiresAt,
        })
        .from(userWorkflows)
        .where(eq(userWorkflows.id, call.workflow_id));
      const now = deps.now();
      const secrets = workflow
        ? [
            workflow.secret,
            ...(workflow.previous && (workflow.previousUntil ?? now) > now ? [workflow.previous] : []),
          ]
        : [];
      const header = (name: string) => {
        const value = request.headers[name];
        return typeof value === 'string' ? value : undefined;
      };
      const signed = verifyWebhookSignature(
        secrets,
        {
          id: header('webhook-id'),
          timestamp: header('webhook-timestamp'),
          signature: header('webhook-signature'),
          body: raw,
        },
        now,
      );
      // Like an n8n Header Auth: X-Flujo-Token, when sent, must be the workflow's fixed header value.
      const flujoToken = header('x-flujo-token');
      if (!signed || (flujoToken !== undefined && !secrets.map(headerTokenFor).includes(flujoToken))) {
        throw new AppError('UNAUTHENTICATED', 'Invalid webhook signature');
      }

      const answer = runDemo(request.params.slug, {
        call,
        now: deps.now,
        log: request.log,
        slowStepMs: deps.config.demoSlowStepMs,
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
}
