import { Receipt } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '#web/components/ui/button';
import { Card } from '#web/components/ui/card';
import { Spinner } from '#web/components/ui/spinner';
import { cn } from '#web/lib/utils';
import { type TransactionFilter, useTransactions } from './api/get-transactions';
import { TransactionRow } from './transaction-row';

const FILTERS: TransactionFilter[] = ['all', 'usage', 'purchase', 'bonus'];
const PAGE = 20;

/** The user's ledger, newest first, with four filters (all, runs, purchases, bonuses), a record count and both empty states. */
export function TransactionHistory() {
  const { t } = useTranslation('account');
  const { t: tc } = useTranslation();
  const [filter, setFilter] = useState<TransactionFilter>('all');
  const [limit, setLimit] = useState(PAGE);
  const { data, isPending, isError, refetch, isFetching } = useTransactions(filter, limit);

  const choose = (next: TransactionFilter) => {
    setFilter(next);
    setLimit(PAGE);
  };

  let body;
  if (isPending) body = <Spinner label={tc('loading')} />;
  else if (isError)
    body = (
      <div className="p-8 text-center">
        <p className="text-sm font-medium text-red-800">{t('history.loadError')}</p>
        <Button variant="secondary" size="sm" className="mt-3" onClick={() => void refetch()}>
          {t('history.retry')}
        </Button>
      </div>
    );
  else if (data.rows.length === 0)
    body = (
      <div className="flex flex-col items-center p-10 text-center" data-testid="history-empty">
        <Receipt className="size-10 text-slate-400" aria-hidden="true" />
        <p className="mt-3 font-medium text-slate-900">
          {filter === 'all' ? t('history.empty') : t('history.emptyFilter')}
        </p>
        <p className="mt-1 text-sm text-slate-700">
          {filter === 'all' ? t('history.emptyBody') : t('history.emptyFilterBody')}
        </p>
      </div>
    );
  else
    body = (
      <>
        <ul aria-labelledby="history-heading">
          {data.rows.map((tx) => (
            <TransactionRow key={tx.id} tx={tx} />
          ))}
        </ul>
        {data.rows.length < data.total ? (
          <div className="border-t border-slate-200 p-4 text-center">
            <Button
              variant="secondary"
              size="sm"
              disabled={isFetching}
              onClick={() => setLimit((l) => l + PAGE)}
            >
              {isFetching ? tc('loading') : t('history.showMore')}
            </Button>
          </div>
        ) : null}
      </>
    );

  return (
    <section aria-labelledby="history-heading">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <h2 id="history-heading" className="text-xl font-semibold text-slate-900">
            {t('history.heading')}
          </h2>
          <p className="mt-1 text-sm text-slate-700" aria-live="polite" data-testid="history-count">
            {data ? t('history.count', { count: data.total }) : '\u00a0'}
          </p>
        </div>
        <div role="group" aria-label={t('history.filtersLabel')} className="flex flex-wrap gap-2">
          {FILTERS.map((f) => (
            <button
              key={f}
              type="button"
              aria-pressed={filter === f}
              onClick={() => choose(f)}
              className={cn(
                'rounded-full border px-3.5 py-1.5 text-sm font-medium transition-colors',
                filter === f
                  ? 'border-brand-700 bg-brand-700 text-white'
                  : 'border-slate-300 bg-white text-slate-800 hover:bg-slate-100',
              )}
            >
              {t(`history.filters.${f}`)}
            </button>
          ))}
        </div>
      </div>
      <Card className="mt-4 overflow-hidden">{body}</Card>
    </section>
  );
}
