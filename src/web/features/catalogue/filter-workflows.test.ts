import { describe, expect, it } from 'vitest';
import type { TPublicWorkflow } from '#shared/contract/workflows';
import {
  ALL_CATEGORIES,
  categoriesOf,
  filterWorkflows,
  parseSort,
  resolveCategory,
  sortWorkflows,
} from './filter-workflows';

const wf = (
  id: string,
  name: [string, string],
  category: [string, string],
  description?: [string, string],
  extra: Partial<Pick<TPublicWorkflow, 'rating' | 'runCount' | 'health'>> = {},
) =>
  ({
    id,
    name: { es: name[0], en: name[1] },
    category: { es: category[0], en: category[1] },
    description: description ? { es: description[0], en: description[1] } : null,
    interactionType: 'chatbot',
    creditsPerExecution: 1,
    rating: { average: null, count: 0 },
    runCount: 0,
    paused: false,
    health: null,
    ...extra,
  }) satisfies TPublicWorkflow;

const list = [
  wf('1', ['Resumen de ventas', 'Sales summary'], ['Ventas', 'Sales'], ['Informe semanal', 'Weekly report']),
  wf('2', ['Encuesta de clima', 'Team survey'], ['Recursos Humanos', 'HR']),
  wf('3', ['Factura PDF', 'PDF invoice'], ['Ventas', 'Sales'], ['Genera facturas', 'Builds invoices']),
  wf('4', ['Informe de incidencia (PDF)', 'Incident report (PDF)'], ['Operaciones', 'Operations']),
];
const ids = (ws: TPublicWorkflow[]) => ws.map((w) => w.id);

describe('categoriesOf', () => {
  it('lists each category once in the reader language', () => {
    expect(categoriesOf(list, 'en')).toEqual(['HR', 'Operations', 'Sales']);
    expect(categoriesOf(list, 'es')).toEqual(['Operaciones', 'Recursos Humanos', 'Ventas']);
  });
});

describe('resolveCategory', () => {
  it('reads the address in the reader language, and a link from the other language too', () => {
    expect(resolveCategory(list, 'Sales', 'en')).toBe('Sales');
    expect(resolveCategory(list, 'Sales', 'es')).toBe('Ventas');
    expect(resolveCategory(list, 'Recursos Humanos', 'en')).toBe('HR');
  });
  it('treats a missing or unknown category as all', () => {
    expect(resolveCategory(list, null, 'en')).toBe(ALL_CATEGORIES);
    expect(resolveCategory(list, 'Nope', 'es')).toBe(ALL_CATEGORIES);
  });
});

describe('filterWorkflows', () => {
  it('matches the name or the description, ignoring case, in the current language only', () => {
    expect(ids(filterWorkflows(list, { search: 'WEEKLY', category: ALL_CATEGORIES, lng: 'en' }))).toEqual([
      '1',
    ]);
    expect(ids(filterWorkflows(list, { search: 'factura', category: ALL_CATEGORIES, lng: 'es' }))).toEqual([
      '3',
    ]);
    expect(ids(filterWorkflows(list, { search: 'factura', category: ALL_CATEGORIES, lng: 'en' }))).toEqual(
      [],
    );
  });
  it('matches every word in any order, accents and case aside', () => {
    const search = (q: string, lng: string) =>
      ids(filterWorkflows(list, { search: q, category: ALL_CATEGORIES, lng }));
    expect(search('informe pdf', 'es')).toEqual(['4']);
    expect(search('PDF   INCIDÉNCIA', 'es')).toEqual(['4']);
    expect(search('pdf', 'es')).toEqual(['3', '4']);
    expect(search('informe hoja', 'es')).toEqual([]);
    expect(search('resúmen', 'es')).toEqual(['1']);
  });
  it('keeps everything for a blank search and narrows by category', () => {
    expect(ids(filterWorkflows(list, { search: '  ', category: ALL_CATEGORIES, lng: 'en' }))).toEqual([
      '1',
      '2',
      '3',
      '4',
    ]);
    expect(ids(filterWorkflows(list, { search: '', category: 'Sales', lng: 'en' }))).toEqual(['1', '3']);
    expect(ids(filterWorkflows(list, { search: 'invoice', category: 'Sales', lng: 'en' }))).toEqual(['3']);
  });
});

describe('sortWorkflows', () => {
  const rated = [
    wf('a', ['A', 'A'], ['X', 'X'], undefined, { runCount: 3, rating: { average: 4.5, count: 2 } }),
    wf('b', ['B', 'B'], ['X', 'X'], undefined, { runCount: 9 }),
    wf('c', ['C', 'C'], ['X', 'X'], undefined, { runCount: 3, rating: { average: 4.5, count: 8 } }),
    wf('d', ['D', 'D'], ['X', 'X'], undefined, { runCount: 0, rating: { average: 5, count: 1 } }),
  ];

  it('keeps the server order for newest, and orders by runs or by rating otherwise', () => {
    expect(ids(sortWorkflows(rated, 'newest'))).toEqual(['a', 'b', 'c', 'd']);
    expect(ids(sortWorkflows(rated, 'popular'))).toEqual(['b', 'a', 'c', 'd']);
    expect(ids(sortWorkflows(rated, 'rating'))).toEqual(['d', 'c', 'a', 'b']);
    expect(ids(rated)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('orders by the public success rate for most reliable, workflows without one last', () => {
    const reliable = [
      wf('a', ['A', 'A'], ['X', 'X']),
      wf('b', ['B', 'B'], ['X', 'X'], undefined, { health: { successPercent: 80, typicalMs: 1000 } }),
      wf('c', ['C', 'C'], ['X', 'X'], undefined, { health: { successPercent: 99, typicalMs: null } }),
    ];
    expect(ids(sortWorkflows(reliable, 'reliability'))).toEqual(['c', 'b', 'a']);
  });

  it('reads the sort parameter, falling back to newest', () => {
    expect(parseSort('rating')).toBe('rating');
    expect(parseSort('popular')).toBe('popular');
    expect(parseSort(null)).toBe('newest');
    expect(parseSort('cheapest')).toBe('newest');
  });
});
