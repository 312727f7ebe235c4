import type { Config } from '#server/config.js';
import { demoPaymentProvider } from './demo.js';
import { createStripeProvider, type StripePaymentProvider } from './stripe.js';
import type { PaymentProvider } from './types.js';

export type { PaymentProvider } from './types.js';
export type { StripePaymentProvider } from './stripe.js';

const cache = new WeakMap<Config, PaymentProvider>();

/** The provider the configuration names; one per configuration, shared by every module that asks. */
export function paymentProvider(config: Config): PaymentProvider {
  let provider = cache.get(config);
  if (!provider) {
    const p = config.payments;
    provider =
      p.provider === 'stripe'
        ? createStripeProvider({
            secretKey: p.secretKey,
            webhookSecret: p.webhookSecret,
            apiUrl: p.apiUrl,
            publicUrl: config.publicUrl,
          })
        : demoPaymentProvider;
    cache.set(config, provider);
  }
  return provider;
}

export function isStripeProvider(provider: PaymentProvider): provider is StripePaymentProvider {
  return provider.kind === 'stripe';
}
