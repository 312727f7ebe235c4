import { eq } from 'drizzle-orm';
import { planBonusCredits, type TPlan } from '#shared/contract/plans.js';
import type { Tx } from '#server/db/client.js';
import { creditTransactions } from '#server/db/schema.js';
import type { Metrics } from '#server/lib/metrics.js';
import { applyLedgerEntry } from './ledger.js';

export interface PlanGrant {
  userId: string;
  plan: TPlan;
  /**
   * Unique business reference of this payment (a renewal period, a Stripe checkout or invoice): a grant whose
   * reference is already in the ledger is skipped, so it happens once however often it is asked for.
   * Null for a demo purchase protected by its idempotency key instead.
   */
  reference: string | null;
  /** Why the credits came: the purchase row's note kind (the plan's name goes in its params). */
  note: 'credit_pack' | 'monthly_plan_first_month' | 'monthly_plan_renewal';
}

export interface PlanGrantResult {
  /** False when the reference was already granted and nothing was written now. */
  granted: boolean;
  creditsGranted: number;
  /** The balance after the grant; null when nothing was granted. */
  balance: number | null;
}

/**
 * Grants what a plan's payment buys, inside the caller's transaction: a `purchase` row with the price and
 * plan name, and for a monthly plan its bonus as a separate `bonus` row, so the Bonuses filter shows it.
 */
export async function grantPlanCredits(tx: Tx, grant: PlanGrant, metrics: Metrics): Promise<PlanGrantResult> {
  const { userId, plan, reference } = grant;
  if (reference) {
    const [seen] = await tx
      .select({ id: creditTransactions.id })
      .from(creditTransactions)
      .where(eq(creditTransactions.reference, reference));
    if (seen) return { granted: false, creditsGranted: 0, balance: null };
  }
  let balance = await applyLedgerEntry(
    tx,
    {
      userId,
      amount: plan.credits,
      type: 'purchase',
      usdAmount: plan.priceUsd.toFixed(2),
      planName: plan.name,
      noteKind: grant.note,
      noteParams: { plan: plan.name },
      reference,
    },
    metrics,
  );
  // A positive amount always applies unless the user no longer exists.
  if (balance === null) throw new Error(`ledger refused a grant to ${userId}`);
  const bonus = plan.type === 'monthly' ? planBonusCredits(plan) : 0;
  if (bonus > 0) {
    balance = await applyLedgerEntry(
      tx,
      {
        userId,
        amount: bonus,
        type: 'bonus',
        planName: plan.name,
        noteKind: 'monthly_plan_bonus',
        noteParams: { plan: plan.name, percent: plan.bonusPercent },
        reference: reference ? `${reference}:bonus` : null,
      },
      metrics,
    );
    if (balance === null) throw new Error(`ledger refused a bonus to ${userId}`);
  }
  return { granted: true, creditsGranted: plan.credits + bonus, balance };
}
