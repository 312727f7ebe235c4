// The plan catalogue. Plain constants (no zod) so any screen can show them cheaply;
// the server is the authority: a purchase is accepted only when it matches a plan here exactly.

/**
 * `unique`: the one-time packs; `monthly`: the plans renewed each month; `offer`: the account page's three
 * cards, paid once like a pack but with their own prices and a bonus on top.
 */
export const PLAN_TYPES = ['unique', 'monthly', 'offer'] as const;
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
type TPlanBenefit = (typeof PLAN_BENEFITS)[number];

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
  /**
   * Extra credits on top of `credits`, as a percentage of them (rounded down): every month for a monthly plan,
   * once for an offer; 0 for packs.
   */
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

const offer = (id: string, name: string, credits: number, priceUsd: number, bonusPercent: number) => ({
  ...pack(id, name, credits, priceUsd, 0),
  type: 'offer' as const,
  bonusPercent,
});

/**
 * The account page's three cards (spec section 9: they differ from the packs on purpose). They are sold as
 * shown, so they live in the catalogue like every other plan: the cards, the purchase screen and the server
 * read them from here.
 */
export const ACCOUNT_OFFERS: readonly TPlan[] = [
  offer('starter', 'Starter', 10, 5, 0),
  { ...offer('pro', 'Pro', 50, 20, 10), highlighted: true },
  offer('enterprise', 'Enterprise', 300, 100, 10),
];

export const PLANS: readonly TPlan[] = [...ONE_TIME_PACKS, ...MONTHLY_PLANS, ...ACCOUNT_OFFERS];

/** Extra credits a plan grants on top of its credits (each month for a monthly plan), rounded down. */
export function planBonusCredits(plan: Pick<TPlan, 'credits' | 'bonusPercent'>): number {
  return Math.floor((plan.credits * plan.bonusPercent) / 100);
}

/** The plan a purchase names (by type and name, case-insensitive), or undefined. */
export function findPlan(type: TPlanType, planName: string): TPlan | undefined {
  const wanted = planName.trim().toLowerCase();
  return PLANS.find((p) => p.type === type && (p.name.toLowerCase() === wanted || p.id === wanted));
}

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
