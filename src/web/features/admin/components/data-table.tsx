import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Spinner } from '../../../components/ui/spinner';
import { cn } from '../../../lib/utils';

export interface Column<T> {
  id: string;
  header: ReactNode;
  cell(row: T): ReactNode;
  className?: string;
}

interface DataTableProps<T> {
  /** Names the table for screen readers and the scrollable region on small screens. */
  label: string;
  columns: Array<Column<T>>;
  rows: T[] | undefined;
  rowKey(row: T): string;
  isLoading: boolean;
  error?: Error | null;
  empty: ReactNode;
  /** Extra content after a row (an expanded detail), spanning every column. */
  renderAfterRow?(row: T): ReactNode;
}

/** An admin table: scrolls sideways on narrow screens, with loading, error and empty states. */
export function DataTable<T>({
  label,
  columns,
  rows,
  rowKey,
  isLoading,
  error,
  empty,
  renderAfterRow,
}: DataTableProps<T>) {
  const { t } = useTranslation('admin');
  return (
    <div
      className="relative overflow-x-auto rounded-xl border border-slate-200 bg-white shadow-sm"
      role="region"
      aria-label={label}
      // Focusable so keyboard users can scroll the table sideways on a phone; `relative` keeps the
      // visually hidden labels inside it (else they widen the page from their static position).
      tabIndex={0}
    >
      <table className="w-full min-w-[40rem] text-left text-sm">
        <caption className="sr-only">{label}</caption>
        <thead className="border-b border-slate-200 bg-slate-50 text-xs font-semibold uppercase tracking-wide text-slate-700">
          <tr>
            {columns.map((c) => (
              <th key={c.id} scope="col" className={cn('px-4 py-3', c.className)}>
                {c.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {isLoading ? (
            <tr>
              <td colSpan={columns.length}>
                <Spinner label={t('common.loading')} />
              </td>
            </tr>
          ) : error ? (
            <tr>
              <td colSpan={columns.length} className="px-4 py-8 text-center text-red-800" role="alert">
                {t('common.loadError', { message: error.message })}
              </td>
            </tr>
          ) : !rows || rows.length === 0 ? (
            <tr>
              <td colSpan={columns.length} className="px-4 py-10 text-center text-slate-700">
                {empty}
              </td>
            </tr>
          ) : (
            rows.map((row) => (
              <RowGroup key={rowKey(row)} after={renderAfterRow?.(row)} colSpan={columns.length}>
                <tr className="align-top hover:bg-slate-50/70">
                  {columns.map((c) => (
                    <td key={c.id} className={cn('px-4 py-3 text-slate-800', c.className)}>
                      {c.cell(row)}
                    </td>
                  ))}
                </tr>
              </RowGroup>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}

function RowGroup({ children, after, colSpan }: { children: ReactNode; after: ReactNode; colSpan: number }) {
  return (
    <>
      {children}
      {after ? (
        <tr className="bg-slate-50">
          <td colSpan={colSpan} className="px-4 py-3">
            {after}
          </td>
        </tr>
      ) : null}
    </>
  );
}
