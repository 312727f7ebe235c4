import { describe, expect, it } from 'vitest';
import type { TSurveyQuestion } from '#shared/contract/workflows';
import { initialAnswers, isRequired, missingAnswers, surveyResponses, toggleOption } from './survey-answers';

const q = (id: string, type: TSurveyQuestion['type'], options: string[] = []): TSurveyQuestion => ({
  id,
  type,
  options,
  question: { es: `Pregunta ${id}`, en: `Question ${id}` },
});
const questions = [
  q('name', 'text'),
  q('about', 'textarea'),
  q('size', 'number'),
  q('plan', 'select', ['Basic', 'Pro']),
  q('tools', 'checkbox', ['Excel', 'Sheets', 'Notion']),
];

describe('survey answers', () => {
  it('start empty: strings, and a list for checkboxes', () => {
    expect(initialAnswers(questions)).toEqual({ name: '', about: '', size: '', plan: '', tools: [] });
  });

  it('require every question but checkboxes', () => {
    expect(questions.filter(isRequired).map((x) => x.id)).toEqual(['name', 'about', 'size', 'plan']);
  });

  it('report the missing required answers in form order, whitespace counting as missing', () => {
    const answers = { ...initialAnswers(questions), about: '   ', size: '3' };
    expect(missingAnswers(questions, answers)).toEqual(['name', 'about', 'plan']);
    expect(missingAnswers(questions, { name: 'a', about: 'b', size: '0', plan: 'Pro', tools: [] })).toEqual(
      [],
    );
  });

  it('keep ticked options in the options order', () => {
    const opts = ['Excel', 'Sheets', 'Notion'];
    let chosen = toggleOption(opts, [], 'Notion');
    chosen = toggleOption(opts, chosen, 'Excel');
    expect(chosen).toEqual(['Excel', 'Notion']);
    expect(toggleOption(opts, chosen, 'Notion')).toEqual(['Excel']);
  });

  it('become responses with the question in the runner language and checkbox answers as lists', () => {
    const answers = { name: ' Ana ', about: 'Bakery', size: '5', plan: 'Pro', tools: ['Excel', 'Notion'] };
    expect(surveyResponses(questions, answers, (x) => x.question.es, 'es')).toEqual([
      { question: 'Pregunta name', answer: 'Ana' },
      { question: 'Pregunta about', answer: 'Bakery' },
      { question: 'Pregunta size', answer: '5' },
      { question: 'Pregunta plan', answer: 'Pro' },
      { question: 'Pregunta tools', answer: ['Excel', 'Notion'] },
    ]);
  });

  it('send a labelled option as its label in the runner language, an unlabelled one as it is', () => {
    const labelled: TSurveyQuestion[] = [
      {
        ...q('severity', 'select', ['Low', 'High']),
        optionLabels: { Low: { en: 'Low', es: 'Baja' }, High: { en: 'High', es: 'Alta' } },
      },
      { ...q('areas', 'checkbox', ['IT', 'Ticket']), optionLabels: { IT: { en: 'IT', es: 'Informática' } } },
    ];
    const answers = { severity: 'High', areas: ['IT', 'Ticket'] };
    expect(surveyResponses(labelled, answers, (x) => x.question.es, 'es')).toEqual([
      { question: 'Pregunta severity', answer: 'Alta' },
      { question: 'Pregunta areas', answer: ['Informática', 'Ticket'] },
    ]);
    expect(surveyResponses(labelled, answers, (x) => x.question.en, 'en')).toEqual([
      { question: 'Question severity', answer: 'High' },
      { question: 'Question areas', answer: ['IT', 'Ticket'] },
    ]);
  });
});

describe('file answers', () => {
  const file = q('data', 'file');
  const form = [q('name', 'text'), file];

  it('are required until a file is uploaded', () => {
    expect(missingAnswers(form, { ...initialAnswers(form), name: 'Ana' })).toEqual(['data']);
    const uploaded = { fileId: '7d3f5a0e-8c1b-4a49-9f5e-2b6c1d0e9a77', filename: 'a.csv', size: 12 };
    expect(missingAnswers(form, { name: 'Ana', data: uploaded })).toEqual([]);
  });

  it('go to the server as the upload id, never as the file name', () => {
    const uploaded = { fileId: '7d3f5a0e-8c1b-4a49-9f5e-2b6c1d0e9a77', filename: 'a.csv', size: 12 };
    expect(surveyResponses(form, { name: 'Ana', data: uploaded }, (x) => x.question.en, 'en')).toEqual([
      { question: 'Question name', answer: 'Ana' },
      { question: 'Question data', answer: { fileId: uploaded.fileId } },
    ]);
  });
});
