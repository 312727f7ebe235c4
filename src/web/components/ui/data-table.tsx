import { Fragment, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { cn } from '#web/lib/utils';
import { useMediaQuery } from '#web/lib/use-media-query';
import { Spinner } from './spinner';
import { errorMessage as apiErrorMessage } from '#web/lib/error-key';

export interface Column<T> {
  id: string;
  header: ReactNode;
  cell(row: T): ReactNode;
  /** Applied to the column's header and cells in the table. */
  className?: string;
  /** The row's buttons: no heading of their own on the phone cards, placed at the card's foot. */
  actions?: boolean;
  /** Short enough to sit beside the title on a phone card (a status badge) instead of as a labelled value. */
  cardAside?: boolean;
}

interface DataTableProps<T> {
  /** Names the table (and the list of cards that replaces it on phones) for screen readers. */
  label: string;
  columns: Array<Column<T>>;
  rows: T[] | undefined;
  rowKey(row: T): string;
  isLoading: boolean;
  error?: Error | null;
  /** What to say when loading failed; by default a generic sentence with the error's message. */
  errorMessage?: ReactNode;
  /** The spinner's text while loading; by default the generic "Loading...". */
  loadingLabel?: string;
  empty: ReactNode;
  /** Extra content after a row (an expanded detail), spanning every column. */
  renderAfterRow?(row: T): ReactNode;
  /** Put on each table row, so journeys can find the rows. */
  rowTestId?: string;
  /** Put on each phone card, the rows' stand-in below 768 px. */
  cardTestId?: string;
  /** Overrides for the table element (a fixed layout for percentage widths, say). */
  tableClassName?: string;
}

/**
 * A list: a table from 768 px up, a card per row below (first column as the title, the others
 * as labelled values), with shared loading, error and empty states.
 */
export function DataTable<T>(props: DataTableProps<T>) {
  const { t } = useTranslation();
  const { rows, isLoading, error, errorMessage, loadingLabel, empty } = props;
  const wide = useMediaQuery('(min-width: 48rem)');
  const state = isLoading ? (
    <Spinner label={loadingLabel ?? t('loading')} />
  ) : error ? (
    <p role="alert" className="px-4 py-8 text-center text-red-800">
      {errorMessage ?? t('loadError', { message: apiErrorMessage(t, error) })}
    </p>
  ) : !rows || rows.length === 0 ? (
    <p className="px-4 py-10 text-center text-slate-700">{empty}</p>
  ) : null;

  // One of the two is rendered, never both, so ids and names in the rows stay unique on the page.
  return wide ? <Table {...props} state={state} /> : <Cards {...props} state={state} />;
}

function Table<T>({
  label,
  columns,
  rows,
  rowKey,
  renderAfterRow,
  rowTestId,
  tableClassName,
  state,
}: DataTableProps<T> & { state: ReactNode }) {
  return (
    <div
      className="relative overflow-x-auto rounded-xl border border-slate-200 bg-white shadow-sm"
      role="region"
      aria-label={label}
      // Focusable so keyboard users can scroll a wide table sideways; `relative` keeps the visually hidden
      // labels inside it (else they widen the page from their static position).
      tabIndex={0}
    >
      <table className={cn('w-full min-w-[40rem] text-left text-sm', tableClassName)}>
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
          {state ? (
            <tr>
              <td colSpan={columns.length}>{state}</td>
            </tr>
          ) : (
            (rows ?? []).map((row) => {
              const after = renderAfterRow?.(row);
              return (
                <Fragment key={rowKey(row)}>
                  <tr className="align-top hover:bg-slate-50/70" data-testid={rowTestId}>
                    {columns.map((c) => (
                      <td key={c.id} className={cn('px-4 py-3 text-slate-800', c.className)}>
                        {c.cell(row)}
                      </td>
                    ))}
                  </tr>
                  {after ? (
                    <tr className="bg-slate-50">
                      <td colSpan={columns.length} className="px-4 py-3">
                        {after}
                      </td>
                    </tr>
                  ) : null}
                </Fragment>
              );
            })
          )}
        </tbody>
      </table>
    </div>
  );
}

function Cards<T>({
  label,
  columns,
  rows,
  rowKey,
  renderAfterRow,
  cardTestId,
  state,
}: DataTableProps<T> & { state: ReactNode }) {
  const [title, ...rest] = columns;
  const asides = rest.filter((c) => c.cardAside && !c.actions);
  const fields = rest.filter((c) => !c.actions && !c.cardAside);
  const actions = rest.filter((c) => c.actions);
  if (state) {
    return <div className="rounded-xl border border-slate-200 bg-white shadow-sm">{state}</div>;
  }
  return (
    <ul aria-label={label} className="space-y-3">
      {(rows ?? []).map((row) => {
        const after = renderAfterRow?.(row);
        return (
          <li
            key={rowKey(row)}
            className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm"
            data-testid={cardTestId}
          >
            <div className="flex items-start justify-between gap-3">
              {title ? (
                <div className="min-w-0 break-words text-sm text-slate-900">{title.cell(row)}</div>
              ) : null}
              {asides.map((c) => (
                <div key={c.id} className="shrink-0">
                  {c.cell(row)}
                </div>
              ))}
            </div>
            <dl className="mt-3 grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-2 text-sm">
              {fields.map((c) => (
                <div key={c.id} className="contents">
                  <dt className="text-xs font-semibold uppercase tracking-wide text-slate-600">{c.header}</dt>
                  <dd className="min-w-0 break-words text-slate-800">{c.cell(row)}</dd>
                </div>
              ))}
            </dl>
            {actions.length > 0 ? (
              <div className="mt-3 flex justify-end border-t border-slate-100 pt-2">
                {actions.map((c) => (
                  <div key={c.id}>{c.cell(row)}</div>
                ))}
              </div>
            ) : null}
            {after ? <div className="mt-3">{after}</div> : null}
          </li>
        );
      })}
    </ul>
  );
}
