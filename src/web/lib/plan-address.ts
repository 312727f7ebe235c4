import { PLAN_TYPES, type TPlan } from '#shared/contract/plans';

/*
 * The purchase screen's address with one plan chosen (`/credits?type=offer&plan=pro`): the account page's
 * offers link to it, and the purchase screen opens on that plan.
 */

export const planAddress = (plan: Pick<TPlan, 'type' | 'id'>): string =>
  `/credits?${new URLSearchParams({ type: plan.type, plan: plan.id }).toString()}`;

/** The plan an address names among those on sale, or null (an unknown or missing one chooses nothing). */
export function plannedChoice<P extends Pick<TPlan, 'type' | 'id'>>(
  params: URLSearchParams,
  plans: readonly P[],
): P | null {
  const type = params.get('type');
  const id = params.get('plan');
  if (!PLAN_TYPES.some((t) => t === type) || !id) return null;
  return plans.find((p) => p.type === type && p.id === id) ?? null;
}
