import { pickLanguage } from '#shared/contract/pick-language';
import type { TPublicWorkflow } from '#shared/contract/workflows';

export const ALL_CATEGORIES = 'all';

/** The distinct categories in the reader's language, sorted as that language sorts. */
export function categoriesOf(workflows: TPublicWorkflow[], lng: string): string[] {
  const names = new Set(workflows.map((w) => pickLanguage(w.category, lng)).filter(Boolean));
  // One collator for the sort: `localeCompare` with a locale builds a new one at every comparison.
  return [...names].sort(new Intl.Collator(lng).compare);
}

/**
 * The category named in the address (`?category=`) as the reader's language names it. A link shared from the
 * other language names the category in that language, so it is looked up in both; a name no workflow carries
 * is no filter at all rather than an empty page.
 */
export function resolveCategory(workflows: TPublicWorkflow[], value: string | null, lng: string): string {
  if (!value || value === ALL_CATEGORIES) return ALL_CATEGORIES;
  const match = workflows.find((w) => w.category.es === value || w.category.en === value);
  return match ? pickLanguage(match.category, lng) : ALL_CATEGORIES;
}

/** Lower case without accents, so "Línea" and "linea" compare equal (the server folds the same way). */
function fold(text: string, lng: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLocaleLowerCase(lng);
}

/**
 * Workflows whose name or description (in the reader's language) holds every word of the search, in any
 * order and with accents and case aside ("informe pdf" finds "Informe de incidencia (PDF)"), in the chosen
 * category.
 */
export function filterWorkflows(
  workflows: TPublicWorkflow[],
  { search, category, lng }: { search: string; category: string; lng: string },
): TPublicWorkflow[] {
  const words = fold(search, lng).split(/\s+/).filter(Boolean);
  return workflows.filter((w) => {
    if (category !== ALL_CATEGORIES && pickLanguage(w.category, lng) !== category) return false;
    if (!words.length) return true;
    const haystack = fold(`${pickLanguage(w.name, lng)}\n${pickLanguage(w.description, lng)}`, lng);
    return words.every((word) => haystack.includes(word));
  });
}

/** The catalogue's orders; `newest` is the server's own (newest first) and the default. */
export const CATALOGUE_SORTS = ['newest', 'popular', 'rating', 'reliability'] as const;
export type CatalogueSort = (typeof CATALOGUE_SORTS)[number];

/** The order named in the page's `sort` query parameter; anything else is the default. */
export function parseSort(value: string | null): CatalogueSort {
  return CATALOGUE_SORTS.find((s) => s === value) ?? 'newest';
}

/**
 * The workflows in the chosen order, ties kept in the server's (newest first). Top rated puts the higher
 * average first, then the one more people rated; unrated workflows go last. Most reliable puts the higher public
 * success rate first; workflows without one (under 20 finished runs in 30 days) go last.
 */
export function sortWorkflows(workflows: TPublicWorkflow[], sort: CatalogueSort): TPublicWorkflow[] {
  if (sort === 'newest') return workflows;
  const byRuns = (a: TPublicWorkflow, b: TPublicWorkflow) => b.runCount - a.runCount;
  const byRating = (a: TPublicWorkflow, b: TPublicWorkflow) =>
    (b.rating.average ?? 0) - (a.rating.average ?? 0) || b.rating.count - a.rating.count;
  const byReliability = (a: TPublicWorkflow, b: TPublicWorkflow) =>
    (b.health?.successPercent ?? -1) - (a.health?.successPercent ?? -1);
  return [...workflows].sort(sort === 'popular' ? byRuns : sort === 'reliability' ? byReliability : byRating);
}
