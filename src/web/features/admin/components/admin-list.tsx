import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable, type Column } from '#web/components/ui/data-table';
import { Pagination } from '#web/components/ui/pagination';
import type { Page } from '../api/list-fetcher';
import { formatDateTime } from '../lib/format';
import type { ListState } from '../lib/use-list-state';
import { FilterSelect, ListToolbar, SearchBox } from './list-toolbar';
import { PageHeader } from './page-header';

export interface ListFilter {
  label: string;
  /** The choices after "all" (the empty value), which comes first on every list. */
  options: Array<{ value: string; label: string }>;
  /** The label of the empty value when it is not every row ("all but deleted"); "All" otherwise. */
  allLabel?: string;
}

/** The column of when a row was made (every list has one). */
export function dateColumn<T extends { createdAt: string }>(header: string): Column<T> {
  return { id: 'date', header, className: 'whitespace-nowrap', cell: (row) => formatDateTime(row.createdAt) };
}

interface AdminListProps<T extends { id: string }> {
  /**
   * The screen's texts in the admin namespace: `<section>.title` (also the table's name), `.subtitle`,
   * `.search`, `.searchPlaceholder` and `.empty`.
   */
  section: string;
  list: ListState;
  /** The query of the current page. */
  page: { data?: Page<T>; isLoading: boolean; error: Error | null };
  filter: ListFilter;
  /** A second filter beside the first (the runs' origin), kept by the screen. */
  secondFilter?: ListFilter & { value: string; onChange(value: string): void };
  columns: Array<Column<T>>;
  /** A button beside the title (the workflows' "create"). */
  action?: ReactNode;
  renderAfterRow?(row: T): ReactNode;
  /** The screen's dialogs. */
  children?: ReactNode;
}

/**
 * An admin list screen: title, search box and one filter, the table (cards on phones) and its pages. The
 * screens differ only in their columns, their filter and their dialogs.
 */
export function AdminList<T extends { id: string }>({
  section,
  list,
  page,
  filter,
  secondFilter,
  columns,
  action,
  renderAfterRow,
  children,
}: AdminListProps<T>) {
  const { t } = useTranslation('admin');
  return (
    <div>
      <PageHeader title={t(`${section}.title`)} subtitle={t(`${section}.subtitle`)} action={action} />
      <ListToolbar>
        <SearchBox
          label={t(`${section}.search`)}
          placeholder={t(`${section}.searchPlaceholder`)}
          value={list.search}
          onChange={list.setSearch}
        />
        <FilterSelect
          label={filter.label}
          value={list.filter}
          onChange={list.setFilter}
          options={[{ value: '', label: filter.allLabel ?? t('common.all') }, ...filter.options]}
        />
        {secondFilter ? (
          <FilterSelect
            label={secondFilter.label}
            value={secondFilter.value}
            onChange={(value) => {
              secondFilter.onChange(value);
              list.setPage(0);
            }}
            options={[
              { value: '', label: secondFilter.allLabel ?? t('common.all') },
              ...secondFilter.options,
            ]}
          />
        ) : null}
      </ListToolbar>
      <DataTable
        label={t(`${section}.title`)}
        columns={columns}
        rows={page.data?.items}
        rowKey={(row) => row.id}
        isLoading={page.isLoading}
        error={page.error}
        empty={t(`${section}.empty`)}
        renderAfterRow={renderAfterRow}
      />
      <Pagination
        page={list.page}
        pageSize={list.pageSize}
        total={page.data?.total}
        onPageChange={list.setPage}
      />
      {children}
    </div>
  );
}
