import { pickLanguage } from '#shared/contract/pick-language';
import type { TPublicWorkflow } from '#shared/contract/workflows';

export const ALL_CATEGORIES = 'all';

/** The distinct categories in the reader's language, sorted as that language sorts. */
export function categoriesOf(workflows: TPublicWorkflow[], lng: string): string[] {
  const names = new Set(workflows.map((w) => pickLanguage(w.category, lng)).filter(Boolean));
  return [...names].sort((a, b) => a.localeCompare(b, lng));
}

/** Workflows whose name or description (in the reader's language) holds the search, in the chosen category. */
export function filterWorkflows(
  workflows: TPublicWorkflow[],
  { search, category, lng }: { search: string; category: string; lng: string },
): TPublicWorkflow[] {
  const needle = search.trim().toLocaleLowerCase(lng);
  return workflows.filter((w) => {
    if (category !== ALL_CATEGORIES && pickLanguage(w.category, lng) !== category) return false;
    if (!needle) return true;
    const haystack = `${pickLanguage(w.name, lng)}\n${pickLanguage(w.description, lng)}`;
    return haystack.toLocaleLowerCase(lng).includes(needle);
  });
}

/** The catalogue's orders; `newest` is the server's own (newest first) and the default. */
export const CATALOGUE_SORTS = ['newest', 'popular', 'rating'] as const;
export type CatalogueSort = (typeof CATALOGUE_SORTS)[number];

/** The order named in the page's `sort` query parameter; anything else is the default. */
export function parseSort(value: string | null): CatalogueSort {
  return CATALOGUE_SORTS.find((s) => s === value) ?? 'newest';
}

/**
 * The workflows in the chosen order, ties kept in the server's (newest first). Top rated puts the higher
 * average first, then the one more people rated; unrated workflows go last.
 */
export function sortWorkflows(workflows: TPublicWorkflow[], sort: CatalogueSort): TPublicWorkflow[] {
  if (sort === 'newest') return workflows;
  const byRuns = (a: TPublicWorkflow, b: TPublicWorkflow) => b.runCount - a.runCount;
  const byRating = (a: TPublicWorkflow, b: TPublicWorkflow) =>
    (b.rating.average ?? 0) - (a.rating.average ?? 0) || b.rating.count - a.rating.count;
  return [...workflows].sort(sort === 'popular' ? byRuns : byRating);
}
