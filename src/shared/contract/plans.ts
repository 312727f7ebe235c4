// The plan catalogue. Plain constants (no zod) so any screen can show them cheaply;
// the server is the authority: a purchase is accepted only when it matches a plan here exactly.

export const PLAN_TYPES = ['unique', 'monthly'] as const;
export type TPlanType = (typeof PLAN_TYPES)[number];

/** Benefits a card lists; each is a translation key on the web side. */
export const PLAN_BENEFITS = [
  'neverExpire',
  'allWorkflows',
  'instantDelivery',
  'monthlyCredits',
  'bonusCredits',
  'cancelAnytime',
  'prioritySupport',
  'customDashboard',
  'monthlyConsulting',
] as const;
export type TPlanBenefit = (typeof PLAN_BENEFITS)[number];

export interface TPlan {
  /** Stable id, unique within its type. */
  id: string;
  type: TPlanType;
  /** The plan name a client sends as `planName`. */
  name: string;
  credits: number;
  /** Price in US dollars (whole dollars in this catalogue). */
  priceUsd: number;
  /** One-time packs: saving against the base price of the Starter pack. */
  discountPercent: number;
  /** Monthly plans: extra credits granted with every month, as a percentage of `credits` (rounded down). */
  bonusPercent: number;
  highlighted: boolean;
  benefits: readonly TPlanBenefit[];
}

const PACK_BENEFITS = ['neverExpire', 'allWorkflows', 'instantDelivery'] as const;
const MONTHLY_BENEFITS = ['monthlyCredits', 'bonusCredits', 'neverExpire', 'cancelAnytime'] as const;

const pack = (id: string, name: string, credits: number, priceUsd: number, discountPercent: number) => ({
  id,
  type: 'unique' as const,
  name,
  credits,
  priceUsd,
  discountPercent,
  bonusPercent: 0,
  highlighted: false,
  benefits: PACK_BENEFITS,
});

const monthly = (
  id: string,
  name: string,
  credits: number,
  priceUsd: number,
  bonusPercent: number,
  extra: readonly TPlanBenefit[] = [],
) => ({
  id,
  type: 'monthly' as const,
  name,
  credits,
  priceUsd,
  discountPercent: 0,
  bonusPercent,
  highlighted: false,
  benefits: [...MONTHLY_BENEFITS, ...extra],
});

export const ONE_TIME_PACKS: readonly TPlan[] = [
  pack('starter', 'Starter', 10, 5, 0),
  pack('pro', 'Pro', 30, 12, 20),
  { ...pack('business', 'Business', 100, 35, 30), highlighted: true },
  pack('growth', 'Growth', 250, 75, 40),
  pack('enterprise', 'Enterprise', 1000, 250, 50),
];

export const MONTHLY_PLANS: readonly TPlan[] = [
  monthly('starter', 'Starter', 20, 8, 10),
  monthly('pro', 'Pro', 60, 20, 20, ['prioritySupport']),
  { ...monthly('business', 'Business', 200, 60, 30, ['prioritySupport']), highlighted: true },
  monthly('enterprise', 'Enterprise', 800, 200, 50, [
    'prioritySupport',
    'customDashboard',
    'monthlyConsulting',
  ]),
];

export const PLANS: readonly TPlan[] = [...ONE_TIME_PACKS, ...MONTHLY_PLANS];

/** Extra credits a monthly plan grants each month: its bonus percentage of the credits, rounded down. */
export function planBonusCredits(plan: Pick<TPlan, 'credits' | 'bonusPercent'>): number {
  return Math.floor((plan.credits * plan.bonusPercent) / 100);
}

/** The plan a purchase names (by type and name, case-insensitive), or undefined. */
export function findPlan(type: TPlanType, planName: string): TPlan | undefined {
  const wanted = planName.trim().toLowerCase();
  return PLANS.find((p) => p.type === type && (p.name.toLowerCase() === wanted || p.id === wanted));
}

/** The three static cards of the account page; they differ from the packs on purpose. */
export const ACCOUNT_PAGE_CARDS = [
  { id: 'starter', name: 'Starter', credits: 10, priceUsd: 5, bonusCredits: 0, popular: false },
  { id: 'pro', name: 'Pro', credits: 50, priceUsd: 20, bonusCredits: 5, popular: true },
  { id: 'enterprise', name: 'Enterprise', credits: 300, priceUsd: 100, bonusCredits: 30, popular: false },
] as const;

/** A dollar price in the display language's format ("$12", "$0.35"; "12 US$" in Spanish). */
export function formatUsd(amount: number | string, language: string): string {
  const value = Number(amount);
  const digits = Number.isInteger(value) ? 0 : 2;
  return new Intl.NumberFormat(language.startsWith('es') ? 'es-ES' : 'en-US', {
    style: 'currency',
    currency: 'USD',
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  }).format(value);
}
