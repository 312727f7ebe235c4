import type { TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import { ZWorkflowInput } from '../../../../shared/contract/workflows';
import { draftToInput, emptyDraft, hasErrors, validateDraft, type WorkflowDraft } from './workflow-form';

// Messages come back as their keys, so the tests read which rule fired.
const t = ((key: string) => key) as unknown as TFunction<'admin'>;

const chatbot = (): WorkflowDraft => ({
  ...emptyDraft(),
  userId: '0b6f1f5e-3c0a-4a43-9a0e-6a8c7e0f7b11',
  name: { es: ' Calificador ', en: 'Qualifier' },
  categoryKey: 'sales',
  creditsPerExecution: '2',
  webhookUrl: 'https://hooks.example.com/q',
  welcomeMessage: { es: 'Hola', en: 'Hi' },
  aiPrompt: 'Ask for the budget.',
});

const survey = (): WorkflowDraft => ({
  ...chatbot(),
  interactionType: 'survey',
  surveyQuestions: [
    { id: 'q1', question: { es: '¿Color?', en: 'Colour?' }, type: 'select', options: ['Rojo', 'Azul'] },
    { id: 'q2', question: { es: '¿Algo más?', en: 'Anything else?' }, type: 'textarea', options: [] },
  ],
});

describe('validateDraft', () => {
  it('names every missing required field of an empty chatbot', () => {
    const errors = validateDraft(emptyDraft(), t);
    expect(errors).toMatchObject({
      userId: 'form.errors.user',
      name: 'form.errors.name',
      categoryKey: 'form.errors.category',
      creditsPerExecution: 'form.errors.credits',
      webhookUrl: 'form.errors.webhookUrl',
      welcomeMessage: 'form.errors.welcomeMessage',
      aiPrompt: 'form.errors.aiPrompt',
    });
    expect(hasErrors(errors)).toBe(true);
  });

  it('accepts a complete chatbot and a complete survey', () => {
    expect(hasErrors(validateDraft(chatbot(), t))).toBe(false);
    expect(hasErrors(validateDraft(survey(), t))).toBe(false);
  });

  it('needs the name in both languages, not just one', () => {
    expect(validateDraft({ ...chatbot(), name: { es: 'Solo español', en: '  ' } }, t).name).toBe(
      'form.errors.name',
    );
  });

  it.each(['0', '-1', '1.5', 'abc', ''])('refuses %j credits per execution', (credits) => {
    expect(validateDraft({ ...chatbot(), creditsPerExecution: credits }, t).creditsPerExecution).toBe(
      'form.errors.credits',
    );
  });

  it.each(['hooks.example.com', 'ftp://hooks.example.com/x', 'javascript:alert(1)'])(
    'refuses %j as a webhook URL',
    (url) => {
      expect(validateDraft({ ...chatbot(), webhookUrl: url }, t).webhookUrl).toBe('form.errors.webhookUrl');
    },
  );

  it('asks a survey for at least one question, each with text, choices with options', () => {
    expect(validateDraft({ ...survey(), surveyQuestions: [] }, t).survey).toBe('form.errors.noQuestions');
    const errors = validateDraft(
      {
        ...survey(),
        surveyQuestions: [
          { id: 'a', question: { es: '', en: 'Only English' }, type: 'text', options: [] },
          { id: 'b', question: { es: 'Elige', en: 'Pick' }, type: 'checkbox', options: [] },
        ],
      },
      t,
    );
    expect(errors.questions).toEqual({
      a: { question: 'form.errors.questionText' },
      b: { options: 'form.errors.options' },
    });
  });

  it('does not ask a survey for chatbot fields', () => {
    const errors = validateDraft({ ...survey(), welcomeMessage: { es: '', en: '' }, aiPrompt: '' }, t);
    expect(errors.welcomeMessage).toBeUndefined();
    expect(errors.aiPrompt).toBeUndefined();
  });
});

describe('draftToInput', () => {
  it('sends a chatbot the server schema accepts, with the category as its label pair', () => {
    const input = draftToInput({ ...chatbot(), surveyQuestions: survey().surveyQuestions });
    const parsed = ZWorkflowInput.parse(input);
    expect(parsed.category).toEqual({ es: 'Ventas', en: 'Sales' });
    expect(parsed.name).toEqual({ es: 'Calificador', en: 'Qualifier' });
    expect(parsed.creditsPerExecution).toBe(2);
    expect(parsed.description).toBeNull();
    // Questions typed before switching to chatbot are not sent.
    expect(parsed.surveyQuestions).toEqual([]);
  });

  it('sends a survey in its order, without chatbot fields', () => {
    const parsed = ZWorkflowInput.parse(draftToInput(survey()));
    expect(parsed.interactionType).toBe('survey');
    expect(parsed.surveyQuestions.map((q) => q.id)).toEqual(['q1', 'q2']);
    expect(parsed.welcomeMessage).toBeNull();
    expect(parsed.aiPrompt).toBeNull();
  });
});
