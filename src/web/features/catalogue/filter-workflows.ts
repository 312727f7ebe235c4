import { pickLanguage } from '#shared/contract/common';
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
