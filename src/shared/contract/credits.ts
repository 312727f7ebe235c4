import { z } from 'zod';
import { ZBilingual } from './common.js';
import { PLAN_BENEFITS, PLAN_TYPES } from './plans.js';

export const TRANSACTION_TYPES = ['bonus', 'purchase', 'usage', 'refund', 'admin_adjustment'] as const;
export const ZTransactionType = z.enum(TRANSACTION_TYPES);
export type TTransactionType = z.infer<typeof ZTransactionType>;

/**
 * What a ledger row is for, as data: the reader's screen words it in their language. `admin_adjustment`
 * carries the admin's own reason in `notes`; `other` keeps a text written before kinds existed.
 */
export const LEDGER_NOTE_KINDS = [
  'signup_bonus',
  'workflow_run',
  'refund_run_failed',
  'refund_run_expired',
  'refund_workflow_deleted',
  'credit_pack',
  'monthly_plan_first_month',
  'monthly_plan_renewal',
  'monthly_plan_bonus',
  'monthly_plan_free_period',
  'account_offer',
  'account_offer_bonus',
  'payment_refunded',
  'payment_disputed',
  'admin_adjustment',
  'other',
] as const;
export const ZLedgerNoteKind = z.enum(LEDGER_NOTE_KINDS);
export type TLedgerNoteKind = z.infer<typeof ZLedgerNoteKind>;
/** The note of a paid grant's purchase row: what a payment bought, as its receipt names it too. */
export type TPurchaseNoteKind = Extract<
  TLedgerNoteKind,
  'credit_pack' | 'monthly_plan_first_month' | 'monthly_plan_renewal' | 'account_offer'
>;

/** The values a note's wording names: the plan, its bonus percentage. */
export const ZLedgerNoteParams = z.object({
  plan: z.string().optional(),
  percent: z.number().optional(),
});
export type TLedgerNoteParams = z.infer<typeof ZLedgerNoteParams>;

/** The user view's filter buttons: All (no type), Executions (usage), Purchases, Bonuses. */
export const TRANSACTION_FILTERS = ['usage', 'purchase', 'bonus'] as const;

export const ZTransactionListQuery = z.object({
  type: z.enum(TRANSACTION_FILTERS).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
});
export type TTransactionListQuery = z.infer<typeof ZTransactionListQuery>;

/** One ledger row as its owner sees it (the user's view). */
const ZUserTransaction = z.object({
  id: z.uuid(),
  transaction_type: ZTransactionType,
  /** Signed: positive adds credits, negative spends them. */
  amount: z.number().int(),
  /** The admin's reason or a text from before note kinds; otherwise the note's English wording. */
  notes: z.string().nullable(),
  note_kind: ZLedgerNoteKind,
  note_params: ZLedgerNoteParams,
  /** The workflow's name, or null when the row has no workflow or the workflow was deleted. */
  workflow_name: ZBilingual.nullable(),
  /** True for a run's row whose workflow no longer exists ("workflow deleted"). */
  workflow_deleted: z.boolean(),
  created_at: z.string(),
  /** Dollars paid, as a decimal string ("12.00"), on purchases. */
  usd_amount: z.string().nullable(),
  plan_name: z.string().nullable(),
  /**
   * The run a charge or refund belongs to, while that run still exists (its page is /my-workflows/{id});
   * null on other rows.
   */
  execution_id: z.uuid().nullable(),
});
export type TUserTransaction = z.infer<typeof ZUserTransaction>;
export const ZUserTransactionList = z.array(ZUserTransaction);

const ZPaymentProviderKind = z.enum(['demo', 'stripe']);

const ZPlan = z.object({
  id: z.string(),
  type: z.enum(PLAN_TYPES),
  name: z.string(),
  credits: z.number().int(),
  priceUsd: z.number(),
  discountPercent: z.number().int(),
  bonusPercent: z.number().int(),
  /** Credits added on top (each month for monthly plans, once for offers): floor(credits * bonusPercent / 100). */
  bonusCredits: z.number().int(),
  highlighted: z.boolean(),
  benefits: z.array(z.enum(PLAN_BENEFITS)),
});
export type TPlanView = z.infer<typeof ZPlan>;

/** The catalogue as the server sells it, and how it takes payment ("demo" grants at once). */
export const ZPlansResponse = z.object({
  provider: ZPaymentProviderKind,
  plans: z.array(ZPlan),
});
export type TPlansResponse = z.infer<typeof ZPlansResponse>;

/** The purchase payload; credits and price must match the named plan exactly. */
export const ZPurchaseRequest = z.object({
  type: z.enum(PLAN_TYPES),
  credits: z.number().int().positive(),
  usdAmount: z.number().positive().max(100_000),
  planName: z.string().trim().min(1).max(60),
});
export type TPurchaseRequest = z.infer<typeof ZPurchaseRequest>;

/** The optional header that makes a purchase safe to repeat (other headers pass through untouched). */
export const ZIdempotencyHeaders = z.looseObject({
  'idempotency-key': z
    .string()
    .trim()
    .min(8)
    .max(200)
    .regex(/^[\w.:-]+$/, 'letters, digits and . _ : - only')
    .optional(),
});

export const ZPurchaseResponse = z.discriminatedUnion('status', [
  z.object({
    status: z.literal('completed'),
    provider: z.literal('demo'),
    planName: z.string(),
    type: z.enum(PLAN_TYPES),
    /** Every credit this purchase added (plan credits plus any monthly bonus). */
    creditsGranted: z.number().int(),
    /** The balance right after the grant. */
    balance: z.number().int(),
  }),
  z.object({
    status: z.literal('checkout'),
    provider: z.literal('stripe'),
    /** Where the browser goes to pay; credits arrive with the provider's confirmation. */
    checkoutUrl: z.url(),
  }),
]);
export type TPurchaseResponse = z.infer<typeof ZPurchaseResponse>;

const ZSubscription = z.object({
  id: z.uuid(),
  planName: z.string(),
  creditsPerMonth: z.number().int(),
  bonusCredits: z.number().int(),
  priceUsd: z.string(),
  nextRenewalDate: z.string(),
  status: z.enum(['active', 'cancelled']),
  provider: ZPaymentProviderKind,
  createdAt: z.string(),
});
export type TSubscription = z.infer<typeof ZSubscription>;

/** The caller's active monthly plan, or null. */
export const ZSubscriptionResponse = z.object({ subscription: ZSubscription.nullable() });

export const ZCancelSubscriptionResponse = z.object({ subscription: ZSubscription });

export const ZStripeWebhookResponse = z.object({
  received: z.literal(true),
  /** True when this event id was applied before and nothing happened now. */
  duplicate: z.boolean(),
});
