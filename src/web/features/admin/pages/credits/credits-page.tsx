import { useTranslation } from 'react-i18next';
import { ADMIN_TRANSACTION_TYPES, type TAdminCreditTransaction } from '#shared/contract/admin';
import { pickLanguage } from '#shared/contract/common';
import { Badge } from '#web/components/ui/badge';
import { ledgerNote, noteAsWritten } from '#web/lib/ledger-note';
import { cn } from '#web/lib/utils';
import { useAdminCredits } from '#web/features/admin/api/lists';
import type { Column } from '#web/components/ui/data-table';
import { AdminList, dateColumn, type ListFilter } from '#web/features/admin/components/admin-list';
import { formatSigned } from '#web/features/admin/lib/format';
import { chosen, useListState } from '#web/features/admin/lib/use-list-state';

const TYPE_TONES = {
  bonus: 'brand',
  purchase: 'success',
  usage: 'neutral',
  refund: 'info',
  admin_adjustment: 'warning',
} as const;

export default function CreditsPage() {
  const { t, i18n } = useTranslation('admin');
  const list = useListState();
  const credits = useAdminCredits({ ...list.params, type: chosen(ADMIN_TRANSACTION_TYPES, list.filter) });

  const columns: Array<Column<TAdminCreditTransaction>> = [
    { id: 'user', header: t('credits.columns.user'), cell: (c) => c.user?.email ?? '—' },
    {
      id: 'type',
      header: t('credits.columns.type'),
      cell: (c) => (
        <Badge tone={TYPE_TONES[c.transactionType]}>{t(`transactionTypes.${c.transactionType}`)}</Badge>
      ),
    },
    {
      id: 'amount',
      header: t('credits.columns.amount'),
      className: 'text-right tabular-nums',
      cell: (c) => (
        <span className={cn('font-semibold', c.amount > 0 ? 'text-green-800' : 'text-red-800')}>
          {formatSigned(c.amount)}
        </span>
      ),
    },
    {
      id: 'notes',
      header: t('credits.columns.notes'),
      cell: (c) => {
        // Usage and refund rows name their workflow, or say it was deleted.
        const aboutRun = c.transactionType === 'usage' || c.transactionType === 'refund';
        const workflow = c.workflow
          ? pickLanguage(c.workflow.name, i18n.language)
          : aboutRun
            ? t('common.workflowDeleted')
            : null;
        const stored = { kind: c.noteKind, params: c.noteParams, notes: c.notes };
        const note = ledgerNote(i18n.language, stored);
        return (
          <div className="max-w-xs">
            {note ? (
              <p className="break-words" translate={noteAsWritten(stored) ? 'no' : undefined}>
                {note}
              </p>
            ) : null}
            {workflow ? <p className="text-xs text-slate-700">{workflow}</p> : null}
            {!note && !workflow ? '—' : null}
          </div>
        );
      },
    },
    dateColumn(t('credits.columns.date')),
  ];

  const filter: ListFilter = {
    label: t('credits.type'),
    options: ADMIN_TRANSACTION_TYPES.map((type) => ({ value: type, label: t(`transactionTypes.${type}`) })),
  };

  return <AdminList section="credits" list={list} page={credits} filter={filter} columns={columns} />;
}
