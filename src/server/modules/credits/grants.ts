import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { TPurchaseNoteKind } from '#shared/contract/credits.js';
import { planBonusCredits, type TPlan } from '#shared/contract/plans.js';
import type { Tx } from '#server/db/client.js';
import { creditTransactions, userProfiles } from '#server/db/schema.js';
import type { AppDeps } from '#server/types.js';
import { appLink, enqueueMail } from '../mail/service.js';
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
  note: TPurchaseNoteKind;
}

export interface PlanGrantResult {
  /** False when the reference was already granted and nothing was written now. */
  granted: boolean;
  creditsGranted: number;
  /** The balance after the grant; null when nothing was granted. */
  balance: number | null;
}

/** What a first payment of each plan type buys, as its ledger row and receipt name it. */
export const PURCHASE_NOTE = {
  unique: 'credit_pack',
  monthly: 'monthly_plan_first_month',
  offer: 'account_offer',
} as const satisfies Record<TPlan['type'], TPurchaseNoteKind>;

/** The bonus row's note: a monthly plan's bonus names its percentage, an offer's is a fixed part of the card. */
const BONUS_NOTE = { monthly: 'monthly_plan_bonus', offer: 'account_offer_bonus', unique: null } as const;

/** What one payment of a plan grants in all: its credits, and the bonus of a plan type that has one. */
export const planGrantCredits = (plan: TPlan): number =>
  plan.credits + (BONUS_NOTE[plan.type] ? planBonusCredits(plan) : 0);

/**
 * Grants what a plan's payment buys, inside the caller's transaction: a `purchase` row with the price and
 * plan name, a plan's bonus as a separate `bonus` row (so the Bonuses filter shows it), and the buyer's
 * receipt in the mail outbox. Every paid grant comes through here and happens once per payment, so each
 * payment has exactly one receipt, written or rolled back together with its credits.
 */
export async function grantPlanCredits(
  tx: Tx,
  grant: PlanGrant,
  deps: Pick<AppDeps, 'config' | 'metrics' | 'now'>,
): Promise<PlanGrantResult> {
  const { userId, plan, reference } = grant;
  if (reference) {
    const [seen] = await tx
      .select({ id: creditTransactions.id })
      .from(creditTransactions)
      .where(eq(creditTransactions.reference, reference));
    if (seen) return { granted: false, creditsGranted: 0, balance: null };
  }
  // The purchase row's id is the receipt's reference: the person can find the same row in their history.
  const purchaseId = randomUUID();
  let balance = await applyLedgerEntry(
    tx,
    {
      id: purchaseId,
      userId,
      amount: plan.credits,
      type: 'purchase',
      usdAmount: plan.priceUsd.toFixed(2),
      planName: plan.name,
      noteKind: grant.note,
      noteParams: { plan: plan.name },
      reference,
    },
    deps.metrics,
  );
  // A positive amount always applies unless the user no longer exists.
  if (balance === null) throw new Error(`ledger refused a grant to ${userId}`);
  const bonus = planGrantCredits(plan) - plan.credits;
  const bonusNote = BONUS_NOTE[plan.type];
  if (bonus > 0 && bonusNote) {
    balance = await applyLedgerEntry(
      tx,
      {
        userId,
        amount: bonus,
        type: 'bonus',
        planName: plan.name,
        noteKind: bonusNote,
        noteParams: { plan: plan.name, percent: plan.bonusPercent },
        reference: reference ? `${reference}:bonus` : null,
      },
      deps.metrics,
    );
    if (balance === null) throw new Error(`ledger refused a bonus to ${userId}`);
  }
  await enqueueReceipt(tx, deps, grant, { purchaseId, bonus });
  return { granted: true, creditsGranted: plan.credits + bonus, balance };
}

/** The buyer's receipt, in their language, written with the grant it describes. */
async function enqueueReceipt(
  tx: Tx,
  deps: Pick<AppDeps, 'config' | 'now'>,
  grant: PlanGrant,
  granted: { purchaseId: string; bonus: number },
): Promise<void> {
  const [buyer] = await tx
    .select({
      email: userProfiles.email,
      fullName: userProfiles.fullName,
      language: userProfiles.language,
      deletedAt: userProfiles.deletedAt,
    })
    .from(userProfiles)
    .where(eq(userProfiles.id, grant.userId));
  // A deleted account has no address left to write to; its ledger rows are the record.
  if (!buyer || buyer.deletedAt) return;
  await enqueueMail(tx, deps.config, {
    kind: 'purchase_receipt',
    to: buyer.email,
    userId: grant.userId,
    language: buyer.language,
    params: {
      name: buyer.fullName ?? buyer.email,
      plan: grant.plan.name,
      note: grant.note,
      credits: grant.plan.credits,
      bonusCredits: granted.bonus,
      priceUsd: grant.plan.priceUsd,
      paidAt: deps.now().toISOString(),
      reference: granted.purchaseId,
      link: appLink(deps.config, '/account'),
    },
  });
}
