import type { TPlan } from '#shared/contract/plans.js';

export interface CheckoutInput {
  userId: string;
  email: string;
  plan: TPlan;
  /** Passed on to the provider so a repeated request opens the same checkout. */
  idempotencyKey: string | undefined;
}

/**
 * How a purchase gets paid. `grant` means the payment is settled already and the caller grants the credits
 * now (demo mode); `redirect` sends the buyer to the provider, and the credits come later with its
 * signed confirmation.
 */
type CheckoutResult = { kind: 'grant' } | { kind: 'redirect'; url: string };

export interface PaymentProvider {
  readonly kind: 'demo' | 'stripe';
  startCheckout(input: CheckoutInput): Promise<CheckoutResult>;
  /** Stops future charges of a provider-side subscription (nothing to do for demo subscriptions). */
  cancelSubscription(providerSubscriptionId: string | null): Promise<void>;
}
