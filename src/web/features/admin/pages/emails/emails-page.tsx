import { RotateCcw } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EMAIL_STATUSES, type TAdminEmail, type TEmailStatus } from '#shared/contract/emails';
import { toast } from '#web/components/ui/toast';
import { errorKey } from '#web/lib/error-key';
import { useAdminEmails } from '#web/features/admin/api/get-emails';
import { useRetryEmail } from '#web/features/admin/api/retry-email';
import { DataTable, type Column } from '#web/components/ui/data-table';
import { FilterSelect, ListToolbar, SearchBox } from '#web/features/admin/components/list-toolbar';
import { PageHeader } from '#web/features/admin/components/page-header';
import { Pagination } from '#web/components/ui/pagination';
import { RowAction } from '#web/features/admin/components/row-action';
import { formatDateTime } from '#web/features/admin/lib/format';
import { useListState } from '#web/features/admin/lib/use-list-state';
import { EmailDetailDialog } from './email-detail-dialog';
import { EmailStatusBadge } from './email-status-badge';

/**
 * The outbox: every mail the product wrote, where it stands, and (without an SMTP server) the place to
 * read the held ones, links included.
 */
export default function EmailsPage() {
  const { t } = useTranslation('admin');
  const list = useListState();
  const emails = useAdminEmails({
    ...list.params,
    status: (list.filter || undefined) as TEmailStatus | undefined,
  });
  const retry = useRetryEmail();
  const [open, setOpen] = useState<TAdminEmail | null>(null);
  // Only a failed mail has a row action: without one on the page, no empty actions column (or card foot).
  const anyFailed = emails.data?.items.some((m) => m.status === 'failed') ?? false;

  const doRetry = (mail: TAdminEmail) =>
    retry.mutate(mail.id, {
      onSuccess: () => {
        toast({ title: t('emails.retried'), description: mail.to, variant: 'success' });
        setOpen(null);
      },
      onError: (err) =>
        toast({
          title: t('emails.retryError'),
          description: t(errorKey(err, { CONFLICT: 'admin:emails.retryConflict' })),
          variant: 'destructive',
        }),
    });

  const columns: Array<Column<TAdminEmail>> = [
    {
      id: 'to',
      header: t('emails.columns.to'),
      cell: (m) => <span className="break-all font-medium text-slate-900">{m.to}</span>,
    },
    {
      id: 'subject',
      header: t('emails.columns.subject'),
      cell: (m) => (
        <button
          type="button"
          onClick={() => setOpen(m)}
          className="text-left font-medium text-brand-700 underline underline-offset-2 hover:text-brand-800"
        >
          {m.subject}
        </button>
      ),
    },
    { id: 'kind', header: t('emails.columns.kind'), cell: (m) => t(`emails.kinds.${m.kind}`) },
    { id: 'status', header: t('emails.columns.status'), cell: (m) => <EmailStatusBadge status={m.status} /> },
    {
      id: 'date',
      header: t('emails.columns.date'),
      className: 'whitespace-nowrap',
      cell: (m) => formatDateTime(m.createdAt),
    },
  ];
  if (anyFailed) {
    columns.push({
      id: 'actions',
      actions: true,
      header: <span className="sr-only">{t('common.actions')}</span>,
      className: 'text-right',
      cell: (m) =>
        m.status === 'failed' ? (
          <div className="flex justify-end">
            <RowAction
              label={t('emails.retryNamed', { to: m.to })}
              icon={RotateCcw}
              onClick={() => doRetry(m)}
              disabled={retry.isPending && retry.variables === m.id}
            />
          </div>
        ) : null,
    });
  }

  return (
    <div>
      <PageHeader title={t('emails.title')} subtitle={t('emails.subtitle')} />
      <ListToolbar>
        <SearchBox
          label={t('emails.search')}
          placeholder={t('emails.searchPlaceholder')}
          value={list.search}
          onChange={list.setSearch}
        />
        <FilterSelect
          label={t('emails.columns.status')}
          value={list.filter}
          onChange={list.setFilter}
          options={[
            { value: '', label: t('common.all') },
            ...EMAIL_STATUSES.map((s) => ({ value: s, label: t(`emails.status.${s}`) })),
          ]}
        />
      </ListToolbar>
      <DataTable
        label={t('emails.title')}
        columns={columns}
        rows={emails.data?.items}
        rowKey={(m) => m.id}
        isLoading={emails.isLoading}
        error={emails.error}
        empty={t('emails.empty')}
      />
      <Pagination
        page={list.page}
        pageSize={list.pageSize}
        total={emails.data?.total}
        onPageChange={list.setPage}
      />
      <EmailDetailDialog
        email={open}
        onClose={() => setOpen(null)}
        onRetry={doRetry}
        retrying={retry.isPending}
      />
    </div>
  );
}
