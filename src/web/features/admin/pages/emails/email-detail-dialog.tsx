import { Info, RotateCcw } from 'lucide-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { TAdminEmail } from '#shared/contract/emails';
import { Button } from '#web/components/ui/button';
import { Dialog } from '#web/components/ui/dialog';
import { Spinner } from '#web/components/ui/spinner';
import { useAdminEmail } from '#web/features/admin/api/get-emails';
import { LinkedText } from '#web/features/admin/components/linked-text';
import { formatNumber } from '#web/lib/format';
import { formatDateTime } from '#web/features/admin/lib/format';
import { EmailStatusBadge } from './email-status-badge';

interface EmailDetailDialogProps {
  /** The row that was opened (shown at once while the full mail loads). */
  email: TAdminEmail | null;
  onClose(): void;
  onRetry(email: TAdminEmail): void;
  retrying: boolean;
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="contents">
      <dt className="text-xs font-semibold uppercase tracking-wide text-slate-600">{label}</dt>
      <dd className="min-w-0 break-words text-slate-900">{children}</dd>
    </div>
  );
}

/** Reads one mail: who it is for, where it stands, the last error, and its text part with live links. */
export function EmailDetailDialog({ email, onClose, onRetry, retrying }: EmailDetailDialogProps) {
  const { t } = useTranslation('admin');
  const detail = useAdminEmail(email?.id ?? null);
  // The list's row is enough for the header; the detail brings the parts (and the newest status).
  const mail = detail.data && detail.data.id === email?.id ? detail.data : email;
  return (
    <Dialog
      open={email !== null}
      onOpenChange={(open) => (open ? undefined : onClose())}
      title={mail?.subject ?? ''}
      closeLabel={t('common.close')}
      className="max-w-2xl"
    >
      {mail ? (
        <div className="space-y-4 text-sm">
          <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-2">
            <Row label={t('emails.columns.to')}>{mail.to}</Row>
            <Row label={t('emails.columns.status')}>
              <EmailStatusBadge status={mail.status} />
            </Row>
            <Row label={t('emails.columns.kind')}>{t(`emails.kinds.${mail.kind}`)}</Row>
            <Row label={t('emails.language')}>{t(`languages.${mail.language}`)}</Row>
            <Row label={t('emails.created')}>{formatDateTime(mail.createdAt)}</Row>
            {mail.sentAt ? <Row label={t('emails.sentAt')}>{formatDateTime(mail.sentAt)}</Row> : null}
            <Row label={t('emails.attempts')}>{formatNumber(mail.attempts)}</Row>
            {mail.lastError ? (
              <Row label={t('emails.lastError')}>
                <span className="text-red-800">{mail.lastError}</span>
              </Row>
            ) : null}
          </dl>
          {mail.status === 'held' ? (
            <p
              className="flex gap-2 rounded-lg border border-sky-200 bg-sky-50 p-3 text-sky-950"
              data-testid="email-held"
            >
              <Info className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
              <span>{t('emails.heldNote')}</span>
            </p>
          ) : null}
          {mail.status === 'failed' ? (
            <Button variant="secondary" onClick={() => onRetry(mail)} disabled={retrying}>
              <RotateCcw className="size-4" aria-hidden="true" />
              {t('emails.retry')}
            </Button>
          ) : null}
          <section aria-labelledby="email-text-heading">
            <h3 id="email-text-heading" className="mb-2 font-semibold text-slate-900">
              {t('emails.textPart')}
            </h3>
            {detail.isPending ? (
              <Spinner label={t('common.loading')} className="p-4" />
            ) : detail.error ? (
              <p role="alert" className="text-red-800">
                {t('emails.loadError')}
              </p>
            ) : (
              <LinkedText
                text={detail.data?.text ?? ''}
                className="whitespace-pre-wrap break-words rounded-lg border border-slate-200 bg-slate-50 p-4 text-slate-900"
              />
            )}
          </section>
        </div>
      ) : null}
    </Dialog>
  );
}
