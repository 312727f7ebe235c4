/** API paths the web client reads; invalidating by these prefixes refreshes every page of them. */
export const CREDITS_PATHS = {
  transactions: '/api/credits/transactions',
  plans: '/api/credits/plans',
  purchase: '/api/credits/purchase',
  subscription: '/api/credits/subscription',
  cancelSubscription: '/api/credits/subscription/cancel',
} as const;
