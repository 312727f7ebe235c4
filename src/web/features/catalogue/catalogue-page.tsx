import { SearchX, Search, Upload } from 'lucide-react';
import { lazy, Suspense, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { pickLanguage } from '#shared/contract/pick-language';
import type { TPublicWorkflow } from '#shared/contract/workflows';
import { Button } from '#web/components/ui/button';
import { Input, Label } from '#web/components/ui/input';
import { Spinner } from '#web/components/ui/spinner';
import { toast } from '#web/components/ui/toast';
import { isAdminUser, useMe } from '#web/lib/session';
import { cn } from '#web/lib/utils';
import { AnonymousOverlay } from './anonymous-overlay';
import { usePublicWorkflows } from './api/get-public-workflows';
import {
  ALL_CATEGORIES,
  CATALOGUE_SORTS,
  categoriesOf,
  filterWorkflows,
  parseSort,
  resolveCategory,
  sortWorkflows,
  type CatalogueSort,
} from './filter-workflows';
import { WorkflowCard } from './workflow-card';

// The reviews dialog (and the dialog library under it) loads with the first card whose reviews are opened.
const ReviewsDialog = lazy(() =>
  import('#web/components/reviews/reviews-dialog').then((m) => ({ default: m.ReviewsDialog })),
);

const SELECT =
  'block h-10 w-full rounded-lg border border-slate-300 bg-white px-3 text-sm text-slate-900 shadow-sm focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-600/30';

/** A choice above the grid, its label read by screen readers only (the options say what it is). */
function ToolbarSelect({
  id,
  label,
  value,
  onChange,
  children,
}: {
  id: string;
  label: string;
  value: string;
  onChange(value: string): void;
  children: ReactNode;
}) {
  return (
    <div>
      <Label htmlFor={id} className="sr-only">
        {label}
      </Label>
      <select id={id} className={SELECT} value={value} onChange={(e) => onChange(e.target.value)}>
        {children}
      </select>
    </div>
  );
}

export default function CataloguePage() {
  const { t, i18n } = useTranslation('catalogue');
  const lng = i18n.resolvedLanguage ?? 'en';
  const navigate = useNavigate();
  const { data: user, isPending: sessionPending } = useMe();
  const workflows = usePublicWorkflows();
  const [search, setSearch] = useState('');
  // The order and the category live in the address (?sort=popular&category=Sales), so a shared or reloaded
  // link keeps them; a default is left out of the address.
  const [params, setParams] = useSearchParams();
  const sort = parseSort(params.get('sort'));
  const setParam = (name: 'sort' | 'category', value: string, fallback: string) =>
    setParams(
      (current) => {
        const updated = new URLSearchParams(current);
        if (value === fallback) updated.delete(name);
        else updated.set(name, value);
        return updated;
      },
      // The same page in another order: the reader stays where they are.
      { replace: true, preventScrollReset: true },
    );
  const setSort = (next: CatalogueSort) => setParam('sort', next, 'newest');
  const setCategory = (next: string) => setParam('category', next, ALL_CATEGORIES);
  const [reviewing, setReviewing] = useState<TPublicWorkflow | null>(null);
  // Once loaded the dialog stays, closed, so that closing it later animates and gives focus back as before.
  const [reviewsLoaded, setReviewsLoaded] = useState(false);
  if (reviewing && !reviewsLoaded) setReviewsLoaded(true);

  const all = useMemo(() => workflows.data ?? [], [workflows.data]);
  const categories = useMemo(() => categoriesOf(all, lng), [all, lng]);
  const activeCategory = resolveCategory(all, params.get('category'), lng);
  const shown = useMemo(
    () => sortWorkflows(filterWorkflows(all, { search, category: activeCategory, lng }), sort),
    [all, search, activeCategory, lng, sort],
  );
  const anonymous = !sessionPending && !user;

  const execute = (workflow: TPublicWorkflow) => {
    if (!user) return toast({ title: t('toast.signInRequired'), description: t('toast.signInRequiredBody') });
    if ((user.credits ?? 0) < 1) {
      return toast({
        title: t('toast.insufficientCredits'),
        description: t('toast.insufficientCreditsBody'),
        variant: 'destructive',
      });
    }
    void navigate(`/workflows/${workflow.id}/execute`);
  };

  const upload = () => {
    if (isAdminUser(user)) void navigate('/admin/create-workflow');
    else toast({ title: t('toast.comingSoon'), description: t('toast.comingSoonBody') });
  };

  return (
    <div className="mx-auto max-w-6xl px-4 py-10">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <h1 className="text-3xl font-bold tracking-tight text-slate-900">{t('title')}</h1>
          <p className="mt-2 max-w-2xl text-slate-700">{t('subtitle')}</p>
        </div>
        <Button variant="secondary" onClick={upload} className="self-start sm:self-auto">
          <Upload className="size-4" aria-hidden="true" />
          {t('upload')}
        </Button>
      </div>

      <div className="relative mt-8">
        {anonymous ? <AnonymousOverlay /> : null}
        <div
          className={cn(anonymous && 'pointer-events-none select-none blur-sm')}
          inert={anonymous}
          aria-hidden={anonymous || undefined}
          data-testid="catalogue-grid"
        >
          <div className="grid gap-4 sm:grid-cols-[1fr_14rem_12rem]">
            <div>
              <Label htmlFor="catalogue-search" className="sr-only">
                {t('searchLabel')}
              </Label>
              <div className="relative">
                <Search
                  className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-slate-600"
                  aria-hidden="true"
                />
                <Input
                  id="catalogue-search"
                  type="search"
                  className="pl-9"
                  placeholder={t('searchPlaceholder')}
                  value={search}
                  onChange={(e) => setSearch(e.target.value)}
                />
              </div>
            </div>
            <ToolbarSelect
              id="catalogue-category"
              label={t('categoryLabel')}
              value={activeCategory}
              onChange={setCategory}
            >
              <option value={ALL_CATEGORIES}>{t('allCategories')}</option>
              {categories.map((c) => (
                <option key={c} value={c}>
                  {c}
                </option>
              ))}
            </ToolbarSelect>
            <ToolbarSelect
              id="catalogue-sort"
              label={t('sortLabel')}
              value={sort}
              onChange={(v) => setSort(parseSort(v))}
            >
              {CATALOGUE_SORTS.map((s) => (
                <option key={s} value={s}>
                  {t(`sort.${s}`)}
                </option>
              ))}
            </ToolbarSelect>
          </div>

          {anonymous && !workflows.data ? (
            <PlaceholderGrid />
          ) : workflows.isPending ? (
            <Spinner label={t('loading')} className="min-h-64" />
          ) : workflows.isError && !anonymous ? (
            <p role="alert" className="mt-8 rounded-lg bg-red-50 p-4 text-sm text-red-800">
              {t('loadError')}
            </p>
          ) : shown.length === 0 ? (
            <div className="mt-8 flex flex-col items-center rounded-xl border border-dashed border-slate-300 bg-white px-6 py-16 text-center">
              <SearchX className="size-10 text-slate-500" aria-hidden="true" />
              <p className="mt-3 text-lg font-semibold text-slate-900">{t('empty.title')}</p>
              <p className="mt-1 text-sm text-slate-700">{t('empty.body')}</p>
              {search || activeCategory !== ALL_CATEGORIES ? (
                <Button
                  variant="secondary"
                  className="mt-5"
                  onClick={() => {
                    setSearch('');
                    setCategory(ALL_CATEGORIES);
                  }}
                >
                  {t('empty.clear')}
                </Button>
              ) : null}
            </div>
          ) : (
            <ul className="mt-6 grid gap-5 sm:grid-cols-2 lg:grid-cols-3" aria-label={t('listLabel')}>
              {shown.map((w) => (
                <li key={w.id}>
                  <WorkflowCard workflow={w} onExecute={execute} onReviews={setReviewing} />
                </li>
              ))}
            </ul>
          )}
        </div>
      </div>
      {reviewsLoaded ? (
        <Suspense fallback={null}>
          <ReviewsDialog
            workflowId={reviewing?.id ?? null}
            workflowName={reviewing ? pickLanguage(reviewing.name, lng) : ''}
            onClose={() => setReviewing(null)}
          />
        </Suspense>
      ) : null}
    </div>
  );
}

/** What a visitor sees behind the overlay when the list is not public: the shape of the catalogue. */
function PlaceholderGrid() {
  return (
    <ul className="mt-6 grid gap-5 sm:grid-cols-2 lg:grid-cols-3">
      {Array.from({ length: 6 }, (_, i) => (
        <li key={i} className="h-52 rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
          <div className="h-5 w-24 rounded-full bg-brand-100" />
          <div className="mt-4 h-5 w-3/4 rounded bg-slate-200" />
          <div className="mt-3 h-4 w-full rounded bg-slate-100" />
          <div className="mt-2 h-4 w-5/6 rounded bg-slate-100" />
        </li>
      ))}
    </ul>
  );
}
