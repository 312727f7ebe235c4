import { useTranslation } from 'react-i18next';
import { ADMIN_TRANSACTION_TYPES, type TAdminCreditTransaction } from '#shared/contract/admin';
import { pickLanguage } from '#shared/contract/common';
import { Badge } from '#web/components/ui/badge';
import { cn } from '#web/lib/utils';
import { useAdminCredits } from '#web/features/admin/api/get-credits';
import { DataTable, type Column } from '#web/components/ui/data-table';
import { FilterSelect, ListToolbar, SearchBox } from '#web/features/admin/components/list-toolbar';
import { PageHeader } from '#web/features/admin/components/page-header';
import { Pagination } from '#web/components/ui/pagination';
import { formatDateTime, formatSigned } from '#web/features/admin/lib/format';
import { useListState } from '#web/features/admin/lib/use-list-state';

type TransactionType = (typeof ADMIN_TRANSACTION_TYPES)[number];

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
  const credits = useAdminCredits({
    ...list.params,
    type: (list.filter || undefined) as TransactionType | undefined,
  });

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
        return (
          <div className="max-w-xs">
            {c.notes ? <p className="break-words">{c.notes}</p> : null}
            {workflow ? <p className="text-xs text-slate-700">{workflow}</p> : null}
            {!c.notes && !workflow ? '—' : null}
          </div>
        );
      },
    },
    {
      id: 'date',
      header: t('credits.columns.date'),
      className: 'whitespace-nowrap',
      cell: (c) => formatDateTime(c.createdAt),
    },
  ];

  return (
    <div>
      <PageHeader title={t('credits.title')} subtitle={t('credits.subtitle')} />
      <ListToolbar>
        <SearchBox
          label={t('credits.search')}
          placeholder={t('credits.searchPlaceholder')}
          value={list.search}
          onChange={list.setSearch}
        />
        <FilterSelect
          label={t('credits.type')}
          value={list.filter}
          onChange={list.setFilter}
          options={[
            { value: '', label: t('common.all') },
            ...ADMIN_TRANSACTION_TYPES.map((type) => ({ value: type, label: t(`transactionTypes.${type}`) })),
          ]}
        />
      </ListToolbar>
      <DataTable
        label={t('credits.title')}
        columns={columns}
        rows={credits.data?.items}
        rowKey={(c) => c.id}
        isLoading={credits.isLoading}
        error={credits.error}
        empty={t('credits.empty')}
      />
      <Pagination
        page={list.page}
        pageSize={list.pageSize}
        total={credits.data?.total}
        onPageChange={list.setPage}
      />
    </div>
  );
}
