// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import i18n from '#web/i18n';
import { ApiError } from '#web/lib/api-client';
import type { TSurveyQuestion } from '#shared/contract/workflows';
import { SurveyForm } from './survey-form';
import type { SurveyResponse } from './lib/survey-answers';

const QUESTIONS: TSurveyQuestion[] = [
  { id: 'name', question: { es: 'Nombre', en: 'Name' }, type: 'text', options: [] },
  {
    id: 'age',
    question: { es: 'Edad', en: 'Age' },
    type: 'number',
    options: [],
    required: true,
    min: 18,
    max: 99,
  },
  { id: 'nick', question: { es: 'Apodo', en: 'Nickname' }, type: 'text', options: [], required: false },
  {
    id: 'tools',
    question: { es: 'Herramientas', en: 'Tools' },
    type: 'checkbox',
    options: ['Excel', 'Notion'],
    required: true,
  },
];

const TEXTS = {
  en: {
    submit: 'Submit answers',
    required: 'This question needs an answer',
    range: 'Enter a number from 18 to 99',
    summary: (n: number) => `${n} answers need your attention.`,
  },
  es: {
    submit: 'Enviar respuestas',
    required: 'Esta pregunta necesita una respuesta',
    range: 'Escribe un número entre 18 y 99',
    summary: (n: number) => `${n} respuestas necesitan tu atención.`,
  },
} as const;

function renderForm(onSubmit: (responses: SurveyResponse[]) => void, refusal?: unknown) {
  const form = (error?: unknown) => (
    <QueryClientProvider client={queryClient}>
      <SurveyForm
        executionId="7d3f5a0e-8c1b-4a49-9f5e-2b6c1d0e9a77"
        title="Survey"
        description=""
        questions={QUESTIONS}
        submitting={false}
        onSubmit={onSubmit}
        refusal={error}
      />
    </QueryClientProvider>
  );
  const queryClient = new QueryClient();
  const { rerender } = render(form());
  if (refusal) rerender(form(refusal));
}

/** The message a field is described by, as assistive technology reads it. */
function messageOf(field: HTMLElement): string | null {
  const ids = field.getAttribute('aria-describedby')?.split(' ') ?? [];
  return ids.map((id) => document.getElementById(id)?.textContent ?? '').join(' ') || null;
}

describe.each(['en', 'es'] as const)('the survey form (%s)', (lng) => {
  const t = TEXTS[lng];
  beforeAll(async () => {
    await i18n.loadNamespaces('execute');
    await i18n.changeLanguage(lng);
  });
  afterEach(cleanup);

  it('checks the answers itself, with the server rules, and says what is wrong next to each field', () => {
    const onSubmit = vi.fn();
    renderForm(onSubmit);
    // No browser bubbles: the form checks, and the browser does not.
    expect(document.querySelector('form')!.noValidate).toBe(true);
    const age = document.getElementById('survey-age') as HTMLInputElement;
    fireEvent.change(age, { target: { value: '120' } });
    fireEvent.click(screen.getByRole('button', { name: t.submit }));

    expect(onSubmit).not.toHaveBeenCalled();
    const alerts = screen.getAllByRole('alert').map((a) => a.textContent);
    expect(alerts).toEqual([t.summary(3), t.required, t.range, t.required]);
    const name = document.getElementById('survey-name')!;
    expect(name.getAttribute('aria-invalid')).toBe('true');
    expect(messageOf(name)).toBe(t.required);
    expect(age.getAttribute('aria-invalid')).toBe('true');
    expect(messageOf(age)).toBe(t.range);
    // The optional question is fine empty.
    expect(document.getElementById('survey-nick')!.getAttribute('aria-invalid')).toBeNull();
    expect(messageOf(document.querySelector('fieldset')!)).toBe(t.required);
    // The first field with a problem takes the focus.
    expect(document.activeElement).toBe(name);
  });

  it('sends the answers by question id once they pass, the optional one left empty', () => {
    const onSubmit = vi.fn();
    renderForm(onSubmit);
    fireEvent.change(document.getElementById('survey-name')!, { target: { value: ' Ana ' } });
    fireEvent.change(document.getElementById('survey-age')!, { target: { value: '18' } });
    fireEvent.click(screen.getByLabelText('Notion'));
    fireEvent.click(screen.getByRole('button', { name: t.submit }));
    expect(screen.queryAllByRole('alert')).toEqual([]);
    expect(onSubmit).toHaveBeenCalledWith([
      { questionId: 'name', answer: 'Ana' },
      { questionId: 'age', answer: '18' },
      { questionId: 'nick', answer: '' },
      { questionId: 'tools', answer: ['Notion'] },
    ]);
  });

  it("shows the server's refusal of an answer next to its field, worded by its case", () => {
    const text = lng === 'es' ? 'Escribe un número entre 18 y 99' : 'Enter a number from 18 to 99';
    // The server's text is in the run's language, which need not be the reader's: the case decides.
    const refusal = new ApiError('refused', 400, 'VALIDATION_ERROR', {
      code: 'VALIDATION_ERROR',
      key: 'invalidAnswers',
      details: {
        fields: [
          {
            field: 'answers.age',
            message: 'Texte du serveur',
            key: 'answerOutOfRange',
            params: { min: 18, max: 99 },
          },
        ],
      },
    });
    renderForm(vi.fn(), refusal);
    const age = document.getElementById('survey-age')!;
    expect(age.getAttribute('aria-invalid')).toBe('true');
    expect(messageOf(age)).toBe(text);
    // Changing the answer clears it.
    fireEvent.change(age, { target: { value: '30' } });
    expect(age.getAttribute('aria-invalid')).toBeNull();
  });
});
