import type { TLanguage } from '../contract/common.js';
import type { TLedgerNoteKind, TLedgerNoteParams } from '../contract/credits.js';
import { interpolate } from './errors.js';

/**
 * The wording of each ledger note kind, per language: the web shows it in the reader's language and the API
 * keeps an English `notes` for clients written before kinds existed. `admin_adjustment` and `other` show the
 * row's own text; theirs here is what shows when that text is empty.
 */
const en = {
  signup_bonus: 'Sign-up bonus',
  workflow_run: 'Workflow run',
  refund_run_failed: 'Refund: the run failed',
  refund_run_expired: 'Refund: the run expired',
  refund_workflow_deleted: 'Refund: the workflow was deleted before the run ended',
  credit_pack: '{{plan}} credit pack',
  monthly_plan_first_month: '{{plan}} monthly plan: first month',
  monthly_plan_renewal: '{{plan}} monthly plan renewal',
  monthly_plan_bonus: '{{plan}} monthly plan bonus ({{percent}}%)',
  monthly_plan_free_period: '{{plan}} monthly plan: a period without payment',
  account_offer: '{{plan}} offer',
  account_offer_bonus: '{{plan}} offer bonus',
  payment_refunded: 'Credits taken back: the {{plan}} payment was refunded',
  payment_disputed: 'Credits taken back: the {{plan}} payment is disputed',
  admin_adjustment: 'Adjustment by an administrator',
  other: '',
} as const satisfies Record<TLedgerNoteKind, string>;

const es: Record<TLedgerNoteKind, string> = {
  signup_bonus: 'Bono de registro',
  workflow_run: 'Ejecución de workflow',
  refund_run_failed: 'Reembolso: la ejecución falló',
  refund_run_expired: 'Reembolso: la ejecución caducó',
  refund_workflow_deleted: 'Reembolso: el workflow se eliminó antes de que terminara la ejecución',
  credit_pack: 'Paquete de créditos {{plan}}',
  monthly_plan_first_month: 'Plan mensual {{plan}}: primer mes',
  monthly_plan_renewal: 'Renovación del plan mensual {{plan}}',
  monthly_plan_bonus: 'Bonificación del plan mensual {{plan}} ({{percent}} %)',
  monthly_plan_free_period: 'Plan mensual {{plan}}: un periodo sin pago',
  account_offer: 'Oferta {{plan}}',
  account_offer_bonus: 'Bonificación de la oferta {{plan}}',
  payment_refunded: 'Créditos retirados: el pago de {{plan}} se reembolsó',
  payment_disputed: 'Créditos retirados: el pago de {{plan}} está en disputa',
  admin_adjustment: 'Ajuste de un administrador',
  other: '',
};

export const LEDGER_NOTE_TEXTS: Record<TLanguage, Record<TLedgerNoteKind, string>> = { en, es };

/** What a ledger row stores about its purpose. */
export interface LedgerNote {
  kind: TLedgerNoteKind;
  params: TLedgerNoteParams;
  /** The admin's reason or a text from before kinds; null for the other kinds. */
  notes: string | null;
}

/** Whether the note is a person's own text (an admin's reason, an old row's text), shown as it was written. */
export const noteAsWritten = (note: LedgerNote): boolean =>
  (note.kind === 'admin_adjustment' || note.kind === 'other') && !!note.notes;

/** A ledger row's note in one language; null when there is nothing to say. */
export function ledgerNoteText(language: TLanguage, note: LedgerNote): string | null {
  if (noteAsWritten(note)) return note.notes;
  const params: Record<string, string | number> = {};
  if (note.params.plan !== undefined) params.plan = note.params.plan;
  if (note.params.percent !== undefined) params.percent = note.params.percent;
  const text = interpolate(LEDGER_NOTE_TEXTS[language][note.kind], params);
  return text === '' ? null : text;
}
