import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Spinner } from '#web/components/ui/spinner';
import { errorMessage } from '#web/lib/error-key';
import { cn } from '#web/lib/utils';

/**
 * What an admin screen shows for one of its queries: a spinner while it loads, the failure in the reader's
 * language (an alert), then `children` with the data (which may still be missing, e.g. a query not enabled).
 */
export function Loaded<T>({
  query,
  spinnerClassName,
  errorClassName,
  children,
}: {
  query: { isLoading: boolean; error: unknown; data: T | undefined };
  spinnerClassName?: string;
  /** The failure's size and spacing; it is always red. */
  errorClassName?: string;
  children(data: T | undefined): ReactNode;
}) {
  const { t } = useTranslation('admin');
  if (query.isLoading) return <Spinner label={t('common.loading')} className={spinnerClassName} />;
  if (query.error) {
    return (
      <p role="alert" className={cn(errorClassName, 'text-red-800')}>
        {t('common.loadError', { message: errorMessage(t, query.error) })}
      </p>
    );
  }
  return children(query.data);
}
