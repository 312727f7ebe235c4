import { ArrowDownRight, ArrowUpRight, ChevronDown } from 'lucide-react';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { pickLanguage } from '#shared/contract/common';
import type { TUserTransaction } from '#shared/contract/credits';
import { ledgerNote, noteAsWritten } from '#web/lib/ledger-note';
import { cn } from '#web/lib/utils';
import { formatDate, formatUsd, signedAmount } from './format';

/** One ledger row: a summary line that expands to type, workflow, date, signed amount and notes. */
export function TransactionRow({ tx }: { tx: TUserTransaction }) {
  const { t, i18n } = useTranslation('account');
  const [open, setOpen] = useState(false);
  const detailsId = useId();
  const positive = tx.amount > 0;
  const typeLabel = t(`history.types.${tx.transaction_type}`);
  const workflow = tx.workflow_name
    ? pickLanguage(tx.workflow_name, i18n.language)
    : tx.workflow_deleted
      ? t('history.workflowDeleted')
      : null;
  const date = formatDate(tx.created_at, i18n.language) ?? t('history.dateUnavailable');
  // The headline is built from the row's data in the reader's language; so is the note, except an admin's
  // own reason, which appears as it was written.
  const stored = { kind: tx.note_kind, params: tx.note_params, notes: tx.notes };
  const note = ledgerNote(i18n.language, stored);
  const summary =
    workflow ??
    (tx.transaction_type === 'bonus'
      ? tx.plan_name
        ? t('history.planBonus', { plan: tx.plan_name })
        : t('history.bonusCredits')
      : tx.transaction_type === 'purchase' && tx.plan_name
        ? // "Pro offer" and "Pro credit pack" are different purchases: the note tells them apart.
          (note ?? tx.plan_name)
        : typeLabel);
  const amountClass = positive ? 'text-green-700' : 'text-red-700';
  // Dollars only on the rows of a payment (a reversal names its plan but paid nothing).
  const paid = tx.usd_amount ? formatUsd(tx.usd_amount, i18n.language) : null;

  return (
    <li className="border-b border-slate-200 last:border-b-0" data-testid="transaction">
      <button
        type="button"
        aria-expanded={open}
        aria-controls={detailsId}
        onClick={() => setOpen((o) => !o)}
        className="flex w-full items-center gap-3 px-4 py-3 text-left hover:bg-slate-50 focus-visible:bg-slate-50 sm:px-6"
      >
        <span
          aria-hidden="true"
          className={cn(
            'flex size-9 shrink-0 items-center justify-center rounded-full',
            positive ? 'bg-green-100 text-green-800' : 'bg-red-100 text-red-800',
          )}
        >
          {positive ? <ArrowUpRight className="size-4" /> : <ArrowDownRight className="size-4" />}
        </span>
        <span className="min-w-0 flex-1">
          <span className="block truncate text-sm font-medium text-slate-900">{summary}</span>
          <span className="block text-xs text-slate-700">
            {[typeLabel, paid, date].filter(Boolean).join(' · ')}
          </span>
        </span>
        <span className={cn('shrink-0 text-sm font-semibold tabular-nums', amountClass)}>
          {signedAmount(tx.amount)}
        </span>
        <ChevronDown
          aria-hidden="true"
          className={cn('size-4 shrink-0 text-slate-600 transition-transform', open && 'rotate-180')}
        />
        <span className="sr-only">{t('history.showDetails')}</span>
      </button>
      {open ? (
        <dl
          id={detailsId}
          className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-2 bg-slate-50 px-4 py-4 text-sm sm:grid-cols-[10rem_1fr] sm:px-6"
        >
          <dt className="font-medium text-slate-700">{t('history.details.type')}</dt>
          <dd className="text-slate-900">{typeLabel}</dd>
          {workflow ? (
            <>
              <dt className="font-medium text-slate-700">{t('history.details.workflow')}</dt>
              <dd className={cn('text-slate-900', tx.workflow_deleted && 'italic')}>{workflow}</dd>
            </>
          ) : null}
          {tx.plan_name ? (
            <>
              <dt className="font-medium text-slate-700">{t('history.details.plan')}</dt>
              <dd className="text-slate-900">{tx.plan_name}</dd>
            </>
          ) : null}
          {paid ? (
            <>
              <dt className="font-medium text-slate-700">{t('history.details.paid')}</dt>
              <dd className="text-slate-900" data-testid="transaction-paid">
                {paid}
              </dd>
              {/* The reference the purchase's receipt mail quotes. */}
              <dt className="font-medium text-slate-700">{t('history.details.reference')}</dt>
              <dd className="break-all font-mono text-xs text-slate-900" translate="no">
                {tx.id}
              </dd>
            </>
          ) : null}
          {tx.execution_id ? (
            <>
              <dt className="font-medium text-slate-700">{t('history.details.run')}</dt>
              <dd>
                <Link
                  to={`/my-workflows/${tx.execution_id}`}
                  className="font-medium text-brand-700 underline underline-offset-2 hover:text-brand-800"
                  data-testid="transaction-run"
                >
                  {t('history.openRun')}
                </Link>
              </dd>
            </>
          ) : null}
          <dt className="font-medium text-slate-700">{t('history.details.date')}</dt>
          <dd className="text-slate-900">{date}</dd>
          <dt className="font-medium text-slate-700">{t('history.details.amount')}</dt>
          <dd className={cn('font-semibold tabular-nums', amountClass)}>{signedAmount(tx.amount)}</dd>
          <dt className="font-medium text-slate-700">{t('history.details.notes')}</dt>
          <dd className="break-words text-slate-900" translate={noteAsWritten(stored) ? 'no' : undefined}>
            {note || t('history.noNotes')}
          </dd>
        </dl>
      ) : null}
    </li>
  );
}
