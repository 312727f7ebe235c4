import { describe, expect, it } from 'vitest';
import { diffVersions, sameJson, type TWorkflowVersionContent } from './workflow-versions.js';

const base: TWorkflowVersionContent = {
  name: { es: 'Resumen', en: 'Summary' },
  description: null,
  category: { es: 'Ventas', en: 'Sales' },
  interactionType: 'survey',
  creditsPerExecution: 1,
  webhookUrl: 'https://hooks.example/a',
  welcomeMessage: null,
  aiPrompt: null,
  surveyQuestions: [
    { id: 'q1', question: { es: '¿Nombre?', en: 'Name?' }, type: 'text', options: [] },
    { id: 'q2', question: { es: 'Canal', en: 'Channel' }, type: 'select', options: ['A', 'B'] },
  ],
};

describe('the difference between two versions', () => {
  it('names the changed fields and the questions added, removed and changed, by id', () => {
    const after: TWorkflowVersionContent = {
      ...base,
      creditsPerExecution: 3,
      webhookUrl: 'https://hooks.example/b',
      surveyQuestions: [
        { ...base.surveyQuestions[1]!, options: ['A', 'B', 'C'] },
        { id: 'q3', question: { es: '¿Empresa?', en: 'Company?' }, type: 'text', options: [] },
      ],
    };
    const diff = diffVersions(base, after);
    expect(diff.fields).toEqual(['creditsPerExecution', 'webhookUrl']);
    expect(diff.questions.map((c) => [c.kind, c.id])).toEqual([
      ['changed', 'q2'],
      ['added', 'q3'],
      ['removed', 'q1'],
    ]);
  });

  it('finds none between equal versions, whatever the order of their keys', () => {
    const reordered = Object.fromEntries(
      Object.entries(structuredClone(base)).reverse(),
    ) as TWorkflowVersionContent;
    expect(diffVersions(base, reordered)).toEqual({ fields: [], questions: [] });
    expect(sameJson({ a: 1, b: [1, { c: 2 }] }, { b: [1, { c: 2 }], a: 1 })).toBe(true);
    expect(sameJson({ a: 1, b: undefined }, { a: 1 })).toBe(true);
    expect(sameJson([1, 2], [2, 1])).toBe(false);
    expect(sameJson({ a: null }, { a: 0 })).toBe(false);
  });
});
