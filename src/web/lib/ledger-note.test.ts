import { describe, expect, it } from 'vitest';
import { LEDGER_NOTE_KINDS, type TLedgerNoteKind, type TLedgerNoteParams } from '#shared/contract/credits';
import { ledgerNote } from './ledger-note';

const cases: Record<
  TLedgerNoteKind,
  { params: TLedgerNoteParams; notes: string | null; en: string | null; es: string | null }
> = {
  signup_bonus: { params: {}, notes: null, en: 'Sign-up bonus', es: 'Bono de registro' },
  workflow_run: { params: {}, notes: null, en: 'Workflow run', es: 'Ejecución de workflow' },
  refund_run_failed: {
    params: {},
    notes: null,
    en: 'Refund: the run failed',
    es: 'Reembolso: la ejecución falló',
  },
  refund_run_expired: {
    params: {},
    notes: null,
    en: 'Refund: the run expired',
    es: 'Reembolso: la ejecución caducó',
  },
  refund_workflow_deleted: {
    params: {},
    notes: null,
    en: 'Refund: the workflow was deleted before the run ended',
    es: 'Reembolso: el workflow se eliminó antes de que terminara la ejecución',
  },
  credit_pack: { params: { plan: 'Pro' }, notes: null, en: 'Pro credit pack', es: 'Paquete de créditos Pro' },
  monthly_plan_first_month: {
    params: { plan: 'Starter' },
    notes: null,
    en: 'Starter monthly plan: first month',
    es: 'Plan mensual Starter: primer mes',
  },
  monthly_plan_renewal: {
    params: { plan: 'Starter' },
    notes: null,
    en: 'Starter monthly plan renewal',
    es: 'Renovación del plan mensual Starter',
  },
  monthly_plan_bonus: {
    params: { plan: 'Pro', percent: 25 },
    notes: null,
    en: 'Pro monthly plan bonus (25%)',
    es: 'Bonificación del plan mensual Pro (25 %)',
  },
  monthly_plan_free_period: {
    params: { plan: 'Pro' },
    notes: null,
    en: 'Pro monthly plan: a period without payment',
    es: 'Plan mensual Pro: un periodo sin pago',
  },
  account_offer: { params: { plan: 'Pro' }, notes: null, en: 'Pro offer', es: 'Oferta Pro' },
  account_offer_bonus: {
    params: { plan: 'Pro' },
    notes: null,
    en: 'Pro offer bonus',
    es: 'Bonificación de la oferta Pro',
  },
  payment_refunded: {
    params: { plan: 'Pro' },
    notes: null,
    en: 'Credits taken back: the Pro payment was refunded',
    es: 'Créditos retirados: el pago de Pro se reembolsó',
  },
  payment_disputed: {
    params: { plan: 'Pro' },
    notes: null,
    en: 'Credits taken back: the Pro payment is disputed',
    es: 'Créditos retirados: el pago de Pro está en disputa',
  },
  admin_adjustment: { params: {}, notes: 'Launch promo', en: 'Launch promo', es: 'Launch promo' },
  other: { params: {}, notes: 'Christmas gift', en: 'Christmas gift', es: 'Christmas gift' },
};

describe('ledgerNote', () => {
  it('has a case for every kind', () => {
    expect(Object.keys(cases).sort()).toEqual([...LEDGER_NOTE_KINDS].sort());
  });

  it.each(LEDGER_NOTE_KINDS)('words %s in English and Spanish', (kind) => {
    const { params, notes, en, es } = cases[kind];
    expect(ledgerNote('en', { kind, params, notes })).toBe(en);
    expect(ledgerNote('es-MX', { kind, params, notes })).toBe(es);
  });

  it('words an adjustment without a reason, and says nothing for an empty other', () => {
    expect(ledgerNote('en', { kind: 'admin_adjustment', params: {}, notes: null })).toBe(
      'Adjustment by an administrator',
    );
    expect(ledgerNote('es', { kind: 'admin_adjustment', params: {}, notes: '' })).toBe(
      'Ajuste de un administrador',
    );
    expect(ledgerNote('es', { kind: 'other', params: {}, notes: null })).toBeNull();
  });

  it('ignores the English text the API keeps in notes for a kind of its own', () => {
    expect(ledgerNote('es', { kind: 'signup_bonus', params: {}, notes: 'Sign-up bonus' })).toBe(
      'Bono de registro',
    );
  });
});
