/**
 * What a client sends to buy a plan of the catalogue (#shared/contract/plans.ts): its type, credits, price and
 * name, written out so that a test of a purchase also checks that the catalogue still offers it.
 */
export const PURCHASES = {
  starterPack: { type: 'unique', credits: 10, usdAmount: 5, planName: 'Starter' },
  proPack: { type: 'unique', credits: 30, usdAmount: 12, planName: 'Pro' },
  businessPack: { type: 'unique', credits: 100, usdAmount: 35, planName: 'Business' },
  starterMonthly: { type: 'monthly', credits: 20, usdAmount: 8, planName: 'Starter' },
  proMonthly: { type: 'monthly', credits: 60, usdAmount: 20, planName: 'Pro' },
  businessMonthly: { type: 'monthly', credits: 200, usdAmount: 60, planName: 'Business' },
  starterOffer: { type: 'offer', credits: 10, usdAmount: 5, planName: 'Starter' },
  proOffer: { type: 'offer', credits: 50, usdAmount: 20, planName: 'Pro' },
  enterpriseOffer: { type: 'offer', credits: 300, usdAmount: 100, planName: 'Enterprise' },
} as const;
