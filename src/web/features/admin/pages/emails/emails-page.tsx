import { RotateCcw } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EMAIL_STATUSES, type TAdminEmail } from '#shared/contract/emails';
import { toast } from '#web/components/ui/toast';
import { errorMessage } from '#web/lib/error-key';
import { useAdminEmails } from '#web/features/admin/api/get-emails';
import { useRetryEmail } from '#web/features/admin/api/retry-email';
import type { Column } from '#web/components/ui/data-table';
import { AdminList, dateColumn, type ListFilter } from '#web/features/admin/components/admin-list';
import { RowAction } from '#web/features/admin/components/row-action';
import { chosen, useListState } from '#web/features/admin/lib/use-list-state';
import { EmailDetailDialog } from './email-detail-dialog';
import { EmailStatusBadge } from './email-status-badge';

/**
 * The outbox: every mail the product wrote, where it stands, and (without an SMTP server) the place to
 * read the held ones, links included.
 */
export default function EmailsPage() {
  const { t } = useTranslation('admin');
  const list = useListState();
  const emails = useAdminEmails({ ...list.params, status: chosen(EMAIL_STATUSES, list.filter) });
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
          description: errorMessage(t, err, { CONFLICT: 'admin:emails.retryConflict' }),
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
    dateColumn(t('emails.columns.date')),
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

  const filter: ListFilter = {
    label: t('emails.columns.status'),
    options: EMAIL_STATUSES.map((s) => ({ value: s, label: t(`emails.status.${s}`) })),
  };

  return (
    <AdminList section="emails" list={list} page={emails} filter={filter} columns={columns}>
      <EmailDetailDialog
        email={open}
        onClose={() => setOpen(null)}
        onRetry={doRetry}
        retrying={retry.isPending}
      />
    </AdminList>
  );
}
