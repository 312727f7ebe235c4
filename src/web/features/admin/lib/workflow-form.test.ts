import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import i18next, { type TFunction } from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { ZAdminWorkflowUpdate } from '#shared/contract/admin';
import { ZWorkflowInput } from '#shared/contract/workflows';
import {
  draftToInput,
  emptyDraft,
  hasErrors,
  issuesToErrors,
  validateDraft,
  type DraftErrors,
  type WorkflowDraft,
} from './workflow-form';

// The real admin translations, so each message is checked to exist in both languages.
const bundle = (lng: string) =>
  JSON.parse(
    readFileSync(join(import.meta.dirname, '../../../i18n/locales', lng, 'admin.json'), 'utf8'),
  ) as object;
const i18n = i18next.createInstance();
let en: TFunction<'admin'>;
let es: TFunction<'admin'>;
beforeAll(async () => {
  await i18n.init({
    resources: { en: { admin: bundle('en') }, es: { admin: bundle('es') } },
    ns: ['admin'],
    defaultNS: 'admin',
    fallbackLng: false,
    interpolation: { escapeValue: false },
  });
  en = i18n.getFixedT('en', 'admin');
  es = i18n.getFixedT('es', 'admin');
});

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

/** Every message the errors hold, so a test can check none is a bare key. */
const messages = (errors: DraftErrors): string[] => {
  const { questions, ...fields } = errors;
  return [
    ...Object.values(fields),
    ...Object.values(questions).flatMap((q) => [q.question, q.options]),
  ].filter((m): m is string => typeof m === 'string');
};

describe('validateDraft (the contract’s rules, worded per field)', () => {
  it('names every missing field of an empty chatbot at once, the chatbot’s own rules included', () => {
    const errors = validateDraft(emptyDraft(), en);
    expect(errors).toEqual({
      userId: 'You must select a user',
      name: 'The name is required in Spanish and English',
      categoryKey: 'Choose a category',
      creditsPerExecution: 'Credits per run must be a whole number from 1 to 10,000',
      webhookUrl: 'Enter a full http or https URL',
      welcomeMessage: 'The welcome message is required in Spanish and English',
      aiPrompt: 'The AI prompt is required',
      questions: {},
    });
    expect(hasErrors(errors)).toBe(true);
  });

  it('words the same failures in Spanish', () => {
    const errors = validateDraft(emptyDraft(), es);
    expect(errors.userId).toBe('Debes seleccionar un usuario');
    expect(errors.name).toBe('El nombre es obligatorio en español e inglés');
    expect(errors.creditsPerExecution).toBe(
      'Los créditos por ejecución deben ser un número entero entre 1 y 10.000',
    );
    expect(errors.aiPrompt).toBe('El prompt de IA es obligatorio');
  });

  it('accepts a complete chatbot and a complete survey', () => {
    expect(validateDraft(chatbot(), en)).toEqual({ questions: {} });
    expect(validateDraft(survey(), en)).toEqual({ questions: {} });
  });

  it('needs the name in both languages, not just one', () => {
    const errors = validateDraft({ ...chatbot(), name: { es: 'Solo español', en: '  ' } }, en);
    expect(errors).toEqual({ name: 'The name is required in Spanish and English', questions: {} });
  });

  it.each(['0', '-1', '1.5', 'abc', '', '10001'])(
    'refuses %j credits per execution with the range',
    (credits) => {
      expect(validateDraft({ ...chatbot(), creditsPerExecution: credits }, en).creditsPerExecution).toBe(
        'Credits per run must be a whole number from 1 to 10,000',
      );
    },
  );

  it('accepts the ends of the credits range', () => {
    expect(validateDraft({ ...chatbot(), creditsPerExecution: '1' }, en).creditsPerExecution).toBeUndefined();
    expect(
      validateDraft({ ...chatbot(), creditsPerExecution: '10000' }, en).creditsPerExecution,
    ).toBeUndefined();
  });

  it.each(['hooks.example.com', 'ftp://hooks.example.com/x', 'javascript:alert(1)', ''])(
    'refuses %j as a webhook URL',
    (url) => {
      expect(validateDraft({ ...chatbot(), webhookUrl: url }, en).webhookUrl).toBe(
        'Enter a full http or https URL',
      );
    },
  );

  it('says how long a text may be when it is too long', () => {
    const long = 'x'.repeat(201);
    expect(validateDraft({ ...chatbot(), name: { es: long, en: 'Fine' } }, en).name).toBe(
      'Use at most 200 characters',
    );
    expect(
      validateDraft({ ...chatbot(), description: { es: 'x'.repeat(5001), en: '' } }, en).description,
    ).toBe('Use at most 5,000 characters');
  });

  it('asks a survey for at least one question, each with text, choices with options', () => {
    expect(validateDraft({ ...survey(), surveyQuestions: [] }, en).survey).toBe('Add at least one question');
    const errors = validateDraft(
      {
        ...survey(),
        surveyQuestions: [
          { id: 'a', question: { es: '', en: 'Only English' }, type: 'text', options: [] },
          { id: 'b', question: { es: 'Elige', en: 'Pick' }, type: 'checkbox', options: [] },
          { id: 'c', question: { es: 'Elige', en: 'Pick' }, type: 'select', options: ['Ok', ' '] },
        ],
      },
      en,
    );
    expect(errors.questions).toEqual({
      a: { question: 'The question text is required in Spanish and English' },
      b: { options: 'Add at least one option' },
      c: { options: 'An option cannot be blank' },
    });
  });

  it('shows the survey’s rules even while another field fails', () => {
    const errors = validateDraft(
      {
        ...survey(),
        userId: '',
        surveyQuestions: [{ id: 'a', question: { es: '', en: '' }, type: 'select', options: [] }],
      },
      en,
    );
    expect(errors.userId).toBe('You must select a user');
    expect(errors.questions).toEqual({
      a: {
        question: 'The question text is required in Spanish and English',
        options: 'Add at least one option',
      },
    });
  });

  it('does not ask a survey for chatbot fields', () => {
    const errors = validateDraft({ ...survey(), welcomeMessage: { es: '', en: '' }, aiPrompt: '' }, en);
    expect(errors).toEqual({ questions: {} });
  });

  it('never shows a bare key, in either language, for the failures of an empty form', () => {
    for (const t of [en, es]) {
      for (const draft of [emptyDraft(), { ...emptyDraft(), interactionType: 'survey' as const }]) {
        for (const message of messages(validateDraft(draft, t)))
          expect(message).not.toMatch(/^form\.|^survey\./);
      }
    }
  });
});

describe('issuesToErrors', () => {
  it('puts a rule no field answers for on the form, so the submit says why it stopped', () => {
    const parsed = ZWorkflowInput.safeParse({ ...draftToInput(chatbot()), interactionType: 'quiz' });
    expect(parsed.success).toBe(false);
    const errors = issuesToErrors(parsed.error?.issues ?? [], [], en);
    expect(errors.form).toBe("Some of the workflow's settings are not valid. Reload the page and try again.");
    expect(hasErrors(errors)).toBe(true);
  });

  it('maps the edit form’s update schema the same way', () => {
    const parsed = ZAdminWorkflowUpdate.safeParse({
      userId: '',
      name: { es: 'Nombre', en: '' },
      category: { es: '', en: '' },
      webhookUrl: 'not a url',
    });
    expect(issuesToErrors(parsed.error?.issues ?? [], [], es)).toEqual({
      userId: 'Debes seleccionar un usuario',
      name: 'El nombre es obligatorio en español e inglés',
      categoryKey: 'Elige una categoría',
      webhookUrl: 'Introduce una URL http o https completa',
      questions: {},
    });
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
