import type Stripe from 'stripe';
import { planBonusCredits, type TPlan } from '#shared/contract/plans.js';
import { AppError } from '#server/lib/errors.js';
import type { CheckoutInput, PaymentProvider } from './types.js';

export interface StripeSettings {
  secretKey: string;
  webhookSecret: string;
  /** A stand-in for api.stripe.com (tests); undefined for the real one. */
  apiUrl: string | undefined;
  /** The app's public address, for the pages Stripe sends the buyer back to. */
  publicUrl: string;
}

/** Metadata every checkout carries, so the webhook knows whom to credit for what. */
interface CheckoutMetadata {
  userId: string;
  planId: string;
  planType: TPlan['type'];
}

export interface StripePaymentProvider extends PaymentProvider {
  readonly kind: 'stripe';
  /** Verifies the Stripe-Signature header over the raw body; rejects with a 400 AppError when it does not match. */
  verifyEvent(rawBody: Buffer, signature: string | undefined): Promise<Stripe.Event>;
}

function clientOptions(apiUrl: string | undefined): Stripe.StripeConfig {
  const base: Stripe.StripeConfig = { maxNetworkRetries: 1, timeout: 15_000 };
  if (!apiUrl) return base;
  const url = new URL(apiUrl);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return {
    ...base,
    host: url.hostname,
    port: url.port || (protocol === 'http' ? 80 : 443),
    protocol,
  };
}

/** What Stripe's checkout page says is being bought: the card's own credits, bonus included. */
function checkoutProductName(plan: TPlan): string {
  const bonus = planBonusCredits(plan);
  switch (plan.type) {
    case 'monthly':
      return `Flujo ${plan.name} monthly plan: ${plan.credits} credits a month`;
    case 'offer':
      return `Flujo ${plan.name} offer: ${plan.credits} credits${bonus > 0 ? ` + ${bonus} bonus` : ''}`;
    case 'unique':
      return `Flujo ${plan.name} pack: ${plan.credits} credits`;
  }
}

export function createStripeProvider(settings: StripeSettings): StripePaymentProvider {
  // The SDK is loaded here, not imported with this module: some 200 modules, about a sixth of a server start's
  // CPU, which a server on the demo provider never needs (decision 197).
  const ready = import('stripe').then(({ default: sdk }) => ({
    sdk,
    stripe: new sdk(settings.secretKey, clientOptions(settings.apiUrl)),
  }));
  // Reported by the first call that needs it, not as an unhandled rejection.
  ready.catch(() => undefined);

  return {
    kind: 'stripe',

    async startCheckout({ userId, email, plan, idempotencyKey }: CheckoutInput) {
      const metadata: Record<keyof CheckoutMetadata, string> = {
        userId,
        planId: plan.id,
        planType: plan.type,
      };
      const monthly = plan.type === 'monthly';
      const { stripe } = await ready;
      try {
        const session = await stripe.checkout.sessions.create(
          {
            mode: monthly ? 'subscription' : 'payment',
            client_reference_id: userId,
            customer_email: email,
            metadata,
            ...(monthly ? { subscription_data: { metadata } } : {}),
            line_items: [
              {
                quantity: 1,
                price_data: {
                  currency: 'usd',
                  unit_amount: Math.round(plan.priceUsd * 100),
                  product_data: { name: checkoutProductName(plan) },
                  ...(monthly ? { recurring: { interval: 'month' as const } } : {}),
                },
              },
            ],
            success_url: `${settings.publicUrl}/buy-credits?checkout=success`,
            cancel_url: `${settings.publicUrl}/buy-credits?checkout=cancelled`,
          },
          // Stripe answers a repeated key with the session it created the first time.
          idempotencyKey ? { idempotencyKey: `flujo:${userId}:${idempotencyKey}` } : {},
        );
        if (!session.url) throw new Error('Stripe returned a checkout session without a URL');
        return { kind: 'redirect', url: session.url };
      } catch (err) {
        throw new AppError('BAD_GATEWAY', 'checkoutFailed', {
          reason: err instanceof Error ? err.message : 'unknown',
        });
      }
    },

    async cancelSubscription(providerSubscriptionId) {
      if (!providerSubscriptionId) return;
      const { stripe, sdk } = await ready;
      try {
        await stripe.subscriptions.cancel(providerSubscriptionId);
      } catch (err) {
        // Already gone at Stripe: the local cancellation is what is left to do.
        if (err instanceof sdk.errors.StripeInvalidRequestError && err.statusCode === 404) return;
        throw new AppError('BAD_GATEWAY', 'cancelFailed');
      }
    },

    async verifyEvent(rawBody, signature) {
      if (!signature) throw new AppError('VALIDATION_ERROR', 'missingStripeSignature');
      const { stripe } = await ready;
      try {
        return stripe.webhooks.constructEvent(rawBody, signature, settings.webhookSecret);
      } catch {
        throw new AppError('VALIDATION_ERROR', 'invalidWebhookSignature');
      }
    },
  };
}
