import { ChevronLeft, ChevronRight } from 'lucide-react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '#web/lib/format';
import { Button } from './button';

interface PaginationProps {
  page: number;
  pageSize: number;
  total: number | undefined;
  onPageChange(page: number): void;
}

/** Previous / next with "x–y of total"; hidden while the total is unknown and when nothing matched. */
export function Pagination({ page, pageSize, total, onPageChange }: PaginationProps) {
  const { t } = useTranslation();
  const last = Math.max(0, Math.ceil((total ?? 0) / pageSize) - 1);
  // After a delete or a narrower filter the page may lie past the end: step back to the last one.
  useEffect(() => {
    if (total !== undefined && page > last) onPageChange(last);
  }, [total, page, last, onPageChange]);
  if (!total) return null;
  const from = page * pageSize + 1;
  const to = Math.min(total, (page + 1) * pageSize);
  return (
    <nav
      aria-label={t('pagination.label')}
      className="mt-4 flex flex-wrap items-center justify-between gap-3 text-sm text-slate-700"
    >
      <p aria-live="polite">
        {t('pagination.range', {
          from: formatNumber(from),
          to: formatNumber(to),
          total: formatNumber(total),
        })}
      </p>
      <div className="flex gap-2">
        <Button variant="secondary" size="sm" disabled={page <= 0} onClick={() => onPageChange(page - 1)}>
          <ChevronLeft className="size-4" aria-hidden="true" />
          {t('pagination.previous')}
        </Button>
        <Button variant="secondary" size="sm" disabled={page >= last} onClick={() => onPageChange(page + 1)}>
          {t('pagination.next')}
          <ChevronRight className="size-4" aria-hidden="true" />
        </Button>
      </div>
    </nav>
  );
}
