// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import i18n from '#web/i18n';
import { ZWorkflowInput, type TSurveyQuestion } from '#shared/contract/workflows';
import { draftToInput, emptyDraft, validateDraft, type WorkflowDraft } from '../lib/workflow-form';
import { emptyQuestion, SurveyBuilder } from './survey-builder';

const DRAFT: WorkflowDraft = {
  ...emptyDraft(),
  userId: '0b6f1f5e-3c0a-4a43-9a0e-6a8c7e0f7b11',
  name: { es: 'Encuesta', en: 'Survey' },
  categoryKey: 'sales',
  creditsPerExecution: '1',
  webhookUrl: 'https://hooks.example.com/s',
  interactionType: 'survey',
};

/**
 * The builder as the create page holds it: its questions kept, and the page's messages (validateDraft in the
 * UI language) shown under them; `seen` is the latest list.
 */
function renderBuilder(initial: TSurveyQuestion[]) {
  const seen = { questions: initial };
  function Harness() {
    const [questions, setQuestions] = useState(initial);
    const errors = validateDraft({ ...DRAFT, surveyQuestions: questions }, i18n.getFixedT(null, 'admin'));
    return (
      <SurveyBuilder
        questions={questions}
        errors={errors.questions}
        onChange={(next) => {
          seen.questions = next;
          setQuestions(next);
        }}
      />
    );
  }
  // The question texts' translate buttons use a mutation; nothing here calls it.
  render(
    <QueryClientProvider client={new QueryClient()}>
      <Harness />
    </QueryClientProvider>,
  );
  return seen;
}

const TEXTS = {
  en: {
    type: 'Answer type',
    required: 'The answer is required',
    min: 'Smallest answer',
    max: 'Largest answer',
    range: 'The largest answer cannot be below the smallest',
  },
  es: {
    type: 'Tipo de respuesta',
    required: 'La respuesta es obligatoria',
    min: 'Respuesta mínima',
    max: 'Respuesta máxima',
    range: 'La respuesta máxima no puede ser menor que la mínima',
  },
} as const;

describe.each(['en', 'es'] as const)('the survey builder (%s)', (lng) => {
  const t = TEXTS[lng];
  beforeAll(async () => {
    await i18n.loadNamespaces('admin');
    await i18n.changeLanguage(lng);
  });
  afterEach(cleanup);

  it('saves a question as optional, and a number question with its smallest and largest answer', () => {
    const question = { ...emptyQuestion(), question: { es: '¿Edad?', en: 'Age?' } };
    const seen = renderBuilder([question]);
    // A new question needs an answer until the admin says otherwise.
    const required = screen.getByLabelText<HTMLInputElement>(t.required);
    expect(required.checked).toBe(true);
    fireEvent.click(required);
    // The range is offered for numbers only.
    expect(screen.queryByLabelText(t.min)).toBeNull();
    fireEvent.change(screen.getByLabelText(t.type), { target: { value: 'number' } });
    fireEvent.change(screen.getByLabelText(t.min), { target: { value: '18' } });
    fireEvent.change(screen.getByLabelText(t.max), { target: { value: '99.5' } });

    const saved = ZWorkflowInput.parse(draftToInput({ ...DRAFT, surveyQuestions: seen.questions }));
    expect(saved.surveyQuestions).toEqual([
      expect.objectContaining({ type: 'number', required: false, min: 18, max: 99.5 }),
    ]);

    // Another type drops the range, which belongs to numbers.
    fireEvent.change(screen.getByLabelText(t.type), { target: { value: 'text' } });
    expect(seen.questions[0]).not.toHaveProperty('min');
    expect(seen.questions[0]).not.toHaveProperty('max');
    expect(seen.questions[0]).toMatchObject({ type: 'text', required: false });
  });

  it('says so, by the range boxes, when the largest answer is below the smallest', () => {
    renderBuilder([{ ...emptyQuestion(), question: { es: '¿Edad?', en: 'Age?' }, type: 'number' }]);
    fireEvent.change(screen.getByLabelText(t.min), { target: { value: '10' } });
    fireEvent.change(screen.getByLabelText(t.max), { target: { value: '5' } });
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toBe(t.range);
    const max = screen.getByLabelText(t.max);
    expect(max.getAttribute('aria-invalid')).toBe('true');
    expect(max.getAttribute('aria-describedby')).toContain(alert.id);
    fireEvent.change(max, { target: { value: '' } });
    expect(within(document.body).queryByRole('alert')).toBeNull();
  });
});
