import type { PaymentProvider } from './types.js';

/** Out-of-the-box provider: no money moves, every purchase is settled at once (the UI says "demo mode"). */
export const demoPaymentProvider: PaymentProvider = {
  kind: 'demo',
  startCheckout: async () => ({ kind: 'grant' }),
  cancelSubscription: async () => undefined,
};
