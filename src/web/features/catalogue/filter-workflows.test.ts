import { describe, expect, it } from 'vitest';
import type { TPublicWorkflow } from '#shared/contract/workflows';
import { ALL_CATEGORIES, categoriesOf, filterWorkflows } from './filter-workflows';

const wf = (id: string, name: [string, string], category: [string, string], description?: [string, string]) =>
  ({
    id,
    name: { es: name[0], en: name[1] },
    category: { es: category[0], en: category[1] },
    description: description ? { es: description[0], en: description[1] } : null,
    interactionType: 'chatbot',
    creditsPerExecution: 1,
  }) satisfies TPublicWorkflow;

const list = [
  wf('1', ['Resumen de ventas', 'Sales summary'], ['Ventas', 'Sales'], ['Informe semanal', 'Weekly report']),
  wf('2', ['Encuesta de clima', 'Team survey'], ['Recursos Humanos', 'HR']),
  wf('3', ['Factura PDF', 'PDF invoice'], ['Ventas', 'Sales'], ['Genera facturas', 'Builds invoices']),
];
const ids = (ws: TPublicWorkflow[]) => ws.map((w) => w.id);

describe('categoriesOf', () => {
  it('lists each category once in the reader language', () => {
    expect(categoriesOf(list, 'en')).toEqual(['HR', 'Sales']);
    expect(categoriesOf(list, 'es')).toEqual(['Recursos Humanos', 'Ventas']);
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
  it('keeps everything for a blank search and narrows by category', () => {
    expect(ids(filterWorkflows(list, { search: '  ', category: ALL_CATEGORIES, lng: 'en' }))).toEqual([
      '1',
      '2',
      '3',
    ]);
    expect(ids(filterWorkflows(list, { search: '', category: 'Sales', lng: 'en' }))).toEqual(['1', '3']);
    expect(ids(filterWorkflows(list, { search: 'invoice', category: 'Sales', lng: 'en' }))).toEqual(['3']);
  });
});
