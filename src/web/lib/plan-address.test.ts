import { describe, expect, it } from 'vitest';
import { ACCOUNT_OFFERS, PLANS } from '#shared/contract/plans';
import { planAddress, plannedChoice } from './plan-address';

describe('plan address', () => {
  it('names each offer so the purchase screen finds that very offer again', () => {
    for (const offer of ACCOUNT_OFFERS) {
      const url = new URL(planAddress(offer), 'http://localhost');
      expect(url.pathname).toBe('/credits');
      expect(plannedChoice(url.searchParams, PLANS)).toBe(offer);
    }
  });

  it('chooses nothing for an unknown type or plan, or no choice at all', () => {
    expect(plannedChoice(new URLSearchParams('type=offer&plan=platinum'), PLANS)).toBeNull();
    expect(plannedChoice(new URLSearchParams('type=gift&plan=pro'), PLANS)).toBeNull();
    expect(plannedChoice(new URLSearchParams('plan=pro'), PLANS)).toBeNull();
    expect(plannedChoice(new URLSearchParams(''), PLANS)).toBeNull();
  });

  it('keeps an offer apart from the pack and the monthly plan of the same name', () => {
    const pro = plannedChoice(new URLSearchParams('type=offer&plan=pro'), PLANS);
    expect(pro).toMatchObject({ name: 'Pro', credits: 50, priceUsd: 20, bonusPercent: 10 });
    expect(plannedChoice(new URLSearchParams('type=unique&plan=pro'), PLANS)).toMatchObject({
      credits: 30,
      priceUsd: 12,
    });
  });
});
