import type { TLedgerNoteKind, TLedgerNoteParams } from '#shared/contract/credits';
import { ledgerNoteText } from '#shared/i18n/ledger-notes';

export { noteAsWritten } from '#shared/i18n/ledger-notes';

/**
 * A ledger row's note in the reader's language (any Spanish variant reads Spanish): the kind's wording with
 * its plan or percentage, or the row's own text for an admin's reason and for texts from before kinds.
 * The account history and the admin credits list both show notes through here.
 */
export function ledgerNote(
  language: string,
  note: { kind: TLedgerNoteKind; params: TLedgerNoteParams; notes: string | null },
): string | null {
  return ledgerNoteText(language.toLowerCase().startsWith('es') ? 'es' : 'en', note);
}
