import type { TPlansResponse } from '#shared/contract/credits.js';
import { PLANS, planBonusCredits } from '#shared/contract/plans.js';
import { paymentProvider } from '#server/providers/payments/index.js';
import type { AppDeps } from '#server/types.js';

/** The catalogue as sold, with how payment is taken (the web app says "demo mode" for demo). */
export function listPlans(deps: AppDeps): TPlansResponse {
  return {
    provider: paymentProvider(deps.config).kind,
    plans: PLANS.map((p) => ({ ...p, benefits: [...p.benefits], bonusCredits: planBonusCredits(p) })),
  };
}
