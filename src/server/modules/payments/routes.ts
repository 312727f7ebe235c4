import { z } from 'zod';
import { ZStripeWebhookResponse } from '#shared/contract/credits.js';
import { AppError, errorAnswers } from '#server/lib/errors.js';
import { isStripeProvider, paymentProvider } from '#server/providers/payments/index.js';
import type { App, AppDeps } from '#server/types.js';
import { applyStripeEvent } from './stripe-events.js';

const WEBHOOK_BODY_LIMIT = 512 * 1024;

/** Payment provider callbacks. Mounted at /api/payments; exempt from the CSRF check (Stripe signs instead). */
export async function paymentRoutes(app: App, deps: AppDeps): Promise<void> {
  // The signature covers the exact bytes Stripe sent, so in this scope JSON bodies stay raw.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT },
    (_request, body, done) => done(null, body),
  );

  app.post(
    '/stripe/webhook',
    {
      schema: {
        tags: ['payments'],
        summary:
          'Stripe events (signed); grants the credits of paid checkouts and invoices and takes back refunded or disputed ones, once per event',
        description:
          'Answers 409 for a refund or dispute of a payment whose success has not arrived yet, and 502 when Stripe could not be reached to end a subscription whose first payment failed: Stripe sends the event again later.',
        headers: z.looseObject({ 'stripe-signature': z.string().max(2000).optional() }),
        response: { 200: ZStripeWebhookResponse, ...errorAnswers(400, 409, 502, 503) },
      },
    },
    async (request) => {
      const provider = paymentProvider(deps.config);
      if (!isStripeProvider(provider)) {
        throw new AppError('NOT_CONFIGURED', 'stripeDisabled');
      }
      if (!Buffer.isBuffer(request.body)) throw new AppError('VALIDATION_ERROR', 'expectedJsonBody');
      const event = await provider.verifyEvent(request.body, request.headers['stripe-signature']);
      const { duplicate } = await applyStripeEvent(deps, event);
      return { received: true as const, duplicate };
    },
  );
}
